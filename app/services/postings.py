"""Writing and reading a portfolio's book: the one place that posts an asset transaction with its
cash transaction, and derives positions, the cash balance and deposit balances from executed rows.

Internal to the services (no permission checks here): callers load the portfolio through
app.services.tenancy first and pass their open session, so that an asset transaction and
its cash transaction are written in the caller's single database transaction.

Derivation (spec 002 s4, app.domain.transactions.EFFECTS): only executed transactions count.
Listed asset units, parcels, cost base and realised gains come from app.domain.ledger under the
portfolio's tax treatment (FIFO by default); each buy is a parcel.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable, Sequence, TypeVarTuple, Unpack

from sqlalchemy import Integer, Row, Select, case, func, literal, select as sa_select, tuple_
from sqlalchemy.dialects.postgresql import ARRAY
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.tables import AssetTransaction, CashTransaction, Portfolio
from app.db.types import stored_id, utcnow
from app.domain import ledger
from app.domain.wire import json_text
from app.domain.transactions import EFFECTS, Cash, CashType, Kind, Status, cash_amount

ZERO = Decimal(0)


def tax_treatment(portfolio: Portfolio) -> ledger.TaxTreatment:
    """The portfolio's tax treatment (FIFO when unset or unknown)."""
    try:
        return ledger.TaxTreatment(portfolio.tax_treatment or "fifo")
    except ValueError:
        return ledger.TaxTreatment.FIFO


# ---- writing ----------------------------------------------------------------------------------
def record(s: Session, *, actor_id: int | None, portfolio: Portfolio, kind: str, status: str,
           trade_at: datetime, asset_id: int | None = None, deposit_id: int | None = None,
           quantity: Decimal | None = None, price: Decimal | None = None, fee: Decimal | None = None,
           gst: Decimal | None = None, amount: Decimal | None = None,
           franking_credits: Decimal | None = None, ratio: str | None = None,
           settlement_at: datetime | None = None, ex_date: datetime | None = None,
           contract_note: str | None = None, order_id: str | None = None,
           limit_price: Decimal | None = None, payload: dict[str, Any] | None = None,
           replaces_id: int | None = None, description: str | None = None,
           ) -> tuple[AssetTransaction, CashTransaction | None]:
    """Adds an asset transaction and, when its kind moves cash, the linked cash transaction with
    the same status, in the caller's session (flushed, not committed). The caller validates the
    input (units held, ratio, dates) before calling."""
    k = Kind(kind)
    action = {"asset_buy": "buy", "parcel": "sell"}.get(k.value)
    if k in (Kind.TD_BUY, Kind.ACA_BUY, Kind.ACA_DEPOSIT):
        action = "buy"
    elif k in (Kind.TD_SELL, Kind.ACA_SELL):
        action = "sell"
    moved = cash_amount(k.value, quantity=quantity, price=price, fee=fee, gst=gst, amount=amount)
    now = utcnow()
    row = AssetTransaction(
        investment_id=stored_id(portfolio), asset_id=asset_id, deposit_id=deposit_id, type=k.value, action=action,
        status=Status(status).value, quantity=quantity, price=price, fee=fee, gst=gst,
        amount=moved if k not in (Kind.RECONSTRUCTION,) else amount, franking_credits=franking_credits,
        ratio=ratio, trade_at=trade_at, ex_date=ex_date, settlement_at=settlement_at,
        contract_note=contract_note, order_id=order_id, limit_price=limit_price,
        payload=json.dumps(payload) if payload else None, replaces_id=replaces_id,
        created_by=actor_id, updated_by=actor_id, created_at=now, updated_at=now,
    )
    s.add(row)
    s.flush()
    cash = None
    direction = EFFECTS[k].cash
    if direction is not Cash.NONE:
        cash_payload: dict[str, Any] = {}
        if description:
            cash_payload["description"] = description
        if ex_date is not None:
            cash_payload["ex_date"] = ex_date.isoformat()
        if franking_credits is not None:
            cash_payload["franking_credits"] = str(franking_credits)
        cash = CashTransaction(
            investment_id=stored_id(portfolio), type=CashType.LINKED.value, action=direction.value, status=row.status,
            price=moved, trade_at=trade_at, settlement_at=settlement_at, linked_transaction_id=row.id,
            payload=json.dumps(cash_payload) if cash_payload else None, created_by=actor_id,
            created_at=now, updated_at=now,
        )
        s.add(cash)
        s.flush()
    return row, cash


@dataclass(frozen=True)
class TradeEntry:
    """One buy or sell for `record_trades` (the fields `record` takes for a listed asset trade)."""

    portfolio_id: int
    kind: str  # asset_buy | parcel
    asset_id: int
    quantity: Decimal
    price: Decimal
    fee: Decimal
    limit_price: Decimal | None = None
    payload: dict[str, Any] | None = None
    description: str | None = None
    trade_transaction_id: int | None = None
    expires_at: datetime | None = None


def record_trades(s: Session, *, actor_id: int | None, status: str, trade_at: datetime,
                  entries: list[TradeEntry], ids: Sequence[int] | None = None) -> list[int]:
    """Many listed asset trades at once, each with its linked cash transaction - the same rows
    `record` writes, in the caller's transaction, with two bulk inserts instead of two flushes per
    trade (a broker file places thousands of orders). Returns the asset transaction ids in order;
    each order id is 'WA<id>'. `ids`: ids reserved beforehand (`bulk.reserve_ids`), one per entry."""

    if not entries:
        return []
    Status(status)
    if ids is None:
        ids = bulk.reserve_ids(s, AssetTransaction, len(entries))
    elif len(ids) != len(entries):
        raise ValueError("record_trades needs one reserved id per entry")
    ids = list(ids)
    now = utcnow()
    asset_rows, cash_rows = [], []
    for tid, e in zip(ids, entries):
        k = Kind(e.kind)
        if k not in (Kind.ASSET_BUY, Kind.PARCEL):
            raise ValueError(f"record_trades takes buys and sells, not {k.value}")
        moved = cash_amount(k.value, quantity=e.quantity, price=e.price, fee=e.fee)
        asset_rows.append((
            tid, e.portfolio_id, e.asset_id, k.value, "buy" if k is Kind.ASSET_BUY else "sell", status, e.quantity,
            e.price, e.fee, moved, trade_at, f"WA{tid}", e.limit_price, json_text(e.payload) if e.payload else None,
            e.trade_transaction_id, e.expires_at, actor_id, actor_id, now, now))
        cash_rows.append((
            e.portfolio_id, CashType.LINKED.value, EFFECTS[k].cash.value, status, moved, trade_at, tid,
            json_text({"description": e.description}) if e.description else None, actor_id, now, now))
    bulk.copy_rows(s, AssetTransaction, asset_rows, _TRADE_COLUMNS)
    bulk.copy_rows(s, CashTransaction, cash_rows, _LINKED_CASH_COLUMNS)
    return ids


_TRADE_COLUMNS = ("id", "investment_id", "asset_id", "type", "action", "status", "quantity", "price", "fee",
                  "amount", "trade_at", "order_id", "limit_price", "payload", "trade_transaction_id",
                  "expires_at", "created_by", "updated_by", "created_at", "updated_at")
_LINKED_CASH_COLUMNS = ("investment_id", "type", "action", "status", "price", "trade_at", "linked_transaction_id",
                        "payload", "created_by", "created_at", "updated_at")


def sync_cash(s: Session, row: AssetTransaction) -> CashTransaction | None:
    """After an asset transaction changed (figures, dates or status), brings its linked cash
    transaction in line in the same session."""
    cash = s.exec(select(CashTransaction).where(CashTransaction.linked_transaction_id == row.id)).first()
    if cash is None:
        return None
    cash.price = cash_amount(row.type, quantity=row.quantity, price=row.price, fee=row.fee, gst=row.gst,
                             amount=row.amount)
    cash.status = row.status
    cash.trade_at = row.trade_at
    cash.settlement_at = row.settlement_at
    cash.updated_at = utcnow()
    s.add(cash)
    return cash


def remove(s: Session, row: AssetTransaction) -> None:
    """Deletes an asset transaction and its linked cash transaction (same session)."""
    for cash in s.exec(select(CashTransaction).where(CashTransaction.linked_transaction_id == row.id)).all():
        s.delete(cash)
    s.flush()
    s.delete(row)
    s.flush()


# ---- reading ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Book:
    """What a portfolio holds, derived from its executed transactions."""

    positions: dict[int, ledger.Position]      # listed asset id -> position (units may be 0 after sells)
    cash_balance: Decimal
    deposit_balances: dict[int, Decimal]       # deposit id -> balance


def _ledger_trade(row: AssetTransaction) -> ledger.Trade | None:
    effect = EFFECTS[Kind(row.type)]
    if effect.ledger is None or row.asset_id is None:
        return None
    return ledger.Trade(
        kind=effect.ledger, trade_date=row.trade_at.date(), units=row.quantity or ZERO, price=row.price or ZERO,
        fee=(row.fee or ZERO) + (row.gst or ZERO), ratio=row.ratio,
        amount=row.amount if effect.ledger == "capital_return" else None,
    )


_Columns = TypeVarTuple("_Columns")
PAIRS_PER_QUERY = 2_000  # (portfolio, asset) pairs per statement: within SQLite's bound-parameter limit


def _among_pairs(s: Session, stmt: Select[Unpack[_Columns]], pairs: Iterable[tuple[int, int]]
                 ) -> list[Select[Unpack[_Columns]]]:
    """`stmt` (over AssetTransaction) restricted to the (portfolio id, asset id) `pairs`: one
    statement on PostgreSQL, chunks within SQLite's parameter limit otherwise."""
    t = AssetTransaction
    wanted = sorted(set(pairs))
    if not wanted:
        return []
    if s.get_bind().dialect.name == "postgresql":
        # one semi-join against two arrays: PostgreSQL plans a row-value IN list as an OR chain
        keys = (sa_select(func.unnest(literal([p for p, _ in wanted], ARRAY(Integer))).label("pid"),
                          func.unnest(literal([a for _, a in wanted], ARRAY(Integer))).label("aid"))
                .subquery())
        return [stmt.where(tuple_(t.investment_id, t.asset_id).in_(sa_select(keys.c.pid, keys.c.aid)))]
    return [stmt.where(tuple_(t.investment_id, t.asset_id).in_(wanted[start:start + PAIRS_PER_QUERY]))
            for start in range(0, len(wanted), PAIRS_PER_QUERY)]


def held_units(s: Session, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Decimal]:
    """(portfolio id, asset id) -> the units its executed transactions leave, for every pair (ZERO
    for none). Summed in the database where only buys and sells moved the holding; replayed through
    the ledger where a reconstruction (a split, a consolidation) changed the units, or where the sum
    would go below zero (the ledger says what is wrong with such a history)."""
    wanted = set(pairs)
    out = {pair: ZERO for pair in wanted}
    t = AssetTransaction
    kinds: dict[str | None, list[str]] = defaultdict(list)
    for k, e in EFFECTS.items():
        kinds[e.ledger].append(k.value)
    signed = case((col(t.type).in_(kinds["buy"]), col(t.quantity)), (col(t.type).in_(kinds["sell"]), -col(t.quantity)),
                  else_=0)
    reshaped = func.sum(case((col(t.type).in_(kinds["reconstruction"]), 1), else_=0))
    stmt = (sa_select(col(t.investment_id), col(t.asset_id), func.sum(signed), reshaped)
            .where(col(t.status) == Status.EXECUTED.value, col(t.asset_id).is_not(None))
            .group_by(col(t.investment_id), col(t.asset_id)))
    replay: set[tuple[int, int]] = set()
    for stmt_part in _among_pairs(s, stmt, wanted):
        for pid, aid, units, reshapes in s.execute(stmt_part).all():
            total = Decimal(units or 0)
            if reshapes or total < 0:
                replay.add((pid, aid))
            else:
                out[(pid, aid)] = total
    if replay:
        for pid, by_asset in executed_trades(s, [], pairs=replay).items():
            for aid, rows in by_asset.items():
                out[(pid, aid)] = ledger.units_held(rows)
    return out


def executed_trades(s: Session, portfolio_ids: Iterable[int], *, until: datetime | None = None,
                    pairs: Iterable[tuple[int, int]] | None = None) -> dict[int, dict[int, list[ledger.Trade]]]:
    """portfolio id -> asset id -> its executed ledger trades in date then id order (plain
    columns, no ORM objects: bulk calculation reads hundreds of thousands of these); with
    `until`, only those traded before that moment; with `pairs` ((portfolio id, asset id)), only
    those holdings (then `portfolio_ids` is ignored)."""
    ids = list(portfolio_ids)
    out: dict[int, dict[int, list[ledger.Trade]]] = defaultdict(lambda: defaultdict(list))
    t = AssetTransaction
    columns = sa_select(
        col(t.investment_id), col(t.asset_id), col(t.type), col(t.trade_at), col(t.quantity), col(t.price),
        col(t.fee), col(t.gst), col(t.ratio), col(t.amount))
    common = [col(t.status) == Status.EXECUTED.value, col(t.asset_id).is_not(None),
              *([col(t.trade_at) < until] if until is not None else [])]
    order = (col(t.investment_id), col(t.trade_at), col(t.id))
    if pairs is not None:
        rows: Sequence[Row[Unpack[tuple[Any, ...]]]] = [
            row for stmt in _among_pairs(s, columns.where(*common).order_by(*order), pairs)
            for row in s.execute(stmt).all()]
    elif ids:
        rows = s.execute(columns.where(bulk.among(s, t.investment_id, ids), *common).order_by(*order)).all()
    else:
        return out
    effects = {k.value: e.ledger for k, e in EFFECTS.items()}
    for pid, asset_id, kind, trade_at, quantity, price, fee, gst, ratio, amount in rows:
        kind_of = effects[kind]
        if kind_of is None:
            continue
        out[pid][asset_id].append(ledger.Trade(
            kind=kind_of, trade_date=trade_at.date(), units=quantity or ZERO, price=price or ZERO,
            fee=(fee or ZERO) + (gst or ZERO) if gst else (fee or ZERO), ratio=ratio,
            amount=amount if kind_of == "capital_return" else None,
        ))
    return out


def positions(s: Session, portfolio: Portfolio, *, asset_ids: Iterable[int] | None = None) -> dict[int, ledger.Position]:
    """asset id -> the position its executed transactions leave (assets ever traded)."""
    pid = stored_id(portfolio)
    trades = executed_trades(s, [pid]).get(pid, {})
    wanted = None if asset_ids is None else set(asset_ids)
    treatment = tax_treatment(portfolio)
    return {asset_id: ledger.apply(rows, treatment) for asset_id, rows in trades.items()
            if wanted is None or asset_id in wanted}


def position(s: Session, portfolio: Portfolio, asset_id: int) -> ledger.Position:
    return positions(s, portfolio, asset_ids=[asset_id]).get(asset_id) or ledger.apply([])


def cash_balances(s: Session, portfolio_ids: Iterable[int]) -> dict[int, Decimal]:
    """portfolio id -> balance of its executed cash transactions (increases minus decreases)."""
    ids = list(portfolio_ids)
    out = {pid: ZERO for pid in ids}
    if not ids:
        return out
    rows = s.execute(
        sa_select(col(CashTransaction.investment_id), col(CashTransaction.action), func.sum(col(CashTransaction.price)))
        .where(bulk.among(s, CashTransaction.investment_id, ids), col(CashTransaction.status) == Status.EXECUTED.value)
        .group_by(col(CashTransaction.investment_id), col(CashTransaction.action))
    ).all()
    for pid, action, total in rows:
        total = Decimal(total or 0)
        out[pid] = out[pid] + (total if action == Cash.IN.value else -total)
    return out


def committed_to_orders(s: Session, portfolio_ids: Iterable[int]) -> dict[int, Decimal]:
    """portfolio id -> cash committed to buys placed with a broker and not yet executed (their
    amounts, brokerage included): the one figure every screen takes off the cash ("available cash
    = cash - placed buys"; placed sells add cash only once executed)."""
    ids = list(portfolio_ids)
    out = {pid: ZERO for pid in ids}
    if not ids:
        return out
    rows = s.execute(
        sa_select(col(AssetTransaction.investment_id), func.sum(col(AssetTransaction.amount)))
        .where(bulk.among(s, AssetTransaction.investment_id, ids),
               col(AssetTransaction.status) == Status.PROCESSING.value,
               col(AssetTransaction.action) == "buy", col(AssetTransaction.trade_transaction_id).is_not(None))
        .group_by(col(AssetTransaction.investment_id))
    ).all()
    for pid, total in rows:
        out[pid] = Decimal(total or 0)
    return out


def cash_balance(s: Session, portfolio_id: int) -> Decimal:
    return cash_balances(s, [portfolio_id])[portfolio_id]


def deposit_balances(s: Session, portfolio_ids: Iterable[int]) -> dict[int, dict[int, Decimal]]:
    """portfolio id -> deposit id -> balance (placements and accruals in, redemptions out)."""
    ids = list(portfolio_ids)
    out: dict[int, dict[int, Decimal]] = {pid: {} for pid in ids}
    if not ids:
        return out
    rows = s.execute(
        sa_select(col(AssetTransaction.investment_id), col(AssetTransaction.deposit_id), col(AssetTransaction.type),
                  func.sum(col(AssetTransaction.amount)))
        .where(bulk.among(s, AssetTransaction.investment_id, ids), col(AssetTransaction.deposit_id).is_not(None),
               col(AssetTransaction.status) == Status.EXECUTED.value)
        .group_by(col(AssetTransaction.investment_id), col(AssetTransaction.deposit_id), col(AssetTransaction.type))
    ).all()
    for pid, deposit_id, kind, total in rows:
        sign = EFFECTS[Kind(kind)].deposit
        if sign:
            balances = out[pid]
            balances[deposit_id] = balances.get(deposit_id, ZERO) + sign * Decimal(total or 0)
    return out


def book(s: Session, portfolio: Portfolio) -> Book:
    pid = stored_id(portfolio)
    return Book(positions(s, portfolio), cash_balance(s, pid), deposit_balances(s, [pid])[pid])
