"""``raysweep logs ID``: what a trial's workers printed (or a final run's, ``--final-run``, or a
sweep's drivers, ``--driver``); ``-f`` follows it while it runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import datetime
from typing import Any

from raysweep.cli_output import UsageError, console
from raysweep.client import Client
from raysweep.errors import NotFound
from raysweep.logs import LogLine


def add_logs_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    command = add(
        "logs",
        "What a trial's workers printed (stdout and stderr, tracebacks included), oldest first; "
        "with --final-run a final run's workers, with --driver a sweep's drivers (Tune's "
        "progress, their errors); -f follows until it ends.",
        with_id=False,
    )
    command.add_argument(
        "id",
        metavar="ID",
        help="Trial id (as `raysweep trials` shows it); a final run's id with --final-run; an "
        "experiment id with --driver.",
    )
    whose = command.add_mutually_exclusive_group()
    whose.add_argument(
        "--final-run", action="store_true", help="ID is a final run's: its workers' output."
    )
    whose.add_argument(
        "--driver", action="store_true", help="ID is an experiment's: its drivers' output."
    )
    command.add_argument("-f", "--follow", action="store_true", help="Follow until it ends.")
    command.add_argument("--rank", type=int, help="One worker rank only.")
    command.add_argument("--attempt", type=int, help="One attempt only (1 first; -1: latest).")
    command.add_argument(
        "--tail", type=int, help="Only the last N lines (with -f: then each new one)."
    )


def logs_path(args: argparse.Namespace) -> str:
    """The API path of the logs ``args`` name."""
    if args.driver:
        return f"/experiments/{args.id}/driver-logs"
    if not (args.id.isascii() and args.id.isdigit()):
        what = "a final run's id" if args.final_run else "a trial id"
        raise UsageError(f"{args.id!r} is not {what} (a number)")
    return f"/final-runs/{args.id}/logs" if args.final_run else f"/trials/{args.id}/logs"


def logs_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    path = logs_path(args)
    if args.driver and args.rank is not None:
        raise UsageError("a driver's output has no ranks: leave out --rank")
    try:
        return print_logs(client, path, args, as_json)
    except NotFound:
        if args.driver or args.final_run or not is_experiment(client, args.id):
            raise
        # an experiment id may be all digits (12 hex digits are, about once in 280)
        raise UsageError(
            f"{args.id!r} is not a trial id but an experiment's: give --driver for its drivers' "
            "output, or a trial's id from `raysweep trials`"
        ) from None


def is_experiment(client: Client, experiment_id: str) -> bool:
    try:
        client.experiment(experiment_id)
    except NotFound:
        return False
    return True


def print_logs(client: Client, path: str, args: argparse.Namespace, as_json: bool) -> None:
    if args.follow:
        followed = client.follow_logs(path, rank=args.rank, attempt=args.attempt, last=args.tail)
        for line in followed:
            show(line, as_json)
        return None
    lines: list[LogLine] = []
    after = None
    while True:  # every page: the logs may hold more than one answer's lines
        logs = client.logs_at(
            path, args.rank, args.attempt, after, args.tail or 5000, 0, tail=bool(args.tail)
        )
        lines += logs.lines
        after = logs.cursor
        if not logs.more:
            break
    for line in lines:
        show(line, as_json)
    if logs.dropped and not as_json:
        console.print(f"({logs.dropped} line(s) between the head and the latest were not kept)")
    return None


def show(line: LogLine, as_json: bool) -> None:
    if as_json:
        print(line.model_dump_json())
        return
    stamp = datetime.fromtimestamp(line.time).strftime("%H:%M:%S")
    where = f"a{line.attempt} r{line.rank}"
    mark = "!" if line.stream == "stderr" else " "
    console.print(
        f"{stamp} {where}{mark} {line.text}", markup=False, highlight=False, soft_wrap=True
    )
