"""Recommendations end to end, as the Harbour administrator on one of the firm's models: a new
long-term hold without a comment is refused ('Please fill out the comment'), a buy is saved; a
short-term CSV with an unknown code is refused naming the code and changes nothing; a good file is
applied ('The file upload is now complete'); the CSV downloads return the rows. Then the superuser's
bulk upload of long-term recommendations: the firm filter and the firm column, Upload with nothing
selected asks for a model, and a file uploaded to the selected model is applied and reported."""
from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import uuid

from playwright.sync_api import Page, expect

from app.domain.recommendations import SELECT_MODEL, SELECT_MODEL_TOAST, UPLOAD_DONE

ADMIN = "admin@harbour.example.com"
SUPERUSER = "superuser@example.com"
PASSWORD = "Demo1234"
TIMEOUT = 30_000


# ---- the REST API of the app under test (setup and checks) -------------------------------------------
def _call(base: str, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"content-type": "application/json", **({"x-token": token} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def _token(base: str, email: str) -> str:
    status, body = _call(base, "POST", "/api/signin", body={"email": email, "password": PASSWORD})
    assert status == 200, body
    return body["result"]["token"]


def _asset(base: str, admin: str, superuser: str, code: str, name: str) -> dict:
    """A listed asset by code: the demo universe's, else one made by the superuser."""
    status, body = _call(base, "GET", f"/api/assets-by-code/{code}", admin)
    if status == 200:
        return body["result"]
    _, classes = _call(base, "GET", "/api/asset-classes", superuser)
    rows = classes["result"]["rows"]
    class_id = next((c["id"] for c in rows if not c.get("is_cash")), rows[0]["id"])
    status, body = _call(base, "POST", "/api/assets", superuser, {"code": code, "name": name, "class_id": class_id})
    assert status == 200, body
    return body["result"]


def _model(base: str, admin: str) -> dict:
    """One of Harbour's models the administrator may edit (a demo model), else a new draft; its
    recommendations are cleared so the test starts from none."""
    status, body = _call(base, "GET", "/api/models?recommendations_upload=1&limit=100", admin)
    rows = [m for m in body["result"]["rows"] if m.get("analyst_recommendations", True)] if status == 200 else []
    if rows:
        model = rows[0]
    else:
        status, body = _call(base, "POST", "/api/models", admin, {
            "name": f"E2E Recommendations {uuid.uuid4().hex[:6]}", "status": "draft",
            "allocation_method": "equal_amounts", "analyst_recommendations": True})
        assert status == 200, body
        model = body["result"]
    _call(base, "DELETE", f"/api/long-terms-all?model_id={model['id']}", admin)
    _, listed = _call(base, "GET", f"/api/recommendations?model_id={model['id']}", admin)
    ids = [r["id"] for r in listed["result"]["rows"]]
    if ids:
        _call(base, "PUT", "/api/recommendations-mark-as-deleted", admin, {"id": ids})
    return model


def _short_terms(base: str, token: str, model_id: int) -> list[tuple[str, str]]:
    _, body = _call(base, "GET", f"/api/recommendations?model_id={model_id}", token)
    return [(r["code"], r["action"]) for r in body["result"]["rows"]]


def _firm_models(base: str, token: str, firm_id: int) -> list[dict]:
    """The firm's models a long-term upload may go to, as the API lists them."""
    _, body = _call(base, "GET", f"/api/models?recommendations_upload=1&firmId={firm_id}&limit=1000", token)
    return body["result"]["rows"]


def _upload(page: Page, name: str, data: bytes) -> None:
    page.locator("#rec-upload-open").click()
    expect(page.locator("#upload-type-amend")).to_be_visible(timeout=TIMEOUT)
    page.locator("#rec-upload input[type=file]").set_input_files(files=[{"name": name, "mimeType": "text/csv", "buffer": data}])
    expect(page.locator("#upload-file-name")).to_have_text(name, timeout=TIMEOUT)
    page.locator("#upload-confirm").click()


def test_long_and_short_term_recommendations(page: Page, login, app_server) -> None:
    base = app_server.url
    admin_token, su_token = _token(base, ADMIN), _token(base, SUPERUSER)
    bhp = _asset(base, admin_token, su_token, "BHP", "BHP Group Limited")
    cba = _asset(base, admin_token, su_token, "CBA", "Commonwealth Bank of Australia")
    model = _model(base, admin_token)
    login(page, ADMIN)

    # ---- long-term: a new hold needs a comment; a buy is saved ----------------------------------------
    page.goto(f"/models/{model['id']}/long-term-recommendations")
    expect(page.locator("#page-title")).to_have_text("Long Term Recommendations", timeout=TIMEOUT)
    expect(page.locator("#breadcrumbs")).to_contain_text(model["name"], timeout=TIMEOUT)
    page.locator("#rec-add").click()
    code = page.locator("#rec-code-n1")
    expect(code).to_be_visible(timeout=TIMEOUT)
    code.fill("bhp")
    code.blur()
    expect(page.locator(".rec-asset-name")).to_have_text(bhp["name"], timeout=TIMEOUT)
    page.locator("#rec-action-n1").click()
    page.get_by_role("option", name="Hold", exact=True).click()
    page.locator("#rec-save-n1").click()
    expect(page.locator("#rec-comment-error-n1")).to_have_text("Please fill out the comment", timeout=TIMEOUT)

    page.locator("#rec-action-n1").click()
    page.get_by_role("option", name="Buy", exact=True).click()
    page.locator("#rec-save-n1").click()
    expect(page.get_by_text("Long Term Recommendation was added")).to_be_visible(timeout=TIMEOUT)
    saved = page.locator(".rec-row").filter(has_text=bhp["name"])
    expect(saved).to_have_count(1, timeout=TIMEOUT)
    expect(saved.locator(".rec-action")).to_have_text("BUY")
    _, listed = _call(base, "GET", f"/api/long-terms?model_id={model['id']}", admin_token)
    assert [(r["asset"]["code"], r["action"]) for r in listed["result"]["rows"]] == [("BHP", "buy")]

    expect(page.locator("#rec-download")).to_be_visible(timeout=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#rec-download").click()
    assert download.value.suggested_filename.endswith(".csv")
    text = open(download.value.path(), encoding="utf-8-sig").read()
    assert text.splitlines()[0] == "code,name,action,comment,updated"
    assert text.splitlines()[1].startswith(f"BHP,{bhp['name']},buy,")

    # ---- short-term: a file with an unknown code changes nothing ----------------------------------------
    page.goto(f"/models/{model['id']}/short-term-recommendations")
    expect(page.locator("#page-title")).to_have_text("Short Term Recommendations", timeout=TIMEOUT)
    expect(page.locator("#rec-count")).to_have_text("0 recommendations", timeout=TIMEOUT)
    _upload(page, "bad.csv", b"code,action,comment,price,yield\nBHP,BUY,,45.10,4.2\nZZNOPE9,SELL,,,\n")
    expect(page.locator("#upload-failure-title")).to_have_text("The file upload was unsuccessful", timeout=TIMEOUT)
    expect(page.locator("#upload-failure-message")).to_have_text("Line 3: unknown asset code ZZNOPE9", timeout=TIMEOUT)
    page.locator("#upload-failure-ok").click()
    assert _short_terms(base, admin_token, model["id"]) == []
    expect(page.locator(".rec-row")).to_have_count(0)

    # ---- a good file is applied ------------------------------------------------------------------------
    _upload(page, "good.csv", b"code,action,comment,price,yield\nbhp,acc,,45.10,4.2\nCBA,FFL/SELL,take profit,160,\n")
    expect(page.get_by_text("The file upload is now complete")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".rec-row")).to_have_count(2, timeout=TIMEOUT)
    expect(page.locator(".rec-row").filter(has_text=cba["name"])).to_contain_text("$160.00")
    assert _short_terms(base, admin_token, model["id"]) == [("BHP", "ACC"), ("CBA", "FFL/SELL")]

    # the upload's toast lies over the page's top-right actions until it goes, and it waits while the
    # pointer is over it: move away and let it go before using Download
    page.mouse.move(0, 0)
    expect(page.get_by_text("The file upload is now complete")).to_be_hidden(timeout=TIMEOUT)
    expect(page.locator("#rec-download")).to_be_visible(timeout=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as download:
        page.locator("#rec-download").click()
    assert re.search(r"Short Term Recommendations - \d{2}-\d{2}-\d{4}\.csv$", download.value.suggested_filename)
    lines = open(download.value.path(), encoding="utf-8-sig").read().splitlines()
    assert lines[0] == "code,name,action,comment,price,yield,updated"
    assert [line.split(",")[0] for line in lines[1:]] == ["BHP", "CBA"]
    assert lines[2].startswith(f"CBA,{cba['name']},FFL/SELL,take profit,160,,")


def test_superuser_bulk_uploads_long_term_recommendations(page: Page, login, app_server) -> None:
    base = app_server.url
    admin_token, su_token = _token(base, ADMIN), _token(base, SUPERUSER)
    _asset(base, admin_token, su_token, "BHP", "BHP Group Limited")
    model = _model(base, admin_token)
    login(page, SUPERUSER)

    page.goto("/models/bulk/long-term-recommendations")
    expect(page.locator("#page-title")).to_have_text("Upload Long Term Recommendations", timeout=TIMEOUT)
    row = page.locator(f".bulk-model-row[data-id='{model['id']}']")
    expect(row).to_have_attribute("data-selected", "false", timeout=TIMEOUT)

    # only the superuser filters by firm; the firm's models are listed with their firm
    page.locator("#bulk-firm-filter").click(timeout=TIMEOUT)
    page.get_by_role("option", name=model["firm"]["name"], exact=True).click()
    expect(row).to_contain_text(model["firm"]["name"], timeout=TIMEOUT)
    expect(page.locator(".bulk-model-row")).to_have_count(len(_firm_models(base, su_token, model["firm"]["id"])))

    # Upload asks for a model first
    page.locator("#bulk-upload").click()
    expect(page.get_by_text(SELECT_MODEL_TOAST).first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#select-error")).to_have_text(SELECT_MODEL)
    row.click()
    expect(row).to_have_attribute("data-selected", "true", timeout=TIMEOUT)
    expect(page.locator("#select-error")).to_have_count(0)
    expect(page.locator("#bulk-selected")).to_contain_text("1 of")

    page.locator("#bulk-upload").click()
    expect(page.locator("#upload-type-amend")).to_be_visible(timeout=TIMEOUT)
    page.locator("#bulk-upload-file input[type=file]").set_input_files(
        files=[{"name": "long.csv", "mimeType": "text/csv", "buffer": b"code,action,comment\nbhp,buy,\n"}])
    expect(page.locator("#upload-file-name")).to_have_text("long.csv", timeout=TIMEOUT)
    page.locator("#upload-confirm").click()
    expect(page.locator("#bulk-results-title")).to_have_text(UPLOAD_DONE, timeout=TIMEOUT)
    expect(page.locator(".bulk-result")).to_have_count(1)
    expect(page.locator(".bulk-result")).to_contain_text(model["name"])
    page.locator("#bulk-results-close").click()
    _, listed = _call(base, "GET", f"/api/long-terms?model_id={model['id']}", admin_token)
    assert [(r["asset"]["code"], r["action"]) for r in listed["result"]["rows"]] == [("BHP", "buy")]
