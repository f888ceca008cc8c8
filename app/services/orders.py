"""Orders placed with a broker and what came back (spec 002 s4 statuses: processing shown as
Placed, processing error shown as Error, executed).

- `list_orders`: the firm's orders placed by broker file exports, newest first, by status.
- `execute`: a placed order was filled: the asset transaction and its cash transaction become
  executed with the fill's price, brokerage and dates (holdings and cash move), and the trade
  recommendation it carried out becomes executed (no longer pending for the next calculation).
- `reject`: the broker refused the order: it goes to Error (its re-creation flow is the asset
  transactions panel's); the recommendation is approved and unplaced again, so the next trade file
  offers it as New.
- `upload_confirmations`: the broker's execution file (CSV or Excel): every line matched to a
  placed order by account (broker account or HIN), code and side with the same quantity, all or
  none; otherwise nothing is written and each wrong line is named.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime, timezone
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select as sa_select
from sqlmodel import Session, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetTransaction, Portfolio, TradeTransaction
from app.db.types import utcnow
from app.domain import orders as order_rules
from app.domain.advice import TxStatus
from app.domain.errors import NotFound, ValidationError, not_found
from app.domain.ledger import NOT_ENOUGH_ASSETS
from app.domain.money import to_cents
from app.domain.permissions import Actor, require_staff
from app.domain.uploads import MAX_UPLOAD_BYTES, LineError, checked_upload  # noqa: F401  (the upload's limit)
from app.domain.transactions import ASSET_PANEL_LABELS, Status, cash_amount
from app.services import audit, postings
from app.services.tenancy import as_id, readable_portfolios
from app.services.trade_file import report_firm

ORDER_NOT_FOUND = not_found("Order")
PAGE_SIZE = 100


@dataclass
class OrderRow:
    id: int
    investment_id: int
    investment_name: str
    account: str
    asset_code: str
    side: str
    quantity: Decimal
    price: Decimal | None
    limit_price: Decimal | None
    fee: Decimal | None
    amount: Decimal | None
    status: str
    status_label: str
    order_type: str
    placed_at: datetime
    expires_at: datetime | None
    trade_at: datetime
    settlement_at: datetime | None
    recommendation_id: int | None
    reason: str | None


def _row(t: AssetTransaction, p: Portfolio, code: str) -> OrderRow:
    payload = json.loads(t.payload) if t.payload else {}
    return OrderRow(
        id=t.id, investment_id=p.id, investment_name=p.name, account=p.broker_account or p.hin or "",
        asset_code=code, side="BUY" if t.action == "buy" else "SELL", quantity=t.quantity or Decimal(0),
        price=t.price, limit_price=t.limit_price, fee=t.fee, amount=t.amount, status=t.status,
        status_label=ASSET_PANEL_LABELS[Status(t.status)], order_type=str(payload.get("order_type") or "market"),
        placed_at=t.created_at, expires_at=t.expires_at, trade_at=t.trade_at, settlement_at=t.settlement_at,
        recommendation_id=t.trade_transaction_id, reason=payload.get("rejection"))


STATUS_FILTERS = {"placed": Status.PROCESSING.value, "executed": Status.EXECUTED.value,
                  "error": Status.PROCESSING_ERROR.value}


def list_orders(*, actor: Actor, firm_id: Any = None, status: Any = "placed", limit: Any = None,
                offset: Any = None) -> tuple[list[OrderRow], int]:
    """The firm's broker orders in one status (placed by default; 'all' for every status)."""
    require_staff(actor)
    limit_ = min(max(as_id(limit) or PAGE_SIZE, 1), 500)
    offset_ = max(int(offset) if str(offset or "").isdigit() else 0, 0)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        clause = [AssetTransaction.trade_transaction_id.is_not(None), readable_portfolios(actor, fid)]
        wanted = STATUS_FILTERS.get(str(status or "placed"))
        if wanted:
            clause.append(AssetTransaction.status == wanted)
        base = (select(AssetTransaction, Portfolio, Asset.code)
                .join(Portfolio, Portfolio.id == AssetTransaction.investment_id)
                .join(Asset, Asset.id == AssetTransaction.asset_id).where(*clause))
        total = s.execute(sa_select(func.count()).select_from(
            sa_select(AssetTransaction.id).join(Portfolio, Portfolio.id == AssetTransaction.investment_id)
            .where(*clause).subquery())).scalar_one()
        rows = s.exec(base.order_by(AssetTransaction.created_at.desc(), AssetTransaction.id.desc())
                      .limit(limit_).offset(offset_)).all()
        return [_row(t, p, code) for t, p, code in rows], int(total)


def _placed(s: Session, actor: Actor, order_id: Any) -> tuple[AssetTransaction, Portfolio]:
    oid = as_id(order_id)
    found = s.exec(select(AssetTransaction, Portfolio).join(Portfolio, Portfolio.id == AssetTransaction.investment_id)
                   .where(AssetTransaction.id == (oid or 0), AssetTransaction.trade_transaction_id.is_not(None),
                          readable_portfolios(actor)).with_for_update()).first()
    if found is None:
        raise NotFound(ORDER_NOT_FOUND)
    t, p = found
    if t.status != Status.PROCESSING.value:
        raise ValidationError(order_rules.ORDER_NOT_PLACED)
    return t, p


def _fill(s: Session, t: AssetTransaction, *, quantity: Decimal, price: Decimal, fee: Decimal,
          trade_at: datetime, settlement_at: datetime | None, contract_note: str | None, actor_id: int) -> None:
    if t.action == "sell":
        portfolio = s.get(Portfolio, t.investment_id)
        held = postings.position(s, portfolio, t.asset_id).units
        if quantity > held:
            raise ValidationError(NOT_ENOUGH_ASSETS, {"quantity": NOT_ENOUGH_ASSETS})
    t.quantity, t.price, t.fee = quantity, price, to_cents(fee)
    t.amount = cash_amount(t.type, quantity=quantity, price=price, fee=t.fee, gst=t.gst)
    t.trade_at, t.settlement_at = trade_at, settlement_at
    t.status, t.om_status = Status.EXECUTED.value, "success"
    if contract_note:
        t.contract_note = contract_note[:80]
    t.updated_by, t.updated_at = actor_id, utcnow()
    s.add(t)
    postings.sync_cash(s, t)
    rec = s.get(TradeTransaction, t.trade_transaction_id) if t.trade_transaction_id else None
    if rec is not None:
        rec.status, rec.updated_at = TxStatus.EXECUTED.value, utcnow()
        s.add(rec)
    s.flush()


def _amount(value: Any, label: str, *, allow_zero: bool = False) -> Decimal:
    try:
        number = Decimal(str(value).replace("$", "").replace(",", "").strip())
    except (ArithmeticError, ValueError):
        raise ValidationError(f"Invalid {label}", {label: "invalid"}) from None
    if not number.is_finite() or number < 0 or (number == 0 and not allow_zero):
        raise ValidationError(f"Invalid {label}", {label: "invalid"})
    return number


def _day(value: Any, label: str, *, required: bool) -> datetime | None:
    if value in (None, ""):
        if required:
            raise ValidationError(f"Invalid {label}", {label: "required"})
        return None
    day = value if isinstance(value, date) else order_rules.parse_day(str(value)[:10])
    if day is None:
        raise ValidationError(f"Invalid {label}", {label: "invalid"})
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def execute(*, actor: Actor, order_id: Any, price: Any, fee: Any = None, quantity: Any = None,
            trade_date: Any = None, settlement_date: Any = None, contract_note: Any = None) -> OrderRow:
    """Records that a placed order was filled (the whole quantity, at `price`)."""
    require_staff(actor)
    with session_scope() as s:
        t, p = _placed(s, actor, order_id)
        units = t.quantity if quantity in (None, "") else _amount(quantity, "quantity")
        if units != t.quantity:
            raise ValidationError(f"The quantity must be the placed order's {t.quantity.normalize():f}",
                                  {"quantity": "mismatch"})
        trade_at = _day(trade_date, "trade date", required=False) or utcnow()
        settlement_at = _day(settlement_date, "settlement date", required=False)
        if settlement_at and settlement_at.date() < trade_at.date():
            raise ValidationError("The settlement date is before the trade date", {"settlement_date": "invalid"})
        _fill(s, t, quantity=units, price=_amount(price, "price"),
              fee=_amount(fee, "brokerage", allow_zero=True) if fee not in (None, "") else (t.fee or Decimal(0)),
              trade_at=trade_at, settlement_at=settlement_at,
              contract_note=str(contract_note).strip() if contract_note else None, actor_id=actor.id)
        code = s.get(Asset, t.asset_id).code
        audit.record(s, actor, "order.executed", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"order": t.order_id or t.id, "side": t.action, "code": code, "quantity": units,
                            "price": t.price})
        return _row(t, p, code)


def reject(*, actor: Actor, order_id: Any, reason: Any = None) -> OrderRow:
    """The broker refused the order: Error, and the recommendation can be exported again."""
    require_staff(actor)
    with session_scope() as s:
        t, p = _placed(s, actor, order_id)
        payload = json.loads(t.payload) if t.payload else {}
        payload["rejection"] = (str(reason).strip()[:300] if reason else None) or "Rejected by the broker"
        t.payload = json.dumps(payload)
        t.status, t.om_status, t.updated_by, t.updated_at = Status.PROCESSING_ERROR.value, "error", actor.id, utcnow()
        s.add(t)
        postings.sync_cash(s, t)
        s.flush()
        code = s.get(Asset, t.asset_id).code
        audit.record(s, actor, "order.rejected", "portfolio", p.id, label=p.name, firm_id=p.firm_id,
                     after={"order": t.order_id or t.id, "side": t.action, "code": code, "quantity": t.quantity,
                            "reason": payload["rejection"]})
        return _row(t, p, code)


def upload_confirmations(*, actor: Actor, content_type: str | None, data: bytes | None,
                         firm_id: Any = None) -> dict[str, Any]:
    """Executes every placed order the broker's execution file confirms, or none."""
    require_staff(actor)
    lines, errors = checked_upload(content_type, data or None, order_rules.parse_confirmations)
    with session_scope() as s:
        fid = report_firm(s, actor, firm_id)
        clause = [AssetTransaction.trade_transaction_id.is_not(None), AssetTransaction.status == Status.PROCESSING.value,
                  readable_portfolios(actor, fid)]
        live = s.exec(select(AssetTransaction, Portfolio, Asset.code)
                      .join(Portfolio, Portfolio.id == AssetTransaction.investment_id)
                      .join(Asset, Asset.id == AssetTransaction.asset_id).where(*clause)
                      .order_by(AssetTransaction.id).with_for_update(of=AssetTransaction)).all()
        used: set[int] = set()
        matches: list[tuple[order_rules.Confirmation, AssetTransaction]] = []
        for c in lines:
            side = "buy" if c.side == "BUY" else "sell"
            candidates = [(t, p) for t, p, code in live if code == c.code and t.action == side and t.id not in used
                          and c.account in {p.broker_account or "", p.hin or ""} - {""}]
            if c.reference:
                by_ref = [(t, p) for t, p in candidates if t.order_id == c.reference]
                candidates = by_ref or candidates
            if not candidates:
                errors.append(LineError(c.line, f"no placed order for {c.side} {c.code} in account {c.account}"))
                continue
            same = [(t, p) for t, p in candidates if t.quantity == c.quantity]
            if not same:
                placed = ", ".join(f"{t.quantity.normalize():f}" for t, _ in candidates)
                errors.append(LineError(c.line, f"quantity {c.quantity.normalize():f} does not match the placed "
                                                f"order ({placed})"))
                continue
            t, _ = same[0]
            used.add(t.id)
            matches.append((c, t))
        if errors:
            message, fields = order_rules.not_uploaded(errors)
            raise ValidationError(message, fields)
        for c, t in matches:
            _fill(s, t, quantity=c.quantity, price=c.price, fee=c.brokerage, trade_at=c.trade_at,
                  settlement_at=c.settlement_at, contract_note=c.reference or None, actor_id=actor.id)
        audit.record(s, actor, "broker_confirmations.uploaded", "broker_file", None, firm_id=fid,
                     label=f"{len(matches)} orders executed", after={"orders": len(matches)})
        return {"notice": order_rules.CONFIRMATIONS_UPLOADED, "count": len(matches)}
