"""Who is told what when advice moves: the one rule from a portfolio's approval switches (001 s3,
s9) to the receivers of each notice and the documents attached to each, and the words of the
messages. Pure: the service (app.services.notices) gathers the people and sends.

Events: a record of advice validated and awaiting the client's approval, approved (by a person, or
on validation when the portfolio requires no approval) or declined; trade recommendations
validated and awaiting approval, approved (all or some, or on validation without approval),
approved automatically (the auto-approval deadline) or declined.

Audiences: the client owners (holders marked owner), the client's other e-mails, the adviser and
the adviser's other e-mails. Each (event, audience) cell names the switches that must all be on
for the audience to receive the notice, and the switch that attaches the document (the record of
advice PDF for target portfolio events, the trade recommendations PDF for trade events):

| event | client owners | client's other e-mails | adviser | adviser's other e-mails |
|---|---|---|---|---|
| record of advice validated | tp_approval_required + tp_approval_request; PDF: tp_approval_request_pdf | client_send_tp_to_other_email; PDF: client_other_email_attach_roa_pdf | - | adviser_send_tp_to_other_email; PDF: adviser_other_email_attach_roa_pdf |
| record of advice approved / declined | tp_approval_notification_client; PDF: client_attach_roa_pdf | as above | tp_approval_notification_adviser; PDF: adviser_attach_roa_pdf | as above |
| trades validated | tr_approval_required + tr_approval_request; PDF: tr_approval_request_pdf | client_send_tr_to_other_email; PDF: client_other_email_attach_tr_pdf | - | adviser_send_tr_to_other_email; PDF: adviser_other_email_attach_tr_pdf |
| trades approved / approved automatically / declined | tr_approval_notification_client; PDF: client_attach_tr_pdf | as above | tr_approval_notification_adviser; PDF: adviser_attach_tr_pdf | as above |

"Send again" repeats the notice of the document's current state (awaiting approval: the
validated notice; approved or declined: that one) to the receivers the same cells name.

An address named by several audiences gets one message (with the PDF when any of them attaches
it), worded for the first audience that names it in the order above.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from html import escape
from typing import Any, Iterable, Mapping

from app.domain.firm_documents import COMPACT, DEFAULT_COLOUR, DETAILED, Branding
from app.domain.parsing import as_bool


class Event(str, Enum):
    TP_VALIDATED = "tp_validated"
    TP_APPROVED = "tp_approved"
    TP_DECLINED = "tp_declined"
    TR_VALIDATED = "tr_validated"
    TR_APPROVED = "tr_approved"
    TR_AUTO_APPROVED = "tr_auto_approved"
    TR_DECLINED = "tr_declined"


class Audience(str, Enum):
    CLIENT_OWNERS = "client_owners"
    CLIENT_OTHERS = "client_others"
    ADVISER = "adviser"
    ADVISER_OTHERS = "adviser_others"


class Document(str, Enum):
    RECORD_OF_ADVICE = "record_of_advice"
    TRADE_RECOMMENDATIONS = "trade_recommendations"


AUDIENCE_LABELS = {
    Audience.CLIENT_OWNERS: "the client owners",
    Audience.CLIENT_OTHERS: "the client's other e-mails",
    Audience.ADVISER: "the adviser",
    Audience.ADVISER_OTHERS: "the adviser's other e-mails",
}
EVENT_LABELS = {
    Event.TP_VALIDATED: "record of advice validated (awaiting approval)",
    Event.TP_APPROVED: "record of advice approved",
    Event.TP_DECLINED: "record of advice declined",
    Event.TR_VALIDATED: "trade recommendations validated (awaiting approval)",
    Event.TR_APPROVED: "trade recommendations approved",
    Event.TR_AUTO_APPROVED: "trade recommendations approved automatically",
    Event.TR_DECLINED: "trade recommendations declined",
}
TP_EVENTS = (Event.TP_VALIDATED, Event.TP_APPROVED, Event.TP_DECLINED)
TR_EVENTS = (Event.TR_VALIDATED, Event.TR_APPROVED, Event.TR_AUTO_APPROVED, Event.TR_DECLINED)
# the receiver list each "other e-mails" audience reads, by kind of advice
OTHER_LISTS = {
    (Audience.CLIENT_OTHERS, Document.RECORD_OF_ADVICE): "client_tp_other_email",
    (Audience.ADVISER_OTHERS, Document.RECORD_OF_ADVICE): "adviser_tp_other_email",
    (Audience.CLIENT_OTHERS, Document.TRADE_RECOMMENDATIONS): "client_tr_other_email",
    (Audience.ADVISER_OTHERS, Document.TRADE_RECOMMENDATIONS): "adviser_tr_other_email",
}
SEND_AGAIN_NOBODY = "The approval settings of this portfolio name nobody to send it to"
SEND_AGAIN_NOT_SENT = "Only a validated, approved or declined one can be sent"


@dataclass(frozen=True)
class Rule:
    """One cell: `audience` receives the notice when every switch of `send` is on; the document is
    attached when `attach` is on."""

    audience: Audience
    send: tuple[str, ...]
    attach: str


def _rules(kind: str, request: bool) -> tuple[Rule, ...]:
    doc = "roa" if kind == "tp" else "tr"
    owners = (Rule(Audience.CLIENT_OWNERS, (f"{kind}_approval_required", f"{kind}_approval_request"),
                   f"{kind}_approval_request_pdf") if request else
              Rule(Audience.CLIENT_OWNERS, (f"{kind}_approval_notification_client",), f"client_attach_{doc}_pdf"))
    adviser = () if request else (
        Rule(Audience.ADVISER, (f"{kind}_approval_notification_adviser",), f"adviser_attach_{doc}_pdf"),)
    return (owners,
            Rule(Audience.CLIENT_OTHERS, (f"client_send_{kind}_to_other_email",), f"client_other_email_attach_{doc}_pdf"),
            *adviser,
            Rule(Audience.ADVISER_OTHERS, (f"adviser_send_{kind}_to_other_email",), f"adviser_other_email_attach_{doc}_pdf"))


RULES: dict[Event, tuple[Rule, ...]] = {
    Event.TP_VALIDATED: _rules("tp", request=True),
    Event.TP_APPROVED: _rules("tp", request=False),
    Event.TP_DECLINED: _rules("tp", request=False),
    Event.TR_VALIDATED: _rules("tr", request=True),
    Event.TR_APPROVED: _rules("tr", request=False),
    Event.TR_AUTO_APPROVED: _rules("tr", request=False),
    Event.TR_DECLINED: _rules("tr", request=False),
}


def document_of(event: Event) -> Document:
    return Document.RECORD_OF_ADVICE if event in TP_EVENTS else Document.TRADE_RECOMMENDATIONS


@dataclass(frozen=True)
class People:
    """The addresses a portfolio's notices may go to: its owners' and its adviser's (None when it
    has none). The other e-mails are read from the settings."""

    owners: tuple[str, ...]
    adviser: str | None


@dataclass(frozen=True)
class Receiver:
    address: str
    audience: Audience
    attach: bool


def split_receivers(text: Any) -> tuple[str, ...]:
    """A comma-separated receiver list as its addresses."""
    return tuple(part.strip() for part in str(text or "").split(",") if part.strip())


def receivers(event: Event, settings: Mapping[str, Any], people: People) -> tuple[Receiver, ...]:
    """Everyone the switches name for `event`, once per address (case-insensitive), each with
    whether the document is attached for them."""
    doc = document_of(event)
    found: dict[str, Receiver] = {}
    for rule in RULES[event]:
        if not all(as_bool(settings.get(flag)) for flag in rule.send):
            continue
        attach = as_bool(settings.get(rule.attach))
        if rule.audience is Audience.CLIENT_OWNERS:
            addresses: Iterable[str] = people.owners
        elif rule.audience is Audience.ADVISER:
            addresses = (people.adviser,) if people.adviser else ()
        else:
            addresses = split_receivers(settings.get(OTHER_LISTS[(rule.audience, doc)]))
        for address in addresses:
            key = address.strip().lower()
            if not key:
                continue
            known = found.get(key)
            if known is None:
                found[key] = Receiver(address=address.strip(), audience=rule.audience, attach=attach)
            elif attach and not known.attach:
                found[key] = Receiver(address=known.address, audience=known.audience, attach=True)
    return tuple(found.values())


def send_again_event(document: Document, status: str) -> Event | None:
    """The notice "Send again" repeats for a document in `status` (None: nothing to send yet)."""
    if document is Document.RECORD_OF_ADVICE:
        return {"validated": Event.TP_VALIDATED, "active": Event.TP_APPROVED,
                "declined": Event.TP_DECLINED}.get(status)
    return {"pending_approval": Event.TR_VALIDATED, "approved": Event.TR_APPROVED,
            "partially_approved": Event.TR_APPROVED, "declined": Event.TR_DECLINED}.get(status)


# ---- the words ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Facts:
    """What a message tells: the event, the portfolio, the version, who acted (None: nobody, the
    auto-approval), the firm, the screen's link, the trades approved and declined (trade events),
    whether it is sent again, whether the firm's logo is shown, and how the firm's documents look
    (its layout, colour, footer and disclaimer) with its licensee line."""

    event: Event
    portfolio: str
    version: int
    by: str | None
    firm: str
    link: str
    approved: int = 0
    declined: int = 0
    again: bool = False
    logo: bool = False
    branding: Branding = Branding()
    licensee: str = ""


@dataclass(frozen=True)
class Message:
    subject: str
    text: str
    html: str


LOGO_CID = "firm-logo"


def _trades(n: int) -> str:
    return f"{n} trade" if n == 1 else f"{n} trades"


def _lines(f: Facts, audience: Audience) -> tuple[str, list[str], str]:
    """(subject, paragraphs, call to action) for one audience."""
    owner = audience is Audience.CLIENT_OWNERS
    by = f.by or "the firm"
    name, v = f.portfolio, f.version
    if f.event is Event.TP_VALIDATED:
        if owner:
            return (f"Record of advice for {name}: your approval is requested",
                    [f"{by} has prepared a record of advice (version {v}) for your portfolio {name}.",
                     "Please read it and give or decline your authority to proceed."],
                    "Read the record of advice")
        return (f"Record of advice for {name} awaits the client's approval",
                [f"{by} validated the record of advice (version {v}) for the portfolio {name}; "
                 "it awaits the client's approval."], "Open the record of advice")
    if f.event in (Event.TP_APPROVED, Event.TP_DECLINED):
        done = "approved" if f.event is Event.TP_APPROVED else "declined"
        return (f"Record of advice {done}: {name}",
                [f"The record of advice (version {v}) for the portfolio {name} was {done} by {by}."],
                "Open the record of advice")
    if f.event is Event.TR_VALIDATED:
        if owner:
            return (f"Trade recommendations for {name}: your approval is requested",
                    [f"{by} has validated trade recommendations (version {v}) for your portfolio {name}.",
                     "Please review them and approve or decline each trade."],
                    "Review the trade recommendations")
        return (f"Trade recommendations for {name} await the client's approval",
                [f"{by} validated the trade recommendations (version {v}) for the portfolio {name}; "
                 "they await the client's approval."], "Open the trade recommendations")
    counts = []
    if f.approved:
        counts.append(f"{_trades(f.approved)} approved")
    if f.declined:
        counts.append(f"{_trades(f.declined)} declined")
    tally = [f"{', '.join(counts).capitalize()}."] if counts else []
    if f.event is Event.TR_AUTO_APPROVED:
        return (f"Trade recommendations approved automatically: {name}",
                [f"The trade recommendations (version {v}) for the portfolio {name} were approved automatically: "
                 "the time set for the client's decision has passed.", *tally], "Open the trade recommendations")
    done = "approved" if f.event is Event.TR_APPROVED else "declined"
    return (f"Trade recommendations {done}: {name}",
            [f"The trade recommendations (version {v}) for the portfolio {name} were {done} by {by}.", *tally],
            "Open the trade recommendations")


def _text_on(colour: str) -> str:
    """White or near-black, whichever reads better on `colour` (#RRGGBB): the button's words stay
    at 4.5:1 whatever colour the firm picks (WCAG relative luminance)."""
    def channel(hex2: str) -> float:
        c = int(hex2, 16) / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    try:
        r, g, b = (channel(colour[i:i + 2]) for i in (1, 3, 5))
    except ValueError:
        return "#ffffff"
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#ffffff" if (1.05 / (luminance + 0.05)) >= ((luminance + 0.05) / 0.05) else "#1c2024"


def compose(f: Facts, audience: Audience, attach: bool) -> Message:
    """The message for one receiver: a plain-text part and an HTML part saying what happened, to
    which portfolio, by whom, with the link to the screen and the firm's name (and logo), in the
    firm's colour and layout with its footer and disclaimer (the layouts of its record of advice:
    compact is a plain page in smaller type without the disclaimer; detailed adds the licensee)."""
    subject, paragraphs, action = _lines(f, audience)
    if f.again:
        subject = f"Sent again: {subject}"
    doc = "record of advice" if f.event in TP_EVENTS else "trade recommendations"
    if attach:
        paragraphs = [*paragraphs, f"The {doc} is attached as a PDF."]
    reason = (f"Sent by {f.firm} because the approval settings of the portfolio {f.portfolio} name this address."
              if f.firm else f"Sent because the approval settings of the portfolio {f.portfolio} name this address.")
    brand = f.branding
    compact, detailed = brand.layout == COMPACT, brand.layout == DETAILED
    licensee = f.licensee if detailed else ""
    closing = [x for x in (brand.footer, "" if compact else brand.disclaimer) if x]
    heading = [x for x in (f.firm, licensee) if x]
    text = "\n\n".join([*heading, *paragraphs, f"{action}: {f.link}", *closing, reason]) + "\n"
    colour = brand.colour or DEFAULT_COLOUR
    size, pad = ("13px", "12px") if compact else ("14px", "24px")
    logo = (f'<img src="cid:{LOGO_CID}" alt="{escape(f.firm)}" style="max-height:48px;max-width:200px;'
            f'display:block;margin-bottom:8px">' if f.logo else "")
    head = (f'{logo}<div style="font-size:16px;font-weight:bold;color:{colour}">{escape(f.firm)}</div>'
            + (f'<div style="font-size:12px;color:#60646c">{escape(licensee)}</div>' if licensee else "")
            + f'<div style="border-bottom:3px solid {colour};margin:8px 0 16px"></div>')
    body = "".join(f'<p style="margin:0 0 12px">{escape(p)}</p>' for p in paragraphs)
    small = 'style="margin:16px 0 0;font-size:12px;color:#60646c;white-space:pre-line"'
    tail = "".join(f'<p {small}>{escape(x)}</p>' for x in closing)
    frame = (f'<div style="max-width:560px;margin:0 auto;padding:{pad}">' if compact else
             f'<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e0e1e6;'
             f'border-radius:8px;padding:{pad}">')
    html = (
        f'<!DOCTYPE html><html><body style="margin:0;padding:{pad};background:{"#ffffff" if compact else "#f6f7f9"};'
        f'font-family:Helvetica,Arial,sans-serif;color:#1c2024;font-size:{size};line-height:1.5">'
        f'{frame}{head}{body}'
        f'<p style="margin:20px 0"><a href="{escape(f.link, quote=True)}" style="background:{colour};'
        f'color:{_text_on(colour)};padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">'
        f'{escape(action)}</a></p>'
        f'<p style="margin:0;font-size:12px;color:#60646c">{escape(f.link)}</p>'
        f'{tail}<p {small}>{escape(reason)}</p>'
        '</div></body></html>'
    )
    return Message(subject=subject, text=text, html=html)
