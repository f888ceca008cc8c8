"""Notices: the messages a portfolio's approval switches ask for when advice moves (validated,
approved, declined, approved automatically) and "Send again". Who receives what, with which
document attached, is app.domain.notices; this module gathers the people, words each message and
queues it in the caller's transaction (app.services.mail builds the PDFs and delivers after the
commit, so a failing build or send never blocks or undoes the action)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sqlmodel import Session, select

from app.db.engine import session_scope
from app.db.types import stored_id
from app.db.tables import Firm, Portfolio, TargetPortfolio, TradeInstruction, TradeNote, TradeTransaction, User
from app.domain import notices as rules
from app.domain.firm_documents import Branding
from app.domain.errors import NotFound, ValidationError, not_found
from app.domain.notices import Audience, Document, Event, Facts, People, Receiver
from app.domain.permissions import Actor, require_staff
from app.domain.users import known_as
from app.services import firms, mail
from app.services.advice_queries import approval_settings, load_tp, portfolio_owners
from app.services.tenancy import load_portfolio
from app.settings import settings as app_settings


TI_NOT_FOUND = not_found("Trade recommendations")  # as app.services.trade_instructions says it


@dataclass(frozen=True)
class Notice:
    """A notice as queued: its event and everyone it went to."""

    event: Event
    receivers: tuple[Receiver, ...]


@dataclass(frozen=True)
class SendAgainPreview:
    """What "Send again" would do: the notice repeated and the people it goes to (with whether
    the PDF is attached for each), for the confirmation that names them."""

    event: Event
    document: Document
    object_id: int
    version: int
    receivers: tuple[Receiver, ...]

    @property
    def question(self) -> str:
        what = "record of advice" if self.document is Document.RECORD_OF_ADVICE else "trade recommendations"
        return f"Send the {what} (version {self.version}) again to {', '.join(r.address for r in self.receivers)}?"


@dataclass(frozen=True)
class SentAgain:
    event: Event
    receivers: tuple[Receiver, ...]

    @property
    def message(self) -> str:
        n = len(self.receivers)
        return f"Sent again to {n} {'person' if n == 1 else 'people'}"


# ---- the people, the words ---------------------------------------------------------------------------
def people_of(s: Session, p: Portfolio) -> People:
    adviser = s.get(User, p.adviser_id) if p.adviser_id else None
    return People(owners=tuple(u.email for u in portfolio_owners(s, stored_id(p))), adviser=adviser.email if adviser else None)


def _name_of(s: Session, user_id: int | None) -> str | None:
    user = s.get(User, user_id) if user_id else None
    return known_as(user.first_name, user.last_name, user.preferred_name) if user else None


def _base() -> str:
    return app_settings.public_url.rstrip("/")


def record_link(p: Portfolio, tp: TargetPortfolio) -> str:
    return f"{_base()}/portfolios/{p.id}/rofa/{tp.id}"


def trades_link(p: Portfolio, ti: TradeInstruction) -> str:
    return f"{_base()}/portfolios/{p.id}/trade-instructions/{ti.version}"


def _send(s: Session, p: Portfolio, event: Event, facts: Facts, object_id: int, reader_id: int | None,
          file_name: str) -> Notice:
    found = rules.receivers(event, approval_settings(p), people_of(s, p))
    for r in found:
        message = rules.compose(facts, r.audience, r.attach)
        docs = (mail.PendingDocument(file_name=file_name, document=rules.document_of(event).value,
                                     object_id=object_id, reader_id=reader_id),) if r.attach else ()
        mail.queue(s, to=r.address, subject=message.subject, body=message.text, html=message.html, firm_id=p.firm_id,
                   documents=docs)
    return Notice(event=event, receivers=found)


@dataclass(frozen=True)
class _FirmFacts:
    """The Facts a message takes from the portfolio's firm: its name, logo, branding and licensee."""

    firm: str = ""
    logo: bool = False
    branding: Branding = Branding()
    licensee: str = ""


def _from_firm(s: Session, p: Portfolio) -> _FirmFacts:
    firm = s.get(Firm, p.firm_id)
    if firm is None:
        return _FirmFacts()
    brand = firms.branding_for(s, stored_id(firm))
    return _FirmFacts(firm=firm.name, logo=bool(firm.logo), licensee=brand.licensee_line,
                      branding=Branding(layout=brand.layout, colour=brand.colour, disclaimer=brand.disclaimer,
                                        footer=brand.footer))


def _reader(actor_id: int | None, p: Portfolio) -> int | None:
    """Whose view the attached document is: the person who acted, else the portfolio's adviser."""
    return actor_id or p.adviser_id


# ---- target portfolios (the record of advice) ---------------------------------------------------------
def notify_target(s: Session, *, p: Portfolio, tp: TargetPortfolio, event: Event, actor_id: int | None,
                  again: bool = False) -> Notice:
    """Queues the notices of `event` for the target portfolio `tp` (in the caller's transaction)."""
    if event not in rules.TP_EVENTS:
        raise ValueError(event)
    firm = _from_firm(s, p)
    facts = Facts(event=event, portfolio=p.name, version=tp.version, by=_name_of(s, actor_id),
                  link=record_link(p, tp), again=again, firm=firm.firm, logo=firm.logo, branding=firm.branding,
                  licensee=firm.licensee)
    return _send(s, p, event, facts, stored_id(tp), _reader(actor_id, p), f"{p.name} - Record of Advice v{tp.version}.pdf")


def _preview(s: Session, p: Portfolio, document: Document,
             row: TargetPortfolio | TradeInstruction) -> SendAgainPreview:
    """Who sending `row` (a `document` of portfolio `p`) again would reach: the notice of its current
    state, to the people the portfolio's switches name; refused before any notice was sent."""
    event = rules.send_again_event(document, row.status)
    if event is None:
        raise ValidationError(rules.SEND_AGAIN_NOT_SENT)
    found = rules.receivers(event, approval_settings(p), people_of(s, p))
    return SendAgainPreview(event=event, document=document, object_id=stored_id(row), version=row.version,
                            receivers=found)


def _sent_again(preview: SendAgainPreview, notify: Callable[[], Notice]) -> SentAgain:
    """The preview's notice sent again by `notify()`; refused when the switches name nobody."""
    if not preview.receivers:
        raise ValidationError(rules.SEND_AGAIN_NOBODY)
    notice = notify()
    return SentAgain(event=notice.event, receivers=notice.receivers)


def _target_preview(s: Session, actor: Actor, tp_id: int) -> tuple[Portfolio, TargetPortfolio, SendAgainPreview]:
    require_staff(actor)
    p, tp = load_tp(s, actor, tp_id)
    return p, tp, _preview(s, p, Document.RECORD_OF_ADVICE, tp)


def send_again_target_preview(*, actor: Actor, tp_id: int) -> SendAgainPreview:
    """Who "Email" on the target portfolio screen would send its record of advice to (staff only)."""
    with session_scope() as s:
        return _target_preview(s, actor, tp_id)[2]


def send_again_target(*, actor: Actor, tp_id: int) -> SentAgain:
    """Sends the record of advice of `tp_id` again, as its current state's notice, to the people its
    switches name; refused when they name nobody."""
    with session_scope() as s:
        p, tp, preview = _target_preview(s, actor, tp_id)
        return _sent_again(preview, lambda: notify_target(s, p=p, tp=tp, event=preview.event, actor_id=actor.id,
                                                          again=True))


# ---- trade recommendations --------------------------------------------------------------------------
def _decisions(s: Session, ti: TradeInstruction) -> tuple[int, int]:
    """(approved, declined) trades and notes of the instruction."""
    decided = [t.decision for t in s.exec(select(TradeTransaction).where(
        TradeTransaction.trade_instruction_id == ti.id)).all()]
    decided += [n.decision for n in s.exec(select(TradeNote).where(TradeNote.trade_instruction_id == ti.id)).all()]
    return sum(1 for d in decided if d == "approved"), sum(1 for d in decided if d == "declined")


def notify_trades(s: Session, *, p: Portfolio, ti: TradeInstruction, event: Event, actor_id: int | None,
                  again: bool = False) -> Notice:
    """Queues the notices of `event` for the trade recommendations `ti` (in the caller's transaction;
    `actor_id` None: approved automatically)."""
    if event not in rules.TR_EVENTS:
        raise ValueError(event)
    approved, declined = _decisions(s, ti) if event in (Event.TR_APPROVED, Event.TR_AUTO_APPROVED,
                                                        Event.TR_DECLINED) else (0, 0)
    firm = _from_firm(s, p)
    facts = Facts(event=event, portfolio=p.name, version=ti.version, by=_name_of(s, actor_id),
                  link=trades_link(p, ti), approved=approved, declined=declined, again=again, firm=firm.firm,
                  logo=firm.logo, branding=firm.branding, licensee=firm.licensee)
    return _send(s, p, event, facts, stored_id(ti), _reader(actor_id, p), f"{p.name} - Trade Recommendations v{ti.version}.pdf")


def trades_event(status: str, *, automatic: bool = False) -> Event | None:
    """The notice for trade recommendations that have just reached `status` by a decision."""
    if status in ("approved", "partially_approved"):
        return Event.TR_AUTO_APPROVED if automatic else Event.TR_APPROVED
    if status == "declined":
        return Event.TR_DECLINED
    return None


def _trades_preview(s: Session, actor: Actor, ti_id: int) -> tuple[Portfolio, TradeInstruction, SendAgainPreview]:
    require_staff(actor)
    ti = s.get(TradeInstruction, ti_id)
    if ti is None:
        raise NotFound(TI_NOT_FOUND)
    p = load_portfolio(s, actor, ti.investment_id)
    return p, ti, _preview(s, p, Document.TRADE_RECOMMENDATIONS, ti)


def send_again_trades_preview(*, actor: Actor, ti_id: int) -> SendAgainPreview:
    with session_scope() as s:
        return _trades_preview(s, actor, ti_id)[2]


def send_again_trades(*, actor: Actor, ti_id: int) -> SentAgain:
    """Sends the trade recommendations `ti_id` again, as their current state's notice, to the people
    the switches name; refused when they name nobody."""
    with session_scope() as s:
        p, ti, preview = _trades_preview(s, actor, ti_id)
        return _sent_again(preview, lambda: notify_trades(s, p=p, ti=ti, event=preview.event, actor_id=actor.id,
                                                          again=True))


__all__ = ["Audience", "Document", "Event", "Notice", "SendAgainPreview", "SentAgain", "notify_target",
           "notify_trades", "send_again_target", "send_again_target_preview", "send_again_trades",
           "send_again_trades_preview", "trades_event"]
