"""Expensive views under many viewers: 8 viewers at once ask a 3,000-trial x 60-result sweep for
uncached views (curves, history, configs, importance: each request's parameters differ, so no
cache answers it) while a prober asks `/healthz` every 50 ms. Run side by side with the
server's view slots (RAYSWEEP_VIEWS_AT_ONCE, default 2) and with them effectively off (64).
Prints, for each, the time until every view was answered, the slowest view and `/healthz`'s
median and worst latency. Goal: `/healthz` under 1 s, always.

    .venv/bin/python bench/views_load.py [--trials 3000] [--results 60] [--viewers 8]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.seeding import bench_token, seeded_database  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402


def views_of(viewer: int) -> list[str]:
    """A viewer's requests, parameters made unique to it so none is served from a cache."""
    return [
        f"curves?max_points={50 + viewer}",
        f"history?max_points={500 + viewer}",
        f"curves?max_trials={300 + viewer}",
        "importance",  # computed once per sweep change: the first viewers compute it
        f"configs?limit={900 + viewer}",
    ]


def run(
    home: Path, database_url: str, experiment_id: str, viewers: int, at_once: int
) -> tuple[float, float, list[float], list[int]]:
    """(seconds until every view answered, slowest view, /healthz latencies, statuses)."""
    token = bench_token(database_url)
    server = ServerProcess(
        home, database_url, {"RAYSWEEP_CONTROLLER": "false", "RAYSWEEP_VIEWS_AT_ONCE": str(at_once)}
    ).start()
    base = f"http://127.0.0.1:{server.port}"
    health: list[float] = []
    views: list[float] = []
    statuses: list[int] = []
    done = threading.Event()

    def probe() -> None:
        with httpx.Client() as client:
            while not done.is_set():
                began = time.perf_counter()
                client.get(f"{base}/healthz")
                health.append(time.perf_counter() - began)
                time.sleep(0.05)

    def viewer(index: int) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(timeout=300, headers=headers) as client:
            for view in views_of(index):
                began = time.perf_counter()
                answer = client.get(f"{base}/api/v1/experiments/{experiment_id}/{view}")
                views.append(time.perf_counter() - began)
                statuses.append(answer.status_code)

    try:
        prober = threading.Thread(target=probe)
        prober.start()
        threads = [threading.Thread(target=viewer, args=(i,)) for i in range(viewers)]
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - began
        done.set()
        prober.join()
    finally:
        server.stop()
    return seconds, max(views), health, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=3000)
    parser.add_argument("--results", type=int, default=60, help="Results per trial.")
    parser.add_argument("--viewers", type=int, default=8)
    args = parser.parse_args()
    print(
        f"{args.viewers} viewers x {len(views_of(0))} uncached views of a "
        f"{args.trials} x {args.results} sweep, /healthz every 50 ms"
    )
    for label, at_once in (("view slots 64 (off)", 64), ("view slots 2 (default)", 2)):
        # a database of its own each: what one run computes (importance) is stored for the next
        with (
            tempfile.TemporaryDirectory(prefix="raysweep-views-") as tmp,
            seeded_database(None, Path(tmp), args.trials, args.results) as (url, experiment_id),
        ):
            seconds, slowest, health, statuses = run(
                Path(tmp) / "home", url, experiment_id, args.viewers, at_once
            )
        refused = sum(1 for status in statuses if status != 200)
        print(
            f"  {label:<23}: all answered in {seconds:5.1f} s, slowest view {slowest:5.2f} s, "
            f"/healthz p50 {statistics.median(health) * 1000:6.1f} ms "
            f"max {max(health) * 1000:6.1f} ms (goal: < 1000 ms), {refused} not 200"
        )


if __name__ == "__main__":
    main()
