"""SQLModel tables, grouped by aggregate. The schema only changes through Alembic migrations."""
from __future__ import annotations

from datetime import date as date_type, datetime
from decimal import Decimal
from typing import Optional

from sqlalchemy import Boolean, Column, Index, Integer, LargeBinary, Numeric, String, Text, UniqueConstraint
from sqlalchemy import false, text
from sqlmodel import Field, SQLModel

from app.db.types import money_field, percent_field, quantity_field, shared_utc_field, utc_field


# ---- addresses (spec 002 s2/s3: the address form) -------------------------------------------------
class AddressColumns(SQLModel):
    """The address form's fields, as columns of users, firms and portfolios (the holder's address)."""

    address_property_name: Optional[str] = Field(default=None, max_length=200)
    address_unit_number: Optional[str] = Field(default=None, max_length=20)
    address_street_number: Optional[str] = Field(default=None, max_length=20)
    address_street_name: Optional[str] = Field(default=None, max_length=200)
    address_suburb: Optional[str] = Field(default=None, max_length=100)
    address_state: Optional[str] = Field(default=None, max_length=60)
    address_postcode: Optional[str] = Field(default=None, max_length=10)
    address_country: Optional[str] = Field(default=None, max_length=100)


# ---- firms ------------------------------------------------------------------------------------
class Firm(AddressColumns, table=True):
    __tablename__ = "firms"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(String(200), nullable=False, index=True))
    abn: Optional[str] = Field(default=None, max_length=20)
    car: Optional[str] = Field(default=None, max_length=40)
    phone: Optional[str] = Field(default=None, max_length=40)
    email: Optional[str] = Field(default=None, max_length=254)
    website: Optional[str] = Field(default=None, max_length=300)
    logo: Optional[str] = Field(default=None, max_length=80)  # stored file key
    # licensee (AFSL holder the firm operates under)
    licensee_name: Optional[str] = Field(default=None, max_length=200)
    licensee_abn: Optional[str] = Field(default=None, max_length=20)
    licensee_afsl: Optional[str] = Field(default=None, max_length=40)
    licensee_phone: Optional[str] = Field(default=None, max_length=40)
    licensee_email: Optional[str] = Field(default=None, max_length=254)
    licensee_website: Optional[str] = Field(default=None, max_length=300)
    licensee_fsg_link: Optional[str] = Field(default=None, max_length=300)
    licensee_privacy_policy_link: Optional[str] = Field(default=None, max_length=300)
    licensee_logo: Optional[str] = Field(default=None, max_length=80)
    # fees: brokerage percent with dollar max/min, and the external broker's adviser code
    fee: Optional[Decimal] = percent_field()
    max_fee: Optional[Decimal] = money_field()
    min_fee: Optional[Decimal] = money_field()
    ausiex_code: Optional[str] = Field(default=None, max_length=40)
    # orders: their default life in days (None: the product's default), good till cancelled when the
    # firm says so, and how far below its trigger a triggered stop loss may sell (percent; None: at market)
    order_expiry_days: Optional[int] = Field(default=None)
    order_good_till_cancelled: bool = Field(default=False, sa_column=Column(Boolean, nullable=False,
                                                                             server_default=false()))
    stop_loss_limit_gap: Optional[Decimal] = percent_field()
    # the record of advice: its layout and branding (None: the default layout, the product's colour)
    # and the template data of its CGT estimate (app.domain.firm_documents.RofaTemplate)
    rofa_layout: Optional[str] = Field(default=None, max_length=20)
    rofa_colour: Optional[str] = Field(default=None, max_length=7)
    rofa_disclaimer: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    rofa_footer: Optional[str] = Field(default=None, max_length=300)
    cgt_hin_percent: Optional[Decimal] = percent_field()
    cgt_discount_percent: Optional[Decimal] = percent_field()
    cgt_asset_comments: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON {code: comment}

    deleted_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)
    version: int = Field(default=1, nullable=False)


# ---- users ------------------------------------------------------------------------------------
class User(AddressColumns, table=True):
    __tablename__ = "users"
    __table_args__ = (Index("ix_users_firm_role", "firm_id", "role"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(sa_column=Column(String(254), nullable=False, unique=True))
    first_name: str = Field(sa_column=Column(String(100), nullable=False))
    last_name: str = Field(sa_column=Column(String(100), nullable=False))
    preferred_name: Optional[str] = Field(default=None, max_length=100)
    phone: Optional[str] = Field(default=None, max_length=40)
    role: str = Field(sa_column=Column(String(20), nullable=False))
    status: str = Field(default="active", sa_column=Column(String(20), nullable=False, server_default="active"))
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id", index=True)
    adviser_id: Optional[int] = Field(default=None, foreign_key="users.id", index=True)
    password_hash: Optional[str] = Field(default=None, sa_column=Column(String(200), nullable=True))
    photo: Optional[str] = Field(default=None, max_length=80)
    signature: Optional[str] = Field(default=None, max_length=80)
    # An adviser's authorised representative number (ASIC), printed under their name on client documents.
    ar_number: Optional[str] = Field(default=None, max_length=40)
    default_logo: Optional[str] = Field(default=None, max_length=80)
    activated_at: Optional[datetime] = utc_field()
    logined_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)
    version: int = Field(default=1, nullable=False)


class SessionToken(SQLModel, table=True):
    """A sign-in session. Only the SHA-256 of the token is stored."""

    __tablename__ = "session_tokens"

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    user_id: int = Field(foreign_key="users.id", index=True)
    created_at: datetime = utc_field(default_now=True)
    expires_at: datetime = utc_field(nullable=False)  # the absolute lifetime
    revoked_at: Optional[datetime] = utc_field()
    last_seen_at: Optional[datetime] = utc_field()  # the idle lifetime counts from here


class DownloadTicket(SQLModel, table=True):
    """A download link's token: good for one path, once, for a couple of minutes, and only while
    the session that asked for it lasts. Only the SHA-256 of the ticket is stored."""

    __tablename__ = "download_tickets"

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    session_token_id: int = Field(foreign_key="session_tokens.id", index=True)
    path: str = Field(sa_column=Column(String(400), nullable=False))
    created_at: datetime = utc_field(default_now=True)
    expires_at: datetime = utc_field(nullable=False)
    used_at: Optional[datetime] = utc_field()


class ActionToken(SQLModel, table=True):
    """Single-use e-mailed tokens: activation, password recovery, e-mail change."""

    __tablename__ = "action_tokens"

    id: Optional[int] = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    purpose: str = Field(sa_column=Column(String(20), nullable=False))
    user_id: int = Field(foreign_key="users.id", index=True)
    new_email: Optional[str] = Field(default=None, max_length=254)
    created_at: datetime = utc_field(default_now=True)
    expires_at: datetime = utc_field(nullable=False)
    used_at: Optional[datetime] = utc_field()


class SigninFailure(SQLModel, table=True):
    """Failed sign-in attempts, counted per e-mail to throttle password guessing."""

    __tablename__ = "signin_failures"

    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(sa_column=Column(String(254), nullable=False, index=True))
    ip: Optional[str] = Field(default=None, max_length=64)
    created_at: datetime = utc_field(default_now=True, index=True)


# ---- mail -------------------------------------------------------------------------------------
class OutboxMail(SQLModel, table=True):
    """Every e-mail the product sends; delivered by SMTP when configured, else kept here to read."""

    __tablename__ = "outbox_mail"

    id: Optional[int] = Field(default=None, primary_key=True)
    to_address: str = Field(sa_column=Column(String(254), nullable=False, index=True))
    subject: str = Field(sa_column=Column(String(300), nullable=False))
    body: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = utc_field(default_now=True)
    sent_at: Optional[datetime] = utc_field()
    error: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    # the HTML part (the body above is the plain-text part), the firm whose name and logo it carries,
    # and the SMTP attempts: a failed send is tried again from next_attempt_at on
    html: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id")
    attempts: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))
    next_attempt_at: Optional[datetime] = utc_field(index=True)


class OutboxAttachment(SQLModel, table=True):
    """A file sent with an outgoing e-mail. A document (record of advice, trade recommendations)
    is named when the message is queued and its bytes are written once it is built, after the
    action commits (`document`, `object_id` and `reader_id`, whose view it is, say what to build)."""

    __tablename__ = "outbox_attachments"

    id: Optional[int] = Field(default=None, primary_key=True)
    mail_id: int = Field(foreign_key="outbox_mail.id", index=True)
    file_name: str = Field(sa_column=Column(String(255), nullable=False))
    content_type: str = Field(sa_column=Column(String(100), nullable=False))
    document: Optional[str] = Field(default=None, max_length=40)
    object_id: Optional[int] = Field(default=None)
    reader_id: Optional[int] = Field(default=None, foreign_key="users.id")
    data: Optional[bytes] = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    size: Optional[int] = Field(default=None)


# ---- asset universe ---------------------------------------------------------------------------
class AssetClass(SQLModel, table=True):
    """Asset classes. `is_cash` marks the system cash class every model contains."""

    __tablename__ = "asset_classes"

    id: Optional[int] = Field(default=None, primary_key=True)
    title: str = Field(sa_column=Column(String(100), nullable=False))
    is_cash: bool = Field(default=False, nullable=False)
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id", index=True)  # None: every firm
    idx: int = Field(default=0, nullable=False)
    created_at: datetime = utc_field(default_now=True)


class AssetType(SQLModel, table=True):
    __tablename__ = "asset_types"

    id: Optional[int] = Field(default=None, primary_key=True)
    title: str = Field(sa_column=Column(String(100), nullable=False))
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id", index=True)  # None: every firm
    created_at: datetime = utc_field(default_now=True)


class IndustryGroup(SQLModel, table=True):
    __tablename__ = "industry_groups"

    id: Optional[int] = Field(default=None, primary_key=True)
    title: str = Field(sa_column=Column(String(100), nullable=False))
    color: str = Field(default="#3e63dd", max_length=20)
    idx: int = Field(default=0, nullable=False, index=True)
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class Asset(SQLModel, table=True):
    """A listed asset (ASX code) with its latest close and performance figures."""

    __tablename__ = "assets"

    id: Optional[int] = Field(default=None, primary_key=True)
    code: str = Field(sa_column=Column(String(20), nullable=False, unique=True))
    name: str = Field(sa_column=Column(String(200), nullable=False))
    class_id: int = Field(foreign_key="asset_classes.id", index=True)
    type_id: Optional[int] = Field(default=None, foreign_key="asset_types.id", index=True)
    industry_group_id: Optional[int] = Field(default=None, foreign_key="industry_groups.id", index=True)
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id", index=True)  # None: the shared universe
    last_close_price: Optional[Decimal] = quantity_field()
    last_close_date: Optional[datetime] = utc_field()
    dividend_yield: Optional[Decimal] = percent_field()
    one_month_return: Optional[Decimal] = percent_field()
    six_month_return: Optional[Decimal] = percent_field()
    url: Optional[str] = Field(default=None, max_length=300)
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class AssetPrice(SQLModel, table=True):
    """Daily close history."""

    __tablename__ = "asset_prices"
    __table_args__ = (UniqueConstraint("asset_id", "price_date", name="uq_asset_prices_asset_date"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    asset_id: int = Field(foreign_key="assets.id", index=True)
    price_date: date_type = Field(nullable=False)
    close: Decimal = quantity_field(nullable=False)


# ---- models -----------------------------------------------------------------------------------
class Model(SQLModel, table=True):
    """A model portfolio. The columns and the component tables below hold the current version;
    every save also writes a ModelVersion row with the full snapshot (history)."""

    __tablename__ = "models"

    id: Optional[int] = Field(default=None, primary_key=True)
    firm_id: int = Field(foreign_key="firms.id", index=True)  # the owner firm
    name: str = Field(sa_column=Column(String(200), nullable=False))
    status: str = Field(default="draft", sa_column=Column(String(20), nullable=False))  # draft | active
    allocation_method: str = Field(default="equal_amounts", sa_column=Column(String(20), nullable=False))
    availability: str = Field(default="nobody", sa_column=Column(String(20), nullable=False))
    analyst_recommendations: bool = Field(default=True, nullable=False)
    class_allocation: bool = Field(default=True, nullable=False)
    type_allocation: bool = Field(default=True, nullable=False)
    industry_group_allocation: bool = Field(default=True, nullable=False)
    analyst_recommendations_date: Optional[datetime] = utc_field()
    version: int = Field(default=1, nullable=False)  # the current version number (and edit-conflict check)
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    deleted_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class ModelVersion(SQLModel, table=True):
    __tablename__ = "model_versions"
    __table_args__ = (UniqueConstraint("model_id", "version", name="uq_model_versions_model_version"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    version: int = Field(nullable=False)
    snapshot: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the model as saved
    moderator_id: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)


class ModelSharedFirm(SQLModel, table=True):
    __tablename__ = "model_shared_firms"

    model_id: int = Field(foreign_key="models.id", primary_key=True)
    firm_id: int = Field(foreign_key="firms.id", primary_key=True, index=True)


class ModelClass(SQLModel, table=True):
    __tablename__ = "model_classes"
    __table_args__ = (UniqueConstraint("model_id", "class_id", name="uq_model_classes_model_class"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    class_id: int = Field(foreign_key="asset_classes.id")
    allocation: Decimal = percent_field(nullable=False)
    min: Optional[Decimal] = percent_field()
    max: Optional[Decimal] = percent_field()
    assets_limit: Optional[int] = Field(default=None)
    priority: int = Field(default=0, nullable=False)


class ModelAsset(SQLModel, table=True):
    __tablename__ = "model_assets"
    __table_args__ = (UniqueConstraint("model_id", "asset_id", name="uq_model_assets_model_asset"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    class_id: int = Field(foreign_key="asset_classes.id")
    asset_id: int = Field(foreign_key="assets.id", index=True)
    alt_asset_id: Optional[int] = Field(default=None, foreign_key="assets.id")
    priority: int = Field(default=0, nullable=False)
    percentage: Optional[Decimal] = percent_field()  # percentages method: share of the portfolio
    included_at: datetime = utc_field(default_now=True)
    inclusion_price: Optional[Decimal] = quantity_field()  # for the since-inclusion return


class ModelType(SQLModel, table=True):
    __tablename__ = "model_types"
    __table_args__ = (UniqueConstraint("model_id", "type_id", name="uq_model_types_model_type"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    type_id: int = Field(foreign_key="asset_types.id")
    allocation: Optional[Decimal] = percent_field()
    min: Optional[Decimal] = percent_field()
    max: Optional[Decimal] = percent_field()


class ModelIndustryGroup(SQLModel, table=True):
    __tablename__ = "model_industry_groups"
    __table_args__ = (UniqueConstraint("model_id", "industry_group_id", name="uq_model_industry_groups_model_group"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    industry_group_id: int = Field(foreign_key="industry_groups.id")
    allocation: Optional[Decimal] = percent_field()
    min: Optional[Decimal] = percent_field()
    max: Optional[Decimal] = percent_field()
    priority: int = Field(default=0, nullable=False)


class ModelEquivalent(SQLModel, table=True):
    __tablename__ = "model_equivalents"
    __table_args__ = (UniqueConstraint("model_id", "asset_id", "eq_asset_id", name="uq_model_equivalents"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    asset_id: int = Field(foreign_key="assets.id")
    eq_asset_id: int = Field(foreign_key="assets.id")


class ModelCommentary(SQLModel, table=True):
    __tablename__ = "model_commentaries"

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    type: str = Field(sa_column=Column(String(20), nullable=False))  # market | recommendation
    description: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime = utc_field(default_now=True)


# ---- recommendations --------------------------------------------------------------------------
class LongTermRecommendation(SQLModel, table=True):
    __tablename__ = "long_term_recommendations"
    __table_args__ = (UniqueConstraint("model_id", "asset_id", name="uq_long_terms_model_asset"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id", index=True)
    asset_id: int = Field(foreign_key="assets.id")
    action: str = Field(sa_column=Column(String(10), nullable=False))  # buy | sell | hold
    comment: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class ShortTermRecommendation(SQLModel, table=True):
    """Analyst (short-term) recommendations. Deleting marks them deleted; at most one active per asset."""

    __tablename__ = "short_term_recommendations"
    __table_args__ = (Index("ix_short_terms_model_status", "model_id", "status"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    model_id: int = Field(foreign_key="models.id")
    asset_id: int = Field(foreign_key="assets.id")
    action: str = Field(sa_column=Column(String(10), nullable=False))  # ACC, BUY, HOLD, ... SL/TSP
    comment: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    price: Optional[Decimal] = quantity_field()  # limit price
    yield_: Optional[Decimal] = Field(default=None, sa_column=Column("yield", Numeric(9, 4), nullable=True))
    status: str = Field(default="active", sa_column=Column(String(10), nullable=False))  # active | deleted
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


# ---- brokers and institutions (reference data, seeded by `app.cli setup`) -------------------------
class Broker(SQLModel, table=True):
    """A stockbroker a portfolio trades through (the portfolio list's broker filter)."""

    __tablename__ = "brokers"

    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(String(100), nullable=False, unique=True))
    code: str = Field(sa_column=Column(String(20), nullable=False, unique=True))


class Institution(SQLModel, table=True):
    """A bank, building society or credit union offering cash accounts, term deposits or
    at-call accounts. `product_types` is a comma-separated list of product type names."""

    __tablename__ = "institutions"

    id: Optional[int] = Field(default=None, primary_key=True)
    title: str = Field(sa_column=Column(String(200), nullable=False, unique=True))
    provider_type: str = Field(sa_column=Column(String(40), nullable=False))  # Bank | Building Society | Credit Union
    product_types: str = Field(sa_column=Column(String(200), nullable=False))


# ---- client portfolios (investments) ----------------------------------------------------------
class Portfolio(AddressColumns, table=True):
    """A client portfolio (an "investment" in the REST calls). `firm_id` is the owner firm (the
    firm of its holders and adviser); `model_id` the model it follows, if linked."""

    __tablename__ = "investments"
    __table_args__ = (Index("ix_investments_firm_inactive", "firm_id", "inactive"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    firm_id: int = Field(foreign_key="firms.id", index=True)
    name: str = Field(sa_column=Column(String(200), nullable=False))
    type: str = Field(sa_column=Column(String(20), nullable=False))  # SMSF | SAVINGS | TRUST | COMPANY | SOLE_TRADER
    trustee_name: Optional[str] = Field(default=None, max_length=200)
    trustee_abn: Optional[str] = Field(default=None, max_length=20)
    company_name: Optional[str] = Field(default=None, max_length=200)
    company_abn: Optional[str] = Field(default=None, max_length=20)
    soa_date: Optional[date_type] = Field(default=None)
    model_id: Optional[int] = Field(default=None, foreign_key="models.id", index=True)
    adviser_id: Optional[int] = Field(default=None, foreign_key="users.id", index=True)
    inactive: bool = Field(default=True, nullable=False)
    tax_treatment: str = Field(default="fifo", sa_column=Column(String(20), nullable=False, server_default="fifo"))
    sell_look_back_period: int = Field(default=0, nullable=False)
    # bank and broker
    institution_id: Optional[int] = Field(default=None, foreign_key="institutions.id")
    bank_bsb: Optional[str] = Field(default=None, max_length=10)
    bank_account: Optional[str] = Field(default=None, max_length=20)
    broker_id: Optional[int] = Field(default=None, foreign_key="brokers.id", index=True)
    broker_account: Optional[str] = Field(default=None, max_length=40)
    hin: Optional[str] = Field(default=None, max_length=20)
    facility_id: Optional[str] = Field(default=None, max_length=40)
    # adviser fees (record of advice)
    fee_percent: Optional[Decimal] = percent_field()
    fee_limit_min: Optional[Decimal] = money_field()
    fee_limit_max: Optional[Decimal] = money_field()
    # asset allocation limits (the percentages_* variants apply to percentages-method models)
    min_asset_allocation: Optional[Decimal] = percent_field()
    min_asset_allocation_value: Optional[Decimal] = money_field()
    max_asset_allocation_value: Optional[Decimal] = money_field()
    max_exposure: Optional[Decimal] = percent_field()
    min_trade_amount: Optional[Decimal] = money_field()
    min_cash_allocation: Optional[Decimal] = percent_field()
    min_cash_allocation_value: Optional[Decimal] = money_field()
    percentages_max_exposure: Optional[Decimal] = percent_field()
    percentages_min_trade_amount: Optional[Decimal] = money_field()
    percentages_min_cash_balance: Optional[Decimal] = percent_field()
    percentages_min_cash_balance_value: Optional[Decimal] = money_field()
    # switches: custom class / industry group allocation (rows below), calculation suspension
    class_allocation: bool = Field(default=False, nullable=False)
    industry_group_allocation: bool = Field(default=False, nullable=False)
    suspend_rebalancing: bool = Field(default=False, nullable=False)
    suspend_tr_calculation: bool = Field(default=False, nullable=False)
    # approval settings (spec 001 s3/s9): a JSON object of the named switches and receivers
    approval_settings: str = Field(sa_column=Column(Text, nullable=False))
    # broker credentials (spec 002 s2): the Macquarie code and password as Fernet tokens, never in clear
    broker_auth_code_secret: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    broker_auth_pass_secret: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    broker_code_expiry_date: Optional[date_type] = Field(default=None)
    broker_credentials_updated_at: Optional[datetime] = utc_field()
    version: int = Field(default=1, nullable=False)
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    deleted_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class PortfolioUser(SQLModel, table=True):
    """A holder of a portfolio (a client user); `is_owner` marks the owners."""

    __tablename__ = "investment_users"

    investment_id: int = Field(foreign_key="investments.id", primary_key=True)
    user_id: int = Field(foreign_key="users.id", primary_key=True, index=True)
    is_owner: bool = Field(default=True, nullable=False)


class PortfolioClass(SQLModel, table=True):
    """The portfolio's own class allocation (used when `Portfolio.class_allocation` is on)."""

    __tablename__ = "investment_classes"
    __table_args__ = (UniqueConstraint("investment_id", "class_id", name="uq_investment_classes"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    class_id: int = Field(foreign_key="asset_classes.id")
    allocation: Decimal = percent_field(nullable=False)
    min: Optional[Decimal] = percent_field()
    max: Optional[Decimal] = percent_field()


class PortfolioIndustryGroup(SQLModel, table=True):
    """The portfolio's industry group caps (used when `Portfolio.industry_group_allocation` is on)."""

    __tablename__ = "investment_industry_groups"
    __table_args__ = (UniqueConstraint("investment_id", "industry_group_id", name="uq_investment_industry_groups"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    industry_group_id: int = Field(foreign_key="industry_groups.id")
    allocation: Decimal = percent_field(nullable=False)


class PortfolioException(SQLModel, table=True):
    """An exception for one asset or custom holding: dont_hold | substitute | manual_trade_decision | lock."""

    __tablename__ = "investment_exceptions"

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    asset_id: Optional[int] = Field(default=None, foreign_key="assets.id")
    custom_holding_id: Optional[int] = Field(default=None, foreign_key="custom_holdings.id")
    action: str = Field(sa_column=Column(String(30), nullable=False))
    substitute_asset_id: Optional[int] = Field(default=None, foreign_key="assets.id")


class CustomHolding(SQLModel, table=True):
    """A holding the product does not trade (property, unlisted fund ...): a name, a class and a value."""

    __tablename__ = "custom_holdings"
    __table_args__ = (UniqueConstraint("investment_id", "name", name="uq_custom_holdings_investment_name"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    name: str = Field(sa_column=Column(String(200), nullable=False))
    class_id: int = Field(foreign_key="asset_classes.id")
    fee: Optional[Decimal] = percent_field()
    value: Decimal = money_field(nullable=False)
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


# ---- deposits and transactions ----------------------------------------------------------------
class Deposit(SQLModel, table=True):
    """A term deposit or an at-call account of a portfolio (spec 002 s3 Deposit)."""

    __tablename__ = "deposits"

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    product_type: str = Field(sa_column=Column(String(30), nullable=False))  # Term Deposits | At Call Account
    institution_id: Optional[int] = Field(default=None, foreign_key="institutions.id")
    provider_name: str = Field(sa_column=Column(String(200), nullable=False))
    provider_type: Optional[str] = Field(default=None, max_length=40)
    provider_id: Optional[str] = Field(default=None, max_length=40)
    facility_id: Optional[str] = Field(default=None, max_length=40)
    account_number: Optional[str] = Field(default=None, max_length=40)
    deal_id: str = Field(sa_column=Column(String(40), nullable=False))
    start_date: date_type = Field(nullable=False)
    maturity_date: Optional[date_type] = Field(default=None)
    maturity_term: Optional[int] = Field(default=None)  # months
    rate: Optional[Decimal] = percent_field()
    auto_matured: bool = Field(default=True, nullable=False)
    deal_status: str = Field(sa_column=Column(String(60), nullable=False))
    closed_at: Optional[datetime] = utc_field()
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class AssetTransaction(SQLModel, table=True):
    """A trade or corporate action on a listed asset, or a deposit movement (spec 002 s3/s4).
    Every asset transaction posts its cash transaction (CashTransaction.linked_transaction_id)
    in the same database transaction."""

    __tablename__ = "asset_transactions"
    __table_args__ = (Index("ix_asset_transactions_investment_asset", "investment_id", "asset_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id")  # the composite index leads with it
    asset_id: Optional[int] = Field(default=None, foreign_key="assets.id")
    deposit_id: Optional[int] = Field(default=None, foreign_key="deposits.id", index=True)
    type: str = Field(sa_column=Column(String(30), nullable=False))
    action: Optional[str] = Field(default=None, max_length=10)  # buy | sell
    status: str = Field(sa_column=Column(String(30), nullable=False))
    quantity: Optional[Decimal] = quantity_field()
    price: Optional[Decimal] = quantity_field()
    fee: Optional[Decimal] = money_field()
    gst: Optional[Decimal] = money_field()
    amount: Optional[Decimal] = money_field()
    franking_credits: Optional[Decimal] = money_field()
    ratio: Optional[str] = Field(default=None, max_length=20)
    trade_at: datetime = utc_field(nullable=False)
    ex_date: Optional[datetime] = utc_field()
    settlement_at: Optional[datetime] = utc_field()
    contract_note: Optional[str] = Field(default=None, max_length=80)
    order_id: Optional[str] = Field(default=None, max_length=80)
    limit_price: Optional[Decimal] = quantity_field()
    om_status: Optional[str] = Field(default=None, max_length=30)  # order management: success | error | cancelled
    payload: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    replaces_id: Optional[int] = Field(default=None, foreign_key="asset_transactions.id", index=True)  # error re-creation
    # an order placed by a broker file export: the recommended trade it carries out, and its expiry
    trade_transaction_id: Optional[int] = Field(default=None, foreign_key="trade_transactions.id", index=True)
    expires_at: Optional[datetime] = utc_field()
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


class BrokerOrder(SQLModel, table=True):
    """An order sent to a broker (spec 001 s3 trade file types, 002 s4 statuses): what was asked,
    of which broker, until when, and where it stands. Its open remainder is the asset transaction
    in status processing (Placed) that holdings, cash and the next calculation read; each fill
    posts an executed asset transaction of its own."""

    __tablename__ = "broker_orders"

    id: Optional[int] = Field(default=None, primary_key=True)
    firm_id: int = Field(foreign_key="firms.id", index=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    broker_id: Optional[int] = Field(default=None, foreign_key="brokers.id")
    asset_id: int = Field(foreign_key="assets.id")
    trade_transaction_id: Optional[int] = Field(default=None, foreign_key="trade_transactions.id", index=True)
    open_transaction_id: Optional[int] = Field(default=None, foreign_key="asset_transactions.id", index=True)
    reference: str = Field(sa_column=Column(String(40), nullable=False, unique=True))
    side: str = Field(sa_column=Column(String(4), nullable=False))            # BUY | SELL
    order_type: str = Field(sa_column=Column(String(20), nullable=False))     # market | limit | stop_loss
    quantity: Decimal = quantity_field(nullable=False)
    filled_quantity: Decimal = Field(default=Decimal(0), sa_column=Column(Numeric(18, 6, asdecimal=True),
                                                                          nullable=False, server_default="0"))
    limit_price: Optional[Decimal] = quantity_field()
    stop_price: Optional[Decimal] = quantity_field()
    # the price the order was valued at when placed (its limit, its trigger, else the last close)
    placed_price: Optional[Decimal] = quantity_field()
    expires_on: Optional[date_type] = Field(default=None)                     # None: good till cancelled
    status: str = Field(sa_column=Column(String(20), nullable=False, index=True))
    reason: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    placed_at: datetime = utc_field(default_now=True, index=True)
    placed_by: Optional[int] = Field(default=None, foreign_key="users.id")
    closed_at: Optional[datetime] = utc_field()
    updated_at: datetime = utc_field(default_now=True)


class BrokerOrderVersion(SQLModel, table=True):
    """Each version of an order sent to the broker: New, then any Amend or Cancel."""

    __tablename__ = "broker_order_versions"
    __table_args__ = (UniqueConstraint("order_id", "version", name="uq_broker_order_versions_order_version"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="broker_orders.id")  # uq_broker_order_versions_order_version leads with it
    version: int = Field(nullable=False)
    action: str = Field(sa_column=Column(String(10), nullable=False))         # New | Amend | Cancel
    quantity: Decimal = quantity_field(nullable=False)
    limit_price: Optional[Decimal] = quantity_field()
    stop_price: Optional[Decimal] = quantity_field()
    expires_on: Optional[date_type] = Field(default=None)
    file_kind: Optional[str] = Field(default=None, max_length=20)
    # the recommendation this version carried out (an Amend or Cancel: a later recommendation)
    trade_transaction_id: Optional[int] = Field(default=None, foreign_key="trade_transactions.id", index=True)
    sent_at: datetime = utc_field(default_now=True)
    sent_by: Optional[int] = Field(default=None, foreign_key="users.id")


class BrokerOrderFill(SQLModel, table=True):
    """A fill the broker reported: unique by its contract note or fill id, so that the same file
    uploaded twice executes nothing the second time."""

    __tablename__ = "broker_order_fills"

    id: Optional[int] = Field(default=None, primary_key=True)
    order_id: int = Field(foreign_key="broker_orders.id", index=True)
    fill_key: str = Field(sa_column=Column(String(120), nullable=False, unique=True))
    quantity: Decimal = quantity_field(nullable=False)
    price: Decimal = quantity_field(nullable=False)
    brokerage: Decimal = money_field(nullable=False)
    trade_at: datetime = utc_field(nullable=False)
    settlement_at: Optional[datetime] = utc_field()
    asset_transaction_id: int = Field(foreign_key="asset_transactions.id")
    created_at: datetime = utc_field(default_now=True)
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")


class CashTransaction(SQLModel, table=True):
    """A movement of the portfolio's cash account. `price` is the signed amount's magnitude;
    `action` increase | decrease gives its direction. Only executed ones count toward totals."""

    __tablename__ = "cash_transactions"
    __table_args__ = (Index("ix_cash_transactions_investment_trade_at", "investment_id", "trade_at"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id")  # the composite index leads with it
    type: str = Field(sa_column=Column(String(30), nullable=False))  # opening_balance | cash | income | linked
    action: str = Field(sa_column=Column(String(10), nullable=False))  # increase | decrease
    status: str = Field(sa_column=Column(String(30), nullable=False))
    price: Decimal = money_field(nullable=False)
    trade_at: datetime = utc_field(nullable=False)
    settlement_at: Optional[datetime] = utc_field()
    linked_transaction_id: Optional[int] = Field(default=None, foreign_key="asset_transactions.id", index=True)
    payload: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON: description, ex_date, franking_credits
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


# ---- tax ---------------------------------------------------------------------------------------
class CarriedForwardLoss(SQLModel, table=True):
    """The net capital loss a portfolio brings into a financial year from earlier years (entered by
    staff; `year` is the year the financial year ends in: 2026 is 1 July 2025 - 30 June 2026)."""

    __tablename__ = "carried_forward_losses"
    __table_args__ = (UniqueConstraint("investment_id", "year", name="uq_carried_forward_losses_investment_year"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    year: int = Field(nullable=False)
    amount: Decimal = money_field(nullable=False)
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    updated_at: datetime = utc_field(default_now=True)


# ---- target portfolios, records of advice, trade instructions, bulk runs -------------------------
class DecisionTrail(SQLModel):
    """Who created, validated, approved, declined and moderated a version of advice, and when;
    `row_version` detects concurrent edits. Shared by target portfolios and trade instructions."""

    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    validated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    approved_by: Optional[int] = Field(default=None, foreign_key="users.id")
    declined_by: Optional[int] = Field(default=None, foreign_key="users.id")
    moderator_id: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = shared_utc_field(default_now=True)
    validated_at: Optional[datetime] = shared_utc_field()
    approved_at: Optional[datetime] = shared_utc_field()
    declined_at: Optional[datetime] = shared_utc_field()
    updated_at: datetime = shared_utc_field(default_now=True)
    row_version: int = Field(default=1, nullable=False)


class TargetPortfolio(DecisionTrail, table=True):
    """One calculated (or edited) target portfolio of a portfolio. Every calculation and every save
    is a new row (a version); nothing is overwritten. `result` is the engine's output as JSON (the
    assets with their reasons, class and industry group allocations, cash after trades);
    `row_version` detects concurrent edits."""

    __tablename__ = "target_portfolios"
    __table_args__ = (
        UniqueConstraint("investment_id", "version", name="uq_target_portfolios_investment_version"),
        UniqueConstraint("investment_id", "bulk_run_id", name="uq_target_portfolios_investment_run"),
        Index("ix_target_portfolios_investment_status", "investment_id", "status"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id")
    version: int = Field(nullable=False)
    status: str = Field(sa_column=Column(String(20), nullable=False))  # draft | validated | active | declined | failed
    not_enough_cash: bool = Field(default=False, nullable=False)
    error_message: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    value: Optional[Decimal] = money_field()
    model_id: Optional[int] = Field(default=None, foreign_key="models.id")
    model_version: Optional[int] = Field(default=None)
    allocation_method: Optional[str] = Field(default=None, max_length=20)
    result: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    bulk_run_id: Optional[int] = Field(default=None, foreign_key="bulk_runs.id", index=True)


class TargetPortfolioComment(SQLModel, table=True):
    """Market and recommendation commentary of a target portfolio (its record of advice)."""

    __tablename__ = "target_portfolio_comments"

    id: Optional[int] = Field(default=None, primary_key=True)
    tp_id: int = Field(foreign_key="target_portfolios.id", index=True)
    model_id: Optional[int] = Field(default=None, foreign_key="models.id")
    type: str = Field(sa_column=Column(String(20), nullable=False))  # market | recommendation
    description: str = Field(sa_column=Column(Text, nullable=False))
    updated_by: Optional[int] = Field(default=None, foreign_key="users.id")
    updated_at: datetime = utc_field(default_now=True)


class TradeInstruction(DecisionTrail, table=True):
    """Trade recommendations generated for a portfolio from a target portfolio (a version each)."""

    __tablename__ = "trade_instructions"
    __table_args__ = (
        UniqueConstraint("investment_id", "version", name="uq_trade_instructions_investment_version"),
        UniqueConstraint("investment_id", "bulk_run_id", name="uq_trade_instructions_investment_run"),
    )

    id: Optional[int] = Field(default=None, primary_key=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    target_portfolio_id: Optional[int] = Field(default=None, foreign_key="target_portfolios.id", index=True)
    version: int = Field(nullable=False)
    status: str = Field(sa_column=Column(String(30), nullable=False))
    validated: bool = Field(default=False, nullable=False)
    payload: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    error_message: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    auto_approve_at: Optional[datetime] = utc_field(index=True)
    bulk_run_id: Optional[int] = Field(default=None, foreign_key="bulk_runs.id", index=True)


class TradeTransaction(SQLModel, table=True):
    """One recommended trade of a trade instruction."""

    __tablename__ = "trade_transactions"
    # the approved trades of an instruction (what a calculation counts as pending and the trade file
    # lists), found without reading every version's recommendations: a firm keeps all of them
    __table_args__ = (Index("ix_trade_transactions_approved", "trade_instruction_id",
                            postgresql_where=text("status = 'approved'"), sqlite_where=text("status = 'approved'")),)

    id: Optional[int] = Field(default=None, primary_key=True)
    trade_instruction_id: int = Field(foreign_key="trade_instructions.id", index=True)
    asset_id: int = Field(foreign_key="assets.id")
    asset_code: str = Field(sa_column=Column(String(20), nullable=False))
    action: str = Field(sa_column=Column(String(10), nullable=False))  # increase | decrease
    status: str = Field(sa_column=Column(String(30), nullable=False))
    decision: Optional[str] = Field(default=None, max_length=10)  # approved | declined
    user_action: Optional[str] = Field(default=None, max_length=40)
    quantity: Decimal = quantity_field(nullable=False)
    price: Decimal = quantity_field(nullable=False)
    asset_price: Optional[Decimal] = quantity_field()
    limit_price: Optional[Decimal] = quantity_field()
    value: Decimal = money_field(nullable=False)
    fee: Decimal = money_field(nullable=False)
    cost_base: Optional[Decimal] = money_field()
    amount: Decimal = money_field(nullable=False)
    pending: Decimal = money_field(nullable=False)
    initial_quantity: Optional[Decimal] = quantity_field()
    initial_price: Optional[Decimal] = quantity_field()
    current_units: Optional[Decimal] = quantity_field()
    full_sell: bool = Field(default=False, nullable=False)
    stop_loss: bool = Field(default=False, nullable=False)
    urgent: bool = Field(default=False, nullable=False)
    payload: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    approved_at: Optional[datetime] = utc_field()
    declined_at: Optional[datetime] = utc_field()
    updated_at: datetime = utc_field(default_now=True)


class TradeNote(SQLModel, table=True):
    """A "please note" item of a trade instruction (manual decision or a held asset's comment)."""

    __tablename__ = "trade_notes"

    id: Optional[int] = Field(default=None, primary_key=True)
    trade_instruction_id: int = Field(foreign_key="trade_instructions.id", index=True)
    asset_id: Optional[int] = Field(default=None, foreign_key="assets.id")
    source: str = Field(sa_column=Column(String(40), nullable=False))  # manual_trade_decision | hold_comment
    state: str = Field(sa_column=Column(String(30), nullable=False))
    decision: Optional[str] = Field(default=None, max_length=10)
    payload: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    updated_at: datetime = utc_field(default_now=True)


class TradeAction(SQLModel, table=True):
    """The action history of a trade instruction (who did what, when)."""

    __tablename__ = "trade_instruction_actions"

    id: Optional[int] = Field(default=None, primary_key=True)
    trade_instruction_id: int = Field(foreign_key="trade_instructions.id", index=True)
    actor_id: Optional[int] = Field(default=None, foreign_key="users.id")
    action: str = Field(sa_column=Column(String(60), nullable=False))
    detail: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = utc_field(default_now=True)


class BulkRun(SQLModel, table=True):
    """A bulk calculation (target portfolios or trade recommendations) over many portfolios."""

    __tablename__ = "bulk_runs"

    id: Optional[int] = Field(default=None, primary_key=True)
    kind: str = Field(sa_column=Column(String(10), nullable=False))  # tp | tr
    status: str = Field(sa_column=Column(String(20), nullable=False))  # queued | running | done
    model_ids: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON list
    firm_id: Optional[int] = Field(default=None, foreign_key="firms.id")
    total: int = Field(default=0, nullable=False)
    done: int = Field(default=0, nullable=False)
    failed: int = Field(default=0, nullable=False)
    created_by: Optional[int] = Field(default=None, foreign_key="users.id")
    created_at: datetime = utc_field(default_now=True)
    started_at: Optional[datetime] = utc_field()
    finished_at: Optional[datetime] = utc_field()
    resumed_at: Optional[datetime] = utc_field()  # pending work last queued again (see bulk_runs.resume_stalled)


class BulkRunItem(SQLModel, table=True):
    __tablename__ = "bulk_run_items"
    __table_args__ = (UniqueConstraint("run_id", "investment_id", name="uq_bulk_run_items_run_investment"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    run_id: int = Field(foreign_key="bulk_runs.id", index=True)
    investment_id: int = Field(foreign_key="investments.id", index=True)
    status: str = Field(sa_column=Column(String(20), nullable=False))  # pending | done | failed
    error: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))
    result_id: Optional[int] = Field(default=None)
    finished_at: Optional[datetime] = utc_field()


# ---- audit trail -------------------------------------------------------------------------------
class AuditEvent(SQLModel, table=True):
    """Who did what, when, to which object, from which address: before and after of the fields that
    changed. Written in the same transaction as the change; the app never updates or deletes it."""

    __tablename__ = "audit_events"
    __table_args__ = (Index("ix_audit_events_object", "object_type", "object_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    at: datetime = utc_field(default_now=True, index=True)
    actor_id: Optional[int] = Field(default=None, index=True)  # no foreign key: the record outlives everything
    actor_email: Optional[str] = Field(default=None, max_length=254)
    firm_id: Optional[int] = Field(default=None, index=True)  # the firm the object belongs to (administrators' scope)
    action: str = Field(sa_column=Column(String(60), nullable=False, index=True))
    object_type: str = Field(sa_column=Column(String(40), nullable=False))
    object_id: Optional[int] = Field(default=None)
    object_label: Optional[str] = Field(default=None, max_length=300)
    before: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    after: Optional[str] = Field(default=None, sa_column=Column(Text, nullable=True))  # JSON
    ip: Optional[str] = Field(default=None, max_length=64)
