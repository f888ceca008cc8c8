"""Audit trail screens: the firm's trail (audit: superusers all firms with a firm filter,
administrators their firm) and a portfolio's own history (portfolios.history: whoever may see the
portfolio). Newest first, 20/50/100 a page; filters who (part of the e-mail), action, object,
dates; the Excel export takes the same filters."""
from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, ClassVar
from urllib.parse import parse_qsl, urlencode, urlsplit

import reflex as rx

from app.domain.errors import DomainError, PermissionDenied
from app.domain.permissions import NOT_ALLOWED, Actor, home_route
from app.domain.roles import Role
from app.services import audit, firms as firm_service, portfolios as portfolio_service
from app.domain.audit_trail import AuditEntry
from app.services.listing import DEFAULT_PAGE_SIZE, Page
from app.ui import routes
from app.ui.rows.audit import ALL, AuditRow, audit_row, choices_of
from app.ui.states.base import AppState, toast_error
from app.ui.toolkit.lists import Paged
from app.ui.toolkit.rows import Option, offers
from app.ui.toolkit.screen import screen_load

@dataclasses.dataclass
class AuditFilters:
    """The firm's trail's filters as chosen (ALL: any); a new record shows everything."""

    who: str = ""              # part of the e-mail
    action: str = ALL
    object_type: str = ALL
    date_from: str = ""
    date_to: str = ""
    firm: str = ALL

    def query(self) -> dict[str, str]:
        """The filters chosen, as the export's address names them."""
        return {"who": self.who, "action": "" if self.action == ALL else self.action,
                "object_type": "" if self.object_type == ALL else self.object_type,
                "date_from": self.date_from, "date_to": self.date_to, "firm_id": "" if self.firm == ALL else self.firm}

    def date_error(self) -> str:  # a From date after the To date, said under the dates
        return audit.DATES_REVERSED if self.date_from and self.date_to and self.date_from > self.date_to else ""


FILTER_KEYS = tuple(f.name for f in dataclasses.fields(AuditFilters))  # each one's key in the address
ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


class AuditList(Paged, mixin=True):
    """A page of audit events, newest first: the screen reads them in `_read(actor)`. A refusal sends
    the user home when REFUSED_HOME (the firm's trail), else shows its message."""

    REFUSED_HOME: ClassVar[bool] = False

    rows: list[AuditRow] = []
    loading: bool = True

    if TYPE_CHECKING:  # what the screens' other base (AppState) gives this mixin
        def _actor(self) -> Actor: ...
        def _fail(self, exc: Exception) -> object: ...

    def _read(self, actor: Actor) -> Page[AuditEntry]:  # pragma: no cover
        raise NotImplementedError

    def _reload(self):
        try:
            page = self._read(self._actor())
        except DomainError as exc:
            if self.REFUSED_HOME and isinstance(exc, PermissionDenied):
                return [toast_error(NOT_ALLOWED), rx.redirect(routes.url("home"))]
            self.loading = False
            return self._fail(exc)
        self.rows, self.total, self.loading = [audit_row(e) for e in page.rows], page.total, False
        return None


class AuditState(AuditList, AppState):
    REFUSED_HOME: ClassVar[bool] = True

    filters: AuditFilters = AuditFilters()
    actions: list[Option] = []
    object_types: list[Option] = []
    firms: list[Option] = []
    is_superuser_view: bool = False
    date_error: str = ""

    @rx.var
    def export_path(self) -> str:
        return "/api/audit-events/export-excel?" + urlencode({k: v for k, v in self.filters.query().items() if v})

    def _read(self, actor: Actor) -> Page[AuditEntry]:
        return audit.list_events(actor=actor, limit=self._limit(), offset=self._offset(),
                                 filters=audit.read_filter(**self.filters.query()))

    @rx.event
    @screen_load()
    def on_load(self, actor: Actor):
        self.loading, self.page, self.rows, self.total, self.filters, self.date_error = True, 1, [], 0, AuditFilters(), ""
        if actor.role not in (Role.SUPERUSER, Role.ADMINISTRATOR):
            return [toast_error(NOT_ALLOWED), rx.redirect(routes.url(home_route(actor.role)))]
        options = audit.filter_options(actor=actor)
        self.is_superuser_view = actor.is_superuser
        firms = firm_service.firm_options(actor=actor) if actor.is_superuser else []
        self.firms = [Option(ALL, "All firms")] + [Option(str(o.id), o.name) for o in firms]
        self.actions = choices_of("All actions", options.actions)
        self.object_types = choices_of("All objects", options.object_types)
        return self._reload()

    def _filter(self, **chosen: str):
        """Filters changed: the first page of what they show. A From date after the To date says so
        under the dates (and shows nothing) instead of reading an empty trail."""
        self.filters = dataclasses.replace(self.filters, **chosen)
        self.date_error = self.filters.date_error()
        if self.date_error:
            self.rows, self.total, self.page, self.loading = [], 0, 1, False
            return None
        return self._reload_first_page()

    @rx.event
    def set_who(self, value: str):
        return self._filter(who=str(value or "")[:200])

    @rx.event
    def set_filter(self, key: str, value: str):
        """A select filter (only a value it offers) or a date (as typed) of FILTER_KEYS."""
        text = str(value or "")
        if key in ("date_from", "date_to"):
            return self._filter(**{key: text[:10]})
        taken = self._address_filter(key, text) if key in FILTER_KEYS and key != "who" else None
        return None if taken is None else self._filter(**{key: taken})

    @rx.event
    def clear_filters(self):
        self.filters, self.date_error = AuditFilters(), ""
        return self._reload_first_page()

    # ---- the filters in the address (Back, a reload, a bookmark: the trail as it was left) ----------
    def _address_filter(self, key: str, value: str) -> str | None:
        """A filter's value as an address names it, if it is one the screen would take."""
        choices = {"action": self.actions, "object_type": self.object_types, "firm": self.firms}.get(key)
        if choices is not None:
            return value if offers(choices, value) else None
        if key in ("date_from", "date_to"):
            return value if ISO_DAY.fullmatch(value) else None
        return value[:200]

    def _take_address(self) -> bool:
        changed = super()._take_address()
        chosen = {}
        for key in FILTER_KEYS:
            value = self._query_text(key)
            taken = self._address_filter(key, value) if value else None
            if taken is not None and getattr(self.filters, key) != taken:
                chosen[key] = taken
        if chosen:
            self.filters = dataclasses.replace(self.filters, **chosen)
            self.date_error = self.filters.date_error()
        return changed or bool(chosen)

    def _address(self) -> str:
        parts = urlsplit(super()._address())
        query = {k: v for k, v in parse_qsl(parts.query) if k not in FILTER_KEYS}
        blank = AuditFilters()
        query.update({key: getattr(self.filters, key) for key in FILTER_KEYS
                      if getattr(self.filters, key) != getattr(blank, key)})
        return parts.path + (f"?{urlencode(query)}" if query else "")


class PortfolioHistoryState(AuditList, AppState):
    PAGE_SIZES: ClassVar[tuple[int, ...]] = (DEFAULT_PAGE_SIZE,)

    portfolio_id: int = 0
    portfolio_name: str = ""

    @rx.var
    def holdings_url(self) -> str:
        return routes.url("portfolios.holdings", id=self.portfolio_id) if self.portfolio_id else routes.url("home")

    def _read(self, actor: Actor) -> Page[AuditEntry]:
        return audit.portfolio_history(actor=actor, investment_id=self.portfolio_id, limit=self._limit(),
                                       offset=self._offset())

    @rx.event
    @screen_load(back=lambda self, actor: routes.url(home_route(actor.role)))
    def on_load(self, actor: Actor):
        self.loading, self.page, self.rows, self.total, self.portfolio_name = True, 1, [], 0, ""
        self.portfolio_id = self._path_id() or 0
        self.portfolio_name = portfolio_service.get_portfolio(actor=actor, portfolio_id=self.portfolio_id).name
        return self._reload()
