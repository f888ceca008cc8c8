"""The main payloads of the REST contract, as the services build them (response models).

Each lists the fields a client may rely on, typed as sent: money, prices and quantities are
decimal strings ("1234.50"), times ISO 8601 strings in UTC. They allow extra keys (the services
add screen-specific ones), so documenting a payload never drops data.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import Field

from app.api.schemas import Open


class Named(Open):
    id: int
    name: str


class Person(Open):
    first_name: Optional[str] = None
    last_name: Optional[str] = None


# ---- firms -------------------------------------------------------------------------------------------
class FirmOut(Open):
    id: int
    name: str
    abn: Optional[str] = None
    car: Optional[str] = None
    phone: Optional[str] = None
    email: Optional[str] = None
    website: Optional[str] = None
    logo: Optional[str] = Field(None, description="the logo's URL")
    licensee_logo: Optional[str] = None
    licensee: Optional[dict[str, Any]] = Field(None, description="name, abn, afsl, phone, email, website, fsgLink, "
                                                                 "privacyPolicyLink, logo")
    fee: Optional[str] = None
    maxFee: Optional[str] = None
    minFee: Optional[str] = None
    ausiexCode: Optional[str] = None
    advisers: Optional[int] = None
    clients: Optional[int] = None
    created_at: Optional[str] = None
    version: int


# ---- users -------------------------------------------------------------------------------------------
class UserOut(Open):
    """A user (with shortened=1 a list gives only id, name, role and firm_id)."""
    id: int
    email: Optional[str] = None
    first_name: Optional[str] = None
    last_name: Optional[str] = None
    preferred_name: Optional[str] = None
    name: Optional[str] = None
    phone: Optional[str] = None
    role: str = Field(description="superuser, administrator, adviser or client")
    role_title: Optional[str] = None
    status: Optional[str] = None
    status_title: Optional[str] = None
    firm_id: Optional[int] = None
    firm: Optional[Named] = None
    adviser_id: Optional[int] = None
    adviser: Optional[Named] = None
    photo_url: Optional[str] = None
    signature_url: Optional[str] = None
    default_logo_url: Optional[str] = None
    activated: Optional[bool] = None
    created_at: Optional[str] = None
    logined_at: Optional[str] = None
    version: Optional[int] = None


# ---- models ------------------------------------------------------------------------------------------
class ModelOut(Open):
    id: int
    name: str
    status: str = Field(description="draft, active or inactive")
    status_title: Optional[str] = None
    allocation_method: str = Field(description="equal_amounts or percentages")
    allocation_method_title: Optional[str] = None
    analyst_recommendations: Optional[bool] = None
    firm: Optional[Named] = Field(None, description="the owner firm")
    availability: Optional[str] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None
    version: int
    can_edit: Optional[bool] = None


# ---- portfolios --------------------------------------------------------------------------------------
class PortfolioOut(Open):
    id: int
    name: str
    type: Optional[str] = None
    type_title: Optional[str] = None
    inactive: bool
    status_title: Optional[str] = None
    firm_id: int
    firm: Optional[Named] = None
    model_id: Optional[int] = None
    model: Optional[Named] = None
    Users: list[dict[str, Any]] = Field(default_factory=list, description="the holders: id, name, is_owner, ...")
    owners: list[int] = Field(default_factory=list)
    adviser: Optional[int] = None
    adviser_name: Optional[str] = None
    broker_id: Optional[int] = None
    broker_name: Optional[str] = None
    hin: Optional[str] = None
    version: int
    created_at: Optional[str] = None
    updated_at: Optional[str] = None
    can_edit: Optional[bool] = None


# ---- holdings ----------------------------------------------------------------------------------------
class HoldingLineOut(Open):
    name: Optional[str] = None
    code: Optional[str] = None
    value: Optional[str] = None
    cost: Optional[str] = None
    class_id: Optional[int] = None
    allocation: Optional[str] = None


class ShareOut(HoldingLineOut):
    id: int
    asset_id: int
    quantity: Optional[str] = None
    price: Optional[str] = None


class HoldingsOut(Open):
    investment: dict[str, Any] = Field(description="the portfolio: id, name, type, firm_id, inactive, model, Users, owners")
    cash_account: Optional[HoldingLineOut] = None
    shares: list[ShareOut] = Field(default_factory=list)
    shares_count: Optional[int] = None
    deposits: Optional[list[dict[str, Any]]] = None
    custom_holdings: Optional[list[dict[str, Any]]] = None
    classes: Optional[list[dict[str, Any]]] = Field(None, description="actual vs target by asset class")
    totals: Optional[dict[str, Any]] = None
    pending_trades: Optional[list[dict[str, Any]]] = Field(
        None, description="approved trades not executed yet: id, asset_id, code, side BUY|SELL, units, status, order_id")


# ---- target portfolios and trade instructions ----------------------------------------------------------
class TargetPortfolioOut(Open):
    id: int
    investment_id: int
    version: int
    status: str = Field(description="draft, not_enough_cash, validated, active, declined or failed")
    status_label: Optional[str] = None
    not_enough_cash: Optional[bool] = None
    error_message: Optional[str] = None
    target_portfolio_value: Optional[str] = None
    model_id: Optional[int] = None
    model_version: Optional[int] = None
    allocation_method: Optional[str] = None
    row_version: int
    created_at: Optional[str] = None
    validated_at: Optional[str] = None
    approved_at: Optional[str] = None
    declined_at: Optional[str] = None
    creator: Optional[Person] = None
    validator: Optional[Person] = None
    approver: Optional[Person] = None
    decliner: Optional[Person] = None
    moderator: Optional[Person] = None


class TradeInstructionOut(Open):
    id: int
    investment_id: int
    target_portfolio_id: Optional[int] = None
    version: int
    status: str
    status_label: Optional[str] = None
    validated: Optional[bool] = None
    error_message: Optional[str] = None
    row_version: int
    payload: Optional[dict[str, Any]] = Field(None, description="buys, sells, brokerage, min_trade_amount")
    auto_approve_at: Optional[str] = None
    created_at: Optional[str] = None
    validated_at: Optional[str] = None
    approved_at: Optional[str] = None
    declined_at: Optional[str] = None
    creator: Optional[Person] = None
    validator: Optional[Person] = None
    approver: Optional[Person] = None
    decliner: Optional[Person] = None
    moderator: Optional[Person] = None
