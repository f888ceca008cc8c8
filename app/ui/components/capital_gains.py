"""The capital gains of recommended sells, as the target portfolio, the trade recommendations and
the record of advice show them: each sell with the parcels it takes (bought, units, cost base,
proceeds, gain, discount method, discount, net gain) under the portfolio's tax treatment, the total
beside what "Minimise capital gains tax" would give, and the sells a short wait would tax less
(app.services.tax_reports.advice_estimate). One view type and one panel serve the three screens."""
from __future__ import annotations

import dataclasses
from typing import Any

import reflex as rx

from app.domain import cgt
from app.domain.timezones import day_text
from app.services.tax_reports import AdviceTax
from app.ui.display import money, units_or_fraction


@dataclasses.dataclass
class ParcelGainRow:
    key: str = ""
    bought: str = ""
    units: str = ""
    cost_base: str = ""
    proceeds: str = ""
    gain: str = ""
    loss: bool = False
    method: str = ""
    discount: str = ""
    net: str = ""


@dataclasses.dataclass
class SellGainRow:
    key: str = ""
    code: str = ""
    units: str = ""
    price: str = ""
    gain: str = ""
    discount: str = ""
    net: str = ""
    parcels: list[ParcelGainRow] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class CapitalGainsView:
    shown: bool = False
    comparison: str = ""
    net: str = ""
    minimised: str = ""
    saving: str = ""
    waits: list[str] = dataclasses.field(default_factory=list)
    sells: list[SellGainRow] = dataclasses.field(default_factory=list)


def capital_gains_view(est: AdviceTax | None) -> CapitalGainsView:
    """The screen's rows of an estimate (nothing shown when the advice sells nothing held)."""
    if est is None or not est.sells:
        return CapitalGainsView()
    sells = [SellGainRow(
        key=f"{i}-{sell.code}", code=sell.code, units=units_or_fraction(sell.units), price=money(sell.price),
        gain=money(sell.gain), discount=money(sell.discount), net=money(sell.net),
        parcels=[ParcelGainRow(key=f"{i}-{j}", bought=day_text(p.bought_on) if p.bought_on else "",
                               units=units_or_fraction(p.units), cost_base=money(p.cost_base),
                               proceeds=money(p.proceeds), gain=money(p.gain), loss=p.gain < 0, method=p.method,
                               discount=money(p.discount), net=money(p.net))
                 for j, p in enumerate(sell.parcels)])
        for i, sell in enumerate(est.sells)]
    return CapitalGainsView(
        shown=True, comparison=est.comparison,
        net=money(est.net), minimised=money(est.minimised), saving=money(est.saving) if est.saving > 0 else "",
        waits=[cgt.waiting_text(w.code, day_text(w.until), w.saving) for w in est.waits], sells=sells)


def _figure(label: str, value: Any, **props: Any) -> rx.Component:
    return rx.text(rx.text.span(label + " ", color=rx.color("gray", 11)), value, size="2", white_space="nowrap",
                   **props)


def _parcel(p: ParcelGainRow) -> rx.Component:
    """One parcel as a line of labelled figures that wraps on a narrow screen (no table to scroll)."""
    return rx.flex(
        _figure("Bought", p.bought),
        _figure("Units", p.units),
        _figure("Cost base", p.cost_base),
        _figure("Proceeds", p.proceeds),
        _figure("Gain", p.gain, color=rx.cond(p.loss, rx.color("red", 11), "inherit")),
        rx.text(p.method, size="2"),
        _figure("Discount", p.discount),
        _figure("Net gain", p.net, weight="medium"),
        wrap="wrap", column_gap="16px", row_gap="2px", width="100%", padding_y="4px",
        border_top=f"1px solid {rx.color('gray', 5)}", class_name="cgt-parcel", role="listitem",
    )


def _sell(sell: SellGainRow) -> rx.Component:
    return rx.box(
        rx.hstack(
            rx.text(sell.code, weight="bold", class_name="cgt-sell-code"),
            rx.text("Sell ", sell.units, " at ", sell.price, size="2"),
            rx.spacer(),
            rx.text("Gain ", sell.gain, " \u00b7 discount ", sell.discount, " \u00b7 net ", sell.net, size="2",
                    class_name="cgt-sell-net"),
            wrap="wrap", width="100%", align="baseline",
        ),
        rx.box(rx.foreach(sell.parcels, _parcel), role="list", aria_label="Parcels of " + sell.code, width="100%"),
        class_name="cgt-sell", width="100%", padding_y="6px",
    )


def capital_gains_panel(view: CapitalGainsView, heading_level: str = "h2") -> rx.Component:
    """The panel (nothing when the advice sells nothing held)."""
    return rx.cond(
        view.shown,
        rx.card(
            rx.vstack(
                rx.heading("Capital gains on the recommended sells", size="3", as_=heading_level),
                rx.text(view.comparison, size="2", id="cgt-comparison"),
                rx.foreach(view.waits, lambda w: rx.text(w, size="2", color=rx.color("amber", 11),
                                                         class_name="cgt-wait")),
                rx.foreach(view.sells, _sell),
                rx.text("Estimates on the last close prices and the parcels held today, under the portfolio's tax "
                        "treatment; carried-forward losses and other gains of the year are not included.",
                        size="1", color=rx.color("gray", 11)),
                spacing="2", width="100%",
            ),
            id="capital-gains", width="100%",
        ),
    )
