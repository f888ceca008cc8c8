"""Every upload of the REST API, fuzzed: spreadsheets (transactions, long- and short-term
recommendations, asset prices, the broker's execution file) and images (photos, signatures, the
default logo, firm logos), each sent by a user who may upload there.

Each hostile file (a wrong type, an empty or oversize file, CSV that is truncated, badly encoded,
NUL-ridden, ragged or holds a huge field, .xlsx that is random bytes, a zip that is no workbook,
a zip bomb whose sheet XML unpacks to hundreds of MB, XML entity expansion, images that are not
images or that decode to a giant bitmap) must be refused cleanly:

- a 400 with the product's failure envelope {"success": false, "message": "ValidationError: ..."}
  (never a 500, and never 401/403/404: the user may upload there, so the file itself is refused);
- within REQUEST_SECONDS;
- and nothing written: every table (row counts and a hash of the rows, as the access matrix
  reads them) and the stored files are the same before and after.

A good file is taken by each route (so the refusals are about the file, not the user). The
property-based part (hypothesis, derandomized, a bounded number of examples) sends generated
CSV and bytes to the spreadsheet routes: any answer is a 200 or a clean 400, a 400 writes
nothing, and an example that was taken is followed by a freshly built world.
"""
from __future__ import annotations

import io
import random
import time
import zipfile
import zlib
import struct
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any, Callable

import hypothesis
import pytest
from hypothesis import HealthCheck, strategies as st

from app.domain import prices as price_rules
from app.domain import recommendations as recommendation_rules
from app.domain import validators
from app.jobs import runner
from app.services import orders, transaction_upload
from app.settings import settings
from tests import factories as f
from tests.api.test_access_matrix import snapshot
from tests.conftest import _empty_all_tables, _forget_cached_models

REQUEST_SECONDS = 20  # generous for two shared cores; a guarded parser answers in well under a second
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv"
BOMB_BYTES = 300 * 1024 * 1024  # what the zip bombs' sheet XML unpacks to
UNDER_LIMIT = 60 * 1024 * 1024  # just under app.domain.workbooks.MAX_UNPACKED_BYTES: the other guards must hold


# ---- files ----------------------------------------------------------------------------------------
def png(size: tuple[int, int] = (8, 8)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, (30, 120, 200)).save(buffer, format="PNG")
    return buffer.getvalue()


def jpeg() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 20, 20)).save(buffer, format="JPEG")
    return buffer.getvalue()


def workbook(rows: list[list[Any]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    for row in rows:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _rezip(source: bytes, replace: dict[str, Callable[[Any], None]]) -> bytes:
    """The workbook `source` with the parts named in `replace` written by their writers (each gets
    a writable member of the new zip), the other parts copied."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as old, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename in replace:
                continue
            new.writestr(info, old.read(info.filename))
        for name, writer in replace.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with new.open(info, "w", force_zip64=True) as member:
                writer(member)
    return out.getvalue()


def _repeat(head: bytes, unit: bytes, total: int, tail: bytes) -> Callable[[Any], None]:
    def write(member) -> None:
        member.write(head)
        block = unit * (1024 * 1024 // len(unit))
        for _ in range(total // len(block)):
            member.write(block)
        member.write(tail)
    return write


_SHEET_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
_SHEET_TAIL = b"</sheetData></worksheet>"

_BOMBS: dict[str, bytes] = {}


def bomb(kind: str, unpacked: int = BOMB_BYTES) -> bytes:
    """A small .xlsx whose sheet (or shared strings) XML unpacks to `unpacked` bytes: one giant
    cell, an endless run of rows, or a giant shared string. Built once per kind and size."""
    key = f"{kind}:{unpacked}"
    if key not in _BOMBS:
        base = workbook([["code", "action", "comment"], ["BHP", "buy", "x"]])
        sheet = "xl/worksheets/sheet1.xml"
        if kind == "cell":
            parts = {sheet: _repeat(_SHEET_HEAD + b'<row r="1"><c r="A1" t="inlineStr"><is><t>', b"A" * 64, unpacked,
                                    b"</t></is></c></row>" + _SHEET_TAIL)}
        elif kind == "rows":
            parts = {sheet: _repeat(_SHEET_HEAD, b'<row><c t="inlineStr"><is><t>BHP</t></is></c></row>', unpacked,
                                    _SHEET_TAIL)}
        else:  # shared strings
            parts = {"xl/sharedStrings.xml": _repeat(
                b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
                b'2006/main" count="1" uniqueCount="1"><si><t>', b"B" * 64, unpacked, b"</t></si></sst>")}
        _BOMBS[key] = _rezip(base, parts)
    return _BOMBS[key]


def laughs() -> bytes:
    """A workbook whose sheet XML expands entities a billion times (a few hundred bytes on disk)."""
    entities = b'<!ENTITY a0 "lol">' + b"".join(
        b'<!ENTITY a%d "%s">' % (i, b"".join(b"&a%d;" % (i - 1) for _ in range(10))) for i in range(1, 10))
    sheet = (b'<?xml version="1.0"?><!DOCTYPE worksheet [' + entities + b']>'
             b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             b'<row r="1"><c r="A1" t="inlineStr"><is><t>&a9;</t></is></c></row>' + _SHEET_TAIL)
    return _rezip(workbook([["x"]]), {"xl/worksheets/sheet1.xml": lambda m: m.write(sheet)})


def zip_of(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


def png_claiming(width: int, height: int) -> bytes:
    """A PNG whose header claims width x height pixels (a decompression bomb's header), with a
    tiny, valid, zlib stream of zeros that does not hold them."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 4096, 9))
            + chunk(b"IEND", b""))


def _noise(n: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(n)


def _sized(header: str, line: str, size: int) -> bytes:
    """A well-formed CSV of exactly `size` bytes."""
    text = (header + "\n").encode()
    row = (line + "\n").encode()
    text += row * ((size - len(text)) // len(row) + 1)
    return text[:size]


# ---- the routes ------------------------------------------------------------------------------------
@dataclass
class Route:
    name: str
    path: str
    role: str
    field: str
    kind: str  # "sheet" or "image"
    limit: int  # bytes: one more is refused
    header: str = ""
    good_line: str = ""
    form: Callable[[Any], dict[str, str]] = field(default=lambda ids: {})
    good: Callable[[Any], bytes] | None = None

    def url(self, ids) -> str:
        return self.path.format(**ids)


SHEETS = [
    Route("transactions", "/api/transactions/upload", "adviser", "file", "sheet", transaction_upload.MAX_UPLOAD_BYTES,
          "date,type,code,quantity,price,fee", "2026-01-07,buy,BHP,1,40,0",
          form=lambda ids: {"investment_id": ids["investment_id"]}),
    Route("long-terms", "/api/long-terms-upload", "administrator", "file", "sheet", recommendation_rules.MAX_UPLOAD_BYTES,
          "code,action,comment", "BHP,buy,fuzz",
          form=lambda ids: {"model_ids[]": ids["model_id"], "uploadType": "amend"}),
    Route("short-terms", "/api/recommendations-upload", "administrator", "file", "sheet",
          recommendation_rules.MAX_UPLOAD_BYTES, "code,action,comment,price,yield", "BHP,BUY,fuzz,,",
          form=lambda ids: {"model_ids[]": ids["model_id"], "upload_type": "amend"}),
    Route("prices", "/api/asset-prices-upload", "superuser", "file", "sheet", price_rules.MAX_FILE_BYTES,
          "code,date,close", "BHP,2026-01-05,41.00"),
    Route("executions", "/api/orders/confirmations-upload", "adviser", "file", "sheet", orders.MAX_UPLOAD_BYTES,
          "code,side,quantity,price,brokerage,trade_date,settlement_date,account",
          "BHP,BUY,5,40,10,2026-01-07,2026-01-09,FUZZ1"),
]
IMAGES = [
    Route("my photo", "/api/me-photo-upload", "adviser", "file", "image", validators.MAX_IMAGE_BYTES - 1),
    Route("my signature", "/api/me-signature-upload", "adviser", "signature", "image", validators.MAX_IMAGE_BYTES - 1),
    Route("default logo", "/api/logo", "superuser", "file", "image", validators.MAX_IMAGE_BYTES - 1),
    Route("user photo", "/api/users-photo-upload/{user_id}", "administrator", "file", "image",
          validators.MAX_IMAGE_BYTES - 1),
    Route("user signature", "/api/users-signature/{user_id}", "administrator", "signature", "image",
          validators.MAX_IMAGE_BYTES - 1),
    Route("firm logo", "/api/firms-logo-upload/{firm_id}", "superuser", "file", "image", validators.MAX_IMAGE_BYTES - 1),
]
ROUTES = SHEETS + IMAGES

INVALID_TYPE = "Invalid file type!"


@dataclass
class Case:
    name: str
    upload: Callable[[Route], tuple[str, bytes, str] | None]  # (file name, bytes, content type); None: no file part
    text: str | None = None  # the message the refusal must show, where one text is the contract
    only: str | None = None  # "sheet" or "image": the routes it applies to


def _csv(body: Callable[[Route], bytes], name: str = "fuzz.csv", ctype: str = CSV):
    return lambda r: (name, body(r), ctype)


SHEET_CASES = [
    Case("executable", lambda r: ("report.exe", b"MZ\x90\x00" + bytes(200), "application/x-msdownload"), INVALID_TYPE),
    Case("image", lambda r: ("chart.png", png(), "image/png"), INVALID_TYPE),
    Case("html", lambda r: ("page.html", b"<html><script>alert(1)</script></html>", "text/html"), INVALID_TYPE),
    Case("pdf", lambda r: ("report.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "application/pdf"), INVALID_TYPE),
    Case("no file part", lambda r: None),
    Case("empty", _csv(lambda r: b"")),
    Case("blank lines", _csv(lambda r: b"\r\n \r\n\t\r\n")),
    Case("one byte over the limit", _csv(lambda r: _sized(r.header, r.good_line, r.limit + 1))),
    Case("far over the limit", _csv(lambda r: _sized(r.header, r.good_line, r.limit * 2))),
    Case("header only", _csv(lambda r: (r.header + "\n").encode())),
    Case("no header", _csv(lambda r: (r.good_line + "\n").encode())),
    Case("utf-16", _csv(lambda r: (r.header + "\n" + r.good_line + "\n").encode("utf-16"))),
    Case("NUL bytes", _csv(lambda r: (r.header + "\n").encode() + r.good_line.encode().replace(b",", b"\x00,") + b"\n")),
    Case("undecodable bytes", _csv(lambda r: (r.header + "\n").encode() + b"\xff\xfe\xfd,\x80\x81,\xc3\x28,\xa0\n")),
    Case("random bytes", _csv(lambda r: _noise(4096, 1))),
    Case("random bytes without a type", lambda r: ("blob", _noise(2048, 2), "")),
    Case("ragged rows", _csv(lambda r: (r.header + "\nBHP\n" + ",".join(["x"] * 60) + "\n,,,\n\"\"\n").encode())),
    Case("unterminated quote", _csv(lambda r: (r.header + '\n"BHP,buy,' + "x" * 50 + "\n").encode())),
    Case("huge field", _csv(lambda r: (r.header + "\n" + "A" * 400_000 + "," + r.good_line + "\n").encode())),
    Case("huge quoted field", _csv(lambda r: (r.header + '\n"' + "x\n" * 200_000 + '",1\n').encode())),
    Case("huge header", _csv(lambda r: (",".join(f"c{i}" for i in range(50_000)) + "\n" + r.good_line + "\n").encode())),
    Case("random bytes named .xlsx", lambda r: ("book.xlsx", _noise(4096, 3), XLSX)),
    Case("zip magic and random bytes", lambda r: ("book.xlsx", b"PK\x03\x04" + _noise(4096, 4), XLSX)),
    Case("zip that is no workbook", lambda r: ("book.xlsx", zip_of({"hello.txt": b"hello"}), XLSX)),
    Case("workbook parts with broken XML", lambda r: ("book.xlsx", zip_of({
        "[Content_Types].xml": b"<Types", "xl/workbook.xml": b"<workbook><sheets><sheet", "_rels/.rels": b"\x00\x01"}),
        XLSX)),
    Case("truncated workbook", lambda r: ("book.xlsx", workbook([[r.header], [r.good_line]])[:1500], XLSX)),
    Case("Excel 97-2003", lambda r: ("book.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4096),
                                     "application/vnd.ms-excel")),
    Case("zip bomb: one giant cell", lambda r: ("book.xlsx", bomb("cell"), XLSX)),
    Case("zip bomb: endless rows", lambda r: ("book.xlsx", bomb("rows"), XLSX)),
    Case("zip bomb: giant shared string", lambda r: ("book.xlsx", bomb("strings"), XLSX)),
    Case("zip bomb: rows, under the unpacked limit", lambda r: ("book.xlsx", bomb("rows", UNDER_LIMIT), XLSX)),
    Case("zip bomb: one cell, under the unpacked limit", lambda r: ("book.xlsx", bomb("cell", UNDER_LIMIT), XLSX)),
    Case("billion laughs", lambda r: ("book.xlsx", laughs(), XLSX)),
]

IMAGE_FORMAT, IMAGE_SIZE = validators.IMAGE_FORMAT, validators.IMAGE_SIZE
IMAGE_CASES = [
    Case("empty", lambda r: ("photo.png", b"", "image/png"), IMAGE_FORMAT),
    Case("text named .png", lambda r: ("photo.png", b"hello, I am no picture", "image/png"), IMAGE_FORMAT),
    Case("svg with a script", lambda r: ("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
                                         "image/svg+xml"), IMAGE_FORMAT),
    Case("html named .jpg", lambda r: ("photo.jpg", b"<html><body>hi</body></html>", "image/jpeg"), IMAGE_FORMAT),
    Case("csv", lambda r: ("photo.csv", b"code,action\nBHP,buy\n", CSV), IMAGE_FORMAT),
    Case("zip named .png", lambda r: ("photo.png", zip_of({"a.txt": b"a"}), "image/png"), IMAGE_FORMAT),
    Case("PNG signature then garbage", lambda r: ("photo.png", b"\x89PNG\r\n\x1a\n" + _noise(3000, 5), "image/png"),
         IMAGE_FORMAT),
    Case("truncated PNG", lambda r: ("photo.png", png((64, 64))[:60], "image/png"), IMAGE_FORMAT),
    Case("JPEG signature then garbage", lambda r: ("photo.jpg", b"\xff\xd8\xff\xe0" + _noise(3000, 6), "image/jpeg"),
         IMAGE_FORMAT),
    Case("truncated JPEG", lambda r: ("photo.jpg", jpeg()[:200], "image/jpeg"), IMAGE_FORMAT),
    Case("GIF signature only", lambda r: ("photo.gif", b"GIF89a", "image/gif"), IMAGE_FORMAT),
    Case("BMP header then garbage", lambda r: ("photo.bmp", b"BM" + bytes(12) + b"\x28\x00\x00\x00" + _noise(500, 7),
                                               "image/bmp"), IMAGE_FORMAT),
    Case("random bytes", lambda r: ("photo.png", _noise(8192, 8), "image/png"), IMAGE_FORMAT),
    Case("pixel bomb", lambda r: ("photo.png", png_claiming(60_000, 60_000), "image/png")),
    Case("at the limit", lambda r: ("photo.png", png() + b"\0" * (r.limit + 1 - len(png())), "image/png"), IMAGE_SIZE),
    Case("far over the limit", lambda r: ("photo.png", png() + b"\0" * (3 * r.limit), "image/png"), IMAGE_SIZE),
    Case("no file part", lambda r: None),
]

GOOD_FILES = {
    "transactions": lambda: ("t.csv", b"date,type,code,quantity,price,fee\n2026-01-07,buy,BHP,1,40,0\n", CSV),
    "long-terms": lambda: ("l.csv", b"code,action,comment\nBHP,buy,good\n", CSV),
    "short-terms": lambda: ("s.csv", b"code,action,comment,price,yield\nBHP,BUY,good,,\n", CSV),
    "prices": lambda: ("p.csv", b"code,date,close\nBHP,2026-01-05,41.00\n", CSV),
    "executions": None,  # no placed order in this world: a well-formed file is refused line by line (400)
}


# ---- the world -----------------------------------------------------------------------------------------
def _build() -> dict[str, Any]:
    from tests.factories_models import make_model, make_universe
    from tests.factories_portfolios import make_portfolio

    w = f.make_world()
    u = make_universe()
    model = make_model(f.actor(w.admin_a), u)
    p = make_portfolio(w.firm_a, holders=[w.client_a], adviser=w.adviser_a, model=model["id"], name="Upload Family")
    ids = {"investment_id": str(p.id), "model_id": str(model["id"]), "user_id": str(w.client_a.id),
           "firm_id": str(w.firm_a.id)}
    tokens = {"superuser": f.session_token(w.superuser), "administrator": f.session_token(w.admin_a),
              "adviser": f.session_token(w.adviser_a)}
    return {"ids": ids, "tokens": tokens, "code": u.stocks[0].code}


class World:
    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.dirty = False
        self._reset()

    def _reset(self) -> None:
        import shutil

        from app.db import get_engine

        runner.wait_in_process()
        _empty_all_tables(get_engine())
        _forget_cached_models()
        shutil.rmtree(self.data_dir / "files", ignore_errors=True)
        self.state = _build()
        self.dirty = False

    def clean(self) -> dict[str, Any]:
        if self.dirty:
            self._reset()
        return self.state


@pytest.fixture(scope="module")
def world(database_url, data_dir):
    from app.db import get_engine

    previous = settings.redis_url
    settings.redis_url = ""
    try:
        yield World(data_dir)
    finally:
        runner.wait_in_process()
        _empty_all_tables(get_engine())
        _forget_cached_models()
        settings.redis_url = previous


@pytest.fixture(scope="module")
def http():
    from fastapi.testclient import TestClient

    from app.api.main import create_api

    return TestClient(create_api(), raise_server_exceptions=False)


def _files_of(data_dir) -> list[str]:
    folder = data_dir / "files"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="upload-fuzz")


def send(http, world: World, route: Route, upload: tuple[str, bytes, str] | None, *, streamed: bool = False):
    """The upload as the route's permitted user, bounded in time; (response, seconds, changed tables).
    streamed: the multipart body is sent as a stream (chunked, no Content-Length)."""
    state = world.clean()
    files = {route.field: upload} if upload is not None else None
    form = route.form(state["ids"])
    if upload is None:
        form = {**form, route.field: "not a file"}  # a text field where the file belongs
    headers = {"x-token": state["tokens"][route.role]}
    if streamed:
        import httpx

        encoded = httpx.Request("POST", "http://testserver/", data=form, files=files)
        body = encoded.read()
        headers["content-type"] = encoded.headers["content-type"]
        call = lambda: http.post(route.url(state["ids"]), content=(body[i:i + 65536] for i in  # noqa: E731
                                                                    range(0, len(body), 65536)), headers=headers)
    else:
        call = lambda: http.post(route.url(state["ids"]), data=form, files=files, headers=headers)  # noqa: E731
    before, files_before = snapshot(), _files_of(world.data_dir)
    started = time.monotonic()
    future = _POOL.submit(call)
    try:
        response = future.result(timeout=REQUEST_SECONDS)
    except FutureTimeout:
        pytest.fail(f"{route.name}: no answer within {REQUEST_SECONDS} s")
    seconds = time.monotonic() - started
    runner.wait_in_process()
    after, files_after = snapshot(), _files_of(world.data_dir)
    changed = [t for t in sorted(set(before) | set(after)) if before.get(t) != after.get(t)]
    if files_before != files_after:
        changed.append("stored files")
    if response.status_code < 400 or changed:
        world.dirty = True
    return response, seconds, changed


def assert_refused(route: Route, case_name: str, response, seconds: float, changed: list[str], text: str | None):
    where = f"{route.name} / {case_name}"
    assert response.status_code == 400, f"{where}: {response.status_code} {response.text[:300]}"
    body = response.json()
    assert body["success"] is False and isinstance(body["message"], str), f"{where}: {body}"
    kind, _, shown = body["message"].partition(": ")
    assert kind == "ValidationError" and shown.strip(), f"{where}: {body['message']}"
    if text is not None:
        assert shown == text, f"{where}: {shown!r} (expected {text!r})"
    assert len(shown) < 2000, f"{where}: the message runs to {len(shown)} characters"
    assert not changed, f"{where}: written: {changed}"
    assert seconds < REQUEST_SECONDS


SHEET_PARAMS = [pytest.param(r, c, id=f"{r.name}-{c.name}") for r in SHEETS for c in SHEET_CASES]
IMAGE_PARAMS = [pytest.param(r, c, id=f"{r.name}-{c.name}") for r in IMAGES for c in IMAGE_CASES]


def all_lines_rejected(route: Route, response, changed: list[str]) -> bool:
    """The price import's answer to a readable file none of whose lines is good: 200 with every
    line named in result.rejected (the import screen lists them) and nothing imported or written."""
    if route.name != "prices" or response.status_code != 200:
        return False
    result = response.json()["result"]
    assert (result["imported"], result["updated"], result["assets"]) == (0, 0, 0), result
    assert result["rejected"] and all(r["message"].startswith(f"Line {r['line']}: ") for r in result["rejected"])
    assert not changed, changed
    return True


@pytest.mark.parametrize(("route", "case"), SHEET_PARAMS + IMAGE_PARAMS)
def test_a_hostile_file_is_refused_and_nothing_is_written(http, world, route: Route, case: Case):
    upload = case.upload(route)
    response, seconds, changed = send(http, world, route, upload)
    if not all_lines_rejected(route, response, changed):
        assert_refused(route, case.name, response, seconds, changed, case.text)


def _sheet_limit_text(route: Route) -> str | None:
    if route.name == "prices":
        return price_rules.TOO_BIG.format(mb=price_rules.MAX_FILE_BYTES // (1024 * 1024))
    return recommendation_rules.FILE_TOO_LARGE


@pytest.mark.parametrize("route", SHEETS, ids=[r.name for r in SHEETS])
def test_one_byte_over_a_spreadsheet_limit_names_the_limit(http, world, route: Route):
    response, seconds, changed = send(http, world, route, ("big.csv", _sized(route.header, route.good_line,
                                                                             route.limit + 1), CSV))
    assert_refused(route, "one byte over", response, seconds, changed, _sheet_limit_text(route))


@pytest.mark.parametrize("route", [r for r in SHEETS if GOOD_FILES[r.name]], ids=lambda r: r.name)
def test_a_good_spreadsheet_is_taken(http, world, route: Route):
    response, seconds, changed = send(http, world, route, GOOD_FILES[route.name]())
    assert response.status_code == 200, response.text[:500]
    assert changed


@pytest.mark.parametrize("route", IMAGES, ids=lambda r: r.name)
def test_a_real_image_at_the_limit_is_taken(http, world, route: Route):
    """The largest file a route takes (one byte under 2,048,000) and a JPEG named .txt: content decides."""
    for upload in (("photo.png", png() + b"\0" * (route.limit - len(png())), "image/png"),
                   ("photo.txt", jpeg(), "text/plain")):
        response, _, changed = send(http, world, route, upload)
        assert response.status_code == 200, response.text[:500]
        assert "stored files" in changed


@pytest.mark.parametrize("streamed", [False, True], ids=["declared length", "streamed"])
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.name)
def test_a_body_over_the_request_limit_is_refused_unread(http, world, route: Route, streamed: bool):
    """Past app.api.main.MAX_BODY_BYTES (above every route's own limit) the body is not parsed:
    refused from its Content-Length, or as soon as the streamed bytes pass the limit."""
    from app.api.main import BODY_TOO_LARGE, MAX_BODY_BYTES

    upload = ("big.csv", _sized(route.header or "x", route.good_line or "y", MAX_BODY_BYTES + 1), CSV)
    response, seconds, changed = send(http, world, route, upload, streamed=streamed)
    assert_refused(route, "over the request limit", response, seconds, changed, BODY_TOO_LARGE)


def test_executions_with_no_placed_order_are_refused_line_by_line(http, world):
    route = SHEETS[-1]
    response, seconds, changed = send(http, world, route, ("e.csv", (route.header + "\n" + route.good_line + "\n").encode(),
                                                           CSV))
    assert_refused(route, "no placed order", response, seconds, changed, None)


# ---- property-based: generated CSV and bytes ----------------------------------------------------------------
_cell = st.one_of(st.text(max_size=12), st.sampled_from(["BHP", "buy", "SELL", "2026-01-05", "1", "-1", "1e999", "NaN",
                                                         "\"", "\x00", "\ufeff", "=cmd|' /C calc'!A0", ""]))
_rows = st.lists(st.lists(_cell, max_size=9), max_size=6)


def _as_csv(header: str, rows: list[list[str]], encoding: str) -> bytes:
    import csv

    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(header.split(","))
    writer.writerows(rows)
    return buffer.getvalue().encode(encoding, errors="replace")


@pytest.mark.parametrize("route", SHEETS, ids=[r.name for r in SHEETS])
def test_generated_files_are_taken_or_refused_cleanly(http, world, route: Route):
    @hypothesis.settings(max_examples=12, derandomize=True, database=None, deadline=None,
                         suppress_health_check=list(HealthCheck))
    @hypothesis.given(payload=st.one_of(
        st.builds(lambda rows, enc: _as_csv(route.header, rows, enc), _rows, st.sampled_from(["utf-8", "cp1252",
                                                                                             "utf-16"])),
        st.binary(max_size=600)))
    def check(payload: bytes):
        response, seconds, changed = send(http, world, route, ("gen.csv", payload, CSV))
        assert response.status_code in (200, 400), response.text[:300]
        if all_lines_rejected(route, response, changed):
            return
        if response.status_code == 400:
            assert_refused(route, "generated", response, seconds, changed, None)
        else:
            assert response.json()["success"] is True

    check()
