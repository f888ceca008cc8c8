"""The record of advice: a validated target portfolio presented for the client's authority
(overview, authority, fee and recommendation data, owners, commentaries, the CGT estimate) and its
PDF. Approving or declining it is app.services.target_portfolios.decide; the notices sent then
(and on validation) are app.services.notices."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy import func, select as sa_select
from sqlmodel import Session, col, select

from app.db.engine import session_scope
from app.db.tables import Firm, Portfolio, PortfolioUser, TargetPortfolio, User
from app.domain import addresses, advice, cgt
from app.domain import portfolios as portfolio_rules
from app.db.types import stored_id, utcnow
from app.domain.advice.target_portfolios import Client, ManagementFee, Practice, RecordOfAdvice
from app.domain.advice_words import AdviceLine, advice_lines
from app.domain.engine.results import Target
from app.domain.firm_documents import AssetComment, Branding, DocumentSettings, Letterhead, RofaTemplate
from app.domain.money import to_cents
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.domain.timezones import days_between
from app.domain.users import Person, PersonName
from app.services import firms, postings
from app.services.advice_queries import (
    last_validated_tp_id, load_tp, portfolio_facts, portfolio_owners, stored_result, tp_view,
)
from app.services.tenancy import load_portfolio, readable_portfolios
from app.exports.file_names import safe_name
from app.exports.rofa_sheet import RecordSheet

if TYPE_CHECKING:
    from app.services.tax_reports import AdviceTax

ZERO = Decimal(0)


def _sold_assets(s: Session, p: Portfolio, result: Target) -> list[cgt.SoldAsset]:
    """The target's sells with their cost base (FIFO or the portfolio's treatment), for the CGT
    estimate: pending = the value sold, value = the holding's value, cost = its cost base."""
    held = postings.positions(s, p)
    out = []
    for asset in result.assets:
        if asset.delta_units >= 0:
            continue
        position = held.get(asset.asset_id)
        if position is None or position.units <= 0 or asset.current_value <= 0:
            continue
        out.append(cgt.SoldAsset(code=asset.code, pending=to_cents(-asset.delta_value), value=asset.current_value,
                                 cost=position.cost_base))
    return out


def _recommended_sells(result: Target) -> list[tuple[int, str, Decimal, Decimal]]:
    """(asset id, code, units, price a unit) of a target portfolio's sells."""
    return [(a.asset_id, a.code, -a.delta_units, a.price) for a in result.assets
            if a.delta_units < 0 and a.price is not None]


def capital_gains(*, actor: Actor, tp_id: int) -> AdviceTax | None:
    """The capital gains of a target portfolio's recommended sells: each with the parcels it takes
    under the portfolio's tax treatment, the total beside "Minimise capital gains tax", and the waits
    that would tax less (None when it sells nothing). Whoever may read the target portfolio."""
    from app.services import tax_reports

    with session_scope() as s:
        p, tp = load_tp(s, actor, tp_id)  # whoever may read it; only its stored result is needed
        result = stored_result(tp)
        sells = _recommended_sells(result) if result else []
        return tax_reports.advice_estimate(s, p, sells) if sells else None


def _with_parcel_estimate(s: Session, p: Portfolio, result: Target, text: str) -> str:
    """The CGT paragraph with the recommended sells' estimated net capital gain by parcel under the
    portfolio's treatment beside "Minimise capital gains tax", and a line per sell that a wait of up
    to 60 days would tax less (app.services.tax_reports.advice_estimate)."""
    from app.domain.timezones import day_text
    from app.services import tax_reports

    sells = _recommended_sells(result)
    if not sells:
        return text
    est = tax_reports.advice_estimate(s, p, sells)
    lines = [est.comparison]
    lines += [cgt.waiting_text(w.code, day_text(w.until), w.saving) for w in est.waits]
    return " ".join([text, *lines])


def read(*, actor: Actor, tp_id: int, template: RofaTemplate | None = None) -> RecordOfAdvice:
    """The record of advice of a target portfolio (the approval screen); its CGT estimate follows
    the firm's template (or `template`, a preview's)."""
    with session_scope() as s:
        p, tp = load_tp(s, actor, tp_id)
        view = tp_view(s, actor, p, tp)
        firm = s.get(Firm, p.firm_id)
        owners = portfolio_owners(s, stored_id(p))
        adviser = s.get(User, p.adviser_id) if p.adviser_id else None
        last_validated = last_validated_tp_id(s, stored_id(p))
        result = view.result
        sold = _sold_assets(s, p, result) if result else []
        if template is None:
            template = firms.settings_of(firm).template if firm else RofaTemplate()
        cgt_text = cgt.cgt_estimate_text(sold, discount_percent=template.discount_for(p.type),
                                         hin_percent=template.hin_for(p.type),
                                         account_type=cgt.account_type_for(p.type), portfolio_type=p.type,
                                         owner_count=len(owners))
        if sold and result is not None:
            cgt_text = _with_parcel_estimate(s, p, result, cgt_text)
        fee = portfolio_rules.management_fee(result.value if result else ZERO, p.fee_percent, p.fee_limit_min,
                                             p.fee_limit_max)
        decidable = advice.roa_decidable(tp.status, last_validated == tp.id) and tp.status != "failed"
        decider_id = tp.approved_by if tp.status == advice.TPStatus.ACTIVE.value else \
            tp.declined_by if tp.status == advice.TPStatus.DECLINED.value else None
        decider = s.get(User, decider_id) if decider_id else None
        # the holder's address: the portfolio's own, else its first owner's that has one
        holder = next((a for a in [addresses.of_row(p), *(addresses.of_row(u) for u in owners)] if not a.is_empty),
                      addresses.EMPTY)
        return RecordOfAdvice(
            tp=view,
            practice=Practice(name=firm.name, abn=firm.abn, licensee_name=firm.licensee_name,
                              licensee_afsl=firm.licensee_afsl) if firm else Practice(None, None, None, None),
            owners=tuple(Client(id=stored_id(u), first_name=u.first_name, last_name=u.last_name,
                                preferred_name=u.preferred_name, email=u.email) for u in owners),
            adviser=Person(id=stored_id(adviser), first_name=adviser.first_name, last_name=adviser.last_name)
            if adviser else None,
            client_wording=cgt.client_type_wording(p.type, len(owners)),
            fee=ManagementFee(percent=p.fee_percent, min=p.fee_limit_min, max=p.fee_limit_max, amount=fee),
            cgt_estimate=cgt_text,
            last_validated_tp=last_validated,
            can_decide=decidable and advice.can_decide_roa(actor, portfolio_facts(s, actor, p)),
            decided_by_superuser=decider is not None and decider.role == Role.SUPERUSER.value,
            client_address=tuple(holder.lines()),
            practice_address=tuple(addresses.of_row(firm).lines()) if firm else (),
        )


@dataclass(frozen=True)
class RecordDocument:
    """A record of advice as the client receives it: the record, the letterhead (firm, licensee,
    adviser), the firm's branding and template, the recommended portfolio in words (cash line
    included) and the template's comments on the assets the trades sell."""

    record: RecordOfAdvice
    letterhead: Letterhead
    branding: Branding
    template: RofaTemplate
    lines: tuple[AdviceLine, ...]
    cgt_notes: tuple[AssetComment, ...]
    capital_gains: AdviceTax | None = None  # the sells' parcels and gains (None: nothing sold)



def document(*, actor: Actor, tp_id: int, settings: DocumentSettings | None = None) -> RecordDocument:
    """The record of advice of a target portfolio with what its documents carry; `settings`
    replace the firm's stored branding and template (the firm form's preview of unsaved settings)."""
    r = read(actor=actor, tp_id=tp_id, template=settings.template if settings else None)
    with session_scope() as s:
        p = s.get(Portfolio, r.tp.investment.id)
        firm = s.get(Firm, p.firm_id) if p else None
        stored = firms.settings_of(firm) if firm else DocumentSettings(Branding(), RofaTemplate())
        head = firms.letterhead_for(s, p.firm_id if p else None, p.adviser_id if p else None)
    used = settings or stored
    result = r.tp.result
    lines = advice_lines(result, dict(r.tp.names.assets)) if result else ()
    sold = {line.code for line in lines if line.side == "SELL"}
    notes = tuple(c for c in used.template.asset_comments if c.code in sold)
    return RecordDocument(record=r, letterhead=head, branding=used.branding, template=used.template, lines=lines,
                          cgt_notes=notes, capital_gains=capital_gains(actor=actor, tp_id=r.tp.summary.id)
                          if result else None)


# ---- the record of advice as its PDF file prints it (app.exports.rofa_pdf) --------------------------
def sheet(d: RecordDocument) -> RecordSheet:
    """The record of advice of a target portfolio as its PDF file prints it."""
    r = d.record
    summary = r.tp.summary
    result = r.tp.result
    return RecordSheet(
        letterhead=d.letterhead, branding=d.branding, owners=r.owners, portfolio=r.tp.investment.name,
        model=r.tp.model.name if r.tp.model else "", date=r.date, version=summary.version,
        status_label=summary.status_label, client_address=r.client_address, practice_address=r.practice_address,
        value=result.value if result else None, cash_after=result.cash_after if result else None,
        brokerage=result.brokerage if result else None, lines=d.lines,
        classes=result.classes if result else (), industry_groups=result.industry_groups if result else (),
        group_titles={gid: title for gid, (title, _) in r.tp.names.industry_groups.items()},
        commentaries=r.tp.commentaries, fee=r.fee, cgt_estimate=r.cgt_estimate, cgt_notes=d.cgt_notes,
        capital_gains=d.capital_gains, decided_by_superuser=r.decided_by_superuser,
        approved_at=summary.approved_at, declined_at=summary.declined_at, approver=summary.approver,
        decliner=summary.decliner)


def sample_sheet(firm_name: str, head: Letterhead, settings: DocumentSettings) -> RecordSheet:
    """A record of advice of made-up figures, for a firm without any yet (the preview says so)."""
    from app.domain.advice_words import Side, action_words
    from app.domain.money import format_aud

    rows: list[tuple[str, str, str, Side, str, str, str]] = [("VAS", "Vanguard Australian Shares ETF", "Buy 120", "BUY", "ACC", "12000.00", "22.0"),
            ("BHP", "BHP Group", "Sell 150", "SELL", "TAP", "9000.00", "16.5"),
            ("VAF", "Vanguard Australian Fixed Interest", "Hold", "HOLD", "FFL/HOLD", "9200.00", "16.9")]
    lines = [AdviceLine(kind="asset", code=code, name=name, trade=trade, side=side,
                        reason=f"Recommendation: {action_words(action)}.", detail="sample figures", price=None,
                        current_units=None, target_units=None, current_value=Decimal(value),
                        target_value=Decimal(value), target_percent=Decimal(share))
             for code, name, trade, side, action, value, share in rows]
    lines.append(AdviceLine(kind="cash", code="Cash", name="Cash account", trade=f"Use {format_aud(Decimal(3000))}",
                            side="HOLD", reason="Cash after the trades: the sells come in, the buys and the brokerage go out.",
                            detail="", price=None, current_units=None, target_units=None,
                            current_value=Decimal("27300.00"), target_value=Decimal("24300.00"),
                            target_percent=Decimal("44.6")))
    template = settings.template
    return RecordSheet(
        letterhead=head, branding=settings.branding, owners=(PersonName(first_name="Sample", last_name="Client"),),
        portfolio="Sample Family Trust", model="Sample Balanced", date=utcnow(), version=1,
        status_label="Approval Required", client_address=(), practice_address=(),
        value=Decimal("54500.00"), cash_after=Decimal("24300.00"), brokerage=Decimal("39.90"), lines=tuple(lines),
        classes=(), industry_groups=(), group_titles={}, commentaries=(), fee=None,
        cgt_estimate=cgt.cgt_estimate_text(
            [cgt.SoldAsset(code="BHP", pending=Decimal(9000), value=Decimal(27000), cost=Decimal(21000))],
            discount_percent=template.discount_for("TRUST"), hin_percent=template.hin_for("TRUST"),
            account_type=cgt.account_type_for("TRUST"), portfolio_type="TRUST", owner_count=1),
        cgt_notes=tuple(c for c in template.asset_comments if c.code == "BHP"), capital_gains=None)


def export_pdf(*, actor: Actor, tp_id: int, client_offset: int = 0) -> tuple[str, bytes]:
    """(file name, PDF bytes) of the record of advice of target portfolio `tp_id`, times in the
    browser's offset in minutes (client-timezone-offset)."""
    from app.exports import rofa_pdf

    return rofa_pdf.build(sheet(document(actor=actor, tp_id=tp_id)), client_offset)


# ---- what awaits the client ------------------------------------------------------------------------
@dataclass(frozen=True)
class AwaitingRecord:
    """A portfolio's record of advice awaiting the client's approval, since `sent_at` (validated)."""

    tp_id: int
    investment_id: int
    portfolio: str
    version: int
    sent_at: datetime
    waiting_days: int


@dataclass(frozen=True)
class AwaitingTrades:
    """A portfolio's trade recommendations pending the client's approval: the trades (`items`) and
    the "please note" items (`notes`) still undecided."""

    ti_id: int
    investment_id: int
    portfolio: str
    version: int
    sent_at: datetime
    waiting_days: int
    items: int
    notes: int


@dataclass(frozen=True)
class AwaitingDecision:
    """What awaits the signed-in client's decision, oldest first."""

    records: tuple[AwaitingRecord, ...] = ()
    trades: tuple[AwaitingTrades, ...] = ()


def awaiting_decision(*, actor: Actor, now: datetime | None = None) -> AwaitingDecision:
    """What awaits the signed-in client's decision, on the portfolios the client owns (a holder who
    is not an owner does not decide; other firms' portfolios are never read), oldest first:

    - `records`: each portfolio's record of advice awaiting approval (its newest validated target
      portfolio, still 'Approval Required'): tp_id, investment_id, portfolio, version, sent_at (when
      it was validated), waiting_days;
    - `trades`: each portfolio's newest trade recommendations pending approval with items still
      undecided: ti_id, investment_id, portfolio, version, sent_at, waiting_days, items (the trades
      to decide: transactions only) and notes (the "please note" items to decide).

    Clients only (PermissionDenied otherwise): staff decide from the reports."""
    from app.db.tables import TradeInstruction, TradeNote, TradeTransaction
    from app.domain.advice import NoteState, TIStatus, TPStatus, TxStatus
    from app.domain.errors import PermissionDenied
    from app.domain.permissions import NOT_ALLOWED
    from app.domain.roles import Role

    if actor.role is not Role.CLIENT:
        raise PermissionDenied(NOT_ALLOWED)
    now = now or utcnow()
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    with session_scope() as s:
        owned = {pid: name for pid, name in s.execute(
            sa_select(col(Portfolio.id), col(Portfolio.name))
            .where(readable_portfolios(actor), col(Portfolio.id).in_(
                sa_select(col(PortfolioUser.investment_id)).where(col(PortfolioUser.user_id) == actor.id,
                                                                  col(PortfolioUser.is_owner).is_(True))))).all()}
        if not owned:
            return AwaitingDecision()
        ids = list(owned)
        # each portfolio's newest validated target portfolio, when it still awaits approval
        records: list[AwaitingRecord] = []
        seen: set[int] = set()
        for tp in s.exec(select(TargetPortfolio).where(col(TargetPortfolio.investment_id).in_(ids),
                                                       col(TargetPortfolio.validated_at).is_not(None))
                         .order_by(col(TargetPortfolio.investment_id), col(TargetPortfolio.version).desc())).all():
            if tp.investment_id in seen:
                continue
            seen.add(tp.investment_id)
            if tp.status == TPStatus.VALIDATED.value and tp.validated_at is not None:
                records.append(AwaitingRecord(tp_id=stored_id(tp), investment_id=tp.investment_id,
                                              portfolio=owned[tp.investment_id], version=tp.version,
                                              sent_at=tp.validated_at, waiting_days=days_between(tp.validated_at, now)))
        # each portfolio's newest trade recommendations, when pending approval with undecided items
        newest: dict[int, TradeInstruction] = {}
        for ti in s.exec(select(TradeInstruction).where(col(TradeInstruction.investment_id).in_(ids))
                         .order_by(col(TradeInstruction.investment_id), col(TradeInstruction.version).desc())).all():
            newest.setdefault(ti.investment_id, ti)
        waiting = {stored_id(ti): ti for ti in newest.values() if ti.status == TIStatus.PENDING_APPROVAL.value}
        counts: dict[int, int] = dict.fromkeys(waiting, 0)
        note_counts: dict[int, int] = dict.fromkeys(waiting, 0)
        if waiting:
            open_tx = (TxStatus.PENDING_APPROVAL.value, TxStatus.PENDING_TO_CANCEL.value, TxStatus.PENDING_COPY.value)
            for ti_id, n in s.execute(
                    sa_select(col(TradeTransaction.trade_instruction_id), func.count())
                    .where(col(TradeTransaction.trade_instruction_id).in_(list(waiting)),
                           col(TradeTransaction.status).in_(open_tx), col(TradeTransaction.decision).is_(None))
                    .group_by(col(TradeTransaction.trade_instruction_id))).all():
                counts[ti_id] += int(n)
            for ti_id, n in s.execute(
                    sa_select(col(TradeNote.trade_instruction_id), func.count())
                    .where(col(TradeNote.trade_instruction_id).in_(list(waiting)),
                           col(TradeNote.state) == NoteState.VALIDATED.value, col(TradeNote.decision).is_(None))
                    .group_by(col(TradeNote.trade_instruction_id))).all():
                note_counts[ti_id] += int(n)
        trades = [AwaitingTrades(ti_id=ti_id, investment_id=ti.investment_id, portfolio=owned[ti.investment_id],
                                 version=ti.version, sent_at=_sent_at(ti.validated_at or ti.created_at),
                                 waiting_days=days_between(ti.validated_at or ti.created_at, now), items=counts[ti_id],
                                 notes=note_counts[ti_id])
                  for ti_id, ti in waiting.items() if counts[ti_id] + note_counts[ti_id] > 0]
    # by when sent as the payload writes it (ISO text), then by portfolio
    records.sort(key=lambda r: (r.sent_at.isoformat(), r.portfolio))
    trades.sort(key=lambda r: (r.sent_at.isoformat(), r.portfolio))
    return AwaitingDecision(records=tuple(records), trades=tuple(trades))


def _sent_at(moment: datetime | None) -> datetime:
    """When trade recommendations were sent (validated, else created: always stored)."""
    if moment is None:
        raise ValueError("trade recommendations without a creation time")
    return moment


@dataclass(frozen=True)
class PendingRecord:
    """A portfolio's record of advice awaiting the client's approval, sent (validated) at `sent_at`."""

    tp_id: int
    investment_id: int
    version: int
    sent_at: datetime


def pending_record(*, actor: Actor, investment_id: int) -> PendingRecord | None:
    """The portfolio's record of advice awaiting the client's approval (its newest validated target
    portfolio, while still 'Approval Required'), for anyone who may see the portfolio (404
    otherwise): tp_id, version, sent_at; None when there is none."""
    from app.domain.advice import TPStatus

    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        tp = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == p.id,
                                                  col(TargetPortfolio.validated_at).is_not(None))
                    .order_by(col(TargetPortfolio.version).desc())).first()
        if tp is None or tp.status != TPStatus.VALIDATED.value or tp.validated_at is None:
            return None
        return PendingRecord(tp_id=stored_id(tp), investment_id=stored_id(p), version=tp.version,
                             sent_at=tp.validated_at)


# ---- the firm form's preview ------------------------------------------------------------------------
def preview_pdf(*, actor: Actor, firm_id: int, settings: DocumentSettings | None = None) -> tuple[str, bytes]:
    """The firm form's preview: (file name, PDF bytes) of the firm's newest record of advice with
    `settings` (unsaved; the stored ones when None), or of a sample when the firm has none yet.
    Those who may edit the firm only."""
    from app.domain.permissions import can_edit_firm, require
    from app.exports import rofa_pdf
    from app.services.tenancy import load_firm

    with session_scope() as s:
        firm = load_firm(s, actor, firm_id)
        require(can_edit_firm(actor, stored_id(firm)))
        used = settings or firms.settings_of(firm)
        newest = s.exec(select(TargetPortfolio.id).join(Portfolio, col(Portfolio.id) == col(TargetPortfolio.investment_id))
                        .where(readable_portfolios(actor, firm.id), col(TargetPortfolio.validated_at).is_not(None))
                        .order_by(col(TargetPortfolio.validated_at).desc(), col(TargetPortfolio.id).desc())).first()
        head = firms.letterhead_for(s, firm.id)
        firm_name = firm.name
    if newest is not None:
        name, data = rofa_pdf.build(sheet(document(actor=actor, tp_id=newest, settings=used)), 0)
        return f"Preview - {name}", data
    from app.exports.pdf import render

    return f"Preview - {safe_name(firm_name)} - Sample Record of Advice.pdf", \
        render(rofa_pdf.html(sample_sheet(firm_name, head, used), 0))
