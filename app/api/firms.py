"""Firms: list, read, create, update, delete, logo uploads, and the record of advice settings with their
preview."""
from __future__ import annotations

from typing import Annotated, Optional

from fastapi import APIRouter, File, Form, Query, Response, UploadFile
from pydantic import BaseModel, Field

from app.api.deps import CurrentActor, WholeNumberListQuery, answers, download, listing, ok, read_upload
from app.api.resources import Resource
from app.domain.errors import INVALID_FORM, ValidationError
from app.domain.firm_documents import DocumentSettings, parse_document_settings
from app.domain.firms import FirmForm, read_firm_form
from app.domain.money import percent_trimmed_text
from app.services import firms, records_of_advice

from app.api.payloads import AddressBody, FirmOut
from app.api.schemas import Body, Page, SentAmount, SentId, SentText, path_id, rendered


router = APIRouter(tags=["firms"])


class ContactBody(Body):
    """What a firm and its licensee both have: name, ABN and contact details."""
    name: SentText = None
    abn: SentText = None
    phone: SentText = None
    email: SentText = None
    website: SentText = None


class LicenseeBody(ContactBody):
    afsl: SentText = None
    fsgLink: SentText = None
    privacyPolicyLink: SentText = None


class FirmBody(ContactBody):
    car: SentText = None
    licensee: LicenseeBody | None = None
    fee: SentAmount = None
    maxFee: SentAmount = None
    minFee: SentAmount = None
    ausiexCode: SentText = None
    orderExpiryDays: SentAmount = None
    orderGoodTillCancelled: bool | None = None
    stopLossLimitGap: SentAmount = None
    address: Optional[AddressBody] = None
    isLogoRemoved: bool | None = None
    isLicenseeLogoRemoved: bool | None = None
    version: SentId = None


def _firm_form(body: FirmBody) -> FirmForm:
    """The form the service takes, read once from the body (every field, sent or not: a firm's
    form is saved whole)."""
    return read_firm_form(body.model_dump())


@router.get("/firms", **answers(Page[FirmOut]))
def list_firms(actor: CurrentActor, query: Annotated[WholeNumberListQuery, Query()]):
    rows, total = firms.list_firms(actor=actor, limit=query.limit, offset=query.offset, sort=query.sort,
                                   order=query.order, search=query.search)
    return listing(rendered(rows), total)


firm = Resource(router, "/firms", "firm_id", FirmOut, FirmBody, form_of=_firm_form)
firm.get(firms.get_firm)
firm.create(firms.create_firm)
firm.update(firms.update_firm)
firm.delete(firms.delete_firm, message=firms.DELETED)


@router.post("/firms-logo-upload/{firm_id}", **answers(FirmOut))
async def upload_logo(actor: CurrentActor, firm_id: str, file: UploadFile = File(...), isLicenseeLogo: str | None = Form(None)):
    content_type, data = await read_upload(file)
    licensee = str(isLicenseeLogo or "").lower() in ("1", "true")
    return ok(rendered(firms.upload_logo(actor=actor, firm_id=path_id(firm_id), content_type=content_type, data=data,
                                         licensee=licensee)))


# ---- the client documents: record of advice layout, branding and template ----------------------------
class DocumentsBody(Body):
    """The firm form's record of advice settings: layout (default | compact | detailed), colour
    (#RRGGBB), disclaimer, footer, and the template data: hinPercent (0-100, super funds),
    cgtDiscount (0-100; empty: the portfolio type's), assetComments (one a line, 'CODE: comment')."""
    layout: SentText = None
    colour: SentText = None
    disclaimer: SentText = None
    footer: SentText = None
    hinPercent: SentAmount = None
    cgtDiscount: SentAmount = None
    assetComments: SentText = None


class DocumentsOut(BaseModel):
    layout: str
    colour: str
    disclaimer: str
    footer: str
    hinPercent: str = Field(description="percent")
    cgtDiscount: Optional[str] = Field(None, description="percent; null: the portfolio type's discount")
    assetComments: str = Field(description="one a line, 'CODE: comment'")


def documents_out(settings: DocumentSettings) -> DocumentsOut:
    b, t = settings.branding, settings.template
    return DocumentsOut(layout=b.layout, colour=b.colour, disclaimer=b.disclaimer, footer=b.footer,
                        hinPercent=percent_trimmed_text(t.hin_percent) or "0",
                        cgtDiscount=percent_trimmed_text(t.discount_percent), assetComments=t.comments_text)


def parsed_documents(body: DocumentsBody) -> DocumentSettings:
    settings, errors = parse_document_settings(body.model_dump())
    if settings is None:
        raise ValidationError(INVALID_FORM, errors)
    return settings


@router.get("/firms/{firm_id}/documents", **answers(DocumentsOut))
def get_documents(actor: CurrentActor, firm_id: str):
    return ok(documents_out(firms.documents(actor=actor, firm_id=path_id(firm_id))))


@router.put("/firms/{firm_id}/documents", **answers(DocumentsOut))
def update_documents(actor: CurrentActor, firm_id: str, body: DocumentsBody):
    return ok(documents_out(firms.update_documents(actor=actor, firm_id=path_id(firm_id), settings=parsed_documents(body))))


@router.get("/firms/{firm_id}/documents/preview", response_class=Response,
            responses={200: {"description": "the firm's newest record of advice (or a sample) as PDF, with its "
                                            "stored settings", "content": {"application/pdf": {}}}})
def preview_documents(actor: CurrentActor, firm_id: str):
    name, data = records_of_advice.preview_pdf(actor=actor, firm_id=path_id(firm_id))
    return download(name, data, "application/pdf")
