"""Long-term and short-term recommendations (app.services.recommendations) on a real database:
the rules and texts of spec 000/001/002, permissions, uploads (all or nothing, one transaction per
model), the bulk candidates and the CSV download."""
from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.domain import recommendations as rules
from app.domain import validators as v
from app.domain.errors import INVALID_FORM, NotFound, PermissionDenied, ValidationError
from app.services.assets import FirmRef
from tests import recommendations_edge as recs
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_models as fm
from tests import factories_recommendations as fr
from tests.factories import CSV, XLSX
from tests.factories_recommendations import LT_HEADER, ST_HEADER


@pytest.fixture
def w(db):
    return fr.make_rec_world()


# ---- long-term: add, change, delete --------------------------------------------------------------
def test_long_term_add_list_update_delete(w):
    admin = f.actor(w.world.admin_a)
    created = recs.create_long_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "buy",
                                                       "comment": "  core holding  "})
    assert created["message"] == rules.LONG_TERM_ADDED
    assert created["asset"] == {"id": w.bhp.id, "code": "BHP", "name": "BHP Group Limited"}
    assert (created["action"], created["comment"], created["is_new"], created["model_id"]) == ("buy", "core holding", False, w.model_a.id)

    rows, total = recs.list_long_terms(actor=admin, model_id=w.model_a.id)
    assert total == 1 and rows[0]["id"] == created["id"]

    updated = recs.update_long_term(actor=admin, rec_id=created["id"], data={"action": "SELL", "comment": ""})
    assert (updated["action"], updated["comment"], updated["message"]) == ("sell", None, rules.LONG_TERM_UPDATED)
    assert fr.long_terms(w.model_a.id) == [("BHP", "sell", None)]

    recs.delete_long_term(actor=admin, rec_id=created["id"])
    assert fr.long_terms(w.model_a.id) == []
    with pytest.raises(NotFound) as err:
        recs.delete_long_term(actor=admin, rec_id=created["id"])
    assert err.value.message == rules.RECOMMENDATION_NOT_FOUND


def test_new_long_term_hold_needs_a_comment(w):
    admin = f.actor(w.world.admin_a)
    with pytest.raises(ValidationError) as err:
        recs.create_long_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "hold", "comment": "  "})
    assert err.value.message == "Please fill out the comment"
    assert err.value.fields == {"comment": "Please fill out the comment"}
    assert fr.long_terms(w.model_a.id) == []
    done = recs.create_long_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "hold",
                                                    "comment": "Wait for results"})
    assert done["action"] == "hold"


def test_existing_long_term_saved_as_hold_without_comment_is_refused(w):
    """The screen asks whether to delete it; the service never keeps a hold without a comment."""
    rec = fr.make_long_term(w.model_a, w.bhp, "buy", "was a buy")
    with pytest.raises(ValidationError) as err:
        recs.update_long_term(actor=f.actor(w.world.admin_a), rec_id=rec.id, data={"action": "hold", "comment": ""})
    assert err.value.message == rules.COMMENT_REQUIRED
    assert fr.long_terms(w.model_a.id) == [("BHP", "buy", "was a buy")]


def test_long_term_same_asset_twice(w):
    fr.make_long_term(w.model_a, w.bhp)
    with pytest.raises(ValidationError) as err:
        recs.create_long_term(actor=f.actor(w.world.adviser_a),
                              data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "sell"})
    assert err.value.message == "Asset BHP already exists in Long Term Recommendations"
    # another model may hold the same asset
    recs.create_long_term(actor=f.actor(w.world.adviser_a), data={"model_id": w.model_a2.id, "asset_id": w.bhp.id, "action": "sell"})


def test_long_term_bad_fields(w):
    admin = f.actor(w.world.admin_a)
    with pytest.raises(ValidationError) as err:
        recs.create_long_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.own_b.id, "action": "maybe",
                                                 "comment": "x" * 2001})
    assert err.value.message == INVALID_FORM
    assert err.value.fields == {"action": v.DEFAULT, "comment": v.MAX_LENGTH.format(n=2000),
                                "asset_id": "Please, select asset. "}
    with pytest.raises(ValidationError) as err:
        recs.create_long_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": "abc"})
    assert err.value.fields == {"action": "Please, select action. ", "asset_id": "Please, select asset. "}


def test_delete_all_long_terms(w):
    admin = f.actor(w.world.admin_a)
    with pytest.raises(ValidationError) as err:
        recs.delete_all_long_terms(actor=admin, model_id=w.model_a.id)
    assert err.value.message == "There are no recommendations to remove"
    fr.make_long_term(w.model_a, w.bhp)
    fr.make_long_term(w.model_a, w.cba, "sell")
    fr.make_long_term(w.model_a2, w.cba, "sell")
    assert recs.delete_all_long_terms(actor=admin, model_id=w.model_a.id) == 2
    assert fr.long_terms(w.model_a.id) == [] and fr.long_terms(w.model_a2.id) == [("CBA", "sell", None)]


# ---- permissions ---------------------------------------------------------------------------------
def test_clients_are_refused_everything(w):
    client = f.actor(w.world.client_a)
    rec = fr.make_long_term(w.model_a, w.bhp)
    st_rec = fr.make_short_term(w.model_a, w.bhp)
    calls = [
        lambda: recs.list_long_terms(actor=client, model_id=w.model_a.id),
        lambda: recs.list_short_terms(actor=client, model_id=w.model_a.id),
        lambda: recs.create_long_term(actor=client, data={"model_id": w.model_a.id, "asset_id": w.cba.id, "action": "buy"}),
        lambda: recs.update_long_term(actor=client, rec_id=rec.id, data={"action": "sell"}),
        lambda: recs.delete_long_term(actor=client, rec_id=999999),
        lambda: recs.delete_all_long_terms(actor=client, model_id=w.model_a.id),
        lambda: recs.create_short_term(actor=client, data={"model_id": w.model_a.id, "asset_id": w.cba.id, "action": "BUY"}),
        lambda: recs.update_short_term(actor=client, rec_id=st_rec.id, data={"action": "SELL"}),
        lambda: recs.mark_short_terms_deleted(actor=client, ids=[st_rec.id]),
        lambda: recs.export_csv(actor=client, model_id=w.model_a.id, kind="long_term"),
        lambda: recs.upload_candidates(actor=client, kind="long_term"),
        lambda: recs.upload(actor=client, kind="long_term", model_ids=[w.model_a.id], content_type=CSV,
                            data=f.csv_bytes([("CBA", "buy", "")], LT_HEADER)),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied):
            call()
    assert fr.long_terms(w.model_a.id) == [("BHP", "buy", None)]


def test_other_firms_models_are_not_found(w):
    admin_a = f.actor(w.world.admin_a)
    lt_b = fr.make_long_term(w.model_b, w.bhp)
    st_b = fr.make_short_term(w.model_b, w.bhp)
    with pytest.raises(NotFound) as err:
        recs.list_long_terms(actor=admin_a, model_id=w.model_b.id)
    assert err.value.message == "Model not found"
    with pytest.raises(NotFound):
        recs.list_short_terms(actor=admin_a, model_id=w.model_b.id)
    with pytest.raises(NotFound):
        recs.create_long_term(actor=admin_a, data={"model_id": w.model_b.id, "asset_id": w.cba.id, "action": "buy"})
    with pytest.raises(NotFound) as err:
        recs.update_long_term(actor=admin_a, rec_id=lt_b.id, data={"action": "sell"})
    assert err.value.message == "Recommendation not found"
    with pytest.raises(NotFound):
        recs.update_short_term(actor=admin_a, rec_id=st_b.id, data={"action": "SELL"})
    with pytest.raises(NotFound):
        recs.export_csv(actor=admin_a, model_id=w.model_b.id, kind="short_term")
    with pytest.raises(NotFound):
        recs.upload(actor=admin_a, kind="short_term", model_ids=[w.model_a.id, w.model_b.id], content_type=CSV,
                    data=f.csv_bytes([("CBA", "BUY", "", "", "")], ST_HEADER))
    assert fr.long_terms(w.model_b.id) == [("BHP", "buy", None)]
    assert fr.short_terms(w.model_a.id) == []


def test_a_shared_model_is_read_only_for_other_firms(w):
    admin_a = f.actor(w.world.admin_a)
    rec = fr.make_long_term(w.shared_all, w.bhp, "buy")
    assert recs.list_long_terms(actor=admin_a, model_id=w.shared_all.id)[1] == 1
    page = recs.recommendations_page(actor=admin_a, model_id=w.shared_all.id, kind="long_term")
    assert page["model"]["can_edit"] is False and page["model"]["name"] == "Bravo Open"
    assert recs.export_csv(actor=admin_a, model_id=w.shared_all.id, kind="long_term")[1]
    with pytest.raises(PermissionDenied):
        recs.create_long_term(actor=admin_a, data={"model_id": w.shared_all.id, "asset_id": w.cba.id, "action": "buy"})
    with pytest.raises(PermissionDenied):
        recs.update_long_term(actor=admin_a, rec_id=rec.id, data={"action": "sell", "comment": "x"})
    with pytest.raises(PermissionDenied):
        recs.delete_all_long_terms(actor=admin_a, model_id=w.shared_all.id)
    # the owner firm and the superuser may
    owner = recs.recommendations_page(actor=f.actor(w.world.adviser_b), model_id=w.shared_all.id, kind="long_term")
    assert owner["model"]["can_edit"] is True
    recs.update_long_term(actor=f.actor(w.world.superuser), rec_id=rec.id, data={"action": "sell"})
    assert fr.long_terms(w.shared_all.id) == [("BHP", "sell", None)]


def test_deleted_models_are_not_found(w):
    gone = fm.make_model(w.world.firm_a, name="Gone", deleted=True)
    with pytest.raises(NotFound):
        recs.list_long_terms(actor=f.actor(w.world.admin_a), model_id=gone.id)
    with pytest.raises(NotFound):
        recs.list_short_terms(actor=f.actor(w.world.superuser), model_id=gone.id)


def test_firm_own_assets_only_for_that_firm(w):
    with pytest.raises(ValidationError) as err:
        recs.create_short_term(actor=f.actor(w.world.admin_a), data={"model_id": w.model_a.id, "asset_id": w.own_b.id, "action": "BUY"})
    assert err.value.fields == {"asset_id": "Please, select asset. "}
    made = recs.create_short_term(actor=f.actor(w.world.admin_b), data={"model_id": w.model_b.id, "asset_id": w.own_b.id, "action": "BUY"})
    assert made["code"] == "BOWN"


# ---- short-term ------------------------------------------------------------------------------------
def test_short_term_add_is_active_and_stamps_the_model(w):
    admin = f.actor(w.world.admin_a)
    assert fm.model_row(w.model_a.id).analyst_recommendations_date is None
    made = recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "ffl/sell",
                                                     "comment": "", "price": "45.125", "yield": "4.5"})
    assert made["message"] == "Recommendation was added"
    assert (made["action"], made["status"], made["price"], made["yield"], made["comment"]) == ("FFL/SELL", "active", "45.125", "4.5", None)
    assert (made["code"], made["name"], made["model_asset"], made["is_new"]) == ("BHP", "BHP Group Limited", True, False)
    stamped = fm.model_row(w.model_a.id).analyst_recommendations_date
    assert stamped is not None
    other = recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.cba.id, "action": "ACC"})
    assert other["model_asset"] is False and other["price"] is None
    rows, total = recs.list_short_terms(actor=admin, model_id=w.model_a.id)
    assert total == 2 and [r["code"] for r in rows] == ["BHP", "CBA"]
    stored = fr.short_terms(w.model_a.id)
    assert stored[0][3] == Decimal("45.125") and isinstance(stored[0][3], Decimal) and stored[0][4] == Decimal("4.5")


@pytest.mark.parametrize("field,value,text", [
    ("price", "abc", "Please, enter a valid number. "),
    ("price", "1e5", "Please, enter a valid number. "),
    ("price", "-1", "Please, enter positive value"),
    ("price", "0", "Please, enter positive value"),
    ("price", "1000000000000", "Value has to be less than 1000000000000."),
    ("yield", "4,5", "Please, enter a valid number. "),
    ("yield", "-0.5", "Please, enter positive value"),
    ("yield", "100000", "Value has to be less than 100000."),
])
def test_short_term_price_and_yield_must_be_valid(w, field, value, text):
    with pytest.raises(ValidationError) as err:
        recs.create_short_term(actor=f.actor(w.world.admin_a),
                               data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "BUY", field: value})
    assert err.value.fields == {field: text}
    assert fr.short_terms(w.model_a.id, status=None) == []


def test_short_term_zero_yield_and_all_action_codes(w):
    admin = f.actor(w.world.admin_a)
    for code in rules.SHORT_TERM_ACTIONS:
        asset = fa.make_asset(f"T{code.replace('/', '')}"[:12], fa.make_cash_class(), price="10.00")
        made = recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": asset.id, "action": code.lower(),
                                                         "comment": "why", "yield": "0"})
        assert made["action"] == code and made["yield"] == "0"


def test_short_term_new_hold_needs_a_comment_and_duplicates(w):
    admin = f.actor(w.world.admin_a)
    with pytest.raises(ValidationError) as err:
        recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "HOLD"})
    assert err.value.message == "Please fill out the comment"
    first = recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "HOLD", "comment": "ok"})
    with pytest.raises(ValidationError) as err:
        recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "BUY"})
    assert err.value.message == "Asset BHP already exists in recommendations"
    # once deleted, the asset may be recommended again
    recs.mark_short_terms_deleted(actor=admin, ids=[first["id"]])
    recs.create_short_term(actor=admin, data={"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "BUY"})
    assert [r[1] for r in fr.short_terms(w.model_a.id, status=None)] == ["HOLD", "BUY"]


def test_short_term_update_and_hold_without_comment_deletes(w):
    admin = f.actor(w.world.admin_a)
    rec = fr.make_short_term(w.model_a, w.bhp, "BUY", "buy it", price="10", yield_="3")
    updated = recs.update_short_term(actor=admin, rec_id=rec.id, data={"action": "tap", "price": "11.5"})
    assert (updated["action"], updated["price"], updated["yield"], updated["comment"]) == ("TAP", "11.5", "3", "buy it")
    assert updated["deleted"] is False and updated["message"] == "Recommendation was updated"
    with pytest.raises(ValidationError) as err:
        recs.update_short_term(actor=admin, rec_id=rec.id, data={"yield": "x"})
    assert err.value.fields == {"yield": "Please, enter a valid number. "}

    gone = recs.update_short_term(actor=admin, rec_id=rec.id, data={"action": "HOLD", "comment": " "})
    assert gone["deleted"] is True and gone["status"] == "deleted" and gone["message"] == "Recommendation was deleted"
    assert fr.short_terms(w.model_a.id) == []
    assert fr.short_terms(w.model_a.id, status="deleted")[0][1] == "TAP"  # marked, values kept
    with pytest.raises(NotFound):
        recs.update_short_term(actor=admin, rec_id=rec.id, data={"action": "BUY"})


def test_mark_as_deleted_and_delete_all(w):
    admin = f.actor(w.world.admin_a)
    a = fr.make_short_term(w.model_a, w.bhp)
    b = fr.make_short_term(w.model_a, w.cba)
    foreign = fr.make_short_term(w.model_b, w.cba)
    with pytest.raises(ValidationError) as err:
        recs.mark_short_terms_deleted(actor=admin, ids=[])
    assert err.value.message == "There are no recommendations to remove"
    with pytest.raises(NotFound):  # all or none
        recs.mark_short_terms_deleted(actor=admin, ids=[a.id, foreign.id])
    assert len(fr.short_terms(w.model_a.id)) == 2
    assert recs.mark_short_terms_deleted(actor=admin, ids=[a.id, str(a.id)]) == 1
    assert [r[0] for r in fr.short_terms(w.model_a.id)] == ["CBA"]
    assert recs.delete_all_short_terms(actor=admin, model_id=w.model_a.id) == 1
    assert fr.short_terms(w.model_a.id) == [] and len(fr.short_terms(w.model_a.id, status="deleted")) == 2
    with pytest.raises(ValidationError) as err:
        recs.delete_all_short_terms(actor=admin, model_id=w.model_a.id)
    assert err.value.message == "There are no recommendations to remove"
    assert b.id and fr.short_terms(w.model_b.id)  # firm B's untouched


# ---- uploads -----------------------------------------------------------------------------------
def _upload(w, kind, rows, *, user=None, models=None, header=None, upload_type=None, content_type=CSV, data=None):
    header = header or (LT_HEADER if kind == "long_term" else ST_HEADER)
    return recs.upload(actor=f.actor(user or w.world.admin_a), kind=kind, model_ids=[w.model_a.id] if models is None else models,
                       content_type=content_type, data=data if data is not None else f.csv_bytes(rows, header),
                       upload_type=upload_type)


def test_long_term_upload_amend(w):
    fr.make_long_term(w.model_a, w.bhp, "buy", "old")
    fr.make_long_term(w.model_a, w.cba, "sell", "to go")
    result = _upload(w, "long_term", [("bhp", "SELL", "now sell"), ("CSL", "hold", "keep"), ("CBA", "hold", "")])
    assert result["message"] == "The file upload is now complete"
    assert result["rows"] == [{"model_id": w.model_a.id, "name": "Alpha Growth", "success": True,
                               "message": "The file upload is now complete"}]
    # an existing one set to hold without a comment is deleted
    assert fr.long_terms(w.model_a.id) == [("BHP", "sell", "now sell"), ("CSL", "hold", "keep")]


def test_long_term_upload_replace(w):
    fr.make_long_term(w.model_a, w.bhp, "buy", "old")
    fr.make_long_term(w.model_a, w.cba, "sell")
    _upload(w, "long_term", [("CBA", "buy", ""), ("CSL", "sell", "")], upload_type="replace")
    assert fr.long_terms(w.model_a.id) == [("CBA", "buy", None), ("CSL", "sell", None)]


def test_upload_with_bad_lines_writes_nothing_and_names_them(w):
    fr.make_long_term(w.model_a, w.bhp, "buy", "old")
    before = fr.snapshot()
    with pytest.raises(ValidationError) as err:
        _upload(w, "long_term", [("CBA", "buy", ""), ("XYZ", "buy", ""), ("CSL", "sell", ""), ("BHP", "FOO", "")])
    assert err.value.message == "Line 3: unknown asset code XYZ; Line 5: invalid action FOO"
    assert fr.snapshot() == before

    with pytest.raises(ValidationError) as err:  # a new hold needs a comment, in a file too
        _upload(w, "long_term", [("CBA", "hold", ""), ("CSL", "buy", "")])
    assert err.value.message == "Line 2: Please fill out the comment (hold CBA)"
    with pytest.raises(ValidationError) as err:  # replace: every line is new
        _upload(w, "long_term", [("BHP", "hold", "")], upload_type="replace")
    assert err.value.message == "Line 2: Please fill out the comment (hold BHP)"
    assert fr.snapshot() == before


def test_short_term_upload_amend_and_replace(w):
    old = fr.make_short_term(w.model_a, w.bhp, "BUY", "old", price="10")
    fr.make_short_term(w.model_a, w.cba, "SELL", "sell", yield_="2")
    result = _upload(w, "short_term", [("BHP", "acc", "more", "$12.50", "4.5%"), ("CSL", "SL/TSP", "", "300", ""),
                                       ("CBA", "HOLD", "", "", "")])
    assert result["message"] == "The file upload is now complete"
    assert fr.short_terms(w.model_a.id) == [("BHP", "ACC", "more", Decimal("12.5"), Decimal("4.5"), "active"),
                                            ("CSL", "SL/TSP", None, Decimal("300"), None, "active")]
    assert fr.short_terms(w.model_a.id, status="deleted") == [("CBA", "SELL", "sell", None, Decimal("2"), "deleted")]
    bhp = [r for r in recs.list_short_terms(actor=f.actor(w.world.admin_a), model_id=w.model_a.id)[0] if r["code"] == "BHP"][0]
    assert bhp["id"] == old.id  # amend updates the active one in place
    assert fm.model_row(w.model_a.id).analyst_recommendations_date is not None

    _upload(w, "short_term", [("CBA", "BUY", "", "", "")], upload_type="REPLACE")
    assert fr.short_terms(w.model_a.id) == [("CBA", "BUY", None, None, None, "active")]
    assert len(fr.short_terms(w.model_a.id, status="deleted")) == 3


def test_short_term_upload_bad_numbers_are_named(w):
    before = fr.snapshot()
    with pytest.raises(ValidationError) as err:
        _upload(w, "short_term", [("BHP", "BUY", "", "abc", ""), ("CBA", "BUY", "", "", "-2"), ("CSL", "", "", "", "")])
    assert err.value.message == ("Line 2: invalid price abc (Please, enter a valid number.); "
                                 "Line 3: invalid yield -2 (Please, enter positive value); Line 4: action is missing")
    assert fr.snapshot() == before


@pytest.mark.parametrize("content_type", ["image/png", "text/plain", "application/pdf", "application/json"])
def test_upload_type_checked_first(w, content_type):
    with pytest.raises(ValidationError) as err:
        _upload(w, "long_term", [], content_type=content_type, data=b"\x89PNG not a csv")
    assert err.value.message == "Invalid file type!"


@pytest.mark.parametrize("content_type", ["", None, "application/octet-stream", "application/vnd.ms-excel",
                                          "text/csv; charset=utf-8", "TEXT/CSV"])
def test_accepted_types(w, content_type):
    result = _upload(w, "long_term", [("CBA", "buy", "")], content_type=content_type)
    assert result["message"] == "The file upload is now complete"


def test_xlsx_upload(w):
    data = f.xlsx_bytes([("BHP", "BUY", "from excel", 12.5, 4), ("cba", "SELL", None, None, None)], ST_HEADER)
    _upload(w, "short_term", [], content_type=XLSX, data=data)
    assert fr.short_terms(w.model_a.id) == [("BHP", "BUY", "from excel", Decimal("12.5"), Decimal("4"), "active"),
                                            ("CBA", "SELL", None, None, None, "active")]


def test_file_level_problems(w):
    cases = [
        (b"", rules.FILE_EMPTY),
        (b"code,action,comment\r\n", rules.FILE_EMPTY),
        (b"ticker;whatever\nBHP;buy\n", "The header row must name the columns code, action, comment (missing: action)"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, rules.LEGACY_EXCEL),
        (b"PK\x03\x04 broken zip", rules.FILE_UNREADABLE),
        (b"a" * (rules.MAX_UPLOAD_BYTES + 1), rules.FILE_TOO_LARGE),
    ]
    for data, text in cases:
        with pytest.raises(ValidationError) as err:
            _upload(w, "long_term", [], data=data)
        assert err.value.message == text


def test_upload_needs_models_and_a_valid_type(w):
    with pytest.raises(ValidationError) as err:
        _upload(w, "long_term", [("BHP", "buy", "")], models=[])
    assert err.value.message == "Select at least one model"
    with pytest.raises(ValidationError) as err:
        _upload(w, "long_term", [("BHP", "buy", "")], upload_type="merge")
    assert err.value.fields == {"upload_type": v.DEFAULT}
    with pytest.raises(NotFound):
        _upload(w, "long_term", [("BHP", "buy", "")], models=["x"])


def test_bulk_upload_to_every_selected_model(w):
    result = _upload(w, "long_term", [("BHP", "buy", ""), ("CSL", "sell", "")], models=[w.model_a.id, str(w.model_a2.id)])
    assert result["message"] == "The file upload is now complete for all models"
    assert [(r["name"], r["success"]) for r in result["rows"]] == [("Alpha Growth", True), ("Alpha Income", True)]
    assert fr.long_terms(w.model_a.id) == fr.long_terms(w.model_a2.id) == [("BHP", "buy", None), ("CSL", "sell", None)]


def test_bulk_errors_for_some_models_name_the_model(w):
    """BOWN is firm B's own asset: fine for firm B's model, unknown for firm A's."""
    before = fr.snapshot()
    with pytest.raises(ValidationError) as err:
        _upload(w, "short_term", [("BOWN", "BUY", "", "", ""), ("NOPE", "BUY", "", "", "")], user=w.world.superuser,
                models=[w.model_b.id, w.model_a.id])
    assert err.value.message == ("Line 2: unknown asset code BOWN (model Alpha Growth); Line 3: unknown asset code NOPE")
    assert fr.snapshot() == before


def test_bulk_upload_one_transaction_per_model(w, monkeypatch):
    """A model that fails while being written keeps nothing; the others keep theirs."""
    real_apply = recs.typed._apply

    def failing(s, actor, kind, model, plan):
        real_apply(s, actor, kind, model, plan)
        if model.id == w.model_a2.id:
            raise ValidationError("disk full")

    monkeypatch.setattr(recs.typed, "_apply", failing)
    result = _upload(w, "short_term", [("BHP", "BUY", "", "", ""), ("CBA", "SELL", "", "", "")],
                     models=[w.model_a.id, w.model_a2.id])
    assert result["message"] == "The file upload was unsuccessful" and result["failed"] == 1
    assert result["rows"] == [
        {"model_id": w.model_a.id, "name": "Alpha Growth", "success": True, "message": "The file upload is now complete"},
        {"model_id": w.model_a2.id, "name": "Alpha Income", "success": False, "message": "disk full"},
    ]
    assert len(fr.short_terms(w.model_a.id)) == 2 and fr.short_terms(w.model_a2.id, status=None) == []
    assert fm.model_row(w.model_a2.id).analyst_recommendations_date is None
    # one model alone: the failure is the answer
    with pytest.raises(ValidationError):
        _upload(w, "short_term", [("CSL", "BUY", "", "", "")], models=[w.model_a2.id])


def test_upload_to_a_shared_model_needs_edit_rights(w):
    with pytest.raises(PermissionDenied):
        _upload(w, "long_term", [("BHP", "buy", "")], models=[w.model_a.id, w.shared_all.id])
    assert fr.long_terms(w.model_a.id) == []


# ---- bulk selection ----------------------------------------------------------------------------
def test_upload_candidates(w):
    no_str = fm.make_model(w.world.firm_a, name="Alpha No Analyst", analyst_recommendations=False)
    fm.make_model(w.world.firm_a, name="Alpha Deleted", deleted=True)
    admin_a = f.actor(w.world.admin_a)
    names = [m.name for m in recs.upload_candidates(actor=admin_a, kind="long_term")]
    assert names == ["Alpha Growth", "Alpha Income", "Alpha No Analyst"]  # not firm B's open model: cannot edit it
    names = [m.name for m in recs.upload_candidates(actor=admin_a, kind="short_term", firm_id=w.world.firm_b.id)]
    assert names == ["Alpha Growth", "Alpha Income"]  # the firm filter is the superuser's only
    su = f.actor(w.world.superuser)
    everything = recs.upload_candidates(actor=su, kind="long_term", firm_id="-2")
    assert [m.name for m in everything] == ["Alpha Growth", "Alpha Income", "Alpha No Analyst", "Bravo Balanced", "Bravo Open"]
    assert everything[0].firm == FirmRef(w.world.firm_a.id, "Alpha Advisory")
    assert [m.name for m in recs.upload_candidates(actor=su, kind="short_term", firm_id=str(w.world.firm_b.id))] == [
        "Bravo Balanced", "Bravo Open"]
    assert no_str.id


# ---- download ----------------------------------------------------------------------------------
def _csv_rows(data: bytes) -> list[list[str]]:
    assert data.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_export_long_terms(w):
    admin = f.actor(w.world.admin_a)
    with pytest.raises(ValidationError) as err:
        recs.export_csv(actor=admin, model_id=w.model_a.id, kind="long_term")
    assert err.value.message == "There are no recommendations to download"
    fr.make_long_term(w.model_a, w.cba, "sell", "=HYPERLINK(\"x\")")
    fr.make_long_term(w.model_a, w.bhp, "buy", "core, with comma")
    name, data = recs.export_csv(actor=admin, model_id=w.model_a.id, kind="long_term", client_offset="-600")
    assert name.startswith("Alpha Growth - Long Term Recommendations - ") and name.endswith(".csv")
    rows = _csv_rows(data)
    assert rows[0] == ["code", "name", "action", "comment", "updated"]
    assert [r[:4] for r in rows[1:]] == [["BHP", "BHP Group Limited", "buy", "core, with comma"],
                                         ["CBA", "Commonwealth Bank of Australia", "sell", "'=HYPERLINK(\"x\")"]]
    assert len(rows[1][4]) == len("31/12/2025 10:00")


def test_export_short_terms_round_trips_through_upload(w):
    fr.make_short_term(w.model_a, w.bhp, "FFL/SELL", "-5% drop", price="12.345", yield_="4.25")
    fr.make_short_term(w.model_a, w.cba, "HOLD", "keep")
    fr.make_short_term(w.model_a, w.csl, "BUY", status="deleted")
    before = fr.short_terms(w.model_a.id)
    name, data = recs.export_csv(actor=f.actor(w.world.adviser_a), model_id=w.model_a.id, kind="short_term")
    assert "Short Term Recommendations" in name
    rows = _csv_rows(data)
    assert rows[0] == ["code", "name", "action", "comment", "price", "yield", "updated"]
    assert [r[:6] for r in rows[1:]] == [["BHP", "BHP Group Limited", "FFL/SELL", "'-5% drop", "12.345", "4.25"],
                                         ["CBA", "Commonwealth Bank of Australia", "HOLD", "keep", "", ""]]
    _upload(w, "short_term", [], data=data)
    assert fr.short_terms(w.model_a.id) == before


# ---- fuzz: an upload either applies wholly or writes nothing ---------------------------------------
_codes = st.sampled_from(["BHP", "cba", "CSL", "XYZ", "", " bhp ", "BOWN", "B\u00e9P"])
_actions = st.sampled_from(["BUY", "buy", "HOLD", "SELL", "SL/TAP", "ffl/hold", "hold", "FOO", "", "sell "])
_texts = st.one_of(st.just(""), st.text(max_size=12))
_numbers = st.one_of(st.just(""), st.sampled_from(["1", "12.5", "-3", "abc", "1e3", "$4", "5%", "0", "0.0000001"]),
                     st.text(max_size=6))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["long_term", "short_term"]), mode=st.sampled_from(["amend", "replace", ""]),
       lines=st.lists(st.tuples(_codes, _actions, _texts, _numbers, _numbers), max_size=6))
def test_fuzzed_uploads_are_all_or_nothing(w, kind, mode, lines):
    header = LT_HEADER if kind == "long_term" else ST_HEADER
    fr.clear_recommendations([w.model_a.id, w.model_a2.id])  # every example starts from the same state
    rows = [row[: len(header)] for row in lines]
    data = f.csv_bytes(rows, header)
    before = fr.snapshot()
    try:
        result = recs.upload(actor=f.actor(w.world.admin_a), kind=kind, model_ids=[w.model_a.id, w.model_a2.id],
                             content_type=CSV, data=data, upload_type=mode)
    except ValidationError as exc:
        assert exc.message
        assert fr.snapshot() == before
        return
    assert result["message"] == "The file upload is now complete for all models"
    stored = fr.long_terms(w.model_a.id) if kind == "long_term" else [r[:3] for r in fr.short_terms(w.model_a.id)]
    for code, action, comment, *_ in (row for row in rows if any(cell.strip() for cell in row)):  # blank lines are skipped
        code = code.strip().upper()
        wanted = action.strip().lower() if kind == "long_term" else action.strip().upper()
        hold = wanted in ("hold", "HOLD") and not comment.strip()
        match = [r for r in stored if r[0] == code]
        if hold:
            assert match == []
        else:
            assert match == [(code, wanted, comment.strip() or None)]
