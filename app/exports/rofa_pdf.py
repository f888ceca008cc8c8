"""The record of advice as a PDF (xhtml2pdf, A4 portrait), as a licensee signs it off: the firm's
letterhead (logo, name, ABN, authorised representative number, licensee and AFSL, adviser), the
clients and the date, the overview, the recommended portfolio with each line's trade in words
("Buy 199", "Sell 642", "Hold") and the model's recommendation as its reason (cash line included),
the class allocation, the commentaries, the fee, the CGT estimate with the template's comments on
the assets sold, the authority with the adviser's signature, the firm's disclaimer, and a footer
with the firm's text and the page numbers.

The firm's layout (app.domain.firm_documents: default, compact, detailed) and colour shape it.
Built from app.services.records_of_advice.record_payload, so the PDF and the screen show the same figures."""
from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from html import escape
from typing import Any

from app.domain.advice.target_portfolios import SUPERUSER_NOTE
from app.domain.firm_documents import COMPACT, DEFAULT_COLOUR, DETAILED, Letterhead
from app.exports.pdf import (
    BASE_CSS, COMMENTARY_CSS, LETTERHEAD_CSS, commentary_html, image_html, letterhead_html, page_css, render,
)

from app.exports.holdings_pdf import money, percent, units
from app.exports.file_names import safe_name
from app.domain.timezones import day_text, local_moment_text

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


def _d(value: Any) -> Decimal | None:
    return None if value in (None, "") else Decimal(str(value))


def _name(person: dict | None) -> str:
    if not person:
        return ""
    return f"{person.get('first_name', '')} {person.get('last_name', '')}".strip()


def _when(value: str | None, offset: int) -> str:
    if not value:
        return ""
    return local_moment_text(datetime.fromisoformat(value), offset)


def _day(value: str | None, offset: int) -> str:
    return _when(value, offset)[:10]


def letterhead_of(rec: dict[str, Any]) -> Letterhead:
    """The record's letterhead (its JSON back into the value the shared letterhead reads)."""
    data = dict(rec.get("letterhead") or {})
    data.pop("licensee_line", None)
    data.pop("representative_line", None)
    data.pop("adviser_representative_line", None)
    if not data:  # a record without one (older callers): the practice it names
        practice = rec.get("practice") or {}
        return Letterhead(firm_name=practice.get("name") or "", abn=practice.get("abn"),
                          licensee_name=practice.get("licensee_name"), licensee_afsl=practice.get("licensee_afsl"),
                          adviser_name=_name(rec.get("adviser")) or None)
    return Letterhead(**data)


def _lines_html(rec: dict[str, Any], layout: str) -> str:
    detailed = layout == DETAILED
    w = DETAILED_WIDTHS if detailed else WIDTHS
    head = (f'<tr><th width="{w[0]}">Asset</th><th width="{w[1]}">Trade</th>'
            + (f'<th class="num" width="{w[2]}">Price</th>' if detailed else "")
            + f'<th class="num" width="{w[3]}">Units now</th><th class="num" width="{w[4]}">Target units</th>'
            + (f'<th class="num" width="{w[5]}">Value now</th>' if detailed else "")
            + f'<th class="num" width="{w[6]}">Target value</th><th class="num" width="{w[7]}">Target %</th></tr>')
    columns = 8 if detailed else 6
    rows = []
    for line in rec.get("lines") or []:
        side = SIDE_CLASS.get(line["side"], "hold")
        name = f'<br/><span class="muted">{escape(line["name"])}</span>' if line.get("name") else ""
        css = "cash line" if line["kind"] == "cash" else "line"
        rows.append(
            f'<tr class="{css}"><td><b>{escape(line["code"])}</b>{name}</td>'
            f'<td><span class="{side}">{escape(line["trade"])}</span></td>'
            + (f'<td class="num">{money(_d(line["price"]))}</td>' if detailed else "")
            + f'<td class="num">{units(_d(line["current_units"]))}</td>'
            f'<td class="num">{units(_d(line["target_units"]))}</td>'
            + (f'<td class="num">{money(_d(line["current_value"]))}</td>' if detailed else "")
            + f'<td class="num">{money(_d(line["target_value"]))}</td>'
            f'<td class="num">{percent(_d(line["target_percent"])) if line.get("target_percent") else ""}</td></tr>')
        why = escape(line.get("reason") or "")
        if detailed and line.get("detail"):
            why += f'<br/>Calculation: {escape(line["detail"])}'
        if why:
            rows.append(f'<tr class="why {"cash" if line["kind"] == "cash" else ""}"><td colspan="{columns}">{why}</td></tr>')
    if not rows:
        rows.append(f'<tr><td colspan="{columns}" class="muted">No recommended portfolio: the calculation has no result.</td></tr>')
    return f'<table width="100%" repeat="1">{head}{"".join(rows)}</table>'


def _classes_html(result: dict[str, Any]) -> str:
    rows = "".join(
        f'<tr><td>{escape(c["title"] or "")}</td><td class="num">{percent(_d(c["target_percent"])) if c.get("target_percent") is not None else ""}</td>'
        f'<td class="num">{percent(_d(c["current_percent"]))}</td><td class="num">{percent(_d(c["result_percent"]))}</td>'
        f'<td class="num">{money(_d(c["result_value"]))}</td></tr>' for c in result.get("classes", []))
    return ('<h2>Class allocation</h2><table width="100%" repeat="1"><tr><th width="40%">Class</th>'
            '<th class="num" width="15%">Model</th><th class="num" width="15%">Now</th>'
            f'<th class="num" width="15%">Recommended</th><th class="num" width="15%">Value</th></tr>{rows}</table>')


def _groups_html(result: dict[str, Any], titles: dict[str, str]) -> str:
    groups = [g for g in result.get("industry_groups", []) if _d(g.get("result_percent")) or _d(g.get("current_percent"))]
    if not groups:
        return ""
    rows = "".join(
        f'<tr><td>{escape(g["title"] or titles.get(str(g.get("id")), "") or "No industry group")}</td><td class="num">{percent(_d(g["max"])) if g.get("max") is not None else "No cap"}</td>'
        f'<td class="num">{percent(_d(g["current_percent"]))}</td><td class="num">{percent(_d(g["result_percent"]))}</td></tr>'
        for g in groups)
    return ('<h2>Industry groups</h2><table width="100%" repeat="1"><tr><th width="52%">Industry group</th>'
            '<th class="num" width="16%">Cap</th><th class="num" width="16%">Now</th>'
            f'<th class="num" width="16%">Recommended</th></tr>{rows}</table>')


def _capital_gains_html(gains: dict[str, Any] | None) -> str:
    """Each recommended sell with the parcels it takes: bought, units, cost base, proceeds, gain,
    method, discount and net gain, then the comparison with "Minimise capital gains tax"."""
    if not gains or not gains.get("sells"):
        return ""
    head = ('<tr><th width="14%">Bought</th><th class="num" width="10%">Units</th><th class="num" width="13%">'
            'Cost base</th><th class="num" width="13%">Proceeds</th><th class="num" width="12%">Gain</th>'
            '<th width="16%">Method</th><th class="num" width="10%">Discount</th>'
            '<th class="num" width="12%">Net gain</th></tr>')
    blocks = []
    for sell in gains["sells"]:
        rows = "".join(
            f'<tr><td>{day_text(date.fromisoformat(p["bought_on"])) if p.get("bought_on") else "&mdash;"}</td>'
            f'<td class="num">{units(_d(p["units"]))}</td><td class="num">{money(_d(p["cost_base"]))}</td>'
            f'<td class="num">{money(_d(p["proceeds"]))}</td><td class="num">{money(_d(p["gain"]))}</td>'
            f'<td>{escape(p["method"])}</td><td class="num">{money(_d(p["discount"]))}</td>'
            f'<td class="num">{money(_d(p["net"]))}</td></tr>' for p in sell["parcels"])
        blocks.append(
            f'<div><p><b>{escape(sell["code"])}</b>: sell {units(_d(sell["units"]))} at '
            f'{money(_d(sell["price"]))}; gain {money(_d(sell["gain"]))}, discount {money(_d(sell["discount"]))}, '
            f'net gain {money(_d(sell["net"]))}</p><table width="100%">{head}{rows}</table></div>')
    return "<h3>The parcels the sells take</h3>" + "".join(blocks)


def _authority_html(rec: dict[str, Any], head: Letterhead, offset: int) -> str:
    role = SUPERUSER_NOTE if rec.get("decided_by_superuser") else ""
    if rec.get("approved_at"):
        decided = f"Approved by {escape(_name(rec.get('approver')))}{role} on {_when(rec['approved_at'], offset)}."
    elif rec.get("declined_at"):
        decided = f"Declined by {escape(_name(rec.get('decliner')))}{role} on {_when(rec['declined_at'], offset)}."
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


def html(rec: dict[str, Any], offset: int) -> str:
    result = rec.get("result") or {}
    branding = rec.get("branding") or {}
    layout = branding.get("layout") or "default"
    colour = branding.get("colour") or DEFAULT_COLOUR
    head = letterhead_of(rec)
    owners = ", ".join(_name(o) for o in rec["owners"]) or "None"
    meta = [
        ("Prepared for", owners), ("Portfolio", rec["investment"]["name"]),
        ("Model", (rec.get("model") or {}).get("name") or ""), ("Date", _day(rec.get("date"), offset)),
        ("Version", str(rec["version"])), ("Status", rec["status_label"]),
        ("Address", ", ".join(rec.get("client_address") or ()) or "\u2014"),
        ("Practice address", ", ".join(rec.get("practice_address") or ()) or "\u2014"),
    ]
    meta_html = "".join(
        f'<tr><td class="label" width="18%">{escape(k)}</td><td width="32%">{escape(v)}</td>'
        f'<td class="label" width="18%">{escape(k2)}</td><td width="32%">{escape(v2)}</td></tr>'
        for (k, v), (k2, v2) in zip(meta[::2], meta[1::2]))
    comments = commentary_html((c["type"], c["description"]) for c in rec.get("commentaries", []))
    fee = rec.get("managmentFee") or {}
    fee_text = (f"{fee['percent']}% of the portfolio a year" + (f", {money(_d(fee['amount']))} on its current value"
                                                                 if fee.get("amount") else "")) if fee.get("percent") else "No adviser fee is set."
    notes = "".join(f'<tr><td width="15%"><b>{escape(n["code"])}</b></td><td>{escape(n["comment"])}</td></tr>'
                    for n in rec.get("cgt_notes") or [])
    notes_html = f'<table class="meta" width="100%">{notes}</table>' if notes else ""
    footer = " &middot; ".join(x for x in (escape(branding.get("footer") or ""), escape(head.firm_name),
                                           f"{escape(rec['investment']['name'])} &middot; {TITLE} version {rec['version']}") if x)
    disclaimer = branding.get("disclaimer") or ""
    return (
        f'<html><head><meta charset="utf-8"><style>{CSS}{COMMENTARY_CSS}{COMPACT_CSS if layout == COMPACT else ""}'
        f'th {{ background-color: {escape(colour)}; color: #ffffff; }}</style></head><body>'
        f"{letterhead_html(head, colour, TITLE)}"
        f'<table class="meta" width="100%">{meta_html}</table>'
        f'<h2>Overview</h2><table class="meta" width="100%"><tr><td class="label">Portfolio value</td>'
        f"<td>{money(_d(result.get('value')))}</td><td class=\"label\">Cash after trades</td>"
        f"<td>{money(_d(result.get('cash_after')))}</td><td class=\"label\">Brokerage</td>"
        f"<td>{money(_d(result.get('brokerage')))}</td></tr></table>"
        f"<h2>Recommended portfolio</h2>{_lines_html(rec, layout)}"
        + ("" if layout == COMPACT else _classes_html(result))
        + (_groups_html(result, rec.get("group_titles") or {}) if layout == DETAILED else "")
        + f"{comments}"
        f"<h2>Fees</h2><p>{fee_text}</p>"
        f"<h2>Capital gains tax estimate</h2><p>{escape(rec['cgt_estimate'])}</p>{notes_html}"
        f"{_capital_gains_html(rec.get('capital_gains'))}"
        f"{_authority_html(rec, head, offset)}"
        + (f'<div class="disclaimer">{escape(disclaimer).replace(chr(10), "<br/>")}</div>' if disclaimer else "")
        + f'<div id="footer">{footer} &middot; page <pdf:pagenumber> of <pdf:pagecount></div></body></html>'
    )


def build(rec: dict[str, Any], offset: int) -> tuple[str, bytes]:
    """(file name, PDF bytes) of a record of advice (as app.services.records_of_advice.record_payload gives it),
    times in the browser's offset."""
    name = f"{safe_name(rec['investment']['name'])} - Record of Advice v{rec['version']}.pdf"
    return name, render(html(rec, offset))
