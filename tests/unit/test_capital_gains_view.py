"""The capital gains panel's rows (target portfolio, trade recommendations, record of advice): a
sell with its parcels, the saving, and a sell whose parcel turns twelve months old soon named with
the day and what waiting would save."""
from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from app.services.tax_reports import AdviceTax, ParcelTax, SellTax, Wait
from app.ui.components.capital_gains import capital_gains_view


def test_the_panel_names_the_wait_the_parcels_and_the_saving():
    parcel = ParcelTax(bought_on=date(2026, 1, 5), units=D(100), cost_base=D("2000.00"), proceeds=D("3340.00"),
                       gain=D("1340.00"), method="Other (held under 12 months)", loss_applied=D(0), discount=D(0),
                       net=D("1340.00"))
    est = AdviceTax(treatment="fifo", net=D("1340.00"), minimised=D("1200.00"),
                    waits=(Wait(code="CSL", until=date(2027, 1, 6), saving=D("670.00")),),
                    sells=(SellTax(asset_id=7, code="CSL", units=D(100), price=D("33.40"), parcels=(parcel,)),))
    view = capital_gains_view(est)
    assert view.shown and view.net == "$1,340.00" and view.minimised == "$1,200.00" and view.saving == "$140.00"
    assert view.waits == ["CSL: Waiting until 06/01/2027 would lower the taxable gain by $670.00."]
    (sell,) = view.sells
    assert (sell.code, sell.gain, sell.net) == ("CSL", "$1,340.00", "$1,340.00")
    assert [(p.bought, p.units, p.cost_base, p.proceeds) for p in sell.parcels] == [
        ("05/01/2026", "100", "$2,000.00", "$3,340.00")]
    assert capital_gains_view(None).shown is False
