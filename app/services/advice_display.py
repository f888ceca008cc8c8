"""What the target portfolio and record of advice screens need besides the target portfolio shape
of app.services.target_portfolios: the actor's permissions on a portfolio that may have no target
portfolio yet (the Calculate action), and the names behind the engine's ids (asset names, class
and industry group titles: the engine is pure and knows ids, not every title).

Read-only; the same tenancy and visibility checks as target_portfolios.get."""
from __future__ import annotations

import json
from typing import Any

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Asset, AssetClass, IndustryGroup
from app.domain import advice
from app.domain.permissions import Actor
from app.services import advice_queries
from app.services.tenancy import load_portfolio


def tp_permissions(*, actor: Actor, investment_id: Any) -> dict[str, bool]:
    """The actor's target portfolio permissions on a portfolio (the keys of the TP shape's
    `permissions`), whether or not it has a target portfolio."""
    with session_scope() as s:
        p = load_portfolio(s, actor, investment_id)
        facts = advice_queries.portfolio_facts(s, actor, p)
        return {
            "calculate": advice.can_calculate_tp(actor, facts),
            "view_only": advice.tp_view_only(actor, facts),
            "edit_commentary": advice.can_edit_commentary(actor, facts),
            "decide": advice.can_decide_roa(actor, facts),
        }


def _ids(items: list[dict[str, Any]], key: str) -> set[int]:
    return {int(item[key]) for item in items if item.get(key) is not None}


def labels(*, actor: Actor, tp_id: Any, result: dict[str, Any] | None = None) -> dict[str, dict[int, dict[str, Any]]]:
    """{"assets": {id: {name, url}}, "classes": {id: {title}}, "industry_groups": {id: {title, color}}}
    for the ids a target portfolio's result names (empty when it has no result). `result`: a result
    the services recalculated for this target portfolio (target_portfolios.edit_step, which may add
    assets) to name instead of the stored one; never one a browser sent."""
    with session_scope() as s:
        p, row = advice_queries.load_tp(s, actor, tp_id)
        out: dict[str, dict[int, dict[str, Any]]] = {"assets": {}, "classes": {}, "industry_groups": {}}
        if result is None:
            if not row.result:
                return out
            result = json.loads(row.result)
        assets = result.get("assets") or []
        asset_ids = _ids(assets, "asset_id")
        class_ids = _ids(assets, "class_id") | _ids(result.get("holdings") or [], "class_id") | _ids(
            result.get("classes") or [], "id")
        group_ids = _ids(assets, "industry_group_id") | _ids(result.get("industry_groups") or [], "id")
        if asset_ids:
            for a in s.exec(select(Asset).where(col(Asset.id).in_(asset_ids))).all():
                out["assets"][a.id] = {"name": a.name, "url": a.url or ""}
        if class_ids:
            for c in s.exec(select(AssetClass).where(col(AssetClass.id).in_(class_ids))).all():
                out["classes"][c.id] = {"title": c.title}
        if group_ids:
            for g in s.exec(select(IndustryGroup).where(col(IndustryGroup.id).in_(group_ids))).all():
                out["industry_groups"][g.id] = {"title": g.title, "color": g.color or ""}
        return out
