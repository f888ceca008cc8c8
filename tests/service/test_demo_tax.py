"""The demo portfolios give the tax report content for two financial years: a discounted gain, a
non-discounted gain or a loss, franked dividends and capital returns; Family Trusts and the Super
Fund whose record of advice awaits the client are on "Minimise capital gains tax", and that record
of advice shows what the treatment saves against first in, first out."""
from __future__ import annotations

from sqlmodel import col, select

from app.db.engine import session_scope
from app.db.tables import Portfolio, TargetPortfolio, User
from app.domain import tax
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.services import tax_reports
from tests.advice_edge import records_of_advice


def test_demo_tax_reports_have_content(db):
    from app.services import demo

    demo.load_demo_data()
    with session_scope() as s:
        adviser = s.exec(select(User).where(User.email == "adviser@harbour.example.com")).one()
        trusts = s.exec(select(Portfolio).where(Portfolio.tax_treatment == "minimise_cgt")).all()
        assert len({p.firm_id for p in trusts}) == 3
        assert {p.name.rsplit(" ", 2)[-2] for p in trusts} == {"Family", "Super"}
        actor = Actor(id=adviser.id, role=Role.ADVISER, firm_id=adviser.firm_id, email=adviser.email)
        paddington = s.exec(select(Portfolio).where(Portfolio.name == "Paddington Super Fund")).one()
        assert paddington.tax_treatment == "minimise_cgt"
        tp = s.exec(select(TargetPortfolio).where(TargetPortfolio.investment_id == paddington.id)
                    .order_by(col(TargetPortfolio.id).desc())).first()
        superuser = s.exec(select(User).where(User.role == Role.SUPERUSER.value)).first()
        boss = Actor(id=superuser.id, role=Role.SUPERUSER, firm_id=None, email=superuser.email)
    estimate = records_of_advice.capital_gains(actor=boss, tp_id=str(tp.id))
    assert estimate is not None and estimate.minimising and estimate.sells
    assert estimate.net == estimate.minimised and estimate.saving > 0  # what the record of advice names
    this_year = tax.financial_year_of(tax.financial_year(2000).end.today())
    reports = {y: tax_reports.firm_reports(actor=actor, year=y) for y in (this_year - 1, this_year)}
    lines = [g for rs in reports.values() for r in rs for g in r.gains]
    assert any(g.eligible and g.gain > 0 and g.discount > 0 for g in lines)      # a discounted gain
    assert any(g.gain < 0 for g in lines)                                        # a loss
    assert any(ln.franking_credits > 0 for rs in reports.values() for r in rs for ln in r.income)
    assert any(r.capital.capital_returns > 0 for rs in reports.values() for r in rs)
    assert all(not r.flags for rs in reports.values() for r in rs)
    with_income = {y for y, rs in reports.items() if any(r.income for r in rs)}
    assert with_income == {this_year - 1, this_year}
