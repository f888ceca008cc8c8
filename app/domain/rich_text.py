"""Commentary text with basic formatting (spec 002 s4, s9: the commentary editor): bold, italic,
underline, bulleted and numbered lists, links and paragraphs, kept as HTML from an allow-list.

`sanitise` is the one way in: whatever a browser or a caller sends, only the allowed elements
survive, without any attribute but a link's `href` (http, https or mailto only); `script` and
`style` lose their content too, and every other element keeps its text but not its tag. Text is
escaped again on the way out, so what is stored is always well-formed.

Commentary written before the editor is plain text with newlines; `as_html` shows it as
paragraphs and line breaks, and `as_plain` turns either kind into text (for Excel and other plain
outputs: a list item starts with "- " or its number). Pure: no I/O.
"""
from __future__ import annotations

import re
from html import escape, unescape
from html.parser import HTMLParser

MAX_LENGTH = 20_000  # the stored HTML, as the plain commentary was

# element -> the element it is stored as (b and strong are one; so are i and em)
_ELEMENTS = {"b": "strong", "strong": "strong", "i": "em", "em": "em", "u": "u", "ul": "ul", "ol": "ol",
             "li": "li", "a": "a", "p": "p", "div": "p", "br": "br"}
_VOID = {"br"}
_BLOCK = {"p", "ul", "ol", "li"}
_DROP_WITH_CONTENT = {"script", "style", "template", "iframe", "object", "noscript", "svg", "math",
                      "head", "title", "textarea", "select"}
_SCHEMES = ("http://", "https://", "mailto:")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
# characters browsers ignore inside a URL's scheme ("java\tscript:")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")


def safe_href(value: str | None) -> str | None:
    """The link's address when it is a web or mail address (relative addresses are refused too)."""
    href = _IGNORED_IN_URL.sub("", unescape(value or ""))
    return href if href.lower().startswith(_SCHEMES) and len(href) <= 2000 else None


class _Sanitiser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []    # allowed elements open now (stored names)
        self.stack: list[str | None] = []  # every open source element: its stored name or None
        self.dropping = 0            # inside script, style...: nothing is kept

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROP_WITH_CONTENT:
            self.dropping += 1
            self.stack.append(f"!{tag}")
            return
        if self.dropping:
            return
        name = _ELEMENTS.get(tag)
        if name in _VOID:
            self.out.append("<br>")
            return
        if name == "a":
            href = safe_href(dict(attrs).get("href"))
            if href is None or "a" in self.open:
                name = None  # a link without a safe address (or inside a link) keeps only its text
            else:
                self.out.append(f'<a href="{escape(href, quote=True)}" rel="noopener noreferrer" target="_blank">')
                self.open.append("a")
                self.stack.append("a")
                return
        if name == "li" and not any(e in ("ul", "ol") for e in self.open):
            name = None  # a list item outside a list is a paragraph's text
        if name is not None:
            if name in _BLOCK and name != "li":
                self._close_inline()
            self.out.append(f"<{name}>")
            self.open.append(name)
        self.stack.append(name)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROP_WITH_CONTENT:
            return
        if not self.dropping and _ELEMENTS.get(tag) in _VOID:
            self.out.append("<br>")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROP_WITH_CONTENT:
            if f"!{tag}" in self.stack:
                while self.stack:
                    top = self.stack.pop()
                    if top == f"!{tag}":
                        self.dropping -= 1
                        break
                    if top and top.startswith("!"):
                        self.dropping -= 1
            return
        if self.dropping:
            return
        name = "a" if tag == "a" else _ELEMENTS.get(tag)
        if name is None or name in _VOID or name not in self.open:
            return
        # close everything opened after it (badly nested input is made well-formed)
        while self.open:
            top = self.open.pop()
            self.out.append(f"</{top}>")
            if top == name:
                break

    def _close_inline(self) -> None:
        while self.open and self.open[-1] in ("strong", "em", "u", "a"):
            self.out.append(f"</{self.open.pop()}>")

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.out.append(escape(data, quote=False))

    def close(self) -> None:
        super().close()
        while self.open:
            self.out.append(f"</{self.open.pop()}>")


def is_html(text: str | None) -> bool:
    """Whether the commentary holds markup (else it is the plain text of before the editor)."""
    return bool(_TAG.search(text or ""))


def sanitise(text: str | None) -> str:
    """The allowed HTML of `text` (plain text is escaped and its lines kept as line breaks)."""
    raw = str(text or "")
    if not is_html(raw):
        raw = escape(raw, quote=False).replace("\r\n", "\n").replace("\n", "<br>")
    parser = _Sanitiser()
    parser.feed(raw)
    parser.close()
    html = "".join(parser.out)
    html = re.sub(r"(<br>)+(</p>|</li>|$)", r"\2", html)  # a trailing line break shows nothing
    html = re.sub(r"<(strong|em|u|p|li|ul|ol)></\1>", "", html)
    return html if as_plain(html).strip() else ""


def as_html(text: str | None) -> str:
    """What a screen or a PDF shows: stored HTML as it is sanitised, old plain text with its lines."""
    return sanitise(text)


class _Plain(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.lists: list[list[int]] = []  # per open list: [numbered?, count]
        self.href: str | None = None
        self.link_text: list[str] = []

    def _newline(self) -> None:
        if self.out and not self.out[-1].endswith("\n"):
            self.out.append("\n")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("ul", "ol"):
            self._newline()
            self.lists.append([1 if tag == "ol" else 0, 0])
        elif tag == "li":
            self._newline()
            if self.lists:
                self.lists[-1][1] += 1
                numbered, count = self.lists[-1]
                indent = "  " * (len(self.lists) - 1)
                self.out.append(f"{indent}{count}. " if numbered else f"{indent}- ")
        elif tag in ("p", "div"):
            self._newline()
        elif tag == "br":
            self.out.append("\n")
        elif tag == "a":
            self.href, self.link_text = dict(attrs).get("href"), []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
            self._newline()
        elif tag in ("p", "div", "li"):
            self._newline()
        elif tag == "a" and self.href is not None:
            text = "".join(self.link_text).strip()
            if self.href and self.href not in (text, f"mailto:{text}"):
                self.out.append(f" ({self.href})")
            self.href = None

    def handle_data(self, data: str) -> None:
        self.out.append(data)
        if self.href is not None:
            self.link_text.append(data)


def as_plain(text: str | None) -> str:
    """The commentary as text: lists as "- " or "1. " lines, a link's address after its text."""
    raw = str(text or "")
    if not is_html(raw):
        return raw.replace("\r\n", "\n").strip()
    parser = _Plain()
    parser.feed(raw)
    parser.close()
    lines = [line.rstrip() for line in "".join(parser.out).replace("\xa0", " ").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
