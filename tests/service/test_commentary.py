"""The commentary with its formatting (002 s4, s9): what the services store is sanitised HTML (a
target portfolio's commentary and a model's), and it reaches the client formatted: the record of
advice PDF and the trade recommendations PDF read back (pypdf) show the bold words in a bold font
and the list's points on lines of their own; the trade recommendations Excel has it as plain text."""
from __future__ import annotations

import io

from openpyxl import load_workbook
from pypdf import PdfReader

from app.api.schemas import rendered
from app.domain.model_rules import read_form
from app.services import models, trade_approval_report
from tests.advice_edge import records_of_advice, tps
from tests import trade_instructions_edge as tis
from tests.factories import actor
from tests.factories_models import payload
from tests.service.test_firm_documents import _validated, pdf_text, world  # noqa: F401  (the fixture)

TYPED = ('<div><b onclick="steal()">Rates on hold</b> for now</div><ul><li>First point</li><li>Second point</li></ul>'
         '<script>alert(1)</script><a href="javascript:alert(1)">bad link</a> '
         '<a href="https://rba.example/rates">the bank</a>')
STORED = ('<p><strong>Rates on hold</strong> for now</p><ul><li>First point</li><li>Second point</li></ul>'
          'bad link <a href="https://rba.example/rates" rel="noopener noreferrer" target="_blank">the bank</a>')


def _fonts(data: bytes) -> dict[str, set[str]]:
    """Each piece of text of the PDF with the fonts it is written in."""
    found: dict[str, set[str]] = {}

    def visit(text, cm, tm, font, size):
        if text.strip() and font:
            found.setdefault(text.strip(), set()).add(str(font.get("/BaseFont")))

    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(visitor_text=visit)
    return found


def _shows_the_formatting(data: bytes) -> None:
    text = " ".join(pdf_text(data))
    assert "Market commentary" in text
    assert "Rates on hold for now" in text
    assert "bad link the bank" in text
    assert "alert" not in text and "<" not in text
    fonts = _fonts(data)
    assert any("Bold" in f for t, fs in fonts.items() if "Rates on hold" in t for f in fs), fonts
    assert not any("Bold" in f for t, fs in fonts.items() if "for now" in t and "Rates" not in t for f in fs)
    raw = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    lines = [line.strip() for line in raw.splitlines()]
    first = next(i for i, line in enumerate(lines) if line.endswith("First point"))
    assert lines[first + 1].endswith("Second point")  # each point on a line of its own
    assert lines[first] != "First point" or lines[first - 1].strip() in ("•", "\u2022")  # with its bullet


def test_stored_commentary_is_sanitised_html(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    saved = tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="market", description=TYPED)
    assert saved["description"] == STORED
    shape = tps.get(actor=actor(w.adviser), tp_id=tp["id"])
    assert {"id": saved["id"], "type": "market", "description": STORED} in shape["commentaries"]
    # nothing but markup is no commentary
    empty = tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="recommendation",
                             description="<script>x</script><p></p>")
    assert empty["description"] == ""


def test_a_models_commentary_is_stored_sanitised(world):
    w, u, _ = world
    data = payload(u, commentaries=[{"type": "market", "description": TYPED},
                                    {"type": "recommendation", "description": "<style>x</style>"}])
    data["name"] = "Formatted Commentary Model"
    made = rendered(models.create_model(actor=actor(w.admin), form=read_form(data)))
    stored = {c["type"]: c["description"] for c in rendered(models.get_model(actor=actor(w.admin), model_id=made["id"]))["commentaries"]}
    assert stored == {"market": STORED}


def test_the_record_of_advice_pdf_shows_the_formatted_commentary(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="market", description=TYPED)
    tp = tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=tps.get(
        actor=actor(w.adviser), tp_id=tp["id"])["row_version"])
    _, data = records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])
    _shows_the_formatting(data)


def test_old_plain_commentary_keeps_its_lines_in_the_pdf(world):
    from app.db.engine import session_scope
    from app.db.tables import TargetPortfolioComment

    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    with session_scope() as s:  # written before the editor: plain text with newlines
        s.add(TargetPortfolioComment(tp_id=tp["id"], model_id=tp["model_id"], type="market",
                                     description="Line one & more\nLine two <3"))
    tp = tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=tps.get(
        actor=actor(w.adviser), tp_id=tp["id"])["row_version"])
    _, data = records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])
    lines = [line.strip() for page in PdfReader(io.BytesIO(data)).pages for line in page.extract_text().splitlines()]
    assert "Line one & more" in lines and "Line two <3" in lines


def test_the_trade_recommendations_pdf_and_excel_carry_the_commentary(world):
    w, _, _ = world
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    tps.save_comment(actor=actor(w.adviser), tp_id=tp["id"], type="market", description=TYPED)
    tp = _validated_again(w, tp["id"])
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    pdf = trade_approval_report.portfolio_export(actor=actor(w.adviser), investment_id=w.portfolio.id,
                                                 file_format="pdf")
    _shows_the_formatting(pdf.data)
    xlsx = trade_approval_report.portfolio_export(actor=actor(w.adviser), investment_id=w.portfolio.id,
                                                  file_format="xlsx")
    sheet = load_workbook(io.BytesIO(xlsx.data))["Commentary"]
    rows = {r[0]: r[1] for r in sheet.iter_rows(values_only=True)}
    assert rows["Market commentary"] == ("Rates on hold for now\n- First point\n- Second point\n"
                                         "bad link the bank (https://rba.example/rates)")


def _validated_again(w, tp_id: int) -> dict:
    return tps.validate(actor=actor(w.adviser), tp_id=tp_id,
                        row_version=tps.get(actor=actor(w.adviser), tp_id=tp_id)["row_version"])
