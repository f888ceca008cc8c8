"""The commentary editor (spec 002 s4, s9: font size 14 in one named font, height 300 for a model's
commentary and 200 on the target portfolio) and the formatted commentary it makes.

The editor is an editable area (role textbox, named by its label) under a toolbar of Bold, Italic,
Bulleted list, Numbered list and Link (assets/rich_text.js makes them act on the editor's
selection, from the mouse or the keyboard). The area shows `shown` (what was loaded or last saved:
it changes only then, so that the browser keeps what is being typed) and hands its HTML to
`on_change` whenever the focus leaves it; the services sanitise it (app.domain.rich_text), and the
screens show the stored, sanitised HTML with `rich_text`.
"""
from __future__ import annotations

from typing import Any

import reflex as rx

RICH_TEXT_SCRIPT = "/rich_text.js"  # assets/rich_text.js
FONT = "Arial"
FONT_SIZE = "14px"
SUMMARY_HEIGHT = "300px"        # a model's commentary
TARGET_PORTFOLIO_HEIGHT = "200px"

# (label, icon, the browser's editing command)
TOOLS = (("Bold", "bold", "bold"), ("Italic", "italic", "italic"), ("Bulleted list", "list", "insertUnorderedList"),
         ("Numbered list", "list-ordered", "insertOrderedList"), ("Link", "link", "createLink"))


def rich_text_script() -> rx.Component:
    return rx.script(src=RICH_TEXT_SCRIPT)


def rich_text(html: Any, id_: str, empty: str = "No commentary.") -> rx.Component:
    """The stored (sanitised) commentary, formatted; `empty` when there is none."""
    return rx.cond(
        html != "",
        rx.html(html, id=id_, class_name="wa-rich", font_size=FONT_SIZE, width="100%"),
        rx.text(empty, size="2", color=rx.color("gray", 10), id=id_),
    )


def rich_text_editor(id_: str, label: str, shown: Any, on_change: Any, height: str = SUMMARY_HEIGHT) -> rx.Component:
    """The editor: its toolbar, then the editable area `id_` (`on_change` gets its HTML on blur)."""
    tools = [
        rx.tooltip(rx.icon_button(
            rx.icon(icon, size=14, aria_hidden="true"), size="1", variant="ghost", type="button",
            aria_label=name, id=f"{id_}-{icon}", custom_attrs={"data-wa-rich-tool": ""},
            on_click=rx.call_script(f"window.waRich && window.waRich.exec('{id_}', '{command}')"),
        ), content=name)
        for name, icon, command in TOOLS
    ]
    return rx.vstack(
        rich_text_script(),
        rx.hstack(*tools, spacing="2", role="toolbar", aria_label=f"{label}: formatting",
                  custom_attrs={"aria-controls": id_}),
        rx.html(
            shown, id=id_, class_name="wa-rich wa-rich-editor", role="textbox", aria_multiline="true",
            aria_label=label, tab_index=0, height=height, font_family=FONT, font_size=FONT_SIZE,
            custom_attrs={"contentEditable": "true", "data-wa-rich": ""},
            on_blur=rx.call_script(f"window.waRich ? window.waRich.html('{id_}') : ''", callback=on_change),
        ),
        spacing="1", width="100%",
    )
