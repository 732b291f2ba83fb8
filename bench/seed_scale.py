"""Fill a database for the scale benchmarks once: one simulated sweep named "scale" (every
trial reaching ``--results`` results, 4 still running) among 49 small ones, then statistics
gathered (ANALYZE on PostgreSQL). bench/api_load.py and bench/ui_scale.py take the database
with ``--database``; seeding 100,000 trials x 100 results (10 million results) took 2.3 minutes
on SQLite and 3.5 on PostgreSQL on a quiet 2-core machine (about twice that on a busy one).

    .venv/bin/python bench/seed_scale.py --database sqlite:////tmp/scale.db [--trials 100000]
        [--results 100]
    .venv/bin/python bench/seed_scale.py --database \\
        postgresql+psycopg://postgres@127.0.0.1:5432/rs_scale   # created if missing

The database must not hold a sweep named "scale" yet (``--if-missing`` leaves one that does as it
is). Nothing is dropped at the end. ``make bench-scale`` seeds both databases and runs the load and
UI benches on them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.api_load import OTHER_EXPERIMENTS  # noqa: E402
from bench.seeding import find_scale, seed  # noqa: E402
from service.db import migrate  # noqa: E402


def create_if_missing(database_url: str) -> None:
    """A PostgreSQL database named in the URL, created on its server when it does not exist."""
    url = make_url(database_url)
    if url.get_backend_name() != "postgresql":
        return
    admin = url.set(drivername="postgresql", database="postgres").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", (url.database,)
        ).fetchone()
        if not exists:
            connection.execute(f'CREATE DATABASE "{url.database}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", required=True, help="A SQLAlchemy database URL.")
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--results", type=int, default=100, help="Results per trial.")
    parser.add_argument(
        "--if-missing",
        action="store_true",
        help="Seed only when the database holds no sweep named scale yet.",
    )
    args = parser.parse_args()
    create_if_missing(args.database)
    if args.if_missing:
        migrate.upgrade(args.database)
        if (found := find_scale(args.database)) is not None:
            print(f"{args.database} holds sweep {found} (scale) already: not seeded again")
            return
    started = time.perf_counter()
    experiment_id = seed(args.database, args.trials, args.results, OTHER_EXPERIMENTS)
    print(
        f"seeded sweep {experiment_id} ({args.trials} trials x {args.results} results) and "
        f"{OTHER_EXPERIMENTS} others in {time.perf_counter() - started:.0f} s: "
        f"--database {args.database}"
    )


if __name__ == "__main__":
    main()
