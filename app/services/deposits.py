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

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Iterable, Mapping

from sqlmodel import Session, col, func, select

from app.db.engine import session_scope
from app.db.tables import AssetTransaction, Deposit, Institution, Portfolio
from app.db.types import stored_id, utcnow
from app.domain.timezones import day_text
from app.domain import deposits as rules
from app.domain import validators as v
from app.domain.deposits import DepositFilter, DepositForm
from app.domain.wire import Json, wire
from app.domain.errors import NotFound, ValidationError
from app.domain.money import to_cents
from app.domain.parsing import as_id
from app.domain.permissions import Actor, is_staff
from app.domain.transactions import (
    ASSET_PANEL_LABELS, EFFECTS, KIND_LABELS, Kind, Status,
)
from app.services import listing, postings
from app.services.tenancy import load_portfolio, load_portfolio_row, readable_portfolios

ZERO = Decimal(0)




# ---- what the service answers ----------------------------------------------------------------------
@dataclass(frozen=True)
class InstitutionRef:
    id: int
    title: str


@dataclass(frozen=True)
class DepositView:
    """A deposit as the REST calls, the list and the modals read it: money to the cent, the rate to
    four places, days and instants as such."""
    id: int
    investment_id: int
    product_type: str = field(metadata=wire("ProviderProductType"))
    provider_name: str = field(metadata=wire("ProviderName"))
    provider_type: str | None = field(metadata=wire("ProviderType"))
    provider_id: str | None = field(metadata=wire("ProviderID"))
    facility_id: str | None = field(metadata=wire("FacilityID"))
    account_number: str | None = field(metadata=wire("AccountNumber"))
    deal_id: str = field(metadata=wire("DealID"))
    start_date: date = field(metadata=wire("StartDate"))
    maturity_date: date | None = field(metadata=wire("MaturityDate"))
    maturity_term: int | None = field(metadata=wire("MaturityTerm"))
    rate: Decimal | None = field(metadata=wire("Rate"))
    auto_matured: bool = field(metadata=wire("AutoMatured"))
    deal_status: str = field(metadata=wire("DealStatus"))
    transaction_type: str = field(metadata=wire("TransactionType"))
    institution_id: int | None
    institution: InstitutionRef | None
    name: str
    short_name: str
    code: str
    balance: Decimal
    closed: bool
    closed_at: datetime | None
    created_at: datetime | None


@dataclass(frozen=True)
class DepositTransactionView:
    """A deposit's transaction (an AMM instruction): its kind, status and amount, and what the
    reader may do with it."""
    id: int
    deposit_id: int | None
    investment_id: int
    type: str
    type_label: str
    form: str
    action: str | None
    status: str
    status_label: str
    amount: Decimal | None
    trade_at: datetime | None
    date: date | None
    amm_type: str
    transaction_type: str = field(metadata=wire("TransactionType"))
    description: str | None
    payload: dict[str, Json]
    om_status: str | None
    can_reprocess: bool
    can_edit: bool

    @property
    def cut_off_time(self) -> str:
        found = self.payload.get("CutOffTime")
        return found if isinstance(found, str) else ""


@dataclass(frozen=True)
class DepositDetail(DepositView):
    """One deposit with its transactions (oldest first) and whether the reader may change it."""
    transactions: tuple[DepositTransactionView, ...]
    can_edit: bool


@dataclass(frozen=True)
class DepositPage:
    """A page of getDeposits and the count of all that match."""
    rows: tuple[DepositView, ...]
    total: int


@dataclass(frozen=True)
class PortfolioRef:
    id: int
    name: str


@dataclass(frozen=True)
class DepositsOverview:
    """What the deposits screen of a portfolio shows."""
    portfolio: PortfolioRef
    can_edit: bool
    enabled: dict[str, bool]  # form value -> offered (spec s4)
    deposits: tuple[DepositView, ...]
    cash_balance: Decimal


@dataclass(frozen=True)
class DepositWrite:
    """A write's answer: its toast, the deposit after it and the transaction written (None when a
    deposit without a placement was edited)."""
    message: str
    deposit: DepositView
    transaction: DepositTransactionView | None


@dataclass(frozen=True)
class ReprocessOutcome:
    title: str
    message: str
    deposit: DepositView
    transactions: tuple[DepositTransactionView, ...]


# ---- shapes --------------------------------------------------------------------------------------
def _rate(value: Decimal | None) -> Decimal | None:
    return None if value is None else Decimal(value).quantize(rules.RATE_PLACES)


def _cents(value: Decimal | None) -> Decimal | None:
    return None if value is None else to_cents(value)


def _payload(row: AssetTransaction) -> dict[str, Json]:
    try:
        found = json.loads(row.payload) if row.payload else {}
    except ValueError:
        found = {}
    return found if isinstance(found, dict) else {}


def deposit_shape(dep: Deposit, *, balance: Decimal = ZERO, institution: Institution | None = None) -> DepositView:
    """A deposit as the REST calls and the modals read it."""
    return DepositView(
        id=stored_id(dep), investment_id=dep.investment_id, product_type=dep.product_type,
        provider_name=dep.provider_name, provider_type=dep.provider_type, provider_id=dep.provider_id,
        facility_id=dep.facility_id, account_number=dep.account_number, deal_id=dep.deal_id,
        start_date=dep.start_date, maturity_date=dep.maturity_date, maturity_term=dep.maturity_term,
        rate=_rate(dep.rate), auto_matured=bool(dep.auto_matured), deal_status=dep.deal_status,
        transaction_type=rules.DEBIT, institution_id=dep.institution_id,
        institution=InstitutionRef(id=stored_id(institution), title=institution.title) if institution is not None else None,
        name=rules.deposit_name(dep.provider_name, dep.product_type, dep.maturity_term, dep.maturity_date, dep.rate),
        short_name=rules.short_name(dep.provider_name, dep.product_type, dep.rate),
        code=rules.asset_code(dep.product_type, dep.deal_id),
        balance=to_cents(balance), closed=dep.closed_at is not None, closed_at=dep.closed_at,
        created_at=dep.created_at,
    )


def transaction_shape(row: AssetTransaction, *, staff: bool = False) -> DepositTransactionView:
    kind = Kind(row.type)
    status = Status(row.status)
    payload = _payload(row)
    sent_type = payload.get("TransactionType")
    comment = payload.get("comment")
    return DepositTransactionView(
        id=stored_id(row), deposit_id=row.deposit_id, investment_id=row.investment_id, type=kind.value,
        type_label=KIND_LABELS[kind], form=rules.KIND_FORM[kind].value, action=row.action, status=status.value,
        status_label=ASSET_PANEL_LABELS[status], amount=_cents(row.amount), trade_at=row.trade_at,
        date=rules.trade_day(row.trade_at), amm_type=rules.amm_type(kind),
        transaction_type=sent_type if isinstance(sent_type, str) and sent_type else rules.transaction_type(kind),
        description=comment if isinstance(comment, str) else None, payload=payload, om_status=row.om_status,
        can_reprocess=staff and rules.can_reprocess(row.status),
        can_edit=staff and row.status in rules.EDITABLE_STATUSES and row.om_status != "success",
    )


# ---- loading -------------------------------------------------------------------------------------
def _load(s: Session, actor: Actor, deposit_id: int, *, for_edit: bool = False,
          lock: bool = False) -> tuple[Deposit, Portfolio]:
    """The deposit and its portfolio if the actor may see it (NotFound otherwise); for_edit refuses
    clients (403); lock takes the portfolio's row lock before the deposit is (re)read."""
    dep, portfolio = load_portfolio_row(s, actor, Deposit, deposit_id, rules.DEPOSIT_NOT_FOUND,
                                        for_edit=for_edit, lock=lock)
    if lock:
        s.refresh(dep)
    return dep, portfolio


def _same_portfolio(form: DepositForm, portfolio: Portfolio, dep: Deposit | None = None) -> None:
    """A body naming another portfolio (investment_id) or deposit (deposit_id) than the path's is
    refused as not found: nothing is done to a record the caller did not mean."""
    if form.investment_id is not None and form.investment_id != portfolio.id:
        raise NotFound(rules.DEPOSIT_NOT_FOUND)
    if dep is not None and form.deposit_id is not None and form.deposit_id != dep.id:
        raise NotFound(rules.DEPOSIT_NOT_FOUND)


def _balance(s: Session, dep: Deposit) -> Decimal:
    return postings.deposit_balances(s, [dep.investment_id])[dep.investment_id].get(stored_id(dep), ZERO)


def _institutions_by_id(s: Session, ids: Iterable[int | None]) -> dict[int, Institution]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    return {stored_id(i): i for i in s.exec(select(Institution).where(col(Institution.id).in_(wanted))).all()}


def _institution(s: Session, dep: Deposit) -> Institution | None:
    return s.get(Institution, dep.institution_id) if dep.institution_id else None


def _transactions(s: Session, dep: Deposit) -> list[AssetTransaction]:
    return list(s.exec(select(AssetTransaction).where(AssetTransaction.deposit_id == dep.id)
                       .order_by(col(AssetTransaction.trade_at), col(AssetTransaction.id))).all())


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
def list_deposits(*, actor: Actor, where: DepositFilter | None = None, limit: int | None = None,
                  offset: int | None = None) -> DepositPage:
    """getDeposits (spec s7): the deposits the actor can see, filtered on the portfolio, the
    product types and whether closed (rules.read_filter reads the request's `where`). Newest
    start first."""
    filters = where or DepositFilter()
    lim, off = listing.page(limit, offset)
    with session_scope() as s:
        statement = select(Deposit)
        if filters.investment_id is not None:
            portfolio = load_portfolio(s, actor, filters.investment_id)
            statement = statement.where(Deposit.investment_id == portfolio.id)
        else:
            statement = statement.join(Portfolio, col(Portfolio.id) == col(Deposit.investment_id)).where(
                readable_portfolios(actor))
        if filters.product_types:
            statement = statement.where(col(Deposit.product_type).in_(filters.product_types))
        if filters.closed is not None:
            statement = statement.where(col(Deposit.closed_at).is_not(None) if filters.closed
                                        else col(Deposit.closed_at).is_(None))
        total = s.exec(select(func.count()).select_from(statement.subquery())).one()
        page_rows = list(s.exec(statement.order_by(col(Deposit.start_date).desc(), col(Deposit.id).desc())
                                .offset(off).limit(lim)).all())
        balances = postings.deposit_balances(s, {d.investment_id for d in page_rows})
        institutions = _institutions_by_id(s, (d.institution_id for d in page_rows))
        rows = tuple(deposit_shape(d, balance=balances.get(d.investment_id, {}).get(stored_id(d), ZERO),
                                   institution=institutions.get(d.institution_id or 0)) for d in page_rows)
        return DepositPage(rows=rows, total=int(total))


def get_deposit(*, actor: Actor, deposit_id: int) -> DepositDetail:
    """One deposit with its transactions (oldest first)."""
    staff = is_staff(actor)
    with session_scope() as s:
        dep, _ = _load(s, actor, deposit_id)
        view = deposit_shape(dep, balance=_balance(s, dep), institution=_institution(s, dep))
        return DepositDetail(**{f.name: getattr(view, f.name) for f in dataclasses.fields(view)},
                             transactions=tuple(transaction_shape(row, staff=staff) for row in _transactions(s, dep)),
                             can_edit=staff)


def amm_transactions(*, actor: Actor, deposit_id: int) -> DepositDetail:
    """The term deposit AMM modal: the deposit and its transactions as AMM instructions (type,
    status, whether reprocess is allowed)."""
    return get_deposit(actor=actor, deposit_id=deposit_id)


def overview(*, actor: Actor, portfolio_id: int) -> DepositsOverview:
    """What the deposits screen of a portfolio shows: its name, its deposits with balances, which
    forms are enabled (spec s4) and whether the actor may change anything."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, portfolio_id)
        pid = stored_id(portfolio)
        found = list(s.exec(select(Deposit).where(Deposit.investment_id == pid)
                            .order_by(col(Deposit.start_date).desc(), col(Deposit.id).desc())).all())
        balances = postings.deposit_balances(s, [pid])[pid]
        institutions = _institutions_by_id(s, (d.institution_id for d in found))
        enabled = rules.enabled_forms((d.product_type, d.closed_at is None) for d in found)
        return DepositsOverview(
            portfolio=PortfolioRef(id=pid, name=portfolio.name),
            can_edit=is_staff(actor),
            enabled={f.value: enabled.allows(f) for f in rules.Form},
            deposits=tuple(deposit_shape(d, balance=balances.get(stored_id(d), ZERO),
                                         institution=institutions.get(d.institution_id or 0)) for d in found),
            cash_balance=to_cents(postings.cash_balance(s, pid)),
        )


def _offers(institution: Institution) -> list[str]:
    """The product types an institution offers (its comma-separated list; the picker's list is
    app.services.reference_data.list_institutions)."""
    return [p.strip() for p in (institution.product_types or "").split(",") if p.strip()]


# ---- writing -------------------------------------------------------------------------------------
def _record(s: Session, actor: Actor, portfolio: Portfolio, dep: Deposit, kind: Kind, day: date, amount: Decimal,
            description: str | None, extra: dict[str, Json] | None = None) -> AssetTransaction:
    payload: dict[str, Json] = {"TransactionType": rules.transaction_type(kind)}
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


def _result(s: Session, dep: Deposit, row: AssetTransaction, message: str) -> DepositWrite:
    return DepositWrite(message=message,
                        deposit=deposit_shape(dep, balance=_balance(s, dep), institution=_institution(s, dep)),
                        transaction=transaction_shape(row, staff=True))


def buy(*, actor: Actor, form: DepositForm) -> DepositWrite:
    """Buy form: a new term deposit or at-call account (the Deposit row) and its placement (td_buy
    or aca_buy, executed), which takes the amount out of the cash account."""
    with session_scope() as s:
        portfolio = load_portfolio(s, actor, form.investment_id, for_edit=True, lock=True)
        pid = stored_id(portfolio)
        institution_id = as_id(form.institution_id)
        institution = s.get(Institution, institution_id) if institution_id else None
        facts = (institution.title, institution.provider_type, _offers(institution)) if institution else None
        cleaned, errors = rules.clean_buy(form.fields(), institution=facts)
        if cleaned is not None and cleaned.deal_id and _deal_id_taken(s, pid, cleaned.deal_id):
            errors.check("DealID", rules.DEAL_ID_UNIQUE)
        _refuse(errors)
        assert cleaned is not None  # clean_buy answers a form whenever it found no error
        now = utcnow()
        dep = Deposit(
            investment_id=pid, product_type=cleaned.product_type, institution_id=cleaned.institution_id,
            provider_name=cleaned.provider_name, provider_type=cleaned.provider_type, provider_id=cleaned.provider_id,
            facility_id=cleaned.facility_id, account_number=cleaned.account_number, deal_id=cleaned.deal_id or "-",
            start_date=cleaned.start_date, maturity_date=cleaned.maturity_date, maturity_term=cleaned.maturity_term,
            rate=cleaned.rate, auto_matured=cleaned.auto_matured, deal_status=rules.initial_deal_status(cleaned.rate),
            created_at=now, updated_at=now,
        )
        s.add(dep)
        s.flush()
        if not cleaned.deal_id:  # the deposit's own number, made unique within the portfolio
            dep_id = stored_id(dep)
            candidate, n = f"{dep_id:06d}", 1
            while _deal_id_taken(s, pid, candidate, exclude=dep_id):
                n += 1
                candidate = f"{dep_id:06d}-{n}"
            dep.deal_id = candidate
            s.add(dep)
            s.flush()
        extra: dict[str, Json] | None = {"CutOffTime": cleaned.cut_off_time} if cleaned.cut_off_time else None
        row = _record(s, actor, portfolio, dep, rules.buy_kind(cleaned.product_type), cleaned.start_date,
                      cleaned.amount, cleaned.description, extra)
        return _result(s, dep, row, rules.ADDED)


def _facts(s: Session, dep: Deposit, *, without: AssetTransaction | None = None, closed: bool | None = None) -> rules.DepositFacts:
    balance = _balance(s, dep)
    if without is not None and without.status == Status.EXECUTED.value:
        balance -= EFFECTS[Kind(without.type)].deposit * (without.amount or ZERO)
    return rules.DepositFacts(product_type=dep.product_type, start_date=dep.start_date,
                              closed=(dep.closed_at is not None) if closed is None else closed, balance=balance)


def _move(actor: Actor, deposit_id: int, form_type: rules.Form, form: DepositForm) -> DepositWrite:
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(form, portfolio, dep)
        facts = _facts(s, dep)
        if form_type is rules.Form.INCOME:  # interest may be paid after a term deposit was redeemed
            facts = rules.DepositFacts(facts.product_type, facts.start_date, False, facts.balance)
        cleaned, errors = rules.clean_move(form_type, form.fields(), facts)
        _refuse(errors)
        assert cleaned is not None  # clean_move answers a form whenever it found no error
        row = _record(s, actor, portfolio, dep, cleaned.kind, cleaned.day, cleaned.amount, cleaned.description)
        _refresh_closed(s, dep)
        return _result(s, dep, row, rules.ADDED)


def sell(*, actor: Actor, deposit_id: int, form: DepositForm) -> DepositWrite:
    """Sell form: a redemption (td_sell) or withdrawal (aca_sell) back to the cash account, not more
    than the deposit's balance; a term deposit redeemed in full is closed."""
    return _move(actor, deposit_id, rules.Form.SELL, form)


def interest_accrual(*, actor: Actor, deposit_id: int, form: DepositForm) -> DepositWrite:
    """Interest Accrual form: interest credited into an at-call account (aca_income; no cash moves)."""
    return _move(actor, deposit_id, rules.Form.INTEREST_ACCRUAL, form)


def at_call_deposit(*, actor: Actor, deposit_id: int, form: DepositForm) -> DepositWrite:
    """Deposit form: more money into an at-call account from the cash account (aca_deposit)."""
    return _move(actor, deposit_id, rules.Form.DEPOSIT, form)


def income(*, actor: Actor, deposit_id: int, form: DepositForm) -> DepositWrite:
    """Interest Payment: a term deposit's interest paid to the cash account (td_income)."""
    return _move(actor, deposit_id, rules.Form.INCOME, form)


def _buy_row(s: Session, dep: Deposit) -> AssetTransaction | None:
    return s.exec(select(AssetTransaction).where(
        AssetTransaction.deposit_id == dep.id, col(AssetTransaction.type).in_([k.value for k in rules.BUY_KINDS]))
        .order_by(col(AssetTransaction.id))).first()


def _check_editable(row: AssetTransaction) -> None:
    if row.status not in rules.EDITABLE_STATUSES or row.om_status == "success":
        label = ASSET_PANEL_LABELS[Status(row.status)].lower()
        raise ValidationError(rules.NOT_EDITABLE.format(status=label))


def update_deposit(*, actor: Actor, deposit_id: int, form: DepositForm) -> DepositWrite:
    """The buy form editing a deposit: its dates, term, rate, AutoMatured, deal status and the
    placement's amount. The provider identity fields are fixed once the deposit exists."""
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(form, portfolio)
        return _update_deposit(s, actor, dep, form)


def _update_deposit(s: Session, actor: Actor, dep: Deposit, form: DepositForm) -> DepositWrite:
    buy_row = _buy_row(s, dep)
    if buy_row is not None:
        _check_editable(buy_row)
    merged = dataclasses.replace(
        form, provider_name=dep.provider_name, provider_type=dep.provider_type, provider_id=dep.provider_id,
        facility_id=dep.facility_id, account_number=dep.account_number, deal_id=dep.deal_id, institution_id=None)
    if v.is_empty(merged.amount) and buy_row is not None:
        merged = dataclasses.replace(merged, amount=None if buy_row.amount is None else str(buy_row.amount))
    cleaned, errors = rules.clean_buy(merged.fields(), edit_product_type=dep.product_type)
    status = dep.deal_status
    if cleaned is not None:
        others = [rules.trade_day(r.trade_at) for r in _transactions(s, dep) if buy_row is None or r.id != buy_row.id]
        first = min((d for d in others if d is not None), default=None)
        if first is not None and cleaned.start_date > first:
            errors.check("StartDate", rules.START_AFTER_TRANSACTIONS.format(day=day_text(first)))
        facts = _facts(s, dep, without=buy_row)
        if buy_row is not None and buy_row.status == Status.EXECUTED.value and facts.balance + cleaned.amount < 0:
            errors.check("amount", rules.BELOW_ZERO)
        status, status_error = rules.deal_status_change(dep.deal_status, form.deal_status, cleaned.rate)
        errors.check("DealStatus", status_error)
    _refuse(errors)
    assert cleaned is not None  # clean_buy answers a form whenever it found no error
    dep.start_date, dep.maturity_date, dep.maturity_term = cleaned.start_date, cleaned.maturity_date, cleaned.maturity_term
    dep.rate, dep.auto_matured, dep.deal_status = cleaned.rate, cleaned.auto_matured, status
    dep.updated_at = utcnow()
    s.add(dep)
    if buy_row is not None:
        payload = _payload(buy_row)
        payload["TransactionType"] = rules.transaction_type(buy_row.type)
        _set(payload, "CutOffTime", cleaned.cut_off_time)
        _set(payload, "comment", cleaned.description)
        buy_row.amount, buy_row.trade_at = cleaned.amount, rules.trade_instant(cleaned.start_date)
        _save_and_post(s, actor, buy_row, payload)
    s.flush()
    _refresh_closed(s, dep)
    if buy_row is None:
        return DepositWrite(message=rules.UPDATED, deposit=deposit_shape(dep, balance=_balance(s, dep)), transaction=None)
    return _result(s, dep, buy_row, rules.UPDATED)


def _save_and_post(s: Session, actor: Actor, row: AssetTransaction, payload: dict[str, Json],
                   now: datetime | None = None) -> None:
    """Save a changed deposit transaction (with its `payload`, by `actor`) and bring its cash
    posting in line with it."""
    row.payload = json.dumps(payload)
    row.updated_by, row.updated_at = actor.id, now or utcnow()
    s.add(row)
    s.flush()
    postings.sync_cash(s, row)


def _set(payload: dict[str, Json], key: str, value: str | None) -> None:
    if value:
        payload[key] = value
    else:
        payload.pop(key, None)


def update_transaction(*, actor: Actor, deposit_id: int, transaction_id: int, form: DepositForm) -> DepositWrite:
    """A sell, interest accrual, at-call deposit or interest payment form in edit mode: its date,
    amount and description, under the same rules as a new one (the balance without this
    transaction); editing the placement is update_deposit."""
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(form, portfolio, dep)
        tid = as_id(transaction_id)
        row = s.get(AssetTransaction, tid) if tid is not None else None
        if row is None or row.deposit_id != dep.id:
            raise NotFound(rules.TRANSACTION_NOT_FOUND)
        kind = Kind(row.type)
        if kind in rules.BUY_KINDS:
            return _update_deposit(s, actor, dep, form)
        _check_editable(row)
        form_type = rules.KIND_FORM[kind]
        facts = _facts(s, dep, without=row, closed=False)
        cleaned, errors = rules.clean_move(form_type, form.fields(), facts)
        if cleaned is not None and row.status == Status.EXECUTED.value:
            after = facts.balance + EFFECTS[kind].deposit * cleaned.amount
            if after < 0:
                errors.check("amount", rules.BELOW_ZERO)
        _refuse(errors)
        assert cleaned is not None  # clean_move answers a form whenever it found no error
        payload = _payload(row)
        payload["TransactionType"] = rules.transaction_type(kind)
        _set(payload, "comment", cleaned.description)
        row.amount, row.trade_at = cleaned.amount, rules.trade_instant(cleaned.day)
        _save_and_post(s, actor, row, payload)
        s.flush()
        _refresh_closed(s, dep)
        return _result(s, dep, row, rules.UPDATED)


def reprocess(*, actor: Actor, deposit_id: int, form: DepositForm | None = None) -> ReprocessOutcome:
    """Reprocess AMM transaction (spec s7; the body is the deposit's data, optionally with
    transaction_id): the deposit's transactions in error or still pending (or the one named) go
    back to processing, and a deal that is not Live back to 'Pending – AMM to Process'."""
    form = form or DepositForm()
    with session_scope() as s:
        dep, portfolio = _load(s, actor, deposit_id, for_edit=True, lock=True)
        _same_portfolio(form, portfolio)
        if form.id is not None and form.id != dep.id:
            raise NotFound(rules.DEPOSIT_NOT_FOUND)
        rows = _transactions(s, dep)
        if form.transaction_id is not None:
            rows = [r for r in rows if r.id == form.transaction_id]
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
        return ReprocessOutcome(title=rules.REPROCESS_TITLE, message=rules.REPROCESSED,
                                deposit=deposit_shape(dep, balance=_balance(s, dep)),
                                transactions=tuple(transaction_shape(r, staff=True) for r in chosen))


__all__ = [
    "DepositDetail", "DepositPage", "DepositTransactionView", "DepositView", "DepositWrite", "DepositsOverview",
    "ReprocessOutcome", "amm_transactions", "at_call_deposit", "buy", "deposit_shape", "get_deposit", "income",
    "interest_accrual", "list_deposits", "overview", "reprocess", "sell",
    "transaction_shape", "update_deposit", "update_transaction",
]
