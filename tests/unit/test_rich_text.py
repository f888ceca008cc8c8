"""The commentary's sanitiser (app.domain.rich_text): only bold, italic, underline, lists, paragraphs,
line breaks and web or mail links survive; hostile markup keeps at most its text; old plain text
keeps its lines; the plain text for Excel keeps the lists and the links' addresses."""
from __future__ import annotations

import pytest

from app.domain.rich_text import as_html, as_plain, is_html, safe_href, sanitise


def test_the_editors_formatting_is_kept_in_one_spelling():
    html = ('<b>Bold</b> and <i>italic</i>, <u>underlined</u><ul><li>one</li><li>two</li></ul>'
            '<ol><li>first</li></ol><div>a line</div><a href="https://example.com/a?b=1&amp;c=2">site</a>')
    assert sanitise(html) == (
        '<strong>Bold</strong> and <em>italic</em>, <u>underlined</u><ul><li>one</li><li>two</li></ul>'
        '<ol><li>first</li></ol><p>a line</p>'
        '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">site</a>')
    assert sanitise(sanitise(html)) == sanitise(html)  # stable: sanitising stored text changes nothing


@pytest.mark.parametrize("hostile, kept", [
    ("<script>alert(1)</script>Hello", "Hello"),
    ("<SCRIPT SRC=//evil.example/x.js></SCRIPT>Hi", "Hi"),
    ("<style>body{display:none}</style>Text", "Text"),
    ('<img src=x onerror="alert(1)">Pic', "Pic"),
    ('<p onclick="steal()" style="color:red" class="x">Para</p>', "<p>Para</p>"),
    ('<b onmouseover="x()">Bold</b>', "<strong>Bold</strong>"),
    ('<a href="javascript:alert(1)">link</a>', "link"),
    ('<a href="JaVaScRiPt:alert(1)">link</a>', "link"),
    ('<a href=" java\tscript:alert(1)">link</a>', "link"),
    ('<a href="&#106;avascript:alert(1)">link</a>', "link"),
    ('<a href="data:text/html;base64,PHNjcmlwdD4=">link</a>', "link"),
    ('<a href="vbscript:msgbox">link</a>', "link"),
    ('<a href="/relative">link</a>', "link"),
    ('<a href="https://ok.example" onclick="x()" style="x">ok</a>',
     '<a href="https://ok.example" rel="noopener noreferrer" target="_blank">ok</a>'),
    ('<a href=\'https://x.example/"><script>alert(1)</script>\'>q</a>',
     '<a href="https://x.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" rel="noopener noreferrer" '
     'target="_blank">q</a>'),
    ("<iframe src=https://evil.example></iframe>After", "After"),
    ("<svg><script>alert(1)</script><circle/></svg>After", "After"),
    ("<math><mi>x</mi></math>After", "After"),
    ("<object data=x></object><embed src=x>After", "After"),
    ("<!-- <script>alert(1)</script> -->Visible", "Visible"),
    ("<b><i>nested</b> badly</i>", "<strong><em>nested</em></strong> badly"),
    ("<ul><li>open list", "<ul><li>open list</li></ul>"),
    ("<li>stray item</li>", "stray item"),
    ("<span style='x'>kept text</span>", "kept text"),
    ("<form action=x><input value=y>Form</form>", "Form"),
])
def test_hostile_markup_keeps_at_most_its_text(hostile, kept):
    clean = sanitise(hostile)
    assert clean == kept
    lowered = clean.lower()
    for bad in ("<script", "<style", "onerror", "onclick", "onmouseover", "javascript:", "<iframe", "<img", "style="):
        assert bad not in lowered


def test_only_web_and_mail_addresses_are_links():
    assert safe_href("https://a.example") == "https://a.example"
    assert safe_href("mailto:a@b.example") == "mailto:a@b.example"
    for bad in ("javascript:x", "  javascript:x", "java\nscript:x", "data:x", "ftp://x", "//x.example", "x", "", None):
        assert safe_href(bad) is None


def test_a_link_inside_a_link_keeps_only_its_text():
    assert sanitise('<a href="https://a.example">a <a href="https://b.example">b</a></a>') == (
        '<a href="https://a.example" rel="noopener noreferrer" target="_blank">a b</a>')


def test_old_plain_commentary_keeps_its_lines_and_its_characters():
    old = "Markets are steady.\nRates < 5% & rising\n\nSecond paragraph"
    assert not is_html(old)
    assert as_html(old) == "Markets are steady.<br>Rates &lt; 5% &amp; rising<br><br>Second paragraph"
    assert as_plain(old) == old


def test_nothing_but_markup_is_no_commentary():
    for empty in ("", None, "<br>", "<p></p>", "<ul><li></li></ul>", "<script>x</script>", "   "):
        assert sanitise(empty) == ""


def test_plain_text_for_excel_keeps_lists_numbers_and_link_addresses():
    html = sanitise('<p><b>Outlook</b></p><ul><li>Rates</li><li>Jobs<ol><li>full time</li></ol></li></ul>'
                    '<ol><li>one</li><li>two</li></ol><p>See <a href="https://rba.example">the bank</a> and '
                    '<a href="https://x.example">https://x.example</a>.</p>')
    assert as_plain(html) == ("Outlook\n- Rates\n- Jobs\n  1. full time\n1. one\n2. two\n"
                              "See the bank (https://rba.example) and https://x.example.")
    assert as_plain("a &amp; b<br>c") == "a & b\nc"
