"""The holdings read model of one portfolio (spec 001 s2 'Portfolio holdings', s3 'Holdings
result'): its header, cash account, listed shares, term deposits and at-call accounts, custom
holdings, class allocation (actual against target), totals and pending trades, and the same
grouped by asset class for the screen and the exports. Plain values, no I/O:
app.services.holdings builds it from the database (see there for how each figure is read);
app.exports.holdings_xlsx and app.exports.holdings_pdf write it out."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from decimal import ROUND_HALF_UP, Decimal, localcontext


ZERO = Decimal(0)
HUNDRED = Decimal(100)
PERCENT_PLACES = Decimal("0.0001")


def _now() -> datetime:
    return datetime.now(timezone.utc)


# ---- the read model ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Owner:
    id: int
    name: str
    is_owner: bool


@dataclass(frozen=True)
class Header:
    id: int
    name: str
    type: str
    firm_id: int
    inactive: bool
    model_id: int | None
    model_name: str | None
    model_firm_id: int | None
    owners: tuple[Owner, ...]  # every holder, each marked owner or not
    class_allocation: bool

    @property
    def shown_owners(self) -> tuple[Owner, ...]:
        """The owners as the screens and files name them: the holders marked owner, else every holder."""
        return tuple(o for o in self.owners if o.is_owner) or self.owners

    @property
    def owners_text(self) -> str:
        """'A Smith, B Smith' ('' when the portfolio has no holder)."""
        return ", ".join(o.name for o in self.shown_owners)


@dataclass(frozen=True)
class CashLine:
    name: str
    code: str
    value: Decimal
    class_id: int | None
    class_title: str
    allocation: Decimal | None


@dataclass(frozen=True)
class ShareLine:
    asset_id: int
    code: str
    name: str
    quantity: Decimal
    price: Decimal | None
    cost: Decimal
    value: Decimal
    url: str | None
    pdf_url: str | None
    six_months_return: Decimal | None
    since_purchase: Decimal | None
    dividend_yield: Decimal | None
    class_id: int
    class_title: str
    allocation: Decimal | None


@dataclass(frozen=True)
class DepositLine:
    id: int
    code: str
    name: str
    product_type: str
    provider_name: str
    deal_id: str
    rate: Decimal | None
    start_date: date
    maturity_date: date | None
    deal_status: str
    cost: Decimal
    value: Decimal
    class_id: int | None
    class_title: str
    allocation: Decimal | None


@dataclass(frozen=True)
class CustomLine:
    id: int
    name: str
    class_id: int
    class_title: str
    class_type: str
    fee: Decimal | None
    value: Decimal
    allocation: Decimal | None


@dataclass(frozen=True)
class ClassLine:
    class_id: int
    title: str
    is_cash: bool
    value: Decimal
    cost: Decimal
    actual: Decimal | None       # percent of the total value, 4 places (None when the total is 0)
    target: Decimal | None       # percent, None when the portfolio has no target for the class
    color: str | None            # success | warning | danger (None without a target)


@dataclass(frozen=True)
class Totals:
    value: Decimal
    cost: Decimal
    cash: Decimal
    shares_value: Decimal
    shares_cost: Decimal
    deposits: Decimal
    custom_holdings: Decimal


@dataclass(frozen=True)
class PendingTrade:
    """An approved trade recommendation not executed yet."""

    trade_id: int                # the trade recommendation (TradeTransaction)
    asset_id: int
    code: str
    side: str                    # BUY | SELL
    units: Decimal               # the placed order's quantity, else the recommended quantity
    status: str                  # Approved | Placed
    order_id: int | None         # the broker order (asset transaction) while placed
    price_text: str = ""         # "Market", "Limit $12.50", "Stop loss at $30.54" (app.domain.orders.price_words)


PENDING_APPROVED, PENDING_PLACED = "Approved", "Placed"


@dataclass(frozen=True)
class Holdings:
    portfolio: Header
    cash_account: CashLine
    shares: tuple[ShareLine, ...]
    deposits: tuple[DepositLine, ...]
    custom_holdings: tuple[CustomLine, ...]
    classes: tuple[ClassLine, ...]
    totals: Totals
    target_source: str | None    # 'portfolio' | 'model' | None
    target_total: Decimal | None
    target_total_color: str | None
    as_at: datetime = field(default_factory=_now)
    pending_trades: tuple[PendingTrade, ...] = ()


# ---- small helpers ----------------------------------------------------------------------------
def percent_of(part: Decimal, whole: Decimal) -> Decimal | None:
    """part / whole as a percentage to 4 places (half up); None when whole is 0."""
    if not whole:
        return None
    with localcontext() as ctx:
        ctx.prec = 40
        return (Decimal(part) * HUNDRED / Decimal(whole)).quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP)


def since_purchase(value: Decimal, cost: Decimal) -> Decimal | None:
    """value / cost base - 1, as a percentage to 4 places; None without a cost base."""
    if not cost or cost <= 0:
        return None
    with localcontext() as ctx:
        ctx.prec = 40
        return ((Decimal(value) / Decimal(cost) - 1) * HUNDRED).quantize(PERCENT_PLACES, rounding=ROUND_HALF_UP)


# ---- by asset class (the screen and the exports list these) ---------------------------------
@dataclass(frozen=True)
class Line:
    """One row of a class section, whatever it holds (the exports and the screen list these)."""

    kind: str                    # cash | share | deposit | custom
    id: int | None
    code: str
    name: str
    quantity: Decimal | None
    cost: Decimal | None
    value: Decimal
    allocation: Decimal | None
    six_months_return: Decimal | None = None
    since_purchase: Decimal | None = None
    dividend_yield: Decimal | None = None
    fee: Decimal | None = None
    detail: str = ""


@dataclass(frozen=True)
class Section:
    klass: ClassLine
    lines: tuple[Line, ...]


def sections(h: Holdings) -> list[Section]:
    """The holdings grouped by asset class in class order: the cash class first with the cash
    account and the deposits, then every class's shares and custom holdings."""
    out: list[Section] = []
    for klass in h.classes:
        lines: list[Line] = []
        if klass.class_id == h.cash_account.class_id:
            c = h.cash_account
            lines.append(Line("cash", None, c.code, c.name, None, c.value, c.value, c.allocation))
            for d in h.deposits:
                lines.append(Line("deposit", d.id, d.code, d.name, None, d.cost, d.value, d.allocation,
                                  detail=d.product_type))
        for sh in h.shares:
            if sh.class_id == klass.class_id:
                lines.append(Line("share", sh.asset_id, sh.code, sh.name, sh.quantity, sh.cost, sh.value, sh.allocation,
                                  sh.six_months_return, sh.since_purchase, sh.dividend_yield))
        for ch in h.custom_holdings:
            if ch.class_id == klass.class_id:
                lines.append(Line("custom", ch.id, "", ch.name, None, None, ch.value, ch.allocation, fee=ch.fee,
                                  detail="Custom holding"))
        if lines or klass.target:
            out.append(Section(klass, tuple(lines)))
    return out


# ---- the day asset ownership is asked for ----------------------------------------------------
INVALID_DAY = "Please, enter a valid date format. "


def ownership_day(text: str | None) -> date | None:
    """The day GET /investments-asset-ownership names (YYYY-MM-DD, what follows the tenth character
    left out); None when none was sent (today); a ValidationError for anything else."""
    from app.domain.errors import ValidationError

    if text in (None, ""):
        return None
    try:
        return date.fromisoformat(str(text)[:10])
    except ValueError:
        raise ValidationError(INVALID_DAY, fields={"date": "invalid"}) from None
