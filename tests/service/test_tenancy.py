"""Tenancy (app.services.tenancy) on a real database: for every firm-scoped aggregate, the staff and
clients of firm A read their own and the shared rows and none of firm B's; the superuser reads all;
the loaders and the lookups by code or title refuse firm B's private rows with the usual texts."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from sqlmodel import select

from app.db.engine import session_scope
from app.db.tables import (
    Asset, AssetClass, AssetType, AuditEvent, BulkRun, Firm, IndustryGroup, Model, ModelSharedFirm, Portfolio, User,
)
from app.db.types import utcnow
from app.domain import assets as asset_rules
from app.domain.errors import NotFound, PermissionDenied
from app.domain.models import Availability
from app.services import assets, tenancy
from tests import factories as f
from tests import factories_assets as fa
from tests import factories_portfolios as fp

STAFF = ("admin_a", "adviser_a")
FIRM_A = ("admin_a", "adviser_a", "client_a")


# ---- helpers (this module's own: rows written straight to the tables) ---------------------------
def _model(firm: Firm, name: str, availability: Availability = Availability.NOBODY, *, shared_with: Firm | None = None,
           deleted: bool = False) -> Model:
    with session_scope() as s:
        model = Model(firm_id=firm.id, name=name, status="active", availability=availability.value,
                      deleted_at=utcnow() if deleted else None)
        s.add(model)
        s.flush()
        if shared_with is not None:
            s.add(ModelSharedFirm(model_id=model.id, firm_id=shared_with.id))
            s.flush()
        return model


def _audit(firm: Firm | None, action: str) -> AuditEvent:
    with session_scope() as s:
        row = AuditEvent(firm_id=firm.id if firm else None, action=action, object_type="firm")
        s.add(row)
        s.flush()
        return row


def _ids(table, clause) -> set[int]:
    with session_scope() as s:
        return set(s.exec(select(table.id).where(clause)).all())


def _every(table) -> set[int]:
    with session_scope() as s:
        return set(s.exec(select(table.id)).all())


@dataclass
class Tenants:
    w: f.World
    rows: dict[str, object]

    def actor(self, who: str):
        return f.actor(getattr(self.w, who))

    def id(self, key: str) -> int:
        return self.rows[key].id

    def ids(self, *keys: str) -> set[int]:
        return {self.id(k) for k in keys}


@pytest.fixture
def t(db) -> Tenants:
    w = f.make_world()
    r: dict[str, object] = {}
    # portfolios: A's two (one held by A's client), a deleted one of A, B's one
    r["p_a_held"] = fp.make_portfolio(w.firm_a, holders=[w.client_a], adviser=w.adviser_a, name="A held")
    r["p_a_other"] = fp.make_portfolio(w.firm_a, adviser=w.adviser_a, name="A other")
    r["p_a_deleted"] = fp.make_portfolio(w.firm_a, name="A deleted", deleted_at=utcnow())
    r["p_b"] = fp.make_portfolio(w.firm_b, holders=[w.client_b], adviser=w.adviser_b, name="B held")
    # models: A's own; B's shared with A, open to all, private, 'with practice' not shared with A, deleted
    r["m_a"] = _model(w.firm_a, "A own")
    r["m_b_shared"] = _model(w.firm_b, "B shared", Availability.WITH_PRACTICE, shared_with=w.firm_a)
    r["m_b_all"] = _model(w.firm_b, "B all", Availability.ALL)
    r["m_b_private"] = _model(w.firm_b, "B private")
    r["m_b_practice"] = _model(w.firm_b, "B practice", Availability.WITH_PRACTICE)
    r["m_b_deleted"] = _model(w.firm_b, "B deleted", Availability.ALL, deleted=True)
    # reference data: shared rows, A's own, B's own
    r["c_shared"] = fa.make_class("Shared Equities")
    r["c_a"] = fa.make_class("Alpha Class", w.firm_a)
    r["c_b"] = fa.make_class("Bravo Class", w.firm_b)
    r["t_shared"] = fa.make_type("Shared Type")
    r["t_a"] = fa.make_type("Alpha Type", w.firm_a)
    r["t_b"] = fa.make_type("Bravo Type", w.firm_b)
    r["g"] = fa.make_group("Materials")
    r["a_shared"] = fa.make_asset("SHR", r["c_shared"], group=r["g"])
    r["a_a"] = fa.make_asset("APRIV", r["c_a"], firm=w.firm_a, group=r["g"])
    r["a_b"] = fa.make_asset("BPRIV", r["c_b"], firm=w.firm_b, group=r["g"])
    r["a_b_shared_class"] = fa.make_asset("BSHC", r["c_shared"], firm=w.firm_b)
    # audit events and bulk runs
    r["e_a"], r["e_b"], r["e_none"] = _audit(w.firm_a, "a.done"), _audit(w.firm_b, "b.done"), _audit(None, "su.done")
    with session_scope() as s:
        for key, firm, creator in (("run_a", w.firm_a, w.adviser_a), ("run_b", w.firm_b, w.adviser_b)):
            run = BulkRun(kind="tp", status="done", firm_id=firm.id, created_by=creator.id)
            s.add(run)
            s.flush()
            r[key] = run
    return Tenants(w, r)


# ---- firms -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("who", FIRM_A)
def test_firm_a_reads_its_own_firm_only(t, who):
    assert _ids(Firm, tenancy.readable_firms(t.actor(who))) == {t.w.firm_a.id}
    with session_scope() as s:
        assert tenancy.load_firm(s, t.actor(who), t.w.firm_a.id).id == t.w.firm_a.id
        with pytest.raises(NotFound, match="^Firm not found$"):
            tenancy.load_firm(s, t.actor(who), t.w.firm_b.id)


def test_superuser_reads_every_live_firm(t):
    su = t.actor("superuser")
    assert _ids(Firm, tenancy.readable_firms(su)) == {t.w.firm_a.id, t.w.firm_b.id}
    with session_scope() as s:
        s.get(Firm, t.w.firm_b.id).deleted_at = utcnow()
    assert _ids(Firm, tenancy.readable_firms(su)) == {t.w.firm_a.id}
    with session_scope() as s, pytest.raises(NotFound, match="^Firm not found$"):
        tenancy.load_firm(s, su, t.w.firm_b.id)


def test_model_form_firms_are_the_other_live_firms(t):
    assert _ids(Firm, tenancy.firms_to_own_or_share(t.actor("admin_a"))) == {t.w.firm_b.id}
    assert _ids(Firm, tenancy.firms_to_own_or_share(t.actor("superuser"))) == {t.w.firm_a.id, t.w.firm_b.id}


# ---- users -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("who", FIRM_A)
def test_firm_a_reads_its_own_people_only(t, who):
    firm_a = {t.w.admin_a.id, t.w.adviser_a.id, t.w.client_a.id}
    assert _ids(User, tenancy.readable_users(t.actor(who))) == firm_a
    # a firm named by anyone but the superuser is ignored
    assert _ids(User, tenancy.readable_users(t.actor(who), t.w.firm_b.id)) == firm_a
    with session_scope() as s, pytest.raises(NotFound, match="^User not found$"):
        tenancy.load_user(s, t.actor(who), t.w.admin_b.id)


def test_superuser_reads_every_user_or_one_firms(t):
    su = t.actor("superuser")
    assert _ids(User, tenancy.readable_users(su)) == _every(User)
    assert _ids(User, tenancy.readable_users(su, t.w.firm_b.id)) == {t.w.admin_b.id, t.w.adviser_b.id, t.w.client_b.id}
    with session_scope() as s:
        assert tenancy.load_user(s, su, t.w.client_b.id).id == t.w.client_b.id


@pytest.mark.parametrize("who", STAFF)
def test_staff_load_the_people_of_their_firm(t, who):
    with session_scope() as s:
        assert tenancy.load_user(s, t.actor(who), t.w.client_a.id).id == t.w.client_a.id
        for junk in (None, "x", -1, 0):
            with pytest.raises(NotFound, match="^User not found$"):
                tenancy.load_user(s, t.actor(who), junk)


def test_a_client_loads_only_themselves(t):
    with session_scope() as s:
        assert tenancy.load_user(s, t.actor("client_a"), t.w.client_a.id).id == t.w.client_a.id
        with pytest.raises(NotFound, match="^User not found$"):
            tenancy.load_user(s, t.actor("client_a"), t.w.adviser_a.id)


# ---- portfolios ------------------------------------------------------------------------------------
@pytest.mark.parametrize("who", STAFF)
def test_staff_read_their_firms_live_portfolios(t, who):
    assert _ids(Portfolio, tenancy.readable_portfolios(t.actor(who))) == t.ids("p_a_held", "p_a_other")
    # narrowing to another firm finds nothing
    assert _ids(Portfolio, tenancy.readable_portfolios(t.actor(who), t.w.firm_b.id)) == set()
    with session_scope() as s:
        assert tenancy.load_portfolio(s, t.actor(who), t.id("p_a_other"), for_edit=True).id == t.id("p_a_other")
        for hidden in ("p_b", "p_a_deleted"):
            with pytest.raises(NotFound, match="^Portfolio not found$"):
                tenancy.load_portfolio(s, t.actor(who), t.id(hidden))


def test_a_client_reads_the_portfolios_they_hold(t):
    client = t.actor("client_a")
    assert _ids(Portfolio, tenancy.readable_portfolios(client)) == t.ids("p_a_held")
    with session_scope() as s:
        assert tenancy.load_portfolio(s, client, t.id("p_a_held")).id == t.id("p_a_held")
        assert tenancy.is_holder(s, t.id("p_a_held"), t.w.client_a.id)
        assert not tenancy.is_holder(s, t.id("p_a_other"), t.w.client_a.id)
        with pytest.raises(PermissionDenied):
            tenancy.load_portfolio(s, client, t.id("p_a_held"), for_edit=True)
        for hidden in ("p_a_other", "p_b"):
            with pytest.raises(NotFound, match="^Portfolio not found$"):
                tenancy.load_portfolio(s, client, t.id(hidden))


def test_superuser_reads_every_live_portfolio_or_one_firms(t):
    su = t.actor("superuser")
    assert _ids(Portfolio, tenancy.readable_portfolios(su)) == t.ids("p_a_held", "p_a_other", "p_b")
    assert _ids(Portfolio, tenancy.readable_portfolios(su, t.w.firm_b.id)) == t.ids("p_b")
    assert _ids(Portfolio, tenancy.live_portfolios_of(t.w.firm_a.id)) == t.ids("p_a_held", "p_a_other")
    assert _ids(Portfolio, tenancy.live_portfolios_of(None)) == t.ids("p_a_held", "p_a_other", "p_b")
    with session_scope() as s:
        assert tenancy.load_portfolio(s, su, t.id("p_b"), for_edit=True).id == t.id("p_b")
        for junk in (None, "", "abc", 0, -3, 2**31):
            with pytest.raises(NotFound, match="^Portfolio not found$"):
                tenancy.load_portfolio(s, su, junk)


# ---- models ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("who", STAFF)
def test_staff_read_their_own_shared_and_open_models(t, who):
    visible = t.ids("m_a", "m_b_shared", "m_b_all")
    assert _ids(Model, tenancy.readable_models(t.actor(who))) == visible
    assert _ids(Model, tenancy.models_usable_by(t.w.firm_a.id)) == visible
    assert _ids(Model, tenancy.editable_models(t.actor(who))) == t.ids("m_a")
    with session_scope() as s:
        assert tenancy.load_model(s, t.actor(who), t.id("m_a"), for_edit=True).id == t.id("m_a")
        assert tenancy.load_model(s, t.actor(who), t.id("m_b_shared")).id == t.id("m_b_shared")
        with pytest.raises(PermissionDenied):
            tenancy.load_model(s, t.actor(who), t.id("m_b_shared"), for_edit=True)
        for hidden in ("m_b_private", "m_b_practice", "m_b_deleted"):
            with pytest.raises(NotFound, match="^Model not found$"):
                tenancy.load_model(s, t.actor(who), t.id(hidden))


def test_a_client_is_refused_models(t):
    with session_scope() as s, pytest.raises(PermissionDenied):
        tenancy.load_model(s, t.actor("client_a"), t.id("m_a"))
    assert t.id("m_b_private") not in _ids(Model, tenancy.readable_models(t.actor("client_a")))


def test_superuser_reads_every_live_model_or_one_firms(t):
    su = t.actor("superuser")
    live = t.ids("m_a", "m_b_shared", "m_b_all", "m_b_private", "m_b_practice")
    assert _ids(Model, tenancy.readable_models(su)) == live
    assert _ids(Model, tenancy.readable_models(su, t.w.firm_a.id)) == t.ids("m_a")
    assert _ids(Model, tenancy.editable_models(su)) == _every(Model)
    with session_scope() as s:
        assert tenancy.load_model(s, su, t.id("m_b_private"), for_edit=True).id == t.id("m_b_private")
    firms = _ids(Firm, tenancy.firms_of_model(t.rows["m_b_shared"]))
    assert firms == {t.w.firm_a.id, t.w.firm_b.id}


# ---- assets, classes, types, industry groups --------------------------------------------------------
@pytest.mark.parametrize("who", FIRM_A)
def test_firm_a_reads_shared_and_own_reference_data(t, who):
    actor = t.actor(who)
    assert _ids(Asset, tenancy.readable_assets(actor)) == t.ids("a_shared", "a_a")
    assert _ids(AssetClass, tenancy.readable_asset_classes(actor)) == t.ids("c_shared", "c_a")
    assert _ids(AssetType, tenancy.readable_asset_types(actor)) == t.ids("t_shared", "t_a")
    # a firm named by anyone but the superuser is ignored
    assert _ids(Asset, tenancy.readable_assets(actor, t.w.firm_b.id)) == t.ids("a_shared", "a_a")
    assert _ids(AssetClass, tenancy.readable_asset_classes(actor, t.w.firm_b.id)) == t.ids("c_shared", "c_a")
    assert _ids(AssetType, tenancy.readable_asset_types(actor, t.w.firm_b.id)) == t.ids("t_shared", "t_a")


def test_a_firms_view_of_reference_data(t):
    assert _ids(AssetClass, tenancy.asset_classes_of(t.w.firm_b.id)) == t.ids("c_shared", "c_b")
    assert _ids(AssetType, tenancy.asset_types_of(t.w.firm_b.id)) == t.ids("t_shared", "t_b")
    assert _ids(AssetClass, tenancy.asset_classes_of(None)) == t.ids("c_shared")
    with session_scope() as s:
        wanted = t.ids("c_shared", "c_a", "c_b")
        assert tenancy.usable_ids(s, AssetClass, wanted, t.w.firm_a.id) == t.ids("c_shared", "c_a")
        assert tenancy.usable_ids(s, AssetType, t.ids("t_b"), t.w.firm_a.id) == set()
        assert tenancy.usable_ids(s, AssetType, set(), t.w.firm_a.id) == set()


def test_superuser_reads_all_reference_data_or_one_firms_view(t):
    su = t.actor("superuser")
    assert _ids(Asset, tenancy.readable_assets(su)) == _every(Asset)
    assert _ids(AssetClass, tenancy.readable_asset_classes(su)) == _every(AssetClass)
    assert _ids(AssetType, tenancy.readable_asset_types(su)) == _every(AssetType)
    assert _ids(Asset, tenancy.readable_assets(su, t.w.firm_b.id)) == t.ids("a_shared", "a_b", "a_b_shared_class")
    assert _ids(AssetClass, tenancy.readable_asset_classes(su, t.w.firm_b.id)) == t.ids("c_shared", "c_b")
    assert _ids(AssetType, tenancy.readable_asset_types(su, t.w.firm_b.id)) == t.ids("t_shared", "t_b")
    assert _ids(IndustryGroup, tenancy.readable_industry_groups(su)) == _every(IndustryGroup)


@pytest.mark.parametrize("who", STAFF)
def test_staff_read_every_industry_group_a_client_none(t, who):
    assert _ids(IndustryGroup, tenancy.readable_industry_groups(t.actor(who))) == t.ids("g")
    with pytest.raises(PermissionDenied):
        tenancy.readable_industry_groups(t.actor("client_a"))


@pytest.mark.parametrize("who", FIRM_A)
def test_lookups_by_code_refuse_firm_bs_private_asset(t, who):
    actor = t.actor(who)
    with session_scope() as s:
        assert set(tenancy.find_assets_by_codes(s, actor, ["shr", " apriv ", "BPRIV", "bshc", "NOPE", ""])) == {"SHR", "APRIV"}
        assert tenancy.load_asset_by_code(s, actor, "apriv").id == t.id("a_a")
        assert tenancy.load_asset(s, actor, t.id("a_shared")).id == t.id("a_shared")
        for code in ("BPRIV", "bpriv", "BSHC"):
            with pytest.raises(NotFound, match=f"^Asset {code.upper()} is not found$"):
                tenancy.load_asset_by_code(s, actor, code)
        # a superuser's firm choice is not theirs to make
        with pytest.raises(NotFound, match="^Asset BPRIV is not found$"):
            tenancy.load_asset_by_code(s, actor, "BPRIV", t.w.firm_b.id)
        with pytest.raises(NotFound, match=f"^{asset_rules.ASSET_NOT_FOUND}$"):
            tenancy.load_asset(s, actor, t.id("a_b"))
        assert s.exec(select(Asset.id).where(tenancy.asset_by_code(actor, "BPRIV"))).first() is None


@pytest.mark.parametrize("who", STAFF)
def test_the_asset_service_lookups_refuse_firm_bs_private_asset(t, who):
    actor = t.actor(who)
    assert assets.get_asset_by_code(actor=actor, code="apriv").id == t.id("a_a")
    with pytest.raises(NotFound, match="^Asset BPRIV is not found$"):
        assets.get_asset_by_code(actor=actor, code="bpriv")
    with pytest.raises(NotFound, match="^Asset BPRIV is not found$"):
        assets.get_asset_by_code(actor=actor, code="BPRIV", firm_id=t.w.firm_b.id)
    with pytest.raises(NotFound, match=f"^{asset_rules.ASSET_NOT_FOUND}$"):
        assets.get_asset(actor=actor, asset_id=t.id("a_b"))
    assert [r.code for r in assets.search_assets(actor=actor, query="BPRIV")] == []
    with session_scope() as s:
        assert assets.find_by_codes(s, actor, ["BPRIV", "SHR"]).keys() == {"SHR"}


def test_superuser_lookups_by_code_and_a_firms_classes(t):
    su = t.actor("superuser")
    with session_scope() as s:
        assert tenancy.load_asset_by_code(s, su, "bpriv").id == t.id("a_b")
        assert tenancy.load_asset_by_code(s, su, "BPRIV", t.w.firm_b.id).id == t.id("a_b")
        with pytest.raises(NotFound, match="^Asset BPRIV is not found$"):
            tenancy.load_asset_by_code(s, su, "BPRIV", t.w.firm_a.id)

    # with a usable class: B's asset of B's class is found for B, not once its class is another firm's
    def with_class() -> int | None:
        clause = tenancy.asset_by_code(su, "BPRIV", t.w.firm_b.id, with_usable_class=True)
        with session_scope() as s:
            return s.exec(select(Asset.id).join(AssetClass, AssetClass.id == Asset.class_id).where(clause)).first()

    assert with_class() == t.id("a_b")
    with session_scope() as s:
        s.get(Asset, t.id("a_b")).class_id = t.id("c_a")
    assert with_class() is None


def test_lookups_by_title_see_only_what_the_firm_may_use(t):
    with session_scope() as s:
        def found(table, title, firm):
            return set(s.exec(select(table.id).where(tenancy.titled(table, title, firm))).all())

        assert found(AssetClass, "bravo class", t.w.firm_a.id) == set()
        assert found(AssetClass, "BRAVO CLASS", t.w.firm_b.id) == t.ids("c_b")
        assert found(AssetClass, "shared equities", t.w.firm_a.id) == t.ids("c_shared")
        assert found(AssetType, "Bravo Type", t.w.firm_a.id) == set()
        # no firm: every firm's title counts (a new shared title must not clash with any)
        assert found(AssetType, "bravo type", None) == t.ids("t_b")


# ---- audit events and bulk runs ---------------------------------------------------------------------
def test_audit_events_administrators_their_firms_superuser_all(t):
    assert _ids(AuditEvent, tenancy.readable_audit_events(t.actor("admin_a"))) == t.ids("e_a")
    assert _ids(AuditEvent, tenancy.readable_audit_events(t.actor("admin_a"), t.w.firm_b.id)) == t.ids("e_a")
    su = t.actor("superuser")
    assert _ids(AuditEvent, tenancy.readable_audit_events(su)) == t.ids("e_a", "e_b", "e_none")
    assert _ids(AuditEvent, tenancy.readable_audit_events(su, t.w.firm_b.id)) == t.ids("e_b")
    for who in ("adviser_a", "client_a"):
        with pytest.raises(PermissionDenied):
            tenancy.readable_audit_events(t.actor(who))


def test_bulk_runs_are_read_by_their_firms_staff_and_the_superuser(t):
    run_a, run_b = t.rows["run_a"], t.rows["run_b"]
    for who in STAFF:
        assert tenancy.can_read_bulk_run(t.actor(who), run_a)
        assert not tenancy.can_read_bulk_run(t.actor(who), run_b)
    assert not tenancy.can_read_bulk_run(t.actor("client_a"), run_a)
    assert tenancy.can_read_bulk_run(t.actor("superuser"), run_b)
