"""Portfolios service against a real database: creation defaults, same-firm holders and adviser,
the list in every context with its filters, optimistic updates, rows replaced in one transaction,
soft delete, model link / unlink (cross-firm custom holdings to cash), counts, options, reference data."""
from __future__ import annotations

import json
from decimal import Decimal

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import (
    Broker, CustomHolding, Institution, Portfolio, PortfolioClass, PortfolioException,
    PortfolioIndustryGroup, PortfolioUser,
)
from app.domain import portfolios as rules
from app.domain.errors import Conflict, NotFound, PermissionDenied, ValidationError
from app.domain.roles import Role, UserStatus
from app.api.schemas import rendered
from app.services import portfolios as svc
from app.services import reference_data
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_models as fm
from tests import factories_portfolios as fp


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def a(user):
    return f.actor(user)



def _rows(table, pid):
    with session_scope() as s:
        return s.exec(select(table).where(table.investment_id == pid)).all()


def _create(*, data, **sent):
    return rendered(svc.create_portfolio(form=rules.read_portfolio_form(data), **sent))


def _update(*, data, **sent):
    return rendered(svc.update_portfolio(form=rules.read_portfolio_form(data), **sent))


def _delete(**sent):
    return rendered(svc.delete_portfolio(**sent))


def _payload(w, **changes):
    data = {"name": "Jones Super", "type": "SMSF", "trustee_name": "Jones Pty Ltd",
            "users": [{"id": w.client.id, "is_owner": True}], "adviser": w.adviser.id}
    data.update(changes)
    return data


# ---- create ----------------------------------------------------------------------------------------
def test_create_takes_the_creation_defaults_and_removes_null_fields(w):
    saved = _create(actor=a(w.admin), data=_payload(
        w, inactive=None, tax_treatment=None, sell_look_back_period=None, fee_percent=None, approval_settings=None))
    assert saved["message"] == "Portfolio is created/updated"
    assert saved["inactive"] is True and saved["tax_treatment"] == "fifo" and saved["sell_look_back_period"] == 0
    assert saved["approval_settings"] == rules.default_approval_settings()
    assert saved["type_title"] == "Self Managed Super Fund" and saved["trustee_name"] == "Jones Pty Ltd"
    assert saved["firm_id"] == w.firm.id and saved["adviser"] == w.adviser.id and saved["version"] == 1
    assert [(u["id"], u["is_owner"]) for u in saved["Users"]] == [(w.client.id, True)]
    assert saved["owners"] == [w.client.id] and saved["model"] is None
    row = fp.portfolio_row(saved["id"])
    assert row.inactive and row.tax_treatment == "fifo" and row.created_by == w.admin.id
    assert json.loads(row.approval_settings)["tr_auto_approval"] == "never"


def test_an_adviser_creating_is_preselected_and_only_a_superuser_creates_active(w):
    mine = _create(actor=a(w.adviser), data={"name": "Mine", "type": "SAVINGS", "inactive": False,
                                                          "owners": [w.client.id]})
    assert mine["adviser"] == w.adviser.id and mine["inactive"] is True
    other = f.make_user(Role.ADVISER, w.firm)
    named = _create(actor=a(w.adviser), data={"name": "Named", "type": "SAVINGS", "adviser": other.id})
    assert named["adviser"] == other.id
    # a superuser: the firm comes from the holder, and may create it active
    active = _create(actor=a(w.superuser), data={"name": "Live", "type": "SAVINGS", "inactive": False,
                                                              "users": [{"id": w.other_client.id}]})
    assert active["inactive"] is False and active["firm_id"] == w.other_firm.id
    with pytest.raises(ValidationError) as err:
        _create(actor=a(w.superuser), data={"name": "Nowhere", "type": "SAVINGS"})
    assert err.value.fields == {"firm_id": "Please, select firm. "}
    assert _create(actor=a(w.superuser), data={"name": "Firm", "type": "SAVINGS",
                                                            "firm_id": w.firm.id})["firm_id"] == w.firm.id


def test_holders_and_adviser_come_from_the_portfolios_firm(w):
    cases = [
        ({"users": [{"id": w.other_client.id}]}, {"users": rules.HOLDER_NOT_IN_FIRM}),
        ({"users": [{"id": w.adviser.id}]}, {"users": rules.HOLDER_NOT_IN_FIRM}),  # holders are clients
        ({"adviser": w.other_adviser.id}, {"adviser": rules.ADVISER_NOT_IN_FIRM}),
        ({"adviser": w.client.id}, {"adviser": rules.ADVISER_NOT_IN_FIRM}),
    ]
    for change, fields in cases:
        with pytest.raises(ValidationError) as err:
            _create(actor=a(w.admin), data=_payload(w, **change))
        assert err.value.fields == fields and err.value.message == rules.INVALID_FORM
    deleted = f.make_user(Role.CLIENT, w.firm, status=UserStatus.DELETED)
    with pytest.raises(ValidationError):
        _create(actor=a(w.admin), data=_payload(w, users=[{"id": deleted.id}]))


def test_clients_create_nothing(w):
    with pytest.raises(PermissionDenied):
        _create(actor=a(w.client), data=_payload(w))


def test_validation_messages(w):
    with pytest.raises(ValidationError) as err:
        _create(actor=a(w.admin), data={"name": "", "type": ""})
    assert err.value.message == "Please, fill all required fields with valid data."
    assert err.value.fields == {"name": "Please, enter portfolio name. ", "type": "Please, select portfolio type. "}
    cls = fa.make_class("Equities")
    with pytest.raises(ValidationError) as err:
        _create(actor=a(w.admin), data=_payload(w, class_allocation=True, allocation_classes=[
            {"class_id": cls.id, "allocation": "90"}]))
    assert err.value.message == "Total class allocation has to be 100%."


# ---- allocations and exceptions -------------------------------------------------------------------------
def test_rows_are_saved_checked_against_the_firm_and_replaced_in_one_transaction(w):
    cash = fa.make_cash_class()
    equities, own = fa.make_class("Equities"), fa.make_class("Harbour Only", firm=w.firm)
    foreign = fa.make_class("Other Only", firm=w.other_firm)
    banks, miners = fa.make_group("Banks"), fa.make_group("Miners")
    bhp, cba = fa.make_asset("BHP", equities), fa.make_asset("CBA", equities)
    secret = fa.make_asset("OTH", equities, firm=w.other_firm)
    data = _payload(w, class_allocation=True, allocation_classes=[
        {"class_id": equities.id, "allocation": "70", "min": "60", "max": "80"},
        {"class_id": own.id, "allocation": "25"}, {"class_id": cash.id, "allocation": "5"}],
        industry_group_allocation=True, industry_groups_allocations=[
            {"industry_group_id": banks.id, "allocation": "30"}, {"industry_group_id": miners.id, "allocation": "20"}],
        exceptions=[{"asset_id": bhp.id, "action": "substitute", "substitute_asset_id": cba.id},
                    {"asset_id": cba.id, "action": "lock"}])
    saved = _create(actor=a(w.admin), data=data)
    pid = saved["id"]
    assert [(c["title"], c["allocation"], c["min"], c["max"]) for c in saved["allocation_classes"]] == [
        ("Equities", "70", "60", "80"), ("Harbour Only", "25", None, None), ("Cash", "5", None, None)]
    assert [(g["title"], g["allocation"]) for g in saved["industry_groups_allocations"]] == [("Banks", "30"), ("Miners", "20")]
    assert [(e["asset"]["code"], e["action_title"], (e["substitution"] or {}).get("code")) for e in saved["exceptions"]] == [
        ("BHP", "Substitute", "CBA"), ("CBA", "Lock", None)]
    _same_as_the_read_shape(w, saved)

    # another firm's class or asset is refused, and nothing of the portfolio changes
    for change, key in (({"allocation_classes": [{"class_id": foreign.id, "allocation": "100"}]},
                         "allocation_classes.0.class_id"),
                        ({"exceptions": [{"asset_id": secret.id, "action": "dont_hold"}]}, "exceptions.0.asset_id")):
        with pytest.raises(ValidationError) as err:
            _update(actor=a(w.admin), portfolio_id=pid, data=change)
        assert key in err.value.fields
    assert len(_rows(PortfolioClass, pid)) == 3 and len(_rows(PortfolioException, pid)) == 2

    # a custom holding of this portfolio may carry an exception; another portfolio's may not
    holding = fp.make_custom_holding(pid, "Beach House", asset_class=equities)
    stranger = fp.make_custom_holding(w.portfolio, "Farm", asset_class=equities)
    with pytest.raises(ValidationError):
        _update(actor=a(w.admin), portfolio_id=pid, data={"exceptions": [
            {"custom_holding_id": stranger.id, "action": "lock"}]})
    updated = _update(actor=a(w.admin), portfolio_id=pid, data={
        "version": 1, "class_allocation": False, "allocation_classes": [],
        "industry_groups_allocations": [{"industry_group_id": miners.id, "allocation": "100"}],
        "exceptions": [{"custom_holding_id": holding.id, "action": "dont_hold"}]})
    assert updated["version"] == 2 and updated["allocation_classes"] == []
    assert [g["title"] for g in updated["industry_groups_allocations"]] == ["Miners"]
    assert [(e["custom_holding"]["name"], e["action"]) for e in updated["exceptions"]] == [("Beach House", "dont_hold")]
    assert [h["name"] for h in updated["custom_holdings"]] == ["Beach House"]
    assert len(_rows(PortfolioIndustryGroup, pid)) == 1 and len(_rows(PortfolioException, pid)) == 1
    # the rest was kept: holders, adviser, names
    assert updated["trustee_name"] == "Jones Pty Ltd" and updated["owners"] == [w.client.id]
    _same_as_the_read_shape(w, updated)


def _same_as_the_read_shape(w, written):
    """The typed read renders as the read shape the writes answer: the same keys, values and order."""
    shown = rendered(svc.get_portfolio(actor=a(w.admin), portfolio_id=written["id"]))
    assert json.dumps(shown) == json.dumps({k: v for k, v in written.items() if k != "message"})


# ---- update ------------------------------------------------------------------------------------------
def test_update_checks_the_version_and_keeps_what_is_not_sent(w):
    pid = w.portfolio.id
    current = rendered(svc.get_portfolio(actor=a(w.adviser), portfolio_id=pid))
    saved = _update(actor=a(w.adviser), portfolio_id=pid, data={**current, "name": "Smith Family Trust",
                                                                             "type": "TRUST", "trustee_name": "Smith Co"})
    assert saved["name"] == "Smith Family Trust" and saved["version"] == current["version"] + 1
    assert saved["Users"] == current["Users"]  # the read shape goes back unchanged
    with pytest.raises(Conflict) as err:
        _update(actor=a(w.admin), portfolio_id=pid, data={**current, "name": "Late"})
    assert err.value.message == rules.PORTFOLIO_CHANGED
    assert fp.portfolio_row(pid).name == "Smith Family Trust"
    # no version: no check; a type without trustee drops the trustee name
    saved = _update(actor=a(w.admin), portfolio_id=pid, data={"type": "SAVINGS"})
    assert saved["trustee_name"] is None


def test_only_a_superuser_changes_the_inactive_flag(w):
    pid = w.portfolio.id
    assert _update(actor=a(w.admin), portfolio_id=pid, data={"inactive": True})["inactive"] is False
    assert _update(actor=a(w.superuser), portfolio_id=pid, data={"inactive": True})["inactive"] is True
    shape = svc.get_portfolio(actor=a(w.superuser), portfolio_id=pid)
    assert shape.can_edit_inactive is True
    assert svc.get_portfolio(actor=a(w.admin), portfolio_id=pid).can_edit_inactive is False


def test_holders_are_replaced_only_when_named(w):
    pid = w.portfolio.id
    _update(actor=a(w.admin), portfolio_id=pid, data={"name": "Renamed"})
    assert {u.user_id for u in _rows(PortfolioUser, pid)} == {w.client.id, w.co_holder.id}
    saved = _update(actor=a(w.admin), portfolio_id=pid, data={"owners": [w.stranger.id]})
    assert [(u["id"], u["is_owner"]) for u in saved["Users"]] == [(w.stranger.id, True)]
    # a holder who was deleted later stays valid on the next save
    f.update_user_row(w.stranger.id, status=UserStatus.DELETED.value)
    assert _update(actor=a(w.admin), portfolio_id=pid, data={"name": "Again"})["name"] == "Again"


def test_clients_and_other_firms_cannot_update(w):
    with pytest.raises(PermissionDenied):
        _update(actor=a(w.client), portfolio_id=w.portfolio.id, data={"name": "Mine"})
    with pytest.raises(NotFound):
        _update(actor=a(w.other_adviser), portfolio_id=w.portfolio.id, data={"name": "Theirs"})
    with pytest.raises(NotFound):
        _update(actor=a(w.stranger), portfolio_id=w.portfolio.id, data={"name": "Theirs"})


# ---- delete ------------------------------------------------------------------------------------------
def test_soft_delete(w):
    pid = w.portfolio.id
    with pytest.raises(PermissionDenied):
        _delete(actor=a(w.client), portfolio_id=pid)
    with pytest.raises(NotFound):
        _delete(actor=a(w.other_adviser), portfolio_id=pid)
    assert _delete(actor=a(w.adviser), portfolio_id=pid) == {"message": "Portfolio is deleted"}
    assert fp.portfolio_row(pid).deleted_at is not None
    for user in (w.admin, w.client, w.superuser):
        with pytest.raises(NotFound):
            svc.get_portfolio(actor=a(user), portfolio_id=pid)
    assert _listed(actor=a(w.superuser), activity_status="all")[1] == 1  # only the other firm's


# ---- the list ------------------------------------------------------------------------------------------
def _names(rows):
    return [r["name"] for r in rows]


def _listed(actor, *, limit=None, offset=None, sort=rules.DEFAULT_SORT, order=rules.DEFAULT_ORDER, search=None, **query):
    """The list as the API answers it: its rows rendered, and the total; the filters as sent."""
    found = svc.list_portfolios(actor=actor, where=rules.read_filter(**query), limit=limit, offset=offset, sort=sort,
                                order=order, search=search)
    return rendered(found.rows), found.total


def test_list_contexts_and_filters(w):
    broker = fp.make_broker("CommSec Test")
    model = fm.make_model(w.firm, name="Growth", availability="with_practice")
    fp.make_portfolio(w.firm, holders=[w.stranger], name="Archive", inactive=True)
    fp.make_portfolio(w.firm, holders=[w.client], name="Apple Trust", broker_id=broker.id, model=model, adviser=w.adviser)
    admin = a(w.admin)

    rows, total = _listed(actor=admin)  # default: active, by name
    assert _names(rows) == ["Apple Trust", "Smith Family"] and total == 2
    assert _names(_listed(actor=admin, activity_status="all")[0]) == ["Apple Trust", "Archive", "Smith Family"]
    assert _names(_listed(actor=admin, activity_status="inactive")[0]) == ["Archive"]
    assert _names(_listed(actor=admin, order="desc")[0]) == ["Smith Family", "Apple Trust"]
    assert _names(_listed(actor=admin, sort="id; drop table", order="asc")[0]) == ["Apple Trust", "Smith Family"]
    assert _names(_listed(actor=admin, sort="model")[0]) == ["Smith Family", "Apple Trust"]
    # contexts
    assert _names(_listed(actor=admin, client_id=w.client.id)[0]) == ["Apple Trust", "Smith Family"]
    assert _names(_listed(actor=admin, client_id=w.co_holder.id)[0]) == ["Smith Family"]
    assert _names(_listed(actor=admin, adviser_id=w.adviser.id)[0]) == ["Apple Trust", "Smith Family"]
    assert _names(_listed(actor=admin, model_id=model.id)[0]) == ["Apple Trust"]
    assert _names(_listed(actor=admin, model_ids=[model.id, 999])[0]) == ["Apple Trust"]
    assert _listed(actor=admin, firm_id=w.other_firm.id)[1] == 0  # never another firm's
    assert _listed(actor=admin, client_id="junk")[1] == 0
    # broker filter: -1 all, -2 N/A, an id
    assert _listed(actor=admin, broker_id="-1")[1] == 2
    assert _names(_listed(actor=admin, broker_id="-2")[0]) == ["Smith Family"]
    assert _names(_listed(actor=admin, broker_id=str(broker.id))[0]) == ["Apple Trust"]
    # search: portfolio name, holder name, model name
    assert _names(_listed(actor=admin, search="apple")[0]) == ["Apple Trust"]
    assert _names(_listed(actor=admin, search=w.co_holder.first_name.lower())[0]) == ["Smith Family"]
    assert _names(_listed(actor=admin, search="GROWTH")[0]) == ["Apple Trust"]
    assert _listed(actor=admin, search="100%")[1] == 0
    # paging
    rows, total = _listed(actor=admin, limit=1, offset=1)
    assert _names(rows) == ["Smith Family"] and total == 2
    row = _listed(actor=admin, search="apple")[0][0]
    assert row["model"]["name"] == "Growth" and row["broker_name"] == "CommSec Test" and row["adviser_name"]
    assert row["status_title"] == "Active" and row["type_title"] == "Savings" and row["can_edit"] is True
    assert row["firm_ids"] == {"owner_firm_id": w.firm.id, "model_firm_id": w.firm.id}
    assert row["approved_target_portfolios"] == 0 and row["latest_tp_data"] is None


def test_list_by_role(w):
    fp.make_portfolio(w.firm, holders=[w.client], name="Dormant", inactive=True)
    assert _listed(actor=a(w.superuser))[1] == 2  # both firms' active ones
    assert _names(_listed(actor=a(w.other_adviser))[0]) == ["Other Family"]
    # a client sees what they hold; the hidden activity filter means every status
    assert _names(_listed(actor=a(w.client))[0]) == ["Dormant", "Smith Family"]
    assert _names(_listed(actor=a(w.client), activity_status="active")[0]) == ["Smith Family"]
    assert _names(_listed(actor=a(w.co_holder))[0]) == ["Smith Family"]
    assert _listed(actor=a(w.stranger))[1] == 0
    assert _listed(actor=a(w.client))[0][0]["can_edit"] is False


def test_portfolio_counts(w):
    fp.make_portfolio(w.firm, holders=[w.client], adviser=w.adviser)
    counts = svc.portfolio_counts(actor=a(w.admin), user_ids=[w.client.id, w.co_holder.id, w.stranger.id, w.adviser.id,
                                                               w.other_client.id])
    assert counts == {w.client.id: 2, w.co_holder.id: 1, w.stranger.id: 0, w.adviser.id: 2, w.other_client.id: 0}
    assert svc.portfolio_counts(actor=a(w.superuser), user_ids=[w.other_client.id]) == {w.other_client.id: 1}


# ---- linking models -------------------------------------------------------------------------------------
def test_link_and_unlink_a_model_of_the_firm(w):
    pid = w.portfolio.id
    own = fm.make_model(w.firm, name="Harbour Growth", availability="only_superuser")
    holding = fp.make_custom_holding(pid, "Art", asset_class=fa.make_class("Collectibles"))
    linked = rendered(svc.link_model(actor=a(w.adviser), portfolio_id=pid, model_id=own.id))
    assert linked == {"investment_id": pid, "model_id": own.id, "modelName": "Harbour Growth",
                      "customAssetClassesChanged": False, "message": "Model linked"}
    assert fp.portfolio_row(pid).model_id == own.id
    unlinked = rendered(svc.unlink_model(actor=a(w.adviser), portfolio_id=pid))
    assert unlinked == {"investment_id": pid, "customAssetClassesChanged": False, "message": "Model unlinked"}
    assert fp.portfolio_row(pid).model_id is None
    with session_scope() as s:
        assert s.get(CustomHolding, holding.id).class_id == holding.class_id
    with pytest.raises(ValidationError) as err:
        svc.unlink_model(actor=a(w.adviser), portfolio_id=pid)
    assert err.value.message == rules.NO_MODEL_LINKED


def test_cross_firm_link_and_unlink_set_custom_holdings_to_cash(w):
    cash = fa.make_cash_class()
    pid = w.portfolio.id
    shared = fm.make_model(w.other_firm, name="Shared Income", availability="with_practice", shared=[w.firm])
    holding = fp.make_custom_holding(pid, "Farm", asset_class=fa.make_class("Property"))
    linked = rendered(svc.link_model(actor=a(w.admin), portfolio_id=pid, model_id=shared.id))
    assert linked["customAssetClassesChanged"] is True
    with session_scope() as s:
        assert s.get(CustomHolding, holding.id).class_id == cash.id
        s.get(CustomHolding, holding.id).class_id = fa.make_class("Property again").id
    unlinked = rendered(svc.unlink_model(actor=a(w.admin), portfolio_id=pid))
    assert unlinked["customAssetClassesChanged"] is True
    with session_scope() as s:
        assert s.get(CustomHolding, holding.id).class_id == cash.id
    # nothing to change: reported as unchanged
    assert rendered(svc.link_model(actor=a(w.admin), portfolio_id=pid, model_id=shared.id))["customAssetClassesChanged"] is False


def test_only_models_the_firm_may_use_are_linked(w):
    pid = w.portfolio.id
    private = fm.make_model(w.other_firm, name="Private", availability="only_superuser")
    everyone = fm.make_model(w.other_firm, name="Open", availability="all")
    draft = fm.make_model(w.firm, name="Draft", status="draft", availability="with_practice")
    nobody = fm.make_model(w.firm, name="Nobody", availability="nobody")
    with pytest.raises(NotFound):
        svc.link_model(actor=a(w.admin), portfolio_id=pid, model_id=private.id)
    with pytest.raises(NotFound):  # the superuser too: the portfolio's firm decides
        svc.link_model(actor=a(w.superuser), portfolio_id=pid, model_id=private.id)
    for model in (draft, nobody):
        with pytest.raises(ValidationError) as err:
            svc.link_model(actor=a(w.admin), portfolio_id=pid, model_id=model.id)
        assert err.value.message == rules.MODEL_NOT_LINKABLE
    assert rendered(svc.link_model(actor=a(w.superuser), portfolio_id=pid, model_id=everyone.id))["modelName"] == "Open"
    with pytest.raises(PermissionDenied):
        svc.link_model(actor=a(w.client), portfolio_id=pid, model_id=everyone.id)
    with pytest.raises(PermissionDenied):
        svc.unlink_model(actor=a(w.client), portfolio_id=pid)
    with pytest.raises(NotFound):
        svc.link_model(actor=a(w.other_adviser), portfolio_id=pid, model_id=everyone.id)

    found = rendered(svc.linkable_models(actor=a(w.admin), portfolio_id=pid))
    assert [(r["name"], r["cross_firm"], r["current"]) for r in found["rows"]] == [("Open", True, True)]
    assert found["portfolio"]["model_name"] == "Open" and found["portfolio"]["model_cross_firm"] is True
    own = fm.make_model(w.firm, name="Balanced", availability="with_practice")
    assert [r["name"] for r in rendered(svc.linkable_models(actor=a(w.admin), portfolio_id=pid, search="bal"))["rows"]] == ["Balanced"]
    assert own.id
    with pytest.raises(PermissionDenied):
        svc.linkable_models(actor=a(w.client), portfolio_id=pid)


def test_linking_bumps_the_version_so_an_open_form_conflicts(w):
    pid = w.portfolio.id
    before = rendered(svc.get_portfolio(actor=a(w.admin), portfolio_id=pid))
    svc.link_model(actor=a(w.admin), portfolio_id=pid, model_id=fm.make_model(w.firm, name="Growth", availability="with_practice").id)
    _same_as_the_read_shape(w, _update(actor=a(w.admin), portfolio_id=pid, data={"name": "Linked"}))
    with pytest.raises(Conflict):
        _update(actor=a(w.admin), portfolio_id=pid, data=before)


# ---- options and reference data ---------------------------------------------------------------------------
def test_form_options_are_the_firms_own(w):
    reference_data.ensure_reference_data()
    options = rendered(svc.form_options(actor=a(w.admin)))
    assert {c["id"] for c in options["clients"]} == {w.client.id, w.co_holder.id, w.stranger.id}
    assert [x["id"] for x in options["advisers"]] == [w.adviser.id]
    assert options["brokers"] and all(i["title"] for i in options["institutions"])
    assert "Judo Bank" not in {i["title"] for i in options["institutions"]}  # term deposits only: no cash account
    assert rendered(svc.form_options(actor=a(w.admin), firm_id=w.other_firm.id))["firm_id"] == w.firm.id
    assert [x["id"] for x in rendered(svc.form_options(actor=a(w.superuser), firm_id=w.other_firm.id))["advisers"]] == [w.other_adviser.id]
    with pytest.raises(PermissionDenied):
        svc.form_options(actor=a(w.client))


def test_reference_data_is_seeded_once(db):
    added = reference_data.ensure_reference_data()
    assert added == len(reference_data.BROKERS) + len(reference_data.INSTITUTIONS)
    assert reference_data.ensure_reference_data() == 0
    with session_scope() as s:
        names = {b.name for b in s.exec(select(Broker)).all()}
        kinds = {i.provider_type for i in s.exec(select(Institution)).all()}
    assert {"CommSec", "AUSIEX", "Bell Direct", "nabtrade", "Desktop Broker"} <= names
    assert kinds == {"Bank", "Building Society", "Credit Union"}
    user = f.make_user(Role.CLIENT, None)
    cash = reference_data.list_institutions(actor=a(user), product_type="Cash Account")
    at_call = reference_data.list_institutions(actor=a(user), product_type="At Call Account")
    assert cash and at_call and all("Cash Account" in i.product_types for i in cash)
    assert len(reference_data.list_institutions(actor=a(user))) == len(reference_data.INSTITUTIONS)
    assert reference_data.product_type_of('{"product_types": {"contains": "Cash Account"}}') == "Cash Account"
    assert reference_data.product_type_of({"product_types": "Term Deposits"}) == "Term Deposits"
    assert [b.name for b in reference_data.list_brokers(actor=a(user))][0] == "ANZ Share Investing"


def test_money_and_percent_fields_round_trip(w):
    saved = _update(actor=a(w.admin), portfolio_id=w.portfolio.id, data={
        "fee_percent": "0.55", "fee_limit_min": "19.95", "fee_limit_max": "250", "min_trade_amount": "500",
        "max_exposure": "12.5", "percentages_min_cash_balance_value": "1000.1", "soa_date": "2026-02-03",
        "approval_settings": {"client_send_tp_to_other_email": True, "client_tp_other_email": "a@x.com,b@y.com"}})
    assert (saved["fee_percent"], saved["fee_limit_min"], saved["fee_limit_max"]) == ("0.55", "19.95", "250.00")
    assert saved["min_trade_amount"] == "500.00" and saved["max_exposure"] == "12.5"
    assert saved["percentages_min_cash_balance_value"] == "1000.10" and saved["soa_date"] == "2026-02-03"
    assert saved["approval_settings"]["client_tp_other_email"] == "a@x.com, b@y.com"
    assert saved["approval_settings"]["tp_approval_required"] is True  # the other settings were kept
    row = fp.portfolio_row(w.portfolio.id)
    assert row.fee_limit_max == Decimal("250.00") and row.max_exposure == Decimal("12.5")
    with pytest.raises(ValidationError) as err:
        _update(actor=a(w.admin), portfolio_id=w.portfolio.id, data={
            "approval_settings": {"adviser_send_tr_to_other_email": True}})
    assert err.value.fields == {"approval_settings.adviser_tr_other_email": rules.RECEIVERS_EMPTY}
