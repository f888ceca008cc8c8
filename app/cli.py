"""Command line: `python -m app.cli <command>`.

  migrate                          upgrade the configured database to the newest schema
  demo-data                        load the demo firms and users (once; later runs do nothing)
  setup                            migrate + demo-data (what `scripts/run` does)
  create-superuser EMAIL --password PASSWORD
  worker [--burst]                 run an RQ worker on REDIS_URL
  bench engine [--portfolios N] [--digest]
                                   bulk calculation benchmark on synthetic data (prints figures; with
                                   --digest a SHA-256 of every result line, to compare two versions)
  bench reports [--portfolios N]   trade file, broker file export, approval report and PDF benchmark
  bench drift [--portfolios N]     the dashboard's drift of every portfolio and its work queues
  bench tax [--portfolios N]       all tax reports of a firm with two financial years of history
  bench performance [--portfolios N]  one portfolio's performance page and every portfolio of a firm
  bench load [--url U] [--advisers N] [--rps R] [--seconds S] [--warmup W]
                                   the running app under simulated advisers (websocket) and REST clients
"""
from __future__ import annotations

import argparse
import sys

from app.settings import ROOT


def _alembic_config():
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "alembic"))
    return cfg


def migrate_database() -> None:
    """Upgrade the configured database (settings / reset_engine) to head."""
    from alembic import command

    from app.db.engine import get_engine

    with get_engine().begin() as connection:
        cfg = _alembic_config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def _cmd_migrate(_: argparse.Namespace) -> int:
    migrate_database()
    print("Database is up to date.")
    return 0


def _cmd_demo_data(_: argparse.Namespace) -> int:
    import app.services.notice_documents  # noqa: F401  (the demo's notices attach their documents)
    from app.services import demo
    from app.services.reference_data import ensure_reference_data

    ensure_reference_data()  # brokers and institutions (idempotent); `setup` runs this too
    loaded = demo.load_demo_data()
    print("Demo data loaded." if loaded else "Demo data already present; nothing to do.")
    return 0


def _cmd_setup(args: argparse.Namespace) -> int:
    _cmd_migrate(args)
    return _cmd_demo_data(args)


def _cmd_create_superuser(args: argparse.Namespace) -> int:
    from app.domain.errors import DomainError
    from app.services import users

    try:
        user = users.create_superuser(email=args.email, password=args.password, first_name=args.first_name, last_name=args.last_name)
    except DomainError as exc:
        print(f"Error: {exc.message}", *(f"  {k}: {v}" for k, v in exc.fields.items()), sep="\n", file=sys.stderr)
        return 2
    print(f"Superuser {user.email} created.")
    return 0


def _cmd_worker(args: argparse.Namespace) -> int:
    from app.jobs import worker

    return worker.run_worker(burst=args.burst)


def _cmd_bench(args: argparse.Namespace) -> int:
    from app.bench import bench_drift, bench_engine, bench_reports

    if args.what == "load":
        from app.bench_load import bench_load

        return bench_load(url=args.url, advisers=args.advisers, rps=args.rps, seconds=args.seconds,
                          warmup=args.warmup, profile=args.profile)

    if args.what == "drift":
        return bench_drift(portfolios=args.portfolios, keep=args.keep)
    if args.what == "tax":
        from app.bench import bench_tax

        return bench_tax(portfolios=args.portfolios, keep=args.keep)
    if args.what == "performance":
        from app.bench import bench_performance

        return bench_performance(portfolios=args.portfolios, keep=args.keep)
    if args.what == "reports":
        return bench_reports(portfolios=args.portfolios, keep=args.keep)
    return bench_engine(portfolios=args.portfolios, models=args.models, workers=args.workers,
                        chunk_size=args.chunk_size, keep=args.keep, with_digest=args.digest)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.cli", description="Wealth Advice administration")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="upgrade the database schema").set_defaults(func=_cmd_migrate)
    sub.add_parser("demo-data", help="load demo data once").set_defaults(func=_cmd_demo_data)
    sub.add_parser("setup", help="migrate and load demo data").set_defaults(func=_cmd_setup)
    p = sub.add_parser("create-superuser", help="create a superuser account")
    p.add_argument("email")
    p.add_argument("--password", required=True)
    p.add_argument("--first-name", default="System")
    p.add_argument("--last-name", default="Administrator")
    p.set_defaults(func=_cmd_create_superuser)
    p = sub.add_parser("worker", help="run a background job worker (needs REDIS_URL)")
    p.add_argument("--burst", action="store_true", help="exit when the queue is empty")
    p.set_defaults(func=_cmd_worker)
    p = sub.add_parser("bench", help="benchmarks (print figures)")
    p.add_argument("what", choices=["engine", "reports", "drift", "load", "tax", "performance"],
                   help="engine: bulk target portfolios and trade recommendations; reports: trade file, its Excel, "
                        "the approval report and a PDF; drift: the dashboard's drift and work queues; "
                        "load: the running app under simulated advisers and REST clients; tax: all tax reports "
                        "of a firm; performance: one portfolio's performance page and all of a firm's")
    p.add_argument("--portfolios", type=int, default=10_000)
    p.add_argument("--models", type=int, default=20)
    p.add_argument("--workers", type=int, default=2, help="RQ worker processes to start (with REDIS_URL)")
    p.add_argument("--chunk-size", type=int, default=250)
    p.add_argument("--keep", action="store_true", help="leave the generated data in the database")
    p.add_argument("--digest", action="store_true",
                   help="engine: print a SHA-256 of every target portfolio and trade recommendation line produced")
    p.add_argument("--url", default="http://127.0.0.1:3000", help="load: the running app")
    p.add_argument("--advisers", type=int, default=50, help="load: simulated advisers on the websocket")
    p.add_argument("--rps", type=float, default=20, help="load: REST requests per second")
    p.add_argument("--seconds", type=float, default=60, help="load: how long")
    p.add_argument("--warmup", type=float, default=15, help="load: seconds of the same load before timing starts")
    p.add_argument("--profile", default=None, metavar="FOLDER",
                   help="load: print where the server's time went, from the app started with WA_PROFILE_DIR=FOLDER")
    p.set_defaults(func=_cmd_bench)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
