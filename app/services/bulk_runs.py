"""Bulk calculation of target portfolios (kind 'tp') or trade recommendations (kind 'tr') over
many portfolios: a BulkRun row with one BulkRunItem per portfolio, executed in chunks by
background jobs (RQ workers, or in-process threads on the embedded default).

A chunk loads, calculates and persists its pending items in one database transaction: when a
worker dies mid-chunk nothing of the chunk is kept, its items stay pending, and `resume` (or
starting the chunk again) finishes the run without duplicate versions (a version row is also
unique per portfolio and run). One failing portfolio is recorded on its item and never stops the
others. Progress is published per portfolio ('investment calculated' for target portfolios,
'trade-recommendation calculated' for trade recommendations) on the run's topic and its firm's.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from datetime import datetime, timedelta
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from sqlalchemy import ColumnElement, case, func, select as sa_select, update
from sqlmodel import Session, col, select

from app.db import bulk
from app.db.engine import session_scope
from app.db.tables import (
    BulkRun, BulkRunItem, Model, Portfolio, TargetPortfolio, TradeAction, TradeInstruction, TradeNote, TradeTransaction,
)
from app.db.types import stored_id, utcnow
from app.domain import advice
from app.domain.advice import TPStatus
from app.domain.engine.errors import CalculationError
from app.domain.errors import NotFound, ValidationError, not_found
from app.domain.permissions import NOT_ALLOWED, Actor, can_bulk_calculate, require
from app.domain.recommendations import SELECT_MODEL
from app.jobs import collector, progress, runner
from app.services import audit, engine_inputs, target_portfolios, trade_instructions
from app.services.advice_queries import firm_topic, next_versions
from app.services.tenancy import (
    MODEL_NOT_FOUND, PORTFOLIO_NOT_FOUND, can_read_bulk_run, readable_models, readable_portfolios,
)
from app.domain.parsing import as_id
from app.settings import settings

log = logging.getLogger(__name__)

KINDS = ("tp", "tr")
ACTIVE = ("queued", "running")
RECENT_LIMIT = 50
# A run still queued or running after this long is taken as abandoned (its worker died and nobody
# resumed it): the screens stop offering to follow it.
ACTIVE_HOURS = 24
EVENTS = {"tp": "investment calculated", "tr": "trade-recommendation calculated"}
RUN_NOT_FOUND = not_found("Bulk calculation")


def topic(run_id: int) -> str:
    return f"bulk-run:{run_id}"


@dataclass(frozen=True)
class RunProgress:
    """A portfolio of a run finished: what is published on the run's topic and its firm's (named by
    EVENTS for the run's kind), with the run's running totals at that portfolio."""
    event: str
    run_id: int
    investment_id: int
    status: str
    error: str | None
    result_id: int | None
    done: int
    failed: int
    total: int

    @property
    def finished(self) -> int:
        return self.done + self.failed

    def payload(self) -> dict[str, Any]:
        """As published (JSON)."""
        return asdict(self)

    @classmethod
    def parse(cls, event: Mapping[str, Any] | None) -> RunProgress | None:
        """An event as received, read once (None: nothing arrived, or not a run's progress)."""
        run_id = as_id(event.get("run_id")) if event else None
        if event is None or run_id is None:
            return None
        error = event.get("error")
        return cls(event=str(event.get("event") or ""), run_id=run_id,
                   investment_id=as_id(event.get("investment_id")) or 0, status=str(event.get("status") or ""),
                   error=None if error is None else str(error), result_id=as_id(event.get("result_id")),
                   done=int(event.get("done") or 0), failed=int(event.get("failed") or 0),
                   total=int(event.get("total") or 0))


# ---- starting -----------------------------------------------------------------------------------
def _may_start(actor: Actor) -> None:
    """Bulk calculation is for superusers and advisers (the roles that may calculate, 001 s6)."""
    require(can_bulk_calculate(actor), NOT_ALLOWED)


def _calculable(s: Session, actor: Actor, where: list[ColumnElement[bool]]) -> list[int]:
    """Ids of the portfolios matching `where` that the actor may calculate (001 s6): superusers
    all; advisers those active, or inactive without an approved target portfolio."""
    query = select(col(Portfolio.id)).where(readable_portfolios(actor), *where)
    if not actor.is_superuser:
        approved = sa_select(col(TargetPortfolio.investment_id)).where(TargetPortfolio.status == TPStatus.ACTIVE.value)
        query = query.where((col(Portfolio.inactive).is_(False)) | (col(Portfolio.id).not_in(approved)))
    return [pid for pid in s.exec(query.order_by(col(Portfolio.id))).all() if pid is not None]


def _create(s: Session, actor: Actor, kind: str, ids: list[int], model_ids: list[int] | None,
            refused: dict[int, str] | None = None) -> BulkRun:
    """The run with a pending item per portfolio of `ids`, and a failed item (with its reason) per
    portfolio of `refused`."""
    now = utcnow()
    refused = refused or {}
    run = BulkRun(kind=kind, status="queued", model_ids=json.dumps(model_ids) if model_ids else None,
                  firm_id=actor.firm_id, total=len(ids) + len(refused), failed=len(refused), created_by=actor.id,
                  created_at=now)
    s.add(run)
    s.flush()
    audit.record(s, actor, "bulk_run.started", "bulk_run", run.id, firm_id=actor.firm_id,
                 label=f"{'Target portfolios' if kind == 'tp' else 'Trade recommendations'} of "
                       f"{len(ids) + len(refused)} portfolio{'' if len(ids) + len(refused) == 1 else 's'}",
                 after={"kind": kind, "portfolios": len(ids), "refused": len(refused),
                        **({"models": model_ids} if model_ids else {})})
    bulk.copy_rows(s, BulkRunItem, [(run.id, pid, "pending", None, None) for pid in ids]
                   + [(run.id, pid, "failed", reason, now) for pid, reason in sorted(refused.items())],
                   columns=("run_id", "investment_id", "status", "error", "finished_at"))
    if not ids:
        run.status, run.finished_at = "done", now
        s.add(run)
    return run


def _model_ids(model_ids: Sequence[int]) -> list[int]:
    ids = sorted(set(model_ids))
    if not ids:
        raise ValidationError(SELECT_MODEL)
    return ids


def _models_portfolios(s: Session, actor: Actor, ids: list[int]) -> list[int]:
    visible = set(s.exec(select(Model.id).where(col(Model.id).in_(ids), readable_models(actor))).all())
    if visible != set(ids):
        raise NotFound(MODEL_NOT_FOUND)
    return _calculable(s, actor, [col(Portfolio.model_id).in_(ids)])


@dataclass(frozen=True)
class PortfolioCount:
    """How many portfolios of how many models a bulk calculation would calculate."""
    portfolios: int
    models: int


def count_for_models(*, actor: Actor, model_ids: Sequence[int]) -> PortfolioCount:
    """How many portfolios a bulk calculation of the selected models would calculate (what the
    confirmation before starting names)."""
    _may_start(actor)
    ids = _model_ids(model_ids)
    with session_scope() as s:
        return PortfolioCount(portfolios=len(_models_portfolios(s, actor, ids)), models=len(ids))


def _chunk(size: int | None) -> int:
    return max(1, int(size or settings.bulk_chunk_size))


def _launch(run_id: int, ids: list[int], chunk_size: int | None = None) -> None:
    chunk_size = _chunk(chunk_size)
    for start in range(0, len(ids), chunk_size):
        runner.enqueue("app.jobs.tasks.bulk_chunk", run_id, ids[start:start + chunk_size])


def start_for_models(*, actor: Actor, kind: str, model_ids: Sequence[int],
                     chunk_size: int | None = None) -> BulkRunView:
    """bulk-calculate.calculateTP / calculateTR: every portfolio of the selected models."""
    if kind not in KINDS:
        raise ValidationError("Unknown calculation")
    _may_start(actor)
    ids = _model_ids(model_ids)
    with session_scope() as s:
        portfolios = _models_portfolios(s, actor, ids)
        run = _create(s, actor, kind, portfolios, ids)
        run_id = stored_id(run)
    _launch(run_id, portfolios, _chunk(chunk_size))
    return get(actor=actor, run_id=run_id)


def start_for_investments(*, actor: Actor, kind: str, investment_ids: Sequence[int],
                          chunk_size: int | None = None) -> BulkRunView:
    """POST /api/investments-trigger-rebalance (tp) and bulk trade recommendations from a list of
    portfolios (tr): at least one portfolio, each visible to the actor (NotFound for the whole
    request otherwise). A portfolio the actor may see but not calculate (001 s6) is recorded in the
    run as a failed item with the reason; the others are calculated."""
    if kind not in KINDS:
        raise ValidationError("Unknown calculation")
    _may_start(actor)
    ids = sorted(set(investment_ids))
    if not ids:
        raise ValidationError(advice.SELECT_INVESTMENT)
    with session_scope() as s:
        allowed = _calculable(s, actor, [col(Portfolio.id).in_(ids)])
        visible = set(s.exec(select(Portfolio.id).where(col(Portfolio.id).in_(ids), readable_portfolios(actor))).all())
        if visible != set(ids):
            raise NotFound(PORTFOLIO_NOT_FOUND)
        refused = {pid: NOT_ALLOWED for pid in ids if pid not in set(allowed)}
        run = _create(s, actor, kind, allowed, None, refused)
        run_id = stored_id(run)
    _launch(run_id, allowed, _chunk(chunk_size))
    return get(actor=actor, run_id=run_id)


def resume(*, actor: Actor | None, run_id: int, chunk_size: int | None = None) -> int:
    """Starts the chunks of a run's pending items again (after a worker died); returns how many
    items were pending. Safe to call at any time: finished items are never calculated again."""
    with session_scope() as s:
        run = s.get(BulkRun, run_id)
        if run is None or (actor is not None and not can_read_bulk_run(actor, run)):
            raise NotFound(RUN_NOT_FOUND)
        pending = list(s.exec(select(BulkRunItem.investment_id).where(BulkRunItem.run_id == run_id,
                                                                      BulkRunItem.status == "pending")
                              .order_by(col(BulkRunItem.investment_id))).all())
        run.resumed_at = utcnow()
        s.add(run)
    _launch(run_id, pending, _chunk(chunk_size))
    return len(pending)


# The progress modal says a run is waiting for a worker when nothing finished for this long.
WAITING_AFTER = timedelta(seconds=20)
# A run none of whose portfolios finished for this long (and not queued again meanwhile) has lost its
# work: a worker died mid-chunk, or Redis restarted and its queue forgot the jobs.
STALL_AFTER = timedelta(minutes=2)


def resume_stalled(*, stall_after: timedelta = STALL_AFTER, now: datetime | None = None) -> list[int]:
    """Queues again the pending portfolios of every run that stopped moving; returns their ids.
    Called by the periodic sweep (workers, or the web process on the embedded default), so a run
    finishes by itself once a worker and Redis are back. Safe to repeat and to run in several
    processes: finished portfolios are never calculated again and a version is unique per run."""
    now = now or utcnow()
    with session_scope() as s:
        live = s.exec(select(BulkRun).where(col(BulkRun.status).in_(("queued", "running")))).all()
        moved: dict[int, datetime | None] = {rid: at for rid, at in s.execute(
            sa_select(col(BulkRunItem.run_id), func.max(col(BulkRunItem.finished_at)))
            .where(col(BulkRunItem.run_id).in_([r.id for r in live]))
            .group_by(col(BulkRunItem.run_id))).all()} if live else {}
        stalled = [stored_id(r) for r in live
                   if now - max(t for t in (moved.get(stored_id(r)), r.resumed_at, r.started_at, r.created_at) if t)
                   >= stall_after]
    resumed = []
    for run_id in stalled:
        if resume(actor=None, run_id=run_id):
            resumed.append(run_id)
            log.warning("bulk run %s had stalled: its pending portfolios were queued again", run_id)
    return resumed


# ---- running a chunk ----------------------------------------------------------------------------
@dataclass
class ChunkTimings:
    load: float = 0.0
    calculate: float = 0.0
    persist: float = 0.0
    done: int = 0
    failed: int = 0
    events: list[RunProgress] = field(default_factory=list)


_sqlite_writer = threading.Lock()
# Where the time of this process's chunks went, per run (read by the benchmark in in-process mode).
LAST_TIMINGS: dict[int, dict[str, float]] = {}
_timings_lock = threading.Lock()


def _account(run_id: int, timings: "ChunkTimings") -> None:
    with _timings_lock:
        total = LAST_TIMINGS.setdefault(run_id, {"load": 0.0, "calculate": 0.0, "persist": 0.0})
        total["load"] += timings.load
        total["calculate"] += timings.calculate
        total["persist"] += timings.persist


def run_chunk(run_id: int, investment_ids: Iterable[int]) -> ChunkTimings:
    """Calculates and stores the pending items of `investment_ids` in run `run_id` (one
    transaction), then publishes their progress. On SQLite (one writer at a time) the chunks of
    the in-process threads take turns."""
    from app.db.engine import get_engine

    with collector.paused():
        if get_engine().dialect.name == "sqlite":
            with _sqlite_writer:
                timings = _run_chunk(run_id, investment_ids)
        else:
            timings = _run_chunk(run_id, investment_ids)
    _account(run_id, timings)
    return timings


def _run_chunk(run_id: int, investment_ids: Iterable[int]) -> ChunkTimings:
    timings = ChunkTimings()
    with session_scope() as s:
        run = s.exec(select(BulkRun).where(BulkRun.id == run_id)).first()
        if run is None:
            return timings
        ids = list(s.exec(select(BulkRunItem.investment_id).where(
            BulkRunItem.run_id == run_id, BulkRunItem.status == "pending",
            col(BulkRunItem.investment_id).in_(list(investment_ids)))).all())
        if not ids:
            return timings
        started = time.perf_counter()
        now = utcnow()
        if run.kind == "tp":
            snapshots = engine_inputs.build_snapshots(s, ids)
            versions = next_versions(s, ids, TargetPortfolio)
            timings.load = time.perf_counter() - started
            started = time.perf_counter()
            results = target_portfolios.calculate_all(snapshots)
        else:
            inputs = trade_instructions.load_trade_inputs(s, ids)
            versions = next_versions(s, ids, TradeInstruction)
            timings.load = time.perf_counter() - started
            started = time.perf_counter()
            trades = trade_instructions.generate_all(inputs)
        timings.calculate = time.perf_counter() - started
        started = time.perf_counter()
        facts = {pid: (model_id, name, firm_id) for pid, model_id, name, firm_id in s.execute(
            sa_select(col(Portfolio.id), col(Portfolio.model_id), col(Portfolio.name), col(Portfolio.firm_id))
            .where(col(Portfolio.id).in_(ids))).all()}
        portfolios = {pid: f[0] for pid, f in facts.items()}
        outcomes: dict[int, tuple[str, str | None, int | None]] = {}
        if run.kind == "tp":
            rows = []
            tp_ids = bulk.reserve_ids(s, TargetPortfolio, len(ids))
            for new_id, pid in zip(tp_ids, ids):
                target = results.get(pid) or CalculationError("missing", "The portfolio was deleted")
                row = target_portfolios.target_row(pid, versions[pid], target, actor_id=run.created_by, run_id=run_id,
                                                   now=now, model_id=portfolios.get(pid))
                row["id"] = new_id
                rows.append(row)
                error = target.message if isinstance(target, CalculationError) else None
                outcomes[pid] = ("failed" if error is not None else "done", error, new_id)
            bulk.copy_rows(s, TargetPortfolio, rows)
        else:
            heads, children, notes, actions = [], [], [], []
            ti_ids = bulk.reserve_ids(s, TradeInstruction, len(ids))
            for new_id, pid in zip(ti_ids, ids):
                tp_id, result = trades.get(pid) or (None, CalculationError("missing", "The portfolio was deleted"))
                error = result.message if isinstance(result, CalculationError) else None
                head, txs, nts = trade_instructions.instruction_rows(pid, versions[pid], tp_id, result,
                                                                     actor_id=run.created_by, run_id=run_id, now=now)
                head["id"] = new_id
                heads.append(head)
                for row in txs:
                    row["trade_instruction_id"] = new_id
                for row in nts:
                    row["trade_instruction_id"] = new_id
                children += txs
                notes += nts
                outcomes[pid] = ("failed" if error is not None else "done", error, new_id)
                # the action history entry trade_instructions._store writes for one at a time
                actions.append((new_id, run.created_by, "calculation failed" if error is not None else "calculated",
                                error, now))
            bulk.copy_rows(s, TradeInstruction, heads)
            if children:
                bulk.copy_rows(s, TradeTransaction, children)
            if notes:
                bulk.copy_rows(s, TradeNote, notes)
            bulk.copy_rows(s, TradeAction, actions,
                           columns=("trade_instruction_id", "actor_id", "action", "detail", "created_at"))
        # each portfolio's new version on its audit trail, as when calculated one at a time
        key = "target_portfolio" if run.kind == "tp" else "trade_recommendations"
        audit.record_many(s, run.created_by, "target_portfolio.calculated" if run.kind == "tp"
                          else "trade_instruction.calculated", "portfolio",
                          [(pid, facts.get(pid, (None, None, None))[1], facts.get(pid, (None, None, None))[2],
                            {key: versions[pid], "bulk_run": run_id,
                             **({"error": outcomes[pid][1]} if outcomes[pid][0] == "failed" else {})}) for pid in ids])
        counts = Counter(status for status, _, _ in outcomes.values())
        for status in ("done", "failed"):
            group = [pid for pid, (st, _, _) in outcomes.items() if st == status]
            if not group:
                continue
            if status == "done":
                # each item names the version it produced (the progress modal links to it)
                s.execute(update(BulkRunItem).where(col(BulkRunItem.run_id) == run_id,
                                                    col(BulkRunItem.investment_id).in_(group))
                          .values(status="done", finished_at=now,
                                  result_id=case({pid: outcomes[pid][2] for pid in group},
                                                 value=BulkRunItem.investment_id)))
            else:
                for pid in group:
                    s.execute(update(BulkRunItem).where(col(BulkRunItem.run_id) == run_id,
                                                        col(BulkRunItem.investment_id) == pid)
                              .values(status="failed", error=outcomes[pid][1], finished_at=now,
                                      result_id=outcomes[pid][2]))
        s.execute(update(BulkRun).where(col(BulkRun.id) == run_id).values(
            done=col(BulkRun.done) + counts["done"], failed=col(BulkRun.failed) + counts["failed"], status="running",
            started_at=func.coalesce(col(BulkRun.started_at), now)))
        s.flush()
        totals = s.execute(sa_select(col(BulkRun.done), col(BulkRun.failed), col(BulkRun.total))
                           .where(col(BulkRun.id) == run_id)).one()
        if totals.done + totals.failed >= totals.total:
            s.execute(update(BulkRun).where(col(BulkRun.id) == run_id).values(status="done", finished_at=now))
        timings.persist = time.perf_counter() - started
        timings.done, timings.failed = counts["done"], counts["failed"]
        firm_id = run.firm_id
        kind = run.kind
        running_done, running_failed = totals.done - counts["done"], totals.failed - counts["failed"]
        for pid in ids:
            status, error, result_id = outcomes[pid]
            running_done += status == "done"
            running_failed += status == "failed"
            timings.events.append(RunProgress(event=EVENTS[kind], run_id=run_id, investment_id=pid, status=status,
                                              error=error, result_id=result_id, done=running_done,
                                              failed=running_failed, total=totals.total))
    progress.publish_many([topic(run_id), firm_topic(firm_id)], [e.payload() for e in timings.events])
    return timings


# ---- reading ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunNames:
    """What a run calculates, named: the first `limit` portfolios (or models, for a run of models) by
    name, and how many there are in all."""
    names: list[str]
    total: int


def run_names(*, actor: Actor, run_id: int, limit: int = 3) -> RunNames:
    """The names of a run the actor may see (the models it was started for, else its portfolios)."""
    with session_scope() as s:
        run = s.get(BulkRun, run_id)
        if run is None or not can_read_bulk_run(actor, run):
            raise NotFound(RUN_NOT_FOUND)
        model_ids = [i for i in (as_id(x) for x in json.loads(run.model_ids or "[]")) if i is not None]
        if model_ids:
            names = s.execute(sa_select(col(Model.name)).where(col(Model.id).in_(model_ids))
                              .order_by(func.lower(col(Model.name)), col(Model.id)).limit(limit)).scalars().all()
            return RunNames(list(names), len(model_ids))
        where = col(BulkRunItem.run_id) == run.id
        names = s.execute(sa_select(col(Portfolio.name))
                          .join(BulkRunItem, col(BulkRunItem.investment_id) == Portfolio.id)
                          .where(where).order_by(func.lower(col(Portfolio.name)), col(Portfolio.id))
                          .limit(limit)).scalars().all()
        total = s.execute(sa_select(func.count()).select_from(BulkRunItem).where(where)).scalar_one()
        return RunNames(list(names), int(total))


@dataclass(frozen=True)
class BulkRunError:
    """A portfolio the run could not calculate, and why."""
    investment_id: int
    investment_name: str
    message: str | None


@dataclass(frozen=True)
class BulkRunFinished:
    """A portfolio the run finished (done or failed), when, and the version it produced."""
    investment_id: int
    investment_name: str
    status: str
    message: str | None
    finished_at: datetime | None
    version: int | None


@dataclass(frozen=True)
class BulkRunView:
    """A bulk run as its progress shows it: its counts, whether it waits for a worker, its failures
    (by portfolio name) and the portfolios finished most recently (newest first)."""
    id: int
    kind: str
    status: str
    total: int
    done: int
    waiting: bool  # no portfolio finished for a while: the work waits for a worker (or is being resumed)
    failed: int
    model_ids: tuple[int, ...]
    created_at: datetime
    finished_at: datetime | None
    errors: tuple[BulkRunError, ...]
    recent: tuple[BulkRunFinished, ...]

    @property
    def over(self) -> bool:
        return self.status == "done" or self.done + self.failed >= self.total


def get(*, actor: Actor, run_id: int, errors_limit: int = 200, recent_limit: int = RECENT_LIMIT) -> BulkRunView:
    """A run the actor may see: its counts, its failures (portfolio name and message, by name) and
    under `recent` the portfolios finished most recently (newest first, at most `recent_limit`), each
    with the version it produced."""
    with session_scope() as s:
        run = s.get(BulkRun, run_id)
        if run is None or not can_read_bulk_run(actor, run):
            raise NotFound(RUN_NOT_FOUND)
        errors = s.execute(
            sa_select(col(BulkRunItem.investment_id), col(Portfolio.name), col(BulkRunItem.error))
            .join(Portfolio, col(Portfolio.id) == BulkRunItem.investment_id)
            .where(col(BulkRunItem.run_id) == run.id, col(BulkRunItem.status) == "failed")
            .order_by(col(Portfolio.name), col(BulkRunItem.investment_id)).limit(max(0, int(errors_limit)))
        ).all()
        produced = TargetPortfolio if run.kind == "tp" else TradeInstruction
        recent = s.execute(
            sa_select(col(BulkRunItem.investment_id), col(Portfolio.name), col(BulkRunItem.status),
                      col(BulkRunItem.error), col(BulkRunItem.finished_at), col(produced.version))
            .join(Portfolio, col(Portfolio.id) == BulkRunItem.investment_id)
            .outerjoin(produced, col(produced.id) == BulkRunItem.result_id)
            .where(col(BulkRunItem.run_id) == run.id, col(BulkRunItem.status).in_(("done", "failed")))
            .order_by(col(BulkRunItem.finished_at).desc(), col(BulkRunItem.id).desc())
            .limit(max(0, int(recent_limit)))
        ).all() if recent_limit else []
        last = s.execute(sa_select(func.max(col(BulkRunItem.finished_at)))
                         .where(col(BulkRunItem.run_id) == run.id)).scalar()
        moved = max(t for t in (last, run.resumed_at, run.started_at, run.created_at) if t)
        return BulkRunView(
            id=stored_id(run), kind=run.kind, status=run.status, total=run.total, done=run.done,
            waiting=run.status in ("queued", "running") and utcnow() - moved >= WAITING_AFTER,
            failed=run.failed, model_ids=tuple(json.loads(run.model_ids)) if run.model_ids else (),
            created_at=run.created_at, finished_at=run.finished_at,
            errors=tuple(BulkRunError(investment_id=pid, investment_name=name, message=error)
                         for pid, name, error in errors),
            recent=tuple(BulkRunFinished(investment_id=pid, investment_name=name, status=status, message=error,
                                         finished_at=at, version=version)
                         for pid, name, status, error, at, version in recent),
        )


def active_run(*, actor: Actor) -> int | None:
    """The newest run the actor started that is still queued or running (started within the last
    ACTIVE_HOURS), or None: a screen opened again follows it."""
    if not can_bulk_calculate(actor):
        return None
    since = utcnow() - timedelta(hours=ACTIVE_HOURS)
    with session_scope() as s:
        return s.execute(sa_select(col(BulkRun.id)).where(col(BulkRun.created_by) == actor.id,
                                                          col(BulkRun.status).in_(ACTIVE),
                                                          col(BulkRun.created_at) >= since)
                         .order_by(col(BulkRun.id).desc()).limit(1)).scalar_one_or_none()
