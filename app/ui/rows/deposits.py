"""What the deposits screen shows: the deposits' rows and their transactions, a deposit's details
sheet, and the form dialog's inputs, built from app.services.deposits' read models."""
from __future__ import annotations

import dataclasses

from app.domain import deposits as rules
from app.domain.transactions import AT_CALL_ACCOUNT
from app.services import deposits as service
from app.ui.display import day, money
from app.ui.parse import positive_int as _int
from app.ui.toolkit.rows import Detail, Option


@dataclasses.dataclass
class DepositInputs:
    """The deposit form as the user fills it in: each input's text, the auto-matured switch a flag.
    The service's DepositForm is built from it once (`sent`), for the screen's check and the write."""

    deposit_id: str = ""
    product_type: str = ""
    institution_id: str = ""
    provider_name: str = ""
    provider_type: str = ""
    provider_id: str = ""
    facility_id: str = ""
    account_number: str = ""
    deal_id: str = ""
    start_date: str = ""
    maturity_date: str = ""
    maturity_term: str = ""
    rate: str = ""
    auto_matured: bool = rules.DEFAULT_AUTO_MATURED
    cut_off_time: str = ""
    amount: str = ""
    description: str = ""
    deal_status: str = ""

    def sent(self, investment_id: int) -> rules.DepositForm:
        """The form as the service takes it: an input left empty is not sent."""
        return rules.DepositForm(
            investment_id=investment_id or None,
            deposit_id=(_int(self.deposit_id) or 0) if self.deposit_id else None,
            product_type=self.product_type or None, institution_id=self.institution_id or None,
            provider_name=self.provider_name or None, provider_type=self.provider_type or None,
            provider_id=self.provider_id or None, facility_id=self.facility_id or None,
            account_number=self.account_number or None, deal_id=self.deal_id or None,
            start_date=self.start_date or None, maturity_date=self.maturity_date or None,
            maturity_term=self.maturity_term or None, rate=self.rate or None, auto_matured=self.auto_matured,
            cut_off_time=self.cut_off_time or None, amount=self.amount or None,
            description=self.description or None, deal_status=self.deal_status or None,
        )


@dataclasses.dataclass
class DepositRow:
    id: int = 0
    name: str = ""
    code: str = ""
    product: str = ""
    is_at_call: bool = False
    provider: str = ""
    start: str = ""
    maturity: str = ""
    rate: str = ""
    deal_status: str = ""
    balance: str = ""
    closed: bool = False


@dataclasses.dataclass
class TxRow:
    id: int = 0
    date: str = ""
    type_label: str = ""
    amm_type: str = ""
    status: str = ""
    status_label: str = ""
    amount: str = ""
    transaction_type: str = ""
    description: str = ""
    can_reprocess: bool = False
    can_edit: bool = False


@dataclasses.dataclass
class DepositSheet:
    """A deposit as a read-only modal shows it (the deposit modal, or its AMM transactions with the
    deal status); closed while `open` is False."""

    open: bool = False
    title: str = ""
    deal_status: str = ""
    details: list[Detail] = dataclasses.field(default_factory=list)
    rows: list[TxRow] = dataclasses.field(default_factory=list)


def deposit_option(deposit_id: int, d: service.DepositView) -> Option:
    return Option(value=str(deposit_id), label=f"{d.name} ({d.code})")


def deposit_row(d: service.DepositView) -> DepositRow:
    return DepositRow(
        id=d.id, name=d.name, code=d.code, product=d.product_type, is_at_call=d.product_type == AT_CALL_ACCOUNT,
        provider=d.provider_name, start=day(d.start_date), maturity=day(d.maturity_date), rate=rules.rate_text(d.rate),
        deal_status=d.deal_status, balance=money(d.balance), closed=d.closed,
    )


def deposit_tx_row(t: service.DepositTransactionView) -> TxRow:
    return TxRow(
        id=t.id, date=day(t.date), type_label=t.type_label, amm_type=t.amm_type, status=t.status,
        status_label=t.status_label, amount=money(t.amount), transaction_type=t.transaction_type,
        description=t.description or "", can_reprocess=t.can_reprocess, can_edit=t.can_edit,
    )


def deposit_details(d: service.DepositView) -> list[Detail]:
    pairs = [
        ("Product type", d.product_type), ("Code", d.code), ("Provider", d.provider_name),
        ("Provider type", d.provider_type or ""), ("Provider ID", d.provider_id or ""),
        ("Facility ID", d.facility_id or ""), ("Account number", d.account_number or ""), ("Deal ID", d.deal_id),
        ("Start date", day(d.start_date)), ("Maturity date", day(d.maturity_date)),
        ("Term", rules.term_text(d.maturity_term)), ("Rate", rules.rate_text(d.rate)),
        ("Auto matured", "Yes" if d.auto_matured else "No"), ("Deal status", d.deal_status),
        ("Balance", money(d.balance)), ("Status", "Closed" if d.closed else "Open"),
    ]
    return [Detail(label=label, value=value or "—") for label, value in pairs]
