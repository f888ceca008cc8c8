"""Term deposit and at-call account rules (spec 002 s3, s4, s5, s9): names, codes, the forms'
enabling rules and types, AMM types, deal statuses, reprocess, dates and form validation."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain import deposits as r
from app.domain.transactions import AMM_TYPES, DEAL_STATUSES, Kind, Status

TD, ACA = "Term Deposits", "At Call Account"
START = dt.date(2026, 1, 5)


def test_vocabulary_is_the_specs():
    assert DEAL_STATUSES == ("Pending – Rate to Confirm", "Pending – AMM to Process", "Pending – Bank to Process", "Live")
    assert AMM_TYPES == ("Redemption", "Interest Accrual", "Rate Change", "Placement", "Withdrawal")
    assert [r.FORM_LABELS[f] for f in r.TYPE_FORMS] == ["Buy", "Sell", "Interest Accrual", "Deposit"]
    assert r.REPROCESS_TITLE == "Success" and r.REPROCESSED == "Transaction was sended to reprocessing"


# ---- names and codes -----------------------------------------------------------------------------
def test_term_deposit_name_is_provider_td_term_maturity_rate():
    assert r.deposit_name("Westpac", TD, 6, dt.date(2026, 7, 5), D("4.5")) == "Westpac TD 6 months 05/07/2026 4.50%"
    assert r.deposit_name("ANZ", TD, 1, dt.date(2026, 2, 5), D("4.1234")) == "ANZ TD 1 month 05/02/2026 4.1234%"
    # a rate still to confirm is left out
    assert r.deposit_name("ANZ", TD, 12, dt.date(2027, 1, 5), None) == "ANZ TD 12 months 05/01/2027"


def test_at_call_names_and_codes():
    assert r.short_name("Macquarie", ACA, D("4.35")) == "Macquarie ACA 4.35%"
    assert r.deposit_name("Macquarie", ACA, None, None, D("4.35")) == "Macquarie ACA 4.35%"
    assert r.asset_code(TD, "12345") == "TD12345"
    assert r.asset_code(ACA, "A-9") == "ACAA-9"


def test_rate_text():
    assert r.rate_text(D("4.5000")) == "4.50%"
    assert r.rate_text("4.125") == "4.125%"
    assert r.rate_text(None) == "" and r.rate_text("") == ""


# ---- forms: types, enabling, AMM types ---------------------------------------------------------------
def test_form_kinds_follow_the_product_type():
    assert r.form_kind(r.Form.BUY, TD) is Kind.TD_BUY and r.form_kind(r.Form.BUY, ACA) is Kind.ACA_BUY
    assert r.form_kind(r.Form.SELL, TD) is Kind.TD_SELL and r.form_kind(r.Form.SELL, ACA) is Kind.ACA_SELL
    assert r.form_kind(r.Form.INTEREST_ACCRUAL, ACA) is Kind.ACA_INCOME
    assert r.form_kind(r.Form.DEPOSIT, ACA) is Kind.ACA_DEPOSIT
    assert r.form_kind(r.Form.INCOME, TD) is Kind.TD_INCOME
    for kind, form in r.KIND_FORM.items():
        assert r.form_kind(form, TD if kind.value.startswith("td") else ACA) is kind


def test_sell_types_show_credit_and_placements_debit():
    assert r.transaction_type(Kind.TD_SELL) == r.transaction_type(Kind.ACA_SELL) == "Credit"
    assert r.transaction_type(Kind.ACA_INCOME) == r.transaction_type(Kind.TD_INCOME) == "Credit"
    assert r.transaction_type(Kind.TD_BUY) == r.transaction_type(Kind.ACA_BUY) == r.transaction_type(Kind.ACA_DEPOSIT) == "Debit"


def test_amm_types():
    assert r.amm_type(Kind.TD_BUY) == r.amm_type(Kind.ACA_BUY) == r.amm_type(Kind.ACA_DEPOSIT) == "Placement"
    assert r.amm_type(Kind.TD_SELL) == "Redemption" and r.amm_type(Kind.ACA_SELL) == "Withdrawal"
    assert r.amm_type(Kind.ACA_INCOME) == r.amm_type(Kind.TD_INCOME) == "Interest Accrual"
    assert set(r.AMM_TYPE_OF.values()) <= set(AMM_TYPES)


@pytest.mark.parametrize("deposits, sell, aca, income", [
    ([], False, False, False),
    ([(TD, True)], True, False, True),
    ([(TD, False)], False, False, False),             # only a closed term deposit
    ([(ACA, True)], True, True, False),
    ([(ACA, False), (TD, True)], True, False, True),  # the at-call account is closed
    ([(ACA, True), (TD, True)], True, True, True),
])
def test_enabling_rules(deposits, sell, aca, income):
    enabled = r.enabled_forms(deposits)
    assert enabled.buy is True
    assert (enabled.sell, enabled.interest_accrual, enabled.deposit, enabled.income) == (sell, aca, aca, income)
    assert enabled.allows(r.Form.SELL) is sell and enabled.allows(r.Form.DEPOSIT) is aca


def test_form_fits_the_deposit():
    assert r.form_fits(r.Form.SELL, TD) is None and r.form_fits(r.Form.SELL, ACA) is None
    assert r.form_fits(r.Form.INTEREST_ACCRUAL, TD) == r.AT_CALL_ONLY
    assert r.form_fits(r.Form.DEPOSIT, TD) == r.AT_CALL_ONLY
    assert r.form_fits(r.Form.INCOME, ACA) == r.TERM_ONLY


# ---- deal statuses and reprocess ---------------------------------------------------------------------
def test_a_new_buy_waits_for_its_rate_or_for_the_bank():
    assert r.initial_deal_status(None) == "Pending – Rate to Confirm"
    assert r.initial_deal_status(D("4.5")) == "Pending – Bank to Process"
    assert r.initial_deal_status(D("0")) == "Pending – Bank to Process"


def test_deal_status_changes():
    # giving the rate moves a Rate to Confirm deal on
    assert r.deal_status_change(r.RATE_TO_CONFIRM, None, D("4")) == (r.BANK_TO_PROCESS, None)
    assert r.deal_status_change(r.RATE_TO_CONFIRM, None, None) == (r.RATE_TO_CONFIRM, None)
    assert r.deal_status_change(r.BANK_TO_PROCESS, r.LIVE, D("4")) == (r.LIVE, None)
    assert r.deal_status_change(r.AMM_TO_PROCESS, r.BANK_TO_PROCESS, D("4")) == (r.BANK_TO_PROCESS, None)
    # going live needs a rate; Live is final; unknown statuses are refused
    assert r.deal_status_change(r.AMM_TO_PROCESS, r.LIVE, None) == (r.AMM_TO_PROCESS, r.RATE_NEEDED)
    assert r.deal_status_change(r.LIVE, r.BANK_TO_PROCESS, D("4"))[1] == (
        "The deal status can't change from 'Live' to 'Pending – Bank to Process'.")
    assert r.deal_status_change(r.LIVE, r.LIVE, D("4")) == (r.LIVE, None)
    assert r.deal_status_change(r.BANK_TO_PROCESS, "Closed", D("4"))[1] is not None
    # removing the rate of a deal that needs one is refused
    assert r.deal_status_change(r.BANK_TO_PROCESS, None, None) == (r.BANK_TO_PROCESS, r.RATE_NEEDED)


def test_reprocess_rules():
    assert r.can_reprocess(Status.PROCESSING_ERROR.value) and r.can_reprocess(Status.PENDING.value)
    for status in (Status.EXECUTED, Status.PROCESSING, Status.PENDING_APPROVAL):
        assert not r.can_reprocess(status.value)
    assert r.deal_status_after_reprocess(r.BANK_TO_PROCESS) == r.AMM_TO_PROCESS
    assert r.deal_status_after_reprocess(r.RATE_TO_CONFIRM) == r.AMM_TO_PROCESS
    assert r.deal_status_after_reprocess(r.LIVE) == r.LIVE


def test_only_a_term_deposit_redeemed_to_zero_closes():
    assert r.closes(TD, D("0"), redeemed=True)
    assert not r.closes(TD, D("0.01"), redeemed=True)
    assert not r.closes(TD, D("0"), redeemed=False)
    assert not r.closes(ACA, D("0"), redeemed=True)


# ---- dates ------------------------------------------------------------------------------------------
def test_months_and_days():
    assert r.add_months(dt.date(2026, 1, 31), 1) == dt.date(2026, 2, 28)
    assert r.add_months(START, 12) == dt.date(2027, 1, 5)
    assert r.whole_months(START, dt.date(2026, 7, 5)) == 6
    assert r.whole_months(START, dt.date(2026, 7, 4)) == 5
    assert r.whole_months(START, dt.date(2026, 1, 20)) == 0


@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2090, 12, 31)))
def test_a_days_instant_reads_back_as_that_day(day):
    assert r.trade_day(r.trade_instant(day)) == day


def test_before_start():
    assert r.before_start(dt.date(2026, 1, 4), START) == "The date can't be before the deposit start date 05/01/2026."
    assert r.before_start(START, START) is None


# ---- buy form -----------------------------------------------------------------------------------------
BUY = {"ProviderProductType": TD, "ProviderName": "Westpac", "ProviderType": "Bank", "StartDate": "2026-01-05",
       "MaturityTerm": "6", "Rate": "4.5", "amount": "10000"}


def test_a_valid_buy():
    form, errors = r.clean_buy(BUY)
    assert errors.ok
    assert form.maturity_date == dt.date(2026, 7, 5) and form.maturity_term == 6
    assert form.rate == D("4.5000") and form.amount == D("10000.00") and form.auto_matured is True


def test_buy_required_fields():
    form, errors = r.clean_buy({})
    assert form is None
    assert errors == {"ProviderProductType": "Please, select product type. ", "institution_id": "Please, select provider. ",
                      "StartDate": "Please, enter start date. ", "amount": "Please, enter amount. "}
    assert r.failure_message(errors) == "Please, fill all required fields with valid data"
    assert r.failure_message({"amount": "Please, enter amount. "}) == "Please, enter amount. "


def test_buy_from_an_institution():
    data = {k: v for k, v in BUY.items() if k not in ("ProviderName", "ProviderType")}
    form, errors = r.clean_buy({**data, "institution_id": "7"}, institution=("ANZ", "Bank", [TD, ACA]))
    assert errors.ok and form.provider_name == "ANZ" and form.provider_type == "Bank" and form.institution_id == 7
    _, errors = r.clean_buy({**data, "institution_id": "7"}, institution=("Cash Co", "Bank", ["Cash Account"]))
    assert errors["institution_id"] == r.PRODUCT_MISMATCH
    _, errors = r.clean_buy({**data, "institution_id": "7"}, institution=None)
    assert errors["institution_id"] == "Please, enter a valid value. "


@pytest.mark.parametrize("change, key, text", [
    ({"MaturityTerm": "", "MaturityDate": ""}, "MaturityDate", "Please, enter maturity date. "),
    ({"MaturityTerm": "", "MaturityDate": "2026-01-05"}, "MaturityDate", r.MATURITY_BEFORE_START),
    ({"MaturityTerm": "0"}, "MaturityTerm", "Value has to be greater than 0."),
    ({"MaturityTerm": "1.5"}, "MaturityTerm", "Please, enter a valid number. "),
    ({"Rate": "-1"}, "Rate", "Please, enter positive value"),
    ({"Rate": "abc"}, "Rate", "Please, enter a valid number. "),
    ({"Rate": "100"}, "Rate", "Value has to be less than 100."),
    ({"amount": "0"}, "amount", "Value has to be greater than 0."),
    ({"amount": "10.123"}, "amount", "Max 2 decimals"),
    ({"StartDate": "31/02/2026"}, "StartDate", "Please, enter a valid date format. "),
    ({"ProviderProductType": "Cash Account"}, "ProviderProductType", "Please, enter a valid value. "),
    ({"ProviderType": "Pawn shop"}, "ProviderType", "Please, enter a valid value. "),
    ({"DealID": "has space"}, "DealID", "Please, enter a valid value. "),
    ({"CutOffTime": "25:00"}, "CutOffTime", "Please, enter a valid value. "),
])
def test_buy_field_errors(change, key, text):
    form, errors = r.clean_buy({**BUY, **change})
    assert form is None and errors[key] == text


def test_maturity_date_gives_the_term_and_at_call_has_none():
    form, _ = r.clean_buy({**BUY, "MaturityTerm": "", "MaturityDate": "05/04/2026"})
    assert form.maturity_date == dt.date(2026, 4, 5) and form.maturity_term == 3
    form, _ = r.clean_buy({**BUY, "ProviderProductType": ACA, "MaturityDate": "2020-01-01", "AutoMatured": "false",
                           "CutOffTime": "9:30"})
    assert form.maturity_date is None and form.maturity_term is None and form.auto_matured is False
    assert form.cut_off_time == "09:30"


def test_editing_keeps_the_product_type():
    _, errors = r.clean_buy({**BUY, "ProviderProductType": ACA}, edit_product_type=TD)
    assert errors["ProviderProductType"] == r.PRODUCT_TYPE_FIXED
    form, errors = r.clean_buy({k: v for k, v in BUY.items() if k != "ProviderProductType"}, edit_product_type=TD)
    assert errors.ok and form.product_type == TD


# ---- movements ---------------------------------------------------------------------------------------
def facts(product=TD, balance="1000", closed=False):
    return r.DepositFacts(product_type=product, start_date=START, closed=closed, balance=D(balance))


def test_a_sell_up_to_the_balance():
    form, errors = r.clean_move(r.Form.SELL, {"StartDate": "2026-07-05", "amount": "1000"}, facts())
    assert errors.ok and form.kind is Kind.TD_SELL and form.amount == D("1000.00") and form.day == dt.date(2026, 7, 5)
    form, errors = r.clean_move(r.Form.SELL, {"StartDate": "2026-07-05", "amount": "1000.01"}, facts())
    assert form is None and errors == {"amount": "The amount can't be more than the deposit balance $1,000.00."}


def test_a_date_before_the_start_is_refused():
    form, errors = r.clean_move(r.Form.SELL, {"StartDate": "04/01/2026", "amount": "10"}, facts())
    assert form is None and errors == {"StartDate": "The date can't be before the deposit start date 05/01/2026."}
    form, errors = r.clean_move(r.Form.INTEREST_ACCRUAL, {"StartDate": "05/01/2026", "amount": "10"}, facts(ACA))
    assert errors.ok and form.kind is Kind.ACA_INCOME


def test_movements_need_a_fitting_open_deposit():
    data = {"StartDate": "2026-02-01", "amount": "10"}
    assert r.clean_move(r.Form.SELL, data, None)[1] == {"deposit_id": "Please, select deposit. "}
    assert r.clean_move(r.Form.DEPOSIT, data, facts(TD))[1] == {"deposit_id": r.AT_CALL_ONLY}
    assert r.clean_move(r.Form.INCOME, data, facts(ACA))[1] == {"deposit_id": r.TERM_ONLY}
    assert r.clean_move(r.Form.SELL, data, facts(closed=True))[1]["deposit_id"] == r.DEPOSIT_CLOSED
    form, errors = r.clean_move(r.Form.DEPOSIT, data, facts(ACA, balance="0"))
    assert errors.ok and form.kind is Kind.ACA_DEPOSIT  # money in needs no balance


@given(balance=st.decimals(min_value=0, max_value=10**9, places=2),
       amount=st.decimals(min_value=D("0.01"), max_value=10**9, places=2))
def test_a_sell_never_exceeds_the_balance(balance, amount):
    form, errors = r.clean_move(r.Form.SELL, {"StartDate": "2026-02-01", "amount": str(amount)}, facts(balance=str(balance)))
    assert (form is not None) == (amount <= balance)
    if form is None:
        assert set(errors) == {"amount"}
