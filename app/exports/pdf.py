"""What every PDF export shares: the page (A4, its orientation and margins, a footer frame), the
product's table styles, and rendering HTML to PDF bytes with xhtml2pdf."""
from __future__ import annotations

import io

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
