"""The test harness itself: the SMTP sink and the per-test database."""
import smtplib
from email.message import EmailMessage

from sqlalchemy import inspect, text


def test_smtp_sink_receives_mail(smtp_sink):
    from app.settings import settings

    assert settings.smtp_url == smtp_sink.url
    msg = EmailMessage()
    msg["From"] = "sender@example.com"
    msg["To"] = "Someone <Someone@Example.com>"
    msg["Subject"] = "Hello"
    msg.set_content("Open http://127.0.0.1:3000/activation/abc to continue.")
    with smtplib.SMTP("127.0.0.1", smtp_sink.port, timeout=5) as smtp:
        smtp.send_message(msg)

    received = smtp_sink.wait_for("someone@example.com", timeout=5)
    assert received["Subject"] == "Hello"
    assert smtp_sink.links(received) == ["http://127.0.0.1:3000/activation/abc"]
    assert len(smtp_sink.messages) == 1


def test_db_is_migrated_and_empty(db):
    names = set(inspect(db).get_table_names())
    assert "users" in names
    assert "alembic_version" in names
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() == 0
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1


def test_db_rows_are_removed_after_each_test(db):
    # Runs after the demo-free test above; writes a row that the next test must not see.
    from app.services import demo

    demo.load_demo_data()
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() > 0


def test_db_is_empty_again(db):
    with db.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM users")).scalar_one() == 0


def test_redis_url_points_settings_at_redis(redis_url):
    import redis

    from app.settings import settings

    assert settings.redis_url == redis_url
    assert redis.Redis.from_url(redis_url).ping()
