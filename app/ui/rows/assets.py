"""What the assets screen shows: the list's rows, the select options with their colours, the recent
prices and a price import's outcome, and the form as the service reads it."""
from __future__ import annotations

import dataclasses
from typing import Any

from app.domain.assets import AssetForm, read_asset_form
from app.services import assets
from app.services.industry_groups import IndustryGroupOption
from app.ui.display import NA, close_price, percent_1dp
from app.ui.toolkit.rows import Option, Performance, performance_of


NONE = "none"  # the "no type / no group / shared universe" choice of a select (Radix items cannot be "")


def percent_display(value: Any) -> str:  # other screens show percentages the way this one does
    """A percentage with one decimal ('12.5%'), 'N/A' when empty."""
    return percent_1dp(value, NA)


@dataclasses.dataclass
class AssetRow:
    id: int = 0
    code: str = ""
    name: str = ""
    class_title: str = ""
    type_title: str = ""
    group_title: str = ""
    group_color: str = ""
    firm_name: str = ""
    price: str = ""
    close_date: str = ""  # the ISO instant of the close (shown with rx.moment in the browser's offset)
    dividend_yield: str = ""
    one_month: Performance = Performance()
    six_month: Performance = Performance()
    url: str = ""


def asset_view(found: assets.AssetView) -> AssetRow:
    group, kind, firm = found.industry_group, found.type, found.firm
    return AssetRow(
        id=found.id, code=found.code, name=found.name, class_title=found.class_title or "",
        type_title=(kind.title if kind else None) or "", group_title=(group.title if group else None) or "",
        group_color=(group.color if group else None) or "", firm_name=(firm.name if firm else None) or "",
        price=close_price(found.last_close_price),
        close_date=found.last_close_date.isoformat() if found.last_close_date else "",
        dividend_yield=percent_display(found.dividend_yield),
        one_month=performance_of(found.one_month_return), six_month=performance_of(found.six_month_return),
        url=found.url or "",
    )


@dataclasses.dataclass
class ColourOption(Option):
    """A select's choice with the colour of its dot (an industry group's; '' for none)."""

    color: str = ""


@dataclasses.dataclass
class RecentPrice:
    day: str = ""
    close: str = ""
    change: Performance = Performance()


@dataclasses.dataclass
class Rejected:
    line: int = 0
    code: str = ""
    reason: str = ""


@dataclasses.dataclass
class PriceImport:
    """A price import's report as its dialog shows it (done False: no file imported yet): the prices
    written new and replaced, the assets they are for, and each line refused."""

    done: bool = False
    imported: int = 0
    updated: int = 0
    assets: int = 0
    rejected: list[Rejected] = dataclasses.field(default_factory=list)


def asset_form(form: dict[str, str]) -> AssetForm:
    """The form as the service reads it (read once here): the selects' NONE choice is "no value"."""
    return read_asset_form({key: "" if value == NONE else value for key, value in form.items()})


def colour_options(found: tuple[assets.AssetClassView | assets.AssetTypeView | IndustryGroupOption, ...]) -> list[ColourOption]:
    return [ColourOption(value=str(o.id), label=o.title, color=getattr(o, "color", "") or "") for o in found]


def firm_colour_options(found: tuple[assets.FirmRef, ...]) -> list[ColourOption]:
    return [ColourOption(value=str(o.id), label=o.name or "") for o in found]
