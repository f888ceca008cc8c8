"""Trade recommendations as Excel (mode 'standart' with every column, or 'simple') and PDF: the
approval report of an adviser, or one portfolio's trade recommendations (with the firm's letterhead,
as its client receives them; actions in words: Buy, Sell, Please note). Pure builders over the
approval groups (objects with investment_name, status_label and items; see
app.services.trade_approval_report.ApprovalGroup); no database.

Excel cells are written as text or numbers, never formulas: text that starts with = + - @ stays text.
"""
from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal
from html import escape
from typing import Any, Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from app.domain.advice_words import recommendation_words
from app.domain.firm_documents import DEFAULT_COLOUR, Letterhead
from app.domain import rich_text
from app.exports.pdf import (
    BASE_CSS, COMMENTARY_CSS, COMMENTARY_TITLES, LETTERHEAD_CSS, commentary_html, letterhead_html, page_css, render,
)

from app.domain.money import format_aud, whole_units_text
from app.exports.broker_files import XLSX, put_text
from app.domain.timezones import local_moment_text, local_time, moment_text

PDF = "application/pdf"
STANDARD, SIMPLE = "standart", "simple"  # the specification's spelling of the mode
MODES = (STANDARD, SIMPLE)
_FILL = PatternFill("solid", fgColor="1F3A5F")
_GROUP_FILL = PatternFill("solid", fgColor="D5DEF0")

STANDARD_COLUMNS = ("Portfolio", "Status", "Item", "Code", "Action", "Quantity", "Price", "Value", "Item status",
                    "Decision", "Approved", "Declined", "Note")
SIMPLE_COLUMNS = ("Portfolio", "Code", "Action", "Quantity", "Price", "Value", "Decision")


def _cells(mode: str, group: Any, item: Any, offset: int) -> list[Any]:
    decision = (item.decision or "").capitalize() or ("Pending" if item.pending else "")
    if mode == SIMPLE:
        return [group.investment_name, item.asset_code, item.action, item.quantity, item.price, item.value, decision]
    return [group.investment_name, group.status_label, "Transaction" if item.item_type == 1 else "Note",
            item.asset_code, item.action, item.quantity, item.price, item.value, item.tr_status_label, decision,
            local_moment_text(item.tr_approved_at, offset), local_moment_text(item.tr_declined_at, offset), item.text]


def xlsx(groups: Sequence[Any], *, mode: str = STANDARD, offset: int = 0, title: str = "Trade Recommendations",
         commentaries: Sequence[tuple[str, str]] = ()) -> bytes:
    """The workbook; one portfolio's recommendations add a Commentary sheet with the target
    portfolio's `commentaries` ((type, stored text) pairs) as plain text."""
    mode = mode if mode in MODES else STANDARD
    columns = SIMPLE_COLUMNS if mode == SIMPLE else STANDARD_COLUMNS
    wb = Workbook()
    ws = wb.active
    ws.title = title[:31]
    for c, name in enumerate(columns, start=1):
        cell = ws.cell(row=1, column=c)
        put_text(cell, name)
        cell.font = Font(bold=True, color="FFFFFF")
        cell.fill = _FILL
        cell.alignment = Alignment(horizontal="center")
    r = 2
    for group in groups:
        for item in group.items:
            for c, value in enumerate(_cells(mode, group, item, offset), start=1):
                cell = ws.cell(row=r, column=c)
                name = columns[c - 1]
                if isinstance(value, Decimal):
                    cell.value = value
                    cell.number_format = {"Quantity": "#,##0", "Price": "$#,##0.000", "Value": "$#,##0.00"}[name]
                elif value is None:
                    cell.value = None
                else:
                    put_text(cell, str(value))
            r += 1
    widths = {"Portfolio": 30, "Note": 60, "Status": 18, "Item status": 16}
    for c, name in enumerate(columns, start=1):
        ws.column_dimensions[ws.cell(row=1, column=c).column_letter].width = widths.get(name, 14)
    ws.freeze_panes = "A2"
    said = [(kind, rich_text.as_plain(text)) for kind, text in commentaries if rich_text.as_plain(text)]
    if said:
        sheet = wb.create_sheet("Commentary")
        for r, (kind, text) in enumerate(said, start=1):
            put_text(sheet.cell(row=r, column=1), COMMENTARY_TITLES.get(kind, kind))
            sheet.cell(row=r, column=1).font = Font(bold=True)
            put_text(sheet.cell(row=r, column=2), text)
            sheet.cell(row=r, column=2).alignment = Alignment(wrap_text=True, vertical="top")
        sheet.column_dimensions["A"].width = 28
        sheet.column_dimensions["B"].width = 100
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


CSS = page_css(landscape=True, vertical="1.3cm", horizontal="1.2cm", bottom="1.4cm") + BASE_CSS + """
h1 { font-size: 15pt; margin: 0 0 2pt 0; }
.muted { color: #60646c; }
.group td { background-color: #d5def0; font-weight: bold; font-size: 9pt; }
"""


def _money(value: Decimal | None, places: int = 2) -> str:
    if value is None:
        return ""
    if places == 2:
        return format_aud(value)
    return f"${value:,.{places}f}"


def _units(value: Decimal | None) -> str:
    return "" if value is None else whole_units_text(value)


ACTION_WORDS = {"BUY": "Buy", "SELL": "Sell", "NOTE": "Please note"}


def html(groups: Sequence[Any], *, offset: int = 0, title: str, subtitle: str, now: datetime,
         letterhead: Letterhead | None = None, colour: str | None = None, footer: str = "",
         commentaries: Sequence[tuple[str, str]] = ()) -> str:
    """The PDF's markup. With a `letterhead` (one portfolio's recommendations, as its client
    receives them) it opens with the firm's letterhead in the firm's `colour` and `footer`; the
    target portfolio's `commentaries` ((type, stored text) pairs) follow the table, formatted."""
    rows: list[str] = []
    for g in groups:
        rows.append(f"<tr class=\"group\"><td colspan=\"7\">{escape(g.investment_name)} &middot; "
                    f"{escape(g.status_label)}</td></tr>")
        for item in g.items:
            decision = (item.decision or "").capitalize() or ("Pending" if item.pending else "")
            said = recommendation_words(item.text) if letterhead is not None else item.text
            note = f"<br/><span class=\"muted\">{escape(said)}</span>" if said else ""
            rows.append(
                f"<tr><td>{escape(item.asset_code)}{note}</td><td>{escape(ACTION_WORDS.get(item.action, item.action))}</td>"
                f"<td class=\"num\">{_units(item.quantity)}</td><td class=\"num\">{_money(item.price, 3)}</td>"
                f"<td class=\"num\">{_money(item.value)}</td><td>{escape(item.tr_status_label)}</td>"
                f"<td>{escape(decision)}</td></tr>")
    if not rows:
        rows.append("<tr><td colspan=\"7\" class=\"muted\">No trade recommendations.</td></tr>")
    when = local_time(now, offset)
    if letterhead is not None:
        colour = colour or DEFAULT_COLOUR
        top = letterhead_html(letterhead, colour, title, f"{subtitle} \u00b7 {moment_text(when)}")
        style = f"{LETTERHEAD_CSS} th {{ background-color: {escape(colour)}; color: #ffffff; }}"
    else:
        top = f"<h1>{escape(title)}</h1><div class=\"muted\">{escape(subtitle)} &middot; {moment_text(when)}</div><br/>"
        style = ""
    ending = " &middot; ".join(x for x in (escape(footer), escape(letterhead.firm_name) if letterhead else "",
                                           escape(title)) if x)
    return (
        f"<html><head><meta charset=\"utf-8\"/><style>{CSS}{COMMENTARY_CSS}{style}</style></head><body>{top}"
        "<table width=\"100%\" repeat=\"1\"><thead><tr><th width=\"34%\">Code</th><th width=\"12%\">Action</th>"
        "<th class=\"num\" width=\"10%\">Quantity</th><th class=\"num\" width=\"10%\">Price</th>"
        "<th class=\"num\" width=\"12%\">Value</th><th width=\"12%\">Status</th><th width=\"10%\">Decision</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>{commentary_html(commentaries)}"
        f"<div id=\"footer\">{ending} &middot; page <pdf:pagenumber> of <pdf:pagecount></div>"
        "</body></html>"
    )


def pdf(groups: Sequence[Any], *, offset: int = 0, title: str = "Trade Recommendations", subtitle: str = "",
        now: datetime, letterhead: Letterhead | None = None, colour: str | None = None, footer: str = "",
        commentaries: Sequence[tuple[str, str]] = ()) -> bytes:
    return render(html(groups, offset=offset, title=title, subtitle=subtitle, now=now, letterhead=letterhead,
                       colour=colour, footer=footer, commentaries=commentaries))


__all__ = ["MODES", "PDF", "SIMPLE", "STANDARD", "XLSX", "html", "pdf", "xlsx"]
