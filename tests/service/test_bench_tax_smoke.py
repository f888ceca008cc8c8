"""`python -m app.cli bench tax` runs end to end at a tiny size, prints its figures and removes
what it generated (no time is asserted)."""
from __future__ import annotations

import re

from app.cli import main
from tests.service.test_bench_smoke import _left_behind, bench_env  # noqa: F401  (the fixture)


def test_bench_tax_prints_the_firms_tax_reports(bench_env, capsys) -> None:  # noqa: F811
    code = main(["bench", "tax", "--portfolios", "4"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"All tax reports of the firm, FY\d{4}: [\d.]+ s for 4 portfolios \(\d+ realised parcel lines, "
                     r"8 income lines\)", out), out
    assert re.search(r"One portfolio's tax report: [\d.]+ s", out), out
    assert "Benchmark data removed" in out
    assert _left_behind() == {"Firm": 0, "Portfolio": 0, "TargetPortfolio": 0, "TradeInstruction": 0, "BulkRun": 0}
