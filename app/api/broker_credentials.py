"""A portfolio's broker credentials (spec 002 s2 widgets: macquarieAuthCode, macquarieAuthPass,
macquarieCodeExpiryDate). The code and the password go in and never come out: a read answers
"saved" or "not set" for each, the expiry date and whether it has passed."""
from __future__ import annotations

from typing import Optional

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.api.deps import CurrentActor, answers, ok
from app.api.schemas import SentText, path_id
from app.domain.timezones import iso_json
from app.services import broker_credentials as credentials

router = APIRouter(tags=["investments"])
PATH = "/investments/{investment_id}/broker-credentials"


class BrokerCredentialsBody(BaseModel):
    """The form: an empty (or left out) code or password keeps the saved one."""
    macquarieAuthCode: SentText = None
    macquarieAuthPass: SentText = None
    macquarieCodeExpiryDate: SentText = Field(None, description="DD/MM/YYYY or YYYY-MM-DD")


class BrokerCredentialsOut(BaseModel):
    investment_id: int
    macquarieAuthCode: str = Field(description="'saved' or 'not set': never the code")
    macquarieAuthPass: str = Field(description="'saved' or 'not set': never the password")
    macquarieCodeExpiryDate: Optional[str] = Field(None, description="YYYY-MM-DD")
    expired: bool
    updated_at: Optional[str] = None
    message: Optional[str] = Field(None, description="on a write: the toast")


def _out(status: credentials.CredentialsStatus) -> BrokerCredentialsOut:
    return BrokerCredentialsOut(
        investment_id=status.investment_id, macquarieAuthCode=status.auth_code, macquarieAuthPass=status.password,
        macquarieCodeExpiryDate=status.code_expiry_date.isoformat() if status.code_expiry_date else None,
        expired=status.expired, updated_at=iso_json(status.updated_at), message=status.message)


@router.get(PATH, **answers(BrokerCredentialsOut))
def get_broker_credentials(actor: CurrentActor, investment_id: str):
    return ok(_out(credentials.credentials_status(actor=actor, investment_id=path_id(investment_id))))


@router.put(PATH, **answers(BrokerCredentialsOut))
def save_broker_credentials(actor: CurrentActor, investment_id: str, body: BrokerCredentialsBody):
    update = credentials.CredentialsUpdate(auth_code=body.macquarieAuthCode, password=body.macquarieAuthPass,
                                           code_expiry_date=body.macquarieCodeExpiryDate)
    return ok(_out(credentials.save_credentials(actor=actor, investment_id=path_id(investment_id),
                                                     update=update)))


@router.delete(PATH, **answers(BrokerCredentialsOut))
def remove_broker_credentials(actor: CurrentActor, investment_id: str):
    return ok(_out(credentials.remove_credentials(actor=actor, investment_id=path_id(investment_id))))
