"""Route names of the specification -> URL paths. Navigation code uses names, never literal paths."""
from __future__ import annotations

import re
from typing import Mapping, TypeVar
from urllib.parse import urlencode

T = TypeVar("T")

ROUTES: dict[str, str] = {
    "home": "/",
    "login": "/login",
    "activation": "/activation/[token]",
    "reset-password": "/reset-password/[token]",
    "email-change": "/email-change/[token]",
    "profile": "/profile",
    "dashboard": "/dashboard",
    "outbox": "/outbox",
    "firms.list": "/firms",
    "firms.new": "/firms/new",
    "firms.view": "/firms/[id]",
    "firms.edit": "/firms/[id]/edit",
    "firms.clients": "/firms/[id]/clients",
    "firms.advisers": "/firms/[id]/advisers",
    "users.list": "/users",
    "users.new": "/users/new",
    "users.view": "/users/[id]",
    "users.edit": "/users/[id]/edit",
    "clients.list": "/clients",
    "clients.new": "/clients/new",
    "clients.view": "/clients/[id]",
    "clients.edit": "/clients/[id]/edit",
    "advisers.list": "/advisers",
    "advisers.new": "/advisers/new",
    "advisers.view": "/advisers/[id]",
    "advisers.edit": "/advisers/[id]/edit",
    "advisers.clients": "/advisers/[id]/clients",
    # model portfolios and what they hold
    "models.view": "/models",
    "models.createModel": "/models/new",
    "models.details": "/models/[id]",
    "models.changeModel": "/models/[id]/edit",
    "models.history": "/models/[id]/history",
    "models.version": "/models/[id]/history/[version]",
    "models.long-terms": "/models/[id]/long-term-recommendations",
    "models.short-terms": "/models/[id]/short-term-recommendations",
    "bulk-upload.long-terms": "/models/bulk/long-term-recommendations",
    "bulk-upload.short-terms": "/models/bulk/short-term-recommendations",
    "industry-groups": "/industry-groups",
    "assets.list": "/assets",
    # client portfolios (investments), their holdings and transactions
    "portfolios.list": "/portfolios",
    "portfolios.me": "/my-portfolios",
    "clients.portfolios": "/clients/[id]/portfolios",
    "advisers.portfolios": "/advisers/[id]/portfolios",
    "firms.portfolios": "/firms/[id]/portfolios",
    "models.portfolios": "/models/[id]/portfolios",
    "models.clients": "/models/[id]/clients",
    "clients.new-portfolio": "/clients/[id]/new-portfolio",
    "advisers.new-portfolio": "/advisers/[id]/new-portfolio",
    "portfolios.view": "/portfolios/[id]",
    "portfolios.edit": "/portfolios/[id]/edit",
    "portfolios.holdings": "/portfolios/[id]/holdings",
    "portfolios.performance": "/portfolios/[id]/performance", "clients.performance": "/my-performance",
    "portfolios.tax-report": "/portfolios/[id]/tax-report", "clients.tax-report": "/my-tax-report",
    "portfolios.history": "/portfolios/[id]/history",
    "portfolios.buy": "/portfolios/[id]/buy",
    "portfolios.cash-transactions": "/portfolios/[id]/cash-transactions",
    "portfolios.asset-transactions": "/portfolios/[id]/asset-transactions",
    "portfolios.add-transaction": "/portfolios/[id]/add-transaction",
    "clients.addTransaction": "/portfolios/[id]/add-deposit",
    # target portfolios, records of advice, trade instructions, bulk calculation
    "portfolios.target-portfolio": "/portfolios/[id]/target-portfolio",
    "portfolios.target-portfolio-version": "/portfolios/[id]/target-portfolio/[version]",
    "portfolios.target-portfolio-versions": "/portfolios/[id]/target-portfolio-versions",
    "portfolios.rofa": "/portfolios/[id]/rofa/[rofa_id]",
    "portfolios.trade-instructions": "/portfolios/[id]/trade-instructions",
    "portfolios.trade-instructions-version": "/portfolios/[id]/trade-instructions/[version]",
    "portfolios.trade-instructions-versions": "/portfolios/[id]/trade-instructions-versions",
    "bulk-calculate.calculateTP": "/bulk-calculate/target-portfolios",
    "bulk-calculate.calculateTR": "/bulk-calculate/trade-recommendations",
    # firm-wide reports
    "reports.trade-recommendations": "/reports/trade-recommendations",
    "reports.desktop-broker-trade-file": "/reports/desktop-broker-trade-file",
    "reports.orders": "/reports/orders",
    "reports.order-reconciliation": "/reports/orders/reconciliation",
    "reports.cash": "/reports/cash",
    "reports.pending-target-portfolios": "/reports/pending-target-portfolios",
    # who did what
    "audit": "/audit",
}

PUBLIC = frozenset({"login", "activation", "reset-password", "email-change"})


def url(name: str, query: dict | None = None, **params: object) -> str:
    path = ROUTES[name]
    for key, value in params.items():
        path = path.replace(f"[{key}]", str(value))
    if "[" in path:
        raise ValueError(f"route {name} needs parameters: {path}")
    return path + (f"?{urlencode(query)}" if query else "")


def _pattern(template: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\[(\w+)\\\]", r"(?P<\1>[^/]+)", re.escape(template)) + "/?$")


_PATTERNS = [(name, _pattern(path)) for name, path in ROUTES.items()]


def match(path: str) -> tuple[str | None, dict[str, str]]:
    """(route name, params) of a browser path; static routes win over dynamic ones."""
    path = (path or "/").split("?", 1)[0]
    found: list[tuple[str, dict[str, str]]] = []
    for name, pattern in _PATTERNS:
        m = pattern.match(path)
        if m:
            found.append((name, m.groupdict()))
    if not found:
        return None, {}
    found.sort(key=lambda item: len(item[1]))
    return found[0]


def page_value(path: str, values: Mapping[str, T], default: T) -> T:
    """What `values` (route name -> value) gives the page at `path`, `default` on any other page: how
    a screen served at several routes knows which one it is on."""
    return values.get(match(path)[0] or "", default)


def param(path: str, key: str = "id") -> str:
    return match(path)[1].get(key, "")
