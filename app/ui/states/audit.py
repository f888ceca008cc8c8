"""Audit trail screens: the firm's trail (audit: superusers all firms with a firm filter,
administrators their firm) and a portfolio's own history (portfolios.history: whoever may see the
portfolio). Newest first, 20/50/100 a page; filters who (part of the e-mail), action, object,
dates; the Excel export takes the same filters."""
from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlencode

import reflex as rx

from app.domain.errors import AuthenticationError, DomainError, PermissionDenied
from app.domain.permissions import NOT_ALLOWED, home_route
from app.domain.roles import Role
from app.exports.audit_xlsx import changes_text
from app.services import audit, firms as firm_service, portfolios as portfolio_service
from app.services.listing import DEFAULT_PAGE_SIZE, PAGE_SIZES
from app.ui import routes
from app.ui.states.lists import visible_pages
from app.ui.states.base import AppState, toast_error

ALL = "all"


@dataclasses.dataclass
class AuditRow:
    id: int = 0
    at: str = ""
    who: str = ""
    action: str = ""
    action_title: str = ""
    object: str = ""
    changes: str = ""
    ip: str = ""


@dataclasses.dataclass
class Choice:
    value: str = ""
    label: str = ""


def audit_row(e: dict[str, Any]) -> AuditRow:
    label = e.get("object_label") or ""
    return AuditRow(id=int(e["id"]), at=e["at"], who=e.get("actor_email") or "", action=e["action"],
                    action_title=e["action_title"],
                    object=f"{e['object_type_title']}: {label}" if label else e["object_type_title"],
                    changes=changes_text(e.get("before") or {}, e.get("after") or {}), ip=e.get("ip") or "")


class AuditState(AppState):
    rows: list[AuditRow] = []
    total: int = 0
    page: int = 1
    page_size: str = str(DEFAULT_PAGE_SIZE)
    loading: bool = True

    # filters
    who: str = ""
    action: str = ALL
    object_type: str = ALL
    date_from: str = ""
    date_to: str = ""
    firm: str = ALL
    actions: list[Choice] = []
    object_types: list[Choice] = []
    firms: list[Choice] = []
    is_superuser_view: bool = False

    @rx.var
    def pages(self) -> int:
        return max(1, -(-self.total // self._size()))

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self.pages)

    @rx.var
    def export_path(self) -> str:
        return "/api/audit-events/export-excel?" + urlencode(self._filters_query())

    def _size(self) -> int:
        size = int(self.page_size) if self.page_size.isdigit() else 0
        return size if size in PAGE_SIZES else DEFAULT_PAGE_SIZE

    def _filters(self) -> dict[str, Any]:
        return {"who": self.who, "action": "" if self.action == ALL else self.action,
                "object_type": "" if self.object_type == ALL else self.object_type,
                "date_from": self.date_from, "date_to": self.date_to,
                "firm_id": None if self.firm == ALL else self.firm}

    def _filters_query(self) -> dict[str, str]:
        return {k: str(v) for k, v in self._filters().items() if v not in (None, "")}

    def _load(self):
        try:
            actor = self._actor()
            rows, total = audit.list_events(actor=actor, limit=self._size(), offset=(self.page - 1) * self._size(),
                                            **self._filters())
        except PermissionDenied:
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url("home"))]
        except DomainError as exc:
            self.loading = False
            return self._fail(exc)
        if not rows and total and self.page > 1:
            self.page = 1
            return self._load()
        self.rows, self.total, self.loading = [audit_row(e) for e in rows], total, False
        return None

    @rx.event
    def on_load(self):
        self.loading = True
        self.page, self.rows, self.total = 1, [], 0
        self.who, self.action, self.object_type, self.date_from, self.date_to, self.firm = "", ALL, ALL, "", "", ALL
        try:
            actor = self._actor()
        except AuthenticationError:
            return None  # AppState.check_login already sent the visitor to sign in
        if actor.role not in (Role.SUPERUSER, Role.ADMINISTRATOR):
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url(home_route(actor.role)))]
        try:
            options = audit.filter_options(actor=actor)
            self.is_superuser_view = actor.is_superuser
            self.firms = [Choice(ALL, "All firms")] + (
                [Choice(str(o["id"]), o["name"]) for o in firm_service.firm_options(actor=actor)] if actor.is_superuser else [])
        except DomainError as exc:
            return self._fail(exc)
        self.actions = [Choice(ALL, "All actions")] + [Choice(o["value"], o["label"]) for o in options["actions"]]
        self.object_types = [Choice(ALL, "All objects")] + [Choice(o["value"], o["label"]) for o in options["object_types"]]
        return self._load()

    def _refilter(self):
        self.page = 1
        return self._load()

    @rx.event
    def set_who(self, value: str):
        self.who = str(value or "")[:200]
        return self._refilter()

    def _choose(self, attr: str, value: str, choices: list[Choice]):
        """A select filter: only one of its offered values is taken."""
        if value not in {c.value for c in choices}:
            return None
        setattr(self, attr, value)
        return self._refilter()

    @rx.event
    def set_action(self, value: str):
        return self._choose("action", value, self.actions)

    @rx.event
    def set_object_type(self, value: str):
        return self._choose("object_type", value, self.object_types)

    @rx.event
    def set_firm(self, value: str):
        return self._choose("firm", value, self.firms)

    @rx.event
    def set_date_from(self, value: str):
        self.date_from = str(value or "")[:10]
        return self._refilter()

    @rx.event
    def set_date_to(self, value: str):
        self.date_to = str(value or "")[:10]
        return self._refilter()

    @rx.event
    def clear_filters(self):
        self.who, self.action, self.object_type, self.date_from, self.date_to, self.firm = "", ALL, ALL, "", "", ALL
        return self._refilter()

    @rx.event
    def set_page(self, page: int):
        try:
            self.page = max(1, min(int(page), self.pages))
        except (TypeError, ValueError):
            return None
        return self._load()

    @rx.event
    def set_page_size(self, value: str):
        if value in {str(size) for size in PAGE_SIZES}:
            self.page_size, self.page = value, 1
            return self._load()
        return None


class PortfolioHistoryState(AppState):
    portfolio_id: int = 0
    portfolio_name: str = ""
    rows: list[AuditRow] = []
    total: int = 0
    page: int = 1
    loading: bool = True

    @rx.var
    def pages(self) -> int:
        return max(1, -(-self.total // DEFAULT_PAGE_SIZE))

    @rx.var
    def visible(self) -> list[int]:
        return visible_pages(self.page, self.pages)

    @rx.var
    def holdings_url(self) -> str:
        return routes.url("portfolios.holdings", id=self.portfolio_id) if self.portfolio_id else routes.url("home")

    def _load(self):
        try:
            actor = self._actor()
            rows, total = audit.portfolio_history(actor=actor, investment_id=self.portfolio_id,
                                                  limit=DEFAULT_PAGE_SIZE, offset=(self.page - 1) * DEFAULT_PAGE_SIZE)
        except DomainError as exc:
            self.loading = False
            return self._fail(exc)
        self.rows, self.total, self.loading = [audit_row(e) for e in rows], total, False
        return None

    @rx.event
    def on_load(self):
        self.loading, self.page, self.rows, self.total, self.portfolio_name = True, 1, [], 0, ""
        raw = routes.param(self.router.url.path)
        self.portfolio_id = int(raw) if raw.isdigit() else 0
        try:
            actor = self._actor()
        except AuthenticationError:
            return None
        try:
            self.portfolio_name = portfolio_service.get_portfolio(actor=actor, portfolio_id=self.portfolio_id)["name"]
        except DomainError as exc:
            self.loading = False
            return [toast_error(exc.message), rx.redirect(routes.url(home_route(actor.role)))]
        return self._load()

    @rx.event
    def set_page(self, page: int):
        try:
            self.page = max(1, min(int(page), self.pages))
        except (TypeError, ValueError):
            return None
        return self._load()
