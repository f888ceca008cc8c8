"""Demo advice: the whole advice chain on the demo data, so that every advice screen and report has
rows on a fresh install. Everything goes through the services, as the demo people would do it on
screen, so the same rules apply.

1. Recommendations. Every demo model gets long-term recommendations (buy, sell, hold) and
   short-term (analyst) recommendations whose action codes, across the demo models, are all the
   codes of the specification (ACC, BUY, HOLD, SA, SB, SELL, TAP, TSP, FFL/HOLD, FFL/SA, FFL/SELL,
   FFL/TAP, FFL/TSP, SL/SELL, SL/TAP, SL/TSP), uploaded as files by the model firm's administrator.
   A model that has or ever had recommendations (short-term changes stamp
   analyst_recommendations_date, which is never cleared) is left alone.
2. The chain. Every demo firm gets seven active portfolios, one at each step of the chain (STEPS),
   held by the firm's demo clients other than client@<firm> (whose portfolios stay as they are),
   advised by adviser@<firm>, following one of the firm's models. The adviser creates the
   portfolio, the superuser activates it, the adviser links the model, enters the opening balance
   and imports the history (purchases, a sell, franked dividends, a capital return or a split,
   interest, a withdrawal) as a transaction file, then calculates and validates the target
   portfolio; the client approves the record of advice; the adviser calculates and validates the
   trade recommendations; the client approves them; the adviser exports the Desktop Broker file
   (the trades become orders in status Placed, good for a week from today) and records the
   broker's execution (holdings and cash move). The firm's administrator enters the firm's AUSIEX
   adviser code first when it has none.
3. The main demo client's record of advice. client@<firm> finds a record of advice awaiting approval
   on first sign-in: the adviser calculates and validates the target portfolio of one of the
   client's own portfolios (once: only while none of them has a target portfolio). That portfolio
   has every approval and notification switch on (other e-mails accountant@<firm> and
   compliance@<firm>), so its validation, and the client's approval, send every notice with its
   PDF: the superuser reads them in the outbox.

Runs after the demo people, the asset universe, the demo models and the demo portfolios; quietly
does nothing when they are missing. Idempotent like the other demo loaders: a portfolio (and its
chain) is made only when its firm has no portfolio of that name yet, a deleted one included. A step
the services refuse (a universe too small for a model, say) is logged and the other portfolios are
still made.
"""
from __future__ import annotations

import csv
import io
import logging
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from typing import Sequence

from sqlmodel import col, func, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, Broker, LongTermRecommendation, Model, ModelAsset, ModelClass, Portfolio, ShortTermRecommendation, User,
)
from app.db.types import stored_id, utcnow
from app.domain.errors import DomainError
from app.domain.models import ModelStatus
from app.domain.permissions import Actor
from app.domain.portfolios import PortfolioForm, PortfolioHolder
from app.services.auth import actor_of
from app.services.demo_portfolios import TradingDays

log = logging.getLogger(__name__)

FIRM_KEYS = ("harbour", "southerncross", "outback")
SUPERUSER_EMAIL = "superuser@example.com"
CENT = Decimal("0.01")

# ---- 1. recommendations ------------------------------------------------------------------------------
# Per demo model, by the position of its assets (classes by priority, then assets by priority):
# (short-term action code, comment, limit price as a share of the last close or None). A model of
# another name takes the DEFAULT cycle. Across the demo models every code of the specification is used.
SHORT_TERMS: dict[str, list[tuple[str, str | None, str | None]]] = {
    "Balanced Growth": [
        ("TAP", "Take a profit above the model weight after the resources rally", None),
        ("HOLD", "Fully valued after the result: hold, do not add", None),
        ("BUY", "Buy below the limit: pulled back after guidance", "0.99"),
        ("ACC", "Accumulate on weakness", None),
        ("SB", "Speculative buy: half weight", None),
        ("BUY", None, None),
        ("FFL/TSP", "Take some profit now: the currency tailwind is fading", None),
        ("BUY", None, None),
        ("SL/SELL", "Stop loss: sell if it trades below the limit", "0.92"),
        ("SA", "Sell all: replaced by a lower-fee fund", None),
        ("FFL/HOLD", "Hold while the rate outlook settles", None),
    ],
    "Income Focus": [
        ("BUY", "Reliable fully franked dividend", None),
        ("TSP", "Take some profit: yield below the sector", None),
        ("SL/TAP", "Stop loss on the part above the model weight", "0.93"),
        ("FFL/SELL", "Sell now: dividend cut expected", None),
        ("ACC", None, None),
        ("HOLD", "Hold: currency hedge under review", None),
    ],
    "Conservative (work in progress)": [
        ("SELL", "Too volatile for this model", None),
        ("FFL/TAP", "Take a profit now on the part above the weight", None),
        ("SL/TSP", "Stop loss on some of the profit", "0.94"),
        ("FFL/SA", "Sell all now: replaced by a hedged fund", None),
        ("BUY", None, None),
    ],
    "Australian Blue Chip": [
        ("ACC", "Accumulate below NTA", None),
        ("TAP", "Take a profit above the model weight", None),
        ("BUY", None, "0.99"),
        ("SA", "Sell all: exposure moved to the majors' peer", None),
        ("HOLD", "Hold pending the regulator's review", None),
        ("SL/SELL", "Stop loss: sell below the limit", "0.92"),
    ],
    "Growth Leaders": [
        ("BUY", "Pipeline momentum", None),
        ("SELL", "Sell: growth slowing", None),
        ("TSP", "Take some profit", None),
        ("FFL/TAP", "Take a profit now above the weight", None),
        ("ACC", None, None),
        ("SB", "Speculative buy ahead of the investor day", None),
        ("BUY", None, None),
        ("SB", None, None),
        ("FFL/SA", "Sell all now: fund closing", None),
        ("SL/TSP", "Stop loss on some of the profit", "0.93"),
        ("BUY", None, None),
    ],
}
DEFAULT_SHORT_TERMS = SHORT_TERMS["Balanced Growth"]
LONG_TERM_HOLD = "Long-term hold: keep the position, no new money"
LONG_TERM_SELL = "Long-term sell: exit over the next year"


def _long_term(code: str) -> tuple[str, str | None]:
    """The long-term view that goes with a short-term code: sell for the sells, hold for holds and
    profit taking, buy otherwise."""
    base = code.rpartition("/")[2]
    if base in ("SELL", "SA"):
        return "sell", LONG_TERM_SELL
    if base in ("HOLD", "TAP", "TSP"):
        return "hold", LONG_TERM_HOLD
    return "buy", "Core holding"


def _model_assets(model_id: int) -> list[Asset]:
    """The model's assets, classes by priority then assets by priority."""
    with session_scope() as s:
        rows = s.exec(select(Asset).join(ModelAsset, col(ModelAsset.asset_id) == col(Asset.id))
                      .join(ModelClass, (col(ModelClass.model_id) == col(ModelAsset.model_id))
                            & (col(ModelClass.class_id) == col(ModelAsset.class_id)), isouter=True)
                      .where(ModelAsset.model_id == model_id)
                      .order_by(col(ModelClass.priority), col(ModelAsset.priority), col(ModelAsset.id))).all()
    seen: set[int] = set()
    out: list[Asset] = []
    for asset in rows:
        if stored_id(asset) not in seen:
            seen.add(stored_id(asset))
            out.append(asset)
    return out


def _untouched_models() -> list[Model]:
    """The demo firms' models (not deleted) that never had recommendations."""
    with session_scope() as s:
        firm_ids = s.exec(select(User.firm_id).where(
            col(User.email).in_([f"admin@{key}.example.com" for key in FIRM_KEYS]))).all()
        models = s.exec(select(Model).where(col(Model.firm_id).in_([f for f in firm_ids if f]),
                                            col(Model.deleted_at).is_(None),
                                            col(Model.analyst_recommendations_date).is_(None))
                        .order_by(col(Model.id))).all()
        with_long = set(s.exec(select(LongTermRecommendation.model_id).distinct()).all())
        with_short = set(s.exec(select(ShortTermRecommendation.model_id).distinct()).all())
    return [m for m in models if m.id not in with_long and m.id not in with_short]


Cell = str | Decimal | None  # a cell of an uploaded CSV file (None: left empty)


def _csv(header: tuple[str, ...], rows: Sequence[Sequence[Cell]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if cell is None else cell for cell in row] for row in rows)
    return out.getvalue().encode()


def recommendation_files(model_name: str, assets: list[Asset]) -> tuple[bytes, bytes]:
    """The long-term and the short-term recommendation files (CSV, the upload's columns) of a
    model's assets, by the model's plan in SHORT_TERMS."""
    plan = SHORT_TERMS.get(model_name, DEFAULT_SHORT_TERMS)
    long_rows: list[tuple[str, str, str | None]] = []  # code, action, comment
    short_rows: list[tuple[str, str, str | None, Decimal | None, Decimal | None]] = []  # ... price, yield
    for i, asset in enumerate(assets):
        code, comment, factor = plan[i % len(plan)]
        long_rows.append((asset.code, *_long_term(code)))
        price = None
        if factor is not None and asset.last_close_price:
            price = (asset.last_close_price * Decimal(factor)).quantize(CENT, rounding=ROUND_HALF_UP)
        dividend = asset.dividend_yield if code in ("BUY", "ACC") and asset.dividend_yield is not None else None
        short_rows.append((asset.code, code, comment, price, dividend.normalize() if dividend is not None else None))
    return (_csv(("code", "action", "comment"), long_rows),
            _csv(("code", "action", "comment", "price", "yield"), short_rows))


def load_demo_recommendations() -> int:
    """Long-term and short-term recommendations for the demo models that never had any, uploaded
    as files by the model firm's administrator; returns how many models got them."""
    from app.domain.recommendations import Kind
    from app.services import recommendations

    done = 0
    for model in _untouched_models():
        author = _person("admin@%.example.com", firm_id=model.firm_id)
        assets = _model_assets(stored_id(model))
        if author is None or not assets:
            continue
        long_file, short_file = recommendation_files(model.name, assets)
        try:
            for kind, data in ((Kind.LONG_TERM, long_file), (Kind.SHORT_TERM, short_file)):
                recommendations.upload(actor=actor_of(author), kind=kind, model_ids=[stored_id(model)], content_type="text/csv",
                                       data=data, upload_type="amend")
        except DomainError as exc:
            log.warning("demo recommendations of %s: %s", model.name, exc.message)
            continue
        done += 1
    return done


# ---- 2. the chain ------------------------------------------------------------------------------------
DRAFT = "draft"                          # target portfolio calculated: Validation Required
AWAITING_CLIENT = "awaiting_client"      # validated: the record of advice awaits the client
TRADES_TO_VALIDATE = "trades_to_validate"  # approved; trade recommendations pending validation
TRADES_TO_APPROVE = "trades_to_approve"  # trade recommendations pending the client's approval
TRADES_APPROVED = "trades_approved"      # approved trades, ready for the trade file
PLACED = "placed"                        # exported in the Desktop Broker file: orders Placed
EXECUTED = "executed"                    # the broker's execution recorded: holdings and cash moved
STEPS = (AWAITING_CLIENT, DRAFT, TRADES_TO_VALIDATE, TRADES_TO_APPROVE, TRADES_APPROVED, PLACED, EXECUTED)
DESKTOP_BROKER = "Desktop Broker"
ORDER_DAYS = 7  # placed orders are good for a week from the day they are placed
AUSIEX_CODES = {"outback": "OFP310"}  # for a demo firm without its AUSIEX adviser code


@dataclass(frozen=True)
class ChainPlan:
    """One demo portfolio of the chain: its name, type, the step it is taken to, its broker and
    opening balance. Names sort after the firm's other demo portfolios."""

    name: str
    type: str
    step: str
    broker: str | None
    opening: Decimal
    tax_treatment: str = "fifo"


# the super fund whose record of advice awaits the client and the draft's family trust sell parcels
# by "Minimise capital gains tax": they also bought each asset a second time at the dearest early
# close, so that their sells take parcels of different costs (the record of advice shows the saving)
MINIMISE_CGT = "minimise_cgt"
_MODELS = (0, 1, 0, 1, 0, 0, 1)  # which of the firm's models (by position) each step's portfolio follows
_TYPES = ("SMSF", "TRUST", "COMPANY", "SAVINGS", "TRUST", "SMSF", "SOLE_TRADER")
_BROKERS = ("CommSec", None, "nabtrade", "CommSec", DESKTOP_BROKER, DESKTOP_BROKER, DESKTOP_BROKER)
_OPENINGS = ("320000", "180000", "240000", "150000", "210000", "275000", "130000")
_NAMES = {
    "harbour": ("Paddington Super Fund", "Rose Bay Family Trust", "Seaforth Investments Pty Ltd", "Tamarama Savings",
                "Vaucluse Family Trust", "Watsons Bay Super Fund", "Woollahra Trading"),
    "southerncross": ("Brighton Super Fund", "Camberwell Family Trust", "Elwood Investments Pty Ltd", "Hawthorn Savings",
                      "Kew Family Trust", "Malvern Super Fund", "Toorak Trading"),
    "outback": ("Fannie Bay Super Fund", "Larrakeyah Family Trust", "Nightcliff Investments Pty Ltd", "Parap Savings",
                "Rapid Creek Family Trust", "Stuart Park Super Fund", "Tiwi Trading"),
}


def chain_plans(key: str) -> list[ChainPlan]:
    """The seven chain portfolios of a demo firm, one per step, in STEPS order."""
    return [ChainPlan(name, kind, step, broker, Decimal(opening),
                      MINIMISE_CGT if step in (DRAFT, AWAITING_CLIENT) else "fifo")
            for name, kind, step, broker, opening in zip(_NAMES[key], _TYPES, STEPS, _BROKERS, _OPENINGS)]


class _Stop(Exception):
    """A step that did not come out as the chain needs (e.g. a target portfolio short of cash)."""


def _person(email_like: str, firm_id: int | None = None) -> User | None:
    with session_scope() as s:
        query = select(User).where(col(User.email).like(email_like))
        if firm_id is not None:
            query = query.where(User.firm_id == firm_id)
        return s.exec(query.order_by(col(User.id))).first()


def history_file(opening: Decimal, assets: list[Asset], history: dict[int, list[tuple[date, Decimal]]],
                 corporate_action: str, second_parcels: bool = False) -> tuple[date, bytes] | None:
    """The day of the opening balance and a transaction file (CSV, the transaction upload's
    columns) of a portfolio's history on the price history's trading days: purchases of up to six
    of the model's assets with 80% of the opening balance, a sell of a third of the first one,
    half-year dividends with franking credits, a capital return or a share split, interest on cash
    and a withdrawal; with `second_parcels`, each asset bought again at its dearest close of the
    history's first 40% (a second parcel, usually at a higher cost). None when the assets have no
    price history."""
    calendar = TradingDays.of(assets, history)
    if calendar is None:
        return None
    priced, days, day_at, close = calendar.priced, calendar.days, calendar.day_at, calendar.close

    def fee(value: Decimal) -> Decimal:
        return max(Decimal("19.95"), (value * Decimal("0.0011")).quantize(CENT, rounding=ROUND_HALF_UP))

    header = ("date", "type", "code", "quantity", "price", "fee", "amount", "franking_credits", "ratio",
              "description")
    rows: list[tuple[date, *tuple[Cell, ...]]] = []  # the header's columns, the day first
    budget = opening * Decimal("0.8") / len(priced)
    held: dict[int, Decimal] = {}
    for i, asset in enumerate(priced):
        day = day_at(0.03 + 0.02 * i)
        price = close(asset, day)
        units = (budget / price).quantize(Decimal(1), rounding=ROUND_DOWN)
        if units > 0:
            rows.append((day, "purchase", asset.code, units, price, fee(units * price), None, None, None,
                         "Initial investment"))
            held[stored_id(asset)] = units
    if not held:
        return None
    if second_parcels:
        for asset in [a for a in priced if stored_id(a) in held]:
            day = max((day_at(f / 100) for f in range(8, 41, 4)), key=lambda d: close(asset, d))
            price = close(asset, day)
            units = (opening * Decimal("0.1") / len(priced) / price).quantize(Decimal(1), rounding=ROUND_DOWN)
            if units > 0:
                rows.append((day, "purchase", asset.code, units, price, fee(units * price), None, None, None,
                             "Top-up"))
                held[stored_id(asset)] += units
    owned = [a for a in priced if stored_id(a) in held]
    first, last = owned[0], owned[-1]
    sold = (held[stored_id(first)] / 3).quantize(Decimal(1), rounding=ROUND_DOWN)
    if sold > 0:
        price = close(first, day_at(0.55))
        rows.append((day_at(0.55), "sell", first.code, sold, price, fee(sold * price), None, None, None, "Rebalance"))
    for asset in owned[:3]:
        amount = (held[stored_id(asset)] * close(asset, day_at(0.45)) * (asset.dividend_yield or Decimal(4)) / 200
                  ).quantize(CENT, rounding=ROUND_HALF_UP)
        if amount > 0:
            franking = (amount * Decimal(30) / Decimal(70)).quantize(CENT, rounding=ROUND_DOWN)
            rows.append((day_at(0.45), "dividend", asset.code, None, None, None, amount, franking, None,
                         "Interim dividend"))
    if corporate_action == "capital_return":
        rows.append((day_at(0.65), "capital return", last.code, None, "0.12", None, None, None, None, "Capital return"))
    else:
        rows.append((day_at(0.65), "reconstruction", last.code, None, None, None, None, None, "2:1", "Share split"))
    rows.append((day_at(0.5), "income", None, None, None, None, (opening * Decimal("0.002")).quantize(CENT), None, None,
                 "Cash account interest"))
    rows.append((day_at(0.75), "withdrawal", None, None, None, None, (opening * Decimal("0.02")).quantize(CENT), None,
                 None, "Withdrawal"))
    rows.sort(key=lambda r: r[0])
    return days[0], _csv(header, [(r[0].isoformat(), *r[1:]) for r in rows])


def _fund(adviser: Actor, pid: int, plan: ChainPlan, assets: list[Asset],
          history: dict[int, list[tuple[date, Decimal]]], corporate_action: str) -> None:
    """The opening balance, and the history imported as one transaction file."""
    from app.domain.transaction_rules import OpeningBalanceForm
    from app.services import transactions, transaction_upload

    made = history_file(plan.opening, assets, history, corporate_action,
                        second_parcels=plan.tax_treatment == MINIMISE_CGT)
    if made is None:
        raise _Stop("no price history for the model's assets")
    first_day, data = made
    transactions.set_opening_balance(actor=adviser, investment_id=pid,
                                     form=OpeningBalanceForm(price=str(plan.opening), trade_at=first_day.isoformat()))
    transaction_upload.upload_transactions(actor=adviser, investment_id=pid, content_type="text/csv", data=data)


def _create(adviser: User, superuser: User, plan: ChainPlan, holder: User, model_id: int, broker_id: int | None,
            number: int) -> int:
    """The portfolio, as the adviser enters it (the superuser activates it), linked to its model."""
    from app.services import portfolios

    trustee = f"{holder.last_name} Nominees Pty Ltd" if plan.type in ("SMSF", "TRUST") else None
    brokered = broker_id is not None
    form = PortfolioForm(name=plan.name, type=plan.type, holders=(PortfolioHolder(id=stored_id(holder)),),
                         adviser_id=stored_id(adviser), fee_percent=Decimal("0.85"), fee_limit_min=Decimal("500.00"),
                         fee_limit_max=Decimal("5000.00"), tax_treatment=plan.tax_treatment, trustee_name=trustee,
                         company_name=plan.name if plan.type == "COMPANY" else None, broker_id=broker_id,
                         hin=f"X{4100000000 + number}" if brokered else None,
                         broker_account=f"{7300000 + number}" if brokered else None)
    created = portfolios.create_portfolio(actor=actor_of(adviser), form=form)
    portfolios.update_portfolio(actor=actor_of(superuser), portfolio_id=created.id,
                                form=PortfolioForm(inactive=False, version=str(created.version),
                                                   sent=frozenset({"inactive"})))
    portfolios.link_model(actor=actor_of(adviser), portfolio_id=created.id, model_id=model_id)
    return created.id


def _advance(pid: int, plan: ChainPlan, adviser: Actor, client: Actor, today: date) -> None:
    """Takes a funded portfolio through the chain up to its plan's step."""
    from app.services import orders, target_portfolios as tps, trade_file, trade_instructions as tis

    tp = tps.calculate(actor=adviser, investment_id=pid).summary
    if tp.status != "draft" or tp.not_enough_cash:
        raise _Stop(f"target portfolio {tp.status_label}: {tp.error_message or ''}")
    if plan.step == DRAFT:
        return
    tp = tps.validate(actor=adviser, tp_id=tp.id, row_version=tp.row_version).summary
    if plan.step == AWAITING_CLIENT:
        return
    tps.decide(actor=client, tp_id=tp.id, action="approve", row_version=tp.row_version)
    [ti] = tis.generate_views(actor=adviser, investment_ids=[pid])
    head = ti.instruction
    if head.status.value != "pending_validation" or not ti.transactions:
        raise _Stop(f"trade recommendations {head.status_label}: {head.error_message or 'no trades'}")
    if plan.step == TRADES_TO_VALIDATE:
        return
    head = tis.validate_view(actor=adviser, ti_id=head.id, row_version=head.row_version).instruction
    if plan.step == TRADES_TO_APPROVE:
        return
    tis.confirm_view(actor=client, ti_id=head.id, is_approve_all=True, row_version=head.row_version)
    if plan.step == TRADES_APPROVED:
        return
    rows = [r for r in trade_file.generate(actor=adviser).rows
            if r.investment_id == pid and not r.hidden and r.placed_transaction_id is None and r.quantity > 0]
    if not rows:
        raise _Stop("no trades for the trade file")
    expiry = today + timedelta(days=ORDER_DAYS)
    trade_file.export(actor=adviser, kind="desktop_broker", today=today, lines=[
        trade_file.ExportLine(r.recommendation_id, r.quantity, None, None, expiry) for r in rows])
    # the Desktop Broker file takes no conditional order: the stop losses go out in the firm's trade
    # file (which carries them as stop orders) and are placed by hand with the broker
    stops = [r for r in trade_file.generate(actor=adviser).rows
             if r.investment_id == pid and r.stop_loss and not r.hidden and r.placed_transaction_id is None]
    if stops:
        trade_file.export(actor=adviser, kind="trade_file", today=today, lines=[
            trade_file.ExportLine(r.recommendation_id, r.quantity, None, None, expiry) for r in stops])
    if plan.step == PLACED:
        _order_history(pid, adviser, today)
        _amended_order(pid, adviser, client, today)
        return
    placed, _ = orders.list_orders(actor=adviser, status="placed", limit=500)
    mine = sorted((o for o in placed if o.investment_id == pid), key=lambda o: (o.side != "SELL", o.id))
    for order in mine:  # sells first: their proceeds pay for the buys; filled at the order's price
        orders.execute(actor=adviser, order_id=order.id, execution=orders.Execution(
            price=order.price or Decimal(0), trade_date=today, settlement_date=_settlement(today),
            contract_note=f"DB{order.id:08d}"))


def _order_history(pid: int, adviser: Actor, today: date) -> None:
    """What the operations team sees happen to a portfolio's live orders: its first buy partly
    filled (two fifths, at the order's price), its second cancelled with the broker, its third
    expired unexecuted (as the expiry sweep leaves an order whose last day has passed)."""
    from app.db.tables import BrokerOrder
    from app.domain import orders as order_rules
    from app.services import order_book, orders

    placed, _ = orders.list_orders(actor=adviser, status="placed", limit=500)
    buys = sorted((o for o in placed if o.investment_id == pid and o.side == "BUY"), key=lambda o: o.id)
    if buys:
        part = (buys[0].quantity * 2 / 5).to_integral_value(rounding=ROUND_DOWN)
        if part > 0:
            orders.execute(actor=adviser, order_id=buys[0].id, execution=orders.Execution(
                price=buys[0].price or Decimal(0), quantity=part, trade_date=today,
                settlement_date=_settlement(today), contract_note=f"DB{buys[0].id:08d}-1"))
    if len(buys) > 1:
        orders.cancel(actor=adviser, order_id=buys[1].id, reason="The client asked to wait for the next review")
    if len(buys) > 2:
        with session_scope() as s:
            order = s.exec(select(BrokerOrder).where(BrokerOrder.id == buys[2].id)).one()
            order.expires_on = last_day = today - timedelta(days=1)
            order_book.close_unfilled(s, order, order_rules.EXPIRED,
                                      reason=f"Expired unexecuted on {order_rules.expiry_text(last_day)}")


def _amended_order(pid: int, adviser: Actor, client: Actor, today: date) -> None:
    """A later recommendation amends a live order: the adviser recalculates the trade
    recommendations (net of the orders with the broker), adds a buy of 20 more units of an asset
    with a live buy order, the client approves that one (and declines the rest), and the firm's
    trade file sends it as an Amend of the order, under its reference."""
    from app.services import orders, trade_file, trade_instructions as tis

    placed, _ = orders.list_orders(actor=adviser, status="placed", limit=500)
    live = sorted((o for o in placed if o.investment_id == pid and o.side == "BUY" and o.order_type != "stop_loss"),
                  key=lambda o: o.id)
    if not live:
        return
    target = live[-1]
    try:
        [ti] = tis.generate_views(actor=adviser, investment_ids=[pid])
        ti_id = ti.instruction.id
        for t in ti.transactions:
            if t.code == target.asset_code:
                tis.delete_transaction(actor=adviser, tx_id=t.id)
        added = tis.add_transaction(actor=adviser, ti_id=ti_id, code=target.asset_code, action="buy", quantity="20")
        view = tis.validate_view(actor=adviser, ti_id=ti_id)
        decisions = {t.id: "approved" if t.id == added.id else "declined" for t in view.transactions}
        tis.confirm_view(actor=client, ti_id=ti_id, decisions=decisions, notes={n.id: "declined" for n in view.notes})
        trade_file.export(actor=adviser, kind="trade_file", today=today,
                          lines=[trade_file.ExportLine(added.id, None, None, None, None)])
    except DomainError as exc:  # the demo goes on without its amended order
        log.warning("demo: no amended order for portfolio %s: %s", pid, exc.message)


def _settlement(day: date) -> date:
    """T+2 in business days."""
    out, left = day, 2
    while left:
        out += timedelta(days=1)
        if out.weekday() < 5:
            left -= 1
    return out


def _ausiex_code(key: str, firm_id: int) -> None:
    """The firm's AUSIEX adviser code, entered by its administrator when it has none (the broker
    files of placed orders carry it)."""
    from app.domain.firms import read_firm_form
    from app.domain.wire import rendered
    from app.services import firms

    code = AUSIEX_CODES.get(key)
    admin = _person(f"admin@{key}.example.com")
    if code is None or admin is None:
        return
    current = firms.get_firm(actor=actor_of(admin), firm_id=firm_id)
    if current.ausiex_code:
        return
    # the saved form as it stands, with the code
    firms.update_firm(actor=actor_of(admin), firm_id=firm_id,
                      form=read_firm_form({**rendered(current), "ausiexCode": code}))


def _firm_chain(key: str, superuser: User, today: date) -> int:
    """The chain portfolios of one demo firm that do not exist yet; returns how many were made."""
    from app.services.demo_portfolios import FirmPeople, ModelBook  # the same people, models and closes as theirs

    people = FirmPeople.of(key)
    if people is None:
        return 0
    with session_scope() as s:
        brokers = {b.name: b.id for b in s.exec(select(Broker)).all()}
    main = f"client@{key}.example.com"
    holders = [c for c in people.clients if c.email != main] or [c for c in people.clients if c.email == main]
    plans = [p for p in chain_plans(key) if p.name.casefold() not in people.taken]
    book = ModelBook.of(people.firm_id) if plans and holders else None
    if book is None:
        return 0
    adviser = people.adviser
    made = 0
    for plan in plans:
        n = STEPS.index(plan.step)
        holder = holders[n % len(holders)]
        model_id, model_assets = book.model(_MODELS[n])
        broker_id = brokers.get(plan.broker) if plan.broker else None
        try:
            if plan.step in (PLACED, EXECUTED):
                _ausiex_code(key, people.firm_id)
            pid = _create(adviser, superuser, plan, holder, model_id, broker_id,
                          number=FIRM_KEYS.index(key) * 100 + n)
        except DomainError as exc:
            log.warning("demo portfolio %s: %s", plan.name, exc.message)
            continue
        made += 1
        try:
            _fund(actor_of(adviser), pid, plan, model_assets, book.history,
                  "capital_return" if n % 2 else "reconstruction")
            _advance(pid, plan, actor_of(adviser), actor_of(holder), today)
        except (DomainError, _Stop) as exc:  # the portfolio stays at the step it reached
            log.warning("demo advice for %s stopped: %s", plan.name, getattr(exc, "message", exc))
    return made


def load_demo_advice(today: date | None = None) -> int:
    """The demo recommendations, then the chain portfolios of every demo firm that do not exist
    yet; returns how many portfolios were made (0 when the demo data is missing or complete)."""
    from app.services.reference_data import ensure_reference_data

    superuser = _person(SUPERUSER_EMAIL)
    if superuser is None:
        return 0
    with session_scope() as s:
        if s.exec(select(func.count()).select_from(Model).where(Model.status == ModelStatus.ACTIVE.value)).one() == 0:
            return 0
    ensure_reference_data()  # the brokers the portfolios name (idempotent)
    load_demo_recommendations()
    today = today or utcnow().date()
    made = sum(_firm_chain(key, superuser, today) for key in FIRM_KEYS)
    for key in FIRM_KEYS:
        _main_client_record(key)
    return made


def _main_client_record(key: str) -> bool:
    """A record of advice awaiting client@<firm> on first sign-in: the firm's adviser calculates and
    validates the target portfolio of one of the client's own active portfolios. Only while none of
    the client's portfolios has a target portfolio (so it is done once, and a record the client has
    decided stays decided)."""
    from app.db.tables import PortfolioUser, TargetPortfolio
    from app.services import target_portfolios as tps

    with session_scope() as s:
        client = s.exec(select(User).where(User.email == f"client@{key}.example.com")).first()
        adviser = s.exec(select(User).where(User.email == f"adviser@{key}.example.com")).first()
        if client is None or adviser is None:
            return False
        owned = list(s.exec(select(Portfolio).join(PortfolioUser, col(PortfolioUser.investment_id) == col(Portfolio.id))
                            .where(PortfolioUser.user_id == client.id, col(PortfolioUser.is_owner).is_(True),
                                   col(Portfolio.deleted_at).is_(None)).order_by(col(Portfolio.id))).all())
        if not owned or s.exec(select(TargetPortfolio.id).where(
                col(TargetPortfolio.investment_id).in_([p.id for p in owned]))).first() is not None:
            return False
        # a savings portfolio first (the plainest record of advice), then the others
        candidates = [stored_id(p) for p in sorted(owned, key=lambda p: (p.type != "SAVINGS", stored_id(p)))
                      if not p.inactive and p.model_id is not None and p.adviser_id == adviser.id]
    for pid in candidates:
        try:
            tp = tps.calculate(actor=actor_of(adviser), investment_id=pid).summary
            if tp.status != "draft" or tp.not_enough_cash:
                log.warning("demo record of advice for client@%s: target portfolio %s", key, tp.status_label)
                continue
            every_notice_on(adviser, pid, key)
            tps.validate(actor=actor_of(adviser), tp_id=tp.id, row_version=tp.row_version)
            return True
        except DomainError as exc:
            log.warning("demo record of advice for client@%s: %s", key, exc.message)
    return False


def demo_notice_settings(key: str) -> dict[str, bool | str]:
    """Every approval and notification switch on (001 s3), with the other e-mails of the firm's
    demo domain: the portfolio whose record of advice awaits client@<firm> sends every notice."""
    from app.domain.portfolios import APPROVAL_FLAGS

    return {**{flag: True for flag in APPROVAL_FLAGS},
            "client_tp_other_email": f"accountant@{key}.example.com",
            "client_tr_other_email": f"accountant@{key}.example.com",
            "adviser_tp_other_email": f"compliance@{key}.example.com",
            "adviser_tr_other_email": f"compliance@{key}.example.com"}


def every_notice_on(adviser: User, pid: int, key: str) -> None:
    """The adviser switches every notice on for the portfolio (through the portfolio form's service)."""
    from app.services import portfolios

    portfolios.update_portfolio(actor=actor_of(adviser), portfolio_id=pid,
                                form=PortfolioForm(approval_settings=demo_notice_settings(key),
                                                   sent=frozenset({"approval_settings"})))
