"""Term deposits and at-call accounts of a portfolio (spec 002 s3, s4, s5, s7): list, read with
transactions, buy, sell, interest accrual, at-call deposit, term deposit interest, editing, the AMM
view and reprocess. (The institutions picker reads app.services.reference_data.list_institutions.)

Permissions (app.services.tenancy): a deposit is visible to whoever sees its portfolio
(staff of the firm, its holders, the superuser) and not found for anyone else; every change is for
staff. Each write is one database transaction that takes the portfolio's row lock first, so two
redemptions of one deposit queue up rather than both passing the balance check; a refused write
leaves nothing behind. Every movement is posted through app.services.postings.record (the asset
transaction with deposit_id and its linked cash transaction together); balances are
postings.deposit_balances (executed rows only). The rules themselves are app.domain.deposits.
"""
from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable, Mapping

from sqlmodel import Session, col, func, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, Deposit, Institution, Portfolio
from app.db.types import utcnow
from app.domain.timezones import day_text, iso_json
from app.domain import deposits as rules
from app.domain import validators as v
from app.domain.errors import NotFound, ValidationError
from app.domain.money import cents_json
from app.domain.parsing import as_bool
from app.domain.permissions import Actor, is_staff
from app.domain.transactions import (
    ASSET_PANEL_LABELS, EFFECTS, KIND_LABELS, Kind, Status,
)
from app.services import listing, postings
from app.services.tenancy import as_id, load_portfolio, load_portfolio_row, readable_portfolios

ZERO = Decimal(0)


# ---- shapes --------------------------------------------------------------------------------------
def _rate(value: Decimal | None) -> str | None:
    return None if value is None else format(Decimal(value).quantize(rules.RATE_PLACES), "f")


def _payload(row: AssetTransaction) -> dict[str, Any]:
    try:
        found = json.loads(row.payload) if row.payload else {}
    except ValueError:
        found = {}
    return found if isinstance(found, dict) else {}


def deposit_shape(dep: Deposit, *, balance: Decimal = ZERO, institution: Institution | None = None) -> dict[str, Any]:
    """A deposit as the REST calls and the modals read it (the spec's field names)."""
    return {
        "id": dep.id,
        "investment_id": dep.investment_id,
        "ProviderProductType": dep.product_type,
        "ProviderName": dep.provider_name,
        "ProviderType": dep.provider_type,
        "ProviderID": dep.provider_id,
        "FacilityID": dep.facility_id,
        "AccountNumber": dep.account_number,
        "DealID": dep.deal_id,
        "StartDate": iso_json(dep.start_date),
        "MaturityDate": iso_json(dep.maturity_date),
        "MaturityTerm": dep.maturity_term,
        "Rate": _rate(dep.rate),
        "AutoMatured": bool(dep.auto_matured),
        "DealStatus": dep.deal_status,
        "TransactionType": rules.DEBIT,
        "institution_id": dep.institution_id,
        "institution": {"id": institution.id, "title": institution.title} if institution is not None else None,
        "name": rules.deposit_name(dep.provider_name, dep.product_type, dep.maturity_term, dep.maturity_date, dep.rate),
        "short_name": rules.short_name(dep.provider_name, dep.product_type, dep.rate),
        "code": rules.asset_code(dep.product_type, dep.deal_id),
        "balance": cents_json(balance),
        "closed": dep.closed_at is not None,
        "closed_at": iso_json(dep.closed_at),
        "created_at": iso_json(dep.created_at),
    }


def transaction_shape(row: AssetTransaction, *, staff: bool = False) -> dict[str, Any]:
    kind = Kind(row.type)
    status = Status(row.status)
    payload = _payload(row)
    return {
        "id": row.id,
        "deposit_id": row.deposit_id,
        "investment_id": row.investment_id,
        "type": kind.value,
        "type_label": KIND_LABELS[kind],
        "form": rules.KIND_FORM[kind].value,
        "action": row.action,
        "status": status.value,
        "status_label": ASSET_PANEL_LABELS[status],
        "amount": cents_json(row.amount),
        "trade_at": iso_json(row.trade_at),
        "date": iso_json(rules.trade_day(row.trade_at)),
        "amm_type": rules.amm_type(kind),
        "TransactionType": payload.get("TransactionType") or rules.transaction_type(kind),
        "description": payload.get("comment"),
        "payload": payload,
        "om_status": row.om_status,
        "can_reprocess": staff and rules.can_reprocess(row.status),
        "can_edit": staff and row.status in rules.EDITABLE_STATUSES and row.om_status != "success",
    }


# ---- loading -------------------------------------------------------------------------------------
def _load(s: Session, actor: Actor, deposit_id: Any, *, for_edit: bool = False,
          lock: bool = False) -> tuple[Deposit, Portfolio]:
    """The deposit and its portfolio if the actor may see it (NotFound otherwise); for_edit refuses
    clients (403); lock takes the portfolio's row lock before the deposit is (re)read."""
    dep, portfolio = load_portfolio_row(s, actor, Deposit, deposit_id, rules.DEPOSIT_NOT_FOUND,
                                        for_edit=for_edit, lock=lock)
    if lock:
        s.refresh(dep)
    return dep, portfolio


def _same_portfolio(data: Mapping[str, Any], portfolio: Portfolio, dep: Deposit | None = None) -> None:
    """A body naming another portfolio (investment_id) or deposit (deposit_id) than the path's is
    refused as not found: nothing is done to a record the caller did not mean."""
    named = data.get("investment_id")
    if not v.is_empty(named) and as_id(named) != portfolio.id:
        raise NotFound(rules.DEPOSIT_NOT_FOUND)
    named = data.get("deposit_id")
    if dep is not None and not v.is_empty(named) and as_id(named) != dep.id:
        raise NotFound(rules.DEPOSIT_NOT_FOUND)


def _balance(s: Session, dep: Deposit) -> Decimal:
    return postings.deposit_balances(s, [dep.investment_id])[dep.investment_id].get(dep.id, ZERO)


def _institutions_by_id(s: Session, ids: Iterable[int | None]) -> dict[int, Institution]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {i.id: i for i in s.exec(select(Institution).where(col(Institution.id).in_(wanted))).all()}


def _transactions(s: Session, dep: Deposit) -> list[AssetTransaction]:
    return list(s.exec(select(AssetTransaction).where(AssetTransaction.deposit_id == dep.id)
                       .order_by(AssetTransaction.trade_at, AssetTransaction.id)).all())


def _refresh_closed(s: Session, dep: Deposit) -> None:
    """A term deposit redeemed down to zero is closed; one with money in it again is reopened."""
    balance = _balance(s, dep)
    redeemed = s.exec(select(AssetTransaction.id).where(
        AssetTransaction.deposit_id == dep.id, col(AssetTransaction.type).in_([k.value for k in rules.SELL_KINDS]),
        AssetTransaction.status == Status.EXECUTED.value)).first() is not None
    closed = rules.closes(dep.product_type, balance, redeemed)
    if closed and dep.closed_at is None:
        dep.closed_at = utcnow()
    elif not closed and dep.closed_at is not None:
        dep.closed_at = None
    dep.updated_at = utcnow()
    s.add(dep)
    s.flush()


def _refuse(errors: Mapping[str, str]) -> None:
    if errors:
        raise ValidationError(rules.failure_message(errors), dict(errors))


# ---- reading -------------------------------------------------------------------------------------
def _parse_where(where: Any) -> dict[str, Any]:
    if where in (None, ""):
        return {}
    if isinstance(where, str):
        try:
            where = json.loads(where)
        except ValueError:
            raise ValidationError(v.DEFAULT, {"where": v.DEFAULT}) from None
    if not isinstance(where, dict):
        raise ValidationError(v.DEFAULT, {"where": v.DEFAULT})
    return where


def list_deposits(*, actor: Actor, where: Any = None, limit: Any = None, offset: Any = None) -> tuple[list[dict[str, Any]], int]:
    """getDeposits (spec s7): the deposits the actor can see, filtered by `where` (a JSON object
    or dict) on investment_id and ProviderProductType (one name or a list), and `closed` (true or
    false). Newest start first."""
    filters = _parse_where(where)
    lim, off = listing.page(limit, offset)
    with session_scope() as s:
        statement = select(Deposit)
        if not v.is_empty(filters.get("investment_id")):
            portfolio = load_portfolio(s, actor, filters.get("investment_id"))
            statement = statement.where(Deposit.investment_id == portfolio.id)
        else:
            statement = statement.join(Portfolio, Portfolio.id == Deposit.investment_id).where(readable_portfolios(actor))
        product = filters.get("ProviderProductType")
        if not v.is_empty(product):
            products = product if isinstance(product, list) else [product]
            statement = statement.where(col(Deposit.product_type).in_([str(p) for p in products]))
        if "closed" in filters and filters["closed"] not in (None, ""):
            closed = as_bool(filters["closed"])
            statement = statement.where(Deposit.closed_at.is_not(None) if closed else Deposit.closed_at.is_(None))
        total = s.exec(select(func.count()).select_from(statement.subquery())).one()
        page_rows = list(s.exec(statement.order_by(Deposit.start_date.desc(), Deposit.id.desc())
                                .offset(off).limit(lim)).all())
        balances = postings.deposit_balances(s, {d.investment_id for d in page_rows})
        institutions = _institutions_by_id(s, (d.institution_id for d in page_rows))
        rows = [deposit_shape(d, balance=balances.get(d.investment_id, {}).get(d.id, ZERO),
                              institution=institutions.get(d.institution_id)) for d in page_rows]
        return rows, int(total)


def get_deposit(*, actor: Actor, deposit_id: Any) -> dict[str, Any]:
    """One deposit with its transactions (oldest first)."""
    staff = is_staff(actor)
    with session_scope() as s:
        dep, _ = _load(s, actor, deposit_id)
        institution = s.get(Institution, dep.institution_id) if dep.institution_id else None
        shape = deposit_shape(dep, balance=_balance(s, dep), institution=institution)
        shape["transactions"] = [transaction_shape(row, staff=staff) for row in _transactions(s, dep)]
        shape["can_edit"] = staff
        return shape


def amm_transactions(*, actor: Actor, deposit_id: Any) -> dict[str, Any]:
    """The term deposit AMM modal: the deposit and its transactions as AMM instructions (type,
    status, whether reprocess is allowed)."""
    return get_deposit(actor=actor, deposit_id=deposit_id)


def overview(*, actor: Actor, portfolio_id: Any) -> dict[str, Any]:
    """What the deposits screen of a portfolio shows: its name, its deposits with balances, which
    forms are enabled (spec s4) and whether the actor may change anything."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        found = list(s.exec(select(Deposit).where(Deposit.investment_id == portfolio.id)
                            .order_by(Deposit.start_date.desc(), Deposit.id.desc())).all())
        balances = postings.deposit_balances(s, [portfolio.id])[portfolio.id]
        institutions = _institutions_by_id(s, (d.institution_id for d in found))
        enabled = rules.enabled_forms((d.product_type, d.closed_at is None) for d in found)
        return {
            "portfolio": {"id": portfolio.id, "name": portfolio.name},
            "can_edit": is_staff(actor),
            "enabled": {f.value: enabled.allows(f) for f in rules.Form},
            "deposits": [deposit_shape(d, balance=balances.get(d.id, ZERO), institution=institutions.get(d.institution_id))
                         for d in found],
            "cash_balance": cents_json(postings.cash_balance(s, portfolio.id)),
        }


def _offers(institution: Institution) -> list[str]:
    """The product types an institution offers (its comma-separated list; the picker's list is
    app.services.reference_data.list_institutions)."""
    return [p.strip() for p in (institution.product_types or "").split(",") if p.strip()]


# ---- writing -------------------------------------------------------------------------------------
def _record(s: Session, actor: Actor, portfolio: Portfolio, dep: Deposit, kind: Kind, day, amount: Decimal,
            description: str | None, extra: dict[str, Any] | None = None) -> AssetTransaction:
    payload: dict[str, Any] = {"TransactionType": rules.transaction_type(kind)}
    if description:
        payload["comment"] = description
    payload.update(extra or {})
    name = rules.deposit_name(dep.provider_name, dep.product_type, dep.maturity_term, dep.maturity_date, dep.rate)
    row, _ = postings.record(
        s, actor_id=actor.id, portfolio=portfolio, kind=kind.value, status=Status.EXECUTED.value,
        trade_at=rules.trade_instant(day), deposit_id=dep.id, amount=amount, payload=payload,
        description=description or f"{KIND_LABELS[kind]}: {name}",
    )
    return row


def _deal_id_taken(s: Session, portfolio_id: int, deal_id: str, exclude: int | None = None) -> bool:
    statement = select(Deposit.id).where(Deposit.investment_id == portfolio_id, Deposit.deal_id == deal_id)
    if exclude is not None:
        statement = statement.where(Deposit.id != exclude)
    return s.exec(statement).first() is not None


def _result(s: Session, dep: Deposit, row: AssetTransaction, message: str) -> dict[str, Any]:
    institution = s.get(Institution, dep.institution_id) if dep.institution_id else None
    return {"message": message, "deposit": deposit_shape(dep, balance=_balance(s, dep), institution=institution),
            "transaction": transaction_shape(row, staff=True)}


def buy(*, actor: Actor, data: Mapping[str, Any]) -> dict[str, Any]:
    """Buy form: a new term deposit or at-call account (the Deposit row) and its placement (td_buy
    or aca_buy, executed), which takes the amount out of the cash account."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, data.get("investment_id"), for_edit=True, lock=True)
        institution_id = as_id(data.get("institution_id"))
        institution = s.get(Institution, institution_id) if institution_id else None
        facts = (institution.title, institution.provider_type, _offers(institution)) if institution else None
        form, errors = rules.clean_buy(data, institution=facts)
        if form is not None and form.deal_id and _deal_id_taken(s, portfolio.id, form.deal_id):
            errors.check("DealID", rules.DEAL_ID_UNIQUE)
        _refuse(errors)
        now = utcnow()
        dep = Deposit(
            investment_id=portfolio.id, product_type=form.product_type, institution_id=form.institution_id,
            provider_name=form.provider_name, provider_type=form.provider_type, provider_id=form.provider_id,
            facility_id=form.facility_id, account_number=form.account_number, deal_id=form.deal_id or "-",
            start_date=form.start_date, maturity_date=form.maturity_date, maturity_term=form.maturity_term,
            rate=form.rate, auto_matured=form.auto_matured, deal_status=rules.initial_deal_status(form.rate),
            created_at=now, updated_at=now,
        )
        s.add(dep)
        s.flush()
        if not form.deal_id:  # the deposit's own number, made unique within the portfolio
            candidate, n = f"{dep.id:06d}", 1
            while _deal_id_taken(s, portfolio.id, candidate, exclude=dep.id):
                n += 1
                candidate = f"{dep.id:06d}-{n}"
            dep.deal_id = candidate
            s.add(dep)
            s.flush()
        extra = {"CutOffTime": form.cut_off_time} if form.cut_off_time else None
        row = _record(s, actor, portfolio, dep, rules.buy_kind(form.product_type), form.start_date, form.amount,
                      form.description, extra)
        return _result(s, dep, row, rules.ADDED)


def _facts(s: Session, dep: Deposit, *, without: AssetTransaction | None = None, closed: bool | None = None) -> rules.DepositFacts:
    balance = _balance(s, dep)
    if without is not None and without.status == Status.EXECUTED.value:
        balance -= EFFECTS[Kind(without.type)].deposit * (without.amount or ZERO)
    return rules.DepositFacts(product_type=dep.product_type, start_date=dep.start_date,
                              closed=(dep.closed_at is not None) if closed is None else closed, balance=balance)


def _move(actor: Actor, deposit_id: Any, form_type: rules.Form, data: Mapping[str, Any]) -> dict[str, Any]:
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(data, portfolio, dep)
        facts = _facts(s, dep)
        if form_type is rules.Form.INCOME:  # interest may be paid after a term deposit was redeemed
            facts = rules.DepositFacts(facts.product_type, facts.start_date, False, facts.balance)
        form, errors = rules.clean_move(form_type, data, facts)
        _refuse(errors)
        row = _record(s, actor, portfolio, dep, form.kind, form.day, form.amount, form.description)
        _refresh_closed(s, dep)
        return _result(s, dep, row, rules.ADDED)


def sell(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Sell form: a redemption (td_sell) or withdrawal (aca_sell) back to the cash account, not more
    than the deposit's balance; a term deposit redeemed in full is closed."""
    return _move(actor, deposit_id, rules.Form.SELL, data)


def interest_accrual(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Interest Accrual form: interest credited into an at-call account (aca_income; no cash moves)."""
    return _move(actor, deposit_id, rules.Form.INTEREST_ACCRUAL, data)


def at_call_deposit(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Deposit form: more money into an at-call account from the cash account (aca_deposit)."""
    return _move(actor, deposit_id, rules.Form.DEPOSIT, data)


def income(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """Interest Payment: a term deposit's interest paid to the cash account (td_income)."""
    return _move(actor, deposit_id, rules.Form.INCOME, data)


def _buy_row(s: Session, dep: Deposit) -> AssetTransaction | None:
    return s.exec(select(AssetTransaction).where(
        AssetTransaction.deposit_id == dep.id, col(AssetTransaction.type).in_([k.value for k in rules.BUY_KINDS]))
        .order_by(AssetTransaction.id)).first()


def _check_editable(row: AssetTransaction) -> None:
    if row.status not in rules.EDITABLE_STATUSES or row.om_status == "success":
        label = ASSET_PANEL_LABELS[Status(row.status)].lower()
        raise ValidationError(rules.NOT_EDITABLE.format(status=label))


def update_deposit(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """The buy form editing a deposit: its dates, term, rate, AutoMatured, deal status and the
    placement's amount. The provider identity fields are fixed once the deposit exists."""
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(data, portfolio)
        return _update_deposit(s, actor, dep, data)


def _update_deposit(s: Session, actor: Actor, dep: Deposit, data: Mapping[str, Any]) -> dict[str, Any]:
    buy_row = _buy_row(s, dep)
    if buy_row is not None:
        _check_editable(buy_row)
    merged = {**data, "ProviderName": dep.provider_name, "ProviderType": dep.provider_type,
              "ProviderID": dep.provider_id, "FacilityID": dep.facility_id, "AccountNumber": dep.account_number,
              "DealID": dep.deal_id, "institution_id": None}
    if v.is_empty(merged.get("amount")) and buy_row is not None:
        merged["amount"] = buy_row.amount
    form, errors = rules.clean_buy(merged, edit_product_type=dep.product_type)
    status = dep.deal_status
    if form is not None:
        others = [rules.trade_day(r.trade_at) for r in _transactions(s, dep) if buy_row is None or r.id != buy_row.id]
        first = min(others) if others else None
        if first is not None and form.start_date > first:
            errors.check("StartDate", rules.START_AFTER_TRANSACTIONS.format(day=day_text(first)))
        facts = _facts(s, dep, without=buy_row)
        if buy_row is not None and buy_row.status == Status.EXECUTED.value and facts.balance + form.amount < 0:
            errors.check("amount", rules.BELOW_ZERO)
        status, status_error = rules.deal_status_change(dep.deal_status, data.get("DealStatus"), form.rate)
        errors.check("DealStatus", status_error)
    _refuse(errors)
    dep.start_date, dep.maturity_date, dep.maturity_term = form.start_date, form.maturity_date, form.maturity_term
    dep.rate, dep.auto_matured, dep.deal_status = form.rate, form.auto_matured, status
    dep.updated_at = utcnow()
    s.add(dep)
    if buy_row is not None:
        payload = _payload(buy_row)
        payload["TransactionType"] = rules.transaction_type(buy_row.type)
        _set(payload, "CutOffTime", form.cut_off_time)
        _set(payload, "comment", form.description)
        buy_row.amount, buy_row.trade_at = form.amount, rules.trade_instant(form.start_date)
        _save_and_post(s, actor, buy_row, payload)
    s.flush()
    _refresh_closed(s, dep)
    if buy_row is None:
        return {"message": rules.UPDATED, "deposit": deposit_shape(dep, balance=_balance(s, dep)), "transaction": None}
    return _result(s, dep, buy_row, rules.UPDATED)


def _save_and_post(s: Session, actor: Actor, row: AssetTransaction, payload: dict[str, Any],
                   now: datetime | None = None) -> None:
    """Save a changed deposit transaction (with its `payload`, by `actor`) and bring its cash
    posting in line with it."""
    row.payload = json.dumps(payload)
    row.updated_by, row.updated_at = actor.id, now or utcnow()
    s.add(row)
    s.flush()
    postings.sync_cash(s, row)


def _set(payload: dict[str, Any], key: str, value: Any) -> None:
    if value:
        payload[key] = value
    else:
        payload.pop(key, None)


def update_transaction(*, actor: Actor, deposit_id: Any, transaction_id: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """A sell, interest accrual, at-call deposit or interest payment form in edit mode: its date,
    amount and description, under the same rules as a new one (the balance without this
    transaction); editing the placement is update_deposit."""
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(data, portfolio, dep)
        tid = as_id(transaction_id)
        row = s.get(AssetTransaction, tid) if tid is not None else None
        if row is None or row.deposit_id != dep.id:
            raise NotFound(rules.TRANSACTION_NOT_FOUND)
        kind = Kind(row.type)
        if kind in rules.BUY_KINDS:
            return _update_deposit(s, actor, dep, data)
        _check_editable(row)
        form_type = rules.KIND_FORM[kind]
        facts = _facts(s, dep, without=row, closed=False)
        form, errors = rules.clean_move(form_type, data, facts)
        if form is not None and row.status == Status.EXECUTED.value:
            after = facts.balance + EFFECTS[kind].deposit * form.amount
            if after < 0:
                errors.check("amount", rules.BELOW_ZERO)
        _refuse(errors)
        payload = _payload(row)
        payload["TransactionType"] = rules.transaction_type(kind)
        _set(payload, "comment", form.description)
        row.amount, row.trade_at = form.amount, rules.trade_instant(form.day)
        _save_and_post(s, actor, row, payload)
        s.flush()
        _refresh_closed(s, dep)
        return _result(s, dep, row, rules.UPDATED)


def reprocess(*, actor: Actor, deposit_id: Any, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Reprocess AMM transaction (spec s7; the body is the deposit's data, optionally with
    transaction_id): the deposit's transactions in error or still pending (or the one named) go
    back to processing, and a deal that is not Live back to 'Pending – AMM to Process'."""
    data = data or {}
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(data, portfolio)
        named = data.get("id")
        if not v.is_empty(named) and as_id(named) != dep.id:
            raise NotFound(rules.DEPOSIT_NOT_FOUND)
        rows = _transactions(s, dep)
        tid = data.get("transaction_id")
        if not v.is_empty(tid):
            rows = [r for r in rows if r.id == as_id(tid)]
            if not rows:
                raise NotFound(rules.TRANSACTION_NOT_FOUND)
        chosen = [r for r in rows if rules.can_reprocess(r.status)]
        if not chosen:
            raise ValidationError(rules.NOTHING_TO_REPROCESS)
        now = utcnow()
        for row in chosen:
            payload = _payload(row)
            payload["reprocessed"] = {"at": now.isoformat(), "by": actor.id, "from": row.status}
            row.status, row.om_status = Status.PROCESSING.value, None
            _save_and_post(s, actor, row, payload, now)
        dep.deal_status = rules.deal_status_after_reprocess(dep.deal_status)
        dep.updated_at = now
        s.add(dep)
        s.flush()
        _refresh_closed(s, dep)
        return {"title": rules.REPROCESS_TITLE, "message": rules.REPROCESSED,
                "deposit": deposit_shape(dep, balance=_balance(s, dep)),
                "transactions": [transaction_shape(r, staff=True) for r in chosen]}


__all__ = [
    "amm_transactions", "at_call_deposit", "buy", "deposit_shape", "get_deposit", "income",
    "interest_accrual", "list_deposits", "overview", "reprocess", "sell",
    "transaction_shape", "update_deposit", "update_transaction",
]
