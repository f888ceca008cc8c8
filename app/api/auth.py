"""Sign-in, sign-out, activation, recovery, reset and e-mail change."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel

from app.api.deps import CurrentActor, client_ip, ok
from app.services import auth, users

from app.api.payloads import RecoveryOut, SigninOut, TokenOwnerOut
from app.api.schemas import Envelope, Message, SentText

router = APIRouter(tags=["auth"])


class SigninBody(BaseModel):
    email: SentText = None
    password: SentText = None


class PasswordBody(BaseModel):
    token: str = ""
    password: SentText = None
    rptPassword: SentText = None


class EmailBody(BaseModel):
    email: SentText = None


class TokenBody(BaseModel):
    token: str = ""


@router.post("/signin", response_model_exclude_unset=True, response_model=Envelope[SigninOut])
def signin(body: SigninBody, request: Request):
    token, user = auth.signin(email=body.email, password=body.password, ip=client_ip(request))
    return ok({"token": token, "user": users.get_me(actor=auth.actor_of(user))})


@router.post("/signout", response_model_exclude_unset=True, response_model=Envelope[None])
def signout(actor: CurrentActor, x_token: Annotated[str | None, Header(alias="x-token")] = None):
    # revokes the session of the x-token header (a download ticket is no session to end)
    auth.signout(token=x_token or "")
    return ok(None)


@router.get("/activation/{token}", response_model_exclude_unset=True, response_model=Envelope[TokenOwnerOut])
def check_activation(token: str):
    return ok(auth.check_activation_token(token=token))


@router.post("/activation", response_model_exclude_unset=True, response_model=Envelope[None])
def activate(body: PasswordBody):
    auth.activate(token=body.token, password=body.password, rpt_password=body.rptPassword)
    return ok(None)


@router.post("/password-recovery", response_model_exclude_unset=True, response_model=Envelope[RecoveryOut])
def password_recovery(body: EmailBody):
    return ok(auth.request_recovery(email=body.email))


@router.get("/password-recovery/{token}", response_model_exclude_unset=True, response_model=Envelope[TokenOwnerOut])
def check_recovery(token: str):
    return ok(auth.check_recovery_token(token=token))


@router.post("/reset-password", response_model_exclude_unset=True, response_model=Envelope[None])
def reset_password(body: PasswordBody):
    auth.reset_password(token=body.token, password=body.password, rpt_password=body.rptPassword)
    return ok(None)


@router.get("/email-change/{token}", response_model_exclude_unset=True, response_model=Envelope[TokenOwnerOut])
def check_email_change(token: str):
    return ok(auth.check_email_change_token(token=token))


@router.post("/email-change", response_model_exclude_unset=True, response_model=Envelope[Message])
def confirm_email_change(body: TokenBody):
    return ok({"message": auth.confirm_email_change(token=body.token)})
