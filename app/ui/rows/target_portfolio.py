"""A target portfolio as the screens show it (the target portfolio and its record of advice): the
summary figures, who acted and when, one table a class with every line's figures and the engine's
reasons, the industry groups, and the versions' rows, built from app.services.target_portfolios'
read model and the engine's result."""
from __future__ import annotations

import dataclasses
from decimal import ROUND_HALF_UP, Decimal

from app.domain import advice
from app.domain.advice.target_portfolios import ResultNames, TPSummary
from app.domain.allocations import bar_width
from app.domain.engine.results import AllocationTarget, AssetTarget, HoldingTarget, Reason, Target
from app.domain.portfolios import ExceptionAction
from app.domain.users import PersonName
from app.ui import routes
from app.ui.display import (
    iso_moment, money, percent_1dp as percent, sign_of, signed_money, signed_whole_units, whole_units,
)
from app.ui.toolkit.badges import TP_COLORS, color_of
from app.ui.toolkit.rows import TradeTotals


ASSET_FLAGS = (("full_sell", "Full sell"), ("stop_loss", "Stop loss"), ("urgent", "Urgent"),
               ("manual_trade_decision", "Manual Trade Decision"))


SOURCES = {"short_term": "Short-term", "long_term": "Long-term"}


def status_color(status: str, not_enough_cash: bool = False) -> str:
    """The badge colour of a target portfolio status (a draft without enough cash has its own)."""
    return color_of(TP_COLORS, advice.tp_status_key(status, not_enough_cash))


@dataclasses.dataclass
class TPLine:
    """One line of a class table: a listed asset, a deposit, a custom holding or the cash account."""

    key: str = ""
    kind: str = ""             # asset | deposit | custom | cash
    code: str = ""
    name: str = ""
    url: str = ""
    action: str = ""           # the model's recommendation ('BUY', 'FFL/SELL'), or 'Not traded'
    trade: str = ""            # the resulting trade side: BUY | SELL | NONE ('' for the cash line)
    flags: list[str] = dataclasses.field(default_factory=list)
    price: str = ""
    weight: str = ""
    current_units: str = ""
    current_value: str = ""
    current_percent: str = ""
    target_units: str = ""
    target_value: str = ""
    target_percent: str = ""
    delta_units: str = ""
    delta_value: str = ""
    delta_sign: str = ""
    reasons: list[str] = dataclasses.field(default_factory=list)
    # edit mode (listed assets only)
    asset_id: int = 0
    units_raw: str = ""         # target units as a plain whole number ('1200')
    added: bool = False         # added by the adviser
    units_input: str = ""       # what the units field shows: units_raw, or the invalid text typed
    invalid: bool = False       # the units typed are not a whole number
    removable: bool = False     # its target reached zero: offered for deletion (001 s4)


@dataclasses.dataclass
class TPClass:
    id: int = 0
    title: str = ""
    is_cash: bool = False
    target: str = ""            # the model's (or the portfolio's) allocation
    bounds: str = ""            # "min 50.0% · max 70.0%"
    current: str = ""
    result: str = ""
    current_value: str = ""
    result_value: str = ""
    current_width: str = "0%"
    result_width: str = "0%"
    target_left: str = ""       # where the target marker sits on the bar ('' when none)
    color: str = ""             # success | warning | danger | '' (result vs min / max)
    reasons: list[str] = dataclasses.field(default_factory=list)
    lines: list[TPLine] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class GroupRow:
    id: int = 0
    title: str = ""
    color: str = ""
    cap: str = ""
    current: str = ""
    result: str = ""
    result_value: str = ""
    reasons: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class TPFigures(TradeTotals):
    """The summary figures: the portfolio's value, its cash now and after the trades (low: below zero
    or below the minimum cash), the trades' totals and the minimum cash."""

    value: str = ""
    cash_now: str = ""
    cash_after: str = ""
    cash_after_low: bool = False
    min_cash: str = ""
    placed_buys: str = ""      # now: committed to buys with the broker (the trade file and cash report's figure)


def build_figures(result: Target, placed_buys: Decimal = Decimal(0)) -> TPFigures:
    return TPFigures(placed_buys=money(placed_buys),
        value=money(result.value), cash_now=money(result.cash), cash_after=money(result.cash_after),
        cash_after_low=result.cash_after < 0 or result.cash_after < result.min_cash, buys=money(result.buys),
        sells=money(result.sells), brokerage=money(result.brokerage), min_cash=money(result.min_cash))


@dataclasses.dataclass
class CommentBox:
    """A commentary of the target portfolio (market | recommendation) as the screen holds it."""

    html: str = ""              # as the editor holds it now (sanitised HTML once saved)
    shown: str = ""             # what the editor shows: changes only on a load or a save
    feedback: str = ""          # the updating / saved / error line, and its tone (updating | saved | error)
    tone: str = ""
    id: int = 0                 # the stored commentary (0: still the model's)
    run: int = 0                # the feedback line's newest run (only that one clears it)


@dataclasses.dataclass
class Step:
    """Who did a step of the target portfolio's life and when (002 s3)."""

    label: str = ""
    name: str = ""
    at: str = ""               # ISO instant, shown in the browser's offset


def reason_texts(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.text for r in reasons if r.text]


def trade_side(delta_units: Decimal | None) -> str:
    """The side of the trade a line makes: BUY when its units grow, SELL when they shrink, NONE
    otherwise (whatever the model recommends: a BUY capped below the holding is sold)."""
    if not delta_units:
        return "NONE"
    return "BUY" if delta_units > 0 else "SELL"


def class_color(result: Decimal | None, low: Decimal | None, high: Decimal | None) -> str:
    if result is None or (low is None and high is None):
        return ""
    if high is not None and result > high + Decimal("0.005"):
        return "danger"
    if low is not None and result < low - Decimal("0.005"):
        return "warning"
    return "success"


def exception_flags(exception: str | None) -> list[str]:
    return [ExceptionAction.title_of(exception)] if exception else []


def asset_line(a: AssetTarget, names: ResultNames) -> TPLine:
    flags = exception_flags(a.exception)
    flags += [title for key, title in ASSET_FLAGS if getattr(a, key) and title not in flags]
    if a.recommendation_source in SOURCES:  # where the action comes from
        flags.append(SOURCES[a.recommendation_source])
    added = a.kind == "added"
    if added:
        flags.append("Added")
    if any(r.code == "edited" for r in a.reasons):
        flags.append("Set by adviser")
    name, url = names.asset(a.asset_id)
    reasons = reason_texts(a.reasons)
    if a.comment:
        reasons.append(f"analyst comment: {a.comment}")
    raw = str(whole(a.target_units))
    return TPLine(
        key=f"asset-{a.asset_id}", kind="asset", code=a.code, name=name, url=url, action=a.action,
        trade=trade_side(a.delta_units), flags=flags, price=money(a.limit_price or a.price),
        weight=percent(a.weight_percent), current_units=whole_units(a.current_units),
        current_value=money(a.current_value), current_percent=percent(a.current_percent),
        target_units=whole_units(a.target_units), target_value=money(a.target_value),
        target_percent=percent(a.target_percent), delta_units=signed_whole_units(a.delta_units),
        delta_value=signed_money(a.delta_value), delta_sign=sign_of(a.delta_value, "0.01"), reasons=reasons,
        asset_id=a.asset_id, units_raw=raw, added=added, units_input=raw,
    )


def whole(number: Decimal | None) -> int | None:
    """Whole units of a result's or an edit's units (None when it sets none)."""
    return None if number is None else int(number.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def holding_line(h: HoldingTarget) -> TPLine:
    """A deposit or custom holding: never traded; its value counts toward its class."""
    value, share = money(h.value), percent(h.percent)
    kind = "deposit" if h.kind == "deposit" else "custom"
    return TPLine(
        key=f"{kind}-{h.id}", kind=kind, code="Deposit" if kind == "deposit" else "Custom", name=h.name,
        action="Not traded", trade="NONE", flags=exception_flags(h.exception), current_value=value,
        current_percent=share, target_value=value, target_percent=share, delta_value="$0.00", reasons=reason_texts(h.reasons),
    )


def cash_line(result: Target) -> TPLine:
    cash, after = result.cash, result.cash_after

    def share(amount: Decimal) -> str:
        return percent(amount * 100 / result.value) if result.value else ""

    reasons = [f"cash after trades = cash {money(cash)} + sells {money(result.sells)} - brokerage "
               f"{money(result.brokerage)} - buys {money(result.buys)}"]
    if result.min_cash:
        reasons.append(f"minimum cash {money(result.min_cash)}")
    return TPLine(
        key="cash", kind="cash", code="Cash", name="Cash account", action="",
        current_value=money(cash), current_percent=share(cash), target_value=money(after), target_percent=share(after),
        delta_value=signed_money(after - cash), delta_sign=sign_of(after - cash, "0.01"), reasons=reasons,
    )


def build_classes(result: Target, names: ResultNames) -> list[TPClass]:
    """The class tables: each class of the result with its assets, deposits and custom holdings
    (the cash class also shows the cash account); classes with nothing now and nothing targeted
    are left out."""
    lines: dict[int, list[TPLine]] = {}
    for a in result.assets:
        lines.setdefault(a.class_id, []).append(asset_line(a, names))
    for h in result.holdings:
        lines.setdefault(h.class_id, []).append(holding_line(h))
    out: list[TPClass] = []
    for c in result.classes:
        cid = c.id or 0
        rows = list(lines.pop(cid, []))
        if c.is_cash:
            rows.insert(0, cash_line(result))
        current, res, target = c.current_percent, c.result_percent, c.target_percent
        if not rows and not current and not res and not target:
            continue
        low, high = c.min, c.max
        bounds = " · ".join(part for part in (f"min {percent(low)}" if low is not None else "",
                                              f"max {percent(high)}" if high is not None else "") if part)
        title = c.title or names.class_title(cid) or ("Cash" if c.is_cash else f"Class {cid}")
        out.append(TPClass(
            id=cid, title=title, is_cash=c.is_cash, target=percent(target) if target is not None else "",
            bounds=bounds, current=percent(current), result=percent(res), current_value=money(c.current_value),
            result_value=money(c.result_value), current_width=bar_width(current),
            result_width=bar_width(res), target_left=bar_width(target) if target else "",
            color=class_color(res, low, high), reasons=reason_texts(c.reasons), lines=rows,
        ))
    for cid, rows in lines.items():  # lines of a class the result does not list (never expected)
        out.append(TPClass(id=cid, title=names.class_title(cid) or f"Class {cid}", lines=rows))
    return out


GROUP_SHOWN_ASSETS = 4


def group_reasons(g: AllocationTarget, assets: tuple[AssetTarget, ...]) -> list[str]:
    """Why an industry group ends where it does. The engine only gives reasons when a cap binds
    (above its cap, assets scaled down to it); every other group is explained from the result
    itself: where it stands against its cap (or that it has none) and the assets that make it."""
    out = reason_texts(g.reasons)
    codes = {r.code for r in g.reasons}
    cap, res = g.max, g.result_percent
    if cap is None:
        out.append("no cap: the sum of its assets' targets")
    elif not codes & {"above_cap", "capped_industry_group"}:
        out.append(f"within its cap of {percent(cap)}" if res <= cap + Decimal("0.005") else f"above its cap of {percent(cap)}")
    members = sorted((a for a in assets if a.industry_group_id is not None and a.industry_group_id == (g.id or 0)
                      and (a.target_percent > 0 or a.current_percent > 0)),
                     key=lambda a: (-a.target_percent, a.code))
    if not members:
        out.append("none of its assets is held or targeted")
    else:
        shown = ", ".join(f"{a.code} {percent(a.target_percent)}" for a in members[:GROUP_SHOWN_ASSETS])
        more = len(members) - GROUP_SHOWN_ASSETS
        out.append(f"its assets' targets: {shown}" + (f" and {more} more" if more > 0 else ""))
    return out


def build_groups(result: Target, names: ResultNames) -> list[GroupRow]:
    out = []
    for g in result.industry_groups:
        gid = g.id or 0
        title, color = names.group(gid)
        out.append(GroupRow(id=gid, title=g.title or title or f"Group {gid}", color=color,
                            cap=percent(g.max) if g.max is not None else "", current=percent(g.current_percent),
                            result=percent(g.result_percent), result_value=money(g.result_value),
                            reasons=group_reasons(g, result.assets)))
    return out


def full_name(name: PersonName | None) -> str:
    return name.full if name else ""


def build_steps(t: TPSummary) -> list[Step]:
    steps = [Step("Created by", full_name(t.creator), iso_moment(t.created_at))]
    for label, who, when in (("Validated by", t.validator, t.validated_at), ("Approved by", t.approver, t.approved_at),
                             ("Declined by", t.decliner, t.declined_at)):
        if when:
            steps.append(Step(label, full_name(who), iso_moment(when)))
    return steps


@dataclasses.dataclass
class VersionRow:
    id: int = 0
    version: int = 0
    status: str = ""
    status_label: str = ""
    color: str = "gray"
    created_at: str = ""
    created_by: str = ""
    validated_at: str = ""
    validated_by: str = ""
    decided: str = ""           # Approved | Declined | ''
    decided_at: str = ""
    decided_by: str = ""
    moderator: str = ""
    url: str = ""


def version_row(portfolio_id: int, t: TPSummary) -> VersionRow:
    decided, at, by = ("Approved", t.approved_at, t.approver) if t.approved_at else (
        ("Declined", t.declined_at, t.decliner) if t.declined_at else ("", None, None))
    return VersionRow(
        id=t.id, version=t.version, status=t.status, status_label=t.status_label,
        color=status_color(t.status, t.not_enough_cash), created_at=iso_moment(t.created_at), created_by=full_name(t.creator),
        validated_at=iso_moment(t.validated_at), validated_by=full_name(t.validator), decided=decided, decided_at=iso_moment(at),
        decided_by=full_name(by), moderator=full_name(t.moderator),
        url=routes.url("portfolios.target-portfolio-version", id=portfolio_id, version=t.version),
    )
