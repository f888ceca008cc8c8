"""The one place that reads the environment.

Everything runs on the embedded defaults (SQLite under .data/, mail to the outbox table,
in-process jobs); set DATABASE_URL, REDIS_URL or SMTP_URL to scale out.
"""
from __future__ import annotations

from pathlib import Path

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore", case_sensitive=False)

    data_dir: Path = ROOT / ".data"
    database_url: str = ""
    redis_url: str = ""
    smtp_url: str = ""  # smtp://user:pass@host:port ; empty -> outbox table
    mail_from: str = "Wealth Advice <no-reply@wealth-advice.local>"
    # Links in e-mails point here (the address users reach the app at).
    public_url: str = "http://localhost:3000"

    # A session ends at the first of: its absolute lifetime since sign-in, or this long without use.
    session_token_hours: int = 12
    session_idle_minutes: int = 30
    # A download link's ticket: one use, within this many seconds of the click that asked for it.
    download_ticket_seconds: int = 60
    activation_token_hours: int = 24 * 7
    recovery_token_minutes: int = 60
    email_change_token_hours: int = 24
    signin_max_failures: int = 5
    signin_lockout_minutes: int = 15
    # Bulk calculation: portfolios per background job.
    bulk_chunk_size: int = 250
    # Test-only: a pause (milliseconds) before each bulk calculation chunk, so an end-to-end test can
    # watch the progress move. Always 0 outside tests.
    bulk_test_delay_ms: int = 0
    # The key that encrypts portfolios' broker credentials at rest (a Fernet key: 32 url-safe base64
    # bytes). Empty: a key made on first use and kept in DATA_DIR/broker_credentials.key.
    broker_credentials_key: str = ""
    # WA_PROFILE_DIR: where each web process writes where its events' time goes (bench load --profile);
    # empty: nothing is measured.
    wa_profile_dir: str = ""

    @field_validator("data_dir")
    @classmethod
    def _absolute(cls, v: Path) -> Path:
        return v if v.is_absolute() else ROOT / v

    @property
    def db_url(self) -> str:
        if self.database_url:
            url = self.database_url
            # psycopg 3 is the driver we ship; accept the common spellings.
            for prefix in ("postgres://", "postgresql://"):
                if url.startswith(prefix):
                    return "postgresql+psycopg://" + url[len(prefix):]
            return url
        return f"sqlite:///{self.data_dir / 'app.db'}"

    @property
    def files_dir(self) -> Path:
        return self.data_dir / "files"


settings = Settings()
