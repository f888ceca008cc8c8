"""Firm form rules: the firm information, licensee and fee forms (spec 000 s3/s5, 002 s5)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Mapping

from app.domain import validators as v
from app.domain.money import MONEY_LIMIT

# API/form field -> column. Licensee fields arrive nested under "licensee".
FIRM_FIELDS = {"name": "name", "abn": "abn", "car": "car", "phone": "phone", "email": "email", "website": "website"}
LICENSEE_FIELDS = {
    "name": "licensee_name",
    "abn": "licensee_abn",
    "afsl": "licensee_afsl",
    "phone": "licensee_phone",
    "email": "licensee_email",
    "website": "licensee_website",
    "fsgLink": "licensee_fsg_link",
    "privacyPolicyLink": "licensee_privacy_policy_link",
}
FEE_FIELDS = {"fee": "fee", "maxFee": "max_fee", "minFee": "min_fee", "ausiexCode": "ausiex_code"}
FIRM_SORTS = ("name", "created_at", "advisers", "clients")


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _decimal(errors: v.FieldErrors, field: str, value: Any) -> Decimal | None:
    if v.is_empty(value):
        return None  # an empty fee is stored as null
    err = v.float_(value)
    if err:
        errors.check(field, err)
        return None
    return v.parse_decimal(value)


MAX_ORDER_DAYS = 365
ORDER_DAYS_TEXT = f"Please, enter a whole number of days from 1 to {MAX_ORDER_DAYS}. "


def _flag(value: Any) -> bool:
    return value is True or str(value or "").strip().lower() in ("true", "1", "yes", "on")


# ---- the form as read at the edge (the API's body, the screen's handler) ----------------------------
@dataclass(frozen=True)
class LicenseeForm:
    """The licensee card as sent: each field its text, None when left out."""
    name: str | None = None
    abn: str | None = None
    afsl: str | None = None
    phone: str | None = None
    email: str | None = None
    website: str | None = None
    fsg_link: str | None = None
    privacy_policy_link: str | None = None


@dataclass(frozen=True)
class FirmForm:
    """A firm form as sent (create, edit). Texts and numbers stay the text that was sent (None when
    left out): clean_firm answers a number it cannot read with the field's own text. `address` is
    the address form ({propertyName, ...}), None when left out (an edit then keeps the saved one);
    `version` is the version the form was read at, as sent (compared as text)."""
    name: str | None = None
    abn: str | None = None
    car: str | None = None
    phone: str | None = None
    email: str | None = None
    website: str | None = None
    licensee: LicenseeForm = LicenseeForm()
    fee: str | None = None
    max_fee: str | None = None
    min_fee: str | None = None
    ausiex_code: str | None = None
    order_expiry_days: str | None = None
    order_good_till_cancelled: bool = False
    stop_loss_limit_gap: str | None = None
    address: Mapping[str, Any] | None = None
    logo_removed: bool = False
    licensee_logo_removed: bool = False
    version: str | None = None

    def removals(self) -> dict[str, bool]:
        """The logo removal flags by the form's names (files.unlink_flagged reads them)."""
        return {"isLogoRemoved": self.logo_removed, "isLicenseeLogoRemoved": self.licensee_logo_removed}


# payload name -> form field, where they differ
_FIRM_NAMES = {"maxFee": "max_fee", "minFee": "min_fee", "ausiexCode": "ausiex_code",
               "orderExpiryDays": "order_expiry_days", "stopLossLimitGap": "stop_loss_limit_gap"}
_LICENSEE_NAMES = {"fsgLink": "fsg_link", "privacyPolicyLink": "privacy_policy_link"}


def _sent_text(value: Any) -> str | None:
    """A sent value as its text (a number sent as a number reads as its digits)."""
    return None if value is None else str(value)


def read_firm_form(data: Mapping[str, Any]) -> FirmForm:
    """A sent firm form (by the payload's names: name, licensee {...}, fee, maxFee, ..., address,
    isLogoRemoved, isLicenseeLogoRemoved, version): texts as text, flags as truth."""
    licensee = data.get("licensee")
    sent_licensee = licensee if isinstance(licensee, Mapping) else {}
    address = data.get("address")
    return FirmForm(
        **{name: _sent_text(data.get(name)) for name in FIRM_FIELDS},
        licensee=LicenseeForm(**{_LICENSEE_NAMES.get(key, key): _sent_text(sent_licensee.get(key))
                                 for key in LICENSEE_FIELDS}),
        fee=_sent_text(data.get("fee")),
        **{field: _sent_text(data.get(key)) for key, field in _FIRM_NAMES.items()},
        order_good_till_cancelled=_flag(data.get("orderGoodTillCancelled")),
        address=address if isinstance(address, Mapping) else None,
        logo_removed=bool(data.get("isLogoRemoved")),
        licensee_logo_removed=bool(data.get("isLicenseeLogoRemoved")),
        version=_sent_text(data.get("version")),
    )


def clean_firm(form: FirmForm) -> tuple[dict[str, Any], v.FieldErrors]:
    """Validate a firm form; return column values and per-field errors (keys as the form names them;
    licensee fields as 'licensee.<name>')."""
    errors = v.FieldErrors()
    values: dict[str, Any] = {}
    data = {"fee": form.fee, "maxFee": form.max_fee, "minFee": form.min_fee,
            "orderExpiryDays": form.order_expiry_days, "stopLossLimitGap": form.stop_loss_limit_gap}

    for field, column in FIRM_FIELDS.items():
        values[column] = _text(getattr(form, field))
    errors.check("name", v.required(values["name"], "firm name"), v.max_length(values["name"], 200))
    errors.check("abn", v.only_number(values["abn"]), v.exact_length(values["abn"], 11))
    errors.check("car", v.only_number(values["car"]), v.max_length(values["car"], 40))
    errors.check("phone", v.phone_with_brackets(values["phone"]), v.max_length(values["phone"], 40))
    errors.check("email", v.email(values["email"]))
    errors.check("website", v.website(values["website"]), v.max_length(values["website"], 300))

    for field, column in LICENSEE_FIELDS.items():
        values[column] = _text(getattr(form.licensee, _LICENSEE_NAMES.get(field, field)))
    errors.check("licensee.abn", v.only_number(values["licensee_abn"]), v.exact_length(values["licensee_abn"], 11))
    errors.check("licensee.afsl", v.only_number(values["licensee_afsl"]), v.max_length(values["licensee_afsl"], 40))
    errors.check("licensee.phone", v.phone_with_brackets(values["licensee_phone"]))
    errors.check("licensee.email", v.email(values["licensee_email"]))
    for field in ("website", "fsgLink", "privacyPolicyLink"):
        column = LICENSEE_FIELDS[field]
        errors.check(f"licensee.{field}", v.website(values[column]), v.max_length(values[column], 300))
    errors.check("licensee.name", v.max_length(values["licensee_name"], 200))

    # Fees: brokerage percent with a dollar max and min; no max without a percent.
    fee = _decimal(errors, "fee", data.get("fee"))
    max_fee = _decimal(errors, "maxFee", data.get("maxFee"))
    min_fee = _decimal(errors, "minFee", data.get("minFee"))
    if fee is None and "fee" not in errors:
        max_fee = None  # spec: if fee is empty while max fee is set, max is cleared
    errors.check("fee", v.positive(fee), v.less_than(fee, 100))
    errors.check("maxFee", v.positive(max_fee), v.two_decimals(data.get("maxFee")) if max_fee is not None else None,
                 v.less_than(max_fee, MONEY_LIMIT))
    errors.check("minFee", v.positive(min_fee), v.two_decimals(data.get("minFee")) if min_fee is not None else None,
                 v.less_than(min_fee, MONEY_LIMIT))
    min_err, max_err = v.min_max(min_fee, max_fee)
    errors.check("minFee", min_err)
    errors.check("maxFee", max_err)
    values.update(fee=fee, max_fee=max_fee, min_fee=min_fee)
    values["ausiex_code"] = _text(form.ausiex_code)
    errors.check("ausiexCode", v.broker_code(values["ausiex_code"]), v.max_length(values["ausiex_code"], 40))

    # Orders: their default life in whole days (empty: the product's 30), good till cancelled only
    # when the firm says so, and how far under its trigger a triggered stop loss may sell (percent).
    days = _decimal(errors, "orderExpiryDays", data.get("orderExpiryDays"))
    if days is not None and (days != days.to_integral_value() or not 1 <= days <= MAX_ORDER_DAYS):
        errors.check("orderExpiryDays", ORDER_DAYS_TEXT)
    gap = _decimal(errors, "stopLossLimitGap", data.get("stopLossLimitGap"))
    errors.check("stopLossLimitGap", v.positive(gap), v.less_than(gap, 100),
                 v.two_decimals(data.get("stopLossLimitGap")) if gap is not None else None)
    values.update(order_expiry_days=int(days) if days is not None and "orderExpiryDays" not in errors else None,
                  order_good_till_cancelled=form.order_good_till_cancelled, stop_loss_limit_gap=gap)
    return values, errors
