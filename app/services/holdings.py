"""The holdings of one portfolio (spec 001 s2 'Portfolio holdings', s3 'Holdings result'): its cash
account, listed shares, term deposits and at-call accounts, and custom holdings, grouped by asset
class, with totals and the class allocation (actual against target).

Read model only. Units, cost bases and balances come from app.services.postings.book() (executed
transactions only); prices and performance from the asset universe:

- a share's value is units x last close, to the cent; with no close yet it is carried at its cost
  base (and its since-purchase return is N/A);
- since purchase = value / cost base - 1 (a percentage; N/A with no cost base or no close);
- six-month return and dividend yield are the asset's own figures;
- a deposit's cost and value are its balance from postings (deposits are held at face value; its
  name and code follow the deposit naming rules); deposits and the cash account sit in the cash class;
- a custom holding counts at its value in its own class;
- pending trades: the approved trade recommendations of the portfolio not executed yet (a buy or
  sell of a listed asset, held or not), each 'Placed' while a broker order carries it out
  (an asset transaction in processing for it, whose quantity it shows) and 'Approved' until then
  (or again after the broker rejected the order); read in one query;
- allocation = a line's (or class's) value / the portfolio's total value, as a percentage;
- the target per class is the portfolio's own class allocation when Portfolio.class_allocation is
  on, else the linked model's (when the model allocates by class), else none. A class's bar colour
  is the drift module's (app.domain.drift.band_colour, as the dashboard colours a breach): its
  actual share inside the class's min / max band success, outside it warning, 5 points or more
  outside danger; a class the target leaves out has no band (as the dashboard counts it).

Permissions: anyone who may see the portfolio (app.services.tenancy) may read its
holdings; clients only the portfolios they hold."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Iterable, Sequence, TypeVar

from sqlalchemy import func, select as sa_select
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetTransaction, BrokerOrder, BrokerOrderVersion, CustomHolding, Deposit, Institution, Model, ModelClass, Portfolio,
    PortfolioClass, PortfolioUser, TradeInstruction, TradeTransaction, User,
)
from app.db.types import stored_id, utcnow
from app.domain import deposits as deposit_rules
from app.domain import orders as order_rules
from app.domain.advice.trade_instructions import TxStatus, side_of
from app.domain.allocations import class_total_color
from app.domain.drift import band_colour, pct as drift_pct
from app.domain.errors import NotFound, ValidationError
from app.domain.holdings import (  # the read model, built here (Line, Section, sections: for its readers)
    PENDING_APPROVED, PENDING_PLACED, ZERO, CashLine, ClassLine, CustomLine, DepositLine, Header, Holdings, Line, Owner,
    PendingTrade, Section, ShareLine, Totals, percent_of, sections, since_purchase,
)
from app.domain.money import plain, to_cents
from app.domain.permissions import Actor, is_staff
from app.domain.transactions import CASH_ACCOUNT, Status
from app.domain.users import known_as
from app.domain.wire import wire
from app.services import postings, tenancy
from app.services.listing import Page
from app.services.tenancy import load_portfolio

PAGE_SIZES = (12, 20, 32)
DEFAULT_PAGE_SIZE = 12
CASH_CODE = "CASH"
NO_CASH_CLASS_TITLE = "Cash"
EXPORT_FORMATS = ("xlsx", "pdf")
L = TypeVar("L", ShareLine, DepositLine)  # a line whose allocation is set once the total is known


# ---- small helpers ----------------------------------------------------------------------------
def person_name(user: User) -> str:
    return known_as(user.first_name, user.last_name, user.preferred_name)


def deposit_code(deposit: Deposit) -> str:
    """TD or ACA followed by the deal id (spec 002 s3)."""
    return deposit_rules.asset_code(deposit.product_type, deposit.deal_id)


def deposit_name(deposit: Deposit) -> str:
    """Provider + TD/ACA + term + maturity date + rate (an at-call account: provider + ACA + rate)."""
    return deposit_rules.deposit_name(deposit.provider_name, deposit.product_type, deposit.maturity_term,
                                      deposit.maturity_date, deposit.rate)


def _class_type(row: AssetClass) -> str:
    """'cash' for the system cash class, else 'asset'."""
    return "cash" if row.is_cash else "asset"


# ---- loading ----------------------------------------------------------------------------------
def _header(s: Session, portfolio: Portfolio) -> Header:
    model_name: str | None = None
    model_firm_id: int | None = None
    if portfolio.model_id is not None:
        model = s.get(Model, portfolio.model_id)
        if model is not None and model.deleted_at is None:
            model_name, model_firm_id = model.name, model.firm_id
    rows = s.exec(
        select(PortfolioUser, User).join(User, col(User.id) == PortfolioUser.user_id)
        .where(PortfolioUser.investment_id == portfolio.id)
        .order_by(col(PortfolioUser.is_owner).desc(), func.lower(User.last_name), func.lower(User.first_name),
                  col(User.id))
    ).all()
    owners = tuple(Owner(id=stored_id(u), name=person_name(u), is_owner=bool(pu.is_owner)) for pu, u in rows)
    return Header(id=stored_id(portfolio), name=portfolio.name, type=portfolio.type, firm_id=portfolio.firm_id,
                  inactive=portfolio.inactive, model_id=portfolio.model_id if model_name is not None else None,
                  model_name=model_name, model_firm_id=model_firm_id, owners=owners,
                  class_allocation=bool(portfolio.class_allocation))


Band = tuple[Decimal | None, Decimal | None]  # a class's min and max (None: open on that side)


def _targets(s: Session, portfolio: Portfolio) -> tuple[str | None, dict[int, Decimal], dict[int, Band]]:
    """(where the class targets come from, class id -> allocation, class id -> its band)."""
    rows: Sequence[PortfolioClass | ModelClass]
    if portfolio.class_allocation:
        source = "portfolio"
        rows = s.exec(select(PortfolioClass).where(PortfolioClass.investment_id == portfolio.id)).all()
    else:
        model = s.get(Model, portfolio.model_id) if portfolio.model_id is not None else None
        if model is None or model.deleted_at is not None or not model.class_allocation:
            return None, {}, {}
        source = "model"
        rows = s.exec(select(ModelClass).where(ModelClass.model_id == model.id)).all()
    return (source, {r.class_id: Decimal(r.allocation) for r in rows},
            {r.class_id: (_dec(r.min), _dec(r.max)) for r in rows})


def _classes(s: Session, ids: Iterable[int | None]) -> dict[int, AssetClass]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {stored_id(c): c for c in s.exec(select(AssetClass).where(col(AssetClass.id).in_(wanted))).all()}


def _cash_class(s: Session) -> AssetClass | None:
    return s.exec(select(AssetClass).where(col(AssetClass.is_cash).is_(True)).order_by(col(AssetClass.id))).first()


def _with_allocation(line: L, total: Decimal) -> L:
    """A line with its share of the portfolio's total value."""
    return dataclasses.replace(line, allocation=percent_of(line.value, total))


def compute(s: Session, portfolio: Portfolio) -> Holdings:
    """The holdings of a portfolio already loaded (and permission-checked) by the caller."""
    book = postings.book(s, portfolio)
    header = _header(s, portfolio)
    cash_class = _cash_class(s)
    cash_class_id = cash_class.id if cash_class is not None else None
    cash_title = cash_class.title if cash_class is not None else NO_CASH_CLASS_TITLE

    # listed shares still held
    held = {aid: pos for aid, pos in book.positions.items() if pos.units > 0}
    assets = {stored_id(a): a for a in s.exec(select(Asset).where(col(Asset.id).in_(list(held)))).all()} if held else {}

    deposits = list(s.exec(select(Deposit).where(Deposit.investment_id == portfolio.id)
                           .order_by(col(Deposit.start_date), col(Deposit.id))).all())
    customs = list(s.exec(select(CustomHolding).where(CustomHolding.investment_id == portfolio.id)
                          .order_by(func.lower(CustomHolding.name), col(CustomHolding.id))).all())
    target_source, targets, bands = _targets(s, portfolio)
    classes = _classes(s, [a.class_id for a in assets.values()] + [c.class_id for c in customs] + list(targets)
                       + [cash_class_id])

    share_rows: list[ShareLine] = []  # their allocations once the total is known
    for asset_id, pos in held.items():
        asset = assets.get(asset_id)
        if asset is None:  # pragma: no cover - a transaction always names an existing asset
            continue
        price = Decimal(asset.last_close_price) if asset.last_close_price is not None else None
        cost = to_cents(pos.cost_base)
        value = to_cents(pos.units * price) if price is not None else cost
        share_rows.append(ShareLine(
            asset_id=asset_id, code=asset.code, name=asset.name, quantity=pos.units, price=price, cost=cost,
            value=value, url=asset.url, pdf_url=None, six_months_return=_dec(asset.six_month_return),
            since_purchase=since_purchase(value, cost) if price is not None else None,
            dividend_yield=_dec(asset.dividend_yield), class_id=asset.class_id,
            class_title=classes[asset.class_id].title if asset.class_id in classes else "", allocation=None,
        ))

    deposit_rows: list[DepositLine] = []
    for d in deposits:
        balance = to_cents(book.deposit_balances.get(stored_id(d), ZERO))
        if balance == 0:
            continue  # nothing placed yet, or redeemed
        deposit_rows.append(DepositLine(
            id=stored_id(d), code=deposit_code(d), name=deposit_name(d), product_type=d.product_type,
            provider_name=d.provider_name, deal_id=d.deal_id, rate=_dec(d.rate), start_date=d.start_date,
            maturity_date=d.maturity_date, deal_status=d.deal_status, cost=balance, value=balance,
            class_id=cash_class_id, class_title=cash_title, allocation=None,
        ))

    cash_value = to_cents(book.cash_balance)
    shares_value = sum((r.value for r in share_rows), ZERO)
    shares_cost = sum((r.cost for r in share_rows), ZERO)
    deposits_value = sum((r.value for r in deposit_rows), ZERO)
    customs_value = sum((to_cents(c.value) for c in customs), ZERO)
    total = cash_value + shares_value + deposits_value + customs_value
    total_cost = cash_value + shares_cost + deposits_value + customs_value

    # per class
    by_class: dict[int, list[Decimal]] = {}

    def add(class_id: int | None, value: Decimal, cost: Decimal) -> None:
        if class_id is None:
            return
        pair = by_class.setdefault(class_id, [ZERO, ZERO])
        pair[0] += value
        pair[1] += cost

    add(cash_class_id, cash_value, cash_value)
    for r in share_rows:
        add(r.class_id, r.value, r.cost)
    for dr in deposit_rows:
        add(dr.class_id, dr.value, dr.cost)
    for c in customs:
        add(c.class_id, to_cents(c.value), to_cents(c.value))
    for class_id in targets:
        by_class.setdefault(class_id, [ZERO, ZERO])

    def class_order(class_id: int) -> tuple[int, int, str, int]:
        c = classes.get(class_id)
        return (0 if c is not None and c.is_cash else 1, c.idx if c else 0, (c.title if c else "").lower(), class_id)

    class_lines = []
    for class_id in sorted(by_class, key=class_order):
        klass = classes.get(class_id)
        value, cost = by_class[class_id]
        actual = percent_of(value, total)
        target = targets.get(class_id) if target_source else None
        if target is None and target_source:
            target = ZERO  # a class the target leaves out is meant to hold nothing
        low, high = bands.get(class_id, (None, None))
        class_lines.append(ClassLine(class_id=class_id, title=klass.title if klass else "",
                                     is_cash=bool(klass and klass.is_cash), value=value, cost=cost, actual=actual,
                                     target=target,
                                     color=None if target is None else band_colour(drift_pct(value, total), low, high)))

    shares_sorted = sorted(share_rows, key=lambda r: (class_order(r.class_id), r.code))
    target_total = sum(targets.values(), ZERO) if target_source else None
    return Holdings(
        portfolio=header,
        cash_account=CashLine(name=_cash_account_name(s, portfolio), code=CASH_CODE, value=cash_value,
                              class_id=cash_class_id, class_title=cash_title, allocation=percent_of(cash_value, total)),
        shares=tuple(_with_allocation(r, total) for r in shares_sorted),
        deposits=tuple(_with_allocation(r, total) for r in deposit_rows),
        custom_holdings=tuple(
            CustomLine(id=stored_id(c), name=c.name, class_id=c.class_id,
                       class_title=classes[c.class_id].title if c.class_id in classes else "",
                       class_type=_class_type(classes[c.class_id]) if c.class_id in classes else "asset",
                       fee=_dec(c.fee), value=to_cents(c.value), allocation=percent_of(to_cents(c.value), total))
            for c in sorted(customs, key=lambda c: (class_order(c.class_id), c.name.lower(), c.id or 0))),
        classes=tuple(class_lines),
        totals=Totals(value=total, cost=total_cost, cash=cash_value, shares_value=shares_value, shares_cost=shares_cost,
                      deposits=deposits_value, custom_holdings=customs_value),
        target_source=target_source,
        target_total=target_total,
        target_total_color=class_total_color(target_total) if target_total is not None else None,
        pending_trades=pending_trades(s, stored_id(portfolio)),
    )


def pending_trades(s: Session, portfolio_id: int) -> tuple[PendingTrade, ...]:
    """The portfolio's approved, unexecuted trade recommendations with their live order, if any,
    by code then buys first; one query whatever their number."""
    order, book = AssetTransaction, BrokerOrder
    trade = TradeTransaction
    rows = s.execute(
        sa_select(*(col(c) for c in (trade.id, trade.asset_id, trade.asset_code, trade.action, trade.quantity, order.id,
                                     order.quantity, trade.limit_price, trade.stop_loss, book.order_type,
                                     book.limit_price, book.stop_price)))
        .join(TradeInstruction, col(TradeInstruction.id) == trade.trade_instruction_id)
        .outerjoin(order, (col(order.trade_transaction_id) == trade.id) & (col(order.status) == Status.PROCESSING.value))
        .outerjoin(book, col(book.open_transaction_id) == order.id)
        .where(col(TradeInstruction.investment_id) == portfolio_id, col(trade.status) == TxStatus.APPROVED.value)
        .order_by(col(trade.asset_code), col(trade.id), col(order.id))
    ).all()
    # trades a live order carries since a later version amended it to include them
    carried: dict[int, tuple[int | None, str | None, Decimal | None, Decimal | None]] = {
        rid: (tx_id, kind, limit, stop) for rid, tx_id, kind, limit, stop in s.execute(
            sa_select(col(BrokerOrderVersion.trade_transaction_id), col(book.open_transaction_id),
                      col(book.order_type), col(book.limit_price), col(book.stop_price))
            .join(book, col(book.id) == BrokerOrderVersion.order_id)
            .where(col(book.investment_id) == portfolio_id, col(book.status).in_(order_rules.OPEN_STATUSES),
                   col(BrokerOrderVersion.trade_transaction_id).is_not(None))).all()}
    shared = {tx_id for tx_id, *_ in carried.values()}  # orders carrying several trades show each trade's units
    out: dict[int, PendingTrade] = {}
    for (trade_id, asset_id, code, action, quantity, order_id, order_quantity, limit, stop_loss, kind, order_limit,
         order_stop) in rows:
        if trade_id in out:  # one live order per trade; should a second exist, the first tells
            continue
        side = side_of(action)
        placed = order_id is not None
        units = order_quantity if placed and order_quantity is not None and order_id not in shared else quantity
        if not placed and trade_id in carried:  # part of an amended order: its own units
            order_id, kind, order_limit, order_stop = carried[trade_id]
            placed = True
        if placed and kind:
            price_text = order_rules.price_words(kind, order_limit, order_stop)
        else:
            stop = bool(stop_loss) and side == "SELL"
            price_text = order_rules.price_words(order_rules.order_type_of(limit, stop_loss=stop),
                                                 None if stop else limit, limit if stop else None)
            if stop:
                price_text = price_text.split(",")[0]  # the limit once triggered is the firm's, at export
        out[trade_id] = PendingTrade(
            trade_id=trade_id, asset_id=asset_id, code=code, side=side, units=Decimal(units or 0),
            status=PENDING_PLACED if placed else PENDING_APPROVED, order_id=order_id, price_text=price_text)
    return tuple(sorted(out.values(), key=lambda p: (p.code, p.side != "BUY", p.trade_id)))


def _dec(value: Decimal | int | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def _cash_account_name(s: Session, portfolio: Portfolio) -> str:
    """'Cash Account', after the bank's name when the portfolio names one."""
    if portfolio.institution_id is not None:
        bank = s.get(Institution, portfolio.institution_id)
        if bank is not None:
            return f"{bank.title} {CASH_ACCOUNT}"
    return CASH_ACCOUNT


# ---- use cases ----------------------------------------------------------------------------------
def load(*, actor: Actor, portfolio_id: int) -> Holdings:
    """The holdings read model of a portfolio the actor may see (404 otherwise)."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        return compute(s, portfolio)


def header(*, actor: Actor, portfolio_id: int) -> Header:
    """Only the head of a portfolio the actor may see (name, model, holders; 404 otherwise), for
    the other screens about the portfolio (its transactions)."""
    with session_scope() as s:
        return _header(s, load_portfolio(s, actor, portfolio_id))


def page_bounds(limit: int | None, offset: int | None) -> tuple[int, int]:
    """(limit, offset) for the holdings lists: 12, 20 or 32 per page (12 otherwise), from 0 up."""
    return (limit if limit is not None and limit in PAGE_SIZES else DEFAULT_PAGE_SIZE), max(0, offset or 0)


def _check_firm(actor: Actor, holdings: Holdings, firm_id: int | None) -> None:
    """A superuser may name the firm context; another firm's portfolio is then not found.
    Everyone else always works in their own firm (load_portfolio has checked it)."""
    if actor.is_superuser and firm_id is not None and firm_id != holdings.portfolio.firm_id:
        raise NotFound(tenancy.PORTFOLIO_NOT_FOUND)


def list_assets(*, actor: Actor, portfolio_id: int, limit: int | None = DEFAULT_PAGE_SIZE, offset: int | None = 0,
                firm_id: int | None = None) -> Page[PortfolioAsset]:
    """GET /api/investments/{id}/assets: one page of the listed assets held, by class then code, and
    how many there are; `firm_id` is the firm context a superuser names (None: none)."""
    h = load(actor=actor, portfolio_id=portfolio_id)
    _check_firm(actor, h, firm_id)
    size, start = page_bounds(limit, offset)
    return Page(rows=tuple(_asset(line) for line in h.shares[start:start + size]), total=len(h.shares))


def get_holdings(*, actor: Actor, portfolio_id: int, shares_page: tuple[int, int] | None = None) -> HoldingsResult:
    """GET /api/investments/{id}/holdings: the full holdings result (spec 001 s3), every share
    unless `shares_page` (limit, offset: page_bounds') asks for a page of them."""
    h = load(actor=actor, portfolio_id=portfolio_id)
    result = holdings_result(h, can_edit=is_staff(actor))
    if shares_page is not None:
        size, start = shares_page
        result = dataclasses.replace(result, shares=result.shares[start:start + size])
    return result


def export(*, actor: Actor, portfolio_id: int, file_format: str, offset: int = 0) -> tuple[str, bytes, str]:
    """(file name, bytes, media type) of the holdings as an Excel workbook or a PDF document;
    dates in the browser's offset (minutes as getTimezoneOffset gives, read by
    app.domain.timezones.client_offset)."""
    from app.exports import holdings_pdf, holdings_xlsx
    from app.exports.xlsx_styles import MEDIA_TYPE as XLSX

    if file_format not in EXPORT_FORMATS:
        raise ValidationError("Unknown export format")
    h = load(actor=actor, portfolio_id=portfolio_id)
    if file_format == "xlsx":
        return holdings_xlsx.filename(h, offset), holdings_xlsx.build(h, offset), XLSX
    return holdings_pdf.filename(h, offset), holdings_pdf.build(h, offset), holdings_pdf.MEDIA_TYPE


# ---- the holdings result as the API answers it (spec 001 s3) ---------------------------------------
@dataclass(frozen=True)
class PortfolioAsset:
    """A listed asset held, as GET /investments/{id}/assets lists it."""
    id: int
    code: str
    name: str
    url: str | None
    class_title: str = field(metadata=wire("class"))
    class_id: int
    allocation: Decimal | None
    value: Decimal
    cost: Decimal


@dataclass(frozen=True)
class OwnerRow:
    id: int
    name: str
    is_owner: bool


@dataclass(frozen=True)
class ModelName:
    id: int
    name: str | None


@dataclass(frozen=True)
class HoldingsPortfolio:
    """The portfolio the holdings are of: its head and its holders (Users), owners by id."""
    id: int
    name: str
    type: str
    firm_id: int
    inactive: bool
    model_id: int | None
    model: ModelName | None
    users: tuple[OwnerRow, ...] = field(metadata=wire("Users"))
    owners: tuple[int, ...]
    class_allocation: bool


@dataclass(frozen=True)
class CashAccountRow:
    name: str
    code: str
    value: Decimal
    cost: Decimal
    class_title: str = field(metadata=wire("class"))
    class_id: int | None
    allocation: Decimal | None


@dataclass(frozen=True)
class ShareRow:
    """A listed share held (`quantity` without trailing zeros)."""
    id: int
    asset_id: int
    name: str
    code: str
    quantity: Decimal
    price: Decimal | None
    cost: Decimal
    value: Decimal
    url: str | None
    pdf_url: str | None
    six_months_return: Decimal | None = field(metadata=wire("sixMonthsReturn"))
    since_purchase: Decimal | None = field(metadata=wire("sincePurchase"))
    dividend_yield: Decimal | None = field(metadata=wire("dividendYield"))
    class_title: str = field(metadata=wire("class"))
    class_id: int
    allocation: Decimal | None


@dataclass(frozen=True)
class DepositCosts:
    cost: Decimal
    value: Decimal


@dataclass(frozen=True)
class DepositRow:
    """A term deposit or at-call account held, by the deposit forms' names."""
    id: int
    code: str
    name: str
    product_type: str = field(metadata=wire("ProviderProductType"))
    provider_name: str = field(metadata=wire("ProviderName"))
    deal_id: str = field(metadata=wire("DealID"))
    rate: Decimal | None = field(metadata=wire("Rate"))
    start_date: date = field(metadata=wire("StartDate"))
    maturity_date: date | None = field(metadata=wire("MaturityDate"))
    deal_status: str
    costs: DepositCosts
    class_title: str = field(metadata=wire("class"))
    class_id: int | None
    allocation: Decimal | None


@dataclass(frozen=True)
class CustomHoldingRow:
    id: int
    name: str
    class_id: int
    class_title: str = field(metadata=wire("classTitle"))
    class_type: str
    fee: Decimal | None
    value: Decimal
    allocation: Decimal | None


@dataclass(frozen=True)
class ClassRow:
    """An asset class: its value, its actual share (allocation) and its target."""
    class_id: int
    title: str
    is_cash: bool
    value: Decimal
    cost: Decimal
    allocation: Decimal | None
    target: Decimal | None
    color: str | None


@dataclass(frozen=True)
class TotalsRow:
    value: Decimal
    cost: Decimal
    cash: Decimal
    shares: Decimal
    shares_cost: Decimal
    deposits: Decimal
    custom_holdings: Decimal


@dataclass(frozen=True)
class ClassTarget:
    """Where the class targets come from (portfolio | model | None), their total and its colour."""
    source: str | None
    total: Decimal | None
    color: str | None


@dataclass(frozen=True)
class PendingTradeRow:
    id: int
    asset_id: int
    code: str
    side: str
    units: Decimal
    status: str
    order_id: int | None
    price_text: str


@dataclass(frozen=True)
class HoldingsResult:
    """The holdings result as GET /investments/{id}/holdings answers it."""
    investment: HoldingsPortfolio
    cash_account: CashAccountRow
    shares: tuple[ShareRow, ...]
    shares_count: int
    deposits: tuple[DepositRow, ...]
    custom_holdings: tuple[CustomHoldingRow, ...]
    classes: tuple[ClassRow, ...]
    totals: TotalsRow
    class_allocation: ClassTarget
    pending_trades: tuple[PendingTradeRow, ...]
    can_edit: bool
    as_at: datetime


def _asset(line: ShareLine) -> PortfolioAsset:
    return PortfolioAsset(id=line.asset_id, code=line.code, name=line.name, url=line.url, class_title=line.class_title,
                          class_id=line.class_id, allocation=line.allocation, value=line.value, cost=line.cost)


def _share(line: ShareLine) -> ShareRow:
    return ShareRow(
        id=line.asset_id, asset_id=line.asset_id, name=line.name, code=line.code, quantity=plain(line.quantity),
        price=line.price, cost=line.cost, value=line.value, url=line.url, pdf_url=line.pdf_url,
        six_months_return=line.six_months_return, since_purchase=line.since_purchase,
        dividend_yield=line.dividend_yield, class_title=line.class_title, class_id=line.class_id,
        allocation=line.allocation)


def _deposit(line: DepositLine) -> DepositRow:
    return DepositRow(
        id=line.id, code=line.code, name=line.name, product_type=line.product_type, provider_name=line.provider_name,
        deal_id=line.deal_id, rate=line.rate, start_date=line.start_date, maturity_date=line.maturity_date,
        deal_status=line.deal_status, costs=DepositCosts(cost=line.cost, value=line.value),
        class_title=line.class_title, class_id=line.class_id, allocation=line.allocation)


def _pending(line: PendingTrade) -> PendingTradeRow:
    return PendingTradeRow(id=line.trade_id, asset_id=line.asset_id, code=line.code, side=line.side,
                           units=plain(line.units), status=line.status, order_id=line.order_id,
                           price_text=line.price_text)


def holdings_result(h: Holdings, *, can_edit: bool = False) -> HoldingsResult:
    p, cash, t = h.portfolio, h.cash_account, h.totals
    return HoldingsResult(
        investment=HoldingsPortfolio(
            id=p.id, name=p.name, type=p.type, firm_id=p.firm_id, inactive=p.inactive, model_id=p.model_id,
            model=ModelName(id=p.model_id, name=p.model_name) if p.model_id else None,
            users=tuple(OwnerRow(id=o.id, name=o.name, is_owner=o.is_owner) for o in p.owners),
            owners=tuple(o.id for o in p.owners if o.is_owner), class_allocation=p.class_allocation),
        cash_account=CashAccountRow(name=cash.name, code=cash.code, value=cash.value, cost=cash.value,
                                    class_title=cash.class_title, class_id=cash.class_id, allocation=cash.allocation),
        shares=tuple(_share(line) for line in h.shares),
        shares_count=len(h.shares),
        deposits=tuple(_deposit(line) for line in h.deposits),
        custom_holdings=tuple(CustomHoldingRow(
            id=c.id, name=c.name, class_id=c.class_id, class_title=c.class_title, class_type=c.class_type, fee=c.fee,
            value=c.value, allocation=c.allocation) for c in h.custom_holdings),
        classes=tuple(ClassRow(class_id=c.class_id, title=c.title, is_cash=c.is_cash, value=c.value, cost=c.cost,
                               allocation=c.actual, target=c.target, color=c.color) for c in h.classes),
        totals=TotalsRow(value=t.value, cost=t.cost, cash=t.cash, shares=t.shares_value, shares_cost=t.shares_cost,
                         deposits=t.deposits, custom_holdings=t.custom_holdings),
        class_allocation=ClassTarget(source=h.target_source, total=h.target_total, color=h.target_total_color),
        pending_trades=tuple(_pending(line) for line in h.pending_trades),
        can_edit=can_edit,
        as_at=h.as_at,
    )


# ---- asset ownership on a date (GET /api/investments-asset-ownership) ---------------------------
@dataclass(frozen=True)
class AssetOwnership:
    """A portfolio's units of a listed asset at the end of a day, and their cost base."""
    investment_id: int
    investment_name: str
    asset_id: int
    code: str
    name: str
    quantity: Decimal  # without trailing zeros
    cost: Decimal


def asset_ownership(*, actor: Actor, on: date | None = None) -> list[AssetOwnership]:
    """Who held which listed asset at the end of a day (default today, UTC): one row per
    portfolio and asset with units above zero, for the portfolios the actor can see, derived from
    the transactions executed up to that day under each portfolio's tax treatment."""
    from datetime import timedelta, timezone

    from app.domain import ledger

    day = on if on is not None else utcnow().date()
    until = datetime.combine(day + timedelta(days=1), datetime.min.time(), timezone.utc)
    with session_scope() as s:
        portfolios = {stored_id(p): p for p in s.exec(select(Portfolio).where(tenancy.readable_portfolios(actor))
                                                      .order_by(col(Portfolio.name), col(Portfolio.id))).all()}
        trades = postings.executed_trades(s, list(portfolios), until=until)
        held: list[tuple[int, int, Decimal, Decimal]] = []
        for pid, by_asset in trades.items():
            treatment = postings.tax_treatment(portfolios[pid])
            for asset_id, rows in by_asset.items():
                position = ledger.apply(rows, treatment)
                if position.units > 0:
                    held.append((pid, asset_id, position.units, position.cost_base))
        assets = {stored_id(a): a for a in s.exec(select(Asset).where(col(Asset.id).in_({a for _, a, _, _ in held})))
                  .all()} if held else {}
        out = [AssetOwnership(investment_id=pid, investment_name=portfolios[pid].name, asset_id=aid,
                              code=assets[aid].code, name=assets[aid].name, quantity=units.normalize(), cost=cost)
               for pid, aid, units, cost in held if aid in assets]
        out.sort(key=lambda r: (r.investment_name.lower(), r.investment_id, r.code))
        return out
