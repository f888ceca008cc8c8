"""What the portfolio screens show: the list's rows, the form's holder, class and exception lines from
a saved portfolio, the buy screen's models, and the client home's list of what awaits a decision,
built from the services' read models (app.services.portfolios, app.services.records_of_advice)."""
from __future__ import annotations

import dataclasses
import json
from typing import Any

from app.domain import portfolios as rules
from app.services import records_of_advice
from app.services.portfolios import (
    AllocationClass, Holder, PortfolioDetail, PortfolioExceptionView, PortfolioSummary,
)
from app.ui import routes
from app.ui.display import count_of, text as _text
from app.ui.toolkit.rows import ClassBand


def referer_query(path: str) -> dict[str, str]:
    """refererStateName / refererStateParams of a signed-in path (where the next screen goes back to)."""
    name, params = routes.match(path)
    if name is None or name in routes.PUBLIC:
        return {}
    return {"refererStateName": name, "refererStateParams": json.dumps(params, separators=(",", ":"))}


def unlink_question(portfolio: PortfolioDetail) -> str:
    """The unlink confirmation: the model's name, and a warning when it belongs to another firm."""
    model = portfolio.model
    cross = rules.is_cross_firm(portfolio.firm_id, model.firm_id if model is not None else None)
    return (rules.CONFIRM_UNLINK_CROSS_FIRM if cross else rules.CONFIRM_UNLINK).format(
        name=_text(model.name if model is not None else None))


def holders_text(holders: tuple[Holder, ...]) -> str:
    return ", ".join(f"{h.first_name} {h.last_name}".strip() for h in holders)


@dataclasses.dataclass
class PortfolioRow:
    id: int = 0
    name: str = ""
    type_title: str = ""
    holders: str = ""
    adviser: str = ""
    model: str = ""
    broker: str = ""
    firm: str = ""
    inactive: bool = False
    status_title: str = ""
    updated_at: str = ""
    holdings_url: str = ""
    edit_url: str = ""
    buy_url: str = ""
    history_url: str = ""
    has_model: bool = False


def portfolio_row(p: PortfolioSummary, back: dict[str, str]) -> PortfolioRow:
    """A row of the list; its edit and buy links come back to `back` (referer_query)."""
    return PortfolioRow(
        id=p.id, name=p.name, type_title=p.type_title, holders=holders_text(p.holders),
        adviser=_text(p.adviser_name), model=_text(p.model.name if p.model is not None else None),
        broker=_text(p.broker_name), firm=_text(p.firm.name), inactive=p.inactive, status_title=p.status_title,
        updated_at=_text(p.updated_at),
        holdings_url=routes.url("portfolios.holdings", id=p.id),
        history_url=routes.url("portfolios.history", id=p.id),
        edit_url=routes.url("portfolios.edit", id=p.id, query=back or None),
        buy_url=routes.url("portfolios.buy", id=p.id, query=back or None),
        has_model=p.model is not None,
    )


@dataclasses.dataclass
class HolderLine:
    id: int = 0
    name: str = ""
    is_owner: bool = True


@dataclasses.dataclass
class ExceptionLine:
    asset_id: int = 0
    custom_holding_id: int = 0
    code: str = ""
    label: str = ""
    action: str = ""
    substitute_id: int = 0
    substitute_code: str = ""
    substitute_name: str = ""


@dataclasses.dataclass
class ModelChoice:
    id: int = 0
    name: str = ""
    firm: str = ""
    method: str = ""
    assets_count: int = 0
    cross_firm: bool = False
    current: bool = False


@dataclasses.dataclass
class AwaitingRow:
    """One thing awaiting the client's decision (client home): a record of advice or trades."""

    key: str = ""
    kind: str = ""             # record | trades
    portfolio: str = ""
    what: str = ""             # 'Record of advice v2' / 'Trade recommendations v1 · 3 items'
    sent_at: str = ""          # ISO instant, shown in the browser's offset
    waiting: str = ""          # 'today', '1 day', '5 days'
    url: str = ""


def waiting_text(days: int) -> str:
    return "today" if days <= 0 else count_of(days, "day")


def to_decide_text(t: records_of_advice.AwaitingTrades) -> str:
    """'7 trades to decide' (trades count trades), with the "please note" items apart: '7 trades
    and 2 notes to decide'."""
    trades, notes = t.items, t.notes
    if not notes:
        return f"{count_of(trades, 'trade')} to decide"
    if not trades:
        return f"{count_of(notes, 'note')} to decide"
    return f"{count_of(trades, 'trade')} and {count_of(notes, 'note')} to decide"


def awaiting_rows(found: records_of_advice.AwaitingDecision) -> list[AwaitingRow]:
    rows = [AwaitingRow(key=f"record-{r.tp_id}", kind="record", portfolio=r.portfolio,
                        what=f"Record of advice (version {r.version})", sent_at=r.sent_at.isoformat(),
                        waiting=waiting_text(r.waiting_days),
                        url=routes.url("portfolios.rofa", id=r.investment_id, rofa_id=r.tp_id))
            for r in found.records]
    rows += [AwaitingRow(key=f"trades-{t.ti_id}", kind="trades", portfolio=t.portfolio,
                         what=f"Trade recommendations (version {t.version}): {to_decide_text(t)}",
                         sent_at=t.sent_at.isoformat(), waiting=waiting_text(t.waiting_days),
                         url=routes.url("portfolios.trade-instructions", id=t.investment_id))
             for t in found.trades]
    return rows


def class_band(entry: AllocationClass) -> ClassBand:
    return ClassBand(class_id=entry.class_id, title=entry.title, is_cash=entry.is_cash,
                     allocation=_text(entry.allocation), min=_text(entry.min), max=_text(entry.max))


def exception_line(entry: PortfolioExceptionView) -> ExceptionLine:
    asset, holding, sub = entry.asset, entry.custom_holding, entry.substitution
    return ExceptionLine(
        asset_id=entry.asset_id or 0, custom_holding_id=entry.custom_holding_id or 0,
        code=_text(asset.code if asset else None),
        label=_text((asset.name if asset else None) or (holding.name if holding else None)),
        action=entry.action, substitute_id=entry.substitute_asset_id or 0,
        substitute_code=_text(sub.code if sub else None), substitute_name=_text(sub.name if sub else None),
    )


def group_entries(p: PortfolioDetail) -> list[dict[str, Any]]:
    """The saved industry group allocations as the allocations card reads them."""
    return [{"industry_group_id": g.industry_group_id, "title": g.title, "color": g.color, "allocation": g.allocation}
            for g in p.industry_groups_allocations]
