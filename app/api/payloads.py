"""The main payloads of the REST contract, as the services build them (response models).

Each lists the fields a client may rely on, typed as sent: money, prices and quantities are
decimal strings ("1234.50"), times ISO 8601 strings in UTC. They allow extra keys (the services
add screen-specific ones), so documenting a payload never drops data.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas import Counted, Message, Open, SentText

TOAST = "on a write: the toast"


class Named(Open):
    id: int
    name: str


class Person(Open):
    first_name: Optional[str] = None
    last_name: Optional[str] = None


class Written(Open):
    """An object as a read answers it; a write answers it with its toast in `message`."""
    message: Optional[str] = Field(None, description=TOAST)


# ---- the address form (users, firms, portfolios' holders) -----------------------------------------------
class AddressFields(BaseModel):
    """The address form's fields (spec 002 s3); all empty means no address."""
    propertyName: Optional[str] = None
    unitNumber: Optional[str] = None
    streetNumber: Optional[str] = None
    streetName: Optional[str] = Field(None, description="ending in its street type: 'George Street'")
    suburb: Optional[str] = None
    state: Optional[str] = Field(None, description="in Australia the state or territory's code: NSW, VIC, ...")
    postcode: Optional[str] = Field(None, description="in Australia four digits")
    country: Optional[str] = Field(None, description="empty: Australia")


class AddressBody(BaseModel):
    """The address a write sends: left out (or null) keeps the saved one, {} removes it. The service
    checks each field with the specification's texts (errors named 'address.<field>')."""
    propertyName: SentText = None
    unitNumber: SentText = None
    streetNumber: SentText = None
    streetName: SentText = None
    suburb: SentText = None
    state: SentText = None
    postcode: SentText = None
    country: SentText = None


# ---- firms -------------------------------------------------------------------------------------------
class FirmOut(Named):
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
    orderExpiryDays: Optional[int] = Field(None, description="orders' default life in days (empty: 30)")
    orderGoodTillCancelled: Optional[bool] = Field(None, description="orders without an expiry of their own are "
                                                                     "good till cancelled")
    stopLossLimitGap: Optional[str] = Field(None, description="percent under its trigger a triggered stop loss "
                                                              "may sell (empty: at market)")
    address: Optional[AddressFields] = None
    advisers: Optional[int] = None
    clients: Optional[int] = None
    created_at: Optional[str] = None
    version: int


# ---- users -------------------------------------------------------------------------------------------
class PersonOption(Person):
    """A person as a picker lists them (a portfolio form's clients and advisers)."""
    id: int
    preferred_name: Optional[str] = None
    name: Optional[str] = None
    firm_id: Optional[int] = None
    status: Optional[str] = None


class UserOut(PersonOption):
    """A user (with shortened=1 a list gives only id, name, role and firm_id)."""
    email: Optional[str] = None
    phone: Optional[str] = None
    ar_number: Optional[str] = Field(None, description="an adviser's authorised representative number")
    role: str = Field(description="superuser, administrator, adviser or client")
    role_title: Optional[str] = None
    status_title: Optional[str] = None
    firm: Optional[Named] = None
    adviser_id: Optional[int] = None
    adviser: Optional[Named] = None
    photo_url: Optional[str] = None
    signature_url: Optional[str] = None
    default_logo_url: Optional[str] = None
    activated: Optional[bool] = None
    created_at: Optional[str] = None
    logined_at: Optional[str] = None
    address: Optional[AddressFields] = None
    version: Optional[int] = None


# ---- models ------------------------------------------------------------------------------------------
class ModelOut(Named):
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
class PortfolioOut(Named):
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
    address: Optional[AddressFields] = Field(None, description="the holder's address (a read; lists leave it out)")
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
class AdviceVersion(Open):
    """A version of a portfolio's advice (a target portfolio or its trade recommendations): its
    status, and who made, validated, approved or declined it and when."""
    id: int
    investment_id: int
    version: int
    status: str
    status_label: Optional[str] = None
    error_message: Optional[str] = None
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


class TargetPortfolioOut(AdviceVersion):
    status: str = Field(description="draft, not_enough_cash, validated, active, declined or failed")
    not_enough_cash: Optional[bool] = None
    target_portfolio_value: Optional[str] = None
    model_id: Optional[int] = None
    model_version: Optional[int] = None
    allocation_method: Optional[str] = None


class TradeInstructionOut(AdviceVersion):
    target_portfolio_id: Optional[int] = None
    validated: Optional[bool] = None
    payload: Optional[dict[str, Any]] = Field(None, description="buys, sells, brokerage, min_trade_amount")
    auto_approve_at: Optional[str] = None


# ---- small shared shapes ----------------------------------------------------------------------------
class Option(Open):
    value: str
    label: str


class Titled(Open):
    id: int
    title: str


class AssetRef(Open):
    id: int
    code: str
    name: Optional[str] = None


class Notice(Open):
    notice: str = Field(description="the toast shown after the change")
    message: Optional[str] = Field(None, description="a warning, where there is one")


class MessageCount(Message):
    count: int


class Valid(Open):
    valid: bool


# ---- system and sign-in ------------------------------------------------------------------------------
class HealthOut(Open):
    status: str


class MailOut(Open):
    id: int
    to: str
    subject: str
    body: str
    created_at: str
    sent_at: Optional[str] = None
    error: Optional[str] = None


class SigninOut(Open):
    token: str = Field(description="send it as the x-token header")
    user: UserOut


class TokenOwnerOut(Open):
    """Whose link it is: the e-mail (and on activation the first name)."""
    email: str
    first_name: Optional[str] = None


class RecoveryOut(Open):
    webmail: Optional[str] = Field(None, description="the address of the user's web mail, where known")


# ---- industry groups ----------------------------------------------------------------------------------
class IndustryGroupOption(Titled):
    color: Optional[str] = None


class IndustryGroupOut(IndustryGroupOption):
    idx: Optional[int] = Field(None, description="the position in the order")
    assets_count: Optional[int] = None


class ReorderOut(Message):
    rows: list[IndustryGroupOut]


# ---- recommendations ------------------------------------------------------------------------------------
class LongTermOut(Written):
    id: int
    model_id: int
    asset_id: int
    asset: Optional[AssetRef] = None
    action: str
    comment: Optional[str] = None
    is_new: Optional[bool] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None


class ShortTermOut(Written):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    id: int
    model_id: int
    asset_id: int
    code: Optional[str] = None
    name: Optional[str] = None
    action: str
    price: Optional[str] = None
    yield_: Optional[str] = Field(None, alias="yield")
    comment: Optional[str] = None
    status: Optional[str] = None
    is_new: Optional[bool] = None
    model_asset: Optional[bool] = Field(None, description="the asset is in the model")
    deleted: Optional[bool] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None


class UploadModelResult(Open):
    model_id: int
    name: Optional[str] = None
    success: bool
    message: Optional[str] = None


class RecommendationUploadOut(Message):
    failed: int = Field(description="how many models the file could not be loaded into")
    rows: list[UploadModelResult]


# ---- models -------------------------------------------------------------------------------------------------
class AssetClassOption(Titled):
    is_cash: Optional[bool] = None


class ModelFormOptionsOut(Open):
    classes: list[AssetClassOption]
    types: list[Titled]
    industry_groups: list[IndustryGroupOption]
    firms: list[Named]


class ModelHistoryRow(Open):
    model_id: int
    version_id: int
    created_at: Optional[str] = None
    moderator: Optional[Person] = None


class ModelHistoryOut(Counted[ModelHistoryRow]):
    """A page of a model's saved versions and how many there are."""


class ModelFormOut(Open):
    """A model as its form reads it (a saved version has is_version and current_version)."""
    id: int
    name: str
    status: str
    allocation_method: str
    version: Optional[int] = None
    version_id: Optional[int] = None
    is_version: Optional[bool] = None
    current_version: Optional[int] = None
    allocation_classes: list[dict[str, Any]] = Field(default_factory=list)
    allocation_types: list[dict[str, Any]] = Field(default_factory=list)
    industry_groups_allocations: list[dict[str, Any]] = Field(default_factory=list)
    equivalents: list[dict[str, Any]] = Field(default_factory=list)
    commentaries: list[dict[str, Any]] = Field(default_factory=list)


class ModelDetailsOut(Open):
    model: ModelFormOut
    classes: list[dict[str, Any]] = Field(description="the model's assets by class, with their returns")


# ---- asset universe ---------------------------------------------------------------------------------------
class AssetClassOut(AssetClassOption, Written):
    firm_id: Optional[int] = None
    idx: Optional[int] = None
    assets_count: Optional[int] = None


class AssetTypeOut(Titled, Written):
    firm_id: Optional[int] = None
    assets_count: Optional[int] = None


class AssetOut(AssetRef, Written):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    name: str
    class_id: Optional[int] = None
    class_title: Optional[str] = None
    class_: Optional[Titled] = Field(None, alias="class")
    type: Optional[Titled] = None
    industry_group: Optional[IndustryGroupOption] = None
    firm: Optional[Named] = None
    last_close_price: Optional[str] = None
    last_close_date: Optional[str] = None
    dividend_yield: Optional[str] = None
    one_month_return: Optional[str] = None
    six_month_return: Optional[str] = None
    url: Optional[str] = None
    prices_count: Optional[int] = None
    created_at: Optional[str] = None
    updated_at: Optional[str] = None


class PriceOut(Open):
    date: str
    close: str


class RejectedLine(Open):
    line: int
    code: Optional[str] = None
    reason: Optional[str] = None
    message: Optional[str] = None


class PriceUploadOut(Open):
    imported: int
    updated: int
    assets: int
    rejected: list[RejectedLine]
    message: Optional[str] = None


# ---- holdings and custom holdings ----------------------------------------------------------------------
class PortfolioAssetOut(AssetRef):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    url: Optional[str] = None
    class_: Optional[str] = Field(None, alias="class", description="the class's title")
    class_id: Optional[int] = None
    allocation: Optional[str] = None
    value: Optional[str] = None
    cost: Optional[str] = None


class OwnershipOut(Open):
    investment_id: int
    investment_name: Optional[str] = None
    asset_id: int
    code: Optional[str] = None
    name: Optional[str] = None
    quantity: str
    cost: Optional[str] = None


class CustomHoldingOut(Written):
    id: int
    investment_id: int
    name: str
    class_id: Optional[int] = None
    classTitle: Optional[str] = None
    class_type: Optional[str] = None
    fee: Optional[str] = None
    value: Optional[str] = None


class DeletedOut(Message):
    id: int


# ---- portfolios: options and model links -----------------------------------------------------------------
class BrokerOut(Named):
    code: Optional[str] = None


class InstitutionOut(Titled):
    provider_type: Optional[str] = None
    product_types: Optional[list[str]] = None


class PortfolioFormOptionsOut(Open):
    firm_id: Optional[int] = None
    clients: list[PersonOption]
    advisers: list[PersonOption]
    classes: list[AssetClassOption]
    industry_groups: list[IndustryGroupOption]
    brokers: list[BrokerOut]
    institutions: list[InstitutionOut]
    types: list[Option]
    tax_treatments: list[Option]
    exception_actions: list[Option]


class ModelLinkOut(Message):
    investment_id: int
    model_id: Optional[int] = None
    modelName: Optional[str] = None
    customAssetClassesChanged: Optional[bool] = None


class LinkableModelOut(Named):
    firm: Optional[Named] = None
    allocation_method: Optional[str] = None
    allocation_method_title: Optional[str] = None
    assets_count: Optional[int] = None
    cross_firm: Optional[bool] = None
    current: Optional[bool] = None


class LinkableModelsOut(Counted[LinkableModelOut]):
    portfolio: dict[str, Any] = Field(description="id, name, firm_id, firm_name, model_id, model_name, model_cross_firm, "
                                                  "custom_holdings")


# ---- a portfolio's transactions: cash, asset and deposit -----------------------------------------------------
class TransactionOut(Open):
    """What every transaction of a portfolio has, whatever it moves."""
    id: int
    investment_id: int
    type: str
    form: Optional[str] = None
    action: Optional[str] = None
    status: str
    status_label: Optional[str] = None
    amount: Optional[str] = None
    trade_at: Optional[str] = None
    description: Optional[str] = None
    payload: Optional[dict[str, Any]] = None
    can_edit: Optional[bool] = None


# ---- term deposits and at-call accounts -----------------------------------------------------------------
class DepositOut(Open):
    id: int
    investment_id: int
    ProviderProductType: str = Field(description="Term Deposits or Cash Account")
    ProviderName: Optional[str] = None
    ProviderType: Optional[str] = None
    ProviderID: Optional[str] = None
    FacilityID: Optional[str] = None
    AccountNumber: Optional[str] = None
    DealID: Optional[str] = None
    StartDate: Optional[str] = None
    MaturityDate: Optional[str] = None
    MaturityTerm: Optional[int] = None
    Rate: Optional[str] = None
    AutoMatured: Optional[bool] = None
    DealStatus: Optional[str] = None
    TransactionType: Optional[str] = None
    institution_id: Optional[int] = None
    institution: Optional[Titled] = None
    name: Optional[str] = None
    short_name: Optional[str] = None
    code: Optional[str] = None
    balance: Optional[str] = None
    closed: Optional[bool] = None
    closed_at: Optional[str] = None
    created_at: Optional[str] = None


class DepositTransactionOut(TransactionOut):
    deposit_id: int
    type_label: Optional[str] = None
    amount: str
    date: Optional[str] = None
    amm_type: Optional[str] = None
    TransactionType: Optional[str] = None
    om_status: Optional[str] = None
    can_reprocess: Optional[bool] = None


class DepositDetailOut(DepositOut):
    transactions: list[DepositTransactionOut]
    can_edit: Optional[bool] = None


class DepositWriteOut(Message):
    message: str = Field(description="'Transaction added' or 'Transaction updated'")
    deposit: DepositOut
    transaction: Optional[DepositTransactionOut] = None


class ReprocessOut(Message):
    title: str
    deposit: DepositOut
    transactions: list[DepositTransactionOut]


# ---- cash and asset transactions -----------------------------------------------------------------------------
class CashTransactionOut(TransactionOut):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    class_: Optional[str] = Field(None, alias="class")
    price: Optional[str] = None
    settlement_at: Optional[str] = None
    counted: Optional[bool] = None
    linked_transaction_id: Optional[int] = None
    linked_transaction: Optional[dict[str, Any]] = Field(None, description="the asset or deposit transaction it belongs to")
    can_delete: Optional[bool] = None
    notice: Optional[str] = Field(None, description=TOAST)


class CashTransactionsOut(Counted[CashTransactionOut]):
    balance: str
    cash_in: str
    cash_out: str
    limit: Optional[int] = None
    offset: Optional[int] = None


class OpeningBalanceOut(Open):
    id: int
    investment_id: int
    price: str
    trade_at: str
    changed: Optional[bool] = None
    changed_fields: Optional[list[str]] = None
    notice: Optional[str] = None


class AssetPositionOut(Open):
    asset_id: int
    code: str
    name: Optional[str] = None
    quantity: Optional[str] = None
    remaining_quantity: Optional[str] = None
    price: Optional[str] = None
    price_date: Optional[str] = None
    cost: Optional[str] = None
    value: Optional[str] = None
    realised_gain_loss: Optional[str] = None
    unrealised_gain_loss: Optional[str] = None
    total_bought_value: Optional[str] = None
    total_sold_value: Optional[str] = None
    bought_price: Optional[str] = None
    transactions_count: Optional[int] = None
    pending_count: Optional[int] = None
    last_trade_at: Optional[str] = None
    total_rows: Optional[int] = Field(None, description="on the first row: the number of rows of every page")


class AssetTransactionOut(TransactionOut):
    """An asset transaction (createTransaction with a cash form type answers the cash transaction)."""
    type_label: Optional[str] = None
    asset_id: Optional[int] = None
    code: Optional[str] = None
    name: Optional[str] = None
    deposit_id: Optional[int] = None
    quantity: Optional[str] = None
    display_quantity: Optional[str] = None
    price: Optional[str] = None
    unit_price: Optional[str] = None
    unit_cost: Optional[str] = None
    cost: Optional[str] = None
    value: Optional[str] = None
    fee: Optional[str] = None
    gst: Optional[str] = None
    franking_credits: Optional[str] = None
    ratio: Optional[str] = None
    ex_date: Optional[str] = None
    settlement_at: Optional[str] = None
    contract_note: Optional[str] = None
    order_id: Optional[str] = None
    limit_price: Optional[str] = None
    om_status: Optional[str] = None
    replaces_id: Optional[int] = None
    replaced_id: Optional[int] = None
    linked_transaction_id: Optional[int] = None
    can_delete: Optional[bool] = None
    edit_question: Optional[str] = None
    recommendation_action: Optional[str] = Field(None, description="the action of the recommendation that "
                                                                   "generated it (e.g. SL/SELL)")
    stop_loss: Optional[bool] = Field(None, description="generated by a stop-loss sell, tap or tsp")
    stop_loss_label: Optional[str] = Field(None, description="'Stop loss' for a stop-loss transaction")
    total_rows: Optional[int] = None
    notice: Optional[str] = Field(None, description=TOAST)
    message: Optional[str] = None


class AssetFormOption(Option):
    kind: Optional[str] = None


class TransactionFormOptionsOut(Open):
    asset_forms: list[AssetFormOption]
    cash_forms: list[Option]
    statuses: list[Option]
    panel_filters: list[str]
    page_sizes: list[int]
    default_page_size: int


class UploadOut(Open):
    """A file of lines loaded all or none: the toast and how many were loaded."""
    notice: str
    count: int


class TransactionUploadOut(UploadOut):
    asset_transactions: Optional[int] = None
    cash_transactions: Optional[int] = None


# ---- advice: records of advice, comments, bulk runs, trade transactions -----------------------------------
class CommentOut(Open):
    id: int
    type: str
    description: str
    new_comment_id: Optional[int] = None


class BulkRunItemOut(Open):
    investment_id: int
    investment_name: Optional[str] = None
    status: Optional[str] = None
    message: Optional[str] = None
    finished_at: Optional[str] = None


class BulkRunOut(Open):
    id: int
    kind: str = Field(description="tp (target portfolios) or tr (trade recommendations)")
    status: str
    total: int
    done: int
    failed: int
    waiting: Optional[bool] = Field(None, description="no portfolio finished for a while: the work waits for a worker")
    model_ids: list[int] = Field(default_factory=list)
    created_at: Optional[str] = None
    finished_at: Optional[str] = None
    errors: list[BulkRunItemOut] = Field(default_factory=list)
    recent: list[BulkRunItemOut] = Field(default_factory=list)


class ResumedOut(Open):
    pending: int = Field(description="how many portfolios were started again")


class InstructionEventOut(Open):
    id: int
    action: str
    detail: Optional[str] = None
    created_at: Optional[str] = None
    actor: Optional[Person] = None


class TradeTransactionOut(Open):
    id: int
    asset_id: Optional[int] = None
    asset_code: Optional[str] = None
    action: str
    display_action: Optional[str] = None
    status: Optional[str] = None
    status_label: Optional[str] = None
    decision: Optional[str] = None
    quantity: Optional[str] = None
    price: Optional[str] = None
    limit_price: Optional[str] = None
    value: Optional[str] = None
    fee: Optional[str] = None
    amount: Optional[str] = None


# ---- cash and pending target portfolio reports ----------------------------------------------------------------
class ReportRowOut(Open):
    investment_id: int
    portfolio_name: str
    firm_id: Optional[int] = None
    firm: Optional[str] = None
    owners: Optional[str] = None
    adviser: Optional[str] = None
    model: Optional[str] = None
    tp_id: Optional[int] = None
    version: Optional[int] = None
    status: Optional[str] = None
    status_label: Optional[str] = None
    date: Optional[str] = None
    value: Optional[str] = None
    route: Optional[dict[str, Any]] = Field(None, description="{name, params}: the screen a row opens")


class ReportOut(Counted[ReportRowOut]):
    totalAmount: str
    availableStatuses: list[Option]
    totals: dict[str, str] = Field(description="the sums of the money columns")
    firmId: Optional[int] = None
    targetPortfolioStatus: list[str] = Field(default_factory=list)
    notEnoughCash: Optional[bool] = None
    sort: Optional[str] = None
    order: Optional[str] = None


# ---- audit trail -------------------------------------------------------------------------------------------
class AuditEventOut(BaseModel):
    id: int
    at: str
    actor_id: Optional[int] = None
    actor_email: Optional[str] = None
    firm_id: Optional[int] = None
    action: str
    action_title: str
    object_type: str
    object_type_title: str
    object_id: Optional[int] = None
    object_label: Optional[str] = None
    before: dict[str, Any]
    after: dict[str, Any]
    ip: Optional[str] = None
