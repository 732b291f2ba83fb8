"""What keeping a trial's logs costs (``service.engine.trial_logs``): the same function printing
N lines, run as a Train worker runs it, with its output kept (fd 1 and 2 through pipes into the
run's ``logs/`` files, and on to where they went before) and plain; each in a fresh process
whose stdout goes to a file, as a Ray worker's does. Prints the time per printed line, the ratio
for a loop that prints one line per step of ~1 ms of work (a small model's training step), and
the bytes kept per line.

    .venv/bin/python bench/trial_logs.py [--lines 20000] [--width 80] [--step-ms 1.0]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def child(kept: bool, lines: int, width: int, step_ms: float, run_dir: str, out: str) -> None:
    """Run in the measured process: print ``lines`` lines, each after ``step_ms`` of work."""
    import ray.train  # noqa: F401  # imported in a Train worker already (its identity reads it)

    from service.engine.trial_logs import LoggedFunction

    filler = "x" * max(0, width - 12)

    def train(config: dict[str, object]) -> None:
        for step in range(lines):
            if step_ms:
                until = time.perf_counter() + step_ms / 1000
                while time.perf_counter() < until:  # the step's work
                    pass
            print(f"step {step:06d} {filler}")

    started = time.perf_counter()
    if kept:
        LoggedFunction(train, run_dir, 8 << 20)({})
    else:
        train({})
    sys.stdout.flush()
    Path(out).write_text(json.dumps({"seconds": time.perf_counter() - started}))


def measure(kept: bool, lines: int, width: int, step_ms: float) -> tuple[float, int]:
    """(seconds, bytes kept) of one run in a fresh process."""
    with tempfile.TemporaryDirectory() as work:
        out, run_dir = f"{work}/result.json", f"{work}/run"
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); from bench.trial_logs import child; "
            "child(sys.argv[2] == 'kept', int(sys.argv[3]), int(sys.argv[4]), "
            "float(sys.argv[5]), sys.argv[6], sys.argv[7])"
        )
        with open(f"{work}/worker.out", "wb") as worker_log:  # Ray's worker log file
            subprocess.run(
                [sys.executable, "-c", code, str(REPO), "kept" if kept else "plain",
                 str(lines), str(width), str(step_ms), run_dir, out],
                stdout=worker_log, check=True, env={**os.environ, "PYTHONUNBUFFERED": "0"},
            )  # fmt: skip
        kept_bytes = sum(p.stat().st_size for p in Path(run_dir).rglob("*.jsonl"))
        return json.loads(Path(out).read_text())["seconds"], kept_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # more lines than fit RAYSWEEP_TRIAL_LOG_MAX_BYTES (8 MiB: ~60,000 of these) are dropped
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--width", type=int, default=80, help="Characters per line.")
    parser.add_argument("--step-ms", type=float, default=1.0, help="Work between two lines.")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for step_ms in (0.0, args.step_ms):
        best = {}
        for kept in (False, True):
            runs = [measure(kept, args.lines, args.width, step_ms) for _ in range(args.repeats)]
            best[kept] = min(runs)
        plain, (kept_s, kept_bytes) = best[False][0], best[True]
        rows.append((step_ms, plain, kept_s, kept_bytes))
    print(f"{args.lines} lines of {args.width} characters, best of {args.repeats}")
    print(f"{'work per line':>14} {'plain s':>9} {'kept s':>9} {'per line':>10} {'ratio':>7}")
    for step_ms, plain, kept_s, _ in rows:
        per_line = (kept_s - plain) / args.lines * 1e6
        print(
            f"{step_ms:>11.1f} ms {plain:>9.3f} {kept_s:>9.3f} {per_line:>7.1f} µs "
            f"{kept_s / plain:>7.3f}"
        )
    kept_bytes = rows[0][3]
    print(
        f"kept: {kept_bytes / args.lines:.0f} bytes per line "
        f"({kept_bytes / args.lines - args.width - 1:.0f} over the text and its newline)"
    )


if __name__ == "__main__":
    main()
