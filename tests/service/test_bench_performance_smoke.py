"""`python -m app.cli bench performance` runs end to end at a tiny size on this session's database,
prints its figures and removes what it generated (the closes it added too). Nothing here asserts a time."""
from __future__ import annotations

from sqlalchemy import func, select

from app.cli import main
from app.db.engine import session_scope
from app.db.tables import AssetPrice, Firm, Portfolio
from tests.service.test_bench_smoke import bench_env  # noqa: F401  (the fixture)


def _counts() -> tuple[int, int, int]:
    with session_scope() as s:
        return tuple(s.scalar(select(func.count()).select_from(t)) for t in (Firm, Portfolio, AssetPrice))


def test_bench_performance_times_the_page_and_the_firm_and_cleans_up(bench_env, capsys) -> None:
    before = _counts()
    code = main(["bench", "performance", "--portfolios", "6"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "One portfolio's performance page: median " in out and "(target 50 ms;" in out
    assert "periods, as at " in out and "6 periods" in out
    assert "Portfolios across the firm: " in out and "for 6 of its 6 portfolios" in out
    assert _counts() == before
