"""/api/long-terms* and /api/recommendations* over HTTP: envelope and list shape, the spec's
texts, multipart uploads, CSV download links with the token, permissions (401, 403, 404)."""
from __future__ import annotations

import csv
import io

import pytest

from tests import factories as f
from tests import factories_recommendations as fr
from tests.factories import XLSX
from tests.factories_recommendations import LT_HEADER, ST_HEADER


@pytest.fixture
def w(db):
    return fr.make_rec_world()


def _files(data: bytes, content_type: str = "text/csv", name: str = "recommendations.csv"):
    return {"file": (name, data, content_type)}


# ---- long-term ----------------------------------------------------------------------------------
def test_long_term_calls(client, w):
    h = f.headers(w.world.admin_a)
    created = f.ok_result(client.post("/api/long-terms", headers=h, json={
        "model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "buy", "comment": "core"}))
    assert created["asset"] == {"id": w.bhp.id, "code": "BHP", "name": "BHP Group Limited"}
    assert created["message"] == "Long Term Recommendation was added"

    result = f.ok_result(client.get("/api/long-terms", headers=h, params={"model_id": w.model_a.id}))
    assert result["totals"] == [{"count": 1}]
    row = result["rows"][0]
    assert set(row) == {"id", "model_id", "asset_id", "asset", "action", "comment", "is_new", "created_at", "updated_at"}

    body = f.failure(client.post("/api/long-terms", headers=h, json={"model_id": w.model_a.id, "asset_id": w.bhp.id,
                                                                     "action": "sell"}), 400)
    assert body["message"] == "ValidationError: Asset BHP already exists in Long Term Recommendations"
    body = f.failure(client.post("/api/long-terms", headers=h, json={"model_id": w.model_a.id, "asset_id": w.cba.id,
                                                                     "action": "hold"}), 400)
    assert body["message"] == "ValidationError: Please fill out the comment"
    assert body["errors"] == {"comment": "Please fill out the comment"}

    updated = f.ok_result(client.put(f"/api/long-terms/{row['id']}", headers=h, json={"action": "hold", "comment": "wait"}))
    assert (updated["action"], updated["comment"]) == ("hold", "wait")

    assert f.ok_result(client.delete(f"/api/long-terms/{row['id']}", headers=h)) == {"message": "Long Term Recommendation was deleted"}
    f.failure(client.delete(f"/api/long-terms/{row['id']}", headers=h), 404)


def test_long_terms_delete_all(client, w):
    h = f.headers(w.world.adviser_a)
    body = f.failure(client.delete("/api/long-terms-all", headers=h, params={"model_id": w.model_a.id}), 400)
    assert body["message"] == "ValidationError: There are no recommendations to remove"
    fr.make_long_term(w.model_a, w.bhp)
    result = f.ok_result(client.delete("/api/long-terms-all", headers=h, params={"model_id": w.model_a.id}))
    assert result == {"message": "All Long Term Recommendations are deleted.", "count": 1}


def test_long_terms_upload_multipart(client, w):
    h = f.headers(w.world.admin_a)
    data = f.csv_bytes([("BHP", "buy", "core"), ("CSL", "sell", "")], LT_HEADER)
    result = f.ok_result(client.post("/api/long-terms-upload", headers=h, files=_files(data),
                                     data={"model_ids[]": [str(w.model_a.id), str(w.model_a2.id)], "uploadType": "amend"}))
    assert result["message"] == "The file upload is now complete for all models"
    assert [(r["model_id"], r["success"]) for r in result["rows"]] == [(w.model_a.id, True), (w.model_a2.id, True)]
    assert fr.long_terms(w.model_a2.id) == [("BHP", "buy", "core"), ("CSL", "sell", None)]

    result = f.ok_result(client.post("/api/long-terms-upload", headers=h, files=_files(f.csv_bytes([("CBA", "buy", "")], LT_HEADER),
                                                                                       "application/vnd.ms-excel"),
                                     data={"model_ids[]": str(w.model_a.id), "uploadType": "replace"}))
    assert result["message"] == "The file upload is now complete"
    assert fr.long_terms(w.model_a.id) == [("CBA", "buy", None)]


def test_upload_failures(client, w):
    h = f.headers(w.world.admin_a)
    before = fr.snapshot()
    body = f.failure(client.post("/api/long-terms-upload", headers=h, files=_files(b"GIF89a", "image/gif", "x.gif"),
                                 data={"model_ids[]": str(w.model_a.id)}), 400)
    assert body["message"] == "ValidationError: Invalid file type!"
    data = f.csv_bytes([("BHP", "buy", ""), ("XYZ", "buy", ""), ("CBA", "FOO", "")], LT_HEADER)
    body = f.failure(client.post("/api/long-terms-upload", headers=h, files=_files(data),
                                 data={"model_ids[]": str(w.model_a.id)}), 400)
    assert body["message"] == "ValidationError: Line 3: unknown asset code XYZ; Line 4: invalid action FOO"
    body = f.failure(client.post("/api/long-terms-upload", headers=h, files=_files(f.csv_bytes([("BHP", "buy", "")], LT_HEADER))), 400)
    assert body["message"] == "ValidationError: Select at least one model"
    body = f.failure(client.post("/api/recommendations-upload", headers=h, data={"model_ids[]": str(w.model_a.id)}), 400)
    assert body["message"] == "ValidationError: Please, select file. "
    body = f.failure(client.post("/api/recommendations-upload", headers=h, json={"model_ids": [w.model_a.id]}), 400)
    assert body["message"] == "ValidationError: Please, select file. "
    assert fr.snapshot() == before


def test_long_terms_export_link(client, w):
    token = f.session_token(w.world.adviser_a)
    url = f"/api/long-terms/{w.model_a.id}/export-csv"
    body = f.failure(client.get(url, params={"token": f.ticket(token, url)}), 400)
    assert body["message"] == "ValidationError: There are no recommendations to download"
    fr.make_long_term(w.model_a, w.bhp, "buy", "core")
    response = client.get(url, params={"token": f.ticket(token, url), "client-timezone-offset": "-600"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    disposition = response.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="Alpha Growth - Long Term Recommendations - ')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["code", "name", "action", "comment"] and rows[1][:4] == ["BHP", "BHP Group Limited", "buy", "core"]
    f.failure(client.get(url), 401)


# ---- short-term ---------------------------------------------------------------------------------
def test_short_term_calls(client, w):
    h = f.headers(w.world.admin_a)
    created = f.ok_result(client.post("/api/recommendations", headers=h, json={
        "model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "BUY", "price": "12.5", "yield": "4.25", "comment": "go"}))
    assert (created["status"], created["price"], created["yield"], created["message"]) == ("active", "12.5", "4.25", "Recommendation was added")
    result = f.ok_result(client.get("/api/recommendations", headers=h, params={"model_id": w.model_a.id}))
    assert result["totals"] == [{"count": 1}]
    assert set(result["rows"][0]) == {"id", "asset_id", "code", "name", "action", "price", "yield", "comment", "status",
                                      "model_id", "is_new", "model_asset", "created_at", "updated_at"}

    body = f.failure(client.post("/api/recommendations", headers=h, json={
        "model_id": w.model_a.id, "asset_id": w.cba.id, "action": "BUY", "price": "abc"}), 400)
    assert body["errors"] == {"price": "Please, enter a valid number. "}

    updated = f.ok_result(client.put(f"/api/recommendations/{created['id']}", headers=h, json={"yield": "5"}))
    assert (updated["yield"], updated["price"], updated["message"]) == ("5", "12.5", "Recommendation was updated")
    gone = f.ok_result(client.put(f"/api/recommendations/{created['id']}", headers=h, json={"action": "HOLD", "comment": ""}))
    assert gone["deleted"] is True and gone["message"] == "Recommendation was deleted"
    assert f.ok_result(client.get("/api/recommendations", headers=h, params={"model_id": w.model_a.id}))["rows"] == []


def test_mark_as_deleted(client, w):
    h = f.headers(w.world.admin_a)
    a = fr.make_short_term(w.model_a, w.bhp)
    b = fr.make_short_term(w.model_a, w.cba)
    c = fr.make_short_term(w.model_a, w.csl)
    result = f.ok_result(client.put("/api/recommendations-mark-as-deleted", headers=h, json={"id": [a.id, b.id]}))
    assert result == {"message": "All recommendations was deleted", "count": 2}
    result = f.ok_result(client.put(f"/api/recommendations-mark-as-deleted?id[]={c.id}", headers=h))
    assert result == {"message": "Recommendation was deleted", "count": 1}
    body = f.failure(client.put("/api/recommendations-mark-as-deleted", headers=h, json={"id": []}), 400)
    assert body["message"] == "ValidationError: There are no recommendations to remove"


def test_short_terms_upload_and_export(client, w):
    h = f.headers(w.world.admin_a)
    data = f.xlsx_bytes([("BHP", "FFL/SELL", "urgent", 40.1, 3.5)], ST_HEADER)
    result = f.ok_result(client.post("/api/recommendations-upload", headers=h, files=_files(data, XLSX, "recs.xlsx"),
                                     data={"model_ids[]": str(w.model_a.id), "upload_type": "replace"}))
    assert result["message"] == "The file upload is now complete"
    url = f"/api/recommendations/{w.model_a.id}/export-csv"
    response = client.get(url, params={"token": f.ticket(f.session_token(w.world.admin_a), url)})
    assert response.status_code == 200 and "Short Term Recommendations" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[1][:6] == ["BHP", "BHP Group Limited", "FFL/SELL", "urgent", "40.1", "3.5"]


# ---- permissions ---------------------------------------------------------------------------------
def test_clients_get_403_and_other_firms_404(client, w):
    lt_b = fr.make_long_term(w.model_b, w.bhp)
    st_b = fr.make_short_term(w.model_b, w.bhp)
    hc = f.headers(w.world.client_a)
    for method, url, kwargs in [
        ("get", "/api/long-terms", {"params": {"model_id": w.model_a.id}}),
        ("get", "/api/recommendations", {"params": {"model_id": w.model_a.id}}),
        ("post", "/api/long-terms", {"json": {"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "buy"}}),
        ("post", "/api/recommendations", {"json": {"model_id": w.model_a.id, "asset_id": w.bhp.id, "action": "BUY"}}),
        ("delete", "/api/long-terms-all", {"params": {"model_id": w.model_a.id}}),
        ("get", f"/api/long-terms/{w.model_a.id}/export-csv", {}),
        ("post", "/api/long-terms-upload", {"files": _files(f.csv_bytes([("BHP", "buy", "")], LT_HEADER)),
                                            "data": {"model_ids[]": str(w.model_a.id)}}),
    ]:
        body = f.failure(getattr(client, method)(url, headers=hc, **kwargs), 403)
        assert body["message"] == "PermissionError: You are not allowed to perform this action"

    ha = f.headers(w.world.admin_a)
    assert f.failure(client.get("/api/long-terms", headers=ha, params={"model_id": w.model_b.id}), 404)["message"] == \
        "NotFoundError: Model not found"
    f.failure(client.get("/api/recommendations", headers=ha, params={"model_id": w.model_b.id}), 404)
    f.failure(client.put(f"/api/long-terms/{lt_b.id}", headers=ha, json={"action": "sell"}), 404)
    f.failure(client.delete(f"/api/long-terms/{lt_b.id}", headers=ha), 404)
    f.failure(client.put(f"/api/recommendations/{st_b.id}", headers=ha, json={"action": "SELL"}), 404)
    f.failure(client.put("/api/recommendations-mark-as-deleted", headers=ha, json={"id": [st_b.id]}), 404)
    f.failure(client.get(f"/api/recommendations/{w.model_b.id}/export-csv", headers=ha), 404)
    f.failure(client.post("/api/recommendations-upload", headers=ha, files=_files(f.csv_bytes([("BHP", "BUY")], ("code", "action"))),
                          data={"model_ids[]": str(w.model_b.id)}), 404)
    # a model shared with everyone: read yes, write no
    assert f.ok_result(client.get("/api/long-terms", headers=ha, params={"model_id": w.shared_all.id}))["rows"] == []
    f.failure(client.post("/api/long-terms", headers=ha, json={"model_id": w.shared_all.id, "asset_id": w.bhp.id,
                                                               "action": "buy"}), 403)
    assert fr.long_terms(w.model_b.id) == [("BHP", "buy", None)] and len(fr.short_terms(w.model_b.id)) == 1
    f.failure(client.get("/api/long-terms", params={"model_id": w.model_a.id}), 401)
