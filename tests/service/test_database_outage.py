"""The database out of reach for a moment (PostgreSQL restarting, the network gone): the work is
refused with a clear text and nothing is half-saved; once it answers again, the same work goes
through, once."""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from app.domain.errors import DATABASE_UNAVAILABLE, ServiceUnavailable
from app.domain.firms import read_firm_form
from app.domain.wire import rendered
from app.services import audit, firms
from tests import audit_edge
from tests import factories as f

pytestmark = pytest.mark.postgres


class Outage:
    """Ends every connection to the test database and refuses new ones until `end`."""

    def __init__(self, database_url: str) -> None:
        parts = urlsplit(database_url.replace("postgresql+psycopg://", "postgresql://", 1))
        self.name = parts.path.lstrip("/")
        self.admin = psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)

    def begin(self) -> None:
        self.admin.execute(f'ALTER DATABASE "{self.name}" WITH ALLOW_CONNECTIONS false')
        self.admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = %s AND pid <> pg_backend_pid()", [self.name])

    def end(self) -> None:
        self.admin.execute(f'ALTER DATABASE "{self.name}" WITH ALLOW_CONNECTIONS true')
        self.admin.close()


def test_work_is_refused_clearly_during_an_outage_and_goes_through_after(db, database_url):
    world = f.make_world()
    superuser = f.actor(world.superuser)
    current = rendered(firms.get_firm(actor=superuser, firm_id=world.firm_a.id))
    client = f.api_client()
    headers = f.headers(world.superuser)
    outage = Outage(database_url)
    outage.begin()
    try:
        with pytest.raises(ServiceUnavailable) as refused:
            firms.update_firm(actor=superuser, firm_id=world.firm_a.id, form=read_firm_form({**current, "phone": "02 9999 0000"}))
        assert refused.value.message == DATABASE_UNAVAILABLE
        answer = client.get("/api/me", headers=headers)
        assert answer.status_code == 503
        assert answer.json() == {"success": False, "message": f"ServiceUnavailable: {DATABASE_UNAVAILABLE}"}
    finally:
        outage.end()
    # back: nothing of the refused change was kept, and the same change now goes through once
    assert rendered(firms.get_firm(actor=superuser, firm_id=world.firm_a.id))["phone"] == current["phone"]
    saved = rendered(firms.update_firm(actor=superuser, firm_id=world.firm_a.id, form=read_firm_form({**current, "phone": "02 9999 0000"})))
    assert saved["phone"] == "02 9999 0000"
    assert audit_edge.list_events(actor=superuser, action="firm.updated")[1] == 1
    assert client.get("/api/me", headers=headers).status_code == 200
