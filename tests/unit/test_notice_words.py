"""The words and look of a notice (app.domain.notices.compose): what happened, to which portfolio,
by whom, the link, and the firm's branding (colour, layout, footer, disclaimer, licensee)."""
from __future__ import annotations

import re

from app.domain.firm_documents import Branding
from app.domain.notices import Audience, Event, Facts, _text_on, compose

LINK = "https://app.example.com/portfolios/7/rofa/9"


def _facts(**branding) -> Facts:
    return Facts(event=Event.TP_APPROVED, portfolio="Smith Family", version=3, by="Nora Smith", firm="Harbour Wealth",
                 link=LINK, logo=True, licensee="Harbour Licensee Services Pty Ltd, AFSL 456789",
                 branding=Branding(**branding))


def test_the_message_says_what_happened_in_both_parts():
    m = compose(_facts(), Audience.ADVISER, attach=True)
    assert m.subject == "Record of advice approved: Smith Family"
    said = "The record of advice (version 3) for the portfolio Smith Family was approved by Nora Smith."
    assert said in m.text and said in m.html
    assert f"Open the record of advice: {LINK}" in m.text and f'href="{LINK}"' in m.html
    assert "The record of advice is attached as a PDF." in m.text
    assert 'src="cid:firm-logo"' in m.html


def test_the_firms_colour_footer_and_disclaimer():
    m = compose(_facts(colour="#7A1F3D", footer="Harbour - private and confidential",
                       disclaimer="General advice only.\nRead the PDS."), Audience.ADVISER, attach=False)
    button = re.search(r'<a href="[^"]+" style="([^"]+)"', m.html).group(1)
    assert "background:#7A1F3D" in button and "color:#ffffff" in button
    assert "border-bottom:3px solid #7A1F3D" in m.html
    for words in ("Harbour - private and confidential", "General advice only.\nRead the PDS."):
        assert words in m.text and words in m.html
    # the default layout leaves the licensee to the documents
    assert "AFSL 456789" not in m.text


def test_layouts_compact_and_detailed():
    compact = compose(_facts(layout="compact", disclaimer="General advice only.", footer="Harbour footer"),
                      Audience.ADVISER, attach=False)
    assert "font-size:13px" in compact.html and "border-radius:8px" not in compact.html
    assert "General advice only." not in compact.text and "Harbour footer" in compact.text
    detailed = compose(_facts(layout="detailed", disclaimer="General advice only."), Audience.ADVISER, attach=False)
    assert "Harbour Licensee Services Pty Ltd, AFSL 456789" in detailed.text
    assert "Harbour Licensee Services Pty Ltd, AFSL 456789" in detailed.html
    assert "General advice only." in detailed.text and "border-radius:8px" in detailed.html


def test_the_button_text_stays_readable_on_a_light_colour():
    assert _text_on("#1F3A5F") == "#ffffff"
    assert _text_on("#F2E94E") == "#1c2024"
    m = compose(_facts(colour="#F2E94E"), Audience.ADVISER, attach=False)
    assert "background:#F2E94E;color:#1c2024" in m.html


def test_words_are_escaped_in_the_html():
    m = compose(_facts(footer="<script>x</script> & co"), Audience.ADVISER, attach=False)
    assert "<script>" not in m.html and "&lt;script&gt;x&lt;/script&gt; &amp; co" in m.html
