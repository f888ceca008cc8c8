"""The record of advice as a PDF (xhtml2pdf, A4 portrait): the practice and the clients, the
overview of the recommended portfolio (each asset's current and target units, value and share,
with the reasons behind it), the class allocation, the commentaries, the fee, the CGT estimate and
the authority with its status. Built from app.services.records_of_advice.record, so the PDF and
the screen show the same figures."""
from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from html import escape
from typing import Any

from app.exports.pdf import BASE_CSS, page_css, render

from app.exports.holdings_pdf import money, percent, units
from app.exports.file_names import safe_name
from app.domain.timezones import local_moment_text

CSS = page_css(landscape=False, vertical="1.6cm", horizontal="1.4cm") + BASE_CSS + """
td { padding: 2.5pt 4pt; border-bottom: 0.3pt solid #e0e1e6; vertical-align: top; }
.meta td { border: none; padding: 1pt 4pt 1pt 0; }
.label { color: #60646c; width: 90pt; }
.muted { color: #60646c; font-size: 7.5pt; }
.box { border: 0.5pt solid #b9bbc6; padding: 6pt; }
"""


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


def html(rec: dict[str, Any], offset: int) -> str:
    result = rec.get("result") or {}
    owners = ", ".join(_name(o) for o in rec["owners"]) or "None"
    meta = [
        ("Practice", rec["practice"]["name"] or ""), ("Portfolio", rec["investment"]["name"]),
        ("Model", (rec.get("model") or {}).get("name") or ""), ("Clients", owners),
        ("Adviser", _name(rec.get("adviser"))), ("Version", str(rec["version"])),
        ("Status", rec["status_label"]), ("Date", _when(rec.get("date"), offset)),
    ]
    meta_html = "".join(f'<tr><td class="label">{escape(k)}</td><td>{escape(v)}</td></tr>' for k, v in meta)
    rows = []
    for a in result.get("assets", []):
        reasons = "; ".join(r["text"] for r in a.get("reasons", []))
        rows.append(
            f"<tr><td>{escape(a['code'])}</td><td>{escape(a['action'])}</td>"
            f'<td class="num">{units(_d(a["current_units"]))}</td><td class="num">{units(_d(a["target_units"]))}</td>'
            f'<td class="num">{money(_d(a["current_value"]))}</td><td class="num">{money(_d(a["target_value"]))}</td>'
            f'<td class="num">{percent(_d(a["target_percent"]))}</td><td class="muted">{escape(reasons)}</td></tr>')
    assets_html = "".join(rows) or '<tr><td colspan="8" class="muted">No listed assets</td></tr>'
    classes = "".join(
        f'<tr><td>{escape(c["title"])}</td><td class="num">{percent(_d(c["target_percent"]))}</td>'
        f'<td class="num">{percent(_d(c["current_percent"]))}</td><td class="num">{percent(_d(c["result_percent"]))}</td>'
        f'<td class="num">{money(_d(c["result_value"]))}</td></tr>' for c in result.get("classes", []))
    comments = "".join(f"<h2>{'Market' if c['type'] == 'market' else 'Recommendation'} commentary</h2>"
                       f"<p>{escape(c['description'])}</p>" for c in rec.get("commentaries", []) if c["description"])
    fee = rec.get("managmentFee") or {}
    fee_text = (f"{fee['percent']}% of the portfolio a year" + (f", {money(_d(fee['amount']))} on its current value"
                                                                 if fee.get("amount") else "")) if fee.get("percent") else "No adviser fee is set."
    decided = ""
    if rec.get("approved_at"):
        decided = f"Approved by {escape(_name(rec.get('approver')))} on {_when(rec['approved_at'], offset)}."
    elif rec.get("declined_at"):
        decided = f"Declined by {escape(_name(rec.get('decliner')))} on {_when(rec['declined_at'], offset)}."
    else:
        decided = "Awaiting the client's authority."
    return (
        f'<html><head><meta charset="utf-8"><style>{CSS}</style></head><body>'
        f"<h1>Record of Advice</h1><table class=\"meta\">{meta_html}</table>"
        f"<h2>Overview</h2><table class=\"meta\"><tr><td class=\"label\">Portfolio value</td>"
        f"<td>{money(_d(result.get('value')))}</td><td class=\"label\">Cash after trades</td>"
        f"<td>{money(_d(result.get('cash_after')))}</td><td class=\"label\">Brokerage</td>"
        f"<td>{money(_d(result.get('brokerage')))}</td></tr></table>"
        "<h2>Recommended portfolio</h2><table repeat=\"1\"><tr><th width=\"8%\">Code</th><th width=\"8%\">Action</th>"
        "<th class=\"num\" width=\"9%\">Units now</th><th class=\"num\" width=\"9%\">Target units</th>"
        "<th class=\"num\" width=\"11%\">Value now</th><th class=\"num\" width=\"11%\">Target value</th>"
        f"<th class=\"num\" width=\"8%\">Target %</th><th>Why</th></tr>{assets_html}</table>"
        "<h2>Class allocation</h2><table><tr><th>Class</th><th class=\"num\">Model</th><th class=\"num\">Now</th>"
        f"<th class=\"num\">Recommended</th><th class=\"num\">Value</th></tr>{classes}</table>"
        f"{comments}"
        f"<h2>Fees</h2><p>{fee_text}</p>"
        f"<h2>Capital gains tax estimate</h2><p>{escape(rec['cgt_estimate'])}</p>"
        f"<h2>Authority to proceed</h2><div class=\"box\">{decided}</div>"
        f"<div id=\"footer\">{escape(rec['investment']['name'])} &middot; Record of advice version {rec['version']} "
        f"&middot; page <pdf:pagenumber> of <pdf:pagecount></div></body></html>"
    )


def build(rec: dict[str, Any], offset: int) -> tuple[str, bytes]:
    """(file name, PDF bytes) of a record of advice (as app.services.records_of_advice.record gives it),
    times in the browser's offset."""
    name = f"{safe_name(rec['investment']['name'])} - Record of Advice v{rec['version']}.pdf"
    return name, render(html(rec, offset))
