"""What the trade instructions screens show: the trades and notes to decide, the summary figures,
the history and the versions' rows, built from app.services.trade_instructions' read models."""
from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from app.domain.advice import NoteState, TradeInstructionSummary, TradeLine, TradeNoteLine
from app.domain.advice_words import action_words
from app.domain.users import PersonName
from app.ui import routes
from app.ui.display import input_number, iso_moment, money, price_2_to_6dp, units_or_fraction
from app.ui.toolkit.rows import TradeTotals


@dataclasses.dataclass
class DecisionItem:
    """A transaction or a "please note" item, which the approver approves or declines on this screen."""

    key: str = ""                 # "t<id>" (a transaction) | "n<id>" (a note)
    id: int = 0
    code: str = ""
    awaiting: bool = False        # a decision is still to be made on it
    choice: str = ""              # the decision chosen on this screen, not yet confirmed


@dataclasses.dataclass
class TxRow(DecisionItem):
    action: str = ""              # BUY | SELL
    units: str = ""
    units_raw: str = ""
    price: str = ""
    price_raw: str = ""
    limit_price: str = ""
    value: str = ""
    brokerage: str = ""
    amount: str = ""
    cost_base: str = ""
    pending: str = ""
    status: str = ""
    status_label: str = ""
    user_action: str = ""
    rec_action: str = ""          # the recommendation at generation (str_on_ti_generation)
    rec_comment: str = ""
    urgent: bool = False
    stop_loss: bool = False
    full_sell: bool = False


@dataclasses.dataclass
class NoteRow(DecisionItem):
    text: str = ""
    trade: str = ""               # the trade a manual decision would make: "BUY 10 at $1.00 = $10.00"
    comment: str = ""
    state: str = ""
    state_label: str = ""


@dataclasses.dataclass
class TISummary(TradeTotals):
    """The summary figures: the trades' totals and the portfolio's minimum trade amount."""

    min_trade_amount: str = ""


@dataclasses.dataclass
class HistoryRow:
    id: int = 0
    created_at: str = ""
    who: str = ""
    action: str = ""
    detail: str = ""


@dataclasses.dataclass
class VersionRow:
    version: int = 0
    status: str = ""
    status_label: str = ""
    created_at: str = ""
    creator: str = ""
    acted_label: str = ""
    acted_by: str = ""
    acted_at: str = ""
    error: str = ""
    url: str = ""


def name_of(person: PersonName | None) -> str:
    return person.full if person else ""


def declined(t: TradeLine) -> bool:
    return t.decision == "declined" or t.status.value == "declined"


def tx_row(t: TradeLine, approvable: bool) -> TxRow:
    return TxRow(
        key=f"t{t.id}", id=t.id, code=t.code, action=t.side, units=units_or_fraction(t.quantity),
        units_raw=input_number(t.quantity), price=price_2_to_6dp(t.price), price_raw=input_number(t.price),
        limit_price=price_2_to_6dp(t.limit_price), value=money(t.value), brokerage=money(t.fee), amount=money(t.amount),
        # a buy's cost base is its amount; a sell's is its value less brokerage
        cost_base=money(t.cost_base) if t.side == "SELL" else "",
        # a declined trade is not pending any more: its pending amount is not shown
        pending="" if declined(t) else money(t.pending), status=t.status.value, status_label=t.status_label,
        user_action=t.user_action or "", rec_action=action_words(t.recommendation_action),
        rec_comment=t.recommendation_comment,
        urgent=t.urgent, stop_loss=t.stop_loss, full_sell=t.full_sell, awaiting=approvable and t.awaits_decision,
    )


def note_row(n: TradeNoteLine, approvable: bool) -> NoteRow:
    trade = ""
    if n.action and n.units is not None:
        trade = f"{n.side} {units_or_fraction(n.units)}"
        if n.price is not None:
            trade += f" at {price_2_to_6dp(n.price)}"
        if n.value is not None:
            trade += f" = {money(n.value)}"
    # a HOLD note's text is its comment: printed once, with what the recommendation means
    comment = n.comment if n.comment.strip() != n.text.strip() else ""
    if not comment:
        comment = action_words(n.recommendation_action)
    return NoteRow(key=f"n{n.id}", id=n.id, code=n.code, text=n.text, trade=trade, comment=comment,
                   state=n.state, state_label=NoteState.title_of(n.state),
                   awaiting=approvable and n.awaits_decision)


def version_row(portfolio_id: int, r: TradeInstructionSummary) -> VersionRow:
    person, moment = r.acted
    return VersionRow(
        version=r.version, status=r.status.value, status_label=r.status_label, created_at=iso_moment(r.created_at),
        creator=name_of(r.creator), acted_label=r.actor_label, acted_by=name_of(person), acted_at=iso_moment(moment),
        error=r.error_message or "",
        url=routes.url("portfolios.trade-instructions-version", id=portfolio_id, version=r.version),
    )


@dataclasses.dataclass
class AddedTrade:
    """The add-transaction dialog's inputs as typed: the asset's code, buy or sell, the units and the
    price (empty: the last close price)."""

    code: str = ""
    action: str = "buy"
    quantity: str = ""
    price: str = ""


def totals_without_declined(ti: TradeInstructionSummary, lines: Any) -> TISummary:
    """The summary tiles once the client declined some trades: what the other trades add up to
    (buys with their brokerage, sells net of theirs, as the calculation counts them)."""
    kept = [t for t in lines if not declined(t)]
    buys = sum((t.amount for t in kept if t.side == "BUY"), Decimal(0))
    sells = sum(((t.cost_base if t.cost_base is not None else t.value - t.fee) for t in kept if t.side == "SELL"),
                Decimal(0))
    return TISummary(buys=money(buys), sells=money(sells), brokerage=money(sum((t.fee for t in kept), Decimal(0))),
                     min_trade_amount=money(ti.min_trade_amount))
