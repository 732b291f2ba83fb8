"""The recorder's write rate: what a sweep's driver stores per second, against a raw bulk load of
the same rows on the same database in the same run.

For each size (trials x results per trial) and each database, a new migrated database gets one
experiment; every trial's start and then its results (7 metrics each, reported round-robin over
the trials as a running sweep reports them) are submitted at once to a ``Recorder``, and the time
is taken from the first submit to everything persisted (``flush``). The recorder stores as a
driver does, through the API (``python -m service serve`` in a child process; each batch a POST
with the job's token, then one transaction), and, for comparison, straight into the database
(``ResultStore``, as before drivers lost their database credentials). The reference loads the
same rows into a bare table with no index: PostgreSQL ``COPY``, SQLite one ``executemany``; JSON
encoding is inside both timings. Goal (issue 23): >= 15% of the raw load on PostgreSQL,
about 20,000 results/s on this 2-core machine.

    .venv/bin/python bench/recorder.py [--sizes 100x200,1000x100]
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--no-sqlite]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from sqlalchemy import func, select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.seeding import scratch_database  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402
from service.db import migrate  # noqa: E402
from service.db.models.sweeps import ResultRow, TrialRow  # noqa: E402
from service.db.session import create_db_engine, session_factory  # noqa: E402
from service.engine.job_api import JobApi  # noqa: E402
from service.engine.recorder import BatchPoster, Recorder  # noqa: E402
from service.settings import REPO_ROOT  # noqa: E402
from service.usecases.access import operator  # noqa: E402
from service.usecases.experiments import submit_experiment  # noqa: E402
from service.usecases.job_tokens import driver_job_id, job_token, job_token_key  # noqa: E402
from service.usecases.recording import ResultStore  # noqa: E402
from service.usecases.reports import Op, ResultReported, TrialStarted  # noqa: E402

SPEC = {
    "name": "recorder-bench",
    "trainer": "digits_mlp",
    "search_space": "digits_mlp",
    "metric": "val_loss",
    "mode": "min",
}


def reports(trials: int, results: int) -> list[tuple[str, int, dict[str, float]]]:
    """Each trial's results, round-robin over the trials: (tune id, iteration, 7 metrics)."""
    rng = random.Random(0)
    return [
        (
            f"t{trial:06d}",
            iteration,
            {
                "epoch": iteration,
                "val_loss": rng.random(),
                "val_accuracy": rng.random(),
                "train_loss": rng.random(),
                "lr": 10 ** rng.uniform(-4, -1),
                "samples_per_s": rng.uniform(1e3, 1e4),
                "time_total_s": iteration * rng.uniform(0.5, 2),
            },
        )
        for iteration in range(1, results + 1)
        for trial in range(trials)
    ]


@contextmanager
def sink(
    through: str, database_url: str, db: sessionmaker[Session], experiment_id: str
) -> Iterator[Callable[[list[Op]], None]]:
    """Where the recorder's batches go: the API, as a driver's do, or the database itself."""
    if through == "database":
        yield ResultStore(experiment_id, "val_loss", "min").into(db)
        return
    with tempfile.TemporaryDirectory() as home:
        server = ServerProcess(Path(home), database_url, {"RAYSWEEP_CONTROLLER": "false"}).start()
        token = job_token(job_token_key(db), driver_job_id(experiment_id, 0))
        api = JobApi(server.url, token)
        try:
            yield BatchPoster(api)
        finally:
            api.close()
            server.stop()


def recorder_rate(database_url: str, trials: int, results: int, through: str) -> float:
    """Results/s the recorder stores, submit to persisted, into a new experiment."""
    migrate.upgrade(database_url)
    engine = create_db_engine(database_url)
    db = session_factory(engine)
    experiment_id = submit_experiment(db, SPEC, REPO_ROOT / "search_spaces", operator("bench")).id
    ops: list[Op] = [TrialStarted(f"t{trial:06d}", {"lr": 0.01}) for trial in range(trials)]
    ops += [ResultReported(*report) for report in reports(trials, results)]
    with sink(through, database_url, db, experiment_id) as write:
        recorder = Recorder(write).start()
        started = time.perf_counter()
        for op in ops:
            recorder.submit(op)
        if not recorder.close(timeout_s=3600):
            raise SystemExit(f"the recorder did not finish: {recorder.last_error}")
        elapsed = time.perf_counter() - started
    with db.begin() as session:
        stored = session.scalar(select(func.count()).select_from(ResultRow))
        best = session.scalar(select(func.count()).where(TrialRow.best_metric.is_not(None)))
    if stored != trials * results or best != trials:
        raise SystemExit(f"stored {stored} results and {best} best values, not {trials * results}")
    engine.dispose()
    return trials * results / elapsed


def raw_rate(database_url: str, trials: int, results: int) -> float:
    """Rows/s of the same results bulk-loaded into a bare table (COPY; SQLite executemany)."""
    rows = reports(trials, results)
    now = datetime.now(UTC)
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        connection = sqlite3.connect(str(url.database))
        connection.execute(
            "CREATE TABLE raw_results (trial_id INTEGER, iteration INTEGER, metrics TEXT, "
            "reported_at TEXT)"
        )
        started = time.perf_counter()
        with connection:
            connection.executemany(
                "INSERT INTO raw_results VALUES (?, ?, ?, ?)",
                (
                    (int(tune_id[1:]), iteration, json.dumps(metrics), now.isoformat())
                    for tune_id, iteration, metrics in rows
                ),
            )
        elapsed = time.perf_counter() - started
        connection.close()
        return len(rows) / elapsed
    dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(dsn) as connection:
        connection.execute(
            "CREATE TABLE raw_results (trial_id bigint, iteration integer, metrics json, "
            "reported_at timestamptz)"
        )
        connection.commit()
        started = time.perf_counter()
        stamp = now.isoformat()
        with connection.cursor() as cursor, cursor.copy("COPY raw_results FROM STDIN") as copy:
            # COPY's text format, written in blocks: no per-value adaptation in Python
            for start in range(0, len(rows), 10_000):
                copy.write(
                    "".join(
                        f"{tune_id[1:]}\t{iteration}\t{copy_text(json.dumps(metrics))}\t{stamp}\n"
                        for tune_id, iteration, metrics in rows[start : start + 10_000]
                    )
                )
        connection.commit()
        return len(rows) / (time.perf_counter() - started)


def copy_text(value: str) -> str:
    """A value in COPY's text format: backslash, tab and newline escaped."""
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


@contextmanager
def database(backend: str, postgres: str) -> Iterator[str]:
    if backend == "postgresql":
        with scratch_database(postgres) as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as home:
        yield f"sqlite:///{Path(home) / 'raysweep.db'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100x200,1000x100", help="trials x results, ...")
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432/test")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args()
    backends = ["postgresql"] + ([] if args.no_sqlite else ["sqlite"])
    print(
        f"{'database':<11} {'size':>9} {'via API/s':>10} {'ms/result':>10} {'direct/s':>9} "
        f"{'raw/s':>9} {'API/raw':>7} {'direct/raw':>10}"
    )
    for size in args.sizes.split(","):
        trials, results = (int(part) for part in size.split("x"))
        for backend in backends:
            rates = {}
            for through in ("api", "database"):
                with database(backend, args.postgres) as url:
                    rates[through] = recorder_rate(url, trials, results, through)
            with database(backend, args.postgres) as url:
                raw = raw_rate(url, trials, results)
            api, direct = rates["api"], rates["database"]
            print(
                f"{backend:<11} {size:>9} {api:>10,.0f} {1000 / api:>10.3f} {direct:>9,.0f} "
                f"{raw:>9,.0f} {api / raw:>7.1%} {direct / raw:>10.1%}",
                flush=True,
            )


if __name__ == "__main__":
    main()
