"""Capital gains tax text estimate for the recommended trades (spec 002 s9).

Rules taken from the spec:

- each sold asset's gain is ``pending / value * (value - cost)``, reduced by the discount
  percent when the gain is positive (losses are never discounted);
- the net is the total times ``(1 - hin percent)``; between 0 and 100 the text gives the gain
  before and "net of HIN" (the HIN percent comes from the firm's template, app.domain.firm_documents);
- the text is specific to account type 4 (superannuation) and type 7 (personal marginal rate),
  and at a hin percent of 100 it says pensions are exempt (for any account type; a net loss is
  then stated as a loss);
- amounts are in Australian dollars;
- client-type wording is portfolio holder(s), director(s) or trustee(s) depending on the
  investment type and owner count, and the placeholder ``<Client_Type>`` stands for unknown types.

Our own choices (the spec does not state them): a sold asset with value 0 contributes 0; each
asset's contribution is rounded to the cent (half-up) before summing and the net is rounded to the
cent again; percents must lie in 0..100; one owner (or none) takes the singular wording; and the
exact sentences of the paragraph (Australian English) are ours, not the spec's.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from typing import Iterable

from app.domain.money import CENT, format_aud, to_cents

round_cents = to_cents  # the estimate's cent rounding is the one of app.domain.money
HUNDRED = Decimal(100)
ZERO = Decimal(0)

ACCOUNT_TYPE_SUPER = 4
ACCOUNT_TYPE_MARGINAL = 7

# CGT discount by portfolio type: individuals and trusts 50%, super funds 33⅓%, companies none.
CGT_DISCOUNT = {"SAVINGS": Decimal(50), "SOLE_TRADER": Decimal(50), "TRUST": Decimal(50),
                "SMSF": Decimal("33.33"), "COMPANY": ZERO}

CLIENT_TYPE_PLACEHOLDER = "<Client_Type>"

# portfolio type (spec 001 code or display name, normalised) -> (singular, plural)
_HOLDER = ("portfolio holder", "portfolio holders")
_DIRECTOR = ("director", "directors")
_TRUSTEE = ("trustee", "trustees")
_WORDING: dict[str, tuple[str, str]] = {
    "SAVINGS": _HOLDER,
    "SOLE_TRADER": _HOLDER,
    "COMPANY": _DIRECTOR,
    "TRUST": _TRUSTEE,
    "SMSF": _TRUSTEE,
    "SELF_MANAGED_SUPER_FUND": _TRUSTEE,
}


@dataclass(frozen=True)
class SoldAsset:
    code: str
    pending: Decimal
    value: Decimal
    cost: Decimal


def _dec(x: object, name: str) -> Decimal:
    if isinstance(x, Decimal):
        d = x
    elif isinstance(x, (int, str)) and not isinstance(x, bool):
        try:
            d = Decimal(x)
        except InvalidOperation:
            raise ValueError(f"{name} is not a number: {x!r}") from None
    else:
        raise ValueError(f"{name} must be a Decimal, int or str, not {type(x).__name__}")
    if not d.is_finite():
        raise ValueError(f"{name} is not a finite number: {x!r}")
    return d


def _percent(x: object, name: str) -> Decimal:
    d = _dec(x, name)
    if d < ZERO or d > HUNDRED:
        raise ValueError(f"{name} must be between 0 and 100, got {d}")
    return d


def discount_percent_for(portfolio_type: str | None) -> Decimal:
    """The CGT discount (percent) of a portfolio type; none for a type not in the table."""
    return CGT_DISCOUNT.get(portfolio_type or "", ZERO)


def account_type_for(portfolio_type: str | None) -> int:
    """The estimate's account type: superannuation for a self-managed super fund, else the
    personal marginal rate."""
    return ACCOUNT_TYPE_SUPER if portfolio_type == "SMSF" else ACCOUNT_TYPE_MARGINAL


def asset_gain(asset: SoldAsset, discount_percent: Decimal) -> Decimal:
    """One sold asset's contribution, rounded to the cent."""
    discount = _percent(discount_percent, "discount_percent")
    pending = _dec(asset.pending, "pending")
    value = _dec(asset.value, "value")
    cost = _dec(asset.cost, "cost")
    if value == ZERO:
        return ZERO.quantize(CENT)
    with localcontext() as ctx:
        ctx.prec = 50
        # pending / value * (value - cost) [* (1 - discount/100)], with one division last so that
        # a gain that is exactly half a cent is not blurred by an inexact intermediate quotient
        numerator = pending * (value - cost)
        gain_positive = (numerator > ZERO) == (value > ZERO) and numerator != ZERO
        if gain_positive:
            gain = numerator * (HUNDRED - discount) / (value * HUNDRED)
        else:
            gain = numerator / value
    return to_cents(gain)


def estimate_gain(sold: Iterable[SoldAsset], discount_percent: Decimal) -> Decimal:
    """Total estimated gain: the sum of each sold asset's cent-rounded contribution."""
    total = ZERO.quantize(CENT)
    for asset in sold:
        total += asset_gain(asset, discount_percent)
    return total


def net_gain(total: Decimal, hin_percent: Decimal) -> Decimal:
    """The net: total times (1 - hin percent), to the cent."""
    hin = _percent(hin_percent, "hin_percent")
    total = _dec(total, "total")
    with localcontext() as ctx:
        ctx.prec = 50
        return to_cents(total * (1 - hin / HUNDRED))


def _normalise_type(portfolio_type: str | None) -> str | None:
    if portfolio_type is None:
        return None
    return "_".join(str(portfolio_type).strip().upper().replace("-", " ").split()) or None


def client_type_wording(portfolio_type: str | None, owner_count: int) -> str:
    """'portfolio holder(s)', 'director(s)' or 'trustee(s)'; '<Client_Type>' when unknown.

    Accepts the spec 001 codes (SMSF, SAVINGS, TRUST, COMPANY, SOLE_TRADER) or their display
    names (e.g. 'Self Managed Super Fund', 'Sole Trader'), in any case.
    """
    pair = _WORDING.get(_normalise_type(portfolio_type) or "")
    if pair is None:
        return CLIENT_TYPE_PLACEHOLDER
    return pair[1] if owner_count > 1 else pair[0]


def cgt_estimate_text(
    sold: Iterable[SoldAsset],
    *,
    discount_percent: Decimal,
    hin_percent: Decimal,
    account_type: int,
    portfolio_type: str | None,
    owner_count: int,
) -> str:
    """An adviser-ready paragraph (Australian English) describing the estimate.

    The rules come from spec 002 s9; the sentences themselves are our wording.
    """
    sold = list(sold)
    hin = _percent(hin_percent, "hin_percent")
    discount = _percent(discount_percent, "discount_percent")
    who = client_type_wording(portfolio_type, owner_count)
    if not sold:
        return (
            "No capital gains arise from the recommended trades, as no assets are to be sold, "
            f"so no capital gains tax is estimated for the {who}."
        )
    total = estimate_gain(sold, discount)
    net = net_gain(total, hin)
    count = len(sold)
    basis = (
        f"This estimate is based on the {count} asset{'s' if count != 1 else ''} to be sold "
        "under the recommended trades and is indicative only; amounts are in Australian dollars. "
        f"The {who} should seek tax advice before acting on it."
    )

    if hin == HUNDRED:
        # spec: at 100 percent the text says pensions are exempt (whatever the account type); a
        # net loss is stated as a loss, never as a negative gain
        whose = "the fund" if account_type == ACCOUNT_TYPE_SUPER else "the portfolio"
        outcome = (f"a capital loss of {format_aud(-total)}" if total < ZERO
                   else f"a capital gain of {format_aud(total)}")
        return (
            f"The recommended trades are estimated to realise {outcome} for {whose}. As {whose}'s assets "
            "are entirely supporting pensions in the retirement phase, earnings on those assets, including "
            f"capital gains, are exempt, so no capital gains tax is payable. {basis}"
        )

    if net < ZERO:
        head = (
            f"A capital loss of {format_aud(-net)} is estimated from the recommended trades, "
            "which may be used to offset future capital gains."
        )
        return f"{head} {basis}"

    head = f"The recommended trades are estimated to realise a net capital gain of {format_aud(net)}."
    if ZERO < hin < HUNDRED:
        # the template's HIN percent (002 s7): the gross gain, then the net of HIN
        head = (f"The recommended trades are estimated to realise a capital gain of {format_aud(total)}, "
                f"which is a net capital gain of {format_aud(net)} net of HIN ({hin.normalize():f}%).")
    if account_type == ACCOUNT_TYPE_SUPER:
        middle = (
            "As a superannuation fund, the fund pays tax on this gain at the concessional rate "
            "that applies to fund earnings in the accumulation phase"
        )
        if hin > ZERO:
            middle += (
                f"; the {hin.normalize():f}% of the fund supporting pensions in the retirement "
                "phase is exempt and has been excluded from the estimate"
            )
        middle += "."
    elif account_type == ACCOUNT_TYPE_MARGINAL:
        middle = (
            "This net capital gain is added to the client's assessable income for the financial "
            "year and taxed at the client's marginal tax rate."
        )
    else:
        middle = "This net capital gain may be subject to tax according to the account's tax treatment."
    return f"{head} {middle} {basis}"


# ---- the recommended sells under the portfolio's tax treatment and under "Minimise capital gains tax"
MINIMISE_TITLE = "Minimise capital gains tax"


def treatment_comparison_text(treatment_title: str, net: Decimal, minimised: Decimal,
                              fifo: Decimal | None = None) -> str:
    """The estimated net capital gain of the recommended sells (after losses and the discount, by
    parcel - app.domain.tax) under the portfolio's treatment, beside the "Minimise capital gains tax"
    order's; a portfolio on that order is compared with first in, first out (`fifo`), and the
    saving named."""
    if treatment_title == MINIMISE_TITLE:
        head = (f"Under the portfolio's tax treatment ({MINIMISE_TITLE}) the recommended sells give an "
                f"estimated net capital gain of {format_aud(net)}")
        if fifo is None:
            return head + "."
        if fifo > net:
            return (head + f"; first in, first out would give {format_aud(fifo)}: a saving of "
                    f"{format_aud(fifo - net)} in net capital gain.")
        return head + f"; first in, first out would give the same or less ({format_aud(fifo)})."
    return (f"Under the portfolio's tax treatment ({treatment_title}) the recommended sells give an estimated "
            f"net capital gain of {format_aud(net)}; \"{MINIMISE_TITLE}\" would give {format_aud(minimised)}.")


def waiting_text(code: str, until_text: str, saving: Decimal) -> str:
    """A sell whose parcel becomes discount-eligible within 60 days (the adviser decides)."""
    return f"{code}: Waiting until {until_text} would lower the taxable gain by {format_aud(saving)}."
