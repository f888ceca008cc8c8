"""The record of advice as a PDF (xhtml2pdf, A4 portrait), as a licensee signs it off: the firm's
letterhead (logo, name, ABN, authorised representative number, licensee and AFSL, adviser), the
clients and the date, the overview, the recommended portfolio with each line's trade in words
("Buy 199", "Sell 642", "Hold") and the model's recommendation as its reason (cash line included),
the class allocation, the commentaries, the fee, the CGT estimate with the template's comments on
the assets sold, the authority with the adviser's signature, the firm's disclaimer, and a footer
with the firm's text and the page numbers.

The firm's layout (app.domain.firm_documents: default, compact, detailed) and colour shape it.
Built from app.services.records_of_advice.sheet (the same record the screen and the API read), or
from its sample_sheet for a firm without a record yet."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from html import escape

from app.domain.advice.target_portfolios import SUPERUSER_NOTE, ManagementFee
from app.domain.engine.results import AllocationTarget
from app.domain.firm_documents import COMPACT, DEFAULT_COLOUR, DETAILED, Letterhead
from app.domain.users import PersonName
from app.exports.pdf import (
    BASE_CSS, COMMENTARY_CSS, LETTERHEAD_CSS, commentary_html, image_html, letterhead_html, page_css, render,
)

from app.exports.holdings_pdf import money, percent, units
from app.exports.file_names import safe_name
from app.domain.timezones import day_text, local_moment_text

from app.exports.rofa_sheet import CapitalGains, RecordSheet

TITLE = "Record of Advice"
CSS = page_css(landscape=False, vertical="1.4cm", horizontal="1.3cm", bottom="1.6cm") + BASE_CSS + LETTERHEAD_CSS + """
td { padding: 2.5pt 3pt; border-bottom: 0.3pt solid #e0e1e6; vertical-align: top; }
th { padding: 3pt 3pt; }
.meta td { border: none; padding: 1pt 4pt 1pt 0; }
.label { color: #60646c; }
.muted { color: #60646c; font-size: 7.5pt; }
.why td { border-bottom: 0.3pt solid #e0e1e6; padding-top: 0; color: #60646c; font-size: 7.5pt; }
.line td { border-bottom: none; }
.cash td { background-color: #f3f4f8; }
.buy { color: #18794e; font-weight: bold; }
.sell { color: #ce2c31; font-weight: bold; }
.hold { color: #60646c; font-weight: bold; }
.box { border: 0.5pt solid #b9bbc6; padding: 6pt; }
.disclaimer { color: #60646c; font-size: 7pt; margin-top: 10pt; }
"""
COMPACT_CSS = "body { font-size: 7.5pt; } h1 { font-size: 13pt; } h2 { font-size: 9.5pt; margin: 8pt 0 3pt 0; }"
SIDE_CLASS = {"BUY": "buy", "SELL": "sell", "HOLD": "hold"}
# the recommended portfolio's columns (asset, trade, price, units now, target units, value now,
# target value, target %): the page's whole width, room for a name and "Sell 12,345" on one line
WIDTHS = ("31%", "19%", "", "11%", "12%", "", "15%", "12%")
DETAILED_WIDTHS = ("23%", "15%", "9%", "9%", "10%", "12%", "12%", "10%")


def _name(person: PersonName | None) -> str:
    if not person:
        return ""
    return f"{person.first_name} {person.last_name}".strip()


def _when(value: datetime | None, offset: int) -> str:
    if not value:
        return ""
    return local_moment_text(value, offset)


def _day(value: datetime | None, offset: int) -> str:
    return _when(value, offset)[:10]


def _lines_html(rec: RecordSheet, layout: str) -> str:
    detailed = layout == DETAILED
    w = DETAILED_WIDTHS if detailed else WIDTHS
    head = (f'<tr><th width="{w[0]}">Asset</th><th width="{w[1]}">Trade</th>'
            + (f'<th class="num" width="{w[2]}">Price</th>' if detailed else "")
            + f'<th class="num" width="{w[3]}">Units now</th><th class="num" width="{w[4]}">Target units</th>'
            + (f'<th class="num" width="{w[5]}">Value now</th>' if detailed else "")
            + f'<th class="num" width="{w[6]}">Target value</th><th class="num" width="{w[7]}">Target %</th></tr>')
    columns = 8 if detailed else 6
    rows = []
    for line in rec.lines:
        side = SIDE_CLASS.get(line.side, "hold")
        name = f'<br/><span class="muted">{escape(line.name)}</span>' if line.name else ""
        css = "cash line" if line.kind == "cash" else "line"
        rows.append(
            f'<tr class="{css}"><td><b>{escape(line.code)}</b>{name}</td>'
            f'<td><span class="{side}">{escape(line.trade)}</span></td>'
            + (f'<td class="num">{money(line.price)}</td>' if detailed else "")
            + f'<td class="num">{units(line.current_units)}</td>'
            f'<td class="num">{units(line.target_units)}</td>'
            + (f'<td class="num">{money(line.current_value)}</td>' if detailed else "")
            + f'<td class="num">{money(line.target_value)}</td>'
            f'<td class="num">{percent(line.target_percent) if line.target_percent is not None else ""}</td></tr>')
        why = escape(line.reason or "")
        if detailed and line.detail:
            why += f'<br/>Calculation: {escape(line.detail)}'
        if why:
            rows.append(f'<tr class="why {"cash" if line.kind == "cash" else ""}"><td colspan="{columns}">{why}</td></tr>')
    if not rows:
        rows.append(f'<tr><td colspan="{columns}" class="muted">No recommended portfolio: the calculation has no result.</td></tr>')
    return f'<table width="100%" repeat="1">{head}{"".join(rows)}</table>'


def _classes_html(classes: tuple[AllocationTarget, ...]) -> str:
    rows = "".join(
        f'<tr><td>{escape(c.title or "")}</td><td class="num">{percent(c.target_percent) if c.target_percent is not None else ""}</td>'
        f'<td class="num">{percent(c.current_percent)}</td><td class="num">{percent(c.result_percent)}</td>'
        f'<td class="num">{money(c.result_value)}</td></tr>' for c in classes)
    return ('<h2>Class allocation</h2><table width="100%" repeat="1"><tr><th width="40%">Class</th>'
            '<th class="num" width="15%">Model</th><th class="num" width="15%">Now</th>'
            f'<th class="num" width="15%">Recommended</th><th class="num" width="15%">Value</th></tr>{rows}</table>')


def _groups_html(industry_groups: tuple[AllocationTarget, ...], titles: Mapping[int, str]) -> str:
    groups = [g for g in industry_groups if g.result_percent or g.current_percent]
    if not groups:
        return ""
    rows = "".join(
        f'<tr><td>{escape(g.title or (titles.get(g.id, "") if g.id is not None else "") or "No industry group")}</td>'
        f'<td class="num">{percent(g.max) if g.max is not None else "No cap"}</td>'
        f'<td class="num">{percent(g.current_percent)}</td><td class="num">{percent(g.result_percent)}</td></tr>'
        for g in groups)
    return ('<h2>Industry groups</h2><table width="100%" repeat="1"><tr><th width="52%">Industry group</th>'
            '<th class="num" width="16%">Cap</th><th class="num" width="16%">Now</th>'
            f'<th class="num" width="16%">Recommended</th></tr>{rows}</table>')


def _capital_gains_html(gains: CapitalGains | None) -> str:
    """Each recommended sell with the parcels it takes: bought, units, cost base, proceeds, gain,
    method, discount and net gain, then the comparison with "Minimise capital gains tax"."""
    if not gains or not gains.sells:
        return ""
    head = ('<tr><th width="14%">Bought</th><th class="num" width="10%">Units</th><th class="num" width="13%">'
            'Cost base</th><th class="num" width="13%">Proceeds</th><th class="num" width="12%">Gain</th>'
            '<th width="16%">Method</th><th class="num" width="10%">Discount</th>'
            '<th class="num" width="12%">Net gain</th></tr>')
    blocks = []
    for sell in gains.sells:
        rows = "".join(
            f'<tr><td>{day_text(p.bought_on) if p.bought_on else "&mdash;"}</td>'
            f'<td class="num">{units(p.units)}</td><td class="num">{money(p.cost_base)}</td>'
            f'<td class="num">{money(p.proceeds)}</td><td class="num">{money(p.gain)}</td>'
            f'<td>{escape(p.method)}</td><td class="num">{money(p.discount)}</td>'
            f'<td class="num">{money(p.net)}</td></tr>' for p in sell.parcels)
        blocks.append(
            f'<div><p><b>{escape(sell.code)}</b>: sell {units(sell.units)} at '
            f'{money(sell.price)}; gain {money(sell.gain)}, discount {money(sell.discount)}, '
            f'net gain {money(sell.net)}</p><table width="100%">{head}{rows}</table></div>')
    return "<h3>The parcels the sells take</h3>" + "".join(blocks)


def _authority_html(rec: RecordSheet, head: Letterhead, offset: int) -> str:
    role = SUPERUSER_NOTE if rec.decided_by_superuser else ""
    if rec.approved_at:
        decided = f"Approved by {escape(_name(rec.approver))}{role} on {_when(rec.approved_at, offset)}."
    elif rec.declined_at:
        decided = f"Declined by {escape(_name(rec.decliner))}{role} on {_when(rec.declined_at, offset)}."
    else:
        decided = "Awaiting the client's authority."
    signature = image_html(head.adviser_signature_path, 140, 40, "Adviser's signature")
    adviser = ""
    if head.adviser_name:
        adviser = (f'<table class="meta" width="100%"><tr><td width="50%"><span class="label">Adviser</span><br/>'
                   f'{escape(head.adviser_name)}<br/><span class="muted">{escape(head.adviser_representative_line)}</span></td>'
                   f'<td width="50%"><span class="label">Adviser\'s signature</span><br/>{signature or "&nbsp;"}</td>'
                   f'</tr></table>')
    return f'<h2>Authority to proceed</h2><div class="box">{decided}</div>{adviser}'


def _fee_text(fee: ManagementFee | None) -> str:
    if fee is None or fee.percent is None:
        return "No adviser fee is set."
    return f"{fee.percent}% of the portfolio a year" + (f", {money(fee.amount)} on its current value"
                                                       if fee.amount is not None else "")


def html(rec: RecordSheet, offset: int) -> str:
    branding = rec.branding
    layout = branding.layout or "default"
    colour = branding.colour or DEFAULT_COLOUR
    head = rec.letterhead
    owners = ", ".join(_name(o) for o in rec.owners) or "None"
    meta = [
        ("Prepared for", owners), ("Portfolio", rec.portfolio),
        ("Model", rec.model), ("Date", _day(rec.date, offset)),
        ("Version", str(rec.version)), ("Status", rec.status_label),
        ("Address", ", ".join(rec.client_address) or "\u2014"),
        ("Practice address", ", ".join(rec.practice_address) or "\u2014"),
    ]
    meta_html = "".join(
        f'<tr><td class="label" width="18%">{escape(k)}</td><td width="32%">{escape(v)}</td>'
        f'<td class="label" width="18%">{escape(k2)}</td><td width="32%">{escape(v2)}</td></tr>'
        for (k, v), (k2, v2) in zip(meta[::2], meta[1::2]))
    comments = commentary_html((c.type, c.description) for c in rec.commentaries)
    notes = "".join(f'<tr><td width="15%"><b>{escape(n.code)}</b></td><td>{escape(n.comment)}</td></tr>'
                    for n in rec.cgt_notes)
    notes_html = f'<table class="meta" width="100%">{notes}</table>' if notes else ""
    footer = " &middot; ".join(x for x in (escape(branding.footer or ""), escape(head.firm_name),
                                           f"{escape(rec.portfolio)} &middot; {TITLE} version {rec.version}") if x)
    disclaimer = branding.disclaimer or ""
    return (
        f'<html><head><meta charset="utf-8"><style>{CSS}{COMMENTARY_CSS}{COMPACT_CSS if layout == COMPACT else ""}'
        f'th {{ background-color: {escape(colour)}; color: #ffffff; }}</style></head><body>'
        f"{letterhead_html(head, colour, TITLE)}"
        f'<table class="meta" width="100%">{meta_html}</table>'
        f'<h2>Overview</h2><table class="meta" width="100%"><tr><td class="label">Portfolio value</td>'
        f"<td>{money(rec.value)}</td><td class=\"label\">Cash after trades</td>"
        f"<td>{money(rec.cash_after)}</td><td class=\"label\">Brokerage</td>"
        f"<td>{money(rec.brokerage)}</td></tr></table>"
        f"<h2>Recommended portfolio</h2>{_lines_html(rec, layout)}"
        + ("" if layout == COMPACT else _classes_html(rec.classes))
        + (_groups_html(rec.industry_groups, rec.group_titles) if layout == DETAILED else "")
        + f"{comments}"
        f"<h2>Fees</h2><p>{_fee_text(rec.fee)}</p>"
        f"<h2>Capital gains tax estimate</h2><p>{escape(rec.cgt_estimate)}</p>{notes_html}"
        f"{_capital_gains_html(rec.capital_gains)}"
        f"{_authority_html(rec, head, offset)}"
        + (f'<div class="disclaimer">{escape(disclaimer).replace(chr(10), "<br/>")}</div>' if disclaimer else "")
        + f'<div id="footer">{footer} &middot; page <pdf:pagenumber> of <pdf:pagecount></div></body></html>'
    )


def build(rec: RecordSheet, offset: int) -> tuple[str, bytes]:
    """(file name, PDF bytes) of a record of advice (app.services.records_of_advice.sheet),
    times in the browser's offset."""
    name = f"{safe_name(rec.portfolio)} - Record of Advice v{rec.version}.pdf"
    return name, render(html(rec, offset))
