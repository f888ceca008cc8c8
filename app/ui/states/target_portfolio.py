"""portfolios.target-portfolio (and -version) and portfolios.target-portfolio-versions (spec 001
s2/s4/s6/s9, 002 s4/s8/s9): a portfolio's target portfolio with its status, who acted and when,
the summary figures, one table per asset class (every number with the engine's reasons), the
class allocation current vs target, the industry groups, the commentary, and the actions
Calculate, Validate, Record of advice, Versions and Cancel.

`TPDisplay` turns the target portfolio shape of app.services.target_portfolios into what the
screens show; the record of advice (app.ui.states.rofa) shows the same. Every handler resolves the
acting user from the token and calls the services, which check the permissions again."""
from __future__ import annotations

import asyncio
import dataclasses
import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

import reflex as rx

from app.domain import advice
from app.domain.allocations import bar_width, percent_text
from app.domain.cgt import format_aud
from app.domain.errors import AuthenticationError, DomainError
from app.domain.permissions import Actor
from app.domain.portfolios import EXCEPTION_TITLES
from app.services import advice_display
from app.services import holdings as holdings_service
from app.services import target_portfolios
from app.ui import routes
from app.ui.components.widgets import visible_pages
from app.ui.states.base import AppState, toast_error, toast_success
from app.ui.states.portfolio_header import PortfolioHeader
from app.ui.parse import positive_int as _int, person_name as person

LOAD_FAILED = "Opps, something went wrong"
# Edit mode (001 s4: mode EDIT, history of steps with undo) needs the service's edit functions;
# the Edit action is offered only once they exist.
EDIT_AVAILABLE = hasattr(target_portfolios, "edit_step")
VERSION_PAGE_SIZES = [str(n) for n in advice.VERSION_PAGE_SIZES]
DEFAULT_VERSION_PAGE_SIZE = VERSION_PAGE_SIZES[0]
FEEDBACK_SECONDS = 3  # the commentary's updating / saved / error line clears itself (002 s8)
COMMENT_UPDATING = "Updating..."
COMMENT_SAVED = "Commentary saved"
COMMENT_TITLES = {"market": "Market commentary", "recommendation": "Recommendation"}
ZERO = Decimal(0)


# ---- formatting ---------------------------------------------------------------------------------
def _dec(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None


def money(value: Any) -> str:
    number = _dec(value)
    return "" if number is None else format_aud(number)


def signed_money(value: Any) -> str:
    number = _dec(value)
    if number is None:
        return ""
    text = format_aud(number)
    return f"+{text}" if number > 0 and text != "$0.00" else text


def units(value: Any) -> str:
    """Listed units without decimals."""
    number = _dec(value)
    return "" if number is None else f"{number.quantize(Decimal(1), rounding=ROUND_HALF_UP):,}"


def signed_units(value: Any) -> str:
    number = _dec(value)
    if number is None:
        return ""
    whole = number.quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return f"+{whole:,}" if whole > 0 else f"{whole:,}"


def percent(value: Any) -> str:
    number = _dec(value)
    return "" if number is None else percent_text(number)


def sign(value: Any) -> str:
    """'up', 'down' or '' for a change."""
    number = _dec(value)
    if number is None:
        return ""
    cents = number.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return "" if cents == 0 else ("up" if cents > 0 else "down")


def status_color(status: str, not_enough_cash: bool = False) -> str:
    """The badge colour of a target portfolio status."""
    if status == advice.TPStatus.DRAFT.value and not_enough_cash:
        return "orange"
    return {"draft": "amber", "validated": "blue", "active": "green", "declined": "red", "failed": "red"}.get(status,
                                                                                                           "gray")


# ---- what the screens show ------------------------------------------------------------------------
@dataclasses.dataclass
class TPLine:
    """One line of a class table: a listed asset, a deposit, a custom holding or the cash account."""

    key: str = ""
    kind: str = ""             # asset | deposit | custom | cash
    code: str = ""
    name: str = ""
    url: str = ""
    action: str = ""
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
class Step:
    """Who did a step of the target portfolio's life and when (002 s3)."""

    label: str = ""
    name: str = ""
    at: str = ""               # ISO instant, shown in the browser's offset


def _reason_texts(items: Any) -> list[str]:
    return [str(r.get("text") or "") for r in (items or []) if isinstance(r, dict) and r.get("text")]


def _class_color(result: Decimal | None, low: Decimal | None, high: Decimal | None) -> str:
    if result is None or (low is None and high is None):
        return ""
    if high is not None and result > high + Decimal("0.005"):
        return "danger"
    if low is not None and result < low - Decimal("0.005"):
        return "warning"
    return "success"


def _asset_line(a: dict[str, Any], names: dict[int, dict[str, Any]]) -> TPLine:
    flags: list[str] = []
    if a.get("exception"):
        flags.append(EXCEPTION_TITLES.get(a["exception"], str(a["exception"])))
    if a.get("full_sell"):
        flags.append("Full sell")
    if a.get("stop_loss"):
        flags.append("Stop loss")
    if a.get("urgent"):
        flags.append("Urgent")
    if a.get("manual_trade_decision") and "Manual Trade Decision" not in flags:
        flags.append("Manual Trade Decision")
    source = a.get("recommendation_source")
    if source in ("short_term", "long_term"):
        flags.append("Short-term" if source == "short_term" else "Long-term")  # where the action comes from
    info = names.get(int(a["asset_id"])) if a.get("asset_id") is not None else None
    reasons = _reason_texts(a.get("reasons"))
    if a.get("comment"):
        reasons.append(f"analyst comment: {a['comment']}")
    return TPLine(
        key=f"asset-{a.get('asset_id')}", kind="asset", code=str(a.get("code") or ""),
        name=(info or {}).get("name", ""), url=(info or {}).get("url", ""), action=str(a.get("action") or ""),
        flags=flags, price=money(a.get("limit_price") or a.get("price")), weight=percent(a.get("weight_percent")),
        current_units=units(a.get("current_units")), current_value=money(a.get("current_value")),
        current_percent=percent(a.get("current_percent")), target_units=units(a.get("target_units")),
        target_value=money(a.get("target_value")), target_percent=percent(a.get("target_percent")),
        delta_units=signed_units(a.get("delta_units")), delta_value=signed_money(a.get("delta_value")),
        delta_sign=sign(a.get("delta_value")), reasons=reasons,
    )


def _holding_line(h: dict[str, Any]) -> TPLine:
    """A deposit or custom holding: never traded; its value counts toward its class."""
    value = money(h.get("value"))
    share = percent(h.get("percent"))
    kind = "deposit" if h.get("kind") == "deposit" else "custom"
    flags = [EXCEPTION_TITLES.get(h["exception"], str(h["exception"]))] if h.get("exception") else []
    return TPLine(
        key=f"{kind}-{h.get('id')}", kind=kind, code="Deposit" if kind == "deposit" else "Custom",
        name=str(h.get("name") or ""), action="Not traded", flags=flags, current_value=value, current_percent=share,
        target_value=value, target_percent=share, delta_value="$0.00", reasons=_reason_texts(h.get("reasons")),
    )


def _cash_line(result: dict[str, Any], value: Decimal | None) -> TPLine:
    cash, after = _dec(result.get("cash")), _dec(result.get("cash_after"))

    def share(amount: Decimal | None) -> str:
        return percent(amount * 100 / value) if amount is not None and value else ""

    reasons = [f"cash after trades = cash {money(cash)} + sells {money(result.get('sells'))} - brokerage "
               f"{money(result.get('brokerage'))} - buys {money(result.get('buys'))}"]
    if _dec(result.get("min_cash")):
        reasons.append(f"minimum cash {money(result.get('min_cash'))}")
    return TPLine(
        key="cash", kind="cash", code="Cash", name="Cash account", action="",
        current_value=money(cash), current_percent=share(cash), target_value=money(after), target_percent=share(after),
        delta_value=signed_money(after - cash) if cash is not None and after is not None else "",
        delta_sign=sign(after - cash) if cash is not None and after is not None else "", reasons=reasons,
    )


def build_classes(result: dict[str, Any], names: dict[str, dict[int, dict[str, Any]]]) -> list[TPClass]:
    """The class tables: each class of the result with its assets, deposits and custom holdings
    (the cash class also shows the cash account); classes with nothing now and nothing targeted
    are left out."""
    value = _dec(result.get("value"))
    lines: dict[int, list[TPLine]] = {}
    for a in result.get("assets") or []:
        lines.setdefault(int(a.get("class_id") or 0), []).append(_asset_line(a, names.get("assets", {})))
    for h in result.get("holdings") or []:
        lines.setdefault(int(h.get("class_id") or 0), []).append(_holding_line(h))
    titles = names.get("classes", {})
    out: list[TPClass] = []
    for c in result.get("classes") or []:
        cid = int(c.get("id") or 0)
        rows = list(lines.pop(cid, []))
        if c.get("is_cash"):
            rows.insert(0, _cash_line(result, value))
        current, res, target = _dec(c.get("current_percent")), _dec(c.get("result_percent")), _dec(c.get("target_percent"))
        if not rows and not current and not res and not target:
            continue
        low, high = _dec(c.get("min")), _dec(c.get("max"))
        bounds = " · ".join(part for part in (f"min {percent(low)}" if low is not None else "",
                                              f"max {percent(high)}" if high is not None else "") if part)
        title = c.get("title") or titles.get(cid, {}).get("title") or ("Cash" if c.get("is_cash") else f"Class {cid}")
        out.append(TPClass(
            id=cid, title=title, is_cash=bool(c.get("is_cash")), target=percent(target) if target is not None else "",
            bounds=bounds, current=percent(current), result=percent(res), current_value=money(c.get("current_value")),
            result_value=money(c.get("result_value")), current_width=bar_width(current or ZERO),
            result_width=bar_width(res or ZERO), target_left=bar_width(target) if target else "",
            color=_class_color(res, low, high), reasons=_reason_texts(c.get("reasons")), lines=rows,
        ))
    for cid, rows in lines.items():  # lines of a class the result does not list (never expected)
        out.append(TPClass(id=cid, title=titles.get(cid, {}).get("title") or f"Class {cid}", lines=rows))
    return out


def build_groups(result: dict[str, Any], names: dict[str, dict[int, dict[str, Any]]]) -> list[GroupRow]:
    titles = names.get("industry_groups", {})
    out = []
    for g in result.get("industry_groups") or []:
        gid = int(g.get("id") or 0)
        info = titles.get(gid, {})
        cap = _dec(g.get("max"))
        out.append(GroupRow(id=gid, title=g.get("title") or info.get("title") or f"Group {gid}",
                            color=info.get("color", ""), cap=percent(cap) if cap is not None else "",
                            current=percent(g.get("current_percent")), result=percent(g.get("result_percent")),
                            result_value=money(g.get("result_value")), reasons=_reason_texts(g.get("reasons"))))
    return out


def build_steps(shape: dict[str, Any]) -> list[Step]:
    steps = [Step("Created by", person(shape.get("creator")), shape.get("created_at") or "")]
    for label, who, when in (("Validated by", "validator", "validated_at"), ("Approved by", "approver", "approved_at"),
                             ("Declined by", "decliner", "declined_at")):
        if shape.get(when):
            steps.append(Step(label, person(shape.get(who)), shape[when]))
    return steps


class TPDisplay(rx.State, mixin=True):
    """A target portfolio as the screens show it."""

    tp_id: int = 0
    tp_version: int = 0
    tp_status: str = ""
    tp_status_label: str = ""
    tp_status_color: str = "gray"
    not_enough_cash: bool = False
    error_message: str = ""
    tp_model: str = ""
    has_result: bool = False
    steps: list[Step] = []
    value: str = ""
    cash_now: str = ""
    cash_after: str = ""
    cash_after_low: bool = False
    buys: str = ""
    sells: str = ""
    brokerage: str = ""
    min_cash: str = ""
    classes: list[TPClass] = []
    groups: list[GroupRow] = []
    notes: list[str] = []
    _row_version: int = 0

    def _show_tp(self, shape: dict[str, Any], names: dict[str, dict[int, dict[str, Any]]]) -> None:
        self.tp_id = int(shape["id"])
        self.tp_version = int(shape.get("version") or 0)
        self.tp_status = shape.get("status") or ""
        self.not_enough_cash = bool(shape.get("not_enough_cash"))
        self.tp_status_label = shape.get("status_label") or ""
        self.tp_status_color = status_color(self.tp_status, self.not_enough_cash)
        self.error_message = shape.get("error_message") or ""
        self.tp_model = (shape.get("model") or {}).get("name") or ""
        self._row_version = int(shape.get("row_version") or 0)
        self.steps = build_steps(shape)
        result = shape.get("result") or {}
        self.has_result = bool(result)
        self.value = money(result.get("value"))
        self.cash_now = money(result.get("cash"))
        self.cash_after = money(result.get("cash_after"))
        after, floor = _dec(result.get("cash_after")), _dec(result.get("min_cash"))
        self.cash_after_low = after is not None and (after < 0 or (floor is not None and after < floor))
        self.buys = money(result.get("buys"))
        self.sells = money(result.get("sells"))
        self.brokerage = money(result.get("brokerage"))
        self.min_cash = money(result.get("min_cash"))
        self.classes = build_classes(result, names) if result else []
        self.groups = build_groups(result, names) if result else []
        self.notes = _reason_texts(result.get("reasons"))

    def _clear_tp(self) -> None:
        self.tp_id = self.tp_version = self._row_version = 0
        self.tp_status = self.tp_status_label = self.error_message = self.tp_model = ""
        self.tp_status_color = "gray"
        self.not_enough_cash = self.has_result = self.cash_after_low = False
        self.steps, self.classes, self.groups, self.notes = [], [], [], []
        self.value = self.cash_now = self.cash_after = self.buys = self.sells = self.brokerage = self.min_cash = ""

    @rx.var
    def is_failed(self) -> bool:
        return self.tp_status == advice.TPStatus.FAILED.value


def load_names(actor: Actor, shape: dict[str, Any]) -> dict[str, dict[int, dict[str, Any]]]:
    return advice_display.labels(actor=actor, tp_id=shape["id"]) if shape.get("result") else {}


# ---- portfolios.target-portfolio --------------------------------------------------------------------
class TargetPortfolioState(TPDisplay, PortfolioHeader, AppState):
    loading: bool = True
    missing: bool = False          # nothing calculated (or approved, for others) yet
    viewing_version: int = 0       # the version of the URL (0: the current one)
    can_calculate: bool = False
    view_only: bool = True
    can_edit_comment: bool = False
    busy: str = ""                 # calculate | validate while a call runs
    confirm_open: bool = False
    confirm_kind: str = ""
    confirm_text: str = ""
    mode: str = ""                 # EDIT while editing (001 s4)

    market: str = ""
    recommendation: str = ""
    # the commentary's feedback line per type: the text and its tone (updating | saved | error)
    market_feedback: str = ""
    market_tone: str = ""
    recommendation_feedback: str = ""
    recommendation_tone: str = ""
    _comment_ids: dict[str, int] = {}
    _feedback_runs: dict[str, int] = {}

    # ---- loading ----------------------------------------------------------------------------------
    def _load(self, actor: Actor) -> None:
        self._show_header(holdings_service.header(actor=actor, portfolio_id=self.portfolio_id), actor)
        shape = target_portfolios.get_current(actor=actor, investment_id=self.portfolio_id,
                                              version=self.viewing_version or None)
        if shape is None:
            perms = advice_display.tp_permissions(actor=actor, investment_id=self.portfolio_id)
            self._clear_tp()
            self.missing = True
            self.market = self.recommendation = ""
            self._comment_ids = {}
        else:
            perms = shape["permissions"]
            self._show_tp(shape, load_names(actor, shape))
            self.missing = False
            texts = {c["type"]: c for c in shape.get("commentaries") or []}
            self.market = (texts.get("market") or {}).get("description") or ""
            self.recommendation = (texts.get("recommendation") or {}).get("description") or ""
            self._comment_ids = {k: int(v["id"]) for k, v in texts.items() if v.get("id")}
        self.can_calculate = bool(perms.get("calculate"))
        self.view_only = bool(perms.get("view_only"))
        self.can_edit_comment = bool(perms.get("edit_commentary"))
        self.loading = False

    @rx.event
    def on_load(self):
        self.loading = True
        self.missing = False
        self.busy = ""
        self.mode = ""
        self.confirm_open = False
        self.market_feedback = self.market_tone = self.recommendation_feedback = self.recommendation_tone = ""
        self._clear_header()
        self._clear_tp()
        try:
            actor = self._actor()
        except AuthenticationError:
            return None  # check_login sends the browser to sign in
        self.portfolio_id = self._portfolio_param() or 0
        self.viewing_version = _int(routes.param(self.router.url.path, "version")) or 0
        try:
            self._load(actor)
        except DomainError as exc:
            self.loading = False
            return [toast_error(exc.message or LOAD_FAILED), rx.redirect(self._list_url(actor))]
        # the holdings menu's 'Calculate Target Portfolio' arrives with ?calculate=1
        if self.router.url.query_parameters.get("calculate") == "1" and self.can_calculate and not self.viewing_version:
            self._ask("calculate")
        return None

    # ---- links --------------------------------------------------------------------------------------
    @rx.var
    def current_url(self) -> str:
        return routes.url("portfolios.target-portfolio", id=self.portfolio_id) if self.portfolio_id else ""

    @rx.var
    def versions_url(self) -> str:
        return routes.url("portfolios.target-portfolio-versions", id=self.portfolio_id) if self.portfolio_id else ""

    @rx.var
    def rofa_url(self) -> str:
        if not self.portfolio_id or not self.tp_id:
            return ""
        return routes.url("portfolios.rofa", id=self.portfolio_id, rofa_id=self.tp_id)

    # ---- what may be done ---------------------------------------------------------------------------
    @rx.var
    def editable(self) -> bool:
        """The asset tables carry the editing columns (11 instead of 9, 002 s9)."""
        return (not self.view_only and self.can_calculate and self.has_result
                and self.tp_status == advice.TPStatus.DRAFT.value)

    @rx.var
    def can_validate(self) -> bool:
        return self.editable and not self.not_enough_cash

    @rx.var
    def can_open_rofa(self) -> bool:
        return self.has_result and self.tp_status != advice.TPStatus.FAILED.value

    @rx.var
    def comments_editable(self) -> bool:
        return self.can_edit_comment and self.tp_status in (advice.TPStatus.DRAFT.value, advice.TPStatus.VALIDATED.value)

    # ---- calculate and validate ------------------------------------------------------------------
    def _ask(self, kind: str) -> None:
        self.confirm_kind = kind
        self.confirm_text = advice.CONFIRM_RECALCULATE_TP if kind == "calculate" else advice.CONFIRM_VALIDATE
        self.confirm_open = True

    @rx.event
    def ask_calculate(self):
        if self.can_calculate:
            self._ask("calculate")

    @rx.event
    def ask_validate(self):
        if self.can_validate:
            self._ask("validate")

    @rx.event
    def cancel_confirm(self):
        self.confirm_open = False
        self.confirm_kind = ""

    @rx.event
    def confirm(self):
        kind = self.confirm_kind
        self.confirm_open = False
        self.confirm_kind = ""
        if kind == "calculate":
            return TargetPortfolioState.calculate
        if kind == "validate":
            return TargetPortfolioState.validate
        return None

    @rx.event
    def calculate(self):
        if self.busy:
            return
        self.busy = "calculate"
        yield
        try:
            actor = self._actor()
            shape = target_portfolios.calculate(actor=actor, investment_id=self.portfolio_id)
        except DomainError as exc:
            self.busy = ""
            yield self._fail(exc)
            return
        self.busy = ""
        if self.viewing_version:  # the new version is the current one: show it at its own address
            yield rx.redirect(routes.url("portfolios.target-portfolio", id=self.portfolio_id))
            return
        try:
            self._load(actor)
        except DomainError as exc:
            yield self._fail(exc)
            return
        label = shape.get("status_label") or ""
        if shape.get("status") == advice.TPStatus.FAILED.value:
            yield toast_error(f"{label}: {shape.get('error_message') or ''}".strip(": "))
        else:
            yield toast_success(f"Target Portfolio version {shape.get('version')} calculated: {label}")

    @rx.event
    def validate(self):
        if self.busy or not self.tp_id:
            return
        self.busy = "validate"
        yield
        try:
            actor = self._actor()
            shape = target_portfolios.validate(actor=actor, tp_id=self.tp_id, row_version=self._row_version)
            self._load(actor)
        except DomainError as exc:
            self.busy = ""
            yield self._fail(exc)
            return
        self.busy = ""
        yield toast_success(f"Target Portfolio validated: {shape.get('status_label') or ''}")

    # ---- edit mode (only once the service offers it) ----------------------------------------------------
    @rx.event
    def start_edit(self):
        if EDIT_AVAILABLE and self.editable:
            self.mode = "EDIT"

    # ---- the commentary --------------------------------------------------------------------------------
    @rx.event
    def set_market(self, value: str):
        self.market = str(value or "")[:20000]

    @rx.event
    def set_recommendation(self, value: str):
        self.recommendation = str(value or "")[:20000]

    def _feedback(self, kind: str, text: str, tone: str) -> None:
        setattr(self, f"{kind}_feedback", text)
        setattr(self, f"{kind}_tone", tone)

    @rx.event
    def save_comment(self, kind: str):
        if kind not in advice.COMMENT_TYPES or not self.tp_id:
            return
        self._feedback(kind, COMMENT_UPDATING, "updating")
        yield
        text = self.market if kind == "market" else self.recommendation
        try:
            saved = target_portfolios.save_comment(actor=self._actor(), tp_id=self.tp_id, type=kind, description=text,
                                                   comment_id=self._comment_ids.get(kind))
        except DomainError as exc:
            self._feedback(kind, exc.message or LOAD_FAILED, "error")
        else:
            self._comment_ids = {**self._comment_ids, kind: int(saved["id"])}
            self._feedback(kind, COMMENT_SAVED, "saved")
        run = self._feedback_runs.get(kind, 0) + 1
        self._feedback_runs = {**self._feedback_runs, kind: run}
        yield TargetPortfolioState.clear_feedback(kind, run)

    @rx.event(background=True)
    async def clear_feedback(self, kind: str, run: int):
        """The feedback line goes away after about 3 seconds (002 s8)."""
        await asyncio.sleep(FEEDBACK_SECONDS)
        if kind not in advice.COMMENT_TYPES:
            return
        async with self:
            if run == self._feedback_runs.get(kind):
                self._feedback(kind, "", "")


# ---- portfolios.target-portfolio-versions ---------------------------------------------------------
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


def version_row(portfolio_id: int, r: dict[str, Any]) -> VersionRow:
    decided, at, by = "", "", ""
    if r.get("approved_at"):
        decided, at, by = "Approved", r["approved_at"], person(r.get("approver"))
    elif r.get("declined_at"):
        decided, at, by = "Declined", r["declined_at"], person(r.get("decliner"))
    return VersionRow(
        id=int(r["id"]), version=int(r.get("version") or 0), status=r.get("status") or "",
        status_label=r.get("status_label") or "", color=status_color(r.get("status") or "", bool(r.get("not_enough_cash"))),
        created_at=r.get("created_at") or "", created_by=person(r.get("creator")),
        validated_at=r.get("validated_at") or "", validated_by=person(r.get("validator")),
        decided=decided, decided_at=at, decided_by=by, moderator=person(r.get("moderator")),
        url=routes.url("portfolios.target-portfolio-version", id=portfolio_id, version=r.get("version")),
    )


class TPVersionsState(PortfolioHeader, AppState):
    loading: bool = True
    rows: list[VersionRow] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    visible: list[int] = [1]
    page_size: str = DEFAULT_VERSION_PAGE_SIZE

    def _size(self) -> int:
        return int(self.page_size) if self.page_size in VERSION_PAGE_SIZES else int(DEFAULT_VERSION_PAGE_SIZE)

    def _fetch(self, actor: Actor) -> None:
        size = self._size()
        rows, total = target_portfolios.list_versions(actor=actor, investment_id=self.portfolio_id, limit=size,
                                                      offset=(self.page - 1) * size, order="desc")
        if not rows and total and self.page > 1:  # the page went away: step back to the last one
            self.page = max(1, math.ceil(total / size))
            rows, total = target_portfolios.list_versions(actor=actor, investment_id=self.portfolio_id, limit=size,
                                                          offset=(self.page - 1) * size, order="desc")
        self.rows = [version_row(self.portfolio_id, r) for r in rows]
        self.total = total
        self.pages = max(1, math.ceil(total / size))
        self.visible = visible_pages(self.page, self.pages)
        self.loading = False

    @rx.event
    def on_load(self):
        self.loading = True
        self.rows = []
        self.page, self.page_size = 1, DEFAULT_VERSION_PAGE_SIZE
        self._clear_header()
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        self.portfolio_id = self._portfolio_param() or 0
        try:
            self._show_header(holdings_service.header(actor=actor, portfolio_id=self.portfolio_id), actor)
            self._fetch(actor)
        except DomainError as exc:
            self.loading = False
            return [toast_error(exc.message or LOAD_FAILED), rx.redirect(self._list_url(actor))]
        return None

    def _refetch(self):
        try:
            self._fetch(self._actor())
        except DomainError as exc:
            return self._fail(exc)
        return None

    @rx.event
    def go_page(self, page: Any):
        number = _int(page)
        if number is None or number > self.pages:
            return None
        self.page = number
        return self._refetch()

    @rx.event
    def set_page_size(self, value: str):
        if value not in VERSION_PAGE_SIZES:
            return None
        self.page_size = value
        self.page = 1
        return self._refetch()

    @rx.var
    def count_text(self) -> str:
        return f"{self.total} version" + ("" if self.total == 1 else "s")

    @rx.var
    def current_url(self) -> str:
        """Cancel: the current target portfolio (superuser, adviser) or the last approved one
        (others) - the service decides which one portfolios.target-portfolio shows."""
        return routes.url("portfolios.target-portfolio", id=self.portfolio_id) if self.portfolio_id else ""
