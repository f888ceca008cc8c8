"""A portfolio's (or a client's) performance as a PDF document (xhtml2pdf, A4 landscape): the
firm's name and the heading, the periods (TWR, income, capital growth, IRR, the model, the
difference), why the portfolio differs from the model, each portfolio of a client, and the value
over time at each month's end. Rates with one decimal, green when positive and red when
negative, N/A when empty; money as $1,234.56."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from html import escape

from app.domain.money import format_aud, percent_1dp_label
from app.domain.performance import PerformanceReport
from app.domain.timezones import day_text, file_day
from app.exports import performance_table as T
from app.exports.file_names import safe_name
from app.exports.pdf import BASE_CSS, page_css, render

MEDIA_TYPE = "application/pdf"
GREEN, RED = "#18794e", "#ce2c31"

CSS = page_css(landscape=True, vertical="1.4cm", horizontal="1.2cm") + BASE_CSS + """
.meta td { border: none; padding: 1pt 4pt 1pt 0; }
.label { color: #60646c; width: 90pt; }
.firm { font-size: 12pt; font-weight: bold; }
.muted { color: #60646c; }
"""


def filename(r: PerformanceReport, offset_minutes: int, now: datetime) -> str:
    return f"{safe_name(r.title)} - Performance - {file_day(now, offset_minutes)}.pdf"


def rate(value: Decimal | None) -> str:
    if value is None:
        return T.NA
    text = escape(percent_1dp_label(value))
    colour = GREEN if value > 0 else RED if value < 0 else None
    return f'<span style="color: {colour}">{text}</span>' if colour else text


def points(value: Decimal | None) -> str:
    if value is None:
        return T.NA
    return rate(value).replace("%", "")


def money(value: Decimal | None) -> str:
    if value is None:
        return T.NA
    text = escape(format_aud(value))
    return f'<span style="color: {RED}">{text}</span>' if value < 0 else text


def _table(columns: tuple[str, ...], rows: list[list[str]], first_left: int = 1) -> str:
    """A table whose first `first_left` columns are text and the others figures (right-aligned)."""
    def attr(n: int) -> str:
        return "" if n < first_left else ' class="num"'

    head = "".join(f"<th{attr(n)}>{escape(c)}</th>" for n, c in enumerate(columns))
    body = "".join("<tr>" + "".join(f"<td{attr(n)}>{cell}</td>" for n, cell in enumerate(row)) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def build(r: PerformanceReport, now: datetime) -> bytes:
    meta = "".join(f'<tr><td class="label">{escape(label)}</td><td>{escape(text)}</td></tr>'
                   for label, text in T.heading(r))
    parts = [f'<div class="firm">{escape(r.firm_name)}</div>',
             f"<h1>{escape(T.TITLE)} - {escape(r.title)}</h1>", f'<table class="meta">{meta}</table>']
    if r.message:
        parts.append(f"<p>{escape(r.message)}</p>")
    if r.periods:
        rows = [[escape(p.title), *map(escape, T.period_dates(p)), *(rate(v) for v in T.period_values(p))]
                for p in r.periods]
        parts += ["<h2>Returns</h2>", _table(T.PERIOD_COLUMNS, rows, first_left=3)]
        why = [[escape(p.title), *(points(v) for v in T.why_values(p))] for p in r.periods]
        parts += [f"<h2>{escape(T.WHY_TITLE)}</h2>", _table(T.WHY_COLUMNS, why)]
    if r.portfolios:
        rows = [[escape(p.name), escape(p.model_name or "None"), money(p.value), rate(p.fytd), rate(p.since_inception)]
                for p in r.portfolios]
        parts += ["<h2>Portfolios</h2>",
                  _table(("Portfolio", "Model", "Value", "Financial year to date", "Since inception"), rows, 2)]
    months = T.month_ends(r.chart)
    if months:
        rows = [[day_text(m.day), money(m.value), money(m.invested), money(m.model_value)] for m in months]
        parts += [f"<h2>{escape(T.VALUE_TITLE)}</h2>", _table(T.VALUE_COLUMNS, rows)]
    parts += [f'<p class="muted">{escape(note)}</p>' for note in T.NOTES]
    footer = f'<div id="footer">{escape(r.firm_name)} - {escape(T.TITLE)} - {day_text(now.date())}</div>'
    html = f"<html><head><style>{CSS}</style></head><body>{footer}{''.join(parts)}</body></html>"
    return render(html)
