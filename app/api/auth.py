"""Sign-in, sign-out, activation, recovery, reset and e-mail change."""
from __future__ import annotations

from typing import Annotated, Any, Callable

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel

from app.api.deps import CurrentActor, answers, client_ip, ok, ok_message
from app.services import auth, users

from app.api.payloads import RecoveryOut, SigninOut, TokenOwnerOut
from app.api.schemas import Message, SentText, rendered

router = APIRouter(tags=["auth"])


class SigninBody(BaseModel):
    email: SentText = None
    password: SentText = None


class TokenBody(BaseModel):
    token: str = ""


class PasswordBody(TokenBody):
    password: SentText = None
    rptPassword: SentText = None


class EmailBody(BaseModel):
    email: SentText = None


def _text(value: Any) -> str:
    """A sent text as the services read it: empty when left out (a number sent as its digits)."""
    return str(value or "")


def _password(value: Any) -> str | None:
    return None if value is None else str(value)


def _set_password(set_password: Callable[..., None], body: PasswordBody) -> dict[str, Any]:
    """Activation and reset: the link's token and the new password twice."""
    set_password(token=body.token, password=_password(body.password), rpt_password=_password(body.rptPassword))
    return ok(None)


@router.post("/signin", **answers(SigninOut))
def signin(body: SigninBody, request: Request):
    token, user = auth.signin(email=_text(body.email), password=_text(body.password), ip=client_ip(request))
    return ok({"token": token, "user": rendered(users.get_me(actor=auth.actor_of(user)))})


@router.post("/signout", **answers(None))
def signout(actor: CurrentActor, x_token: Annotated[str | None, Header(alias="x-token")] = None):
    # revokes the session of the x-token header (a download ticket is no session to end)
    auth.signout(token=x_token or "")
    return ok(None)


@router.get("/activation/{token}", **answers(TokenOwnerOut))
def check_activation(token: str):
    return ok(rendered(auth.check_activation_token(token=token)))


@router.post("/activation", **answers(None))
def activate(body: PasswordBody):
    return _set_password(auth.activate, body)


@router.post("/password-recovery", **answers(RecoveryOut))
def password_recovery(body: EmailBody):
    return ok(rendered(auth.request_recovery(email=_text(body.email))))


@router.get("/password-recovery/{token}", **answers(TokenOwnerOut))
def check_recovery(token: str):
    return ok(rendered(auth.check_recovery_token(token=token)))


@router.post("/reset-password", **answers(None))
def reset_password(body: PasswordBody):
    return _set_password(auth.reset_password, body)


@router.get("/email-change/{token}", **answers(TokenOwnerOut))
def check_email_change(token: str):
    return ok(rendered(auth.check_email_change_token(token=token)))


@router.post("/email-change", **answers(Message))
def confirm_email_change(body: TokenBody):
    return ok_message(auth.confirm_email_change(token=body.token))
