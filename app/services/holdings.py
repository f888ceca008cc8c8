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

from datetime import date, datetime
from decimal import Decimal
from typing import Any, Iterable

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetTransaction, BrokerOrder, BrokerOrderVersion, CustomHolding, Deposit, Institution, Model, ModelClass, Portfolio,
    PortfolioClass, PortfolioUser, TradeInstruction, TradeTransaction, User,
)
from app.db.types import utcnow
from app.domain import deposits as deposit_rules
from app.domain import orders as order_rules
from app.domain.advice import TxStatus, side_of
from app.domain.allocations import class_total_color
from app.domain.drift import band_colour, pct as drift_pct
from app.domain.errors import NotFound, ValidationError
from app.domain.holdings import (  # the read model, built here (Line, Section, sections: for its readers)
    PENDING_APPROVED, PENDING_PLACED, ZERO, CashLine, ClassLine, CustomLine, DepositLine, Header, Holdings, Line, Owner,
    PendingTrade, Section, ShareLine, Totals, percent_of, sections, since_purchase,
)
from app.domain.money import number_text, to_cents
from app.domain.permissions import Actor, is_staff
from app.domain.transactions import CASH_ACCOUNT, Status
from app.domain.users import known_as
from app.services import postings, tenancy
from app.services.tenancy import load_portfolio

PAGE_SIZES = (12, 20, 32)
DEFAULT_PAGE_SIZE = 12
CASH_CODE = "CASH"
NO_CASH_CLASS_TITLE = "Cash"
EXPORT_FORMATS = ("xlsx", "pdf")


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
    model_name = model_firm_id = None
    if portfolio.model_id is not None:
        model = s.get(Model, portfolio.model_id)
        if model is not None and model.deleted_at is None:
            model_name, model_firm_id = model.name, model.firm_id
    rows = s.exec(
        select(PortfolioUser, User).join(User, User.id == PortfolioUser.user_id)
        .where(PortfolioUser.investment_id == portfolio.id)
        .order_by(col(PortfolioUser.is_owner).desc(), func.lower(User.last_name), func.lower(User.first_name), User.id)
    ).all()
    owners = tuple(Owner(id=u.id, name=person_name(u), is_owner=bool(pu.is_owner)) for pu, u in rows)
    return Header(id=portfolio.id, name=portfolio.name, type=portfolio.type, firm_id=portfolio.firm_id,
                  inactive=portfolio.inactive, model_id=portfolio.model_id if model_name is not None else None,
                  model_name=model_name, model_firm_id=model_firm_id, owners=owners, class_allocation=bool(portfolio.class_allocation))


Band = tuple[Decimal | None, Decimal | None]  # a class's min and max (None: open on that side)


def _targets(s: Session, portfolio: Portfolio) -> tuple[str | None, dict[int, Decimal], dict[int, Band]]:
    """(where the class targets come from, class id -> allocation, class id -> its band)."""
    def dec(value: Any) -> Decimal | None:
        return None if value is None else Decimal(value)

    if portfolio.class_allocation:
        rows = s.exec(select(PortfolioClass).where(PortfolioClass.investment_id == portfolio.id)).all()
        return ("portfolio", {r.class_id: Decimal(r.allocation) for r in rows},
                {r.class_id: (dec(r.min), dec(r.max)) for r in rows})
    if portfolio.model_id is not None:
        model = s.get(Model, portfolio.model_id)
        if model is not None and model.deleted_at is None and model.class_allocation:
            rows = s.exec(select(ModelClass).where(ModelClass.model_id == model.id)).all()
            return ("model", {r.class_id: Decimal(r.allocation) for r in rows},
                    {r.class_id: (dec(r.min), dec(r.max)) for r in rows})
    return None, {}, {}


def _classes(s: Session, ids: Iterable[int]) -> dict[int, AssetClass]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {c.id: c for c in s.exec(select(AssetClass).where(col(AssetClass.id).in_(wanted))).all()}


def _cash_class(s: Session) -> AssetClass | None:
    return s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True)).order_by(AssetClass.id)).first()


def compute(s: Session, portfolio: Portfolio) -> Holdings:
    """The holdings of a portfolio already loaded (and permission-checked) by the caller."""
    book = postings.book(s, portfolio)
    header = _header(s, portfolio)
    cash_class = _cash_class(s)
    cash_class_id = cash_class.id if cash_class is not None else None
    cash_title = cash_class.title if cash_class is not None else NO_CASH_CLASS_TITLE

    # listed shares still held
    held = {aid: pos for aid, pos in book.positions.items() if pos.units > 0}
    assets = {a.id: a for a in s.exec(select(Asset).where(col(Asset.id).in_(list(held)))).all()} if held else {}

    deposits = list(s.exec(select(Deposit).where(Deposit.investment_id == portfolio.id).order_by(Deposit.start_date, Deposit.id)).all())
    customs = list(s.exec(select(CustomHolding).where(CustomHolding.investment_id == portfolio.id)
                          .order_by(func.lower(CustomHolding.name), CustomHolding.id)).all())
    target_source, targets, bands = _targets(s, portfolio)
    classes = _classes(s, [a.class_id for a in assets.values()] + [c.class_id for c in customs] + list(targets)
                       + [cash_class_id])

    share_rows: list[dict[str, Any]] = []
    for asset_id, pos in held.items():
        asset = assets.get(asset_id)
        if asset is None:  # pragma: no cover - a transaction always names an existing asset
            continue
        price = Decimal(asset.last_close_price) if asset.last_close_price is not None else None
        cost = to_cents(pos.cost_base)
        value = to_cents(pos.units * price) if price is not None else cost
        share_rows.append(dict(
            asset_id=asset.id, code=asset.code, name=asset.name, quantity=pos.units, price=price, cost=cost, value=value,
            url=asset.url, pdf_url=None, six_months_return=_dec(asset.six_month_return),
            since_purchase=since_purchase(value, cost) if price is not None else None,
            dividend_yield=_dec(asset.dividend_yield), class_id=asset.class_id,
            class_title=classes[asset.class_id].title if asset.class_id in classes else "",
        ))

    deposit_rows: list[dict[str, Any]] = []
    for d in deposits:
        balance = to_cents(book.deposit_balances.get(d.id, ZERO))
        if balance == 0:
            continue  # nothing placed yet, or redeemed
        deposit_rows.append(dict(
            id=d.id, code=deposit_code(d), name=deposit_name(d), product_type=d.product_type,
            provider_name=d.provider_name, deal_id=d.deal_id, rate=_dec(d.rate), start_date=d.start_date,
            maturity_date=d.maturity_date, deal_status=d.deal_status, cost=balance, value=balance,
            class_id=cash_class_id, class_title=cash_title,
        ))

    cash_value = to_cents(book.cash_balance)
    shares_value = sum((r["value"] for r in share_rows), ZERO)
    shares_cost = sum((r["cost"] for r in share_rows), ZERO)
    deposits_value = sum((r["value"] for r in deposit_rows), ZERO)
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
        add(r["class_id"], r["value"], r["cost"])
    for r in deposit_rows:
        add(r["class_id"], r["value"], r["cost"])
    for c in customs:
        add(c.class_id, to_cents(c.value), to_cents(c.value))
    for class_id in targets:
        by_class.setdefault(class_id, [ZERO, ZERO])

    def class_order(class_id: int) -> tuple:
        c = classes.get(class_id)
        return (0 if c is not None and c.is_cash else 1, c.idx if c else 0, (c.title if c else "").lower(), class_id)

    class_lines = []
    for class_id in sorted(by_class, key=class_order):
        c = classes.get(class_id)
        value, cost = by_class[class_id]
        actual = percent_of(value, total)
        target = targets.get(class_id) if target_source else None
        if target is None and target_source:
            target = ZERO  # a class the target leaves out is meant to hold nothing
        low, high = bands.get(class_id, (None, None))
        class_lines.append(ClassLine(class_id=class_id, title=c.title if c else "", is_cash=bool(c and c.is_cash),
                                     value=value, cost=cost, actual=actual, target=target,
                                     color=None if target is None else band_colour(drift_pct(value, total), low, high)))

    shares_sorted = sorted(share_rows, key=lambda r: (class_order(r["class_id"]), r["code"]))
    target_total = sum(targets.values(), ZERO) if target_source else None
    return Holdings(
        portfolio=header,
        cash_account=CashLine(name=_cash_account_name(s, portfolio), code=CASH_CODE, value=cash_value,
                              class_id=cash_class_id, class_title=cash_title, allocation=percent_of(cash_value, total)),
        shares=tuple(ShareLine(**r, allocation=percent_of(r["value"], total)) for r in shares_sorted),
        deposits=tuple(DepositLine(**r, allocation=percent_of(r["value"], total)) for r in deposit_rows),
        custom_holdings=tuple(
            CustomLine(id=c.id, name=c.name, class_id=c.class_id,
                       class_title=classes[c.class_id].title if c.class_id in classes else "",
                       class_type=_class_type(classes[c.class_id]) if c.class_id in classes else "asset",
                       fee=_dec(c.fee), value=to_cents(c.value), allocation=percent_of(to_cents(c.value), total))
            for c in sorted(customs, key=lambda c: (class_order(c.class_id), c.name.lower(), c.id))),
        classes=tuple(class_lines),
        totals=Totals(value=total, cost=total_cost, cash=cash_value, shares_value=shares_value, shares_cost=shares_cost,
                      deposits=deposits_value, custom_holdings=customs_value),
        target_source=target_source,
        target_total=target_total,
        target_total_color=class_total_color(target_total) if target_total is not None else None,
        pending_trades=pending_trades(s, portfolio.id),
    )


def pending_trades(s: Session, portfolio_id: int) -> tuple[PendingTrade, ...]:
    """The portfolio's approved, unexecuted trade recommendations with their live order, if any,
    by code then buys first; one query whatever their number."""
    order, book = AssetTransaction, BrokerOrder
    rows = s.exec(
        select(TradeTransaction.id, TradeTransaction.asset_id, TradeTransaction.asset_code, TradeTransaction.action,
               TradeTransaction.quantity, order.id, order.quantity, TradeTransaction.limit_price,
               TradeTransaction.stop_loss, book.order_type, book.limit_price, book.stop_price)
        .join(TradeInstruction, TradeInstruction.id == TradeTransaction.trade_instruction_id)
        .outerjoin(order, (order.trade_transaction_id == TradeTransaction.id)
                   & (order.status == Status.PROCESSING.value))
        .outerjoin(book, book.open_transaction_id == order.id)
        .where(TradeInstruction.investment_id == portfolio_id, TradeTransaction.status == TxStatus.APPROVED.value)
        .order_by(TradeTransaction.asset_code, TradeTransaction.id, order.id)
    ).all()
    # trades a live order carries since a later version amended it to include them
    carried = {rid: (tx_id, kind, limit, stop) for rid, tx_id, kind, limit, stop in s.exec(
        select(BrokerOrderVersion.trade_transaction_id, book.open_transaction_id, book.order_type, book.limit_price,
               book.stop_price)
        .join(book, book.id == BrokerOrderVersion.order_id)
        .where(book.investment_id == portfolio_id, col(book.status).in_(order_rules.OPEN_STATUSES),
               BrokerOrderVersion.trade_transaction_id.is_not(None))).all()}
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


def _dec(value: Any) -> Decimal | None:
    return None if value is None else Decimal(value)


def _cash_account_name(s: Session, portfolio: Portfolio) -> str:
    """'Cash Account', after the bank's name when the portfolio names one."""
    if portfolio.institution_id is not None:
        bank = s.get(Institution, portfolio.institution_id)
        if bank is not None:
            return f"{bank.title} {CASH_ACCOUNT}"
    return CASH_ACCOUNT


# ---- use cases ----------------------------------------------------------------------------------
def load(*, actor: Actor, portfolio_id: Any) -> Holdings:
    """The holdings read model of a portfolio the actor may see (404 otherwise)."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        return compute(s, portfolio)


def header(*, actor: Actor, portfolio_id: Any) -> Header:
    """Only the head of a portfolio the actor may see (name, model, holders; 404 otherwise), for
    the other screens about the portfolio (its transactions)."""
    with session_scope() as s:
        return _header(s, load_portfolio(s, actor, portfolio_id))


def page_bounds(limit: Any, offset: Any) -> tuple[int, int]:
    """(limit, offset) for the holdings lists: 12, 20 or 32 per page (12 otherwise)."""
    try:
        size = int(limit)
    except (TypeError, ValueError):
        size = DEFAULT_PAGE_SIZE
    if size not in PAGE_SIZES:
        size = DEFAULT_PAGE_SIZE
    try:
        start = max(0, int(offset))
    except (TypeError, ValueError):
        start = 0
    return size, start


def _check_firm(actor: Actor, holdings: Holdings, firm_id: Any) -> None:
    """A superuser may name the firm context; another firm's portfolio is then not found.
    Everyone else always works in their own firm (load_portfolio has checked it)."""
    if not actor.is_superuser or firm_id in (None, "", "-1", "-2"):
        return
    wanted = tenancy.as_id(firm_id)
    if wanted is not None and wanted != holdings.portfolio.firm_id:
        raise NotFound(tenancy.PORTFOLIO_NOT_FOUND)


def list_assets(*, actor: Actor, portfolio_id: Any, limit: Any = DEFAULT_PAGE_SIZE, offset: Any = 0,
                firm_id: Any = None) -> tuple[list[dict[str, Any]], int]:
    """GET /api/investments/{id}/assets: one page of the listed assets held, by class then code
    (id, code, name, url, class, class_id, allocation, value, cost)."""
    h = load(actor=actor, portfolio_id=portfolio_id)
    _check_firm(actor, h, firm_id)
    size, start = page_bounds(limit, offset)
    rows = [asset_json(line) for line in h.shares[start:start + size]]
    return rows, len(h.shares)


def get_holdings(*, actor: Actor, portfolio_id: Any, limit: Any = None, offset: Any = 0) -> dict[str, Any]:
    """GET /api/investments/{id}/holdings: the full holdings result (spec 001 s3), every share
    unless a page (limit 12, 20 or 32, offset) is asked for."""
    h = load(actor=actor, portfolio_id=portfolio_id)
    result = holdings_json(h, can_edit=is_staff(actor))
    if limit not in (None, ""):
        size, start = page_bounds(limit, offset)
        result["shares"] = result["shares"][start:start + size]
    return result


def export(*, actor: Actor, portfolio_id: Any, file_format: str, client_offset: Any = None) -> tuple[str, bytes, str]:
    """(file name, bytes, media type) of the holdings as an Excel workbook or a PDF document;
    dates in the browser's offset (client-timezone-offset, minutes as getTimezoneOffset gives)."""
    from app.exports import holdings_pdf, holdings_xlsx
    from app.domain.timezones import client_offset as parse_offset

    if file_format not in EXPORT_FORMATS:
        raise ValidationError("Unknown export format")
    h = load(actor=actor, portfolio_id=portfolio_id)
    offset = parse_offset(client_offset)
    if file_format == "xlsx":
        return holdings_xlsx.filename(h, offset), holdings_xlsx.build(h, offset), holdings_xlsx.MEDIA_TYPE
    return holdings_pdf.filename(h, offset), holdings_pdf.build(h, offset), holdings_pdf.MEDIA_TYPE


# ---- JSON shapes (spec 001 s3) ------------------------------------------------------------------
def _s(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def asset_json(line: ShareLine) -> dict[str, Any]:
    return {"id": line.asset_id, "code": line.code, "name": line.name, "url": line.url, "class": line.class_title,
            "class_id": line.class_id, "allocation": _s(line.allocation), "value": _s(line.value), "cost": _s(line.cost)}


def share_json(line: ShareLine) -> dict[str, Any]:
    return {
        "id": line.asset_id, "asset_id": line.asset_id, "name": line.name, "code": line.code,
        "quantity": number_text(line.quantity), "price": _s(line.price), "cost": _s(line.cost), "value": _s(line.value),
        "url": line.url, "pdf_url": line.pdf_url, "sixMonthsReturn": _s(line.six_months_return),
        "sincePurchase": _s(line.since_purchase), "dividendYield": _s(line.dividend_yield),
        "class": line.class_title, "class_id": line.class_id, "allocation": _s(line.allocation),
    }


def deposit_json(line: DepositLine) -> dict[str, Any]:
    return {
        "id": line.id, "code": line.code, "name": line.name, "ProviderProductType": line.product_type,
        "ProviderName": line.provider_name, "DealID": line.deal_id, "Rate": _s(line.rate),
        "StartDate": line.start_date.isoformat(), "MaturityDate": line.maturity_date.isoformat() if line.maturity_date else None,
        "deal_status": line.deal_status, "costs": {"cost": _s(line.cost), "value": _s(line.value)},
        "class": line.class_title, "class_id": line.class_id, "allocation": _s(line.allocation),
    }


def custom_json(line: CustomLine) -> dict[str, Any]:
    return {"id": line.id, "name": line.name, "class_id": line.class_id, "classTitle": line.class_title,
            "class_type": line.class_type, "fee": _s(line.fee), "value": _s(line.value), "allocation": _s(line.allocation)}


def pending_json(line: PendingTrade) -> dict[str, Any]:
    return {"id": line.trade_id, "asset_id": line.asset_id, "code": line.code, "side": line.side,
            "units": number_text(line.units), "status": line.status, "order_id": line.order_id,
            "price_text": line.price_text}


def holdings_json(h: Holdings, *, can_edit: bool = False) -> dict[str, Any]:
    p = h.portfolio
    return {
        "investment": {
            "id": p.id, "name": p.name, "type": p.type, "firm_id": p.firm_id, "inactive": p.inactive,
            "model_id": p.model_id, "model": {"id": p.model_id, "name": p.model_name} if p.model_id else None,
            "Users": [{"id": o.id, "name": o.name, "is_owner": o.is_owner} for o in p.owners],
            "owners": [o.id for o in p.owners if o.is_owner], "class_allocation": p.class_allocation,
        },
        "cash_account": {"name": h.cash_account.name, "code": h.cash_account.code, "value": _s(h.cash_account.value),
                         "cost": _s(h.cash_account.value), "class": h.cash_account.class_title,
                         "class_id": h.cash_account.class_id, "allocation": _s(h.cash_account.allocation)},
        "shares": [share_json(line) for line in h.shares],
        "shares_count": len(h.shares),
        "deposits": [deposit_json(line) for line in h.deposits],
        "custom_holdings": [custom_json(line) for line in h.custom_holdings],
        "classes": [{"class_id": c.class_id, "title": c.title, "is_cash": c.is_cash, "value": _s(c.value),
                     "cost": _s(c.cost), "allocation": _s(c.actual), "target": _s(c.target), "color": c.color}
                    for c in h.classes],
        "totals": {"value": _s(h.totals.value), "cost": _s(h.totals.cost), "cash": _s(h.totals.cash),
                   "shares": _s(h.totals.shares_value), "shares_cost": _s(h.totals.shares_cost),
                   "deposits": _s(h.totals.deposits), "custom_holdings": _s(h.totals.custom_holdings)},
        "class_allocation": {"source": h.target_source, "total": _s(h.target_total), "color": h.target_total_color},
        "pending_trades": [pending_json(line) for line in h.pending_trades],
        "can_edit": can_edit,
        "as_at": h.as_at.isoformat(),
    }


# ---- asset ownership on a date (GET /api/investments-asset-ownership) ---------------------------
def asset_ownership(*, actor: Actor, on: Any = None) -> list[dict[str, Any]]:
    """Who held which listed asset at the end of a day (default today, UTC): one row per
    portfolio and asset with units above zero, for the portfolios the actor can see, derived from
    the transactions executed up to that day under each portfolio's tax treatment."""
    from datetime import timedelta, timezone

    from app.domain import ledger

    if on in (None, ""):
        day = utcnow().date()
    else:
        try:
            day = on if isinstance(on, date) else date.fromisoformat(str(on)[:10])
        except ValueError:
            raise ValidationError("Please, enter a valid date format. ", fields={"date": "invalid"}) from None
    until = datetime.combine(day + timedelta(days=1), datetime.min.time(), timezone.utc)
    with session_scope() as s:
        portfolios = {p.id: p for p in s.exec(select(Portfolio).where(tenancy.readable_portfolios(actor))
                                              .order_by(Portfolio.name, Portfolio.id)).all()}
        trades = postings.executed_trades(s, list(portfolios), until=until)
        held: list[tuple[int, int, Decimal, Decimal]] = []
        for pid, by_asset in trades.items():
            treatment = postings.tax_treatment(portfolios[pid])
            for asset_id, rows in by_asset.items():
                position = ledger.apply(rows, treatment)
                if position.units > 0:
                    held.append((pid, asset_id, position.units, position.cost_base))
        assets = {a.id: a for a in s.exec(select(Asset).where(col(Asset.id).in_({a for _, a, _, _ in held}))).all()} \
            if held else {}
        out = [{"investment_id": pid, "investment_name": portfolios[pid].name, "asset_id": aid,
                "code": assets[aid].code, "name": assets[aid].name, "quantity": format(units.normalize(), "f"),
                "cost": str(cost)} for pid, aid, units, cost in held if aid in assets]
        out.sort(key=lambda r: (r["investment_name"].lower(), r["investment_id"], r["code"]))
        return out
