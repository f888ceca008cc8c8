"""`python -m app.cli bench engine`: the bulk calculation end to end on synthetic data.

Generates N portfolios (default 10,000, about 25 holdings each, funded by an opening balance and
executed purchases) across M models (default 20, about 40 assets each) in the configured database,
then runs a bulk calculation of target portfolios and one of trade recommendations exactly as the
product does (BulkRun rows, chunks on RQ workers when REDIS_URL is set - `--workers` processes are
started - or in-process threads otherwise). It prints portfolios per second, the time split into
load / calculate / persist, peak memory, and how persisting compares with a plain COPY of the same
rows. It prints figures; it asserts nothing.
"""
from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select as sa_select, text
from sqlmodel import select

from app.db import bulk
from app.db.engine import get_engine, session_scope
from app.db.tables import (
    Asset, AssetClass, AssetTransaction, BrokerOrder, BrokerOrderFill, BrokerOrderVersion, BulkRun, CashTransaction,
    Firm, IndustryGroup, Model, ModelAsset, ModelClass,
    ModelIndustryGroup, Portfolio, PortfolioUser, ShortTermRecommendation, TargetPortfolio, TradeAction,
    TradeInstruction, TradeNote, TradeTransaction, User, BulkRunItem,
)
from app.db.types import utcnow
from app.domain.permissions import Actor
from app.domain.roles import Role
from app.jobs.tasks import peak_memory_mb
from app.settings import settings

ROOT = Path(__file__).resolve().parent.parent
ACTIONS = ("BUY", "BUY", "BUY", "ACC", "HOLD", "SB", "TAP", "SELL")


@dataclass
class Generated:
    firm_id: int
    adviser: Actor
    model_ids: list[int]
    portfolio_ids: list[int]
    seconds: float


def _say(text_: str) -> None:
    print(text_, flush=True)


def generate(portfolios: int, models: int, assets_per_model: int = 40, holdings: int = 25, seed: int = 7) -> Generated:
    rng = random.Random(seed)
    started = time.perf_counter()
    now = utcnow()
    stamp = now.strftime("%Y%m%d%H%M%S")
    with session_scope() as s:
        firm = Firm(name=f"Benchmark {stamp}", fee=Decimal("0.11"), min_fee=Decimal("19.95"), max_fee=Decimal("500"))
        s.add(firm)
        s.flush()
        adviser = User(email=f"bench-{stamp}@bench.example.com", first_name="Bench", last_name="Adviser",
                       role=Role.ADVISER.value, firm_id=firm.id)
        client = User(email=f"bench-client-{stamp}@bench.example.com", first_name="Bench", last_name="Client",
                      role=Role.CLIENT.value, firm_id=firm.id)
        s.add(adviser)
        s.add(client)
        cash = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True))).first()
        if cash is None:
            cash = AssetClass(title="Cash", is_cash=True, idx=0)
            s.add(cash)
        classes = [AssetClass(title=f"Bench {stamp} class {k}", firm_id=firm.id, idx=k + 1) for k in range(4)]
        groups = [IndustryGroup(title=f"Bench {stamp} group {g}", idx=1000 + g) for g in range(11)]
        for row in classes + groups:
            s.add(row)
        s.flush()
        universe = max(300, assets_per_model * 8)
        asset_ids = bulk.reserve_ids(s, Asset, universe)
        asset_rows = []
        for n, aid in enumerate(asset_ids):
            asset_rows.append(dict(id=aid, code=f"Z{stamp[-6:]}{n:04d}"[:20], name=f"Bench asset {n}",
                                   class_id=classes[n % 4].id, industry_group_id=groups[n % 11].id, firm_id=firm.id,
                                   last_close_price=Decimal(rng.randint(50, 30000)) / 100, created_at=now,
                                   updated_at=now))
        bulk.copy_rows(s, Asset, asset_rows)
        prices = {r["id"]: r["last_close_price"] for r in asset_rows}
        by_class = {c.id: [r["id"] for r in asset_rows if r["class_id"] == c.id] for c in classes}
        model_ids = bulk.reserve_ids(s, Model, models)
        bulk.copy_rows(s, Model, [dict(id=mid, firm_id=firm.id, name=f"Bench model {k}", status="active",
                                       allocation_method="equal_amounts", availability="nobody",
                                       analyst_recommendations=True, class_allocation=True, type_allocation=False,
                                       industry_group_allocation=True, version=1, created_at=now, updated_at=now)
                                  for k, mid in enumerate(model_ids)])
        class_rows, asset_links, group_rows, recs = [], [], [], []
        model_assets: dict[int, list[int]] = {}
        allocations = [Decimal(40), Decimal(25), Decimal(20), Decimal(10)]
        for mid in model_ids:
            class_rows.append(dict(model_id=mid, class_id=cash.id, allocation=Decimal(5), min=Decimal(2),
                                   max=Decimal(20), priority=0))
            chosen: list[int] = []
            for k, c in enumerate(classes):
                class_rows.append(dict(model_id=mid, class_id=c.id, allocation=allocations[k], min=Decimal(0),
                                       max=Decimal(60), assets_limit=assets_per_model // 4 - 2, priority=k + 1))
                picks = rng.sample(by_class[c.id], assets_per_model // 4)
                for p_, aid in enumerate(picks):
                    asset_links.append(dict(model_id=mid, class_id=c.id, asset_id=aid, priority=p_ + 1,
                                            included_at=now, inclusion_price=prices[aid]))
                chosen += picks
            model_assets[mid] = chosen
            for g in groups:
                group_rows.append(dict(model_id=mid, industry_group_id=g.id, allocation=Decimal(20), max=Decimal(25),
                                       priority=g.idx))
            for aid in rng.sample(chosen, 8):
                recs.append(dict(model_id=mid, asset_id=aid, action=rng.choice(ACTIONS), status="active",
                                 comment="Analyst view", created_at=now, updated_at=now))
        bulk.copy_rows(s, ModelClass, class_rows)
        bulk.copy_rows(s, ModelAsset, asset_links)
        bulk.copy_rows(s, ModelIndustryGroup, group_rows)
        bulk.copy_rows(s, ShortTermRecommendation, recs)
        approval = json.dumps({"tp_approval_required": False, "tp_approval_request": False,
                               "tr_approval_required": True, "tr_approval_request": False, "tr_auto_approval": "never"})
        portfolio_ids = bulk.reserve_ids(s, Portfolio, portfolios)
        rows, holders = [], []
        for n, pid in enumerate(portfolio_ids):
            rows.append(dict(id=pid, firm_id=firm.id, name=f"Bench {n:05d}", type="SAVINGS",
                             model_id=model_ids[n % models], adviser_id=adviser.id, inactive=False,
                             tax_treatment="fifo", sell_look_back_period=0, class_allocation=False,
                             industry_group_allocation=False, suspend_rebalancing=False, suspend_tr_calculation=False,
                             max_exposure=Decimal(12), min_trade_amount=Decimal(500), min_cash_allocation=Decimal(2),
                             approval_settings=approval, version=1, created_at=now, updated_at=now))
            holders.append(dict(investment_id=pid, user_id=client.id, is_owner=True))
        bulk.copy_rows(s, Portfolio, rows)
        bulk.copy_rows(s, PortfolioUser, holders)
        trade_day = now - timedelta(days=30)
        tx_ids = bulk.reserve_ids(s, AssetTransaction, portfolios * holdings)
        asset_tx, cash_tx = [], []
        next_tx = iter(tx_ids)
        pool = list(prices)
        for n, pid in enumerate(portfolio_ids):
            own = model_assets[model_ids[n % models]]
            picks = rng.sample(own, min(holdings - 5, len(own))) + rng.sample(pool, 5)  # some outside the model
            spent = Decimal(0)
            for aid in picks:
                units = Decimal(rng.randint(10, 400))
                amount = (units * prices[aid] + Decimal("19.95")).quantize(Decimal("0.01"))
                spent += amount
                tid = next(next_tx)
                asset_tx.append(dict(id=tid, investment_id=pid, asset_id=aid, type="asset_buy", action="buy",
                                     status="executed", quantity=units, price=prices[aid], fee=Decimal("19.95"),
                                     amount=amount, trade_at=trade_day, created_at=now, updated_at=now))
                cash_tx.append(dict(investment_id=pid, type="linked", action="decrease", status="executed",
                                    price=amount, trade_at=trade_day, linked_transaction_id=tid, created_at=now,
                                    updated_at=now))
            cash_tx.append(dict(investment_id=pid, type="opening_balance", action="increase", status="executed",
                                price=(spent * Decimal(rng.choice(("1.05", "1.2", "1.5")))).quantize(Decimal("0.01")),
                                trade_at=trade_day - timedelta(days=1), created_at=now, updated_at=now))
        bulk.copy_rows(s, AssetTransaction, asset_tx)
        bulk.copy_rows(s, CashTransaction, cash_tx, columns=("investment_id", "type", "action", "status", "price",
                                                             "trade_at", "linked_transaction_id", "created_at",
                                                             "updated_at"))
        actor = Actor(id=adviser.id, role=Role.ADVISER, firm_id=firm.id, email=adviser.email)
        firm_id = firm.id
    return Generated(firm_id, actor, model_ids, portfolio_ids, time.perf_counter() - started)


def _analyze() -> None:
    """Fresh COPY'd tables get the statistics autovacuum would take within its minute: without
    them PostgreSQL plans a chunk's few hundred portfolios as a scan of every transaction."""
    if get_engine().dialect.name == "postgresql":
        # committed: ANALYZE writes its statistics in the transaction, and a connection closed
        # without a commit rolls them back (the run would then plan without any)
        with get_engine().begin() as conn:
            conn.execute(text("ANALYZE"))


def _workers(count: int) -> list[subprocess.Popen]:
    """`count` standing workers, as the product runs them, started and waiting on the queue before
    a run is timed: a user starting a run finds them there (their start is printed, not timed)."""
    from rq import Worker

    from app.jobs import runner

    env = dict(os.environ, DATABASE_URL=settings.database_url, REDIS_URL=settings.redis_url)
    procs = [subprocess.Popen([sys.executable, "-m", "app.cli", "worker"], cwd=ROOT, env=env) for _ in range(count)]
    pids = {p.pid for p in procs}
    queue = runner.queue()
    deadline = time.monotonic() + 120
    while sum(1 for w in Worker.all(queue=queue) if w.pid in pids) < count:
        if any(p.poll() is not None for p in procs) or time.monotonic() > deadline:
            _stop(procs)
            raise RuntimeError("the benchmark's workers did not start")
        time.sleep(0.05)
    return procs


def _stop(procs: list[subprocess.Popen]) -> None:
    """Stops standing workers as a deployment does (SIGTERM: each finishes its job first)."""
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a worker stuck in its job: not left running after the benchmark
            p.kill()
            p.wait()


def _run(kind: str, g: Generated, workers: int, chunk_size: int) -> dict:
    from app.jobs import runner
    from app.services import bulk_runs

    starting = time.perf_counter()
    procs = _workers(workers) if runner.uses_redis() else []
    if procs:
        _say(f"  {workers} workers started and waiting in {time.perf_counter() - starting:.2f} s (not timed)")
    started = time.perf_counter()
    run_id = bulk_runs.start_for_models(actor=g.adviser, kind=kind, model_ids=g.model_ids, chunk_size=chunk_size).id
    while True:
        with session_scope() as s:
            current = s.get(BulkRun, run_id)
            finished = current.done + current.failed >= current.total
        if finished:
            break
        if procs and all(p.poll() is not None for p in procs):
            break
        time.sleep(0.05)
    wall = time.perf_counter() - started
    _stop(procs)
    runner.wait_in_process()
    final = bulk_runs.get(actor=g.adviser, run_id=run_id)
    split = {"load": 0.0, "calculate": 0.0, "persist": 0.0}
    peak = 0.0
    if runner.uses_redis():
        from rq.registry import FinishedJobRegistry

        queue = runner.queue()
        for job_id in FinishedJobRegistry(queue=queue).get_job_ids():
            job = queue.fetch_job(job_id)
            result = job.return_value() if job else None
            if isinstance(result, dict) and job.args and job.args[0] == run_id:
                for key in split:
                    split[key] += float(result.get(key, 0.0))
                peak = max(peak, float(result.get("peak_mb", 0.0)))
    else:
        split = dict(bulk_runs.LAST_TIMINGS.get(run_id, split))
        peak = peak_memory_mb()
    return {"run": final, "wall": wall, "split": split, "peak_mb": peak}


def _copy_baseline(run_id: int) -> tuple[float, int]:
    """Seconds to write the run's target portfolio rows again with a plain COPY (PostgreSQL) or
    executemany (SQLite) into a scratch table of the same shape, and the row count."""
    cols = ["investment_id", "version", "status", "not_enough_cash", "error_message", "value", "model_id",
            "model_version", "allocation_method", "result", "bulk_run_id", "created_by", "moderator_id",
            "created_at", "updated_at", "row_version"]
    with session_scope() as s:
        rows = [dict(zip(cols, r)) for r in s.execute(
            sa_select(*[getattr(TargetPortfolio, c) for c in cols]).where(TargetPortfolio.bulk_run_id == run_id)).all()]
    engine = get_engine()
    from sqlalchemy import Column, MetaData, Table

    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS bench_copy"))
        if engine.dialect.name == "postgresql":
            conn.execute(text("CREATE TABLE bench_copy (LIKE target_portfolios INCLUDING DEFAULTS INCLUDING COMPRESSION)"))
    if engine.dialect.name == "postgresql":
        scratch = Table("bench_copy", MetaData(), autoload_with=engine)
    else:  # SQLite's CREATE TABLE AS keeps no column types (a time would read back as a number)
        scratch = Table("bench_copy", MetaData(), *(Column(c.name, c.type) for c in TargetPortfolio.__table__.columns))
        scratch.create(engine)
    started = time.perf_counter()
    with session_scope() as s:
        bulk.copy_rows(s, scratch, rows, columns=cols)
    seconds = time.perf_counter() - started
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE bench_copy"))
    return seconds, len(rows)


def cleanup(firm_id: int) -> None:
    with session_scope() as s:
        pids = sa_select(Portfolio.id).where(Portfolio.firm_id == firm_id)
        tis = sa_select(TradeInstruction.id).where(TradeInstruction.investment_id.in_(pids))
        runs = sa_select(BulkRun.id).where(BulkRun.firm_id == firm_id)
        orders = sa_select(BrokerOrder.id).where(BrokerOrder.firm_id == firm_id)  # placed by the reports' export
        for stmt in (
            delete(BrokerOrderFill).where(BrokerOrderFill.order_id.in_(orders)),
            delete(BrokerOrderVersion).where(BrokerOrderVersion.order_id.in_(orders)),
            delete(BrokerOrder).where(BrokerOrder.firm_id == firm_id),
            delete(CashTransaction).where(CashTransaction.investment_id.in_(pids)),
            delete(AssetTransaction).where(AssetTransaction.investment_id.in_(pids)),  # orders refer to trades
            delete(TradeTransaction).where(TradeTransaction.trade_instruction_id.in_(tis)),
            delete(TradeNote).where(TradeNote.trade_instruction_id.in_(tis)),
            delete(TradeAction).where(TradeAction.trade_instruction_id.in_(tis)),
            delete(TradeInstruction).where(TradeInstruction.investment_id.in_(pids)),
            delete(TargetPortfolio).where(TargetPortfolio.investment_id.in_(pids)),
            delete(BulkRunItem).where(BulkRunItem.run_id.in_(runs)),
            delete(BulkRun).where(BulkRun.firm_id == firm_id),
            delete(CashTransaction).where(CashTransaction.investment_id.in_(pids)),
            delete(AssetTransaction).where(AssetTransaction.investment_id.in_(pids)),
            delete(PortfolioUser).where(PortfolioUser.investment_id.in_(pids)),
            delete(Portfolio).where(Portfolio.firm_id == firm_id),
        ):
            s.execute(stmt)
        mids = sa_select(Model.id).where(Model.firm_id == firm_id)
        for table in (ShortTermRecommendation, ModelIndustryGroup, ModelAsset, ModelClass):
            s.execute(delete(table).where(table.model_id.in_(mids)))
        s.execute(delete(Model).where(Model.firm_id == firm_id))
        s.execute(delete(Asset).where(Asset.firm_id == firm_id))
        s.execute(delete(AssetClass).where(AssetClass.firm_id == firm_id))
        s.execute(delete(User).where(User.firm_id == firm_id))
        s.execute(delete(Firm).where(Firm.id == firm_id))
    from app.services import engine_inputs

    engine_inputs.forget_models()  # deleted outright: the next models may be given the same ids


# ---- the digest of a run's results ---------------------------------------------------------------
# Ids and the generator's time stamp differ from one run of the benchmark to the next; the digest
# names portfolios, assets, classes, industry groups and models by their generated names instead.
_ID_KEYS = {"asset_id": "asset", "model_asset_id": "asset", "eq_asset_id": "asset", "substitute_asset_id": "asset",
            "class_id": "class", "industry_group_id": "group", "model_id": "model", "portfolio_id": "portfolio"}
_TP_COLUMNS = ("status", "not_enough_cash", "error_message", "value", "model_version", "allocation_method")
_TI_COLUMNS = ("status", "validated", "error_message", "payload")
_TX_COLUMNS = ("asset_code", "action", "status", "decision", "user_action", "quantity", "price", "asset_price",
               "limit_price", "value", "fee", "cost_base", "amount", "pending", "initial_quantity", "initial_price",
               "current_units", "full_sell", "stop_loss", "urgent", "payload")
_NOTE_COLUMNS = ("source", "state", "decision", "payload")


@dataclass(frozen=True)
class Digest:
    """SHA-256 over every line a run produced, in a canonical order, ids left out."""
    kind: str
    sha256: str
    portfolios: int
    lines: int


class _Names:
    """The generated names of a benchmark firm's rows, and its time stamp taken out of texts."""

    def __init__(self, s: Any, firm_id: int) -> None:
        firm_name = s.execute(sa_select(Firm.name).where(Firm.id == firm_id)).scalar_one()
        stamp = firm_name.rsplit(" ", 1)[-1]
        self._cuts = [f"Z{stamp[-6:]}", stamp]
        self.of: dict[str, dict[int, str]] = {
            "asset": dict(s.execute(sa_select(Asset.id, Asset.name).where(Asset.firm_id == firm_id)).all()),
            "class": dict(s.execute(sa_select(AssetClass.id, AssetClass.title)).all()),
            "group": dict(s.execute(sa_select(IndustryGroup.id, IndustryGroup.title)).all()),
            "model": dict(s.execute(sa_select(Model.id, Model.name).where(Model.firm_id == firm_id)).all()),
            "portfolio": dict(s.execute(sa_select(Portfolio.id, Portfolio.name)
                                        .where(Portfolio.firm_id == firm_id)).all()),
        }

    def text(self, value: str) -> str:
        for cut in self._cuts:
            value = value.replace(cut, "#")
        return value

    def canon(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: self.canon(v, k) for k, v in value.items() if k != "id"}
        if isinstance(value, list):
            return [self.canon(v) for v in value]
        if key in _ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return self.text(self.of[_ID_KEYS[key]].get(value, "?"))
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, (Decimal, datetime)):
            return str(value)
        return value


def _line(names: _Names, tag: str, portfolio: str, values: dict[str, Any]) -> str:
    return json.dumps({"line": tag, "portfolio": portfolio, **names.canon(values)}, sort_keys=True,
                      separators=(",", ":"))


def _payload(raw: str | None) -> Any:
    return json.loads(raw) if raw else None


def digest(firm_id: int, run_id: int) -> Digest:
    """The digest of bulk run `run_id` of the benchmark firm: for target portfolios, each
    portfolio's stored figures and every line of its result (assets, deposits and custom holdings,
    classes, industry groups, overall figures); for trade recommendations, each instruction, its
    transactions and notes. Lines are sorted within a portfolio, portfolios taken by name."""
    import hashlib

    sha = hashlib.sha256()
    portfolios = lines = 0
    with session_scope() as s:
        kind = s.execute(sa_select(BulkRun.kind).where(BulkRun.id == run_id)).scalar_one()
        names = _Names(s, firm_id)
        pname = names.of["portfolio"]

        def feed(portfolio: str, rows: list[str]) -> None:
            nonlocal portfolios, lines
            rows.sort()
            sha.update(f"# {portfolio}\n".encode())
            for row in rows:
                sha.update(row.encode())
                sha.update(b"\n")
            portfolios += 1
            lines += len(rows)

        if kind == "tp":
            cols = [getattr(TargetPortfolio, c) for c in ("investment_id", "result", *_TP_COLUMNS)]
            found = s.execute(sa_select(*cols).where(TargetPortfolio.bulk_run_id == run_id)).all()
            for row in sorted(found, key=lambda r: pname.get(r[0], "")):
                name, result = pname.get(row[0], "?"), _payload(row[1])
                out = [_line(names, "target", name, dict(zip(_TP_COLUMNS, row[2:])))]
                if result is not None:
                    parts = {k: result.pop(k) for k in ("assets", "holdings", "classes", "industry_groups")
                             if k in result}
                    out.append(_line(names, "figures", name, result))
                    for part, items in parts.items():
                        out += [_line(names, part, name, item) for item in items]
                feed(name, out)
        else:
            heads = s.execute(sa_select(TradeInstruction.id, TradeInstruction.investment_id,
                                        *[getattr(TradeInstruction, c) for c in _TI_COLUMNS])
                              .where(TradeInstruction.bulk_run_id == run_id)).all()
            owner = {h[0]: pname.get(h[1], "?") for h in heads}
            by_portfolio: dict[str, list[str]] = {}
            for h in heads:
                values = dict(zip(_TI_COLUMNS, h[2:]))
                values["payload"] = _payload(values["payload"])
                by_portfolio.setdefault(owner[h[0]], []).append(_line(names, "instruction", owner[h[0]], values))
            ti_ids = sa_select(TradeInstruction.id).where(TradeInstruction.bulk_run_id == run_id)
            for tag, table, columns in (("trade", TradeTransaction, _TX_COLUMNS), ("note", TradeNote, _NOTE_COLUMNS)):
                for row in s.execute(sa_select(table.trade_instruction_id, table.asset_id,
                                               *[getattr(table, c) for c in columns])
                                     .where(table.trade_instruction_id.in_(ti_ids))):
                    values = {"asset_id": row[1], **dict(zip(columns, row[2:]))}
                    values["payload"] = _payload(values["payload"])
                    by_portfolio[owner[row[0]]].append(_line(names, tag, owner[row[0]], values))
            for name in sorted(by_portfolio):
                feed(name, by_portfolio.pop(name))
    return Digest(kind, sha.hexdigest(), portfolios, lines)


def bench_engine(portfolios: int = 10_000, models: int = 20, workers: int = 2, chunk_size: int = 250,
                 keep: bool = False, with_digest: bool = False) -> int:
    engine = get_engine()
    backend = engine.dialect.name
    mode = f"RQ on Redis with {workers} worker processes" if settings.redis_url else "in-process threads (no REDIS_URL)"
    _say(f"Database: {backend}; jobs: {mode}")
    _say(f"Generating {portfolios:,} portfolios (~25 holdings) across {models} models (~40 assets) ...")
    g = generate(portfolios, models)
    _say(f"  generated in {g.seconds:.1f} s")
    _analyze()
    digests: list[Digest] = []
    worker_peak = 0.0
    with _removed_after(g, keep):
        for kind, title in (("tp", "target portfolios"), ("tr", "trade recommendations")):
            out = _run(kind, g, workers, chunk_size)
            run, wall, split = out["run"], out["wall"], out["split"]
            worker_peak = max(worker_peak, out["peak_mb"])
            rate = run.total / wall if wall else 0.0
            _say(f"\nBulk {title}: {run.done:,} done, {run.failed:,} failed of {run.total:,} "
                 f"in {wall:.2f} s wall -> {rate:,.0f} portfolios/s")
            total = sum(split.values()) or 1.0
            _say("  time in workers (summed over processes): " + ", ".join(
                f"{k} {v:.2f} s ({100 * v / total:.0f}%)" for k, v in split.items()))
            if kind == "tp":
                copy_seconds, count = _copy_baseline(run.id)
                ratio = split["persist"] / copy_seconds if copy_seconds else float("nan")
                _say(f"  plain COPY of the same {count:,} target portfolio rows: {copy_seconds:.2f} s; "
                     f"persist / COPY = {ratio:.2f}x")
            if with_digest:
                digests.append(digest(g.firm_id, run.id))
        where = "worker process" if settings.redis_url else "this process, where the chunks ran"
        _say(f"\nPeak memory: this process {peak_memory_mb():,.0f} MB; largest {where} {worker_peak:,.0f} MB "
             f"(peak resident memory of its own, VmHWM)")
        if digests:
            import hashlib

            _say("\nDigest (SHA-256 of every line produced, ids left out):")
            for d, title in zip(digests, ("target portfolios", "trade recommendations")):
                _say(f"  {title}: {d.sha256} ({d.portfolios:,} portfolios, {d.lines:,} lines)")
            _say("  both: " + hashlib.sha256("".join(d.sha256 for d in digests).encode()).hexdigest())
    return 0


# ---- python -m app.cli bench reports ------------------------------------------------------------------
def _approved_trades(g: Generated, per_portfolio: int = 4, seed: int = 11) -> int:
    """One approved trade instruction per portfolio with `per_portfolio` approved buys and sells of
    assets it holds or its model holds, written with COPY (as a bulk run would leave them)."""
    from app.domain.advice import TIStatus, TxStatus

    rng = random.Random(seed)
    now = utcnow()
    with session_scope() as s:
        held = {}
        for pid, aid, qty, price in s.execute(sa_select(AssetTransaction.investment_id, AssetTransaction.asset_id,
                                                        AssetTransaction.quantity, AssetTransaction.price)
                                              .where(AssetTransaction.investment_id.in_(g.portfolio_ids))).all():
            held.setdefault(pid, []).append((aid, qty, price))
        codes = dict(s.execute(sa_select(Asset.id, Asset.code).where(Asset.firm_id == g.firm_id)).all())
        ti_ids = bulk.reserve_ids(s, TradeInstruction, len(g.portfolio_ids))
        heads, txs = [], []
        payload = json.dumps({"buys": "0", "sells": "0", "brokerage": "0", "min_trade_amount": "500"})
        for pid, tid in zip(g.portfolio_ids, ti_ids):
            heads.append(dict(id=tid, investment_id=pid, version=1, status=TIStatus.APPROVED.value, validated=True,
                              payload=payload, created_by=g.adviser.id, created_at=now, updated_at=now,
                              approved_at=now, row_version=1))
            for k, (aid, qty, price) in enumerate(rng.sample(held[pid], per_portfolio)):
                sell = k % 2 == 1
                units = Decimal(max(1, int(qty) // 3)) if sell else Decimal(rng.randint(20, 200))
                value = (units * price).quantize(Decimal("0.01"))
                fee = Decimal("19.95")
                txs.append(dict(trade_instruction_id=tid, asset_id=aid, asset_code=codes[aid],
                                action="decrease" if sell else "increase", status=TxStatus.APPROVED.value,
                                decision="approved", quantity=units, price=price, asset_price=price, value=value,
                                fee=fee, amount=value + fee if not sell else value - fee,
                                pending=value + fee if not sell else value - fee, current_units=qty,
                                full_sell=False, stop_loss=False, urgent=False, updated_at=now, approved_at=now,
                                payload=json.dumps({"recommendation_action": "SELL" if sell else "BUY"})))
        bulk.copy_rows(s, TradeInstruction, heads)
        bulk.copy_rows(s, TradeTransaction, txs)
    return len(txs)


def _rss_mb() -> float:
    """The process's resident memory now (Linux), in MB."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


@contextmanager
def _removed_after(g: Generated, keep: bool) -> Iterator[Generated]:
    """The benchmark's data, removed when the measures are done (or fail) unless it is kept."""
    try:
        yield g
    finally:
        if not keep:
            cleanup(g.firm_id)
            _say("Benchmark data removed (use --keep to leave it).")


def _in_child(make: Callable[..., Any], *args: Any) -> Any:
    """`make(*args)` in a child process: the synthetic data is made there, so that the peak memory
    printed is the measured work's own, as a web or worker process would see it, not the generator's."""
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(make, args)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _generate_approved(portfolios: int) -> tuple[Generated, int]:
    g = generate(portfolios, max(1, min(20, portfolios // 50)))
    return g, _approved_trades(g)


def bench_reports(portfolios: int = 10_000, keep: bool = False) -> int:
    """The trade file of a firm of `portfolios` portfolios with approved trades: generate, its Excel
    (the broker file export places every trade), the approval report, and a 200-row PDF."""
    from app.services import trade_approval_report as approval, trade_file
    # a web process has loaded the export modules (and openpyxl) long before anyone exports: so
    # does the benchmark, or the first export would time an import of a second and a half
    from app.exports import broker_files, trade_recommendations  # noqa: F401

    _say(f"Database: {get_engine().dialect.name}")
    _say(f"Generating {portfolios:,} portfolios with approved trade recommendations ...")
    g, count = _in_child(_generate_approved, portfolios)
    _say(f"  generated {count:,} approved trades in {g.seconds:.1f} s (+ trades)")
    _analyze()
    _say(f"Process memory before the reports: {_rss_mb():,.0f} MB")
    with _removed_after(g, keep):
        def measure(title: str, fn):
            before = _rss_mb()
            started = time.perf_counter()
            result = fn()
            seconds = time.perf_counter() - started
            _say(f"{title}: {seconds:.2f} s; process memory {before:,.0f} -> {_rss_mb():,.0f} MB "
                 f"(peak so far {_peak_mb():,.0f} MB)")
            return result, seconds

        report, t1 = measure("Trade file generate", lambda: trade_file.generate(actor=g.adviser))
        _say(f"  {len(report.rows):,} rows, {len(report.cash):,} portfolio cash summaries")
        # the screen sends the rows it selected, with their quantities and prices
        chosen = trade_file.read_export_lines(
            [{"id": r.recommendation_id, "quantity": str(r.quantity),
              "price": None if r.limit_price is None else str(r.limit_price), "expirationDate": None}
             for r in report.rows if r.selected and not r.hidden])
        del report  # a web process answers the generate call and lets it go before the export comes
        out, t2 = measure("Trade file Excel export of the selected rows (places every one)",
                          lambda: trade_file.export(actor=g.adviser, kind="trade_file", lines=chosen))
        _say(f"  {out.rows:,} orders written, {out.placed:,} placed, {len(out.data) / 2**20:.1f} MB file")
        _say(f"Trade file generate + Excel: {t1 + t2:.2f} s")
        groups, _ = measure("Approval report (all statuses)",
                            lambda: approval.generate(actor=g.adviser, statuses=["spv", "spa", "sad"]))
        _say(f"  {len(groups):,} instructions, {sum(len(x.items) for x in groups):,} items")
        rows_200, taken = [], 0
        for group in groups:
            if taken >= 200:
                break
            group.items = group.items[: 200 - taken]
            taken += len(group.items)
            rows_200.append(group)
        pdf, _ = measure(f"PDF of {taken} rows", lambda: trade_recommendations.pdf(rows_200, now=utcnow()))
        _say(f"  {len(pdf) / 1024:.0f} KB")
        _say(f"\nPeak memory of this process: {_peak_mb():,.0f} MB")
    return 0


# ---- python -m app.cli bench drift --------------------------------------------------------------------
def _generate_plain(portfolios: int) -> Generated:
    return generate(portfolios, max(1, min(20, portfolios // 50)))


def bench_drift(portfolios: int = 10_000, keep: bool = False) -> int:
    """The dashboard of a firm of `portfolios` portfolios: drift of every portfolio from its model
    (classes and assets), then the work queues."""
    from app.services import drift

    _say(f"Database: {get_engine().dialect.name}")
    _say(f"Generating {portfolios:,} portfolios (~25 holdings) ...")
    g = _in_child(_generate_plain, portfolios)
    _say(f"  generated in {g.seconds:.1f} s")
    _analyze()
    _say(f"Process memory before the dashboard: {_rss_mb():,.0f} MB")
    with _removed_after(g, keep):
        for attempt in ("first (model cache cold)", "second"):
            before = _rss_mb()
            started = time.perf_counter()
            report = drift.report(actor=g.adviser, with_assets=False)
            seconds = time.perf_counter() - started
            _say(f"Drift list (the dashboard), {attempt}: {seconds:.2f} s for {report.count:,} portfolios "
                 f"({report.breached:,} outside a band, {sum(len(r.classes) for r in report.rows):,} class rows); "
                 f"process memory {before:,.0f} -> {_rss_mb():,.0f} MB")
            del report
        before = _rss_mb()
        started = time.perf_counter()
        report = drift.report(actor=g.adviser)
        _say(f"Drift with every asset row: {time.perf_counter() - started:.2f} s "
             f"({sum(len(r.assets) for r in report.rows):,} asset rows); "
             f"process memory {before:,.0f} -> {_rss_mb():,.0f} MB")
        del report
        started = time.perf_counter()
        one = drift.portfolio(actor=g.adviser, investment_id=g.portfolio_ids[0])
        _say(f"One portfolio's detail: {time.perf_counter() - started:.3f} s ({len(one.assets) if one else 0} asset rows)")
        started = time.perf_counter()
        q = drift.queues(actor=g.adviser)
        _say(f"Queues: {time.perf_counter() - started:.2f} s (to validate {q.to_validate}, "
             f"trades to export {q.trades_to_export})")
        _say(f"\nPeak memory of this process: {_peak_mb():,.0f} MB")
    return 0


# ---- python -m app.cli bench tax ----------------------------------------------------------------------
def _tax_history(g: Generated, seed: int = 13) -> int:
    """Two financial years of taxable history for every generated portfolio: three purchases about
    two years ago, then in the last financial year a sale held over 12 months, one held under 12
    months, a loss-making sale and two franked dividends. Returns the rows added."""
    from app.domain import tax

    rng = random.Random(seed)
    now = utcnow()
    this_fy = tax.financial_year(tax.financial_year_of(now.date()) - 1)
    with session_scope() as s:
        prices = dict(s.exec(select(Asset.id, Asset.last_close_price).where(Asset.last_close_price.is_not(None))
                             .limit(200)).all())
        pool = list(prices)
        ids = bulk.reserve_ids(s, AssetTransaction, len(g.portfolio_ids) * 9)
        rows, ids_iter = [], iter(ids)
        old = now - timedelta(days=740)
        recent = datetime.combine(this_fy.start, datetime.min.time(), tzinfo=now.tzinfo) + timedelta(days=20)
        for pid in g.portfolio_ids:
            a, b, c = rng.sample(pool, 3)

            def add(kind: str, asset: int, when, units: Decimal, price: Decimal, **more) -> None:
                action = {"asset_buy": "buy", "parcel": "sell"}.get(kind)
                rows.append(dict(id=next(ids_iter), investment_id=pid, asset_id=asset, type=kind, action=action,
                                 status="executed", quantity=units, price=price, fee=Decimal("19.95"),
                                 amount=more.get("amount", (units * price).quantize(Decimal("0.01"))),
                                 franking_credits=more.get("franking_credits"), trade_at=when, created_at=now,
                                 updated_at=now))
            for asset in (a, b, c):
                add("asset_buy", asset, old, Decimal(200), prices[asset] * Decimal("0.8"))
            add("asset_buy", b, recent, Decimal(100), prices[b] * Decimal("0.9"))
            add("parcel", a, recent + timedelta(days=60), Decimal(100), prices[a])                # discounted gain
            add("parcel", b, recent + timedelta(days=90), Decimal(250), prices[b] * Decimal("0.95"))
            add("parcel", c, recent + timedelta(days=120), Decimal(50), prices[c] * Decimal("0.5"))  # a loss
            for asset in (a, c):
                add("dividend", asset, recent + timedelta(days=30), Decimal(0), Decimal(0), amount=Decimal("700.00"),
                    franking_credits=Decimal("300.00"))
        bulk.copy_rows(s, AssetTransaction, rows)
    return len(rows)


def _generate_taxed(portfolios: int) -> tuple[Generated, int]:
    g = generate(portfolios, max(1, min(20, portfolios // 50)), holdings=10)
    return g, _tax_history(g)


def bench_tax(portfolios: int = 10_000, keep: bool = False) -> int:
    """All tax reports of a firm of `portfolios` portfolios with two financial years of history
    (app.services.tax_reports.firm_reports), then one portfolio's report."""
    from app.domain import tax
    from app.services import tax_reports

    _say(f"Database: {get_engine().dialect.name}")
    _say(f"Generating {portfolios:,} portfolios with two financial years of transactions ...")
    g, count = _in_child(_generate_taxed, portfolios)
    _say(f"  generated in {g.seconds:.1f} s (+ {count:,} tax history rows)")
    _analyze()
    year = tax.financial_year_of(utcnow().date()) - 1
    with _removed_after(g, keep):
        before = _rss_mb()
        started = time.perf_counter()
        reports = tax_reports.firm_reports(actor=g.adviser, year=year)
        seconds = time.perf_counter() - started
        lines = sum(len(r.gains) for r in reports)
        _say(f"All tax reports of the firm, FY{year}: {seconds:.2f} s for {len(reports):,} portfolios "
             f"({lines:,} realised parcel lines, {sum(len(r.income) for r in reports):,} income lines); "
             f"process memory {before:,.0f} -> {_rss_mb():,.0f} MB")
        del reports
        started = time.perf_counter()
        one = tax_reports.portfolio_report(actor=g.adviser, portfolio_id=g.portfolio_ids[0], year=year)
        _say(f"One portfolio's tax report: {time.perf_counter() - started:.3f} s "
             f"(net capital gain {one.capital.net_capital_gain})")
        _say(f"\nPeak memory of this process: {_peak_mb():,.0f} MB")
    return 0


# ---- python -m app.cli bench performance --------------------------------------------------------------
def _closes_for_history(g: Generated, days: int = 800, seed: int = 17) -> list[int]:
    """Daily closes (a seeded random walk ending at the last close) for the assets the generated
    portfolios traded that have no close history yet; returns those asset ids, whose closes are
    removed afterwards (assets that already had a history keep it untouched)."""
    from app.db.tables import AssetPrice

    rng = random.Random(seed)
    today = utcnow().date()
    with session_scope() as s:
        traded = set(s.exec(select(AssetTransaction.asset_id).where(
            AssetTransaction.investment_id.in_(g.portfolio_ids[:2000]), AssetTransaction.asset_id.is_not(None))
            .distinct()).all())
        priced = set(s.exec(select(AssetPrice.asset_id).where(AssetPrice.asset_id.in_(traded)).distinct()).all())
        bare = sorted(traded - priced)
        last = dict(s.exec(select(Asset.id, Asset.last_close_price).where(Asset.id.in_(bare))).all()) if bare else {}
        rows = []
        for asset_id in bare:
            price = float(last.get(asset_id) or 10)
            for n in range(days):
                day = today - timedelta(days=n)
                if day.weekday() >= 5:
                    continue
                rows.append(dict(asset_id=asset_id, price_date=day, close=Decimal(f"{price:.4f}")))
                price = max(0.05, price / (1 + rng.gauss(0.0003, 0.012)))
        if rows:
            bulk.copy_rows(s, AssetPrice, rows)
    return bare


PERFORMANCE_SAMPLE = 200  # portfolios of the firm whose page bench performance times after the first


def bench_performance(portfolios: int = 10_000, keep: bool = False) -> int:
    """One portfolio's performance page (app.services.performance.portfolio_performance: every
    period, the model and the chart; target 50 ms) and an even sample of PERFORMANCE_SAMPLE of the
    pages of a firm of `portfolios` portfolios with two financial years of daily closes and
    transactions."""
    from app.db.tables import AssetPrice
    from app.services import performance

    _say(f"Database: {get_engine().dialect.name}")
    _say(f"Generating {portfolios:,} portfolios with two financial years of transactions ...")
    g, count = _in_child(_generate_taxed, portfolios)
    bare = _closes_for_history(g)
    _say(f"  generated in {g.seconds:.1f} s (+ {count:,} history rows; daily closes added for {len(bare)} assets)")
    _analyze()
    with _removed_after(g, keep):
        try:
            first = g.portfolio_ids[0]
            timings = []
            for _ in range(7):
                started = time.perf_counter()
                report = performance.portfolio_performance(actor=g.adviser, portfolio_id=first)
                timings.append(time.perf_counter() - started)
            timings.sort()
            _say(f"One portfolio's performance page: median {timings[len(timings) // 2] * 1000:.1f} ms, best "
                 f"{timings[0] * 1000:.1f} ms (target 50 ms; {len(report.chart)} chart points, "
                 f"{len(report.periods)} periods, as at {report.as_at})")
            # a page is one portfolio's: a firm's pages are timed on an even sample of them (every
            # one of 10,000 would take minutes and say nothing more)
            sample = g.portfolio_ids[::max(1, len(g.portfolio_ids) // PERFORMANCE_SAMPLE)]
            started = time.perf_counter()
            for pid in sample:
                performance.portfolio_performance(actor=g.adviser, portfolio_id=pid)
            seconds = time.perf_counter() - started
            _say(f"Portfolios across the firm: {seconds:.2f} s for {len(sample):,} of its {len(g.portfolio_ids):,} "
                 f"portfolios ({seconds * 1000 / max(1, len(sample)):.1f} ms each)")
            _say(f"\nPeak memory of this process: {_peak_mb():,.0f} MB")
        finally:
            if bare and not keep:  # before the generated assets go
                with session_scope() as s:
                    s.execute(delete(AssetPrice).where(AssetPrice.asset_id.in_(bare)))
    return 0
