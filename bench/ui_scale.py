"""The experiment page at scale: 10,000 trials of 100 results each, rendered in headless Chromium.

Seeds one simulated experiment (service/demo.py) into a fresh database, starts the server
(API only), and opens the experiment page with a signed-in token. Prints, for each run, the time
from navigation to the first complete render (trial table, learning curves, ASHA rungs and
parallel coordinates all drawn) and the bytes transferred, then, on a restarted server, the
API's first and median answer time for each request the page makes (the first one computes the
view; later ones are cached until the sweep changes), and the traffic of a page left open while
the running trials report. Targets at 100,000 trials (seed them once with bench/seed_scale.py):
render under 2 s, a first answer under 500 ms, a live page under 100 KB/s.

    .venv/bin/python bench/ui_scale.py [--trials 10000] [--results 100] [--runs 3]
        [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test] [--database URL]

With --postgres the data goes to a new database on that server, dropped at the end; with
--database the bench uses one that bench/seed_scale.py filled (100,000 trials take minutes to
seed, so seed once and run the benches against it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import psycopg
from playwright.sync_api import Browser, sync_playwright
from sqlalchemy import select, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from raysweep.schemas import Role, TrialState  # noqa: E402
from service.db import migrate  # noqa: E402
from service.db.models import ExperimentRow, TrialRow  # noqa: E402
from service.db.session import create_db_engine, session_factory  # noqa: E402
from service.demo import seed_sweep  # noqa: E402
from service.engine.recorder import Recorder  # noqa: E402
from service.harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    WEB_INDEX,
    ServerProcess,
)
from service.usecases.recording import ResultReported  # noqa: E402
from service.usecases.tokens import create_token  # noqa: E402

RENDERED = """() => {
    const rows = document.querySelectorAll('[data-testid=trials] tbody tr').length;
    const curves = document.querySelector('[data-testid=curves]');
    const drawn = curves && Number(curves.dataset.series) > 0 && curves.querySelector('canvas');
    const rungs = document.querySelectorAll('[data-testid=rungs] tbody tr').length;
    const lines = document.querySelectorAll('[data-testid=parallel] polyline').length;
    return rows > 0 && drawn && rungs > 0 && lines > 0;
}"""

TRANSFERRED = """() => {
    const entries = [...performance.getEntriesByType('navigation'),
                     ...performance.getEntriesByType('resource')];
    return entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0);
}"""


@contextmanager
def scratch_database(server_url: str) -> Iterator[str]:
    name = f"rs_bench_{uuid.uuid4().hex[:10]}"
    admin = make_url(server_url).set(drivername="postgresql").render_as_string(False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def seeded_database(
    postgres: str | None,
    home: Path,
    trials: int,
    results: int,
    *,
    others: int = 0,
    existing: str | None = None,
) -> Iterator[tuple[str, str]]:
    """A new database (on the PostgreSQL server ``postgres`` names, dropped at the end, or a
    SQLite file under ``home``) holding one seeded sweep named "scale" and ``others`` small
    ones; its URL and the sweep's id. With ``existing`` (a database ``bench/seed_scale.py``
    filled) that one, as it is: seeding 100,000 trials takes minutes."""
    if existing:
        yield existing, scale_experiment(existing)
        return
    with ExitStack() as stack:
        database_url = (
            stack.enter_context(scratch_database(postgres))
            if postgres
            else f"sqlite:///{home / 'raysweep.db'}"
        )
        print(f"seeding {trials} trials x {results} results into {database_url}")
        yield database_url, seed(database_url, trials, results, others)


def find_scale(database_url: str) -> str | None:
    """The id of the sweep named "scale" in a migrated database, if there is one."""
    engine = create_db_engine(database_url)
    try:
        with engine.connect() as connection:
            found = connection.execute(
                select(ExperimentRow.id).where(ExperimentRow.name == "scale")
            ).scalar_one_or_none()
    finally:
        engine.dispose()
    return None if found is None else str(found)


def scale_experiment(database_url: str) -> str:
    found = find_scale(database_url)
    if found is None:
        raise SystemExit(f"{database_url} holds no experiment named scale: bench/seed_scale.py")
    return found


def bench_token(database_url: str) -> str:
    """A viewer's token of the bench's own: a database seeded by an earlier run keeps the admin
    token of the server that first opened it, which the bench never saw."""
    engine = create_db_engine(database_url)
    try:
        name = f"bench-{uuid.uuid4().hex[:8]}"
        return create_token(session_factory(engine), name, Role.viewer).token
    finally:
        engine.dispose()


def seed(database_url: str, trials: int, results: int, others: int = 0) -> str:
    migrate.upgrade(database_url)
    engine = create_db_engine(database_url)
    started = time.perf_counter()

    def progress(done: int) -> None:
        if done % 5000 == 0 or done == trials:
            print(f"  seeded {done}/{trials} trials ({time.perf_counter() - started:.0f} s)")

    db = session_factory(engine)
    experiment_id = seed_sweep(
        db, trials=trials, max_t=results, name="scale", running=4, prune=False, progress=progress
    )
    for index in range(others):
        seed_sweep(db, trials=8, max_t=5, name=f"other-{index}", seed=index)
    if engine.dialect.name == "postgresql":
        # what autovacuum does shortly after a bulk load; without statistics the planner's
        # estimates for the poll query are so high that PostgreSQL JIT-compiles it (~100 ms)
        with engine.connect() as connection:
            connection.execute(text("ANALYZE"))
            connection.commit()
    engine.dispose()
    return experiment_id


def render_once(
    browser: Browser, server: ServerProcess, token: str, experiment_id: str
) -> tuple[float, int]:
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    context.add_init_script(f"localStorage.setItem('raysweep.token', '{token}')")
    page = context.new_page()
    page.goto(f"/#/experiments/{experiment_id}")
    page.wait_for_function(RENDERED, timeout=60_000, polling="raf")
    rendered_ms = float(page.evaluate("performance.now()"))
    transferred = int(page.evaluate(TRANSFERRED))
    context.close()
    return rendered_ms / 1000, transferred


LIVE_SECONDS = 30


def live_traffic(
    browser: Browser, server: ServerProcess, token: str, experiment_id: str, database_url: str
) -> float:
    """Bytes a second an open experiment page pulls while the sweep's running trials each
    report a result a second (through the recorder, as a driver would), over ``LIVE_SECONDS``.
    Those trials keep the results: the seeded sweep grows by ``LIVE_SECONDS`` a running trial."""
    engine = create_db_engine(database_url)
    db = session_factory(engine)
    with db.begin() as session:
        running = session.execute(
            select(TrialRow.tune_trial_id, TrialRow.iteration).where(
                TrialRow.experiment_id == experiment_id, TrialRow.state == TrialState.running
            )
        ).all()
    recorder = Recorder(db, experiment_id, "val_accuracy", "max").start()
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    context.add_init_script(
        f"localStorage.setItem('raysweep.token', '{token}');"
        "performance.setResourceTimingBufferSize(100000);"
    )
    try:
        page = context.new_page()
        page.goto(f"/#/experiments/{experiment_id}")
        page.wait_for_function(RENDERED, timeout=60_000, polling="raf")
        before, began = int(page.evaluate(TRANSFERRED)), time.perf_counter()
        for second in range(LIVE_SECONDS):
            for tune_id, iteration in running:
                epoch = iteration + 1 + second
                metrics = {"epoch": epoch, "val_accuracy": 0.9, "train_loss": 0.1}
                recorder.submit(ResultReported(tune_id, epoch, metrics))
            time.sleep(1)
        transferred = int(page.evaluate(TRANSFERRED)) - before
        return transferred / (time.perf_counter() - began)
    finally:
        context.close()
        recorder.close()
        engine.dispose()


def api_times(
    server: ServerProcess, token: str, experiment_id: str
) -> dict[str, tuple[float, float]]:
    """Per request: the first answer and the median of five (the views are cached until a trial
    changes, so the first one after a change is the slow one)."""
    base = f"/api/v1/experiments/{experiment_id}"
    paths = {
        "experiment": base,
        "curves": f"{base}/curves",
        "rungs": f"{base}/rungs",
        "configs": f"{base}/configs",
        "history": f"{base}/history",
        "importance": f"{base}/importance",
        "pareto": f"{base}/pareto",
        "trials page": f"{base}/trials",
        "updates (poll)": f"{base}/updates",
    }
    measured: dict[str, tuple[float, float]] = {}
    with server.client(token) as client:
        cursor = client.get(f"{base}/curves", params={"max_trials": 1}).json()["cursor"]
        for name, path in paths.items():
            params = {"after": cursor} if name.startswith("updates") else None
            times = []
            for _ in range(5):
                started = time.perf_counter()
                client.get(path, params=params).raise_for_status()
                times.append(time.perf_counter() - started)
            measured[name] = (times[0] * 1000, statistics.median(times) * 1000)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=100, help="Results per trial.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--postgres", help="A PostgreSQL server URL; default: a SQLite file.")
    parser.add_argument(
        "--database", help="A database bench/seed_scale.py filled, used instead of seeding one."
    )
    args = parser.parse_args()
    if not WEB_INDEX.is_file():
        raise SystemExit(f"{WEB_INDEX} is missing: run `make web` first")

    with (
        tempfile.TemporaryDirectory(prefix="raysweep-ui-scale-") as tmp,
        seeded_database(
            args.postgres, Path(tmp), args.trials, args.results, existing=args.database
        ) as seeded,
    ):
        home = Path(tmp)
        database_url, experiment_id = seeded
        token = bench_token(database_url)
        server = ServerProcess(home / "home", database_url, {"RAYSWEEP_CONTROLLER": "false"})
        server.start()
        try:
            httpx.get(f"{server.url}/", timeout=10).raise_for_status()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in range(1, args.runs + 1):
                    seconds, size = render_once(browser, server, token, experiment_id)
                    print(
                        f"run {run}: experiment page rendered in {seconds:.2f} s, "
                        f"{size / 1024:.0f} KiB transferred (target < 2 s)"
                    )
                rate = live_traffic(browser, server, token, experiment_id, database_url)
                print(
                    f"live page: {rate / 1024:.1f} KiB/s while {LIVE_SECONDS} s of results "
                    "arrived (target <= 100 KB/s)"
                )
                browser.close()
            # a fresh server, so the first answers are computed, not cached
            server.stop()
            server.start()
            for name, (first, median) in api_times(server, token, experiment_id).items():
                print(f"  API {name:<15} first {first:6.1f} ms, median of 5 {median:6.1f} ms")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
