"""Quick test data: firms, users, actors and sessions written straight to the tables.

The factories are one module set, one builder per kind of object (no other module or test builds
these rows itself):
  tests.factories             firms, users, actors, sessions and tokens, mail, any row's update,
                              times (`at`), upload files (csv_bytes, xlsx_bytes, png_bytes), the API client
  tests.factories_assets      the cash class, classes, types, industry groups, assets, prices
  tests.factories_models      models (through the service, or bare rows) and their payloads
  tests.factories_portfolios  portfolios, brokers, institutions, transactions, custom holdings, deposits
  tests.factories_advice      books of funded portfolios, target portfolios, trade instructions, trades
  tests.factories_recommendations  long-term and short-term recommendations
  tests.factories_industry_groups  reading industry groups and their allocations back
Each module also has its small "world" (make_world, make_asset_world, make_universe,
make_portfolio_world, make_rec_world, make_book) built with those builders.

Passwords: every user made here has the password PASSWORD unless told otherwise; its argon2 hash
is computed once per test session (hashing costs ~50 ms), so making users is cheap. Sessions are
inserted directly too (`session_token`), so tests that only need a signed-in user never hash or
verify a password. Use the real sign-in only where sign-in itself is under test.
"""
from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Iterable, Sequence

from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import ActionToken, Firm, OutboxMail, SessionToken, SigninFailure, User
from app.db.types import utcnow
from app.domain.permissions import Actor
from app.domain.roles import Role, UserStatus
from app.services.security import hash_password, new_token, token_digest

PASSWORD = "Secret123"
_counter = itertools.count(1)


def password_hash(password: str = PASSWORD) -> str:
    """argon2 hash of `password`, computed once per test session."""
    return _cached_hash(password)


@lru_cache(maxsize=None)
def _cached_hash(password: str) -> str:
    return hash_password(password)


def _n() -> int:
    return next(_counter)


# ---- firms ----------------------------------------------------------------------------------------
def make_firm(name: str | None = None, **fields: Any) -> Firm:
    """A live firm; any Firm column can be given (e.g. deleted_at, fee, created_at)."""
    with session_scope() as s:
        firm = Firm(name=name or f"Firm {_n():04d}", **fields)
        s.add(firm)
        s.flush()
        return firm


def get_firm_row(firm_id: int) -> Firm | None:
    with session_scope() as s:
        return s.get(Firm, firm_id)


def count_firms() -> int:
    with session_scope() as s:
        return len(s.exec(select(Firm.id)).all())


# ---- users ----------------------------------------------------------------------------------------
def make_user(
    role: Role | str = Role.CLIENT,
    firm: Firm | int | None = None,
    *,
    email: str | None = None,
    first_name: str | None = None,
    last_name: str = "Tester",
    password: str | None = PASSWORD,
    status: UserStatus | str = UserStatus.ACTIVE,
    **fields: Any,
) -> User:
    """A user row. `password=None` leaves the account unactivated (no password yet)."""
    role = Role(role)
    firm_id = firm.id if isinstance(firm, Firm) else firm
    n = _n()
    with session_scope() as s:
        user = User(
            email=(email or f"{role.value}{n}@test.example.com").lower(),
            first_name=first_name or f"{role.title}{n:04d}",
            last_name=last_name,
            role=role.value,
            status=UserStatus(status).value,
            firm_id=firm_id,
            password_hash=password_hash(password) if password else None,
            activated_at=utcnow() if password else None,
            **fields,
        )
        s.add(user)
        s.flush()
        return user


def get_user_row(user_id: int) -> User | None:
    with session_scope() as s:
        return s.get(User, user_id)


def user_by_email(email: str) -> User:
    """The stored user with this address (e.g. one the demo data made)."""
    with session_scope() as s:
        return s.exec(select(User).where(User.email == email.lower())).one()


def update_user_row(user_id: int, **fields: Any) -> User:
    return update_row(User, user_id, **fields)


# ---- any row ---------------------------------------------------------------------------------------
def update_row(table: type, row_id: int, **fields: Any) -> Any:
    """Sets columns of one stored row (any table) straight in the database; gives the row."""
    with session_scope() as s:
        row = s.get(table, row_id)
        for key, value in fields.items():
            setattr(row, key, value)
        s.add(row)
        s.flush()
        return row


def actor(who: User | Role | str, *, firm_id: int | None = 1, user_id: int = 100) -> Actor:
    """The acting user of a service call: a stored user row's, or (no database needed) a user of the
    role `who` with id `user_id` in the firm `firm_id` (a superuser has none)."""
    if isinstance(who, (Role, str)):
        role = Role(who)
        return Actor(id=user_id, role=role, firm_id=None if role is Role.SUPERUSER else firm_id,
                     email=f"{role.value}@example.com", first_name="Ann", last_name="Example")
    return Actor(id=who.id, role=Role(who.role), firm_id=who.firm_id, email=who.email,
                 first_name=who.first_name, last_name=who.last_name)


# ---- sessions and tokens --------------------------------------------------------------------------
def session_token(user: User, *, expires_in: timedelta = timedelta(hours=12)) -> str:
    """A session token for `user`, inserted directly (no password check)."""
    token = new_token()
    with session_scope() as s:
        s.add(SessionToken(token_hash=token_digest(token), user_id=user.id, expires_at=utcnow() + expires_in))
    return token


def ticket(token: str, path: str) -> str:
    """A download link's single-use ticket for `path` (the query is ignored), asked for with a session token."""
    from app.services import auth

    return auth.issue_download_ticket(token=token, path=path)


def headers(user: User) -> dict[str, str]:
    return {"x-token": session_token(user)}


def session_rows(user_id: int) -> list[SessionToken]:
    with session_scope() as s:
        return list(s.exec(select(SessionToken).where(SessionToken.user_id == user_id)).all())


def expire_session(token: str) -> None:
    with session_scope() as s:
        row = s.exec(select(SessionToken).where(SessionToken.token_hash == token_digest(token))).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        s.add(row)


def expire_action_token(token: str) -> None:
    with session_scope() as s:
        row = s.exec(select(ActionToken).where(ActionToken.token_hash == token_digest(token))).one()
        row.expires_at = utcnow() - timedelta(seconds=1)
        s.add(row)


def add_signin_failures(email: str, count: int) -> None:
    """Record `count` failed sign-ins for `email` now (cheaper than failing with a real password check)."""
    with session_scope() as s:
        for _ in range(count):
            s.add(SigninFailure(email=email.lower(), ip="127.0.0.1"))


def signin_failures(email: str) -> int:
    with session_scope() as s:
        return len(s.exec(select(SigninFailure.id).where(SigninFailure.email == email.lower())).all())


# ---- mail -----------------------------------------------------------------------------------------
_TOKEN_IN_LINK = re.compile(r"/(activation|reset-password|email-change)/([A-Za-z0-9_-]+)")


def outbox(to: str | None = None) -> list[OutboxMail]:
    """Outbox rows (oldest first), optionally only those to one address."""
    with session_scope() as s:
        stmt = select(OutboxMail).order_by(OutboxMail.id)
        if to is not None:
            stmt = stmt.where(OutboxMail.to_address == to.lower())
        return list(s.exec(stmt).all())


def token_from(body: str, kind: str) -> str:
    """The token of the /<kind>/<token> link in a mail body (kind: activation, reset-password, email-change)."""
    found = [t for k, t in _TOKEN_IN_LINK.findall(body) if k == kind]
    assert found, f"no /{kind}/ link in mail: {body!r}"
    return found[-1]


def last_token(to: str, kind: str) -> str:
    mails = outbox(to)
    assert mails, f"no mail to {to}"
    return token_from(mails[-1].body, kind)


# ---- a small world -------------------------------------------------------------------------------
@dataclass
class World:
    """A superuser and two firms (A and B), each with an administrator, an adviser and a client."""

    superuser: User
    firm_a: Firm
    admin_a: User
    adviser_a: User
    client_a: User
    firm_b: Firm
    admin_b: User
    adviser_b: User
    client_b: User


def make_world() -> World:
    superuser = make_user(Role.SUPERUSER, None)
    firm_a, firm_b = make_firm("Alpha Advisory"), make_firm("Bravo Wealth")
    people = {}
    for key, firm in (("a", firm_a), ("b", firm_b)):
        people[f"admin_{key}"] = make_user(Role.ADMINISTRATOR, firm)
        people[f"adviser_{key}"] = make_user(Role.ADVISER, firm)
        people[f"client_{key}"] = make_user(Role.CLIENT, firm, adviser_id=people[f"adviser_{key}"].id)
    return World(superuser=superuser, firm_a=firm_a, firm_b=firm_b, **people)


# ---- files ----------------------------------------------------------------------------------------
def png_bytes(size: tuple[int, int] = (8, 8), color: tuple[int, int, int] = (30, 120, 200)) -> bytes:
    """A real PNG image made with Pillow."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def padded_png(total_bytes: int) -> bytes:
    """A real PNG followed by padding up to exactly `total_bytes` (viewers ignore bytes after IEND)."""
    data = png_bytes()
    assert total_bytes >= len(data)
    return data + b"\0" * (total_bytes - len(data))


CSV = "text/csv"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def csv_bytes(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None, *, encoding: str = "utf-8",
              line_end: str = "\r\n") -> bytes:
    """A CSV upload written by the csv module: the header row (if any), then the rows (None is an
    empty cell; cells are quoted only where they must be)."""
    import csv

    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator=line_end)
    if header:
        writer.writerow(header)
    for row in rows:
        writer.writerow(["" if c is None else c for c in row])
    return buffer.getvalue().encode(encoding)


def xlsx_bytes(rows: Iterable[Sequence[Any]], header: Sequence[str] | None = None, *, sheet: str | None = None) -> bytes:
    """A real .xlsx workbook (openpyxl): the header row (if any), then the rows; cells keep their
    Python types (dates, numbers, text)."""
    from openpyxl import Workbook

    workbook = Workbook()
    worksheet = workbook.active
    if sheet:
        worksheet.title = sheet
    if header:
        worksheet.append(list(header))
    for row in rows:
        worksheet.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def stored_files(data_dir) -> list[str]:
    folder = data_dir / "files"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def at(day: int | str | date, month: int | None = None, dom: int | None = None, hour: int = 12) -> datetime:
    """A UTC time on a day, at noon unless `hour` is given: at(2024, 3, 1), at(2024, 3, 1, 0),
    at("2026-03-01", hour=9) or at(date(2026, 3, 1), hour=0)."""
    if isinstance(day, str):
        day = date.fromisoformat(day)
    elif not isinstance(day, date):
        day = date(day, month, dom)
    return datetime(day.year, day.month, day.day, hour, tzinfo=timezone.utc)


# ---- the REST API ----------------------------------------------------------------------------------
def api_client(*, raise_server_exceptions: bool = True):
    """A TestClient on the REST API (by default server errors are raised in the test, not turned
    into 500s). Tests under tests/api take the `client` fixture (tests/api/conftest.py)."""
    from fastapi.testclient import TestClient

    from app.api.main import create_api

    return TestClient(create_api(), raise_server_exceptions=raise_server_exceptions)


def ok_result(response, status: int = 200):
    """The `result` of a success envelope, after checking status and shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is True and set(body) == {"success", "result"}, body
    return body["result"]


def failure(response, status: int) -> dict:
    """The failure envelope, after checking its status and shape (app.api.schemas.ErrorEnvelope)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["success"] is False and isinstance(body["message"], str), body
    assert set(body) <= {"success", "message", "errors", "result"}, body
    return body
