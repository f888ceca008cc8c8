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

Shapes (every function returns plain dicts, JSON-ready: money as text with 2 decimals, prices and
quantities as text without trailing zeros, moments as ISO 8601 text in UTC):

cash row (cash_row):
    id, investment_id, type ('opening_balance' | 'cash' | 'income' | 'linked'), form ('withdrawal' |
    'credit' | 'income' | None), class (Withdrawal, Credit, Buy, Sell, Income, Opening Balance,
    Dividend, Interest, Capital Return, Interest Income), action ('increase' | 'decrease'),
    price (the amount, '250.00'), amount (signed: '-250.00' for decreases), trade_at,
    settlement_at, status, status_label (Pending, Pending approval, Executed, Processing,
    Processing error), counted (bool: in the totals), description, payload {description, ex_date,
    franking_credits}, linked_transaction_id, linked_transaction (None or {id, type, type_label,
    status, om_status, quantity, price, asset {id, code, name} | None, deposit_id,
    deposit {id, product_type, provider_name, deal_id} | None, payload}), can_edit, can_delete.

asset transaction row (asset_transaction_row):
    id, investment_id, type (kind), type_label, form ('purchase' | 'sell' | 'dividend' | 'interest' |
    'capital_return' | 'reconstruction' | None), status, status_label (Draft, Pending approval,
    Executed, Placed, Error; None for dividends, interest, capital returns, reconstructions),
    action ('buy' | 'sell' | None), asset_id, code, name, deposit_id, quantity, display_quantity
    (negative for sells), price, unit_price, unit_cost, cost, value, fee, gst, amount,
    franking_credits, ratio, trade_at, ex_date, settlement_at, contract_note, order_id,
    limit_price, om_status, replaces_id, linked_transaction_id (its cash transaction), description,
    payload, can_edit, can_delete, edit_question (the confirmation to ask before saving an edit
    as a new transaction, else None), recommendation_action (the action of the recommendation
    that generated it, else None), stop_loss (bool: that action is SL/SELL, SL/TAP or SL/TSP),
    stop_loss_label ('Stop loss' or None).

asset panel row (list_asset_positions): asset_id, code, name, quantity (units bought), remaining_quantity,
    price (last close), price_date, cost (remaining cost base), value (remaining units at the last
    close), realised_gain_loss, unrealised_gain_loss, total_bought_value, total_sold_value,
    bought_price (average), last_trade_at, transactions_count, pending_count; total_rows on the
    first row of a page.

Write results carry `notice` (the success text: 'Transaction added', 'Transaction updated',
'Transaction created', 'Transaction has been removed', 'Opening balance has been changed') and,
only when there is one, `message`: a warning the screen shows as such (spec 002 s8)."""
from __future__ import annotations

import json
from collections import defaultdict
from decimal import Decimal, localcontext
from typing import Any, Iterable, Mapping

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetTransaction, CashTransaction, Deposit, Portfolio, TradeInstruction, TradeTransaction,
)
from app.db.types import utcnow
from app.domain import ledger
from app.domain import transaction_rules as rules
from app.domain import validators as v
from app.domain.errors import Conflict, NotFound, ValidationError
from app.domain.permissions import Actor, is_staff, require_staff
from app.domain.transactions import (
    CASH_LIST_LABELS, KIND_LABELS, STOP_LOSS_LABEL, Cash, CashType, Kind, Status, cash_amount, cash_class,
    generating_action, is_counted, is_stop_loss, signed,
)
from app.domain.money import cents_json, number_json
from app.domain.timezones import iso_json
from app.services import postings
from app.services.tenancy import find_assets_by_codes, load_portfolio, load_portfolio_row, readable_assets

ZERO = Decimal(0)
# Trade instruction transactions still waiting for a decision or an order (app.domain.advice.TxStatus).
_OPEN_TRADE_STATUSES = ("draft", "pending_approval", "pending_copy", "pending_to_cancel", "approved")
_PENDING_ASSET_STATUSES = (Status.PENDING.value, Status.PENDING_APPROVAL.value, Status.PROCESSING.value)


# ---- formatting ------------------------------------------------------------------------------------
def _json(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _flag(value: Any, default: bool) -> bool:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "true", "yes", "desc", "descending", "-1")


def _page(page: Any, offset: Any, limit: Any) -> tuple[int, int]:
    """(limit, offset): the page size is 12, 24 or 32 (12 otherwise); the offset is given or
    (page - 1) x limit."""
    size = rules.as_id(limit)
    size = size if size in rules.PAGE_SIZES else rules.DEFAULT_PAGE_SIZE
    start = None
    if offset not in (None, ""):
        try:
            start = max(0, int(str(offset)))
        except ValueError:
            start = None
    if start is None:
        number = rules.as_id(page) or 1
        start = (number - 1) * size
    return size, start


# ---- shapes ------------------------------------------------------------------------------------
def _asset_brief(asset: Asset | None) -> dict[str, Any] | None:
    return None if asset is None else {"id": asset.id, "code": asset.code, "name": asset.name}


def _deposit_brief(deposit: Deposit | None) -> dict[str, Any] | None:
    if deposit is None:
        return None
    return {"id": deposit.id, "product_type": deposit.product_type, "provider_name": deposit.provider_name,
            "deal_id": deposit.deal_id}


def cash_row(cash: CashTransaction, linked: AssetTransaction | None = None, asset: Asset | None = None,
             deposit: Deposit | None = None, *, staff: bool = False) -> dict[str, Any]:
    """One cash transaction as the cash list shows it (see the module's docstring)."""
    payload = _json(cash.payload)
    is_deposit = linked is not None and linked.deposit_id is not None
    om_status = linked.om_status if linked is not None else None
    linked_shape = None
    if linked is not None:
        linked_shape = {
            "id": linked.id, "type": linked.type, "type_label": KIND_LABELS[Kind(linked.type)],
            "status": linked.status, "om_status": linked.om_status, "quantity": number_json(linked.quantity),
            "price": number_json(linked.price), "asset": _asset_brief(asset), "deposit_id": linked.deposit_id,
            "deposit": _deposit_brief(deposit), "payload": _json(linked.payload),
        }
    delete_refusal = rules.delete_refusal(status=cash.status, om_status=om_status, cash_type=cash.type)
    edit_refusal = rules.cash_edit_refusal(cash_type=cash.type, status=cash.status, linked=linked is not None,
                                           deposit=is_deposit)
    return {
        "id": cash.id,
        "investment_id": cash.investment_id,
        "type": cash.type,
        "form": rules.cash_form_name(cash.type, cash.action),
        "class": cash_class(cash.type, cash.action, linked.type if linked is not None else None),
        "action": cash.action,
        "price": cents_json(cash.price),
        "amount": cents_json(signed(cash.action, cash.price)),
        "trade_at": iso_json(cash.trade_at),
        "settlement_at": iso_json(cash.settlement_at),
        "status": cash.status,
        "status_label": CASH_LIST_LABELS[Status(cash.status)],
        "counted": is_counted(cash.status),
        "description": payload.get("description"),
        "payload": {"description": payload.get("description"), "ex_date": payload.get("ex_date"),
                    "franking_credits": payload.get("franking_credits")},
        "linked_transaction_id": cash.linked_transaction_id,
        "linked_transaction": linked_shape,
        "can_edit": staff and edit_refusal is None,
        "can_delete": staff and delete_refusal is None and not is_deposit,
    }


def asset_transaction_row(row: AssetTransaction, asset: Asset | None, cash_id: int | None = None, *,
                          staff: bool = False, recommendation_action: str | None = None) -> dict[str, Any]:
    """One asset transaction (see the module's docstring). `recommendation_action`: the action of
    the recommendation that generated it (see `recommendation_actions`), else its own payload's."""
    kind = Kind(row.type)
    payload = _json(row.payload)
    action = recommendation_action or generating_action(payload)
    value = cost = unit_cost = None
    if row.quantity is not None and row.price is not None and kind in rules.TRADE_KINDS:
        with localcontext() as ctx:
            ctx.prec = 60
            value = ledger.to_cents(row.quantity * row.price)
            if kind is Kind.ASSET_BUY:
                cost = cash_amount(kind.value, quantity=row.quantity, price=row.price, fee=row.fee, gst=row.gst)
                if row.quantity:
                    unit_cost = ledger.unit_cost(cost, row.quantity)
    question = rules.new_transaction_question(status=row.status, om_status=row.om_status)
    editable = staff and row.deposit_id is None and kind in rules.FORM_NAMES and (
        question is not None or rules.can_edit(status=row.status, om_status=row.om_status))
    return {
        "id": row.id,
        "investment_id": row.investment_id,
        "type": row.type,
        "type_label": KIND_LABELS[kind],
        "form": rules.FORM_NAMES.get(kind),
        "status": row.status,
        "status_label": rules.status_label(row.type, row.status),
        "action": row.action,
        "asset_id": row.asset_id,
        "code": asset.code if asset is not None else None,
        "name": asset.name if asset is not None else None,
        "deposit_id": row.deposit_id,
        "quantity": number_json(row.quantity),
        "display_quantity": number_json(rules.display_quantity(row.type, row.quantity)),
        "price": number_json(row.price),
        "unit_price": number_json(row.price),
        "unit_cost": number_json(unit_cost),
        "cost": cents_json(cost),
        "value": cents_json(value),
        "fee": cents_json(row.fee),
        "gst": cents_json(row.gst),
        "amount": cents_json(row.amount),
        "franking_credits": cents_json(row.franking_credits),
        "ratio": row.ratio,
        "trade_at": iso_json(row.trade_at),
        "ex_date": iso_json(row.ex_date),
        "settlement_at": iso_json(row.settlement_at),
        "contract_note": row.contract_note,
        "order_id": row.order_id,
        "limit_price": number_json(row.limit_price),
        "om_status": row.om_status,
        "replaces_id": row.replaces_id,
        "linked_transaction_id": cash_id,
        "description": payload.get("comment"),
        "payload": payload,
        "can_edit": editable,
        "can_delete": staff and row.deposit_id is None and rules.can_delete(status=row.status, om_status=row.om_status),
        "edit_question": question if editable else None,
        "recommendation_action": action,
        "stop_loss": is_stop_loss(action),
        "stop_loss_label": STOP_LOSS_LABEL if is_stop_loss(action) else None,
    }


def recommendation_actions(s: Session, rows: Iterable[AssetTransaction]) -> dict[int, str]:
    """asset transaction id -> the action of the recommendation (trade recommendation line) that
    generated it, for the rows placed from one; in one query."""
    wanted = {r.id: r.trade_transaction_id for r in rows if r.trade_transaction_id is not None}
    if not wanted:
        return {}
    payloads = dict(s.exec(select(TradeTransaction.id, TradeTransaction.payload).where(
        col(TradeTransaction.id).in_(set(wanted.values())))).all())
    actions = {tt_id: generating_action(_json(text)) for tt_id, text in payloads.items()}
    return {row_id: actions[tt_id] for row_id, tt_id in wanted.items() if actions.get(tt_id)}


def opening_balance_row(row: CashTransaction | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"id": row.id, "investment_id": row.investment_id, "price": cents_json(row.price), "trade_at": iso_json(row.trade_at)}


# ---- helpers -------------------------------------------------------------------------------------
def units_book(s: Session, portfolio: Portfolio) -> rules.UnitsBook:
    """The portfolio's executed ledger trades per asset, read through postings."""
    trades = postings.executed_trades(s, [portfolio.id]).get(portfolio.id, {})
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
        field = "asset_id" if asset_id is not None else "code"
        text = rules.UNKNOWN_ASSET.format(code=code) if code and asset_id is None else v.REQUIRED_SELECT.format(label="asset")
        raise ValidationError(rules.INVALID, {field: text})
    return asset


def _load_row(s: Session, actor: Actor, table, transaction_id: Any, *, write: bool = False, lock: bool = False):
    """A transaction (of `table`: asset or cash) and its portfolio, 404 when the actor may not see it.
    With `lock`, the portfolio is locked and the transaction read again under the lock (someone may
    have changed or removed it meanwhile)."""
    row, portfolio = load_portfolio_row(s, actor, table, transaction_id, rules.TRANSACTION_NOT_FOUND,
                                        for_edit=write, lock=lock)
    if lock:
        row = s.exec(select(table).where(table.id == row.id).execution_options(populate_existing=True)).first()
        if row is None:
            raise NotFound(rules.TRANSACTION_NOT_FOUND)
    return row, portfolio


def _load_asset_row(s: Session, actor: Actor, transaction_id: Any, *, write: bool = False,
                    lock: bool = False) -> tuple[AssetTransaction, Portfolio]:
    return _load_row(s, actor, AssetTransaction, transaction_id, write=write, lock=lock)


def _load_cash_row(s: Session, actor: Actor, transaction_id: Any, *, write: bool = False,
                   lock: bool = False) -> tuple[CashTransaction, Portfolio]:
    return _load_row(s, actor, CashTransaction, transaction_id, write=write, lock=lock)


def _cash_of(s: Session, asset_row_ids: Iterable[int]) -> dict[int, CashTransaction]:
    ids = list(asset_row_ids)
    if not ids:
        return {}
    rows = s.exec(select(CashTransaction).where(col(CashTransaction.linked_transaction_id).in_(ids))).all()
    return {c.linked_transaction_id: c for c in rows}


def _cash_shapes(s: Session, rows: list[CashTransaction], staff: bool) -> list[dict[str, Any]]:
    linked_ids = {r.linked_transaction_id for r in rows if r.linked_transaction_id is not None}
    linked = {a.id: a for a in s.exec(select(AssetTransaction).where(col(AssetTransaction.id).in_(linked_ids))).all()} \
        if linked_ids else {}
    asset_ids = {a.asset_id for a in linked.values() if a.asset_id is not None}
    deposit_ids = {a.deposit_id for a in linked.values() if a.deposit_id is not None}
    assets = {a.id: a for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids))).all()} if asset_ids else {}
    deposits = {d.id: d for d in s.exec(select(Deposit).where(col(Deposit.id).in_(deposit_ids))).all()} \
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
        TradeInstruction, TradeInstruction.id == TradeTransaction.trade_instruction_id).where(
        TradeInstruction.investment_id == portfolio.id, TradeTransaction.asset_id == asset_id,
        col(TradeTransaction.status).in_(_OPEN_TRADE_STATUSES))).first()
    return trade is not None


# ---- cash transactions -----------------------------------------------------------------------------
_CASH_SORTS = {
    "date": (CashTransaction.trade_at, CashTransaction.id),
    "trade_at": (CashTransaction.trade_at, CashTransaction.id),
    "price": (CashTransaction.price, CashTransaction.id),
    "amount": (CashTransaction.price, CashTransaction.id),
    "status": (CashTransaction.status, CashTransaction.trade_at, CashTransaction.id),
    "type": (CashTransaction.type, CashTransaction.trade_at, CashTransaction.id),
}


def list_cash_transactions(*, actor: Actor, investment_id: Any, page: Any = None, offset: Any = None,
                           limit: Any = None, order: Any = None, reverse: Any = None) -> dict[str, Any]:
    """One page of the portfolio's cash transactions (12, 24 or 32 a page, 12 by default; newest
    first by default: order 'date' with reverse true; also 'amount', 'status', 'type') and the
    totals of the executed ones. Result: {rows: [cash row], count, balance, cash_in, cash_out,
    limit, offset} (money as text)."""
    size, start = _page(page, offset, limit)
    key = order if isinstance(order, str) and order in _CASH_SORTS else "date"
    descending = _flag(reverse, True)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        columns = _CASH_SORTS[key]
        stmt = (select(CashTransaction).where(CashTransaction.investment_id == portfolio.id)
                .order_by(*[c.desc() if descending else c.asc() for c in columns]).offset(start).limit(size))
        rows = list(s.exec(stmt).all())
        count = s.exec(select(func.count()).select_from(CashTransaction)
                       .where(CashTransaction.investment_id == portfolio.id)).one()
        totals = {action: Decimal(total or 0) for action, total in s.exec(
            select(CashTransaction.action, func.sum(CashTransaction.price))
            .where(CashTransaction.investment_id == portfolio.id, CashTransaction.status == Status.EXECUTED.value)
            .group_by(CashTransaction.action)).all()}
        balance = postings.cash_balance(s, portfolio.id)
        shapes = _cash_shapes(s, rows, is_staff(actor))
    return {
        "rows": shapes,
        "count": int(count),
        "balance": cents_json(balance),
        "cash_in": cents_json(totals.get(Cash.IN.value, ZERO)),
        "cash_out": cents_json(totals.get(Cash.OUT.value, ZERO)),
        "limit": size,
        "offset": start,
    }


def get_cash_transaction(*, actor: Actor, transaction_id: Any) -> dict[str, Any]:
    """One cash transaction (cash row)."""
    with session_scope() as s:
        row, _ = _load_cash_row(s, actor, transaction_id)
        return _cash_shapes(s, [row], is_staff(actor))[0]


def _sent(data: Mapping[str, Any], *, drop: tuple[str, ...]) -> dict[str, Any]:
    """The fields an edit sends, without `drop`; a description sent only inside `payload`
    (payload.description or payload.comment, as the spec's payloads carry it) counts as sent."""
    sent = {k: val for k, val in data.items() if k not in drop}
    payload = data.get("payload")
    if "description" not in sent and "comment" not in sent and isinstance(payload, Mapping):
        for key in ("description", "comment"):
            if key in payload:
                sent["description"] = payload[key]
                break
    sent.pop("payload", None)
    if "comment" in sent and "description" not in sent:
        sent["description"] = sent.pop("comment")
    return sent


def _cash_payload(description: str | None, previous: dict[str, Any] | None = None) -> str | None:
    payload = dict(previous or {})
    if description:
        payload["description"] = description
    else:
        payload.pop("description", None)
    return json.dumps(payload) if payload else None


def create_cash_transaction(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """A withdrawal, credit or income (data: investment_id, type 'withdrawal' | 'credit' | 'income',
    price (or amount), trade_at, settlement_at, status (executed by default), description).
    Returns the cash row with notice 'Transaction added'."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, data.get("investment_id"), for_edit=True, lock=True)
        values, errors = rules.clean_cash_form(data)
        rules.raise_if_invalid(errors)
        now = utcnow()
        row = CashTransaction(
            investment_id=portfolio.id, type=values["cash_type"].value, action=values["action"].value,
            status=values["status"], price=values["price"], trade_at=values["trade_at"],
            settlement_at=values["settlement_at"], payload=_cash_payload(values["description"]),
            created_by=actor.id, created_at=now, updated_at=now,
        )
        s.add(row)
        s.flush()
        shape = _cash_shapes(s, [row], True)[0]
    return {**shape, "notice": rules.TRANSACTION_ADDED}


def update_cash_transaction(*, actor: Actor, transaction_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Change a withdrawal, credit or income (same fields as creating; fields left out keep their
    value). Opening balances change through set_opening_balance, the cash side of an asset
    transaction through update_asset_transaction. Returns the cash row with notice 'Transaction updated'."""
    require_staff(actor)
    with session_scope() as s:
        row, _ = _load_cash_row(s, actor, transaction_id, write=True, lock=True)
        linked = s.get(AssetTransaction, row.linked_transaction_id) if row.linked_transaction_id else None
        refusal = rules.cash_edit_refusal(cash_type=row.type, status=row.status, linked=linked is not None,
                                          deposit=linked is not None and linked.deposit_id is not None)
        if refusal:
            raise ValidationError(refusal)
        payload = _json(row.payload)
        current = {"type": rules.cash_form_name(row.type, row.action), "price": row.price, "trade_at": row.trade_at,
                   "settlement_at": row.settlement_at, "status": row.status,
                   "description": payload.get("description")}
        merged = {**current, **_sent(data, drop=("id", "investment_id"))}
        if "amount" in data and "price" not in data:
            merged["price"] = data["amount"]
        values, errors = rules.clean_cash_form(merged)
        rules.raise_if_invalid(errors)
        row.type, row.action = values["cash_type"].value, values["action"].value
        row.price, row.trade_at, row.settlement_at = values["price"], values["trade_at"], values["settlement_at"]
        row.status = values["status"]
        row.payload = _cash_payload(values["description"], payload)
        row.updated_at = utcnow()
        s.add(row)
        s.flush()
        shape = _cash_shapes(s, [row], True)[0]
    return {**shape, "notice": rules.TRANSACTION_UPDATED}


def delete_cash_transaction(*, actor: Actor, transaction_id: Any) -> dict[str, Any]:
    """Delete a cash transaction; the cash side of an asset transaction goes with its asset
    transaction (delete_asset_transaction). Refused for opening balances, transactions pending
    approval, ones order management executed, and deposit transactions. Returns
    {notice: 'Transaction has been removed'} (plus `message`, a warning, when one applies)."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_cash_row(s, actor, transaction_id, write=True, lock=True)
        linked = s.get(AssetTransaction, row.linked_transaction_id) if row.linked_transaction_id else None
        if linked is not None:
            return _delete_asset_row(s, portfolio, linked)
        refusal = rules.delete_refusal(status=row.status, cash_type=row.type)
        if refusal:
            raise ValidationError(refusal)
        s.delete(row)
        s.flush()
    return {"notice": rules.TRANSACTION_REMOVED}


# ---- opening balance ---------------------------------------------------------------------------
def _opening(s: Session, portfolio_id: int) -> CashTransaction | None:
    return s.exec(select(CashTransaction).where(CashTransaction.investment_id == portfolio_id,
                                                CashTransaction.type == CashType.OPENING_BALANCE.value)
                  .order_by(CashTransaction.id)).first()


def get_opening_balance(*, actor: Actor, investment_id: Any) -> dict[str, Any] | None:
    """{id, investment_id, price, trade_at} or None when the portfolio has none."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        return opening_balance_row(_opening(s, portfolio.id))


def set_opening_balance(*, actor: Actor, investment_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Create or change the opening balance (data: price, trade_at). An unchanged form writes
    nothing; a change writes only the changed fields. Returns {id, investment_id, price, trade_at,
    changed (bool), changed_fields [names], notice 'Opening balance has been changed'}."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id, for_edit=True, lock=True)
        values, errors = rules.clean_opening_balance(data)
        rules.raise_if_invalid(errors)
        row = _opening(s, portfolio.id)
        if row is None:
            now = utcnow()
            row = CashTransaction(investment_id=portfolio.id, type=CashType.OPENING_BALANCE.value,
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
        shape = opening_balance_row(row)
    return {**shape, "changed": bool(changes), "changed_fields": sorted(changes), "notice": rules.OPENING_BALANCE_CHANGED}


# ---- asset transactions: writing ---------------------------------------------------------------------
def _asset_kind_or_refuse(data: Mapping[str, Any]) -> Kind:
    kind = rules.asset_kind(data.get("type"))
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
    return postings.record(
        s, actor_id=actor.id, portfolio=portfolio, kind=kind.value, status=values["status"],
        trade_at=values["trade_at"], asset_id=asset.id, quantity=values["quantity"], price=values["price"],
        fee=values["fee"], gst=values["gst"],
        amount=values["amount"] if kind not in rules.TRADE_KINDS else None,
        franking_credits=values["franking_credits"], ratio=values["ratio"], settlement_at=values["settlement_at"],
        ex_date=values["ex_date"], contract_note=values["contract_note"], order_id=values["order_id"],
        limit_price=values["limit_price"], payload={"comment": values["description"]} if values["description"] else None,
        replaces_id=replaces_id, description=values["description"],
    )


def add_asset_in_session(s: Session, actor: Actor, portfolio: Portfolio, values: dict[str, Any],
                         book: rules.UnitsBook, asset: Asset, replaces_id: int | None = None,
                         ) -> tuple[AssetTransaction, CashTransaction | None]:
    """Check and post one cleaned asset form in the caller's session (portfolio already locked).
    A sell (of any status) must not take more units than the executed history holds at its date;
    an executed trade joins `book` for the checks that follow (the upload checks in file order)."""
    values = _figures(values, book, asset.id)
    trade = _trade_of(values)
    book.check(asset.id, trade)  # ValidationError('Not enough assets to sell') or the ratio text
    row, cash = _record(s, actor, portfolio, asset, values, replaces_id)
    if is_counted(row.status):
        book.add(asset.id, trade)
    return row, cash


def add_asset_transaction(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """Add a purchase, sell, dividend, interest, capital return or reconstruction (data:
    investment_id, type (form name or kind), asset_id or code, and the form's fields; see
    app.domain.transaction_rules). The asset transaction and its cash transaction are written
    together, or nothing is. A sell beyond the units held: ValidationError('Not enough assets to
    sell'). Returns the asset transaction row with notice 'Transaction added' and, for a
    reconstruction while a pending transaction of the asset exists, `message` (a warning)."""
    require_staff(actor)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, data.get("investment_id"), for_edit=True, lock=True)
        kind = _asset_kind_or_refuse(data)
        values, errors = rules.clean_asset_form(kind, data)
        rules.raise_if_invalid(errors)
        asset = _resolve_asset(s, actor, portfolio, values["asset_id"], values["code"])
        row, cash = add_asset_in_session(s, actor, portfolio, values, units_book(s, portfolio), asset)
        warning = rules.PENDING_EXISTS if kind is Kind.RECONSTRUCTION and _pending_exists(s, portfolio, asset.id) else None
        shape = asset_transaction_row(row, asset, cash.id if cash else None, staff=True)
    result = {**shape, "notice": rules.TRANSACTION_ADDED}
    if warning:
        result["message"] = warning
    return result


def create_transaction(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """createTransaction: a cash form type (withdrawal, credit, income) adds a cash transaction,
    any other an asset transaction."""
    if rules.cash_form(data.get("type"), data.get("action")) is not None:
        return create_cash_transaction(actor=actor, data=data)
    return add_asset_transaction(actor=actor, data=data)


def _form_of(row: AssetTransaction, asset: Asset | None) -> dict[str, Any]:
    """The stored transaction as form data (what an edit starts from)."""
    payload = _json(row.payload)
    amount = row.amount
    if Kind(row.type) in rules.TRADE_KINDS:
        amount = None
    return {
        "asset_id": row.asset_id, "code": asset.code if asset else None, "trade_at": row.trade_at,
        "settlement_at": row.settlement_at, "ex_date": row.ex_date, "status": row.status,
        "quantity": row.quantity, "price": row.price, "fee": row.fee, "gst": row.gst, "amount": amount,
        "franking_credits": row.franking_credits, "ratio": row.ratio, "contract_note": row.contract_note,
        "order_id": row.order_id, "limit_price": row.limit_price, "description": payload.get("comment"),
    }


def _check_fixed(kind: Kind, row: AssetTransaction, asset: Asset | None, data: Mapping[str, Any]) -> None:
    errors = v.FieldErrors()
    if not v.is_empty(data.get("type")) and rules.asset_kind(data.get("type")) is not kind:
        errors.check("type", rules.TYPE_FIXED)
    if not v.is_empty(data.get("asset_id")) and rules.as_id(data.get("asset_id")) != row.asset_id:
        errors.check("asset_id", rules.ASSET_FIXED)
    if not v.is_empty(data.get("code")) and asset is not None and str(data.get("code")).strip().upper() != asset.code:
        errors.check("code", rules.ASSET_FIXED)
    rules.raise_if_invalid(errors)


def update_asset_transaction(*, actor: Actor, transaction_id: Any, data: Mapping[str, Any],
                             confirm: bool = False) -> dict[str, Any]:
    """Change an asset transaction: fields left out keep their value; the type and the asset stay.
    Amounts are recomputed and its cash transaction follows (postings.sync_cash). Refused while
    pending or pending approval, or once order management executed it. A transaction in
    processing error (or cancelled by order management) is not changed: with confirm=True a new
    transaction with the updated data replaces it (replaces_id; status pending unless given) and
    the notice is 'Transaction created'; without, ConflictError with the question to ask.
    Returns the (new) asset transaction row with notice 'Transaction updated' / 'Transaction created'."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_asset_row(s, actor, transaction_id, write=True, lock=True)
        if row.deposit_id is not None:
            raise ValidationError(rules.DEPOSIT_FORMS_ONLY)
        kind = Kind(row.type)
        if kind not in rules.FORM_NAMES:
            raise ValidationError(rules.NOT_AN_ASSET_TRANSACTION)
        asset = s.get(Asset, row.asset_id) if row.asset_id else None
        _check_fixed(kind, row, asset, data)
        question = rules.new_transaction_question(status=row.status, om_status=row.om_status)
        if question is None:
            refusal = rules.edit_refusal(status=row.status, om_status=row.om_status)
            if refusal:
                raise ValidationError(refusal)
        elif not confirm:
            raise Conflict(question)
        sent = _sent(data, drop=("id", "investment_id", "type", "asset_id", "code", "confirm"))
        merged = {**_form_of(row, asset), **sent}
        if question is not None and v.is_empty(data.get("status")):
            merged["status"] = Status.PENDING.value
        values, errors = rules.clean_asset_form(kind, merged)
        rules.raise_if_invalid(errors)
        if asset is None:
            raise ValidationError(rules.NOT_AN_ASSET_TRANSACTION)

        if question is not None:  # the error flow: a new transaction replaces this one
            new, cash = add_asset_in_session(s, actor, portfolio, values, units_book(s, portfolio), asset,
                                             replaces_id=row.id)
            shape = asset_transaction_row(new, asset, cash.id if cash else None, staff=True)
            return {**shape, "notice": rules.TRANSACTION_CREATED, "replaced_id": row.id}

        values = _figures(values, units_book(s, portfolio), asset.id)
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
            units_book(s, portfolio).check(asset.id, _trade_of(values))
        shape = asset_transaction_row(row, asset, cash.id if cash else None, staff=True)
    return {**shape, "notice": rules.TRANSACTION_UPDATED}


def _delete_asset_row(s: Session, portfolio: Portfolio, row: AssetTransaction) -> dict[str, Any]:
    if row.deposit_id is not None:
        raise ValidationError(rules.DEPOSIT_FORMS_ONLY)
    refusal = rules.delete_refusal(status=row.status, om_status=row.om_status)
    if refusal:
        raise ValidationError(refusal)
    asset_id = row.asset_id
    counted = is_counted(row.status)
    s.exec(update(AssetTransaction).where(AssetTransaction.replaces_id == row.id).values(replaces_id=None))
    postings.remove(s, row)
    _verify_asset(s, portfolio, asset_id)  # e.g. a bought parcel a later sell needs
    result: dict[str, Any] = {"notice": rules.TRANSACTION_REMOVED}
    if counted and asset_id is not None and _pending_exists(s, portfolio, asset_id):
        result["message"] = rules.PENDING_EXISTS
    return result


def delete_asset_transaction(*, actor: Actor, transaction_id: Any) -> dict[str, Any]:
    """Delete an asset transaction with its cash transaction. Refused for one pending approval or
    executed by order management, for deposit transactions, and when a later sell would then sell
    more than held ('Not enough assets to sell'). Returns {notice: 'Transaction has been removed'}
    plus `message` (a warning) when an executed transaction went while the asset has pending ones."""
    require_staff(actor)
    with session_scope() as s:
        row, portfolio = _load_asset_row(s, actor, transaction_id, write=True, lock=True)
        return _delete_asset_row(s, portfolio, row)


# ---- asset transactions: reading -----------------------------------------------------------------
def get_asset_transaction(*, actor: Actor, transaction_id: Any) -> dict[str, Any]:
    """One asset transaction (asset transaction row), e.g. the asset transaction modal."""
    with session_scope() as s:
        row, _ = _load_asset_row(s, actor, transaction_id)
        asset = s.get(Asset, row.asset_id) if row.asset_id else None
        cash = _cash_of(s, [row.id]).get(row.id)
        return asset_transaction_row(row, asset, cash.id if cash else None, staff=is_staff(actor),
                                     recommendation_action=recommendation_actions(s, [row]).get(row.id))


_PANEL_SORTS = ("date", "code", "name", "quantity", "remaining_quantity", "price", "cost", "value",
                "realised_gain_loss", "unrealised_gain_loss", "total_bought_value", "total_sold_value")


def _panel_rows(s: Session, portfolio: Portfolio) -> list[dict[str, Any]]:
    rows = s.exec(select(AssetTransaction).where(AssetTransaction.investment_id == portfolio.id,
                                                 AssetTransaction.asset_id.is_not(None),
                                                 AssetTransaction.deposit_id.is_(None))).all()
    if not rows:
        return []
    by_asset: dict[int, list[AssetTransaction]] = defaultdict(list)
    for row in rows:
        by_asset[row.asset_id].append(row)
    assets = {a.id: a for a in s.exec(select(Asset).where(col(Asset.id).in_(list(by_asset)))).all()}
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
            bought_value = sum((ledger.to_cents((r.quantity or ZERO) * (r.price or ZERO)) for r in bought), ZERO)
            sold_value = sum((ledger.to_cents((r.quantity or ZERO) * (r.price or ZERO)) for r in sold), ZERO)
            last = asset.last_close_price if asset is not None else None
            value = ledger.to_cents(position.units * last) if last is not None else None
            average = ledger.unit_cost(bought_value, bought_units) if bought_units else None
        out.append({
            "asset_id": asset_id,
            "code": asset.code if asset else None,
            "name": asset.name if asset else None,
            "quantity": bought_units,
            "remaining_quantity": position.units,
            "price": last,
            "price_date": asset.last_close_date if asset else None,
            "cost": position.cost_base,
            "value": value,
            "realised_gain_loss": position.realised_gain,
            "unrealised_gain_loss": ledger.unrealised_gain(position, last) if last is not None else None,
            "total_bought_value": bought_value,
            "total_sold_value": sold_value,
            "bought_price": average,
            "date": max(r.trade_at for r in items),
            "transactions_count": len(items),
            "pending_count": sum(1 for r in items if r.status in _PENDING_ASSET_STATUSES),
        })
    return out


def _panel_shape(row: dict[str, Any]) -> dict[str, Any]:
    money = ("cost", "value", "realised_gain_loss", "unrealised_gain_loss", "total_bought_value", "total_sold_value")
    numbers = ("quantity", "remaining_quantity", "price", "bought_price")
    shape = {k: (cents_json(val) if k in money else number_json(val) if k in numbers else val) for k, val in row.items()
             if k != "date"}
    shape["last_trade_at"] = iso_json(row["date"])
    shape["price_date"] = iso_json(row["price_date"])
    return shape


def list_asset_positions(*, actor: Actor, investment_id: Any, page: Any = None, offset: Any = None,
                         limit: Any = None, order: Any = None, reverse: Any = None) -> list[dict[str, Any]]:
    """The asset transactions panel: one row per listed asset the portfolio has transactions of
    (deposit transactions are not listed here), with its totals from the executed ones. Sorted by
    `order` (date - the latest trade - by default, also code, name, quantity, remaining_quantity,
    price, cost, value, realised_gain_loss, unrealised_gain_loss, total_bought_value,
    total_sold_value), descending when `reverse` (default true); 12, 24 or 32 a page (page or
    offset, for load more). The first row carries total_rows (the number of assets)."""
    size, start = _page(page, offset, limit)
    key = order if isinstance(order, str) and order in _PANEL_SORTS else "date"
    descending = _flag(reverse, True)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        rows = _panel_rows(s, portfolio)
    present = [r for r in rows if r[key] is not None]
    missing = [r for r in rows if r[key] is None]

    def sort_key(r: dict[str, Any]):
        value = r[key]
        return value.casefold() if isinstance(value, str) else value

    present.sort(key=lambda r: r["asset_id"])
    present.sort(key=sort_key, reverse=descending)
    ordered = present + sorted(missing, key=lambda r: r["asset_id"])  # unknown values last either way
    page_rows = [_panel_shape(r) for r in ordered[start:start + size]]
    if page_rows:
        page_rows[0]["total_rows"] = len(rows)
    return page_rows


def list_transactions_of_asset(*, actor: Actor, investment_id: Any, asset_id: Any, statuses: Iterable[Any] = (),
                               types: Iterable[Any] = (), offset: Any = None, limit: Any = None,
                               ) -> list[dict[str, Any]]:
    """An expanded asset's transactions, newest first, filtered by the panel's status filters
    (pending, draft, executed, dividend, placed, error; none: all) and optionally by kinds or form
    names. A transaction replaced by a new one (the error flow) is not listed. Optional
    offset/limit (no limit by default). The first row carries total_rows."""
    filt = rules.panel_filter(statuses, types)
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        aid = rules.as_id(asset_id)
        if aid is None:
            raise NotFound(rules.TRANSACTION_NOT_FOUND)
        asset = s.get(Asset, aid)
        rows = s.exec(select(AssetTransaction).where(
            AssetTransaction.investment_id == portfolio.id, AssetTransaction.asset_id == aid,
            AssetTransaction.deposit_id.is_(None)).order_by(AssetTransaction.trade_at.desc(),
                                                             AssetTransaction.id.desc())).all()
        replaced = {r.replaces_id for r in rows if r.replaces_id is not None}
        chosen = [r for r in rows if r.id not in replaced and filt.accepts(r.type, r.status)]
        start = max(0, int(offset)) if str(offset or "").isdigit() else 0
        size = rules.as_id(limit)
        window = chosen[start:start + size] if size else chosen[start:]
        cash = _cash_of(s, [r.id for r in window])
        staff = is_staff(actor)
        actions = recommendation_actions(s, window)
        out = [asset_transaction_row(r, asset, cash[r.id].id if r.id in cash else None, staff=staff,
                                     recommendation_action=actions.get(r.id)) for r in window]
    if out:
        out[0]["total_rows"] = len(chosen)
    return out


def form_options() -> dict[str, Any]:
    """What the transaction screens offer: the asset forms, the cash forms, the statuses with their
    labels, the panel filters and the page sizes."""
    return {
        "asset_forms": [{"value": name, "kind": kind.value, "label": KIND_LABELS[kind]}
                        for kind, name in rules.FORM_NAMES.items()],
        "cash_forms": [{"value": "withdrawal", "label": "Withdrawal"}, {"value": "credit", "label": "Credit"},
                       {"value": "income", "label": "Income"}],
        "statuses": [{"value": s.value, "label": CASH_LIST_LABELS[s]} for s in Status],
        "panel_filters": list(rules.PANEL_FILTER_STATUSES) + [rules.STATUSLESS_FILTER],
        "page_sizes": list(rules.PAGE_SIZES),
        "default_page_size": rules.DEFAULT_PAGE_SIZE,
    }


def asset_totals(*, actor: Actor, investment_id: Any) -> dict[str, Any]:
    """The asset transactions screen's header: the panel's figures summed over every asset (not one
    page) - assets (count), cost (remaining cost base), value (remaining units at the last close;
    unpriced assets count nothing and are counted in `unpriced`), realised_gain_loss,
    unrealised_gain_loss, total_bought_value, total_sold_value - and the cash balance. Executed
    transactions only, as the panel rows; money as text."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, investment_id)
        rows = _panel_rows(s, portfolio)
        balance = postings.cash_balance(s, portfolio.id)

    def total(key: str) -> str:
        return cents_json(sum((r[key] for r in rows if r[key] is not None), ZERO))

    return {
        "assets": len(rows),
        "unpriced": sum(1 for r in rows if r["value"] is None and r["remaining_quantity"]),
        **{key: total(key) for key in ("cost", "value", "realised_gain_loss", "unrealised_gain_loss",
                                        "total_bought_value", "total_sold_value")},
        "cash_balance": cents_json(balance),
    }
