"""Cash transactions, the opening balance and asset transactions of a portfolio (spec 002 s2-s9).

Who may do what (app.services.tenancy decides what a portfolio is to the actor):
- reading: staff of the portfolio's firm (superusers: every firm) and the clients who hold it;
  another firm's portfolio or transaction is not found (404);
- writing: staff only (superuser, administrator, adviser of the firm); a client is refused (403)
  before anything is looked up.

Every write is one database transaction. Asset transactions and their cash side are written by
app.services.postings (record / sync_cash / remove); the portfolio row is locked first
(load_portfolio(..., lock=True)) so that two sells of the same units cannot both pass the units
check. Holdings, the cash balance and gains are derived from executed rows only (postings).

What the service answers (frozen dataclasses; the API renders them as the REST payloads: money
as text with 2 decimals, prices and quantities as text without trailing zeros, moments as ISO 8601
text in UTC): CashTransactionView (a cash list row, with its LinkedTransaction), CashTransactionPage,
OpeningBalance, AssetTransactionView (a listing.Page of them: an expanded asset's rows),
AssetPosition (a listing.Page of them: the asset panel), AssetTotals (the panel's header) and
TransactionFormOptions. A write answers the row written with its `notice` (the success text:
'Transaction added', 'Transaction updated', 'Transaction created', 'Opening balance has been
changed') - CashTransactionWrite, AssetTransactionWrite, OpeningBalanceWrite - and a delete
WriteNotice ('Transaction has been removed'); `message`, only when there is one, is a warning the
screen shows as such (spec 002 s8). The forms come in as app.domain.transaction_rules'
TransactionForm and OpeningBalanceForm, read once at the edge."""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from decimal import Decimal, localcontext
from typing import Any, Iterable, TypedDict, TypeVar

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetTransaction, CashTransaction, Deposit, Portfolio, TradeInstruction, TradeTransaction,
)
from app.db.types import stored_id, utcnow
from app.domain import ledger
from app.domain import transaction_rules as rules
from app.domain import validators as v
from app.domain.errors import Conflict, NotFound, ValidationError
from app.domain.money import plain, to_cents
from app.domain.parsing import as_id
from app.domain.permissions import Actor, is_staff, require_staff
from app.domain.transaction_rules import OpeningBalanceForm, TransactionForm
from app.domain.transactions import (
    CASH_LIST_LABELS, KIND_LABELS, STOP_LOSS_LABEL, Cash, CashType, Kind, Status, cash_amount, cash_class,
    generating_action, is_counted, is_stop_loss, signed,
)
from app.domain.wire import Json, only_when_set, wire
from app.services import listing, postings
from app.services.tenancy import find_assets_by_codes, load_portfolio, load_portfolio_row, readable_assets

ZERO = Decimal(0)
# Trade instruction transactions still waiting for a decision or an order (app.domain.advice.TxStatus).
_OPEN_TRADE_STATUSES = ("draft", "pending_approval", "pending_copy", "pending_to_cancel", "approved")
_PENDING_ASSET_STATUSES = (Status.PENDING.value, Status.PENDING_APPROVAL.value, Status.PROCESSING.value)


# ---- what the service answers ----------------------------------------------------------------------
@dataclass(frozen=True)
class AssetBrief:
    id: int
    code: str
    name: str | None


@dataclass(frozen=True)
class DepositBrief:
    id: int
    product_type: str
    provider_name: str
    deal_id: str


@dataclass(frozen=True)
class LinkedTransaction:
    """The asset or deposit transaction a cash transaction is the cash side of."""
    id: int
    type: str
    type_label: str
    status: str
    om_status: str | None
    quantity: Decimal | None
    price: Decimal | None
    asset: AssetBrief | None
    deposit_id: int | None
    deposit: DepositBrief | None
    payload: dict[str, Json]


@dataclass(frozen=True)
class CashPayload:
    """What a cash transaction keeps beside its columns, as it was stored."""
    description: Json
    ex_date: Json
    franking_credits: Json


@dataclass(frozen=True)
class CashTransactionView:
    """One cash transaction as the cash list shows it: its form ('withdrawal' | 'credit' | 'income' |
    None), its class (Withdrawal, Credit, Buy, Sell, Income, Opening Balance, Dividend, Interest,
    Capital Return, Interest Income), the amount (`price`) and its signed value (`amount`, below
    zero for decreases), whether it is in the totals (`counted`) and what the reader may do."""
    id: int
    investment_id: int
    type: str  # opening_balance | cash | income | linked
    form: str | None
    cash_class: str = field(metadata=wire("class"))
    action: str  # increase | decrease
    price: Decimal
    amount: Decimal
    trade_at: datetime
    settlement_at: datetime | None
    status: str
    status_label: str
    counted: bool
    description: Json
    payload: CashPayload
    linked_transaction_id: int | None
    linked_transaction: LinkedTransaction | None
    can_edit: bool
    can_delete: bool


@dataclass(frozen=True)
class CashTransactionWrite(CashTransactionView):
    """The cash transaction written and the success text."""
    notice: str


@dataclass(frozen=True)
class CashTransactionPage:
    """One page of the cash list and the totals of the executed cash transactions."""
    rows: tuple[CashTransactionView, ...]
    count: int
    balance: Decimal
    cash_in: Decimal
    cash_out: Decimal
    limit: int
    offset: int


@dataclass(frozen=True)
class OpeningBalance:
    id: int
    investment_id: int
    price: Decimal
    trade_at: datetime


@dataclass(frozen=True)
class OpeningBalanceWrite(OpeningBalance):
    """The opening balance after a save: whether it changed, the fields that did, the success text."""
    changed: bool
    changed_fields: tuple[str, ...]
    notice: str


@dataclass(frozen=True)
class AssetTransactionView:
    """One asset transaction: its kind (`type`) and form ('purchase' | 'sell' | 'dividend' |
    'interest' | 'capital_return' | 'reconstruction' | None), its status label (None for the kinds
    without a status), its figures (display_quantity below zero for sells; value, cost and unit
    cost of trades), its cash transaction (linked_transaction_id), what the reader may do
    (edit_question: the confirmation to ask before saving an edit as a new transaction), and the
    action of the recommendation that generated it (stop_loss: SL/SELL, SL/TAP or SL/TSP)."""
    id: int
    investment_id: int
    type: str
    type_label: str
    form: str | None
    status: str
    status_label: str | None
    action: str | None  # buy | sell
    asset_id: int | None
    code: str | None
    name: str | None
    deposit_id: int | None
    quantity: Decimal | None
    display_quantity: Decimal | None
    price: Decimal | None
    unit_price: Decimal | None
    unit_cost: Decimal | None
    cost: Decimal | None
    value: Decimal | None
    fee: Decimal | None
    gst: Decimal | None
    amount: Decimal | None
    franking_credits: Decimal | None
    ratio: str | None
    trade_at: datetime
    ex_date: datetime | None
    settlement_at: datetime | None
    contract_note: str | None
    order_id: str | None
    limit_price: Decimal | None
    om_status: str | None
    replaces_id: int | None
    linked_transaction_id: int | None
    description: Json
    payload: dict[str, Json]
    can_edit: bool
    can_delete: bool
    edit_question: str | None
    recommendation_action: str | None
    stop_loss: bool
    stop_loss_label: str | None


@dataclass(frozen=True)
class AssetTransactionWrite(AssetTransactionView):
    """The asset transaction written, the success text, a warning when there is one and, when a new
    transaction replaced an errored one, the one it replaced."""
    notice: str
    message: str | None = field(default=None, metadata=only_when_set())
    replaced_id: int | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class AssetPosition:
    """A row of the asset panel: an asset the portfolio has transactions of, with the totals of the
    executed ones: units bought (`quantity`) and remaining, the last close (`price`, `price_date`),
    the remaining cost base (`cost`) and value, gains, what was bought and sold, the average
    bought price, the last trade and how many transactions (pending ones) it has."""
    asset_id: int
    code: str | None
    name: str | None
    quantity: Decimal
    remaining_quantity: Decimal
    price: Decimal | None
    price_date: datetime | None
    cost: Decimal
    value: Decimal | None
    realised_gain_loss: Decimal
    unrealised_gain_loss: Decimal | None
    total_bought_value: Decimal
    total_sold_value: Decimal
    bought_price: Decimal | None
    transactions_count: int
    pending_count: int
    last_trade_at: datetime


@dataclass(frozen=True)
class AssetTotals:
    """The asset transactions screen's header: the panel's figures over every asset and the cash
    balance (executed transactions only); `unpriced`: assets held without a close."""
    assets: int
    unpriced: int
    cost: Decimal
    value: Decimal
    realised_gain_loss: Decimal
    unrealised_gain_loss: Decimal
    total_bought_value: Decimal
    total_sold_value: Decimal
    cash_balance: Decimal


@dataclass(frozen=True)
class WriteNotice:
    """A delete's answer: the success text and, when there is one, a warning."""
    notice: str
    message: str | None = field(default=None, metadata=only_when_set())


@dataclass(frozen=True)
class FormOption:
    value: str
    label: str


@dataclass(frozen=True)
class AssetFormOption:
    value: str
    kind: str
    label: str


@dataclass(frozen=True)
class TransactionFormOptions:
    """What the transaction screens offer: the asset forms, the cash forms, the statuses with their
    labels, the panel filters and the page sizes."""
    asset_forms: tuple[AssetFormOption, ...]
    cash_forms: tuple[FormOption, ...]
    statuses: tuple[FormOption, ...]
    panel_filters: tuple[str, ...]
    page_sizes: tuple[int, ...]
    default_page_size: int


# ---- formatting ------------------------------------------------------------------------------------
def _json(text: str | None) -> dict[str, Json]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _plain(value: Decimal | None) -> Decimal | None:
    return None if value is None else plain(Decimal(value))


def _cents(value: Decimal | None) -> Decimal | None:
    return None if value is None else to_cents(value)


def _page(page: int | None, offset: int | None, limit: int | None) -> tuple[int, int]:
    """(limit, offset): the page size is 12, 24 or 32 (12 otherwise); the offset is given or
    (page - 1) x limit."""
    size = limit if limit in rules.PAGE_SIZES else rules.DEFAULT_PAGE_SIZE
    if offset is not None:
        return size, max(0, offset)
    number = as_id(page) or 1
    return size, (number - 1) * size


# ---- shapes ------------------------------------------------------------------------------------
def _asset_brief(asset: Asset | None) -> AssetBrief | None:
    return None if asset is None else AssetBrief(id=stored_id(asset), code=asset.code, name=asset.name)


def _deposit_brief(deposit: Deposit | None) -> DepositBrief | None:
    if deposit is None:
        return None
    return DepositBrief(id=stored_id(deposit), product_type=deposit.product_type,
                        provider_name=deposit.provider_name, deal_id=deposit.deal_id)


def cash_row(cash: CashTransaction, linked: AssetTransaction | None = None, asset: Asset | None = None,
             deposit: Deposit | None = None, *, staff: bool = False) -> CashTransactionView:
    """One cash transaction as the cash list shows it."""
    payload = _json(cash.payload)
    is_deposit = linked is not None and linked.deposit_id is not None
    om_status = linked.om_status if linked is not None else None
    linked_view = None
    if linked is not None:
        linked_view = LinkedTransaction(
            id=stored_id(linked), type=linked.type, type_label=KIND_LABELS[Kind(linked.type)], status=linked.status,
            om_status=linked.om_status, quantity=_plain(linked.quantity), price=_plain(linked.price),
            asset=_asset_brief(asset), deposit_id=linked.deposit_id, deposit=_deposit_brief(deposit),
            payload=_json(linked.payload),
        )
    delete_refusal = rules.delete_refusal(status=cash.status, om_status=om_status, cash_type=cash.type)
    edit_refusal = rules.cash_edit_refusal(cash_type=cash.type, status=cash.status, linked=linked is not None,
                                           deposit=is_deposit)
    return CashTransactionView(
        id=stored_id(cash), investment_id=cash.investment_id, type=cash.type,
        form=rules.cash_form_name(cash.type, cash.action),
        cash_class=cash_class(cash.type, cash.action, linked.type if linked is not None else None),
        action=cash.action, price=to_cents(cash.price), amount=to_cents(signed(cash.action, cash.price)),
        trade_at=cash.trade_at, settlement_at=cash.settlement_at, status=cash.status,
        status_label=CASH_LIST_LABELS[Status(cash.status)], counted=is_counted(cash.status),
        description=payload.get("description"),
        payload=CashPayload(description=payload.get("description"), ex_date=payload.get("ex_date"),
                            franking_credits=payload.get("franking_credits")),
        linked_transaction_id=cash.linked_transaction_id, linked_transaction=linked_view,
        can_edit=staff and edit_refusal is None,
        can_delete=staff and delete_refusal is None and not is_deposit,
    )


def asset_transaction_row(row: AssetTransaction, asset: Asset | None, cash_id: int | None = None, *,
                          staff: bool = False, recommendation_action: str | None = None) -> AssetTransactionView:
    """One asset transaction. `recommendation_action`: the action of the recommendation that
    generated it (see `recommendation_actions`), else its own payload's."""
    kind = Kind(row.type)
    payload = _json(row.payload)
    action = recommendation_action or generating_action(payload)
    value = cost = unit_cost = None
    if row.quantity is not None and row.price is not None and kind in rules.TRADE_KINDS:
        with localcontext() as ctx:
            ctx.prec = 60
            value = to_cents(row.quantity * row.price)
            if kind is Kind.ASSET_BUY:
                cost = cash_amount(kind.value, quantity=row.quantity, price=row.price, fee=row.fee, gst=row.gst)
                if row.quantity:
                    unit_cost = ledger.unit_cost(cost, row.quantity)
    question = rules.new_transaction_question(status=row.status, om_status=row.om_status)
    editable = staff and row.deposit_id is None and kind in rules.FORM_NAMES and (
        question is not None or rules.can_edit(status=row.status, om_status=row.om_status))
    return AssetTransactionView(
        id=stored_id(row), investment_id=row.investment_id, type=row.type, type_label=KIND_LABELS[kind],
        form=rules.FORM_NAMES.get(kind), status=row.status, status_label=rules.status_label(row.type, row.status),
        action=row.action, asset_id=row.asset_id, code=asset.code if asset is not None else None,
        name=asset.name if asset is not None else None, deposit_id=row.deposit_id,
        quantity=_plain(row.quantity), display_quantity=_plain(rules.display_quantity(row.type, row.quantity)),
        price=_plain(row.price), unit_price=_plain(row.price), unit_cost=_plain(unit_cost), cost=_cents(cost),
        value=_cents(value), fee=_cents(row.fee), gst=_cents(row.gst), amount=_cents(row.amount),
        franking_credits=_cents(row.franking_credits), ratio=row.ratio, trade_at=row.trade_at,
        ex_date=row.ex_date, settlement_at=row.settlement_at, contract_note=row.contract_note,
        order_id=row.order_id, limit_price=_plain(row.limit_price), om_status=row.om_status,
        replaces_id=row.replaces_id, linked_transaction_id=cash_id, description=payload.get("comment"),
        payload=payload, can_edit=editable,
        can_delete=staff and row.deposit_id is None and rules.can_delete(status=row.status, om_status=row.om_status),
        edit_question=question if editable else None, recommendation_action=action,
        stop_loss=is_stop_loss(action), stop_loss_label=STOP_LOSS_LABEL if is_stop_loss(action) else None,
    )


def _written(view: AssetTransactionView, notice: str, *, message: str | None = None,
             replaced_id: int | None = None) -> AssetTransactionWrite:
    return AssetTransactionWrite(**vars(view), notice=notice, message=message, replaced_id=replaced_id)


def recommendation_actions(s: Session, rows: Iterable[AssetTransaction]) -> dict[int, str]:
    """asset transaction id -> the action of the recommendation (trade recommendation line) that
    generated it, for the rows placed from one; in one query."""
    wanted = {stored_id(r): r.trade_transaction_id for r in rows if r.trade_transaction_id is not None}
    if not wanted:
        return {}
    payloads = dict(s.exec(select(TradeTransaction.id, TradeTransaction.payload).where(
        col(TradeTransaction.id).in_(set(wanted.values())))).all())
    actions = {tt_id: generating_action(_json(text)) for tt_id, text in payloads.items()}
    return {row_id: found for row_id, tt_id in wanted.items() if (found := actions.get(tt_id))}


def opening_balance_row(row: CashTransaction | None) -> OpeningBalance | None:
    if row is None:
        return None
    return OpeningBalance(id=stored_id(row), investment_id=row.investment_id, price=to_cents(row.price),
                          trade_at=row.trade_at)


# ---- helpers -------------------------------------------------------------------------------------
def units_book(s: Session, portfolio: Portfolio) -> rules.UnitsBook:
    """The portfolio's executed ledger trades per asset, read through postings."""
    trades = postings.executed_trades(s, [stored_id(portfolio)]).get(stored_id(portfolio), {})
    return rules.UnitsBook({asset_id: list(rows) for asset_id, rows in trades.items()}, postings.tax_treatment(portfolio))


def _verify_asset(s: Session, portfolio: Portfolio, asset_id: int | None) -> None:
    """The asset's executed history still holds (no sell beyond the units held); raises otherwise."""
    if asset_id is not None:
        s.flush()
        postings.position(s, portfolio, asset_id)


def _resolve_asset(s: Session, actor: Actor, portfolio: Portfolio, asset_id: int | None, code: str | None) -> Asset:
    """The asset the form names, if the portfolio's firm may use it."""
    asset = None
    if asset_id is not None:
        asset = s.exec(select(Asset).where(Asset.id == asset_id,
                                           readable_assets(actor, portfolio.firm_id))).first()
    elif code:
        asset = find_assets_by_codes(s, actor, [code], firm_id=portfolio.firm_id).get(code)
    if asset is None:
        field_name = "asset_id" if asset_id is not None else "code"
        text = rules.UNKNOWN_ASSET.format(code=code) if code and asset_id is None else v.REQUIRED_SELECT.format(label="asset")
        raise ValidationError(rules.INVALID, {field_name: text})
    return asset


Stored = TypeVar("Stored", AssetTransaction, CashTransaction)  # a transaction table


def _load_row(s: Session, actor: Actor, table: type[Stored], transaction_id: int, *, write: bool = False,
              lock: bool = False) -> tuple[Stored, Portfolio]:
    """A transaction (of `table`: asset or cash) and its portfolio, 404 when the actor may not see it.
    With `lock`, the portfolio is locked and the transaction read again under the lock (someone may
    have changed or removed it meanwhile)."""
    found, portfolio = load_portfolio_row(s, actor, table, transaction_id, rules.TRANSACTION_NOT_FOUND,
                                          for_edit=write, lock=lock)
    row: Stored | None = found
    if lock:
        row = s.exec(select(table).where(col(table.id) == found.id).execution_options(populate_existing=True)).first()
    if row is None:
        raise NotFound(rules.TRANSACTION_NOT_FOUND)
    return row, portfolio


def _cash_of(s: Session, asset_row_ids: Iterable[int]) -> dict[int, CashTransaction]:
    ids = list(asset_row_ids)
    if not ids:
        return {}
    rows = s.exec(select(CashTransaction).where(col(CashTransaction.linked_transaction_id).in_(ids))).all()
    return {c.linked_transaction_id: c for c in rows if c.linked_transaction_id is not None}


def _cash_id(cash: CashTransaction | None) -> int | None:
    return None if cash is None else stored_id(cash)


def _by_id(s: Session, table: type[Stored], ids: set[int]) -> dict[int, Stored]:
    if not ids:
        return {}
    return {stored_id(r): r for r in s.exec(select(table).where(col(table.id).in_(ids))).all()}


def _cash_views(s: Session, rows: list[CashTransaction], staff: bool) -> list[CashTransactionView]:
    linked_ids = {r.linked_transaction_id for r in rows if r.linked_transaction_id is not None}
    linked = _by_id(s, AssetTransaction, linked_ids)
    asset_ids = {a.asset_id for a in linked.values() if a.asset_id is not None}
    deposit_ids = {a.deposit_id for a in linked.values() if a.deposit_id is not None}
    assets = {stored_id(a): a for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids))).all()} \
        if asset_ids else {}
    deposits = {stored_id(d): d for d in s.exec(select(Deposit).where(col(Deposit.id).in_(deposit_ids))).all()} \
        if deposit_ids else {}
    out = []
    for row in rows:
        link = linked.get(row.linked_transaction_id) if row.linked_transaction_id else None
        out.append(cash_row(row, link, assets.get(link.asset_id) if link and link.asset_id else None,
                            deposits.get(link.deposit_id) if link and link.deposit_id else None, staff=staff))
    return out


def _pending_exists(s: Session, portfolio: Portfolio, asset_id: int, *, exclude_id: int | None = None) -> bool:
    """A pending transaction of the asset exists: an asset transaction not yet executed (draft,
    pending approval, placed) or a trade recommendation still open."""
    stmt = select(AssetTransaction.id).where(
        AssetTransaction.investment_id == portfolio.id, AssetTransaction.asset_id == asset_id,
        col(AssetTransaction.status).in_(_PENDING_ASSET_STATUSES))
    if exclude_id is not None:
        stmt = stmt.where(AssetTransaction.id != exclude_id)
    if s.exec(stmt).first() is not None:
        return True
    trade = s.exec(select(TradeTransaction.id).join(
        TradeInstruction, col(TradeInstruction.id) == col(TradeTransaction.trade_instruction_id)).where(
        TradeInstruction.investment_id == portfolio.id, TradeTransaction.asset_id == asset_id,
        col(TradeTransaction.status).in_(_OPEN_TRADE_STATUSES))).first()
    return trade is not None


# ---- cash transactions -----------------------------------------------------------------------------
_CASH_SORTS: dict[str, tuple[Any, ...]] = {
    "date": (col(CashTransaction.trade_at), col(CashTransaction.id)),
    "trade_at": (col(CashTransaction.trade_at), col(CashTransaction.id)),
    "price": (col(CashTransaction.price), col(CashTransaction.id)),
    "amount": (col(CashTransaction.price), col(CashTransaction.id)),
    "status": (col(CashTransaction.status), col(CashTransaction.trade_at), col(CashTransaction.id)),
    "type": (col(CashTransaction.type), col(CashTransaction.trade_at), col(CashTransaction.id)),
}


def list_cash_transactions(*, actor: Actor, investment_id: int, page: int | None = None, offset: int | None = None,
                           limit: int | None = None, order: str | None = None,
                           reverse: bool = True) -> CashTransactionPage:
    """One page of the portfolio's cash transactions (12, 24 or 32 a page, 12 by default; newest
    first by default: order 'date' with reverse true; also 'amount', 'status', 'type') and the
    totals of the executed ones."""
    size, start = _page(page, offset, limit)
    key = order if order in _CASH_SORTS else "date"
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        columns = _CASH_SORTS[key]
        stmt = (select(CashTransaction).where(CashTransaction.investment_id == portfolio.id)
                .order_by(*[c.desc() if reverse else c.asc() for c in columns]).offset(start).limit(size))
        rows = list(s.exec(stmt).all())
        count = s.exec(select(func.count()).select_from(CashTransaction)
                       .where(CashTransaction.investment_id == portfolio.id)).one()
        totals = {action: Decimal(total or 0) for action, total in s.exec(
            select(CashTransaction.action, func.sum(CashTransaction.price))
            .where(CashTransaction.investment_id == portfolio.id, CashTransaction.status == Status.EXECUTED.value)
            .group_by(col(CashTransaction.action))).all()}
        balance = postings.cash_balance(s, stored_id(portfolio))
        views = _cash_views(s, rows, is_staff(actor))
    return CashTransactionPage(rows=tuple(views), count=int(count), balance=to_cents(balance),
                               cash_in=to_cents(totals.get(Cash.IN.value, ZERO)),
                               cash_out=to_cents(totals.get(Cash.OUT.value, ZERO)), limit=size, offset=start)


def get_cash_transaction(*, actor: Actor, transaction_id: int) -> CashTransactionView:
    """One cash transaction."""
    with session_scope() as s:
        row, _ = _load_row(s, actor, CashTransaction, transaction_id)
        return _cash_views(s, [row], is_staff(actor))[0]


def _cash_payload(description: str | None, previous: dict[str, Json] | None = None) -> str | None:
    payload = dict(previous or {})
    if description:
        payload["description"] = description
    else:
        payload.pop("description", None)
    return json.dumps(payload) if payload else None


def _cash_written(s: Session, row: CashTransaction, notice: str) -> CashTransactionWrite:
    return CashTransactionWrite(**vars(_cash_views(s, [row], True)[0]), notice=notice)


def create_cash_transaction(*, actor: Actor, form: TransactionForm) -> CashTransactionWrite:
    """A withdrawal, credit or income (the form's investment_id, type 'withdrawal' | 'credit' |
    'income', price (or amount), trade_at, settlement_at, status (executed by default),
    description), with notice 'Transaction added'."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, form.investment_id, for_edit=True, lock=True)
        values, errors = rules.clean_cash_form(form.fields())
        rules.raise_if_invalid(errors)
        now = utcnow()
        row = CashTransaction(
            investment_id=stored_id(portfolio), type=values["cash_type"].value, action=values["action"].value,
            status=values["status"], price=values["price"], trade_at=values["trade_at"],
            settlement_at=values["settlement_at"], payload=_cash_payload(values["description"]),
            created_by=actor.id, created_at=now, updated_at=now,
        )
        s.add(row)
        s.flush()
        return _cash_written(s, row, rules.TRANSACTION_ADDED)


def update_cash_transaction(*, actor: Actor, transaction_id: int, form: TransactionForm) -> CashTransactionWrite:
    """Change a withdrawal, credit or income (same fields as creating; fields left out keep their
    value). Opening balances change through set_opening_balance, the cash side of an asset
    transaction through update_asset_transaction. Answers notice 'Transaction updated'."""
    require_staff(actor)
    with session_scope() as s:
        row, _ = _load_row(s, actor, CashTransaction, transaction_id, write=True, lock=True)
        linked = s.get(AssetTransaction, row.linked_transaction_id) if row.linked_transaction_id else None
        refusal = rules.cash_edit_refusal(cash_type=row.type, status=row.status, linked=linked is not None,
                                          deposit=linked is not None and linked.deposit_id is not None)
        if refusal:
            raise ValidationError(refusal)
        payload = _json(row.payload)
        current: dict[str, Any] = {
            "type": rules.cash_form_name(row.type, row.action), "price": row.price, "trade_at": row.trade_at,
            "settlement_at": row.settlement_at, "status": row.status, "description": payload.get("description")}
        merged = {**current, **form.fields()}
        if form.amount is not None and form.price is None:
            merged["price"] = form.amount
        values, errors = rules.clean_cash_form(merged)
        rules.raise_if_invalid(errors)
        row.type, row.action = values["cash_type"].value, values["action"].value
        row.price, row.trade_at, row.settlement_at = values["price"], values["trade_at"], values["settlement_at"]
        row.status = values["status"]
        row.payload = _cash_payload(values["description"], payload)
        row.updated_at = utcnow()
        s.add(row)
        s.flush()
        return _cash_written(s, row, rules.TRANSACTION_UPDATED)


def delete_cash_transaction(*, actor: Actor, transaction_id: int) -> WriteNotice:
    """Delete a cash transaction; the cash side of an asset transaction goes with its asset
    transaction (delete_asset_transaction). Refused for opening balances, transactions pending
    approval, ones order management executed, and deposit transactions. Answers notice
    'Transaction has been removed' (and `message`, a warning, when one applies)."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_row(s, actor, CashTransaction, transaction_id, write=True, lock=True)
        linked = s.get(AssetTransaction, row.linked_transaction_id) if row.linked_transaction_id else None
        if linked is not None:
            return _delete_asset_row(s, portfolio, linked)
        refusal = rules.delete_refusal(status=row.status, cash_type=row.type)
        if refusal:
            raise ValidationError(refusal)
        s.delete(row)
        s.flush()
    return WriteNotice(notice=rules.TRANSACTION_REMOVED)


# ---- opening balance ---------------------------------------------------------------------------
def _opening(s: Session, portfolio_id: int) -> CashTransaction | None:
    return s.exec(select(CashTransaction).where(CashTransaction.investment_id == portfolio_id,
                                                CashTransaction.type == CashType.OPENING_BALANCE.value)
                  .order_by(col(CashTransaction.id))).first()


def get_opening_balance(*, actor: Actor, investment_id: int) -> OpeningBalance | None:
    """The portfolio's opening balance, None when it has none."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        return opening_balance_row(_opening(s, stored_id(portfolio)))


def set_opening_balance(*, actor: Actor, investment_id: int, form: OpeningBalanceForm) -> OpeningBalanceWrite:
    """Create or change the opening balance (price, trade_at). An unchanged form writes nothing; a
    change writes only the changed fields. Answers whether it changed, the changed fields and
    notice 'Opening balance has been changed'."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id, for_edit=True, lock=True)
        values, errors = rules.clean_opening_balance(form.fields())
        rules.raise_if_invalid(errors)
        row = _opening(s, stored_id(portfolio))
        if row is None:
            now = utcnow()
            row = CashTransaction(investment_id=stored_id(portfolio), type=CashType.OPENING_BALANCE.value,
                                  action=Cash.IN.value, status=Status.EXECUTED.value, price=values["price"],
                                  trade_at=values["trade_at"], created_by=actor.id, created_at=now, updated_at=now)
            s.add(row)
            changes = dict(values)
        else:
            changes = rules.changed_fields({"price": row.price, "trade_at": row.trade_at}, values)
            if changes:
                for key, value in changes.items():
                    setattr(row, key, value)
                row.updated_at = utcnow()
                s.add(row)
        s.flush()
        return OpeningBalanceWrite(id=stored_id(row), investment_id=row.investment_id, price=to_cents(row.price),
                                   trade_at=row.trade_at, changed=bool(changes),
                                   changed_fields=tuple(sorted(changes)), notice=rules.OPENING_BALANCE_CHANGED)


# ---- asset transactions: writing ---------------------------------------------------------------------
def _asset_kind_or_refuse(form: TransactionForm) -> Kind:
    kind = rules.asset_kind(form.type)
    if kind is None:
        raise ValidationError(rules.INVALID, {"type": v.REQUIRED_SELECT.format(label="type")})
    return kind


def _figures(values: dict[str, Any], book: rules.UnitsBook, asset_id: int) -> dict[str, Any]:
    """A capital return given per unit becomes units held on its date times the price."""
    if values["kind"] is Kind.CAPITAL_RETURN and values["amount"] is None and values["price"] is not None:
        held = book.held_on(asset_id, values["trade_at"].date())
        values = {**values, "quantity": held, "amount": rules.capital_return_amount(held, values["price"])}
    return values


def _trade_of(values: dict[str, Any]) -> ledger.Trade | None:
    return rules.ledger_trade(values["kind"].value, trade_day=values["trade_at"].date(), quantity=values["quantity"],
                              price=values["price"], fee=values["fee"], gst=values["gst"], ratio=values["ratio"],
                              amount=values["amount"])


def _record(s: Session, actor: Actor, portfolio: Portfolio, asset: Asset, values: dict[str, Any],
            replaces_id: int | None = None) -> tuple[AssetTransaction, CashTransaction | None]:
    kind = values["kind"]
    recorded: tuple[AssetTransaction, CashTransaction | None] = postings.record(
        s, actor_id=actor.id, portfolio=portfolio, kind=kind.value, status=values["status"],
        trade_at=values["trade_at"], asset_id=asset.id, quantity=values["quantity"], price=values["price"],
        fee=values["fee"], gst=values["gst"],
        amount=values["amount"] if kind not in rules.TRADE_KINDS else None,
        franking_credits=values["franking_credits"], ratio=values["ratio"], settlement_at=values["settlement_at"],
        ex_date=values["ex_date"], contract_note=values["contract_note"], order_id=values["order_id"],
        limit_price=values["limit_price"], payload={"comment": values["description"]} if values["description"] else None,
        replaces_id=replaces_id, description=values["description"],
    )
    return recorded


def add_asset_in_session(s: Session, actor: Actor, portfolio: Portfolio, values: dict[str, Any],
                         book: rules.UnitsBook, asset: Asset, replaces_id: int | None = None,
                         ) -> tuple[AssetTransaction, CashTransaction | None]:
    """Check and post one cleaned asset form (rules.clean_asset_form's values) in the caller's
    session (portfolio already locked). A sell (of any status) must not take more units than the
    executed history holds at its date; an executed trade joins `book` for the checks that follow
    (the upload checks in file order)."""
    values = _figures(values, book, stored_id(asset))
    trade = _trade_of(values)
    book.check(stored_id(asset), trade)  # ValidationError('Not enough assets to sell') or the ratio text
    row, cash = _record(s, actor, portfolio, asset, values, replaces_id)
    if is_counted(row.status):
        book.add(stored_id(asset), trade)
    return row, cash


def add_asset_transaction(*, actor: Actor, form: TransactionForm) -> AssetTransactionWrite:
    """Add a purchase, sell, dividend, interest, capital return or reconstruction (the form's
    investment_id, type (form name or kind), asset_id or code, and the fields of its type; see
    app.domain.transaction_rules). The asset transaction and its cash transaction are written
    together, or nothing is. A sell beyond the units held: ValidationError('Not enough assets to
    sell'). Answers notice 'Transaction added' and, for a reconstruction while a pending
    transaction of the asset exists, `message` (a warning)."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, form.investment_id, for_edit=True, lock=True)
        kind = _asset_kind_or_refuse(form)
        values, errors = rules.clean_asset_form(kind, {**form.fields(), "asset_id": form.asset_id})
        rules.raise_if_invalid(errors)
        asset = _resolve_asset(s, actor, portfolio, values["asset_id"], values["code"])
        row, cash = add_asset_in_session(s, actor, portfolio, values, units_book(s, portfolio), asset)
        warning = rules.PENDING_EXISTS if kind is Kind.RECONSTRUCTION and _pending_exists(
            s, portfolio, stored_id(asset)) else None
        view = asset_transaction_row(row, asset, _cash_id(cash), staff=True)
    return _written(view, rules.TRANSACTION_ADDED, message=warning)


def create_transaction(*, actor: Actor, form: TransactionForm) -> CashTransactionWrite | AssetTransactionWrite:
    """createTransaction: a cash form type (withdrawal, credit, income) adds a cash transaction,
    any other an asset transaction."""
    if rules.cash_form(form.type, form.action) is not None:
        return create_cash_transaction(actor=actor, form=form)
    return add_asset_transaction(actor=actor, form=form)


class StoredAssetForm(TypedDict):
    """A stored asset transaction by its form's names, as clean_asset_form reads them (what an edit
    starts from; the fields the edit sends replace theirs)."""
    asset_id: int | None
    code: str | None
    trade_at: datetime
    settlement_at: datetime | None
    ex_date: datetime | None
    status: str
    quantity: Decimal | None
    price: Decimal | None
    fee: Decimal | None
    gst: Decimal | None
    amount: Decimal | None
    franking_credits: Decimal | None
    ratio: str | None
    contract_note: str | None
    order_id: str | None
    limit_price: Decimal | None
    description: Json


def _form_of(row: AssetTransaction, asset: Asset | None) -> StoredAssetForm:
    """The stored transaction as form data (what an edit starts from)."""
    payload = _json(row.payload)
    amount = row.amount
    if Kind(row.type) in rules.TRADE_KINDS:
        amount = None
    return StoredAssetForm(
        asset_id=row.asset_id, code=asset.code if asset else None, trade_at=row.trade_at,
        settlement_at=row.settlement_at, ex_date=row.ex_date, status=row.status,
        quantity=row.quantity, price=row.price, fee=row.fee, gst=row.gst, amount=amount,
        franking_credits=row.franking_credits, ratio=row.ratio, contract_note=row.contract_note,
        order_id=row.order_id, limit_price=row.limit_price, description=payload.get("comment"),
    )


def _check_fixed(kind: Kind, row: AssetTransaction, asset: Asset | None, form: TransactionForm) -> None:
    errors = v.FieldErrors()
    if not v.is_empty(form.type) and rules.asset_kind(form.type) is not kind:
        errors.check("type", rules.TYPE_FIXED)
    if form.asset_id is not None and as_id(form.asset_id) != row.asset_id:
        errors.check("asset_id", rules.ASSET_FIXED)
    if not v.is_empty(form.code) and asset is not None and str(form.code).strip().upper() != asset.code:
        errors.check("code", rules.ASSET_FIXED)
    rules.raise_if_invalid(errors)


def update_asset_transaction(*, actor: Actor, transaction_id: int, form: TransactionForm,
                             confirm: bool = False) -> AssetTransactionWrite:
    """Change an asset transaction: fields left out keep their value; the type and the asset stay.
    Amounts are recomputed and its cash transaction follows (postings.sync_cash). Refused while
    pending or pending approval, or once order management executed it. A transaction in
    processing error (or cancelled by order management) is not changed: with confirm=True a new
    transaction with the updated data replaces it (replaces_id; status pending unless given) and
    the notice is 'Transaction created' (with replaced_id); without, ConflictError with the
    question to ask. Answers the (new) asset transaction with notice 'Transaction updated' /
    'Transaction created'."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_row(s, actor, AssetTransaction, transaction_id, write=True, lock=True)
        if row.deposit_id is not None:
            raise ValidationError(rules.DEPOSIT_FORMS_ONLY)
        kind = Kind(row.type)
        if kind not in rules.FORM_NAMES:
            raise ValidationError(rules.NOT_AN_ASSET_TRANSACTION)
        asset = s.get(Asset, row.asset_id) if row.asset_id else None
        _check_fixed(kind, row, asset, form)
        question = rules.new_transaction_question(status=row.status, om_status=row.om_status)
        if question is None:
            refusal = rules.edit_refusal(status=row.status, om_status=row.om_status)
            if refusal:
                raise ValidationError(refusal)
        elif not confirm:
            raise Conflict(question)
        sent = {k: value for k, value in form.fields().items() if k not in ("type", "code")}
        merged = {**_form_of(row, asset), **sent}
        if question is not None and v.is_empty(form.status):
            merged["status"] = Status.PENDING.value
        values, errors = rules.clean_asset_form(kind, merged)
        rules.raise_if_invalid(errors)
        if asset is None:
            raise ValidationError(rules.NOT_AN_ASSET_TRANSACTION)

        if question is not None:  # the error flow: a new transaction replaces this one
            new, cash = add_asset_in_session(s, actor, portfolio, values, units_book(s, portfolio), asset,
                                             replaces_id=row.id)
            view = asset_transaction_row(new, asset, _cash_id(cash), staff=True)
            return _written(view, rules.TRANSACTION_CREATED, replaced_id=row.id)

        values = _figures(values, units_book(s, portfolio), stored_id(asset))
        row.trade_at, row.settlement_at, row.ex_date = values["trade_at"], values["settlement_at"], values["ex_date"]
        row.status = values["status"]
        row.quantity, row.price, row.fee, row.gst = values["quantity"], values["price"], values["fee"], values["gst"]
        row.franking_credits, row.ratio = values["franking_credits"], values["ratio"]
        row.contract_note, row.order_id, row.limit_price = values["contract_note"], values["order_id"], values["limit_price"]
        if kind in rules.TRADE_KINDS:
            row.amount = cash_amount(kind.value, quantity=row.quantity, price=row.price, fee=row.fee, gst=row.gst)
        elif kind is Kind.RECONSTRUCTION:
            row.amount = None
        else:
            row.amount = values["amount"]
        payload = _json(row.payload)
        if values["description"]:
            payload["comment"] = values["description"]
        else:
            payload.pop("comment", None)
        row.payload = json.dumps(payload) if payload else None
        row.updated_by, row.updated_at = actor.id, utcnow()
        s.add(row)
        cash = postings.sync_cash(s, row)
        if cash is not None:
            cash_payload = _json(cash.payload)
            for key, value in (("description", values["description"]),
                               ("ex_date", values["ex_date"].isoformat() if values["ex_date"] else None),
                               ("franking_credits", str(values["franking_credits"])
                                if values["franking_credits"] is not None else None)):
                if value is None:
                    cash_payload.pop(key, None)
                else:
                    cash_payload[key] = value
            cash.payload = json.dumps(cash_payload) if cash_payload else None
            s.add(cash)
        s.flush()
        _verify_asset(s, portfolio, asset.id)  # the executed history still holds
        if not is_counted(row.status):  # a sell waiting to be executed must still be coverable
            units_book(s, portfolio).check(stored_id(asset), _trade_of(values))
        view = asset_transaction_row(row, asset, _cash_id(cash), staff=True)
    return _written(view, rules.TRANSACTION_UPDATED)


def _delete_asset_row(s: Session, portfolio: Portfolio, row: AssetTransaction) -> WriteNotice:
    if row.deposit_id is not None:
        raise ValidationError(rules.DEPOSIT_FORMS_ONLY)
    refusal = rules.delete_refusal(status=row.status, om_status=row.om_status)
    if refusal:
        raise ValidationError(refusal)
    asset_id = row.asset_id
    counted = is_counted(row.status)
    s.exec(update(AssetTransaction).where(col(AssetTransaction.replaces_id) == row.id).values(replaces_id=None))
    postings.remove(s, row)
    _verify_asset(s, portfolio, asset_id)  # e.g. a bought parcel a later sell needs
    pending = counted and asset_id is not None and _pending_exists(s, portfolio, asset_id)
    return WriteNotice(notice=rules.TRANSACTION_REMOVED, message=rules.PENDING_EXISTS if pending else None)


def delete_asset_transaction(*, actor: Actor, transaction_id: int) -> WriteNotice:
    """Delete an asset transaction with its cash transaction. Refused for one pending approval or
    executed by order management, for deposit transactions, and when a later sell would then sell
    more than held ('Not enough assets to sell'). Answers notice 'Transaction has been removed'
    and `message` (a warning) when an executed transaction went while the asset has pending ones."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_row(s, actor, AssetTransaction, transaction_id, write=True, lock=True)
        return _delete_asset_row(s, portfolio, row)


# ---- asset transactions: reading -----------------------------------------------------------------
def get_asset_transaction(*, actor: Actor, transaction_id: int) -> AssetTransactionView:
    """One asset transaction, e.g. the asset transaction modal."""
    with session_scope() as s:
        row, _ = _load_row(s, actor, AssetTransaction, transaction_id)
        asset = s.get(Asset, row.asset_id) if row.asset_id else None
        cash = _cash_of(s, [stored_id(row)]).get(stored_id(row))
        return asset_transaction_row(row, asset, _cash_id(cash), staff=is_staff(actor),
                                     recommendation_action=recommendation_actions(s, [row]).get(stored_id(row)))


# The panel's sorts: the row's figure each sorts by (date: the latest trade).
_PANEL_SORTS = {"date": "last_trade_at", **{name: name for name in (
    "code", "name", "quantity", "remaining_quantity", "price", "cost", "value", "realised_gain_loss",
    "unrealised_gain_loss", "total_bought_value", "total_sold_value")}}


def _panel_rows(s: Session, portfolio: Portfolio) -> list[AssetPosition]:
    """The panel's rows with their figures unrounded (the totals add them up, the sorts compare
    them); `_shown` rounds them as the panel shows them."""
    rows = s.exec(select(AssetTransaction).where(AssetTransaction.investment_id == portfolio.id,
                                                 col(AssetTransaction.asset_id).is_not(None),
                                                 col(AssetTransaction.deposit_id).is_(None))).all()
    if not rows:
        return []
    by_asset: dict[int, list[AssetTransaction]] = defaultdict(list)
    for row in rows:
        if row.asset_id is not None:
            by_asset[row.asset_id].append(row)
    assets = {stored_id(a): a for a in s.exec(select(Asset).where(col(Asset.id).in_(list(by_asset)))).all()}
    positions = postings.positions(s, portfolio, asset_ids=list(by_asset))
    out = []
    for asset_id, items in by_asset.items():
        asset = assets.get(asset_id)
        position = positions.get(asset_id) or ledger.apply([])
        executed = [r for r in items if is_counted(r.status)]
        bought = [r for r in executed if r.type == Kind.ASSET_BUY.value]
        sold = [r for r in executed if r.type == Kind.PARCEL.value]
        bought_units = sum((r.quantity or ZERO for r in bought), ZERO)
        with localcontext() as ctx:
            ctx.prec = 60
            bought_value = sum((to_cents((r.quantity or ZERO) * (r.price or ZERO)) for r in bought), ZERO)
            sold_value = sum((to_cents((r.quantity or ZERO) * (r.price or ZERO)) for r in sold), ZERO)
            last = asset.last_close_price if asset is not None else None
            value = to_cents(position.units * last) if last is not None else None
            average = ledger.unit_cost(bought_value, bought_units) if bought_units else None
        out.append(AssetPosition(
            asset_id=asset_id, code=asset.code if asset else None, name=asset.name if asset else None,
            quantity=bought_units, remaining_quantity=position.units, price=last,
            price_date=asset.last_close_date if asset else None, cost=position.cost_base, value=value,
            realised_gain_loss=position.realised_gain,
            unrealised_gain_loss=ledger.unrealised_gain(position, last) if last is not None else None,
            total_bought_value=bought_value, total_sold_value=sold_value, bought_price=average,
            transactions_count=len(items),
            pending_count=sum(1 for r in items if r.status in _PENDING_ASSET_STATUSES),
            last_trade_at=max(r.trade_at for r in items),
        ))
    return out


def _shown(row: AssetPosition) -> AssetPosition:
    """A panel row as the panel shows it: money to the cent, units and prices without trailing zeros."""
    return replace(
        row, quantity=plain(row.quantity), remaining_quantity=plain(row.remaining_quantity), price=_plain(row.price),
        cost=to_cents(row.cost), value=_cents(row.value), realised_gain_loss=to_cents(row.realised_gain_loss),
        unrealised_gain_loss=_cents(row.unrealised_gain_loss), total_bought_value=to_cents(row.total_bought_value),
        total_sold_value=to_cents(row.total_sold_value), bought_price=_plain(row.bought_price))


def list_asset_positions(*, actor: Actor, investment_id: int, page: int | None = None, offset: int | None = None,
                         limit: int | None = None, order: str | None = None,
                         reverse: bool = True) -> listing.Page[AssetPosition]:
    """The asset transactions panel: one row per listed asset the portfolio has transactions of
    (deposit transactions are not listed here), with its totals from the executed ones. Sorted by
    `order` (date - the latest trade - by default, also code, name, quantity, remaining_quantity,
    price, cost, value, realised_gain_loss, unrealised_gain_loss, total_bought_value,
    total_sold_value), descending when `reverse` (the default); 12, 24 or 32 a page (page or
    offset, for load more), with the number of assets."""
    size, start = _page(page, offset, limit)
    attribute = _PANEL_SORTS.get(order or "", "last_trade_at")
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        rows = _panel_rows(s, portfolio)

    def figure(r: AssetPosition) -> Any:  # the sorted figure: text, a number or a moment
        found = getattr(r, attribute)
        return found.casefold() if isinstance(found, str) else found

    present = [r for r in rows if figure(r) is not None]
    missing = [r for r in rows if figure(r) is None]
    present.sort(key=lambda r: r.asset_id)
    present.sort(key=figure, reverse=reverse)
    ordered = present + sorted(missing, key=lambda r: r.asset_id)  # unknown values last either way
    return listing.Page(rows=tuple(_shown(r) for r in ordered[start:start + size]), total=len(rows))


def list_transactions_of_asset(*, actor: Actor, investment_id: int, asset_id: int, statuses: Iterable[str] = (),
                               types: Iterable[str] = (), offset: int | None = None,
                               limit: int | None = None) -> listing.Page[AssetTransactionView]:
    """An expanded asset's transactions, newest first, filtered by the panel's status filters
    (pending, draft, executed, dividend, placed, error; none: all) and optionally by kinds or form
    names. A transaction replaced by a new one (the error flow) is not listed. Optional
    offset/limit (no limit by default), with the number of transactions on every page."""
    filt = rules.panel_filter(statuses, types)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        aid = as_id(asset_id)
        if aid is None:
            raise NotFound(rules.TRANSACTION_NOT_FOUND)
        asset = s.get(Asset, aid)
        rows = s.exec(select(AssetTransaction).where(
            AssetTransaction.investment_id == portfolio.id, AssetTransaction.asset_id == aid,
            col(AssetTransaction.deposit_id).is_(None)).order_by(col(AssetTransaction.trade_at).desc(),
                                                                  col(AssetTransaction.id).desc())).all()
        replaced = {r.replaces_id for r in rows if r.replaces_id is not None}
        chosen = [r for r in rows if r.id not in replaced and filt.accepts(r.type, r.status)]
        start = max(0, offset or 0)
        size = as_id(limit)
        window = chosen[start:start + size] if size else chosen[start:]
        cash = _cash_of(s, [stored_id(r) for r in window])
        staff = is_staff(actor)
        actions = recommendation_actions(s, window)
        views = tuple(asset_transaction_row(r, asset, _cash_id(cash.get(stored_id(r))), staff=staff,
                                            recommendation_action=actions.get(stored_id(r))) for r in window)
    return listing.Page(rows=views, total=len(chosen))


def form_options() -> TransactionFormOptions:
    """What the transaction screens offer: the asset forms, the cash forms, the statuses with their
    labels, the panel filters and the page sizes."""
    return TransactionFormOptions(
        asset_forms=tuple(AssetFormOption(value=name, kind=kind.value, label=KIND_LABELS[kind])
                          for kind, name in rules.FORM_NAMES.items()),
        cash_forms=(FormOption(value="withdrawal", label="Withdrawal"), FormOption(value="credit", label="Credit"),
                    FormOption(value="income", label="Income")),
        statuses=tuple(FormOption(value=s.value, label=CASH_LIST_LABELS[s]) for s in Status),
        panel_filters=(*rules.PANEL_FILTER_STATUSES, rules.STATUSLESS_FILTER),
        page_sizes=tuple(rules.PAGE_SIZES),
        default_page_size=rules.DEFAULT_PAGE_SIZE,
    )


def asset_totals(*, actor: Actor, investment_id: int) -> AssetTotals:
    """The asset transactions screen's header: the panel's figures summed over every asset (not one
    page) - assets (count), cost (remaining cost base), value (remaining units at the last close;
    unpriced assets count nothing and are counted in `unpriced`), realised_gain_loss,
    unrealised_gain_loss, total_bought_value, total_sold_value - and the cash balance. Executed
    transactions only, as the panel rows."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        rows = _panel_rows(s, portfolio)
        balance = postings.cash_balance(s, stored_id(portfolio))

    def total(figures: Iterable[Decimal | None]) -> Decimal:
        return to_cents(sum((x for x in figures if x is not None), ZERO))

    return AssetTotals(
        assets=len(rows), unpriced=sum(1 for r in rows if r.value is None and r.remaining_quantity),
        cost=total(r.cost for r in rows), value=total(r.value for r in rows),
        realised_gain_loss=total(r.realised_gain_loss for r in rows),
        unrealised_gain_loss=total(r.unrealised_gain_loss for r in rows),
        total_bought_value=total(r.total_bought_value for r in rows),
        total_sold_value=total(r.total_sold_value for r in rows),
        cash_balance=to_cents(balance),
    )
