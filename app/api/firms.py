"""Firms: list, read, create, update, delete, logo uploads."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Query, UploadFile

from app.api.deps import CurrentActor, WholeNumberListQuery, answers, listing, ok, read_upload
from app.api.resources import Resource
from app.services import firms

from app.api.payloads import FirmOut
from app.api.schemas import Body, Page, SentAmount, SentId, SentText


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
def list_firms(actor: CurrentActor, query: Annotated[WholeNumberListQuery, Query()]):
    return listing(*firms.list_firms(actor=actor, **query.model_dump()))


firm = Resource(router, "/firms", "firm_id", FirmOut, FirmBody, data_of=FirmBody.model_dump)
firm.get(firms.get_firm)
firm.create(firms.create_firm)
firm.update(firms.update_firm)
firm.delete(firms.delete_firm, message=firms.DELETED)


@router.post("/firms-logo-upload/{firm_id}", **answers(FirmOut))
async def upload_logo(actor: CurrentActor, firm_id: str, file: UploadFile = File(...), isLicenseeLogo: str | None = Form(None)):
    content_type, data = await read_upload(file)
    licensee = str(isLicenseeLogo or "").lower() in ("1", "true")
    return ok(firms.upload_logo(actor=actor, firm_id=firm_id, content_type=content_type, data=data, licensee=licensee))
