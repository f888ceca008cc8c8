"""The holdings of a portfolio as a PDF document (xhtml2pdf, A4 landscape).

A header (portfolio, model, owners, date in the browser's offset), the totals, the class
allocation (actual against target), then one table per asset class. Money as $1,234.56 (negative
in red with a minus sign), percentages with one decimal, performance green when positive and red
when negative, N/A when empty, listed units without decimals."""
from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from html import escape

from app.exports.pdf import BASE_CSS, page_css, render

from app.domain.money import format_aud
from app.domain.holdings import Holdings, Line, sections
from app.domain.money import percent_1dp_label, whole_units_text
from app.exports.file_names import safe_name
from app.domain.timezones import day_text, file_day, local_time, moment_text

MEDIA_TYPE = "application/pdf"
NA = "N/A"
GREEN, RED, GREY = "#18794e", "#ce2c31", "#60646c"

CSS = page_css(landscape=True, vertical="1.4cm", horizontal="1.2cm") + BASE_CSS + """
.meta td { border: none; padding: 1pt 4pt 1pt 0; }
.label { color: #60646c; width: 70pt; }
.class { background-color: #d5def0; font-weight: bold; font-size: 9.5pt; }
.muted { color: #60646c; }
"""


def filename(h: Holdings, offset_minutes: int, now: datetime | None = None) -> str:
    """'<portfolio> - Holdings - 31-12-2025.pdf' (the date in the browser's offset)."""
    day = file_day(now or h.as_at, offset_minutes)
    return f"{safe_name(h.portfolio.name)} - Holdings - {day}.pdf"


def money(value: Decimal | None) -> str:
    if value is None:
        return ""
    text = escape(format_aud(value))
    return f'<span style="color: {RED}">{text}</span>' if value < 0 else text


def percent(value: Decimal | None) -> str:
    return NA if value is None else escape(percent_1dp_label(value))


def performance(value: Decimal | None) -> str:
    """One decimal with a percent sign, green when positive, red when negative, N/A when empty."""
    if value is None:
        return f'<span style="color: {GREY}">{NA}</span>'
    shown = Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    color = GREEN if shown > 0 else RED if shown < 0 else GREY
    return f'<span style="color: {color}">{escape(percent_1dp_label(value))}</span>'


def units(value: Decimal | None) -> str:
    return "" if value is None else whole_units_text(value)


def _row(line: Line) -> str:
    name = escape(line.name) + (f' <span class="muted">({escape(line.detail)})</span>' if line.detail else "")
    share = line.kind == "share"
    cells = [
        escape(line.code), name, units(line.quantity), money(line.cost), money(line.value), percent(line.allocation),
        performance(line.six_months_return) if share else "", performance(line.since_purchase) if share else "",
        performance(line.dividend_yield) if share else "",
        (percent(line.fee) if line.fee is not None else NA) if line.kind == "custom" else "",
    ]
    tds = "".join(f'<td class="num">{c}</td>' if i >= 2 else f"<td>{c}</td>" for i, c in enumerate(cells))
    return f"<tr>{tds}</tr>"


HEAD = ("Code", "Name", "Quantity", "Cost", "Value", "Allocation", "6 Month Return", "Since Purchase",
        "Dividend Yield", "Fee")
WIDTHS = ("8%", "26%", "7%", "10%", "10%", "8%", "8%", "8%", "8%", "7%")


def html(h: Holdings, offset_minutes: int) -> str:
    p = h.portfolio
    owners = p.owners_text or NA
    when = local_time(h.as_at, offset_minutes)
    meta = "".join(f'<tr><td class="label">{label}</td><td>{escape(value)}</td></tr>' for label, value in (
        ("Portfolio", p.name), ("Model", p.model_name or "Not linked"), ("Owners", owners),
        ("Date", day_text(when))))
    t = h.totals
    totals = "".join(f'<td class="label">{label}</td><td><b>{money(value)}</b></td>' for label, value in (
        ("Total value", t.value), ("Cash", t.cash), ("Shares", t.shares_value), ("Deposits", t.deposits),
        ("Custom holdings", t.custom_holdings)))
    alloc_rows = "".join(
        f'<tr><td>{escape(c.title)}</td><td class="num">{money(c.value)}</td><td class="num">{percent(c.actual)}</td>'
        f'<td class="num">{percent(c.target)}</td></tr>' for c in h.classes)
    num = ' class="num"'
    head = "".join(f'<th width="{w}"{num if i >= 2 else ""}>{label}</th>' for i, (label, w) in enumerate(zip(HEAD, WIDTHS)))
    parts = []
    for section in sections(h):
        k = section.klass
        body = "".join(_row(line) for line in section.lines) or \
            f'<tr><td></td><td class="muted" colspan="{len(HEAD) - 1}">Nothing held in this class</td></tr>'
        parts.append(
            f'<table repeat="2"><tr><td class="class" colspan="{len(HEAD)}">{escape(k.title)} &nbsp; {money(k.value)}'
            f' &nbsp; {percent(k.actual)}</td></tr><tr>{head}</tr>{body}</table>')
    return (
        f"<html><head><meta charset=\"utf-8\"><style>{CSS}</style></head><body>"
        f"<h1>Portfolio Holdings</h1><table class=\"meta\">{meta}</table>"
        f"<h2>Totals</h2><table class=\"meta\"><tr>{totals}</tr></table>"
        f"<h2>Class allocation</h2><table><tr><th width=\"40%\">Class</th><th class=\"num\">Value</th>"
        f"<th class=\"num\">Actual</th><th class=\"num\">Target</th></tr>{alloc_rows}</table>"
        f"<h2>Holdings by class</h2>{''.join(parts)}"
        f"<div id=\"footer\">{escape(p.name)} &middot; Holdings at {moment_text(when)} &middot; "
        f"page <pdf:pagenumber> of <pdf:pagecount></div>"
        "</body></html>"
    )


def build(h: Holdings, offset_minutes: int) -> bytes:
    return render(html(h, offset_minutes))
