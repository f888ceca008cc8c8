"""The financial-year tax report as a PDF (xhtml2pdf, A4 landscape): the firm's name, the portfolio
and the financial year, then per portfolio the summary, income, realised gains and losses by parcel,
capital returns and the unrealised position at 30 June (app.exports.tax_report_tables). Money as
$1,234.56 (negative in red with a minus sign), dates DD/MM/YYYY."""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from html import escape

from app.domain.money import format_aud
from app.exports.file_names import safe_name
from app.exports.pdf import BASE_CSS, page_css, render
from app.exports.tax_report_tables import Section, Units, header_lines, sections
from app.domain.tax_report import TaxReport

MEDIA_TYPE = "application/pdf"
RED = "#ce2c31"
CSS = page_css(landscape=True, vertical="1.3cm", horizontal="1.1cm") + BASE_CSS + """
.meta td { border: none; padding: 1pt 4pt 1pt 0; }
.label { color: #60646c; width: 90pt; }
.muted { color: #60646c; }
.flag { color: #ce2c31; }
.total td { font-weight: bold; }
td, th { font-size: 7.5pt; }
"""


def filename(title: str, year: int) -> str:
    """'<portfolio or client> - Tax report FY2026.pdf'."""
    return f"{safe_name(title)} - Tax report FY{year}.pdf"


def _cell(value) -> tuple[str, bool]:
    """(markup, right-aligned)."""
    if isinstance(value, Units):
        return escape(format(value.value.normalize(), "f") if value.value == value.value.to_integral_value()
                      else format(value.value, "f")), True
    if isinstance(value, Decimal):
        text = escape(format_aud(value))
        return (f'<span style="color: {RED}">{text}</span>' if value < 0 else text), True
    if isinstance(value, date):
        return value.strftime("%d/%m/%Y"), False
    return escape(value or ""), False


def _section(section: Section) -> str:
    title = f"<h2>{escape(section.title)}</h2>"
    if not section.rows and section.empty:
        return f'{title}<p class="muted">{escape(section.empty)}</p>'
    head = "".join(f"<th>{escape(h)}</th>" for h in section.headers)

    def row(values, css: str = "") -> str:
        tds = []
        for value in values:
            text, right = _cell(value)
            tds.append(f'<td class="num">{text}</td>' if right else f"<td>{text}</td>")
        return f'<tr class="{css}">{"".join(tds)}</tr>'
    body = "".join(row(line) for line in section.rows)
    total = row(section.totals, "total") if section.totals else ""
    return f'{title}<table repeat="1"><tr>{head}</tr>{body}{total}</table>'


def _report(r: TaxReport) -> str:
    meta = "".join(f'<tr><td class="label">{escape(k)}</td><td>{escape(v)}</td></tr>' for k, v in header_lines(r))
    flags = "".join(f'<p class="flag">{escape(f)}</p>' for f in r.flags)
    if r.empty:
        return f'<h1>{escape(r.portfolio_name)}</h1><table class="meta">{meta}</table><p>{escape(r.message or "")}</p>'
    return (f'<h1>{escape(r.portfolio_name)}</h1><table class="meta">{meta}</table>{flags}'
            + "".join(_section(s) for s in sections(r)))


def build(*, title: str, label: str, firm_name: str, reports: list[TaxReport]) -> bytes:
    parts = [_report(r) for r in reports] or ["<p>No portfolios to report.</p>"]
    body = '<pdf:nextpage />'.join(parts)
    return render(
        f"<html><head><meta charset=\"utf-8\"><style>{CSS}</style></head><body>"
        f"<p><b>{escape(firm_name)}</b></p><p>Tax report {escape(label)}: {escape(title)}</p>{body}"
        f"<div id=\"footer\">{escape(firm_name)} &middot; {escape(title)} &middot; Tax report {escape(label)} &middot; "
        f"page <pdf:pagenumber> of <pdf:pagecount></div></body></html>")
