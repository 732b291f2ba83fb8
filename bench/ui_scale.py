"""The experiment page at scale: 10,000 trials of 100 results each, rendered in headless Chromium.

Seeds one simulated experiment (devkit/demo.py) into a fresh database, starts the server
(API only), and opens each tab of the experiment page that reads the trials (overview, trials,
analysis) with a signed-in token. For each tab it prints the time from navigation to its first
complete render (overview: the sweep's card, best trial and events; trials: the table;
analysis: learning curves, ASHA rungs and parallel coordinates all drawn) and the bytes
transferred: the first on a freshly started server (cold: its views computed, not cached),
then warm. Then the traffic of the analysis tab left open while the running trials report, and,
on a restarted server, the API's first and median answer time for each request the tabs make
(the first one computes the view; later ones are cached until the sweep changes). Targets at
100,000 trials (seed them once with bench/seed_scale.py): a tab rendered under 2 s cold, a
first answer under 500 ms, a live page under 100 KB a minute.

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
from pathlib import Path

import httpx
from playwright.sync_api import Browser, sync_playwright
from sqlalchemy import select

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.seeding import bench_token, seeded_database  # noqa: E402
from devkit.harness import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    WEB_INDEX,
    ServerProcess,
)
from raysweep.lifecycle import TrialState  # noqa: E402
from service.db.models.sweeps import TrialRow  # noqa: E402
from service.db.session import create_db_engine, session_factory  # noqa: E402
from service.engine.recorder import Recorder  # noqa: E402
from service.usecases.recording import ResultStore  # noqa: E402
from service.usecases.reports import ResultReported  # noqa: E402

# each tab's complete render
RENDERED = {
    "overview": """() => Boolean(document.querySelector('[data-testid=best]'))
        && document.querySelectorAll('[data-testid=events] li').length > 0""",
    "trials": """() => document.querySelectorAll('[data-testid=trials] tbody tr').length > 0""",
    "analysis": """() => {
        const curves = document.querySelector('[data-testid=curves]');
        const drawn = curves && Number(curves.dataset.series) > 0 && curves.querySelector('canvas');
        const rungs = document.querySelectorAll('[data-testid=rungs] tbody tr').length;
        const lines = document.querySelectorAll('[data-testid=parallel] polyline').length;
        return Boolean(drawn) && rungs > 0 && lines > 0;
    }""",
}

TRANSFERRED = """() => {
    const entries = [...performance.getEntriesByType('navigation'),
                     ...performance.getEntriesByType('resource')];
    return entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0);
}"""


# the resources after the first ``start``, by the last part of their path: [count, bytes]
BY_VIEW = """start => {
    const views = {};
    for (const e of performance.getEntriesByType('resource').slice(start)) {
        const view = new URL(e.name).pathname.split('/').pop();
        const [n, size] = views[view] || [0, 0];
        views[view] = [n + 1, size + (e.transferSize || 0)];
    }
    return views;
}"""


def render_once(
    browser: Browser, server: ServerProcess, token: str, experiment_id: str, tab: str
) -> tuple[float, int]:
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    context.add_init_script(f"localStorage.setItem('raysweep.token', '{token}')")
    page = context.new_page()
    page.goto(f"/#/experiments/{experiment_id}?tab={tab}")
    page.wait_for_function(RENDERED[tab], timeout=60_000, polling="raf")
    rendered_ms = float(page.evaluate("performance.now()"))
    transferred = int(page.evaluate(TRANSFERRED))
    context.close()
    return rendered_ms / 1000, transferred


# long enough for the analysis tab's slowest refresh (its configs, at most every 2 minutes)
LIVE_SECONDS = 150


def live_traffic(
    browser: Browser, server: ServerProcess, token: str, experiment_id: str, database_url: str
) -> float:
    """Bytes a second an open experiment page pulls while the sweep's running trials each
    report a better result a second (through the recorder, as a driver would: their best values,
    and so the configs the page draws, change), over ``LIVE_SECONDS``.
    Those trials keep the results: the seeded sweep grows by ``LIVE_SECONDS`` a running trial."""
    engine = create_db_engine(database_url)
    db = session_factory(engine)
    with db.begin() as session:
        running = session.execute(
            select(TrialRow.tune_trial_id, TrialRow.iteration).where(
                TrialRow.experiment_id == experiment_id, TrialRow.state == TrialState.running
            )
        ).all()
    recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    context.add_init_script(
        f"localStorage.setItem('raysweep.token', '{token}');"
        "performance.setResourceTimingBufferSize(100000);"
    )
    try:
        page = context.new_page()
        page.goto(f"/#/experiments/{experiment_id}?tab=analysis")
        page.wait_for_function(RENDERED["analysis"], timeout=60_000, polling="raf")
        before, began = int(page.evaluate(TRANSFERRED)), time.perf_counter()
        entries = int(page.evaluate("performance.getEntriesByType('resource').length"))
        for second in range(LIVE_SECONDS):
            for tune_id, iteration in running:
                epoch = iteration + 1 + second
                metrics = {"epoch": epoch, "val_accuracy": 0.9 + 0.001 * epoch, "train_loss": 0.1}
                recorder.submit(ResultReported(tune_id, epoch, metrics))
            time.sleep(1)
        transferred = int(page.evaluate(TRANSFERRED)) - before
        seconds = time.perf_counter() - began
        by_view = page.evaluate(BY_VIEW, entries)
        print(
            "  live traffic by request: "
            + ", ".join(f"{view} {n}x {size / 1024:.1f} KiB" for view, (n, size) in by_view.items())
        )
        return transferred / seconds
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
        "timeline": f"{base}/timeline",
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
                for tab in RENDERED:
                    server.stop()  # its views computed afresh: the tab's first view is cold
                    server.start()
                    for run in range(1, args.runs + 1):
                        seconds, size = render_once(browser, server, token, experiment_id, tab)
                        print(
                            f"{tab} tab, run {run} ({'cold' if run == 1 else 'warm'}): rendered "
                            f"in {seconds:.2f} s, {size / 1024:.0f} KiB transferred "
                            "(target < 2 s)"
                        )
                rate = live_traffic(browser, server, token, experiment_id, database_url)
                print(
                    f"live analysis tab: {rate * 60 / 1024:.0f} KiB/min while {LIVE_SECONDS} s "
                    "of results arrived (target <= 100 KB/min)"
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
