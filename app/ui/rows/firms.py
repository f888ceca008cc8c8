"""What the firm screens show of a firm: the list's rows, and the form's texts and document settings
as typed, built from app.services.firms' read model."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any, TypedDict

from app.domain.firm_documents import Branding, DocumentSettings, RofaTemplate
from app.domain.firms import FirmForm, LicenseeForm
from app.domain.money import percent_trimmed_text
from app.services.firms import FirmDetail


class FirmRow(TypedDict):
    id: int
    name: str
    initials: str
    logo: str
    advisers: int
    clients: int
    email: str
    phone: str
    created_at: str


def firm_row(firm: FirmDetail) -> FirmRow:
    name = firm.name or ""
    return FirmRow(
        id=firm.id,
        name=name,
        initials="".join(part[:1] for part in name.split()[:2]).upper(),
        logo=firm.logo or "",
        advisers=firm.advisers,
        clients=firm.clients,
        email=firm.email or "",
        phone=firm.phone or "",
        created_at=firm.created_at.isoformat(),
    )


FIRM_TEXTS = ("name", "abn", "car", "phone", "email", "website", "fee", "max_fee", "min_fee", "ausiex_code",
              "order_expiry_days", "stop_loss_limit_gap")


LICENSEE_TEXTS = tuple(f.name for f in dataclasses.fields(LicenseeForm))


def payload_name(path: str) -> str:
    """A field's name in the payload, in a refusal's fields and as the input's id: the form's
    attribute in camelCase ('max_fee' -> 'maxFee', 'licensee.fsg_link' -> 'licensee.fsgLink')."""
    head, *rest = path.split("_")
    return head + "".join(word.title() for word in rest)


def texts_of(source: object, names: tuple[str, ...]) -> dict[str, Any]:
    """Saved values as their fields show them ('' for none, a number as its digits)."""
    values = {name: getattr(source, name, None) for name in names}
    return {name: "" if v is None else format(v, "f") if isinstance(v, Decimal) else str(v) for name, v in values.items()}


def firm_form(firm: FirmDetail | None) -> FirmForm:
    """The form as the screen holds it, every field as text: a saved firm's, or a new firm's (None)."""
    return FirmForm(**texts_of(firm, FIRM_TEXTS), licensee=LicenseeForm(**texts_of(firm and firm.licensee, LICENSEE_TEXTS)),
                    order_good_till_cancelled=bool(firm and firm.order_good_till_cancelled))


def document_form(settings: DocumentSettings) -> dict[str, str]:
    b, t = settings.branding, settings.template
    return {"layout": b.layout, "colour": b.colour, "disclaimer": b.disclaimer, "footer": b.footer,
            "hinPercent": percent_trimmed_text(t.hin_percent) or "0",
            "cgtDiscount": percent_trimmed_text(t.discount_percent) or "", "assetComments": t.comments_text}


def blank_document_form() -> dict[str, str]:
    return document_form(DocumentSettings(Branding(), RofaTemplate()))
