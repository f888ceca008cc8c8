"""portfolios.rofa: the record of advice of one target portfolio (spec 002 s2/s3/s4/s6/s8): tabs
Overview, Fee, Recommendation and Authority with Next / Previous, the recommended portfolio with
the reasons of every number, the fee, the commentary and the CGT estimate, and the client's
authority: Approve or Decline, each confirmed first, then the record is reloaded.

Clients open it from the link in their e-mail (often on a phone). Every handler resolves the
acting user from the token; the service decides who may approve or decline."""
from __future__ import annotations


import reflex as rx

from app.domain import advice, rich_text
from app.domain.advice_words import Side
from app.domain.errors import NotFound
from app.domain.permissions import Actor
from app.services import records_of_advice
from app.services import target_portfolios
from app.ui.components.capital_gains import capital_gains_view
from app.ui.display import iso_moment, money, percent_1dp
from app.ui.rows.rofa import FeeView, LetterheadView, WordsLine, fee_percent
from app.ui.states.advice_versions import AdviceScreen, load_failed
from app.ui.states.base import AppState, toast_success
from app.ui.toolkit.screen import Confirm, guarded
from app.ui.states.target_portfolio import TPDisplay

TABS = ["overview", "fee", "recommendation", "authority"]
TAB_TITLES = {"overview": "Overview", "fee": "Fee", "recommendation": "Recommendation", "authority": "Authority"}
RECORD_NOT_FOUND = "Record of advice not found"
QUESTIONS = {"approve": advice.CONFIRM_APPROVE_ROA, "decline": advice.CONFIRM_DECLINE_ROA}
# a client approves a record of advice (not a "target portfolio"): the toast says so
RECORD_APPROVED, RECORD_DECLINED = "Record of advice approved", "Record of advice declined"
DONE = {"approve": RECORD_APPROVED, "decline": RECORD_DECLINED}
SIDE_COLORS: dict[Side, str] = {"BUY": "green", "SELL": "red", "HOLD": "gray"}


class RofaState(Confirm, TPDisplay, AdviceScreen, AppState):
    SCREEN = "portfolios.target-portfolio"  # its address: the target portfolio the record belongs to

    loading: bool = True
    tab: str = TABS[0]
    practice: str = ""
    licensee: str = ""
    clients: str = ""
    client_wording: str = ""
    adviser: str = ""
    record_date: str = ""           # ISO instant
    fee: FeeView = FeeView()
    market: str = ""
    recommendation: str = ""
    cgt_text: str = ""
    can_decide: bool = False
    pending: bool = False
    approved: bool = False
    declined: bool = False
    decided_by: str = ""
    decided_at: str = ""
    decided_by_superuser: bool = False  # the approver or decliner was a superuser (spec 002 s6)
    client_address: str = ""
    practice_address: str = ""
    confirm_action: str = ""        # approve | decline: the dialog's title and button
    busy: bool = False
    # the firm's record of advice: its letterhead, layout, colour, disclaimer and footer
    letterhead: LetterheadView = LetterheadView()
    layout: str = "default"
    colour: str = ""
    disclaimer: str = ""
    footer: str = ""
    words: list[WordsLine] = []
    cgt_notes: list[str] = []

    def _load(self, actor: Actor) -> None:
        document = records_of_advice.document(actor=actor, tp_id=self._path_id("rofa_id") or 0)
        record = document.record
        view, t = record.tp, record.tp.summary
        if self.portfolio_id and t.investment_id != self.portfolio_id:
            raise NotFound(RECORD_NOT_FOUND)
        self._load_header(actor, t.investment_id)
        self._show_tp(view)
        self.capital_gains = capital_gains_view(document.capital_gains)
        practice = record.practice
        self.practice = practice.name or ""
        self.licensee = " ".join(p for p in (practice.licensee_name or "",
                                              f"AFSL {practice.licensee_afsl}" if practice.licensee_afsl else "") if p)
        self.clients = ", ".join(o.full for o in record.owners) or "\u2014"
        self.client_wording = record.client_wording
        self.adviser = record.adviser.full if record.adviser else "\u2014"
        self.record_date = iso_moment(record.date)
        fee = record.fee
        self.fee = FeeView(percent=fee_percent(fee.percent), min=money(fee.min), max=money(fee.max),
                           amount=money(fee.amount))
        self.market, self.recommendation = (rich_text.as_html(c.description if c else "")
                                            for c in map(view.commentary, advice.COMMENT_TYPES))
        self.cgt_text = record.cgt_estimate
        self.pending, self.approved, self.declined = record.pending, record.approved, record.declined
        who, at = (t.approver, t.approved_at) if self.approved else (t.decliner, t.declined_at) if self.declined \
            else (None, None)
        self.decided_by, self.decided_at = who.full if who else "", iso_moment(at)
        self.decided_by_superuser = bool(who) and record.decided_by_superuser
        self.client_address = ", ".join(record.client_address)
        self.practice_address = ", ".join(record.practice_address)
        self.can_decide = record.can_decide
        head, brand = document.letterhead, document.branding
        self.letterhead = LetterheadView(firm=head.firm_name, logo=head.logo_url or "", abn=head.abn or "",
                                         representative=head.representative_line, licensee=head.licensee_line,
                                         adviser=head.adviser_name or "",
                                         adviser_representative=head.adviser_representative_line,
                                         signature=head.adviser_signature_url or "")
        self.layout, self.colour = brand.layout, brand.colour
        self.disclaimer, self.footer = brand.disclaimer, brand.footer
        self.words = [WordsLine(key=f"{line.kind}-{i}", kind=line.kind, code=line.code, name=line.name, trade=line.trade,
                                side=line.side, color=SIDE_COLORS[line.side], reason=line.reason,
                                detail=line.detail, target_value=money(line.target_value),
                                target_percent=percent_1dp(line.target_percent))
                      for i, line in enumerate(document.lines)]
        self.cgt_notes = [f"{n.code}: {n.comment}" for n in document.cgt_notes]

    @rx.event
    @load_failed()  # check_login sends a signed-out browser to sign in (and back here afterwards)
    def on_load(self, actor: Actor):
        self.loading = True
        self.tab = TABS[0]
        self.confirm_open = False
        self.busy = False
        self._clear_header()
        self._clear_tp()
        self.portfolio_id = self._portfolio_param() or 0
        try:
            self._load(actor)
        finally:
            self.loading = False

    # ---- tabs -------------------------------------------------------------------------------------
    @rx.event
    def set_tab(self, value: str):
        if value in TABS:
            self.tab = value

    @rx.event
    def next_tab(self):
        index = TABS.index(self.tab) if self.tab in TABS else 0
        self.tab = TABS[min(index + 1, len(TABS) - 1)]

    @rx.event
    def previous_tab(self):
        index = TABS.index(self.tab) if self.tab in TABS else 0
        self.tab = TABS[max(index - 1, 0)]

    @rx.var
    def is_first_tab(self) -> bool:
        return self.tab == TABS[0]

    @rx.var
    def is_last_tab(self) -> bool:
        return self.tab == TABS[-1]

    # ---- links ------------------------------------------------------------------------------------
    @rx.var
    def pdf_path(self) -> str:
        return f"/api/target-portfolios/{self.tp_id}/rofa/export" if self.tp_id else ""

    @rx.var
    def can_approve(self) -> bool:
        """Not once approved, nor before the adviser validated it ('Please, validate data first.')."""
        return self.can_decide and not self.approved and self.tp_status != advice.TPStatus.DRAFT.value

    @rx.var
    def can_decline(self) -> bool:
        return self.can_decide and not self.declined

    @rx.var
    def withdraws(self) -> bool:
        """Declining an approved record of advice withdraws that approval: the screen says so."""
        return self.approved and self.can_decline

    # ---- approve or decline ---------------------------------------------------------------------------
    @rx.event
    def ask(self, action: str):
        if action not in QUESTIONS or not self.can_decide:
            return
        self.confirm_action = action
        self._ask(action, QUESTIONS[action])

    def _confirmed(self, action: str, _: int):
        return RofaState.decide(action)

    @rx.event
    @guarded
    def decide(self, action: str):
        if action not in QUESTIONS or self.busy:
            return
        self.busy = True
        yield
        try:
            actor = self._actor()
            target_portfolios.decide(actor=actor, tp_id=self.tp_id, action=action, row_version=self._row_version)
            self._load(actor)  # afterwards the record is reloaded (002 s4)
        finally:
            self.busy = False
        yield toast_success(DONE[action])
