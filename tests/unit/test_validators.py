"""Shared field validators: exact texts (trailing spaces included) and edge cases."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain import validators as v

EMPTIES = [None, "", "   ", "\t\n"]


# --- Texts are a contract ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, text",
    [
        ("REQUIRED", "Please, enter {label}. "),
        ("REQUIRED_SELECT", "Please, select {label}. "),
        ("REPEAT_PASSWORD", "Please, repeat password. "),
        ("PASSWORD_MISMATCH", "Password and password confirmation must match. "),
        ("WEBSITE", "Please, enter a valid website. "),
        ("NUMBER", "Please, enter a valid number. "),
        ("NAME", "Please use valid characters for this field: latin letters and numbers, space character and dash. "),
        ("PASSWORD", "Password should contain at least 8 characters, at least 1 upper case, at least 1 lower case, at least 1 number. "),
        ("EMAIL", "Please, enter a valid email. "),
        ("DATE", "Please, enter a valid date format. "),
        ("STREET_TYPE", "Please, enter a valid street type. "),
        ("STREET_NUMBER", "Please, enter a valid street number (e.g 12D, 12345). "),
        ("POSITIVE", "Please, enter positive value"),
        ("MAX_LESS_THAN_MIN", "Max must not be less than Min"),
        ("MIN_NOT_LESS_THAN_MAX", "Min must be less than Max"),
        ("DECIMALS", "Max 2 decimals"),
        ("LESS_THAN", "Value has to be less than {n}."),
        ("GREATER_THAN", "Value has to be greater than {n}."),
        ("INVERSE", "Value shouldn't be less than {n}$"),
        ("MIN_LENGTH", "Min length is {n} characters. "),
        ("MAX_LENGTH", "Max length should be {n} characters. "),
        ("EXACT_LENGTH", "Length must be exactly {n} characters. "),
        ("UNIQUE", "{label} should be unique."),
        ("DEFAULT", "Please, enter a valid value. "),
        ("BROKER_CODE", "Broker code must begin with three uppercase letters."),
        ("IMAGE_FORMAT", "Incorrect file format"),
        ("IMAGE_SIZE", "Image size should be less than 2Mb"),
    ],
)
def test_texts(name, text):
    assert getattr(v, name) == text


def test_image_limit():
    assert v.MAX_IMAGE_BYTES == 2_048_000


# --- Empty values are valid for every optional check ---------------------------------------------
OPTIONAL_CHECKS = [
    v.password, v.email, v.website, v.phone, v.phone_with_brackets, v.street_number, v.street_type,
    v.profile, v.date, v.number, v.only_number, v.float_, v.two_decimals, v.positive, v.word, v.name,
    v.name_chars, v.ratio, v.broker_code,
    lambda x: v.less_than(x, 5), lambda x: v.greater_than(x, 5), lambda x: v.inverse(x, 5),
    lambda x: v.min_length(x, 3), lambda x: v.max_length(x, 3), lambda x: v.exact_length(x, 3),
]


@pytest.mark.parametrize("check", OPTIONAL_CHECKS)
@pytest.mark.parametrize("value", EMPTIES)
def test_empty_is_valid(check, value):
    assert check(value) is None


@pytest.mark.parametrize(
    "value, expected",
    [(None, True), ("", True), ("  ", True), ([], True), ({}, True), ((), True), (set(), True),
     ("a", False), (" a ", False), (0, False), (Decimal("0"), False), (False, False), (["x"], False)],
)
def test_is_empty(value, expected):
    assert v.is_empty(value) is expected


# --- Presence ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value, expected",
    [(None, "Please, enter first name. "), ("", "Please, enter first name. "), ("  ", "Please, enter first name. "),
     ("Ann", None), (0, None)],
)
def test_required(value, expected):
    assert v.required(value, "first name") == expected


@pytest.mark.parametrize(
    "value, expected",
    [(None, "Please, select firm. "), ("", "Please, select firm. "), ([], "Please, select firm. "), ("7", None), (7, None)],
)
def test_required_select(value, expected):
    assert v.required_select(value, "firm") == expected


# --- Passwords -----------------------------------------------------------------------------------
PWD = "Password should contain at least 8 characters, at least 1 upper case, at least 1 lower case, at least 1 number. "


@pytest.mark.parametrize(
    "value, expected",
    [
        ("Abcdefg1", None),
        ("aB3aaaaaaaaaaaa", None),
        ("Ab1!@#$%^&*", None),
        ("Abcdef1", PWD),       # 7 characters
        ("abcdefg1", PWD),      # no upper case
        ("ABCDEFG1", PWD),      # no lower case
        ("Abcdefgh", PWD),      # no digit
        ("Abcdefg١", PWD),      # Arabic-Indic digit is not a digit here
        ("12345678", PWD),
    ],
)
def test_password(value, expected):
    assert v.password(value) == expected


@pytest.mark.parametrize(
    "pwd, repeat, expected",
    [
        ("Abcdefg1", "Abcdefg1", None),
        ("Abcdefg1", None, "Please, repeat password. "),
        ("Abcdefg1", "", "Please, repeat password. "),
        ("Abcdefg1", "   ", "Please, repeat password. "),
        ("Abcdefg1", "Abcdefg2", "Password and password confirmation must match. "),
        ("Abcdefg1", "abcdefg1", "Password and password confirmation must match. "),
        (None, "x", "Password and password confirmation must match. "),
    ],
)
def test_repeat_password(pwd, repeat, expected):
    assert v.repeat_password(pwd, repeat) == expected


# --- Formats -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    ["a@b.co", "john.smith@example.com.au", "first+tag@mail.example.org", "o'brien@firm.com.au",
     "UPPER@EXAMPLE.COM", "x_y-z@sub-domain.example.io", "a" * 64 + "@example.com"],
)
def test_email_valid(value):
    assert v.email(value) is None


@pytest.mark.parametrize(
    "value",
    ["plain", "a@b", "a@b.c", "@example.com", "a@.com", "a@example..com", "a b@example.com", " a@example.com",
     "a@example.com ", "a@@example.com", "a..b@example.com", ".a@example.com", "a.@example.com",
     "a@-example.com", "a@example-.com", "a@example.c0m", "a" * 65 + "@example.com",
     "a@" + "b" * 250 + ".com", 123],
)
def test_email_invalid(value):
    assert v.email(value) == "Please, enter a valid email. "


@pytest.mark.parametrize(
    "value",
    ["example.com", "www.example.com.au", "http://example.com", "https://example.com/", "HTTPS://Example.COM",
     "https://sub.example.com:8443/path/to?q=1&b=2#top", "example.com/fsg.pdf", "https://a-b.example.net?x=y"],
)
def test_website_valid(value):
    assert v.website(value) is None


@pytest.mark.parametrize(
    "value",
    ["example", "http://", "https://example", "ftp://example.com", "javascript:alert(1)", "exa mple.com",
     "https://example.com/a b", "http//example.com", "-example.com", "example.c", "https://.com"],
)
def test_website_invalid(value):
    assert v.website(value) == "Please, enter a valid website. "


@pytest.mark.parametrize(
    "value, expected",
    [("0412345678", None), (412345678, None), ("0412 345 678", v.DEFAULT), ("+61412345678", v.DEFAULT),
     ("(02)12345678", v.DEFAULT), ("04a", v.DEFAULT), ("٠١٢", v.DEFAULT)],
)
def test_phone(value, expected):
    assert v.phone(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("(02) 9876 5432", None), ("0412345678", None), ("1", None), ("()  1", None),
     ("() ", "Please, enter a valid value. "), ("+61 2 9876 5432", "Please, enter a valid value. "),
     ("02-9876-5432", "Please, enter a valid value. "), ("abc", "Please, enter a valid value. ")],
)
def test_phone_with_brackets(value, expected):
    assert v.phone_with_brackets(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("12D", None), ("12345", None), ("Unit 4, 12-14", None), ("O'Connell 3", None), (12, None),
     ("12/14", "Please, enter a valid street number (e.g 12D, 12345). "),
     ("#12", "Please, enter a valid street number (e.g 12D, 12345). "),
     ("--", "Please, enter a valid street number (e.g 12D, 12345). "),
     ("12.5", "Please, enter a valid street number (e.g 12D, 12345). ")],
)
def test_street_number(value, expected):
    assert v.street_number(value) == expected


@pytest.mark.parametrize("value", ["Street", "street", "ST", "Rd", "Avenue", "ave", "Parade", "Pde", "Tce",
                                   "Boulevard", "Hwy", "Circuit", "Cct", "Esplanade", "Pkwy", "Way", "Close"])
def test_street_type_valid(value):
    assert v.street_type(value) is None


@pytest.mark.parametrize("value", ["Stret", "St.", " Street", "Street Road", "123", "Motorwayy"])
def test_street_type_invalid(value):
    assert v.street_type(value) == "Please, enter a valid street type. "


def test_street_types_have_the_usual_names():
    lowered = {t.lower() for t in v.STREET_TYPES}
    for t in ("street", "road", "avenue", "drive", "court", "place", "crescent", "lane", "parade", "terrace",
              "way", "close", "boulevard", "highway", "circuit", "esplanade", "grove", "square", "parkway",
              "st", "rd", "ave", "dr", "ct", "pl", "cres", "ln", "pde", "tce", "cl", "blvd", "hwy", "cct",
              "esp", "gr", "sq", "pkwy"):
        assert t in lowered
    assert len(lowered) == len(v.STREET_TYPES)  # no duplicates


@pytest.mark.parametrize(
    "value, expected",
    [("client", None), ("adviser", None), ("investmentManager", None), ("userManager", None),
     ("Client", v.DEFAULT), ("investmentmanager", v.DEFAULT), ("admin", v.DEFAULT), ("advisor", v.DEFAULT)],
)
def test_profile(value, expected):
    assert v.profile(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [(dt.date(2024, 2, 29), None), (dt.datetime(2024, 1, 1, 10, 0), None), ("29/02/2024", None),
     ("1/2/2023", None), ("2023-12-31", None),
     ("29/02/2023", "Please, enter a valid date format. "), ("31/04/2024", "Please, enter a valid date format. "),
     ("2024/01/01", "Please, enter a valid date format. "), ("01-02-2024", "Please, enter a valid date format. "),
     ("12/31/2024", "Please, enter a valid date format. "), ("tomorrow", "Please, enter a valid date format. "),
     (20240101, "Please, enter a valid date format. "), ("00/01/2024", "Please, enter a valid date format. ")],
)
def test_date(value, expected):
    assert v.date(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("05/03/2024", dt.date(2024, 3, 5)), ("5/3/2024", dt.date(2024, 3, 5)), ("2024-03-05", dt.date(2024, 3, 5)),
     (dt.date(2020, 1, 1), dt.date(2020, 1, 1)), ("2024-3-5", None), ("31/02/2024", None), ("", None),
     (None, None), ("0000-01-01", None), (123, None)],
)
def test_parse_date(value, expected):
    assert v.parse_date(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("abc123", None), ("ABC", None), ("007", None), ("abc 123", v.DEFAULT), ("abc-1", v.DEFAULT),
     ("café", v.DEFAULT), ("a_b", v.DEFAULT)],
)
def test_word(value, expected):
    assert v.word(value) == expected


@pytest.mark.parametrize("value", [None, "", "Anything at all!", "Zoë O'Brien-Smith", 42, "<script>"])
def test_name_always_valid(value):
    assert v.name(value) is None


NAME_TEXT = "Please use valid characters for this field: latin letters and numbers, space character and dash. "


@pytest.mark.parametrize(
    "value, expected",
    [("Smith Family Trust", None), ("Smith-Jones 2", None), ("ACME", None),
     ("O'Brien", NAME_TEXT), ("Zoë", NAME_TEXT), ("A & B", NAME_TEXT), ("a_b", NAME_TEXT)],
)
def test_name_chars(value, expected):
    assert v.name_chars(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("1:1", None), ("3:7", None), ("99999:99999", None), ("01:2", None),
     ("0:1", v.DEFAULT), ("1:0", v.DEFAULT), ("100000:1", v.DEFAULT), ("1:100000", v.DEFAULT),
     ("1:", v.DEFAULT), (":1", v.DEFAULT), ("1", v.DEFAULT), ("1:2:3", v.DEFAULT), ("-1:2", v.DEFAULT),
     ("1.5:2", v.DEFAULT), ("1 : 2", v.DEFAULT), ("a:b", v.DEFAULT)],
)
def test_ratio(value, expected):
    assert v.ratio(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("ABC", None), ("ABC123", None), ("XYZ-9", None),
     ("AB1", v.BROKER_CODE), ("abc123", v.BROKER_CODE), ("AbC", v.BROKER_CODE), ("ÀBC", v.BROKER_CODE),
     (" ABC", v.BROKER_CODE), ("12ABC", v.BROKER_CODE)],
)
def test_broker_code(value, expected):
    assert v.broker_code(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        ("a@b.com", None),
        ("a@b.com,c@d.com.au", None),
        ("a@b.com, c@d.com ,e@f.org", None),
        (None, "notification_receivers_empty"),
        ("", "notification_receivers_empty"),
        ("  ", "notification_receivers_empty"),
        ("a@b.com,", "notification_receivers_empty"),
        ("a@b.com,,c@d.com", "notification_receivers_empty"),
        (", a@b.com", "notification_receivers_empty"),
        ("a@b.com,nope", "notification_receivers_invalid"),
        ("a@b.com;c@d.com", "notification_receivers_invalid"),
    ],
)
def test_notification_receivers(value, expected):
    assert v.notification_receivers(value) == expected


def test_notification_receivers_keys():
    assert v.NOTIFICATION_RECEIVERS_EMPTY == "notification_receivers_empty"
    assert v.NOTIFICATION_RECEIVERS_INVALID == "notification_receivers_invalid"


# --- Numbers -------------------------------------------------------------------------------------
NUM = "Please, enter a valid number. "


@pytest.mark.parametrize(
    "value, expected",
    [("0", None), ("7", None), ("120", None), (120, None), (0, None), (Decimal("15"), None),
     ("012", NUM), ("00", NUM), ("-1", NUM), (-1, NUM), ("1.5", NUM), ("1e3", NUM), ("+1", NUM),
     ("1 000", NUM), ("abc", NUM), (True, NUM), (1.0, NUM), ("٣", NUM)],
)
def test_number(value, expected):
    assert v.number(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("0", None), ("012", None), ("00000000000", None), (51824753556, None),
     ("-1", NUM), ("1.5", NUM), ("12 345", NUM), ("abc", NUM), (True, NUM), ("٣", NUM)],
)
def test_only_number(value, expected):
    assert v.only_number(value) == expected


@pytest.mark.parametrize(
    "value",
    ["0", "-1.5", "0.123456", "1.1234567", "12", "-0", ".5", "-.5", "007.10", 3, 2.5, -0.25, Decimal("1.25"),
     Decimal("1E+3"), 1e-7],
)
def test_float_valid(value):
    assert v.float_(value) is None


@pytest.mark.parametrize(
    "value",
    ["+1", "+1.5", "1e3", "1E-2", "1.", "1..2", "1,000", "1 000", " 1", "abc", "--1", "-", ".", "NaN", "Infinity",
     float("nan"), float("inf"), Decimal("NaN"), Decimal("-Infinity"), True, object()],
)
def test_float_invalid(value):
    assert v.float_(value) == NUM


@pytest.mark.parametrize(
    "value, expected",
    [
        ("1.5", Decimal("1.5")),
        ("-1.5", Decimal("-1.5")),
        ("0.123456", Decimal("0.123456")),
        ("0.1234565", Decimal("0.123457")),     # half-up to 6 places
        ("-0.1234565", Decimal("-0.123457")),
        ("0.0000004", Decimal("0")),
        ("2.9999995", Decimal("3")),
        (".5", Decimal("0.5")),
        (7, Decimal("7")),
        (2.5, Decimal("2.5")),
        (0.1, Decimal("0.1")),                  # via str(), not the binary expansion
        (Decimal("1.23456789"), Decimal("1.234568")),
        ("123456789012345678901234567890.1234567", Decimal("123456789012345678901234567890.123457")),
        (None, None),
        ("", None),
        ("  ", None),
    ],
)
def test_parse_decimal(value, expected):
    result = v.parse_decimal(value)
    assert result == expected
    if result is not None:
        assert -result.as_tuple().exponent <= 6


@pytest.mark.parametrize("value", ["+1", "1e5", "abc", "1,5", float("inf"), True, [1]])
def test_parse_decimal_invalid(value):
    with pytest.raises(ValueError):
        v.parse_decimal(value)


@pytest.mark.parametrize(
    "value, expected",
    [("1", None), ("1.5", None), ("1.25", None), ("1.250", None), ("1.2500000", None), ("1.0000001", None),
     (Decimal("10.10"), None), (3.5, None), ("-1.25", None),
     ("1.255", "Max 2 decimals"), ("0.001", "Max 2 decimals"), ("1.000001", "Max 2 decimals"),
     (1.234, "Max 2 decimals"), ("abc", NUM), ("+1", NUM)],
)
def test_two_decimals(value, expected):
    assert v.two_decimals(value) == expected


@pytest.mark.parametrize(
    "value, expected",
    [("0", None), (0, None), ("1.5", None), (Decimal("100"), None), ("-0", None), ("-0.0000001", None),
     ("-0.01", "Please, enter positive value"), (-1, "Please, enter positive value"),
     (Decimal("-5"), "Please, enter positive value"), ("abc", NUM)],
)
def test_positive(value, expected):
    assert v.positive(value) == expected


@pytest.mark.parametrize(
    "value, n, expected",
    [("99.99", 100, None), (-5, 100, None), ("100", 100, "Value has to be less than 100."),
     ("100.5", 100, "Value has to be less than 100."), (Decimal("2"), Decimal("1.5"), "Value has to be less than 1.5."),
     ("x", 100, NUM)],
)
def test_less_than(value, n, expected):
    assert v.less_than(value, n) == expected


@pytest.mark.parametrize(
    "value, n, expected",
    [("1", 0, None), ("0.01", 0, None), ("0", 0, "Value has to be greater than 0."),
     (-3, 0, "Value has to be greater than 0."), ("5", 10, "Value has to be greater than 10."), ("x", 0, NUM)],
)
def test_greater_than(value, n, expected):
    assert v.greater_than(value, n) == expected


@pytest.mark.parametrize(
    "value, n, expected",
    [("1000", 1000, None), ("1500", 1000, None), ("999.99", 1000, "Value shouldn't be less than 1000$"),
     (0, 50, "Value shouldn't be less than 50$"), ("x", 1, NUM)],
)
def test_inverse(value, n, expected):
    assert v.inverse(value, n) == expected


@pytest.mark.parametrize(
    "low, high, expected",
    [
        (Decimal("10"), Decimal("20"), (None, None)),
        ("10", "10.01", (None, None)),
        (Decimal("10"), Decimal("10"), ("Min must be less than Max", "Max must not be less than Min")),
        ("20", "10", ("Min must be less than Max", "Max must not be less than Min")),
        (5, 1.5, ("Min must be less than Max", "Max must not be less than Min")),
        (None, Decimal("10"), (None, None)),
        (Decimal("10"), None, (None, None)),
        ("", "", (None, None)),
        ("abc", "10", (None, None)),
    ],
)
def test_min_max(low, high, expected):
    assert v.min_max(low, high) == expected


# --- Lengths -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "check, value, n, expected",
    [
        (v.min_length, "abc", 3, None),
        (v.min_length, "ab", 3, "Min length is 3 characters. "),
        (v.min_length, 12, 3, "Min length is 3 characters. "),
        (v.max_length, "abc", 3, None),
        (v.max_length, "abcd", 3, "Max length should be 3 characters. "),
        (v.max_length, "é" * 100, 100, None),
        (v.max_length, 12345, 4, "Max length should be 4 characters. "),
        (v.exact_length, "51824753556", 11, None),
        (v.exact_length, "5182475355", 11, "Length must be exactly 11 characters. "),
        (v.exact_length, "518247535566", 11, "Length must be exactly 11 characters. "),
    ],
)
def test_lengths(check, value, n, expected):
    assert check(value, n) == expected


# --- Images --------------------------------------------------------------------------------------
def _image(fmt: str) -> bytes:
    """A real picture in the format (made with Pillow): the content must decode, not only start right."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (6, 4), (30, 120, 200)).save(buffer, format=fmt)
    return buffer.getvalue()


PNG, JPEG, GIF, WEBP, BMP = (_image(fmt) for fmt in ("PNG", "JPEG", "GIF", "WEBP", "BMP"))
GIF87 = b"GIF87a" + GIF[6:]
# the magic numbers alone, followed by nothing an image reader can decode
FAKE = [b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"\xff\xd8\xff\xe0" + b"\x00" * 40, b"GIF89a" + b"\x00" * 40,
        b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 40, b"BM" + b"\x00" * 12 + (40).to_bytes(4, "little") + b"\x00" * 40,
        PNG[: len(PNG) // 2], JPEG[: len(JPEG) // 2]]
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


@pytest.mark.parametrize(
    "data, ext",
    [(PNG, "png"), (JPEG, "jpg"), (GIF, "gif"), (GIF87, "gif"), (WEBP, "webp"), (BMP, "bmp")],
)
def test_image_accepted_whatever_the_declared_type(data, ext):
    assert v.image_upload("image/png", data) is None
    assert v.image_upload(None, data) is None
    assert v.image_upload("application/octet-stream", data) is None
    assert v.image_extension(data) == ext
    assert v.image_extension(bytearray(data)) == ext


@pytest.mark.parametrize(
    "data",
    [SVG, b"", b"hello world", b"%PDF-1.7\n", b"RIFF\x00\x00\x00\x00WAVEfmt ", b"BMx", b"BM" + b"\x00" * 30,
     b"\x89PNG", b"GIF88a" + b"\x00" * 10, None, *FAKE],
)
def test_image_refused(data):
    assert v.image_upload("image/png", data) == "Incorrect file format"
    assert v.image_upload("image/svg+xml", data) == "Incorrect file format"
    if data not in FAKE:
        with pytest.raises(ValueError):
            v.image_extension(data)


def test_a_picture_claiming_too_many_pixels_is_refused_before_it_is_decoded():
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    def claiming(width: int, height: int) -> bytes:
        header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")

    assert v.image_upload("image/png", claiming(60_000, 60_000)) == "Image size should be less than 2Mb"
    assert v.image_upload("image/png", claiming(5000, 4801)) == "Image size should be less than 2Mb"
    assert v.image_upload("image/png", claiming(5000, 4800)) == "Incorrect file format"  # allowed size, no pixels


def test_image_size_limit():
    just_under = PNG + b"\x00" * (v.MAX_IMAGE_BYTES - 1 - len(PNG))
    assert len(just_under) == v.MAX_IMAGE_BYTES - 1
    assert v.image_upload("image/png", just_under) is None
    at_limit = just_under + b"\x00"
    assert v.image_upload("image/png", at_limit) == "Image size should be less than 2Mb"
    assert v.image_upload("image/png", at_limit + b"\x00") == "Image size should be less than 2Mb"
    # the format is reported before the size
    assert v.image_upload("image/png", b"\x00" * v.MAX_IMAGE_BYTES) == "Incorrect file format"


# --- FieldErrors ---------------------------------------------------------------------------------
def test_field_errors_keeps_first_error():
    errors = v.FieldErrors()
    assert errors.ok
    result = errors.check("email", None, v.required("", "email"), v.email("x"))
    assert result is errors
    assert errors == {"email": "Please, enter email. "}
    errors.check("email", "later error")
    assert errors["email"] == "Please, enter email. "
    errors.check("phone", None, None).check("name")
    assert "phone" not in errors and "name" not in errors
    assert not errors.ok
    assert isinstance(errors, dict)


def test_field_errors_chains():
    errors = v.FieldErrors().check("a", v.positive("-1")).check("b", v.positive("1"))
    assert errors == {"a": "Please, enter positive value"}


# --- Properties ----------------------------------------------------------------------------------
@given(st.decimals(allow_nan=False, allow_infinity=False, places=6, min_value=-10**12, max_value=10**12))
def test_parse_decimal_round_trips(d):
    text = format(d, "f")
    assert "e" not in text.lower()
    assert v.float_(text) is None
    assert v.parse_decimal(text) == d
    assert v.parse_decimal(d) == d


@given(st.decimals(allow_nan=False, allow_infinity=False, places=9, min_value=-10**6, max_value=10**6))
def test_parse_decimal_keeps_at_most_six_places(d):
    result = v.parse_decimal(format(d, "f"))
    assert -result.as_tuple().exponent <= 6
    assert abs(result - d) <= Decimal("0.0000005")


@given(st.integers(1, 99999), st.integers(1, 99999))
def test_ratio_accepts_five_digit_parts(a, b):
    assert v.ratio(f"{a}:{b}") is None


@given(st.integers(1, 99999), st.integers(100000, 999999), st.booleans())
def test_ratio_rejects_zero_or_six_digits(a, big, big_first):
    assert v.ratio(f"{big}:{a}" if big_first else f"{a}:{big}") == v.DEFAULT
    assert v.ratio(f"0:{a}" if big_first else f"{a}:0") == v.DEFAULT


@given(st.integers(min_value=0))
def test_number_accepts_integers(n):
    assert v.number(str(n)) is None
    assert v.number("0" + str(n)) == NUM
    assert v.only_number("0" + str(n)) is None


@given(st.text())
def test_checks_never_raise(text):
    for check in OPTIONAL_CHECKS + [v.notification_receivers, v.is_empty]:
        check(text)


def test_email_length_limit():
    domain = ".".join(["b" * 63, "c" * 63, "d" * 57]) + ".com"
    at_limit = "a" * 64 + "@" + domain
    assert len(at_limit) == 254
    assert v.email(at_limit) is None
    over = "a" * 64 + "@" + "e" + domain
    assert len(over) == 255
    assert v.email(over) == "Please, enter a valid email. "
