"""Reference data every firm shares: stockbrokers and deposit-taking institutions (banks, building
societies, credit unions) with the products they offer.

`ensure_reference_data()` adds the missing entries of the lists below (by name / title) and never
changes or removes what is there, so `python -m app.cli setup` and `demo-data` may run it any number
of times. The portfolio form's pickers read them through `list_brokers` / `list_institutions`
(GET /api/brokers, GET /api/institutions)."""
from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Broker, Institution
from app.db.types import stored_id
from app.domain.permissions import Actor
from app.domain.transactions import AT_CALL_ACCOUNT, CASH_ACCOUNT, TERM_DEPOSITS

_ALL = f"{CASH_ACCOUNT},{TERM_DEPOSITS},{AT_CALL_ACCOUNT}"
_DEPOSITS = f"{TERM_DEPOSITS},{AT_CALL_ACCOUNT}"
_CASH_AND_TERM = f"{CASH_ACCOUNT},{TERM_DEPOSITS}"

# (name, code): codes begin with three uppercase letters (spec 002 s5, broker code rule)
BROKERS: tuple[tuple[str, str], ...] = (
    ("CommSec", "COMSEC"),
    ("Macquarie Online Trading", "MQGEQ"),
    ("AUSIEX", "AUSIEX"),
    ("Bell Direct", "BELLD"),
    ("nabtrade", "NABTRD"),
    ("Desktop Broker", "DTBRK"),
    ("CMC Markets Invest", "CMCINV"),
    ("Westpac Online Investing", "WBCOI"),
    ("ANZ Share Investing", "ANZSI"),
    ("SelfWealth", "SLFWLT"),
    ("Morgans Financial", "MORGNS"),
    ("Ord Minnett", "ORDMIN"),
    ("Shaw and Partners", "SHWPTN"),
    ("Bell Potter Securities", "BPSEC"),
    ("Openmarkets", "OPNMKT"),
)

# provider type -> (title, product types), in the order they are added
INSTITUTIONS_BY_TYPE: dict[str, tuple[tuple[str, str], ...]] = {
    "Bank": (
        ("Commonwealth Bank of Australia", _ALL),
        ("Westpac Banking Corporation", _ALL),
        ("Australia and New Zealand Banking Group", _ALL),
        ("National Australia Bank", _ALL),
        ("Macquarie Bank", _ALL),
        ("ING Bank (Australia)", _CASH_AND_TERM),
        ("Bendigo and Adelaide Bank", _ALL),
        ("Bank of Queensland", _ALL),
        ("Suncorp Bank", _ALL),
        ("St.George Bank", _ALL),
        ("AMP Bank", _ALL),
        ("Judo Bank", TERM_DEPOSITS),
        ("Rabobank Australia", _DEPOSITS),
        ("ubank", _CASH_AND_TERM),
        ("Heritage and People's Choice", _ALL),
    ),
    "Building Society": (
        ("Newcastle Permanent Building Society", _ALL),
        ("Maitland Mutual Building Society", _DEPOSITS),
        ("Hume Building Society", _DEPOSITS),
        ("Wide Bay Australia Building Society", _DEPOSITS),
    ),
    "Credit Union": (
        ("Police Credit Union", _ALL),
        ("Community First Credit Union", _ALL),
        ("Summerland Credit Union", _DEPOSITS),
        ("Bankstown City Credit Union", _DEPOSITS),
        ("Queensland Country Credit Union", _ALL),
    ),
}
# (title, provider type, product types)
INSTITUTIONS: tuple[tuple[str, str, str], ...] = tuple(
    (title, provider_type, products)
    for provider_type, offers in INSTITUTIONS_BY_TYPE.items() for title, products in offers
)


def ensure_reference_data() -> int:
    """Add the brokers and institutions that are missing; returns how many rows were added."""
    added = 0
    with session_scope() as s:
        names = {n.lower() for n in s.exec(select(Broker.name)).all()}
        codes = {c.upper() for c in s.exec(select(Broker.code)).all()}
        for name, code in BROKERS:
            if name.lower() in names or code in codes:
                continue
            s.add(Broker(name=name, code=code))
            names.add(name.lower())
            codes.add(code)
            added += 1
        titles = {t.lower() for t in s.exec(select(Institution.title)).all()}
        for title, provider_type, products in INSTITUTIONS:
            if title.lower() in titles:
                continue
            s.add(Institution(title=title, provider_type=provider_type, product_types=products))
            titles.add(title.lower())
            added += 1
    return added


@dataclass(frozen=True)
class BrokerOption:
    """A stockbroker as the pickers offer it."""
    id: int
    name: str
    code: str


@dataclass(frozen=True)
class InstitutionOption:
    """A deposit-taking institution as the pickers offer it, with the products it offers."""
    id: int
    title: str
    provider_type: str
    product_types: tuple[str, ...]


def _institution_row(row: Institution) -> InstitutionOption:
    return InstitutionOption(id=stored_id(row), title=row.title, provider_type=row.provider_type,
                             product_types=tuple(p.strip() for p in row.product_types.split(",") if p.strip()))


def list_brokers(*, actor: Actor) -> list[BrokerOption]:
    """Every broker by name (the portfolio form's picker and the list's broker filter). Any
    signed-in user may read them: they are public reference data."""
    with session_scope() as s:
        rows = s.exec(select(Broker).order_by(func.lower(col(Broker.name)), col(Broker.id))).all()
        return [BrokerOption(id=stored_id(b), name=b.name, code=b.code) for b in rows]


def product_type_of(where: object) -> str | None:
    """The product type a `where` filter asks for: {"product_types": {"contains": "Cash Account"}},
    {"product_types": "Cash Account"} or {"product_type": ...}, as a dict or its JSON text."""
    if isinstance(where, str):
        text = where.strip()
        if not text:
            return None
        try:
            where = json.loads(text)
        except ValueError:
            return text
    if not isinstance(where, dict):
        return None
    value = where.get("product_types", where.get("product_type", where.get("ProviderProductType")))
    if isinstance(value, dict):
        for key in ("contains", "like", "eq", "inList", "in"):
            if key in value:
                value = value[key]
                break
        else:
            value = None
    if isinstance(value, list):
        value = value[0] if value else None
    text = str(value).strip().strip("%") if value is not None else ""
    return text or None


def list_institutions(*, actor: Actor, product_type: str | None = None) -> list[InstitutionOption]:
    """Institutions by title, those offering `product_type` only when it is given."""
    wanted = (product_type or "").strip().lower()
    with session_scope() as s:
        rows = s.exec(select(Institution).order_by(func.lower(col(Institution.title)), col(Institution.id))).all()
        out = [_institution_row(r) for r in rows]
    if wanted:
        out = [r for r in out if any(p.lower() == wanted for p in r.product_types)]
    return out
