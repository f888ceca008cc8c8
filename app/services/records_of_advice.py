"""The record of advice: a validated target portfolio presented for the client's authority
(overview, authority, fee and recommendation data, owners, commentaries, the CGT estimate), the
e-mails sent when one is validated, and its PDF. Approving or declining it is
app.services.target_portfolios.decide."""
from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from sqlmodel import Session, select

from app.db.engine import session_scope
from app.db.tables import Firm, Portfolio, PortfolioUser, TargetPortfolio, User
from app.domain import advice, cgt
from app.domain import portfolios as portfolio_rules
from app.domain.ledger import to_cents
from app.domain.permissions import Actor
from app.services import mail, postings
from app.services.portfolio_access import as_id, load_portfolio
from app.settings import settings as app_settings

ZERO = Decimal(0)
# CGT discount by portfolio type: individuals and trusts 50%, super funds 33⅓%, companies none.
CGT_DISCOUNT = {"SAVINGS": Decimal(50), "SOLE_TRADER": Decimal(50), "TRUST": Decimal(50),
                "SMSF": Decimal("33.33"), "COMPANY": ZERO}


def approval_settings(p: Portfolio) -> dict[str, Any]:
    """The portfolio's approval settings completed with the creation defaults."""
    try:
        stored = json.loads(p.approval_settings) if p.approval_settings else {}
    except ValueError:
        stored = {}
    out = portfolio_rules.default_approval_settings()
    if isinstance(stored, dict):
        out.update({k: stored[k] for k in portfolio_rules.APPROVAL_KEYS if k in stored})
    return out


def _receivers(text: Any) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


def _owners(s: Session, portfolio_id: int) -> list[User]:
    return list(s.exec(select(User).join(PortfolioUser, PortfolioUser.user_id == User.id)
                       .where(PortfolioUser.investment_id == portfolio_id, PortfolioUser.is_owner.is_(True))
                       .order_by(User.first_name, User.last_name, User.id)).all())


def record_url(p: Portfolio, tp: TargetPortfolio) -> str:
    return f"{app_settings.public_url.rstrip('/')}/portfolios/{p.id}/rofa/{tp.id}"


def notify_validated(s: Session, p: Portfolio, tp: TargetPortfolio, settings: dict[str, Any]) -> int:
    """E-mails (in the caller's transaction; delivered after commit) when a target portfolio is
    validated: the client owners when approval is requested, the other client receivers, the
    adviser when notified and the adviser's other receivers. Returns how many were queued."""
    link = record_url(p, tp)
    subject = f"Record of advice for {p.name}"
    body_client = (f"Your adviser has prepared a record of advice for the portfolio {p.name}.\n\n"
                   f"Please read it and give or decline your authority to proceed:\n{link}\n")
    sent = 0
    to: list[str] = []
    if settings.get("tp_approval_required") and settings.get("tp_approval_request"):
        to += [u.email for u in _owners(s, p.id)]
    if settings.get("client_send_tp_to_other_email"):
        to += _receivers(settings.get("client_tp_other_email"))
    for address in dict.fromkeys(to):
        mail.queue(s, to=address, subject=subject, body=body_client)
        sent += 1
    adviser_to: list[str] = []
    if settings.get("tp_approval_notification_adviser") and p.adviser_id:
        adviser = s.get(User, p.adviser_id)
        if adviser is not None:
            adviser_to.append(adviser.email)
    if settings.get("adviser_send_tp_to_other_email"):
        adviser_to += _receivers(settings.get("adviser_tp_other_email"))
    for address in dict.fromkeys(adviser_to):
        mail.queue(s, to=address, subject=f"Target portfolio validated: {p.name}",
                   body=f"The target portfolio version {tp.version} of {p.name} was validated and awaits the "
                        f"client's approval:\n{link}\n")
        sent += 1
    return sent


def _sold_assets(s: Session, p: Portfolio, result: dict[str, Any]) -> list[cgt.SoldAsset]:
    """The target's sells with their cost base (FIFO or the portfolio's treatment), for the CGT
    estimate: pending = the value sold, value = the holding's value, cost = its cost base."""
    held = postings.positions(s, p)
    out = []
    for asset in result.get("assets", []):
        delta = Decimal(asset["delta_units"])
        if delta >= 0:
            continue
        position = held.get(asset["asset_id"])
        value = Decimal(asset["current_value"])
        if position is None or position.units <= 0 or value <= 0:
            continue
        out.append(cgt.SoldAsset(code=asset["code"], pending=to_cents(-Decimal(asset["delta_value"])), value=value,
                                 cost=position.cost_base))
    return out


def record(*, actor: Actor, tp_id: Any) -> dict[str, Any]:
    """The record of advice of a target portfolio (the approval screen and its PDF)."""
    from app.services import target_portfolios

    with session_scope() as s:
        tp = s.get(TargetPortfolio, as_id(tp_id) or 0)
        if tp is None:
            from app.domain.errors import NotFound

            raise NotFound(target_portfolios.TP_NOT_FOUND)
        p = load_portfolio(s, actor, tp.investment_id)
        shape = target_portfolios._shape(s, actor, p, target_portfolios._visible_row(s, actor, p, tp))
        firm = s.get(Firm, p.firm_id)
        owners = _owners(s, p.id)
        adviser = s.get(User, p.adviser_id) if p.adviser_id else None
        last_validated = s.exec(select(TargetPortfolio.id).where(TargetPortfolio.investment_id == p.id,
                                                                 TargetPortfolio.validated_at.is_not(None))
                                .order_by(TargetPortfolio.version.desc())).first()
        facts = target_portfolios.portfolio_facts(s, actor, p)
        result = shape.get("result") or {}
        sold = _sold_assets(s, p, result) if result else []
        account_type = cgt.ACCOUNT_TYPE_SUPER if p.type == "SMSF" else cgt.ACCOUNT_TYPE_MARGINAL
        cgt_text = cgt.cgt_estimate_text(sold, discount_percent=CGT_DISCOUNT.get(p.type, ZERO), hin_percent=ZERO,
                                         account_type=account_type, portfolio_type=p.type, owner_count=len(owners))
        value = Decimal(result["value"]) if result else ZERO
        fee = None
        if p.fee_percent is not None and value:
            fee = to_cents(value * p.fee_percent / 100)
            if p.fee_limit_min is not None:
                fee = max(fee, p.fee_limit_min)
            if p.fee_limit_max is not None:
                fee = min(fee, p.fee_limit_max)
        decidable = advice.roa_decidable(tp.status, last_validated == tp.id) and tp.status != "failed"
        return {
            **shape,
            "date": shape["validated_at"] or shape["created_at"],
            "practice": {"name": firm.name if firm else None, "abn": firm.abn if firm else None,
                         "licensee_name": firm.licensee_name if firm else None,
                         "licensee_afsl": firm.licensee_afsl if firm else None},
            "owners": [{"id": u.id, "first_name": u.first_name, "last_name": u.last_name,
                        "preferred_name": u.preferred_name, "email": u.email} for u in owners],
            "adviser": {"id": adviser.id, "first_name": adviser.first_name, "last_name": adviser.last_name}
            if adviser else None,
            "client_wording": cgt.client_type_wording(p.type, len(owners)),
            "managmentFee": {"percent": str(p.fee_percent) if p.fee_percent is not None else None,
                             "min": str(p.fee_limit_min) if p.fee_limit_min is not None else None,
                             "max": str(p.fee_limit_max) if p.fee_limit_max is not None else None,
                             "amount": str(fee) if fee is not None else None},
            "cgt_estimate": cgt_text,
            "last_validated_tp": last_validated,
            "target_portfolio_status": tp.status,
            "rofaStatuses": {"pending": tp.status in ("draft", "validated"), "approved": tp.status == "active",
                             "declined": tp.status == "declined"},
            "can_decide": decidable and advice.can_decide_roa(actor, facts),
            "confirm_approve": advice.CONFIRM_APPROVE_ROA,
            "confirm_decline": advice.CONFIRM_DECLINE_ROA,
        }
