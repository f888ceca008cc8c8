"""What a client receives: the record of advice PDF read back as its reader would (pypdf) for the
letterhead, the trades in words, the cash line, the CGT wording of the firm's template (a HIN case
and a pension case) and the firm's layout; the firm's record of advice settings (validation,
permissions, branding for the e-mails); the trade recommendations PDF's letterhead."""
from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from pypdf import PdfReader

from app.db.engine import session_scope
from app.db.tables import Portfolio
from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.domain.firm_documents import (
    AssetComment, Branding, DocumentSettings, RofaTemplate, HIN_RANGE, parse_document_settings,
)
from app.services import firms
from tests.advice_edge import records_of_advice, tps
from tests import factories as f
from tests.factories import actor
from tests.factories_models import make_model, make_universe
from tests.factories_portfolios import cash, make_portfolio_world, post
from tests.factories_recommendations import make_short_term


def pdf_text(data: bytes) -> list[str]:
    """Each page's text, spaces collapsed."""
    reader = PdfReader(io.BytesIO(data))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


@pytest.fixture
def world(db):
    """A Smith Family portfolio heavy in BHP (bought at $40, now $45) against a model that takes a
    profit on BHP (TAP) and holds VAF fast-follow (FFL/HOLD): a validated record of advice."""
    w = make_portfolio_world()
    u = make_universe()
    model = make_model(actor(w.admin), u)
    make_short_term(model["id"], u.stocks[0], "TAP", comment="Resources rallied")
    make_short_term(model["id"], u.fixed[0], "FFL/HOLD")
    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        p.model_id = model["id"]
        s.add(p)
    f.update_row(type(w.firm), w.firm.id, logo=None, car="1234567", licensee_name="Harbour Licensee Services",
                 licensee_afsl="456789", abn="53004085616")
    f.update_row(type(w.adviser), w.adviser.id, ar_number="7654001")
    cash(w.portfolio, "20000.00")
    post(w.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=1500, price="40.00", fee="10.00")
    post(w.portfolio, "asset_buy", asset_id=u.fixed[0].id, quantity=100, price="46.00", fee="10.00")
    return w, u, model


def _validated(w) -> dict:
    tp = tps.calculate(actor=actor(w.adviser), investment_id=w.portfolio.id)
    return tps.validate(actor=actor(w.adviser), tp_id=tp["id"], row_version=tp["row_version"])


def _settings(**template) -> DocumentSettings:
    return DocumentSettings(Branding(), RofaTemplate(**template))


def _set_type(w, portfolio_type: str) -> None:
    with session_scope() as s:
        p = s.get(Portfolio, w.portfolio.id)
        p.type = portfolio_type
        s.add(p)


# ---- the record of advice PDF ----------------------------------------------------------------------
def test_record_of_advice_pdf_letterhead_trades_in_words_and_cash_line(world, tmp_path):
    w, u, _ = world
    firms.upload_logo(actor=actor(w.admin), firm_id=w.firm.id, content_type="image/png", data=f.png_bytes((120, 40)))
    tp = _validated(w)
    rec = records_of_advice.record(actor=actor(w.client), tp_id=tp["id"])
    bhp = next(line for line in rec["lines"] if line["code"] == "BHP")
    assert bhp["side"] == "SELL" and re.fullmatch(r"Sell [\d,]+", bhp["trade"])
    name, data = records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])
    assert name.endswith(".pdf")
    pages = pdf_text(data)
    text = " ".join(pages)
    # letterhead: firm, ABN, authorised representative, licensee and AFSL, adviser; clients and date
    for words in (w.firm.name, "ABN 53004085616", "Corporate authorised representative no. 1234567",
                  "Authorised representative no. 7654001",
                  "Harbour Licensee Services, AFSL 456789", f"{w.adviser.first_name} {w.adviser.last_name}",
                  f"{w.client.first_name} {w.client.last_name}", "Record of Advice"):
        assert words in text, words
    assert re.search(r"Date \d{2}/\d{2}/\d{4}", text)
    # the logo is on the first page as a picture
    first = PdfReader(io.BytesIO(data)).pages[0]
    assert len(first.images) >= 1
    # every page numbered
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
    # the trade in words with its reason in words, never a bare code
    assert bhp["trade"] in text
    assert "Take a profit: sell the part above the model's weight (TAP)" in text
    assert "Hold: keep the units you have and buy no more, to be acted on promptly (FFL/HOLD)" in text
    assert "Analyst: Resources rallied" in text
    # the model's codes only ever in brackets after their words
    assert not re.search(r"\b(BUY|SELL|TAP|HOLD|FFL/HOLD)\b", re.sub(r"\((?:[A-Z]+/)?[A-Z]+\)", "", text))
    # the cash line: now and after the trades
    cash_line = rec["lines"][-1]
    assert cash_line["kind"] == "cash"
    assert "Cash account" in text and "Cash after the trades" in text
    from app.domain.money import format_aud
    assert format_aud(Decimal(cash_line["target_value"])) in text


def test_cgt_wording_net_of_hin_for_a_super_fund(world):
    w, _, _ = world
    _set_type(w, "SMSF")
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id,
                           settings=_settings(hin_percent=Decimal(40), asset_comments=(
                               AssetComment("BHP", "Held since 2009: the oldest parcels go first"),
                               AssetComment("CBA", "Not sold: never shown"))))
    tp = _validated(w)
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.adviser), tp_id=tp["id"])[1]))
    assert "net of HIN (40%)" in text
    assert "BHP Held since 2009: the oldest parcels go first" in text
    assert "Not sold: never shown" not in text
    # a savings portfolio has no pension phase: the HIN percent does not apply to it
    _set_type(w, "SAVINGS")
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.adviser), tp_id=tp["id"])[1]))
    assert "net of HIN" not in text and "marginal tax rate" in text


def test_cgt_wording_pensions_exempt_at_100_percent(world):
    w, _, _ = world
    _set_type(w, "SMSF")
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=_settings(hin_percent=Decimal(100)))
    tp = _validated(w)
    record = records_of_advice.read(actor=actor(w.client), tp_id=tp["id"])
    assert "exempt" in record.cgt_estimate
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])[1]))
    assert "entirely supporting pensions in the retirement phase" in text
    assert "no capital gains tax is payable" in text


def test_template_discount_replaces_the_type_discount_but_not_for_companies(world):
    w, _, _ = world
    tp = _validated(w)
    default = records_of_advice.read(actor=actor(w.adviser), tp_id=tp["id"]).cgt_estimate
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=_settings(discount_percent=Decimal(0)))
    undiscounted = records_of_advice.read(actor=actor(w.adviser), tp_id=tp["id"]).cgt_estimate
    gain = lambda text: Decimal(re.search(r"net capital gain of \$([\d,]+\.\d\d)", text).group(1).replace(",", ""))  # noqa: E731
    assert gain(undiscounted) == gain(default) * 2  # a savings portfolio's 50% discount no longer applies


@pytest.mark.parametrize("layout", ["default", "compact", "detailed"])
def test_the_layout_and_branding_shape_the_pdf(world, layout):
    w, _, _ = world
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=DocumentSettings(
        Branding(layout=layout, colour="#7A1F5C", disclaimer="General advice warning: read the PDS.",
                 footer="Harbour Wealth - confidential"), RofaTemplate()))
    tp = _validated(w)
    pages = pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])[1])
    text = " ".join(pages)
    assert "General advice warning: read the PDS." in text
    assert all("Harbour Wealth - confidential" in page for page in pages)
    assert ("Class allocation" in text) is (layout != "compact")
    assert ("Calculation:" in text) is (layout == "detailed")
    assert ("Value now" in text) is (layout == "detailed")


def test_headings_stay_with_their_tables(world):
    w, _, _ = world
    tp = _validated(w)
    pages = pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])[1])
    for heading, follower in (("Class allocation", "Recommended"), ("Recommended portfolio", "Target units")):
        page = next(p for p in pages if heading in p)
        assert follower in page.split(heading, 1)[1], heading


def test_preview_of_unsaved_settings_and_of_a_firm_without_records(world):
    w, _, _ = world
    unsaved = DocumentSettings(Branding(layout="compact", footer="Preview footer"), RofaTemplate())
    name, data = records_of_advice.preview_pdf(actor=actor(w.admin), firm_id=w.firm.id, settings=unsaved)
    text = " ".join(pdf_text(data))
    assert "Sample" in name and "Preview footer" in text and "Record of Advice" in text and w.firm.name in text
    tp = _validated(w)
    name, data = records_of_advice.preview_pdf(actor=actor(w.admin), firm_id=w.firm.id, settings=unsaved)
    assert w.portfolio.name in name and "Preview footer" in " ".join(pdf_text(data))
    assert firms.documents(actor=actor(w.admin), firm_id=w.firm.id).branding.footer == ""  # nothing saved
    with pytest.raises(NotFound):
        records_of_advice.preview_pdf(actor=actor(w.other_adviser), firm_id=w.firm.id, settings=unsaved)
    with pytest.raises(PermissionDenied):
        records_of_advice.preview_pdf(actor=actor(w.client), firm_id=w.firm.id, settings=unsaved)
    assert tp


# ---- the firm's settings ---------------------------------------------------------------------------
def test_template_validation_refuses_bad_input_with_its_text(world):
    w, _, _ = world
    for value in ("140", "-1", "100.5"):
        settings, errors = parse_document_settings({"hinPercent": value})
        assert settings is None and errors["hinPercent"] == HIN_RANGE == "The HIN percent has to be between 0 and 100."
    assert parse_document_settings({"hinPercent": "abc"})[1]["hinPercent"] == "Please, enter a valid number. "
    assert parse_document_settings({"cgtDiscount": "101"})[1]["cgtDiscount"] == "The CGT discount has to be between 0 and 100."
    assert parse_document_settings({"layout": "glossy"})[1]["layout"] == "Please, select layout. "
    assert "colour" in parse_document_settings({"colour": "red"})[1]
    assert parse_document_settings({"assetComments": "BHP held long"})[1]["assetComments"] == \
        "Line 1: write each comment as CODE: comment."
    settings, errors = parse_document_settings({"hinPercent": "100", "layout": "detailed", "colour": "#aa00cc",
                                                "assetComments": "bhp: Held long\n\nVAF - Bond ladder"})
    assert errors == {} and settings.template.hin_percent == 100 and settings.branding.colour == "#AA00CC"
    assert settings.template.asset_comments == (AssetComment("BHP", "Held long"), AssetComment("VAF", "Bond ladder"))
    # the service checks typed settings again, and the codes against the universe
    with pytest.raises(ValidationError) as refused:
        firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=_settings(hin_percent=Decimal(101)))
    assert refused.value.fields == {"hinPercent": HIN_RANGE}
    with pytest.raises(ValidationError) as refused:
        firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id,
                               settings=_settings(asset_comments=(AssetComment("ZZZ", "Unknown"),)))
    assert refused.value.fields == {"assetComments": "Unknown asset code: ZZZ."}
    stored = firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id, settings=settings)
    assert stored == settings == firms.documents(actor=actor(w.adviser), firm_id=w.firm.id)


def test_who_may_change_the_settings_and_the_branding_for_messages(world):
    w, _, _ = world
    settings = DocumentSettings(Branding(layout="detailed", colour="#123456", footer="Footer"), RofaTemplate())
    for who, error in ((w.adviser, PermissionDenied), (w.client, NotFound), (w.other_adviser, NotFound)):
        with pytest.raises((error, PermissionDenied)):
            firms.update_documents(actor=actor(who), firm_id=w.firm.id, settings=settings)
    firms.update_documents(actor=actor(w.superuser), firm_id=w.firm.id, settings=settings)
    branding = firms.firm_branding(actor=actor(w.adviser), firm_id=w.firm.id)
    assert (branding.firm_name, branding.colour, branding.footer, branding.layout) == (w.firm.name, "#123456", "Footer",
                                                                                       "detailed")
    assert branding.licensee_line == "Harbour Licensee Services, AFSL 456789"
    with pytest.raises(NotFound):
        firms.firm_branding(actor=actor(w.other_adviser), firm_id=w.firm.id)


def test_a_logo_that_is_not_an_image_or_too_large_is_refused(world):
    w, _, _ = world
    with pytest.raises(ValidationError) as refused:
        firms.upload_logo(actor=actor(w.admin), firm_id=w.firm.id, content_type="image/png", data=b"%PDF-1.4 not a png")
    assert refused.value.message == "Incorrect file format"
    with pytest.raises(ValidationError) as refused:
        firms.upload_logo(actor=actor(w.admin), firm_id=w.firm.id, content_type="image/png",
                          data=f.padded_png(2_048_001))
    assert refused.value.message == "Image size should be less than 2Mb"


def test_trade_recommendations_pdf_has_the_letterhead_and_trades_in_words(world):
    from app.services import trade_approval_report
    from tests import trade_instructions_edge as tis

    w, _, _ = world
    firms.upload_logo(actor=actor(w.admin), firm_id=w.firm.id, content_type="image/png", data=f.png_bytes((90, 30)))
    firms.update_documents(actor=actor(w.admin), firm_id=w.firm.id,
                           settings=DocumentSettings(Branding(footer="Harbour - private and confidential"),
                                                     RofaTemplate()))
    tp = _validated(w)
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    out = trade_approval_report.portfolio_export(actor=actor(w.adviser), investment_id=w.portfolio.id,
                                                 file_format="pdf")
    pages = pdf_text(out.data)
    text = " ".join(pages)
    for words in (w.firm.name, "ABN 53004085616", "Corporate authorised representative no. 1234567",
                  "Authorised representative no. 7654001",
                  "Harbour Licensee Services, AFSL 456789", f"{w.adviser.first_name} {w.adviser.last_name}",
                  f"Trade Recommendations - {w.portfolio.name}", "Harbour - private and confidential"):
        assert words in text, words
    assert re.search(r"BHP Take a profit: sell the part above the model's weight \(TAP\)\. Analyst: Resources rallied "
                     r"Sell [\d,]+", text)
    assert re.search(r"CBA Buy: hold it at the model's weight \(BUY\) Buy [\d,]+", text)
    assert not re.search(r"\b(BUY|SELL|TAP)\b", re.sub(r"\((?:[A-Z]+/)?[A-Z]+\)", "", text))
    assert len(PdfReader(io.BytesIO(out.data)).pages[0].images) == 1
    assert f"page 1 of {len(pages)}" in pages[0]


def test_the_documents_api_refuses_a_hin_percent_out_of_range_and_serves_the_preview(world):
    w, _, _ = world
    with f.api_client() as client:
        path = f"/api/firms/{w.firm.id}/documents"
        refused = f.failure(client.put(path, json={"layout": "compact", "hinPercent": "140"},
                                       headers=f.headers(w.admin)), 400)
        assert HIN_RANGE in str(refused)
        saved = f.ok_result(client.put(path, json={"layout": "compact", "colour": "#7a1f5c", "hinPercent": "40",
                                                   "assetComments": "BHP: Held since 2009", "footer": "Confidential"},
                                       headers=f.headers(w.admin)))
        assert saved == {"layout": "compact", "colour": "#7A1F5C", "disclaimer": "", "footer": "Confidential",
                         "hinPercent": "40", "cgtDiscount": None, "assetComments": "BHP: Held since 2009"}
        assert f.ok_result(client.get(path, headers=f.headers(w.adviser))) == saved
        assert client.put(path, json={"layout": "detailed"}, headers=f.headers(w.adviser)).status_code == 403
        preview = client.get(f"{path}/preview", headers=f.headers(w.admin))
        assert preview.status_code == 200 and preview.headers["content-type"] == "application/pdf"
        assert "Confidential" in " ".join(pdf_text(preview.content))


def test_each_demo_firm_has_its_logo_licensee_layout_and_template(db):
    from sqlmodel import select

    from app.db.tables import Firm, User
    from app.services import demo

    demo._load_demo_people()
    demo.load_demo_documents()
    with session_scope() as s:
        demo_firms = s.exec(select(Firm)).all()
        advisers = s.exec(select(User).where(User.role == "adviser")).all()
        keys = {fm.name: (fm.logo, fm.rofa_layout) for fm in demo_firms}
    assert len(demo_firms) == 3 and all(fm.logo and fm.licensee_name and fm.licensee_afsl and fm.car
                                        and fm.rofa_disclaimer and fm.rofa_footer and fm.cgt_asset_comments
                                        for fm in demo_firms)
    assert {fm.rofa_layout for fm in demo_firms} == {"default", "compact", "detailed"}
    assert {fm.name: fm.cgt_hin_percent for fm in demo_firms} == {
        "Harbour Wealth Partners": 40, "Southern Cross Advisory": 100, "Outback Financial Planning": 25}
    assert advisers and all(a.signature and a.ar_number for a in advisers)
    demo.load_demo_documents()  # a second run changes nothing
    with session_scope() as s:
        assert {fm.name: (fm.logo, fm.rofa_layout) for fm in s.exec(select(Firm)).all()} == keys
    # the administrator's preview: the letterhead with the logo, licensee and AFSL, the firm's footer
    harbour = next(fm for fm in demo_firms if fm.name == "Harbour Wealth Partners")
    admin = f.user_by_email("admin@harbour.example.com")
    name, data = records_of_advice.preview_pdf(actor=actor(admin), firm_id=harbour.id)
    text = " ".join(pdf_text(data))
    assert "Harbour Licensee Services Pty Ltd, AFSL 456789" in text
    assert "Corporate authorised representative no. 1234567" in text
    assert "Harbour Wealth Partners - confidential" in text and PdfReader(io.BytesIO(data)).pages[0].images
    assert "BHP Oldest parcels (bought 2016) are sold first" in text


def test_the_sells_capital_gains_by_parcel_on_every_document(world):
    """BHP (1,500 bought at $40 + $10 brokerage, last close $45) is partly sold by the take-profit:
    the target portfolio, the record of advice (screen shape, REST shape and PDF) and the trade
    recommendations show the parcel it takes with its gain; bought today, no discount applies."""
    from tests import trade_instructions_edge as tis

    w, u, _ = world
    tp = _validated(w)
    est = records_of_advice.capital_gains(actor=actor(w.adviser), tp_id=tp["id"])
    [sell] = est.sells
    [parcel] = sell.parcels
    assert sell.code == "BHP" and sell.price == Decimal("45.00") and 0 < sell.units < 1500
    # the parcel's cost base is its share of $60,010.00; proceeds at $45 a unit; gain = proceeds - cost
    assert parcel.units == sell.units and parcel.proceeds == sell.units * Decimal("45.00")
    assert parcel.cost_base == (Decimal("60010.00") * sell.units / 1500).quantize(Decimal("0.01"))
    assert parcel.gain == parcel.proceeds - parcel.cost_base and parcel.method == "Other (held under 12 months)"
    assert (parcel.discount, parcel.net, est.net) == (0, parcel.gain, parcel.gain)
    # the client reads the same on the record of advice and its PDF
    rec = records_of_advice.record(actor=actor(w.client), tp_id=tp["id"])
    assert rec["capital_gains"]["sells"][0]["parcels"][0]["gain"] == format(parcel.gain, "f")
    text = " ".join(pdf_text(records_of_advice.export_pdf(actor=actor(w.client), tp_id=tp["id"])[1]))
    assert "The parcels the sells take" in text and f"BHP: sell {int(sell.units):,} at $45.00" in text
    assert f"net gain ${parcel.gain:,.2f}" in text
    # and the trade recommendations generated from it, once the record is approved
    tps.decide(actor=actor(w.client), tp_id=tp["id"], action="approve")
    [ti] = tis.generate(actor=actor(w.adviser), investment_ids=[w.portfolio.id])
    trades = tis.capital_gains(actor=actor(w.adviser), ti_id=ti["id"])  # (the client once validated)
    assert [s.code for s in trades.sells] == ["BHP"] and trades.net > 0
    # another firm's user reads nothing of it
    other = f.make_world()
    with pytest.raises(NotFound):
        tis.capital_gains(actor=actor(other.admin_b), ti_id=ti["id"])
