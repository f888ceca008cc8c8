"""What every PDF export shares: the page (A4, its orientation and margins, a footer frame), the
product's table styles, rendering HTML to PDF bytes with xhtml2pdf, and the letterhead of the
documents a client receives (the record of advice, trade recommendations)."""
from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path

from xhtml2pdf import pisa

MEDIA_TYPE = "application/pdf"

BASE_CSS = """
body { font-family: Helvetica; font-size: 8.5pt; color: #1c2024; }
h1 { font-size: 16pt; margin: 0 0 4pt 0; }
h2 { font-size: 11pt; margin: 12pt 0 4pt 0; }
table { width: 100%; border-collapse: collapse; }
th { background-color: #e8ecf4; text-align: left; padding: 3pt 4pt; font-weight: bold; border-bottom: 0.5pt solid #b9bbc6; }
td { padding: 2.5pt 4pt; border-bottom: 0.3pt solid #e0e1e6; }
.num { text-align: right; }
#footer { color: #8b8d98; font-size: 7pt; text-align: right; }
"""


def page_css(*, landscape: bool, vertical: str, horizontal: str, bottom: str | None = None) -> str:
    """The @page rule: A4 in the orientation, the margins, and the footer frame along the bottom."""
    size = "a4 landscape" if landscape else "a4 portrait"
    return (f"@page {{ size: {size}; margin: {vertical} {horizontal} {bottom or vertical} {horizontal};\n"
            f"        @frame footer {{ -pdf-frame-content: footer; bottom: 0.6cm; margin-left: {horizontal}; "
            f"margin-right: {horizontal}; height: 0.6cm; }} }}\n")


def render(html: str) -> bytes:
    """The PDF of `html` (the product's own markup, which always renders)."""
    buffer = io.BytesIO()
    result = pisa.CreatePDF(html, dest=buffer, encoding="utf-8")
    if result.err:  # pragma: no cover - our own markup always renders
        raise RuntimeError(f"PDF rendering failed with {result.err} error(s)")
    return buffer.getvalue()


# ---- the letterhead of what a client receives ------------------------------------------------------
LETTERHEAD_CSS = """
.letterhead td { border: none; padding: 0 4pt 2pt 0; vertical-align: top; }
.letterhead .firm { font-size: 13pt; font-weight: bold; }
.letterhead .small { font-size: 7.5pt; color: #60646c; }
.keep { -pdf-keep-with-next: true; }
h2 { -pdf-keep-with-next: true; }
"""


def image_size(path: str, max_width: float, max_height: float) -> tuple[int, int] | None:
    """(width, height) in points that fit `path`'s picture in the box, keeping its shape; None when
    the file is not a picture the PDF can read."""
    try:
        from PIL import Image

        with Image.open(path) as picture:
            width, height = picture.size
    except Exception:  # a damaged or vanished file: the document goes without it
        return None
    if not width or not height:
        return None
    scale = min(max_width / width, max_height / height)
    return max(1, int(width * scale)), max(1, int(height * scale))


def image_html(path: str | None, max_width: float, max_height: float, alt: str = "") -> str:
    if not path:
        return ""
    size = image_size(path, max_width, max_height)
    if size is None:
        return ""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return ""
    kind = "jpeg" if data[:3] == b"\xff\xd8\xff" else "gif" if data[:4] == b"GIF8" else "png"
    # inline: the renderer reads no file outside the document
    source = f"data:image/{kind};base64,{base64.b64encode(data).decode('ascii')}"
    return f'<img src="{source}" width="{size[0]}" height="{size[1]}" alt="{escape(alt)}"/>'


def letterhead_html(head, colour: str, title: str, subtitle: str = "") -> str:
    """The head of a client document (`head` an app.domain.firm_documents.Letterhead): the firm's
    logo, name, ABN and authorised representative number, its contact, the licensee and its AFSL,
    the adviser; then the document's title over a rule in the firm's colour."""
    firm_lines = [f'<span class="firm">{escape(head.firm_name)}</span>']
    if head.abn:
        firm_lines.append(f'<span class="small">ABN {escape(head.abn)}</span>')
    if head.representative_line:
        firm_lines.append(f'<span class="small">{escape(head.representative_line)}</span>')
    contact = " &middot; ".join(escape(x) for x in (head.phone, head.email, head.website) if x)
    if contact:
        firm_lines.append(f'<span class="small">{contact}</span>')
    right = []
    if head.licensee_line:
        right.append(f'<span class="small">Licensee</span><br/>{escape(head.licensee_line)}')
    if head.adviser_name:
        adviser = escape(head.adviser_name)
        if head.adviser_representative_line:
            adviser += f'<br/><span class="small">{escape(head.adviser_representative_line)}</span>'
        right.append(f'<span class="small">Adviser</span><br/>{adviser}')
    logo = image_html(head.logo_path, 110, 48, f"{head.firm_name} logo")
    return (
        f'<table class="letterhead" width="100%"><tr>'
        f'<td width="22%">{logo}</td><td width="44%">{"<br/>".join(firm_lines)}</td>'
        f'<td width="34%" style="text-align: right">{"<br/>".join(right)}</td></tr></table>'
        f'<div style="border-bottom: 2pt solid {escape(colour)}; margin-bottom: 6pt;"></div>'
        f'<h1 style="color: {escape(colour)}">{escape(title)}</h1>'
        + (f'<div class="small" style="color: #60646c">{escape(subtitle)}</div>' if subtitle else "")
    )


# the commentary (sanitised HTML, app.domain.rich_text): its bold, italic, lists and links as they are
COMMENTARY_CSS = """
.rich p { margin: 0 0 4pt 0; }
.rich ul, .rich ol { margin: 2pt 0 4pt 0; padding-left: 14pt; }
.rich li { margin: 0; }
"""
COMMENTARY_TITLES = {"market": "Market commentary", "recommendation": "Recommendation commentary"}


def commentary_html(commentaries) -> str:
    """A heading and the formatted text of each commentary ((type, stored text) pairs) that says
    something; old plain text keeps its lines."""
    from app.domain import rich_text

    out = []
    for kind, stored in commentaries:
        shown = rich_text.as_html(stored)
        if shown:
            out.append(f"<h2>{COMMENTARY_TITLES.get(kind, kind)}</h2><div class=\"rich\">{shown}</div>")
    return "".join(out)
