"""The README's benchmark commands keep working: `python -m app.cli bench engine`, `bench reports`
and `bench drift` run end to end at a tiny size on this session's database (bulk runs in the
process's own threads, no Redis), print their figures and remove what they generated. Nothing here
asserts a time. (`bench load` drives a running app: tests/e2e/test_bench_load_smoke_e2e.py.)"""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from app.cli import main
from app.db.engine import session_scope
from app.db.tables import BulkRun, Firm, Portfolio, TargetPortfolio, TradeInstruction


@pytest.fixture
def bench_env(db, database_url: str, data_dir, monkeypatch: pytest.MonkeyPatch):
    """The benchmarks generate their data in a child process (`bench reports` and `bench drift`): it
    reads the database from the environment, as the command would."""
    from app.settings import settings

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setattr(settings, "redis_url", "")
    return db


def _left_behind() -> dict[str, int]:
    with session_scope() as s:
        return {table.__name__: s.scalar(select(func.count()).select_from(table))
                for table in (Firm, Portfolio, TargetPortfolio, TradeInstruction, BulkRun)}


def test_bench_engine_runs_both_bulk_calculations_and_cleans_up(bench_env, capsys) -> None:
    code = main(["bench", "engine", "--portfolios", "12", "--models", "2", "--chunk-size", "5"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "jobs: in-process threads (no REDIS_URL)" in out
    assert re.search(r"Bulk target portfolios: 12 done, 0 failed of 12 in [\d.]+ s wall", out), out
    assert re.search(r"Bulk trade recommendations: 12 done, 0 failed of 12 in [\d.]+ s wall", out), out
    assert re.search(r"plain COPY of the same 12 target portfolio rows", out), out
    assert "Peak memory:" in out and "Benchmark data removed" in out
    assert _left_behind() == {"Firm": 0, "Portfolio": 0, "TargetPortfolio": 0, "TradeInstruction": 0, "BulkRun": 0}


def test_bench_engine_with_standing_workers_on_redis(bench_env, redis_url, monkeypatch, capsys) -> None:
    """As the README runs it with REDIS_URL: worker processes started and waiting before each run is
    timed, stopped after it, the chunks' timings read back from their jobs."""
    from app.settings import settings

    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setattr(settings, "redis_url", redis_url)
    code = main(["bench", "engine", "--portfolios", "12", "--models", "2", "--chunk-size", "5", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"1 workers started and waiting in [\d.]+ s \(not timed\)", out), out
    assert re.search(r"Bulk target portfolios: 12 done, 0 failed of 12 in [\d.]+ s wall", out), out
    assert re.search(r"Bulk trade recommendations: 12 done, 0 failed of 12 in [\d.]+ s wall", out), out
    assert re.search(r"time in workers \(summed over processes\): load [\d.]+ s", out), out
    assert _left_behind() == {"Firm": 0, "Portfolio": 0, "TargetPortfolio": 0, "TradeInstruction": 0, "BulkRun": 0}


def test_bench_reports_runs_the_trade_file_the_approval_report_and_a_pdf(bench_env, capsys) -> None:
    code = main(["bench", "reports", "--portfolios", "6"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"generated 24 approved trades", out), out  # four a portfolio
    assert re.search(r"Trade file generate: [\d.]+ s", out), out
    assert re.search(r"  24 rows, 6 portfolio cash summaries", out), out
    assert re.search(r"  24 orders written, \d+ placed", out), out
    assert re.search(r"Approval report \(all statuses\): [\d.]+ s", out), out
    assert re.search(r"PDF of 24 rows: [\d.]+ s", out), out
    assert "Benchmark data removed" in out
    assert _left_behind() == {"Firm": 0, "Portfolio": 0, "TargetPortfolio": 0, "TradeInstruction": 0, "BulkRun": 0}


def test_bench_drift_runs_the_dashboard_and_its_queues(bench_env, capsys) -> None:
    code = main(["bench", "drift", "--portfolios", "8"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert re.search(r"Drift list \(the dashboard\), first \(model cache cold\): [\d.]+ s for 8 portfolios", out), out
    assert re.search(r"Drift list \(the dashboard\), second: [\d.]+ s for 8 portfolios", out), out
    assert re.search(r"Drift with every asset row: [\d.]+ s \(\d+ asset rows\)", out), out
    assert re.search(r"One portfolio's detail: [\d.]+ s \(\d+ asset rows\)", out), out
    assert re.search(r"Queues: [\d.]+ s", out), out
    assert "Benchmark data removed" in out
    assert _left_behind() == {"Firm": 0, "Portfolio": 0, "TargetPortfolio": 0, "TradeInstruction": 0, "BulkRun": 0}


def _digests(out: str) -> dict[str, str]:
    return dict(re.findall(r"^  (target portfolios|trade recommendations|both): ([0-9a-f]{64})", out, re.M))


def test_bench_engine_digest_is_the_same_for_the_same_data_under_other_ids(bench_env, capsys) -> None:
    """Two runs generate the same portfolios under other ids and another time stamp: the digest of
    what each calculated is the same, and names both kinds of result."""
    args = ["bench", "engine", "--portfolios", "12", "--models", "2", "--chunk-size", "5", "--digest"]
    assert main(args) == 0
    first = _digests(capsys.readouterr().out)
    assert main(args) == 0
    out = capsys.readouterr().out
    second = _digests(out)
    assert set(first) == {"target portfolios", "trade recommendations", "both"}, out
    assert first == second, out
    assert re.search(r"target portfolios: [0-9a-f]{64} \(12 portfolios, \d+ lines\)", out), out
