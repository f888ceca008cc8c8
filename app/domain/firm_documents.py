"""What a firm's client documents look like and say: the record of advice layout and branding
(colour, disclaimer, footer; spec 002 s2 "a default variant and per-firm branded variants"), the
template data of its CGT estimate (spec 002 s7: the HIN percent, the CGT discount and a comment per
asset), and the letterhead every client document carries. Pure: the services read and store them.

Our own choices (the spec names the template's fields, not how they apply):
- the HIN percent is the part of a super fund supporting pensions in the retirement phase (exempt
  from CGT): it applies to self-managed super funds only, since no other portfolio type has a
  pension phase;
- the template's CGT discount, when set, replaces the discount of the portfolio type for every type
  that has one; companies have no CGT discount whatever the template says;
- per-asset comments are keyed by the asset's code, written one a line as ``CODE: comment``."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from app.domain import validators as v
from app.domain.cgt import discount_percent_for

DEFAULT, COMPACT, DETAILED = "default", "compact", "detailed"
LAYOUTS = (DEFAULT, COMPACT, DETAILED)
LAYOUT_TITLES = {DEFAULT: "Default", COMPACT: "Compact", DETAILED: "Detailed"}
LAYOUT_DESCRIPTIONS = {
    DEFAULT: "The recommended portfolio with each trade and its reason, the class allocation, commentary, fee, "
             "CGT estimate and authority.",
    COMPACT: "One page where it fits: the trades and their reasons, the fee, the CGT estimate and the authority; "
             "smaller type.",
    DETAILED: "Everything in the default layout, plus each line's price, value now and the calculation's reasons, "
              "and the industry groups.",
}
DEFAULT_COLOUR = "#1F3A5F"
NO_DISCOUNT_TYPES = frozenset({"COMPANY"})
PENSION_TYPES = frozenset({"SMSF"})
ZERO, HUNDRED = Decimal(0), Decimal(100)

HIN_RANGE = "The HIN percent has to be between 0 and 100."
DISCOUNT_RANGE = "The CGT discount has to be between 0 and 100."
COLOUR_FORMAT = "Please, enter a colour as # and six hexadecimal digits (e.g. #1F3A5F)."
LAYOUT_REQUIRED = v.REQUIRED_SELECT.format(label="layout")
COMMENT_LINE = "Line {line}: write each comment as CODE: comment."
COMMENT_UNKNOWN = "Unknown asset code: {codes}."
COMMENT_TWICE = "Line {line}: {code} already has a comment."
DISCLAIMER_MAX, FOOTER_MAX, COMMENT_MAX = 4000, 300, 500

_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")
_COMMENT_LINE = re.compile(r"^\s*([A-Za-z0-9.\-/]{1,20})\s*[:\-–]\s*(.+?)\s*$")


@dataclass(frozen=True)
class AssetComment:
    code: str
    comment: str


@dataclass(frozen=True)
class RofaTemplate:
    """The template data of a firm's records of advice (002 s7: discount, hin, a comment per asset)."""

    hin_percent: Decimal = ZERO
    discount_percent: Decimal | None = None  # None: the portfolio type's discount
    asset_comments: tuple[AssetComment, ...] = ()

    def comment_for(self, code: str) -> str | None:
        return next((c.comment for c in self.asset_comments if c.code == code.upper()), None)

    def discount_for(self, portfolio_type: str | None) -> Decimal:
        if portfolio_type in NO_DISCOUNT_TYPES:
            return ZERO
        return self.discount_percent if self.discount_percent is not None else discount_percent_for(portfolio_type)

    def hin_for(self, portfolio_type: str | None) -> Decimal:
        return self.hin_percent if portfolio_type in PENSION_TYPES else ZERO

    @property
    def comments_text(self) -> str:
        return "\n".join(f"{c.code}: {c.comment}" for c in self.asset_comments)


@dataclass(frozen=True)
class Branding:
    """How the firm's record of advice looks: its layout, colour, disclaimer and footer."""

    layout: str = DEFAULT
    colour: str = DEFAULT_COLOUR
    disclaimer: str = ""
    footer: str = ""

    @property
    def layout_title(self) -> str:
        return LAYOUT_TITLES[self.layout]


@dataclass(frozen=True)
class DocumentSettings:
    """A firm's client documents as an administrator sets them on the firm form."""

    branding: Branding
    template: RofaTemplate


@dataclass(frozen=True)
class Letterhead:
    """The head of every document a client receives: the firm (logo, name, ABN, contact, its
    corporate authorised representative number), its licensee (name, AFSL) and the adviser (name,
    authorised representative number, signature).
    Paths are local files (for the PDF), urls the same files as the screens load them."""

    firm_name: str
    abn: str | None = None
    car: str | None = None
    phone: str | None = None
    email: str | None = None
    website: str | None = None
    logo_path: str | None = None
    logo_url: str | None = None
    licensee_name: str | None = None
    licensee_afsl: str | None = None
    adviser_name: str | None = None
    adviser_ar_number: str | None = None
    adviser_signature_path: str | None = None
    adviser_signature_url: str | None = None

    @property
    def licensee_line(self) -> str:
        """'Harbour Licensee Services Pty Ltd, AFSL 456789' (what of it is known)."""
        parts = [self.licensee_name or "", f"AFSL {self.licensee_afsl}" if self.licensee_afsl else ""]
        return ", ".join(p for p in parts if p)

    @property
    def representative_line(self) -> str:
        """The firm's corporate authorised representative number as the documents print it."""
        return f"Corporate authorised representative no. {self.car}" if self.car else ""

    @property
    def adviser_representative_line(self) -> str:
        """The adviser's own authorised representative number, printed under their name."""
        return f"Authorised representative no. {self.adviser_ar_number}" if self.adviser_ar_number else ""


@dataclass(frozen=True)
class FirmBranding:
    """What a message or document from the firm shows: its name, logo, colour, licensee line,
    footer and disclaimer (the e-mails read it through app.services.firms.firm_branding)."""

    firm_id: int
    firm_name: str
    logo_url: str | None
    logo_path: str | None
    colour: str
    licensee_line: str
    footer: str
    disclaimer: str
    layout: str


# ---- reading what is stored -------------------------------------------------------------------------
def comments_from_json(text: str | None) -> tuple[AssetComment, ...]:
    if not text:
        return ()
    try:
        data = json.loads(text)
    except ValueError:
        return ()
    if not isinstance(data, Mapping):
        return ()
    return tuple(AssetComment(str(code), str(comment)) for code, comment in data.items() if str(comment).strip())


def comments_json(comments: tuple[AssetComment, ...]) -> str | None:
    return json.dumps({c.code: c.comment for c in comments}, ensure_ascii=False) if comments else None


def template_of(hin_percent: Decimal | None, discount_percent: Decimal | None, comments: str | None) -> RofaTemplate:
    return RofaTemplate(hin_percent=hin_percent if hin_percent is not None else ZERO, discount_percent=discount_percent,
                        asset_comments=comments_from_json(comments))


def branding_of(layout: str | None, colour: str | None, disclaimer: str | None, footer: str | None) -> Branding:
    return Branding(layout=layout if layout in LAYOUTS else DEFAULT,
                    colour=colour.upper() if colour and _COLOUR.match(colour) else DEFAULT_COLOUR,
                    disclaimer=disclaimer or "", footer=footer or "")


# ---- parsing the form -------------------------------------------------------------------------------
def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


def _percent(errors: v.FieldErrors, field: str, value: Any, out_of_range: str) -> Decimal | None:
    if v.is_empty(value):
        return None
    number, error = v.given_number(value)
    if error or number is None:
        errors.check(field, error or v.NUMBER)
        return None
    if number < ZERO or number > HUNDRED:
        errors.check(field, out_of_range)
        return None
    errors.check(field, v.two_decimals(value))
    return number


def parse_comments(text: Any) -> tuple[tuple[AssetComment, ...], str | None]:
    """'BHP: Held since 2009\\nCBA: Inherited' -> the comments (codes uppercased), or the first line's
    error. Blank lines are skipped."""
    out: list[AssetComment] = []
    seen: set[str] = set()
    for number, line in enumerate(_text(text).splitlines(), start=1):
        if not line.strip():
            continue
        match = _COMMENT_LINE.match(line)
        if not match:
            return (), COMMENT_LINE.format(line=number)
        code, comment = match.group(1).upper(), match.group(2)
        if code in seen:
            return (), COMMENT_TWICE.format(line=number, code=code)
        if len(comment) > COMMENT_MAX:
            return (), f"Line {number}: " + v.MAX_LENGTH.format(n=COMMENT_MAX).strip()
        seen.add(code)
        out.append(AssetComment(code, comment))
    return tuple(out), None


def document_errors(settings: DocumentSettings) -> v.FieldErrors:
    """The per-field errors of settings however they were built (the form's parse, or a caller's
    own values): a layout of the list, a #RRGGBB colour, texts within their lengths, percents
    0-100 with at most two decimals, comments within their length."""
    errors = v.FieldErrors()
    b, t = settings.branding, settings.template
    if b.layout not in LAYOUTS:
        errors.check("layout", LAYOUT_REQUIRED)
    if not _COLOUR.match(b.colour or ""):
        errors.check("colour", COLOUR_FORMAT)
    errors.check("disclaimer", v.max_length(b.disclaimer, DISCLAIMER_MAX))
    errors.check("footer", v.max_length(b.footer, FOOTER_MAX))
    for field, value, text in (("hinPercent", t.hin_percent, HIN_RANGE), ("cgtDiscount", t.discount_percent,
                                                                           DISCOUNT_RANGE)):
        if value is None:
            continue
        if not value.is_finite() or value < ZERO or value > HUNDRED:
            errors.check(field, text)
        else:
            errors.check(field, v.two_decimals(value))
    for c in t.asset_comments:
        if not c.code or not c.comment.strip() or len(c.comment) > COMMENT_MAX:
            errors.check("assetComments", COMMENT_LINE.format(line=t.asset_comments.index(c) + 1))
    return errors


def parse_document_settings(data: Mapping[str, Any]) -> tuple[DocumentSettings | None, v.FieldErrors]:
    """The firm form's record of advice fields: layout, colour, disclaimer, footer, hinPercent,
    cgtDiscount, assetComments. Returns the settings (None when a field is refused) and the
    per-field errors; whether the comments' codes exist is the service's to check."""
    errors = v.FieldErrors()
    layout = _text(data.get("layout")) or DEFAULT
    if layout not in LAYOUTS:
        errors.check("layout", LAYOUT_REQUIRED)
    colour = _text(data.get("colour")) or DEFAULT_COLOUR
    if not _COLOUR.match(colour):
        errors.check("colour", COLOUR_FORMAT)
    disclaimer, footer = _text(data.get("disclaimer")), _text(data.get("footer"))
    errors.check("disclaimer", v.max_length(disclaimer, DISCLAIMER_MAX))
    errors.check("footer", v.max_length(footer, FOOTER_MAX))
    hin = _percent(errors, "hinPercent", data.get("hinPercent"), HIN_RANGE)
    discount = _percent(errors, "cgtDiscount", data.get("cgtDiscount"), DISCOUNT_RANGE)
    comments, comment_error = parse_comments(data.get("assetComments"))
    errors.check("assetComments", comment_error)
    if not errors.ok:
        return None, errors
    return DocumentSettings(
        branding=Branding(layout=layout, colour=colour.upper(), disclaimer=disclaimer, footer=footer),
        template=RofaTemplate(hin_percent=hin if hin is not None else ZERO, discount_percent=discount,
                              asset_comments=comments),
    ), errors
