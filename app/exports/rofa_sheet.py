"""The record of advice as its PDF file (app.exports.rofa_pdf) prints it: a typed value, made by
app.services.records_of_advice (`sheet` of a record, `sample_sheet` for a firm without one). Apart
from the PDF module so that the service reads it without loading the PDF renderer."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from datetime import date
from typing import Protocol

from app.domain.advice.target_portfolios import Commentary, ManagementFee
from app.domain.advice_words import AdviceLine
from app.domain.engine.results import AllocationTarget
from app.domain.firm_documents import AssetComment, Branding, Letterhead
from app.domain.users import PersonName



class ParcelGain(Protocol):
    """What the PDF prints of a parcel a sell takes (app.services.tax_reports.ParcelTax)."""

    @property
    def bought_on(self) -> date | None: ...
    @property
    def units(self) -> Decimal: ...
    @property
    def cost_base(self) -> Decimal: ...
    @property
    def proceeds(self) -> Decimal: ...
    @property
    def gain(self) -> Decimal: ...
    @property
    def method(self) -> str: ...
    @property
    def discount(self) -> Decimal: ...
    @property
    def net(self) -> Decimal: ...


class SellGain(Protocol):
    """What the PDF prints of a recommended sell (app.services.tax_reports.SellTax)."""

    @property
    def code(self) -> str: ...
    @property
    def units(self) -> Decimal: ...
    @property
    def price(self) -> Decimal: ...
    @property
    def gain(self) -> Decimal: ...
    @property
    def discount(self) -> Decimal: ...
    @property
    def net(self) -> Decimal: ...
    @property
    def parcels(self) -> Sequence[ParcelGain]: ...


class CapitalGains(Protocol):
    """What the PDF prints of the sells' capital gains (app.services.tax_reports.AdviceTax)."""

    @property
    def sells(self) -> Sequence[SellGain]: ...


@dataclass(frozen=True)
class RecordSheet:
    """A record of advice as its PDF file prints it: the letterhead and branding, the clients and the
    portfolio, the overview's figures, the recommended portfolio in words, the class and industry group
    allocations, the commentaries, the fee, the CGT estimate (with the template's comments on the assets
    sold and the sells' parcels) and the decision. A firm without any record yet previews a sample."""

    letterhead: Letterhead
    branding: Branding
    owners: tuple[PersonName, ...]
    portfolio: str
    model: str
    date: datetime | None
    version: int
    status_label: str
    client_address: tuple[str, ...]
    practice_address: tuple[str, ...]
    value: Decimal | None  # the overview: the portfolio's value, its cash after the trades, the brokerage
    cash_after: Decimal | None
    brokerage: Decimal | None
    lines: tuple[AdviceLine, ...]
    classes: tuple[AllocationTarget, ...]
    industry_groups: tuple[AllocationTarget, ...]
    group_titles: Mapping[int, str]  # an industry group's title where the result has none
    commentaries: tuple[Commentary, ...]
    fee: ManagementFee | None  # None: no fee set (the sample)
    cgt_estimate: str
    cgt_notes: tuple[AssetComment, ...]
    capital_gains: CapitalGains | None
    decided_by_superuser: bool = False
    approved_at: datetime | None = None
    declined_at: datetime | None = None
    approver: PersonName | None = None
    decliner: PersonName | None = None
