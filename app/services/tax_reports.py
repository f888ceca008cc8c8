"""The financial-year tax report of a portfolio, and of a client across the portfolios they hold.

What an accountant asks for at the end of June, from the executed transactions (app.services.postings)
and the tax rules (app.domain.tax):

- income: dividends (franked and unfranked parts, franking credits, grossed up), interest on listed
  assets and deposits, and other cash income, dated in the financial year;
- realised capital gains and losses by parcel (the ledger's disposals under the portfolio's tax
  treatment: acquired, sold, units, cost base, proceeds, gain, the discount method, the loss and the
  discount applied), the net capital gain after losses and discount, the carried-forward loss
  brought in (entered per portfolio and financial year, `set_carried_forward_loss`) and the loss
  carried out; capital returns (which lower the cost base) are listed beside them;
- the unrealised position at 30 June (units, cost base, the close on or before 30 June, the value
  and gain, and the units held 12 months or more by then).

A financial year outside the portfolio's history answers an empty report saying so. A sale of more
units than were held is matched as far as the parcels go: its line is flagged with `UNMATCHED` and
the unmatched units' proceeds are left out of every total (never a wrong total, never an error).

Reads check the acting user through app.services.tenancy (a client reads the portfolios they hold);
the carried-forward loss is entered by staff.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone
from decimal import Decimal, InvalidOperation
from functools import partial
from typing import Any

from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetTransaction, CarriedForwardLoss, CashTransaction, Deposit, Firm, Portfolio, PortfolioUser,
)
from app.db.types import stored_id, utcnow
from app.domain import ledger, tax
from app.domain import portfolios as portfolio_rules
from app.domain.errors import NotFound, ValidationError, not_found
from app.domain.money import MONEY_LIMIT, to_cents
from app.domain.parsing import as_id
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.tax_report import (
    CapitalReturnLine, CapitalTotals, ClientTaxReport, GainLine, IncomeLine, IncomeTotals, TaxReport, UnrealisedLine,
    UnrealisedTotals,
)
from app.domain.timezones import day_text
from app.domain.transactions import CashType, Kind, Status
from app.services import postings
from app.services.tenancy import load_portfolio, load_user, readable_portfolios

ZERO = Decimal(0)

# texts of the report (ours: the specification does not show this screen)
NOT_A_NUMBER = "The carried-forward loss must be a number."
NEGATIVE = "The carried-forward loss cannot be negative."
TOO_LARGE = "The carried-forward loss is too large."
SAVED = "Carried-forward loss saved"
UNKNOWN_YEAR = "Choose a financial year."
NOT_A_CLIENT = "Tax reports are kept for clients only."
UNMATCHED = "Sold {sold} units but only {held} were held: {missing} units could not be matched to parcels " \
            "and are left out of the totals."
EMPTY = "No transactions fall in {label}: the portfolio's history runs from {first} to {last}."
NO_HISTORY = "The portfolio has no executed transactions yet, so there is nothing to report for {label}."
DISPOSAL_KINDS = {"sell": "Sale", "capital_return": "Capital return above cost base",
                  "reconstruction": "Reconstruction (parcel rounded away)"}


@dataclass(frozen=True)
class CarriedForward:
    portfolio_id: int
    year: int
    amount: Decimal
    message: str = SAVED


# ---- what one report needs, loaded in bulk --------------------------------------------------------
@dataclass
class _Data:
    trades: dict[int, dict[int, list[ledger.Trade]]]
    income: dict[int, list[tuple[Any, ...]]]
    cash_income: dict[int, list[tuple[Any, ...]]]
    losses: dict[tuple[int, int], Decimal]
    assets: dict[int, tuple[str, str]]
    closes: dict[int, tuple[date, Decimal]]
    span: dict[int, tuple[date, date]]
    deposits: dict[int, str] = field(default_factory=dict)


def _moment(day: date, end: bool = False) -> datetime:
    return datetime.combine(day, time.max if end else time.min, tzinfo=timezone.utc)


INCOME_KINDS = (Kind.DIVIDEND.value, Kind.INTEREST.value, Kind.TD_INCOME.value, Kind.ACA_INCOME.value)


def _load(s: Session, portfolios: list[Portfolio], fy: tax.FinancialYear) -> _Data:
    from app.services.assets import _newest_closes  # the one "close on or before a day" query

    ids = [stored_id(p) for p in portfolios]
    until = _moment(fy.end, end=True)
    trades = postings.executed_trades(s, ids, until=until)
    start = _moment(fy.start)
    t = AssetTransaction
    income: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in s.execute(sa_select(col(t.investment_id), col(t.type), col(t.trade_at), col(t.asset_id),
                                   col(t.deposit_id), col(t.amount), col(t.franking_credits))
                      .where(bulk.among(s, t.investment_id, ids), col(t.status) == Status.EXECUTED.value,
                             col(t.type).in_(INCOME_KINDS), col(t.trade_at) >= start, col(t.trade_at) <= until)
                      .order_by(col(t.investment_id), col(t.trade_at), col(t.id))).all():
        income[row[0]].append(tuple(row[1:]))
    c = CashTransaction
    cash_income: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for paid in s.exec(select(col(c.investment_id), col(c.trade_at), col(c.price), col(c.payload))
                      .where(bulk.among(s, c.investment_id, ids), col(c.status) == Status.EXECUTED.value,
                             col(c.type) == CashType.INCOME.value, col(c.trade_at) >= start, col(c.trade_at) <= until)
                      .order_by(col(c.investment_id), col(c.trade_at), col(c.id))).all():
        cash_income[paid[0]].append(tuple(paid[1:]))
    losses = {(pid, year): amount for pid, year, amount in s.exec(
        select(col(CarriedForwardLoss.investment_id), col(CarriedForwardLoss.year), col(CarriedForwardLoss.amount))
        .where(bulk.among(s, CarriedForwardLoss.investment_id, ids))).all()}
    asset_ids = sorted({aid for by in trades.values() for aid in by} | {r[2] for rows in income.values()
                                                                         for r in rows if r[2] is not None})
    assets: dict[int, tuple[str, str]] = {}
    closes: dict[int, tuple[date, Decimal]] = {}
    for i in range(0, len(asset_ids), 500):
        chunk = asset_ids[i:i + 500]
        assets.update({a: (code, name) for a, code, name in s.exec(
            select(col(Asset.id), col(Asset.code), col(Asset.name)).where(col(Asset.id).in_(chunk))).all() if a is not None})
        closes.update(_newest_closes(s, chunk, fy.end))
    deposit_ids = sorted({r[3] for rows in income.values() for r in rows if r[3] is not None})
    deposits = {d: f"{name} ({product})" for d, name, product in s.exec(
        select(col(Deposit.id), col(Deposit.provider_name), col(Deposit.product_type))
        .where(col(Deposit.id).in_(deposit_ids))).all() if d is not None} if deposit_ids else {}
    return _Data(trades, income, cash_income, losses, assets, closes, _spans(s, ids), deposits)


def _spans(s: Session, ids: list[int]) -> dict[int, tuple[date, date]]:
    """portfolio id -> (first, last) day of its executed transactions (cash ones included)."""
    from sqlalchemy import func

    out: dict[int, tuple[date, date]] = {}
    for table in (AssetTransaction, CashTransaction):
        for pid, first, last in s.exec(select(col(table.investment_id), func.min(table.trade_at),
                                              func.max(table.trade_at))
                                       .where(bulk.among(s, table.investment_id, ids),
                                              col(table.status) == Status.EXECUTED.value)
                                       .group_by(col(table.investment_id))).all():
            if first is None:
                continue
            a, b = first.date(), last.date()
            if pid in out:
                a, b = min(a, out[pid][0]), max(b, out[pid][1])
            out[pid] = (a, b)
    return out


def _years(span: tuple[date, date] | None, today: date) -> tuple[int, ...]:
    if span is None:
        return (tax.financial_year_of(today),)
    first = tax.financial_year_of(span[0])
    last = max(tax.financial_year_of(today), tax.financial_year_of(span[1]))
    return tuple(range(last, first - 1, -1))


def _dividend_line(day: date, code: str, amount: Decimal, credits: Decimal | None) -> IncomeLine:
    d = tax.split_dividend(amount or ZERO, credits)
    return IncomeLine(day, code, "Dividend", "Franked" if d.unfranked == 0 else
                      ("Unfranked" if d.franked == 0 else "Partly franked"),
                      d.franked, d.unfranked, d.franking_credits, ZERO, ZERO)


def _income(p: Portfolio, data: _Data) -> list[IncomeLine]:
    out: list[IncomeLine] = []
    for kind, trade_at, asset_id, deposit_id, amount, credits in data.income.get(stored_id(p), []):
        code = data.assets.get(asset_id, ("", ""))[0] if asset_id else data.deposits.get(deposit_id, "")
        amount = to_cents(amount or ZERO)
        if kind == Kind.DIVIDEND.value:
            out.append(_dividend_line(trade_at.date(), code, amount, credits))
        else:
            label = "Interest" if kind == Kind.INTEREST.value else Kind(kind).title
            out.append(IncomeLine(trade_at.date(), code, "Interest", label, ZERO, ZERO, ZERO, amount, ZERO))
    for trade_at, amount, payload in data.cash_income.get(stored_id(p), []):
        description = ""
        if payload:
            try:
                description = str(json.loads(payload).get("description") or "")
            except (ValueError, AttributeError):
                description = ""
        out.append(IncomeLine(trade_at.date(), "Cash", "Other income", description or "Income", ZERO, ZERO, ZERO,
                              ZERO, to_cents(amount or ZERO)))
    out.sort(key=lambda ln: ln.day)
    return out


def _quantity_text(units: Decimal) -> str:
    return format(units.normalize(), "f") if units == units.to_integral_value() else format(units, "f")


def _capital(p: Portfolio, fy: tax.FinancialYear, data: _Data, entity: tax.Entity
             ) -> tuple[list[tuple[ledger.Disposal, int]], list[CapitalReturnLine], list[UnrealisedLine], list[str]]:
    """The year's disposals (with their asset), capital returns, the position at 30 June and the flags."""
    treatment = postings.tax_treatment(p)
    disposals: list[tuple[ledger.Disposal, int]] = []
    returns: list[CapitalReturnLine] = []
    unrealised: list[UnrealisedLine] = []
    flags: list[str] = []
    for asset_id, rows in sorted(data.trades.get(stored_id(p), {}).items(), key=lambda kv: data.assets.get(kv[0], ("",))[0]):
        code, name = data.assets.get(asset_id, (str(asset_id), ""))
        try:
            position = ledger.apply(rows, treatment, strict=False)
        except ValidationError as exc:  # a bad ratio or a negative amount: the asset is flagged, not counted
            flags.append(f"{code}: {exc.message}")
            continue
        for d in position.disposals:
            if d.sold_on in fy:
                disposals.append((d, asset_id))
        for trade in rows:
            if trade.kind == "capital_return" and trade.trade_date in fy:
                held = sum((t.units if t.kind == "buy" else -t.units for t in rows
                            if t.kind in ("buy", "sell") and t.trade_date <= trade.trade_date), ZERO)
                amount = to_cents(trade.amount if trade.amount is not None else max(held, ZERO) * trade.price)
                returns.append(CapitalReturnLine(trade.trade_date, code, amount))
        if position.units > 0:
            close = data.closes.get(asset_id)
            price = close[1] if close else None
            value = to_cents(position.units * price) if price is not None else None
            eligible = sum((pc.units for pc in position.parcels if tax.discount_eligible(pc.bought_on, fy.end)), ZERO)
            unrealised.append(UnrealisedLine(asset_id, code, name, position.units, eligible, position.cost_base, price,
                                             close[0] if close else None, value,
                                             value - position.cost_base if value is not None else None))
    disposals.sort(key=lambda x: (x[0].sold_on, data.assets.get(x[1], ("",))[0]))
    returns.sort(key=lambda r: r.day)
    return disposals, returns, unrealised, flags


def _report(p: Portfolio, fy: tax.FinancialYear, data: _Data, *, firm_name: str, exempt_percent: Decimal,
            can_edit: bool, today: date) -> TaxReport:
    entity = tax.entity_of(p.type)
    pid = stored_id(p)
    span = data.span.get(pid)
    years = _years(span, today)
    carried_in = data.losses.get((pid, fy.year), ZERO)
    exempt = exempt_percent if entity is tax.Entity.SUPER_FUND else ZERO
    report = partial(TaxReport, portfolio_id=pid, portfolio_name=p.name,
                     portfolio_type=portfolio_rules.PortfolioType.title_of(p.type), entity=tax.ENTITY_TITLES[entity],
                     treatment=ledger.TaxTreatment.title_of(p.tax_treatment),
                     firm_name=firm_name, year=fy.year, label=fy.label, start=fy.start, end=fy.end, years=years,
                     exempt_percent=exempt, can_edit=can_edit)
    if span is None or span[0] > fy.end or fy.start > max(span[1], today):
        message = (NO_HISTORY.format(label=fy.label) if span is None else
                   EMPTY.format(label=fy.label, first=day_text(span[0]), last=day_text(span[1])))
        nothing = CapitalTotals(ZERO, ZERO, ZERO, to_cents(carried_in), ZERO, ZERO, ZERO, to_cents(carried_in), ZERO,
                                ZERO)
        return report(empty=True, message=message, income=(), income_totals=IncomeTotals.of(()),
                         gains=(), capital=nothing, capital_returns=(), unrealised=(),
                         unrealised_totals=UnrealisedTotals(ZERO, ZERO, ZERO), flags=())
    income = _income(p, data)
    disposals, returns, unrealised, flags = _capital(p, fy, data, entity)
    netted = tax.net_capital_gain(
        [(d.gain, tax.discount_eligible(d.parcel_bought_on, d.sold_on)) for d, _ in disposals], entity, carried_in)
    gains = []
    for (d, asset_id), line in zip(disposals, netted.lines):
        code, name = data.assets.get(asset_id, (str(asset_id), ""))
        eligible = tax.discount_eligible(d.parcel_bought_on, d.sold_on)
        flag = None
        if d.unmatched_units:
            flag = UNMATCHED.format(sold=_quantity_text(d.units + d.unmatched_units), held=_quantity_text(d.units),
                                    missing=_quantity_text(d.unmatched_units))
            flags.append(f"{code} {day_text(d.sold_on)}: {flag}")
        gains.append(GainLine(asset_id, code, name, DISPOSAL_KINDS.get(d.kind, d.kind), d.parcel_bought_on, d.sold_on,
                              d.units, d.cost_base, d.proceeds, d.gain, eligible,
                              tax.discount_method(entity, eligible) if d.gain > 0 else "Capital loss",
                              line.current_loss_applied + line.prior_loss_applied, line.discount, line.net, flag))
    capital = CapitalTotals(
        gains=netted.total_gains, losses=netted.current_losses, losses_applied=netted.current_losses_applied,
        carried_forward_in=netted.prior_losses, carried_forward_applied=netted.prior_losses_applied,
        discount=netted.discount, net_capital_gain=netted.net_capital_gain,
        carried_forward_out=netted.loss_carried_forward,
        taxable=tax.taxable_capital_gain(netted.net_capital_gain, entity, exempt),
        capital_returns=sum((r.amount for r in returns), ZERO))
    values = [(u.value, u.gain or ZERO) for u in unrealised if u.value is not None]
    totals = UnrealisedTotals(sum((u.cost_base for u in unrealised), ZERO), sum((v for v, _ in values), ZERO),
                              sum((g for _, g in values), ZERO))
    return report(empty=False, message=None, income=tuple(income), income_totals=IncomeTotals.of(income),
                     gains=tuple(gains), capital=capital, capital_returns=tuple(returns),
                     unrealised=tuple(unrealised), unrealised_totals=totals, flags=tuple(flags))


def read_year(value: str | int | None) -> int | None:
    """The financial year as sent (the year it ends in), read at the edge: None when nothing is sent
    (the current one); refused with UNKNOWN_YEAR when it is no year."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    number = as_id(value)
    if number is None:
        raise ValidationError(UNKNOWN_YEAR, {"year": UNKNOWN_YEAR})
    return number


def _year(year: int | None, today: date) -> tax.FinancialYear:
    if year is None:
        return tax.financial_year(tax.financial_year_of(today))
    if not 1900 <= year <= 9998:
        raise ValidationError(UNKNOWN_YEAR, {"year": UNKNOWN_YEAR})
    return tax.financial_year(year)


def _firm_facts(s: Session, firm_id: int | None) -> tuple[str, Decimal]:
    """The firm's name and the pension share of its record of advice template (the HIN percent)."""
    firm = s.get(Firm, firm_id) if firm_id else None
    if firm is None:
        return "", ZERO
    return firm.name, Decimal(firm.cgt_hin_percent or 0)


def build(s: Session, portfolios: list[Portfolio], fy: tax.FinancialYear, *, can_edit: bool,
          today: date | None = None) -> list[TaxReport]:
    """The reports of `portfolios` (already checked for the actor) for one financial year, loaded in
    a few queries for all of them (the bench reads a whole firm this way)."""
    if not portfolios:
        return []
    today = today or utcnow().date()
    data = _load(s, portfolios, fy)
    firms = {fid: _firm_facts(s, fid) for fid in {p.firm_id for p in portfolios}}
    return [_report(p, fy, data, firm_name=firms[p.firm_id][0], exempt_percent=firms[p.firm_id][1],
                    can_edit=can_edit, today=today) for p in portfolios]


# ---- use cases -------------------------------------------------------------------------------------
def portfolio_report(*, actor: Actor, portfolio_id: int, year: int | None = None) -> TaxReport:
    """One portfolio's tax report for the financial year ending 30 June `year` (default: the
    current financial year; read_year reads it as sent)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id)
        fy = _year(year, utcnow().date())
        return build(s, [p], fy, can_edit=actor.role is not Role.CLIENT)[0]


def client_report(*, actor: Actor, client_id: int, year: int | None = None) -> ClientTaxReport:
    """A client's tax report across the portfolios they hold (those the actor may read)."""
    with session_scope() as s:
        if actor.role is Role.CLIENT and client_id != actor.id:
            raise NotFound(not_found("User"))
        client = load_user(s, actor, client_id)
        if client.role != Role.CLIENT.value:
            raise ValidationError(NOT_A_CLIENT)
        fy = _year(year, utcnow().date())
        held = select(col(PortfolioUser.investment_id)).where(PortfolioUser.user_id == client.id)
        portfolios = list(s.exec(select(Portfolio).where(readable_portfolios(actor), col(Portfolio.id).in_(held))
                                 .order_by(col(Portfolio.name), col(Portfolio.id))).all())
        reports = build(s, portfolios, fy, can_edit=actor.role is not Role.CLIENT)
        firm_name = _firm_facts(s, client.firm_id)[0]
        years = tuple(sorted({y for r in reports for y in r.years}, reverse=True)) or (fy.year,)
        return ClientTaxReport(
            client_id=stored_id(client), client_name=f"{client.first_name} {client.last_name}".strip(), firm_name=firm_name,
            year=fy.year, label=fy.label, years=years, portfolios=tuple(reports),
            income_totals=IncomeTotals.of(ln for r in reports for ln in r.income),
            net_capital_gain=sum((r.capital.net_capital_gain for r in reports), ZERO),
            carried_forward_out=sum((r.capital.carried_forward_out for r in reports), ZERO))


def firm_reports(*, actor: Actor, year: int | None = None, firm_id: int | None = None) -> list[TaxReport]:
    """Every live portfolio's report of the actor's firm (a superuser names the firm) - the bench."""
    with session_scope() as s:
        fid = firm_id if actor.is_superuser else actor.firm_id
        portfolios = list(s.exec(select(Portfolio).where(readable_portfolios(actor, fid)).order_by(col(Portfolio.id))).all())
        return build(s, portfolios, _year(year, utcnow().date()), can_edit=actor.role is not Role.CLIENT)


def parse_loss(value: str | int | float | Decimal | None) -> Decimal:
    """A carried-forward loss as entered (read at the edge): a number of dollars, not negative (its
    text otherwise)."""
    if isinstance(value, bool) or value is None:
        raise ValidationError(NOT_A_NUMBER, {"amount": NOT_A_NUMBER})
    text = str(value).strip().replace(",", "").replace("$", "")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ValidationError(NOT_A_NUMBER, {"amount": NOT_A_NUMBER}) from None
    if not amount.is_finite():
        raise ValidationError(NOT_A_NUMBER, {"amount": NOT_A_NUMBER})
    if amount < 0:
        raise ValidationError(NEGATIVE, {"amount": NEGATIVE})
    if amount >= MONEY_LIMIT:
        raise ValidationError(TOO_LARGE, {"amount": TOO_LARGE})
    return to_cents(amount)


def set_carried_forward_loss(*, actor: Actor, portfolio_id: int, year: int | None,
                             amount: str | int | float | Decimal | None) -> CarriedForward:
    """Enters the net capital loss the portfolio brings into financial year `year` (staff only);
    0 clears it. `amount` as entered, read by parse_loss once the portfolio is known to be the
    actor's to change (someone else's portfolio is not found, or refused, whatever was entered)."""
    with session_scope() as s:
        p = load_portfolio(s, actor, portfolio_id, for_edit=True, lock=True)
        amount_d = parse_loss(amount)
        fy = _year(year, utcnow().date())
        pid = stored_id(p)
        row = s.exec(select(CarriedForwardLoss).where(CarriedForwardLoss.investment_id == pid,
                                                      CarriedForwardLoss.year == fy.year)).first()
        now = utcnow()
        if row is None:
            row = CarriedForwardLoss(investment_id=pid, year=fy.year, amount=amount_d, created_by=actor.id,
                                     updated_by=actor.id, created_at=now, updated_at=now)
        else:
            row.amount, row.updated_by, row.updated_at = amount_d, actor.id, now
        s.add(row)
        s.flush()
        return CarriedForward(portfolio_id=pid, year=fy.year, amount=amount_d)


def export(*, actor: Actor, portfolio_id: int | None = None, client_id: int | None = None, year: int | None = None,
           file_format: str) -> tuple[str, bytes, str]:
    """(file name, bytes, media type) of a portfolio's (or a client's) tax report as .xlsx or .pdf."""
    from app.exports import tax_report_pdf, tax_report_xlsx

    if file_format not in ("xlsx", "pdf"):
        raise ValidationError("Unknown export format")
    if client_id is not None:
        reports = client_report(actor=actor, client_id=client_id, year=year)
        title, items = reports.client_name, list(reports.portfolios)
        label, firm = reports.label, reports.firm_name
    else:
        r = portfolio_report(actor=actor, portfolio_id=portfolio_id or 0, year=year)
        title, items, label, firm = r.portfolio_name, [r], r.label, r.firm_name
    module = tax_report_xlsx if file_format == "xlsx" else tax_report_pdf
    return module.filename(title, items[0].year if items else _year(year, utcnow().date()).year), \
        module.build(title=title, label=label, firm_name=firm, reports=items), module.MEDIA_TYPE


# ---- the tax of the recommended sells (the record of advice) --------------------------------------
@dataclass(frozen=True)
class Wait:
    code: str
    until: date
    saving: Decimal


@dataclass(frozen=True)
class ParcelTax:
    """One parcel a recommended sell takes, with its estimated gain under the portfolio's treatment:
    what the netting of all the sells' gains and losses leaves of it (loss applied, discount, net)."""

    bought_on: date | None
    units: Decimal
    cost_base: Decimal
    proceeds: Decimal
    gain: Decimal
    method: str  # the discount method in words ("Discount 50%", "Other (held under 12 months)")
    loss_applied: Decimal
    discount: Decimal
    net: Decimal


@dataclass(frozen=True)
class SellTax:
    """A recommended sell (code, units, price a unit) and the parcels it takes, with their totals."""

    asset_id: int
    code: str
    units: Decimal
    price: Decimal
    parcels: tuple[ParcelTax, ...]

    @property
    def gain(self) -> Decimal:
        return sum((pc.gain for pc in self.parcels), ZERO)

    @property
    def discount(self) -> Decimal:
        return sum((pc.discount for pc in self.parcels), ZERO)

    @property
    def net(self) -> Decimal:
        return sum((pc.net for pc in self.parcels), ZERO)


@dataclass(frozen=True)
class AdviceTax:
    """The estimated net capital gain of recommended sells under the portfolio's treatment and under
    "Minimise capital gains tax", each sell with the parcels it takes, and the sells that would be
    taxed less after a wait of up to 60 days."""

    treatment: str
    net: Decimal
    minimised: Decimal
    waits: tuple[Wait, ...]
    sells: tuple[SellTax, ...] = ()
    fifo: Decimal = ZERO  # the same sells by first in, first out
    minimising: bool = False  # the portfolio's own treatment is "Minimise capital gains tax"

    @property
    def saving(self) -> Decimal:
        """What "Minimise capital gains tax" saves (or would save) on the net capital gain against the
        portfolio's treatment - against first in, first out when it is the portfolio's own (0: nothing)."""
        return max((self.fifo if self.minimising else self.net) - self.minimised, ZERO)

    @property
    def comparison(self) -> str:
        from app.domain import cgt

        return cgt.treatment_comparison_text(self.treatment, self.net, self.minimised,
                                             self.fifo if self.minimising else None)


def advice_estimate(s: Session, p: Portfolio, sells: list[tuple[int, str, Decimal, Decimal]],
                    today: date | None = None) -> AdviceTax:
    """`sells`: (asset id, code, units, price a unit) of the recommended sells, sold on `today`."""
    today = today or utcnow().date()
    trades = postings.executed_trades(s, [stored_id(p)]).get(stored_id(p), {})
    entity = tax.entity_of(p.type)
    own = postings.tax_treatment(p)

    def disposals(treatment: ledger.TaxTreatment, day: date,
                  only: int | None = None) -> list[tuple[int, list[ledger.Disposal]]]:
        """(index of the sell, the parcels it takes) for each sell of something held."""
        out = []
        for i, (asset_id, _, units, price) in enumerate(sells):
            if only is not None and asset_id != only:
                continue
            rows = list(trades.get(asset_id, []))
            held = ledger.apply(rows, treatment, strict=False)
            units = min(units, held.units)
            if units <= 0:
                continue
            after = ledger.apply(rows + [ledger.Trade("sell", day, units, price)], treatment, strict=False)
            out.append((i, list(after.disposals[len(held.disposals):])))
        return out

    def gains(taken: list[tuple[int, list[ledger.Disposal]]]) -> list[tuple[Decimal, bool]]:
        return [(d.gain, tax.discount_eligible(d.parcel_bought_on, d.sold_on)) for _, ds in taken for d in ds]

    def net(items: list[tuple[Decimal, bool]]) -> Decimal:
        return tax.net_capital_gain(items, entity).net_capital_gain

    waits = []
    for asset_id, code, _, _ in sells:
        held = ledger.apply(list(trades.get(asset_id, [])), own, strict=False)
        days = sorted({tax.first_discount_day(pc.bought_on) for pc in held.parcels
                       if tax.days_to_discount(pc.bought_on, today) is not None})
        now_net = net(gains(disposals(own, today, asset_id)))
        best = max(((now_net - net(gains(disposals(own, d, asset_id))), d) for d in days), default=(ZERO, today))
        if best[0] > 0:
            waits.append(Wait(code, best[1], best[0]))
    taken = disposals(own, today)
    netted = tax.net_capital_gain(gains(taken), entity)
    lines = iter(netted.lines)
    by_sell = []
    for i, ds in taken:
        asset_id, code, units, price = sells[i]
        parcels = []
        for d in ds:
            line = next(lines)
            eligible = tax.discount_eligible(d.parcel_bought_on, d.sold_on)
            parcels.append(ParcelTax(bought_on=d.parcel_bought_on, units=d.units, cost_base=d.cost_base,
                                     proceeds=d.proceeds, gain=line.gain,
                                     method=tax.discount_method(entity, eligible),
                                     loss_applied=line.current_loss_applied + line.prior_loss_applied,
                                     discount=line.discount, net=line.net))
        by_sell.append(SellTax(asset_id=asset_id, code=code, units=sum((d.units for d in ds), ZERO), price=price,
                               parcels=tuple(parcels)))
    return AdviceTax(treatment=ledger.TaxTreatment.title_of(p.tax_treatment),
                     net=netted.net_capital_gain,
                     minimised=net(gains(disposals(ledger.TaxTreatment.MINIMISE_CGT, today))),
                     waits=tuple(waits), sells=tuple(by_sell),
                     fifo=net(gains(disposals(ledger.TaxTreatment.FIFO, today))),
                     minimising=own is ledger.TaxTreatment.MINIMISE_CGT)
