"""The API under concurrent load: 20 clients at once against a server (API only) whose database
holds one 10,000-trial sweep among 50 experiments. Each client sends its requests round-robin
over the experiment list, one experiment, a page of its trials, its learning curves and the live
page's poll for what changed since the newest result and event; the bench prints p50/p99 per
request kind and overall, the errors (any answer but 200, or no answer) and the throughput.
Goal: p99 <= 50 ms, 0 errors. The clients run on the same cores as the server, and each waits
for its answer before it asks again, so past the server's throughput the percentiles are time
spent queueing: with 20 clients, p99 <= 50 ms needs about 20 / 0.05 = 400 answers/s at least.

    .venv/bin/python bench/api_load.py [--clients 20] [--requests 2000] [--trials 10000]
        [--results 20] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/test]
        [--api-workers 1] [--database URL]

With --postgres the data goes to a new database on that server, dropped at the end; with
--database the bench uses one that bench/seed_scale.py filled (seed 100,000 trials once).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import func, select

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.seeding import bench_token, seeded_database  # noqa: E402
from devkit.harness import ServerProcess  # noqa: E402
from service.db.models.sweeps import EventRow, ResultRow  # noqa: E402
from service.db.session import create_db_engine, session_factory  # noqa: E402

OTHER_EXPERIMENTS = 49


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def fetch(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, int]:
    """One keep-alive HTTP/1.1 exchange: (status, body bytes). The answers here carry a
    Content-Length (uvicorn sends no chunked body for a plain JSON response)."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length is None:  # a chunked answer: not what this client reads, so not counted
        raise ValueError("an answer without Content-Length")
    body = await reader.readexactly(length)
    return status, len(body)


def run_clients(
    server: ServerProcess,
    token: str,
    experiment_id: str,
    cursors: tuple[int, int],
    clients: int,
    requests: int,
) -> tuple[dict[str, list[float]], list[str], float]:
    """``clients`` connections, each sending its next request when the last is answered. They
    run on one asyncio loop over raw sockets, as load generators (wrk, hey) do: a thread per
    client with httpx cost ~1 ms of client CPU a request and queued the answers behind the GIL,
    time that was counted as the server's."""
    base = f"/api/v1/experiments/{experiment_id}"
    paths = {
        "list": "/api/v1/experiments",
        "experiment": base,
        "trials": f"{base}/trials",
        "curves": f"{base}/curves",
        "updates": f"{base}/updates?after={cursors[0]}&events_after={cursors[1]}",
    }
    kinds = list(paths)
    requests_by_kind = {
        kind: (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept-Encoding: gzip\r\n\r\n"
        ).encode()
        for kind, path in paths.items()
    }
    latencies: dict[str, list[float]] = {kind: [] for kind in kinds}
    errors: list[str] = []

    async def client_loop(offset: int, start: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        await start.wait()
        try:
            for i in range(requests):
                kind = kinds[(i + offset) % len(kinds)]
                began = time.perf_counter()
                try:
                    status, _ = await fetch(reader, writer, requests_by_kind[kind])
                except (OSError, ValueError, asyncio.IncompleteReadError) as error:
                    errors.append(f"{kind}: {type(error).__name__}")
                    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                    continue
                latencies[kind].append(time.perf_counter() - began)
                if status != 200:
                    errors.append(f"{kind}: {status}")
        finally:
            writer.close()

    async def everyone() -> float:
        start = asyncio.Event()
        tasks = [asyncio.create_task(client_loop(i, start)) for i in range(clients)]
        await asyncio.sleep(0.5)  # every connection open before the clock starts
        began = time.perf_counter()
        start.set()
        await asyncio.gather(*tasks)
        return time.perf_counter() - began

    seconds = asyncio.run(everyone())
    return latencies, errors, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000, help="Requests per client.")
    parser.add_argument("--trials", type=int, default=10_000)
    parser.add_argument("--results", type=int, default=20, help="Results per trial.")
    parser.add_argument("--postgres", help="A PostgreSQL server URL; default: a SQLite file.")
    parser.add_argument(
        "--database", help="A database bench/seed_scale.py filled, used instead of seeding one."
    )
    parser.add_argument(
        "--api-workers", type=int, default=1, help="The server's RAYSWEEP_API_WORKERS."
    )
    args = parser.parse_args()

    with (
        tempfile.TemporaryDirectory(prefix="raysweep-api-load-") as tmp,
        seeded_database(
            args.postgres,
            Path(tmp),
            args.trials,
            args.results,
            others=OTHER_EXPERIMENTS,
            existing=args.database,
        ) as seeded,
    ):
        home = Path(tmp)
        database_url, experiment_id = seeded
        engine = create_db_engine(database_url)
        with session_factory(engine).begin() as session:  # where a live page's poll has got to
            cursors = (
                session.scalar(select(func.max(ResultRow.id))) or 0,
                session.scalar(select(func.max(EventRow.id))) or 0,
            )
        engine.dispose()
        token = bench_token(database_url)
        server = ServerProcess(
            home / "home",
            database_url,
            {"RAYSWEEP_CONTROLLER": "false", "RAYSWEEP_API_WORKERS": str(args.api_workers)},
        )
        server.start()
        server.wait_for_api_workers(args.api_workers)
        try:
            latencies, errors, seconds = run_clients(
                server, token, experiment_id, cursors, args.clients, args.requests
            )
        finally:
            server.stop()

    total = sum(len(values) for values in latencies.values())
    print(
        f"{args.clients} clients x {args.requests} requests, {args.api_workers} API process(es): "
        f"{total} answered in {seconds:.1f} s "
        f"({total / seconds:.0f} requests/s), {len(errors)} error(s)"
    )
    everything = [v for values in latencies.values() for v in values]
    for kind, values in [*latencies.items(), ("all", everything)]:
        if values:
            print(
                f"  {kind:<10} p50 {statistics.median(values) * 1000:7.1f} ms   "
                f"p99 {percentile(values, 0.99) * 1000:7.1f} ms   (goal: p99 <= 50 ms)"
            )
    for error in sorted(set(errors))[:10]:
        print(f"  error: {error} (x{errors.count(error)})")


if __name__ == "__main__":
    main()
