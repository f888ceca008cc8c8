"""Shared field validators (spec: "Shared validators").

Every check returns None when the value is valid, else the exact text the user sees.
Empty values (None, blank strings, empty collections) are valid for every check except
`required`, `required_select`, `repeat_password` and `notification_receivers`.
Values are checked as given: callers trim them first if surrounding spaces should be forgiven.
"""
from __future__ import annotations

import datetime as _dt
import re
from decimal import ROUND_HALF_UP, Context, Decimal, InvalidOperation
from typing import Any

# --- Texts (a contract: byte for byte, trailing spaces included) ---------------------------------
REQUIRED = "Please, enter {label}. "
REQUIRED_SELECT = "Please, select {label}. "
REPEAT_PASSWORD = "Please, repeat password. "
PASSWORD_MISMATCH = "Password and password confirmation must match. "
WEBSITE = "Please, enter a valid website. "
NUMBER = "Please, enter a valid number. "
NAME = "Please use valid characters for this field: latin letters and numbers, space character and dash. "
PASSWORD = (
    "Password should contain at least 8 characters, at least 1 upper case, "
    "at least 1 lower case, at least 1 number. "
)
EMAIL = "Please, enter a valid email. "
DATE = "Please, enter a valid date format. "
STREET_TYPE = "Please, enter a valid street type. "
STREET_NUMBER = "Please, enter a valid street number (e.g 12D, 12345). "
POSITIVE = "Please, enter positive value"
MAX_LESS_THAN_MIN = "Max must not be less than Min"
MIN_NOT_LESS_THAN_MAX = "Min must be less than Max"
DECIMALS = "Max 2 decimals"
LESS_THAN = "Value has to be less than {n}."
GREATER_THAN = "Value has to be greater than {n}."
INVERSE = "Value shouldn't be less than {n}$"
MIN_LENGTH = "Min length is {n} characters. "
MAX_LENGTH = "Max length should be {n} characters. "
EXACT_LENGTH = "Length must be exactly {n} characters. "
UNIQUE = "{label} should be unique."
DEFAULT = "Please, enter a valid value. "
BROKER_CODE = "Broker code must begin with three uppercase letters."
IMAGE_FORMAT = "Incorrect file format"
IMAGE_SIZE = "Image size should be less than 2Mb"

# Keys (not texts) returned by notification_receivers; the caller maps them to its messages.
NOTIFICATION_RECEIVERS_EMPTY = "notification_receivers_empty"
NOTIFICATION_RECEIVERS_INVALID = "notification_receivers_invalid"

MAX_IMAGE_BYTES = 2_048_000
MAX_DECIMAL_PLACES = 6

PROFILES = ("client", "adviser", "investmentManager", "userManager")

# Common Australian street types (AS 4590 names and abbreviations); matched case-insensitively.
STREET_TYPES = (
    "Access", "Alley", "Arcade", "Avenue", "Bend", "Boulevard", "Brae", "Chase", "Circle", "Circuit",
    "Close", "Concourse", "Corner", "Court", "Cove", "Crescent", "Crest", "Crossing", "Drive", "Entrance",
    "Esplanade", "Freeway", "Gardens", "Gate", "Glade", "Green", "Grove", "Heights", "Highway", "Hill",
    "Junction", "Lane", "Link", "Loop", "Mall", "Meander", "Mews", "Motorway", "Outlook", "Parade",
    "Parkway", "Pass", "Path", "Place", "Plaza", "Point", "Promenade", "Quay", "Reserve", "Retreat",
    "Ridge", "Rise", "Road", "Row", "Square", "Strand", "Street", "Terrace", "Track", "Trail",
    "View", "Vista", "Walk", "Way", "Wharf",
    "Boardwalk", "Broadway", "Bypass", "Causeway", "Circus", "Corso", "Lookout",
    # abbreviations
    "Arc", "Av", "Ave", "Blvd", "Cct", "Cir", "Cl", "Cnr", "Cr", "Cres", "Ct", "Dr", "Esp", "Fwy",
    "Gdns", "Gr", "Hts", "Hwy", "Jnc", "Ln", "Mwy", "Pde", "Pkwy", "Pl", "Prom", "Rd", "Sq", "St",
    "Tce", "Trk", "Tr",
)
_STREET_TYPES_LOWER = frozenset(t.lower() for t in STREET_TYPES)

# --- Patterns (ASCII only: str.isdigit and \d would also accept other scripts' digits) ---------
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_DOMAIN = rf"(?:{_LABEL}\.)+[A-Za-z]{{2,63}}"
_EMAIL = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"  # local part, no '..'
    rf"@{_DOMAIN}$"
)
_WEBSITE = re.compile(rf"^(?:[Hh][Tt][Tt][Pp][Ss]?://)?{_DOMAIN}(?::[0-9]{{1,5}})?(?:[/?#]\S*)?$")
_DIGITS = re.compile(r"^[0-9]+$")
_NUMBER = re.compile(r"^(?:0|[1-9][0-9]*)$")
_DECIMAL = re.compile(r"^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)$")
_PHONE_BRACKETS = re.compile(r"^[0-9 ()]*[0-9][0-9 ()]*$")
_STREET_NUMBER = re.compile(r"^[A-Za-z0-9 ,'-]*[A-Za-z0-9][A-Za-z0-9 ,'-]*$")
_WORD = re.compile(r"^[A-Za-z0-9]+$")
_NAME_CHARS = re.compile(r"^[A-Za-z0-9 -]+$")
_RATIO = re.compile(r"^([0-9]{1,5}):([0-9]{1,5})$")
_BROKER_CODE = re.compile(r"^[A-Z]{3}")
_DATE_AU = re.compile(r"^([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})$")
_DATE_ISO = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})$")


# --- Helpers -------------------------------------------------------------------------------------
def is_empty(value: Any) -> bool:
    """None, a blank string or an empty list/tuple/set/dict."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        return not value
    return False


def _text(value: Any) -> str:
    """The value as the text a user would have typed (Decimals without exponent)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Decimal) and value.is_finite():
        return format(value, "f")
    return str(value)


def _matching(value: Any, pattern: re.Pattern[str], message: str) -> str | None:
    """None when the value is empty (optional) or its text matches `pattern`; `message` otherwise."""
    if is_empty(value):
        return None
    return None if pattern.match(_text(value)) else message


def _decimal_places(d: Decimal) -> int:
    """Significant decimal places of a finite Decimal (trailing zeros do not count)."""
    sign, digits, exponent = d.as_tuple()
    if not isinstance(exponent, int) or exponent >= 0:  # 'n', 'N', 'F': not finite, no places
        return 0
    places = -exponent
    for digit in reversed(digits):
        if places == 0 or digit != 0:
            break
        places -= 1
    return places


def _round(d: Decimal, places: int) -> Decimal:
    """Round half-up to `places` decimals when it has more; precision grows as needed."""
    exponent = d.as_tuple().exponent
    if not isinstance(exponent, int) or exponent >= -places:  # not finite, or places enough
        return d
    ctx = Context(prec=max(28, len(d.as_tuple().digits) + places + 1))
    return d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=ctx)


def parse_decimal(value: Any) -> Decimal | None:
    """A number as a Decimal rounded half-up to 6 places; None when empty, ValueError when invalid.

    Text must be plain digits with an optional leading '-' and decimal point: no '+', no exponent,
    no thousands separators. int, float and Decimal values are taken as they are (finite only).
    """
    if is_empty(value):
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, str):
        if not _DECIMAL.match(value):
            raise ValueError(f"not a number: {value!r}")
        d = Decimal(value)
    elif isinstance(value, Decimal):
        d = value
    elif isinstance(value, (int, float)):
        try:
            d = Decimal(str(value))
        except InvalidOperation:  # pragma: no cover - str() of int/float always parses
            raise ValueError(f"not a number: {value!r}") from None
    else:
        raise ValueError(f"not a number: {value!r}")
    if not d.is_finite():
        raise ValueError(f"not a number: {value!r}")
    return _round(d, MAX_DECIMAL_PLACES)


def _number_or_error(value: Any) -> tuple[Decimal | None, str | None]:
    try:
        return parse_decimal(value), None
    except ValueError:
        return None, NUMBER


def given_number(value: Any) -> tuple[Decimal | None, str | None]:
    """A number that must be there: (the number, None), or (None, NUMBER) when the value is not a
    number or nothing is left of it (a string of spaces)."""
    number, _ = _number_or_error(value)
    return (None, NUMBER) if number is None else (number, None)


def date_parts(text: str, iso: re.Pattern[str] = _DATE_ISO) -> tuple[int, int, int] | None:
    """(year, month, day) written 'DD/MM/YYYY' or as `iso` reads it (year, month, day groups); None
    for any other text. Whether they make a real date is the caller's to check."""
    match = _DATE_AU.match(text)
    if match:
        day, month, year = (int(part) for part in match.groups())
        return year, month, day
    match = iso.match(text)
    if not match:
        return None
    year, month, day = (int(part) for part in match.groups())
    return year, month, day


def parse_date(value: Any) -> _dt.date | None:
    """A date from a date object, 'DD/MM/YYYY' or ISO 'YYYY-MM-DD'; None when empty or invalid."""
    if isinstance(value, _dt.date):
        return value
    if not isinstance(value, str):
        return None
    parts = date_parts(value)
    if parts is None:
        return None
    try:
        return _dt.date(*parts)
    except ValueError:
        return None


# --- Presence ------------------------------------------------------------------------------------
def required(value: Any, label: str) -> str | None:
    """'Please, enter <label>. ' when empty."""
    return REQUIRED.format(label=label) if is_empty(value) else None


def required_select(value: Any, label: str) -> str | None:
    """'Please, select <label>. ' when empty."""
    return REQUIRED_SELECT.format(label=label) if is_empty(value) else None


# --- Passwords -----------------------------------------------------------------------------------
def password(value: Any) -> str | None:
    """At least 8 characters with an ASCII digit, lowercase and uppercase letter."""
    if is_empty(value):
        return None
    text = _text(value)
    ok = (
        len(text) >= 8
        and re.search(r"[0-9]", text)
        and re.search(r"[a-z]", text)
        and re.search(r"[A-Z]", text)
    )
    return None if ok else PASSWORD


def repeat_password(password: Any, repeat: Any) -> str | None:
    """The confirmation must be given and equal the password."""
    if is_empty(repeat):
        return REPEAT_PASSWORD
    if password != repeat:
        return PASSWORD_MISMATCH
    return None


# --- Formats -------------------------------------------------------------------------------------
def email(value: Any) -> str | None:
    """local@domain.tld, no spaces, at most 254 characters."""
    if is_empty(value):
        return None
    text = _text(value)
    if len(text) > 254 or len(text.split("@", 1)[0]) > 64 or not _EMAIL.match(text):
        return EMAIL
    return None


def website(value: Any) -> str | None:
    """Optional http(s):// scheme, a dotted domain with a TLD, optional port, path and query."""
    return _matching(value, _WEBSITE, WEBSITE)


def phone(value: Any) -> str | None:
    """Digits only."""
    return _matching(value, _DIGITS, DEFAULT)


def phone_with_brackets(value: Any) -> str | None:
    """Digits, spaces and parentheses, with at least one digit."""
    return _matching(value, _PHONE_BRACKETS, DEFAULT)


def street_number(value: Any) -> str | None:
    """Letters, digits, spaces, commas, apostrophes and hyphens, with at least one letter or digit."""
    return _matching(value, _STREET_NUMBER, STREET_NUMBER)


def street_type(value: Any) -> str | None:
    """One of STREET_TYPES, any case."""
    if is_empty(value):
        return None
    return None if _text(value).lower() in _STREET_TYPES_LOWER else STREET_TYPE


def profile(value: Any) -> str | None:
    """One of client, adviser, investmentManager, userManager (exact spelling)."""
    if is_empty(value):
        return None
    return None if value in PROFILES else DEFAULT


def date(value: Any) -> str | None:
    """A date object, or a 'DD/MM/YYYY' (or ISO) string naming a real date."""
    if is_empty(value):
        return None
    return None if parse_date(value) is not None else DATE


def word(value: Any) -> str | None:
    """Latin letters and digits only."""
    return _matching(value, _WORD, DEFAULT)


def name(value: Any) -> str | None:
    """Any name is valid."""
    return None


def name_chars(value: Any) -> str | None:
    """Latin letters, digits, spaces and dashes only."""
    return _matching(value, _NAME_CHARS, NAME)


def ratio(value: Any) -> str | None:
    """'a:b' with both parts positive whole numbers of at most 5 digits."""
    if is_empty(value):
        return None
    match = _RATIO.match(_text(value))
    if not match or int(match.group(1)) == 0 or int(match.group(2)) == 0:
        return DEFAULT
    return None


def broker_code(value: Any) -> str | None:
    """Must begin with three uppercase ASCII letters."""
    return _matching(value, _BROKER_CODE, BROKER_CODE)


def notification_receivers(value: Any) -> str | None:
    """A comma-separated list of e-mails (spaces around entries allowed).

    Returns the key NOTIFICATION_RECEIVERS_EMPTY when the value or any entry is empty,
    NOTIFICATION_RECEIVERS_INVALID when an entry is not an e-mail.
    """
    if is_empty(value):
        return NOTIFICATION_RECEIVERS_EMPTY
    entries = [entry.strip() for entry in _text(value).split(",")]
    if any(not entry for entry in entries):
        return NOTIFICATION_RECEIVERS_EMPTY
    if any(email(entry) for entry in entries):
        return NOTIFICATION_RECEIVERS_INVALID
    return None


# --- Numbers -------------------------------------------------------------------------------------
def _digits(value: Any, pattern: re.Pattern[str]) -> str | None:
    """NUMBER unless the value is empty or its text matches `pattern` (a boolean never does)."""
    if is_empty(value):
        return None
    if isinstance(value, bool):
        return NUMBER
    return None if pattern.match(_text(value)) else NUMBER


def number(value: Any) -> str | None:
    """A non-negative whole number without a leading zero ('0' is fine, '012' is not)."""
    return _digits(value, _NUMBER)


def only_number(value: Any) -> str | None:
    """Digits only; leading zeros allowed (ABN, AFSL...)."""
    return _digits(value, _DIGITS)


def float_(value: Any) -> str | None:
    """A decimal number as parse_decimal accepts it."""
    return _number_or_error(value)[1]


def two_decimals(value: Any) -> str | None:
    """At most 2 significant decimals once rounded to 6 places ('1.50' and '1.5000001' pass)."""
    d, err = _number_or_error(value)
    if err or d is None:
        return err
    return DECIMALS if _decimal_places(d) > 2 else None


def positive(value: Any) -> str | None:
    """Negative values are refused; zero is allowed (a fee can be 0)."""
    d, err = _number_or_error(value)
    if err or d is None:
        return err
    return POSITIVE if d < 0 else None


def _compare(value: Any, n: Any) -> tuple[Decimal | None, Decimal | None, str | None]:
    d, err = _number_or_error(value)
    if err or d is None:
        return None, None, err
    return d, parse_decimal(n), None


def less_than(value: Any, n: Any) -> str | None:
    """The value must be strictly less than n."""
    d, limit, err = _compare(value, n)
    if err or d is None or limit is None:
        return err
    return LESS_THAN.format(n=n) if d >= limit else None


def greater_than(value: Any, n: Any) -> str | None:
    """The value must be strictly greater than n."""
    d, limit, err = _compare(value, n)
    if err or d is None or limit is None:
        return err
    return GREATER_THAN.format(n=n) if d <= limit else None


def inverse(value: Any, n: Any) -> str | None:
    """The value must not be less than n."""
    d, limit, err = _compare(value, n)
    if err or d is None or limit is None:
        return err
    return INVERSE.format(n=n) if d < limit else None


def min_max(min_value: Any, max_value: Any) -> tuple[str | None, str | None]:
    """(error for the min field, error for the max field): max must be greater than min.

    Nothing is reported when either side is empty or not a number (float_ reports that).
    """
    try:
        low, high = parse_decimal(min_value), parse_decimal(max_value)
    except ValueError:
        return None, None
    if low is None or high is None or high > low:
        return None, None
    return MIN_NOT_LESS_THAN_MAX, MAX_LESS_THAN_MIN


# --- Lengths -------------------------------------------------------------------------------------
def min_length(value: Any, n: int) -> str | None:
    """At least n characters."""
    if is_empty(value):
        return None
    return MIN_LENGTH.format(n=n) if len(_text(value)) < n else None


def max_length(value: Any, n: int) -> str | None:
    """At most n characters."""
    if is_empty(value):
        return None
    return MAX_LENGTH.format(n=n) if len(_text(value)) > n else None


def exact_length(value: Any, n: int) -> str | None:
    """Exactly n characters."""
    if is_empty(value):
        return None
    return EXACT_LENGTH.format(n=n) if len(_text(value)) != n else None


# --- Images --------------------------------------------------------------------------------------
_BMP_DIB_SIZES = {12, 16, 40, 52, 56, 64, 108, 124}


def _sniff_image(data: Any) -> str | None:
    """The image type the bytes really are (by magic number), or None."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        return None
    head = bytes(data[:32])
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if len(head) >= 18 and head[:2] == b"BM" and int.from_bytes(head[14:18], "little") in _BMP_DIB_SIZES:
        return "bmp"
    return None


# Decoded, a picture holds at most this many pixels (5000 x 4800): a small file that claims more
# is a decompression bomb (a 2 MB PNG can unpack to gigabytes), refused before it is decoded.
MAX_IMAGE_PIXELS = 24_000_000
_PIL_FORMATS = {"png": "PNG", "jpg": "JPEG", "gif": "GIF", "webp": "WEBP", "bmp": "BMP"}


def _decode_problem(kind: str, data: bytes) -> str | None:
    """IMAGE_FORMAT unless Pillow reads the whole picture as the format its magic number names
    (a signature followed by garbage, or a truncated file, is no image); IMAGE_SIZE when it holds
    more than MAX_IMAGE_PIXELS."""
    import io
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(bytes(data)), formats=[_PIL_FORMATS[kind]]) as image:
                width, height = image.size
                if width < 1 or height < 1:
                    return IMAGE_FORMAT
                if width * height > MAX_IMAGE_PIXELS:
                    return IMAGE_SIZE
                image.load()  # every byte of the first frame: a truncated or corrupt file fails here
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return IMAGE_SIZE
    except Exception:  # Pillow raises many kinds (UnidentifiedImageError, OSError, SyntaxError ...) for bad files
        return IMAGE_FORMAT
    return None


def image_upload(content_type: str | None, data: bytes) -> str | None:
    """IMAGE_FORMAT unless the bytes are a PNG, JPEG, GIF, WEBP or BMP that decodes (never SVG: it
    can carry script); IMAGE_SIZE when not smaller than MAX_IMAGE_BYTES, or when the picture holds
    more than MAX_IMAGE_PIXELS. The declared content type is ignored: the content decides."""
    kind = _sniff_image(data)
    if kind is None:
        return IMAGE_FORMAT
    if len(data) >= MAX_IMAGE_BYTES:
        return IMAGE_SIZE
    return _decode_problem(kind, data)


def image_extension(data: bytes) -> str:
    """'png', 'jpg', 'gif', 'webp' or 'bmp' for the image's bytes; ValueError when not an image."""
    kind = _sniff_image(data)
    if kind is None:
        raise ValueError("not a supported image")
    return kind


# --- Collecting errors ---------------------------------------------------------------------------
class FieldErrors(dict[str, str]):
    """{field: text}; keeps the first error each field gets."""

    def check(self, field: str, *results: str | None) -> "FieldErrors":
        """Record the first non-None result for `field` unless it already has an error."""
        if field not in self:
            for result in results:
                if result is not None:
                    self[field] = result
                    break
        return self

    @property
    def ok(self) -> bool:
        """True when no field has an error."""
        return not self
