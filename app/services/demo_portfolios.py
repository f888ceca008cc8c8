"""Demo client portfolios with a history of transactions, for every demo firm.

Each firm gets 3 to 5 portfolios of different types: several held by its demo client
(client@<firm>.example.com, one shared with a co-holder) and the others by the firm's other demo
clients, each following one of the firm's demo models (or a model offered to all firms when the
firm has none of its own), advised by the firm's demo adviser (adviser@<firm>.example.com).

Every portfolio gets, through app.services.transactions (so the same rules apply as on screen): an
opening balance, purchases of its model's assets at the closing prices of the seeded price
history, a sell, dividends with franking credits, interest on cash, a capital return or a
reconstruction, a withdrawal and, in one portfolio per firm, a draft purchase.

Runs after the demo people, the asset universe (with its price history) and the demo models; it
quietly does nothing when they are missing. Idempotent per portfolio, like the other demo loaders:
a portfolio is made only when its firm has no portfolio of that name yet (a deleted one counts,
so a portfolio a user deleted stays deleted).
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_DOWN, Decimal

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetPrice, Model, ModelAsset, Portfolio, PortfolioUser, User
from app.db.types import stored_id, utcnow
from app.domain.errors import DomainError
from app.domain.money import to_cents
from app.domain.models import Availability, ModelStatus
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.transaction_rules import TransactionForm
from app.services.auth import actor_of

log = logging.getLogger(__name__)

FIRM_KEYS = ("harbour", "southerncross", "outback")
FRANKED_SHARE = Decimal(30) / Decimal(70)


@dataclass(frozen=True)
class Plan:
    """One demo portfolio: its name (with {last} for the main holder's last name), type, holders
    (e-mails; the first is the owner), which of the firm's models (by position) it follows, its
    opening balance and what happens in it."""

    name: str
    type: str
    holders: tuple[str, ...]
    model: int
    opening: Decimal
    corporate_action: str  # capital_return | reconstruction
    draft: bool = False
    inactive: bool = False
    tax_treatment: str = "fifo"


def _plans(key: str, clients: list[str]) -> list[Plan]:
    main = f"client@{key}.example.com"
    others = [c for c in clients if c != main]
    plans = [
        Plan("{last} Family Super Fund", "SMSF", (main,), 0, Decimal("250000"), "capital_return", draft=True),
        Plan("{last} Savings", "SAVINGS", (main,), 1, Decimal("60000"), "reconstruction"),
        Plan("{last} Family Trust", "TRUST", (main, *others[:1]), 0, Decimal("120000"), "capital_return",
             tax_treatment="minimise_cgt"),
    ]
    types = (("COMPANY", "{last} Holdings Pty Ltd"), ("SOLE_TRADER", "{last} Trading"))
    for i, email in enumerate(others[:2]):
        kind, name = types[i % len(types)]
        plans.append(Plan(name, kind, (email,), i + 1, Decimal(40000 + 25000 * i),
                          "reconstruction" if i % 2 else "capital_return", inactive=i == 1))
    return plans


def _approval_settings() -> str:
    from app.domain.portfolios import default_approval_settings

    return json.dumps(default_approval_settings())


def firm_models(firm_id: int) -> list[tuple[int, list[int]]]:
    """(model id, its asset ids in priority order) of the firm's active models, else of the active
    models offered to all firms."""
    with session_scope() as s:
        own = s.exec(select(Model).where(Model.firm_id == firm_id, col(Model.deleted_at).is_(None),
                                         Model.status == ModelStatus.ACTIVE.value).order_by(col(Model.id))).all()
        if not own:
            own = s.exec(select(Model).where(col(Model.deleted_at).is_(None), Model.status == ModelStatus.ACTIVE.value,
                                             Model.availability == Availability.ALL.value).order_by(col(Model.id))).all()
        out = []
        for model in own:
            assets = s.exec(select(ModelAsset.asset_id).where(ModelAsset.model_id == model.id)
                            .order_by(col(ModelAsset.priority), col(ModelAsset.id))).all()
            if assets:
                out.append((stored_id(model), list(assets)))
        return out


def price_history(asset_ids: list[int]) -> dict[int, list[tuple[date, Decimal]]]:
    with session_scope() as s:
        rows = s.exec(select(col(AssetPrice.asset_id), col(AssetPrice.price_date), col(AssetPrice.close))
                      .where(col(AssetPrice.asset_id).in_(asset_ids)).order_by(col(AssetPrice.price_date))).all()
    out: dict[int, list[tuple[date, Decimal]]] = {}
    for asset_id, day, close in rows:
        out.setdefault(asset_id, []).append((day, close))
    return out


@dataclass(frozen=True)
class TradingDays:
    """The demo history's calendar: up to six of the assets with at least 60 closes, the trading
    days of the first of them, and each asset's close on a day."""

    priced: list[Asset]
    days: list[date]
    history: dict[int, list[tuple[date, Decimal]]]

    @classmethod
    def of(cls, assets: list[Asset], history: dict[int, list[tuple[date, Decimal]]]) -> TradingDays | None:
        """None when the assets have no price history."""
        priced = [a for a in assets if len(history.get(stored_id(a), ())) >= 60][:6]
        if not priced:
            return None
        return cls(priced, [d for d, _ in history[stored_id(priced[0])]], history)

    def day_at(self, fraction: float) -> date:
        """The trading day that far through the history (0.5: half way)."""
        return self.days[min(len(self.days) - 1, int(len(self.days) * fraction))]

    def close(self, asset: Asset, day: date) -> Decimal:
        """The asset's last close on or before `day` (its first close before its history starts)."""
        closes = self.history[stored_id(asset)]
        found = [c for d, c in closes if d <= day]
        return found[-1] if found else closes[0][1]


def _create_portfolio(firm_id: int, plan: Plan, name: str, holders: list[User], adviser: User,
                      model_id: int | None) -> int:
    now = utcnow()
    with session_scope() as s:
        row = Portfolio(firm_id=firm_id, name=name, type=plan.type, adviser_id=adviser.id, model_id=model_id,
                        inactive=plan.inactive, tax_treatment=plan.tax_treatment, approval_settings=_approval_settings(), created_by=adviser.id,
                        updated_by=adviser.id, created_at=now, updated_at=now)
        if plan.type in ("SMSF", "TRUST"):
            row.trustee_name = f"{holders[0].last_name} Nominees Pty Ltd"
        if plan.type == "COMPANY":
            row.company_name = name
        s.add(row)
        s.flush()
        for i, holder in enumerate(holders):
            s.add(PortfolioUser(investment_id=stored_id(row), user_id=stored_id(holder), is_owner=i == 0))
        return stored_id(row)


def _text(value: Decimal | date | None) -> str | None:
    """A value as a transaction form sends it: a day in ISO form, a number as its text."""
    if value is None:
        return None
    return value.isoformat() if isinstance(value, date) else str(value)


@dataclass(frozen=True)
class Ledger:
    """A demo portfolio's transactions, entered by its adviser through the transactions service as
    the transaction forms send them."""

    actor: Actor
    portfolio_id: int

    def add(self, type: str, asset: Asset, day: date, description: str, *, quantity: Decimal | None = None,
            price: Decimal | None = None, fee: Decimal | None = None, amount: Decimal | None = None,
            franking_credits: Decimal | None = None, ex_date: date | None = None, settlement_at: date | None = None,
            ratio: str | None = None, contract_note: str | None = None, status: str | None = None) -> None:
        """An asset transaction (a purchase, a sell, a dividend, a capital return, a reconstruction)."""
        from app.services import transactions

        transactions.add_asset_transaction(actor=self.actor, form=TransactionForm(
            investment_id=self.portfolio_id, type=type, asset_id=stored_id(asset), trade_at=day.isoformat(),
            settlement_at=_text(settlement_at), ex_date=_text(ex_date), status=status, quantity=_text(quantity),
            price=_text(price), amount=_text(amount), fee=_text(fee), franking_credits=_text(franking_credits),
            ratio=ratio, contract_note=contract_note, description=description))

    def cash(self, type: str, amount: Decimal, day: date, description: str) -> None:
        """A cash transaction (income, a withdrawal): its amount is the form's price."""
        from app.services import transactions

        transactions.create_cash_transaction(actor=self.actor, form=TransactionForm(
            investment_id=self.portfolio_id, type=type, price=str(amount), trade_at=day.isoformat(),
            description=description))


def _fill(actor: Actor, portfolio_id: int, plan: Plan, assets: list[Asset],
          history: dict[int, list[tuple[date, Decimal]]]) -> None:
    """The portfolio's transactions, dated on the price history's trading days."""
    from app.domain.transaction_rules import OpeningBalanceForm
    from app.services import transactions

    calendar = TradingDays.of(assets, history)
    if calendar is None:
        return
    priced, days, day_at, close = calendar.priced, calendar.days, calendar.day_at, calendar.close
    n = len(days)
    ledger = Ledger(actor, portfolio_id)
    transactions.set_opening_balance(actor=actor, investment_id=portfolio_id, form=OpeningBalanceForm(
        price=str(plan.opening), trade_at=_early_day(days).isoformat()))
    budget = plan.opening * Decimal("0.8") / len(priced)
    held: dict[int, Decimal] = {}  # units by asset id
    for i, asset in enumerate(priced):
        day = day_at(0.03 + 0.02 * i)
        price = close(asset, day)
        units = (budget / price).quantize(Decimal(1), rounding=ROUND_DOWN)
        if units <= 0:
            continue
        fee = max(Decimal("19.95"), to_cents(units * price * Decimal("0.0011")))
        ledger.add("purchase", asset, day, "Initial investment", quantity=units, price=price, fee=fee,
                   settlement_at=days[min(n - 1, days.index(day) + 2)], contract_note=f"CN{portfolio_id:04d}{i:02d}")
        held[stored_id(asset)] = units
    if not held:
        return
    owned = [a for a in priced if stored_id(a) in held]
    _tax_history(ledger, owned, held, calendar, plan.opening)
    first = owned[0]
    sell_day = day_at(0.55)
    sold = (held[stored_id(first)] / 3).quantize(Decimal(1), rounding=ROUND_DOWN)
    if sold > 0:
        price = close(first, sell_day)
        ledger.add("sell", first, sell_day, "Rebalance", quantity=sold, price=price,
                   fee=max(Decimal("19.95"), to_cents(sold * price * Decimal("0.0011"))))
        held[stored_id(first)] -= sold
    for asset in owned[:3]:
        pay_day = day_at(0.45)
        yield_pct = asset.dividend_yield or Decimal("4")
        amount = to_cents(held[stored_id(asset)] * close(asset, pay_day) * yield_pct / 100 / 2)  # a half-year dividend
        if amount > 0:
            franking = (amount * FRANKED_SHARE).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
            ledger.add("dividend", asset, pay_day, "Interim dividend", amount=amount, franking_credits=franking,
                       ex_date=day_at(0.40))
    last = owned[-1]
    if plan.corporate_action == "capital_return":
        ledger.add("capital_return", last, day_at(0.65), "Capital return", price=Decimal("0.12"))
    else:
        ledger.add("reconstruction", last, day_at(0.65), "Share split", ratio="2:1")
    ledger.cash("income", to_cents(plan.opening * Decimal("0.002")), day_at(0.5), "Cash account interest")
    ledger.cash("withdrawal", to_cents(plan.opening * Decimal("0.02")), day_at(0.75),
                "Pension payment" if plan.type == "SMSF" else "Withdrawal")
    _deposits(actor, portfolio_id, plan, day_at(0.2), day_at(0.6))
    if plan.draft:
        asset = priced[-1]
        ledger.add("purchase", asset, days[-1], "Top up", quantity=Decimal(10), price=close(asset, days[-1]),
                   status="pending")


def _early_day(days: list[date]) -> date:
    """The weekday about 14 months before the price history: the start of the demo's tax history."""
    from datetime import timedelta

    early = days[0] - timedelta(days=420)
    return early - timedelta(days=max(0, early.weekday() - 4))


def _tax_history(ledger: Ledger, owned: list[Asset], held: dict[int, Decimal], calendar: TradingDays,
                 opening: Decimal) -> None:
    """Two financial years for the tax report: a parcel of the first asset bought about 14 months
    before the price history at 70% of its lowest close (its part of the later sell is a discounted
    gain under FIFO), a parcel of the second bought then at 130% of its highest close and sold in
    full with the first sell (a loss), and a final dividend at the end of the previous financial year."""
    from app.domain import tax

    days = calendar.days
    early = _early_day(days)
    first, *rest = owned
    first_id = stored_id(first)
    closes = [c for _, c in calendar.history[first_id]]
    units = (held[first_id] / 2).quantize(Decimal(1), rounding=ROUND_DOWN)
    if units > 0:
        ledger.add("purchase", first, early, "Earlier holding", quantity=units,
                   price=(min(closes) * Decimal("0.7")).quantize(Decimal("0.01")), fee=Decimal("19.95"))
        held[first_id] += units
    if rest:
        second = rest[0]
        top = max(c for _, c in calendar.history[stored_id(second)])
        price = (top * Decimal("1.3")).quantize(Decimal("0.01"))
        count = max(Decimal(1), (opening * Decimal("0.04") / price).quantize(Decimal(1), rounding=ROUND_DOWN))
        ledger.add("purchase", second, early, "Earlier holding", quantity=count, price=price, fee=Decimal("19.95"))
        sell_day = calendar.day_at(0.56)
        ledger.add("sell", second, sell_day, "Sold at a loss", quantity=count,
                   price=calendar.close(second, sell_day), fee=Decimal("19.95"))
    year_end = tax.financial_year(tax.financial_year_of(days[-1]) - 1).end
    pay_day = max([d for d in days if d <= year_end] or [year_end])
    amount = to_cents(held[first_id] * calendar.close(first, pay_day) * Decimal("0.02"))
    if amount > 0:
        ledger.add("dividend", first, pay_day, "Final dividend", amount=amount,
                   franking_credits=(amount * FRANKED_SHARE).quantize(Decimal("0.01"), rounding=ROUND_DOWN),
                   ex_date=pay_day)


def _deposits(actor: Actor, portfolio_id: int, plan: Plan, start: date, accrual_day: date) -> None:
    """A six-month term deposit and, for larger portfolios, an at-call account with one month's
    interest accrued, at the first demo institutions offering them."""
    from app.domain.deposits import DepositForm
    from app.services import deposits
    from app.services.reference_data import InstitutionOption, list_institutions

    def first(product: str) -> InstitutionOption | None:
        found = list_institutions(actor=actor, product_type=product)
        return found[0] if found else None

    term = first("Term Deposits")
    if term is not None:
        deposits.buy(actor=actor, form=DepositForm(
            investment_id=portfolio_id, product_type="Term Deposits", institution_id=str(term.id),
            start_date=start.isoformat(), maturity_term="6", rate="4.35",
            amount=str(to_cents(plan.opening * Decimal("0.05"))), description="Six-month term deposit"))
    at_call = first("At Call Account")
    if at_call is not None and plan.opening >= Decimal(200000):
        made = deposits.buy(actor=actor, form=DepositForm(
            investment_id=portfolio_id, product_type="At Call Account", institution_id=str(at_call.id),
            start_date=start.isoformat(), rate="3.10",
            amount=str(to_cents(plan.opening * Decimal("0.03"))), description="At-call cash reserve"))
        deposits.interest_accrual(actor=actor, deposit_id=made.deposit.id, form=DepositForm(
            start_date=accrual_day.isoformat(),
            amount=str(to_cents(plan.opening * Decimal("0.03") * Decimal("0.031") / 12)),
            description="Monthly interest"))


@dataclass(frozen=True)
class FirmPeople:
    """A demo firm's adviser (adviser@<firm>), its demo clients (by id) and the names of its
    portfolios, case-folded (deleted ones too)."""

    adviser: User
    firm_id: int
    clients: list[User]
    taken: set[str]

    @classmethod
    def of(cls, key: str) -> FirmPeople | None:
        """None when the firm has no demo adviser."""
        with session_scope() as s:
            adviser = s.exec(select(User).where(User.email == f"adviser@{key}.example.com")).first()
            if adviser is None or adviser.firm_id is None:
                return None
            firm_id = adviser.firm_id
            clients = list(s.exec(select(User).where(User.firm_id == firm_id, User.role == Role.CLIENT.value,
                                                     col(User.email).like("%.example.com")).order_by(col(User.id))).all())
            taken = {name.casefold() for name in s.exec(select(Portfolio.name).where(Portfolio.firm_id == firm_id)).all()}
        return cls(adviser, firm_id, clients, taken)


@dataclass(frozen=True)
class ModelBook:
    """The models a demo firm's portfolios follow (firm_models), their assets and the assets' closes."""

    models: list[tuple[int, list[int]]]
    assets: dict[int, Asset]
    history: dict[int, list[tuple[date, Decimal]]]

    @classmethod
    def of(cls, firm_id: int) -> ModelBook | None:
        """None when the firm may follow no model with assets."""
        models = firm_models(firm_id)
        asset_ids = sorted({a for _, ids in models for a in ids})
        if not asset_ids:
            return None
        with session_scope() as s:
            assets = {stored_id(a): a for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids))).all()}
        return cls(models, assets, price_history(asset_ids))

    def model(self, position: int) -> tuple[int, list[Asset]]:
        """The model at `position`, round the firm's models, and its assets."""
        model_id, asset_ids = self.models[position % len(self.models)]
        return model_id, [self.assets[a] for a in asset_ids if a in self.assets]


def load_demo_portfolios() -> int:
    """Create the demo portfolios that do not exist yet; returns how many were made."""
    made = 0
    for key in FIRM_KEYS:
        people = FirmPeople.of(key)
        if people is None:
            continue
        by_email = {c.email: c for c in people.clients}
        book = ModelBook.of(people.firm_id) if f"client@{key}.example.com" in by_email else None
        if book is None:
            continue
        for plan in _plans(key, [c.email for c in people.clients]):
            holders = [by_email[e] for e in plan.holders if e in by_email]
            name = plan.name.format(last=holders[0].last_name)
            if name.casefold() in people.taken:
                continue
            model_id, model_assets = book.model(plan.model)
            portfolio_id = _create_portfolio(people.firm_id, plan, name, holders, people.adviser, model_id)
            people.taken.add(name.casefold())
            try:
                _fill(actor_of(people.adviser), portfolio_id, plan, model_assets, book.history)
            except DomainError as exc:  # a universe too small for one step: the rest is still made
                log.warning("demo portfolio %s: %s", name, exc.message)
            made += 1
    return made
