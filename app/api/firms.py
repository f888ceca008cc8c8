"""Firms: list, read, create, update, delete, logo uploads."""
from __future__ import annotations

from fastapi import APIRouter, File, Form, UploadFile

from app.api.deps import CurrentActor, answers, listing, ok, ok_message, read_upload
from app.services import firms

from app.api.payloads import FirmOut
from app.api.schemas import Body, Message, Page, SentAmount, SentId, SentText


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
    isLogoRemoved: bool | None = None
    isLicenseeLogoRemoved: bool | None = None
    version: SentId = None


@router.get("/firms", **answers(Page[FirmOut]))
def list_firms(actor: CurrentActor, limit: int | None = None, offset: int | None = None, sort: str = "name",
               order: str = "asc", search: str | None = None):
    return listing(*firms.list_firms(actor=actor, limit=limit, offset=offset, sort=sort, order=order, search=search))


@router.get("/firms/{firm_id}", **answers(FirmOut))
def get_firm(actor: CurrentActor, firm_id: str):
    return ok(firms.get_firm(actor=actor, firm_id=firm_id))


@router.post("/firms", **answers(FirmOut))
def create_firm(actor: CurrentActor, body: FirmBody):
    return ok(firms.create_firm(actor=actor, data=body.model_dump()))


@router.put("/firms/{firm_id}", **answers(FirmOut))
def update_firm(actor: CurrentActor, firm_id: str, body: FirmBody):
    return ok(firms.update_firm(actor=actor, firm_id=firm_id, data=body.model_dump()))


@router.delete("/firms/{firm_id}", **answers(Message))
def delete_firm(actor: CurrentActor, firm_id: str):
    firms.delete_firm(actor=actor, firm_id=firm_id)
    return ok_message(firms.DELETED)


@router.post("/firms-logo-upload/{firm_id}", **answers(FirmOut))
async def upload_logo(actor: CurrentActor, firm_id: str, file: UploadFile = File(...), isLicenseeLogo: str | None = Form(None)):
    content_type, data = await read_upload(file)
    licensee = str(isLicenseeLogo or "").lower() in ("1", "true")
    return ok(firms.upload_logo(actor=actor, firm_id=firm_id, content_type=content_type, data=data, licensee=licensee))
