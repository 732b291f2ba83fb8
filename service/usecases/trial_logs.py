"""Logs as the API serves them: the lines a trial's or a final run's workers, or a sweep's
drivers, wrote (``service.engine.trial_logs`` keeps them in ``<run dir>/logs/`` on the sweep's
storage), by attempt and rank, newer than a cursor, with every secret the server knows of
replaced by ``***``."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import EXPERIMENT_ACTIVE, FINAL_RUN_ENDED, TRIAL_ENDED
from raysweep.logs import LogLine, TrialLogs
from service.db import repositories as repo
from service.errors import InvalidInput
from service.storage import (
    LOG_HEAD,
    LOGS_DIR,
    driver_uri,
    files_in,
    final_run_uri,
    read_text,
    train_runs_uri,
)
from service.usecases.final_runs import get_final_run_row

MAX_LINES = 5000
# a cursor: attempt.rank:seq for each stream read so far
CURSOR_PATTERN = r"^\d{1,6}\.\d{1,6}:\d{1,15}(,\d{1,6}\.\d{1,6}:\d{1,15})*$"
# what reads as a credential whoever printed it: API tokens, webhook secrets, the password in a
# URL, and the values of environment variables named like secrets
PATTERNS = [
    re.compile(r"rsw_[A-Za-z0-9_-]{8,}"),
    re.compile(r"rsj_[A-Za-z0-9_.-]{8,}"),  # a Ray job's own token (usecases.job_tokens)
    re.compile(r"whsec_[A-Za-z0-9_-]{8,}"),
    # the password in a URL (user:password@, or :password@)
    re.compile(r"(?<=://)[^/\s:@]{0,256}:[^@\s/]{1,256}(?=@)"),
    # a value named like a secret: password=x, "token": "x", 'AWS_SECRET_ACCESS_KEY': 'x'
    # (bounded repeats from a word's start: a long line must not make it backtrack for ever)
    re.compile(
        r"(?i)\b([\w-]{0,64}?(?:secret|token|passw(?:or)?d|api_?key|access_key|credential)"
        r"[\w-]{0,64}['\"]?\s{0,3}[:=]\s{0,3}['\"]?)[^\s'\",&}]+"
    ),
]
REDACTED = "***"


class Redactor:
    """Replaces the secrets the server knows (its database URL and password, the admin token,
    Ray's token) and anything shaped like a credential."""

    def __init__(self, secrets: Iterable[str]):
        # longest first, so a URL goes before the password inside it
        self.secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        for pattern in PATTERNS:
            # a pattern with a group keeps the group (the name before a secret value)
            text = pattern.sub(lambda m: (m.group(1) if m.groups() else "") + REDACTED, text)
        return text


def known_secrets(database_url: str, files: Iterable[Path]) -> list[str]:
    """The database URL (and its password), and the contents of secret files."""
    found = [database_url]
    password = re.search(r"://[^/\s:@]+:([^@\s/]+)@", database_url)
    if password:
        found.append(password.group(1))
    for path in files:
        try:
            found.append(path.read_text().strip())
        except OSError:
            continue
    found += [
        value
        for name, value in os.environ.items()
        if name.startswith("RAYSWEEP_DATABASE") or name in ("RAY_AUTH_TOKEN", "RAYSWEEP_TOKEN")
    ]
    return found


@dataclass
class Stream:
    """One worker's output of one attempt: its head file, then its segments in order."""

    attempt_id: str
    rank: int
    files: list[str] = field(default_factory=list)
    attempt: int = 0


def streams_in(logs_uri: str, read: Callable[[str], str]) -> list[Stream]:
    """The streams of a run's logs (``read`` gives a file's text by name), each attempt
    numbered by when its stream began."""
    streams: dict[str, Stream] = {}
    for name, _ in sorted(files_in(logs_uri)):
        stem, _, part = name.removesuffix(".jsonl").rpartition(".")
        attempt_id, _, rank = stem.rpartition("-rank")
        if not stem or not attempt_id or not rank.isdigit():
            continue
        stream = streams.setdefault(stem, Stream(attempt_id, int(rank)))
        if part == LOG_HEAD:
            stream.files.insert(0, name)
        else:
            stream.files.append(name)
    began: dict[str, float] = {}
    for stream in streams.values():
        first = _first_time(read(stream.files[0]))
        began[stream.attempt_id] = min(began.get(stream.attempt_id, first), first)
    order = sorted(began, key=lambda attempt: began[attempt])
    for stream in streams.values():
        stream.attempt = order.index(stream.attempt_id) + 1
    return sorted(streams.values(), key=lambda s: (s.attempt, s.rank))


def _first_time(text: str) -> float:
    line = text.split("\n", 1)[0]
    try:
        return float(json.loads(line)["t"])
    except (ValueError, KeyError, TypeError):
        return float("inf")


def parse_cursor(cursor: str | None) -> dict[tuple[int, int], int]:
    """``attempt.rank:seq,...`` -> {(attempt, rank): seq}."""
    seen: dict[tuple[int, int], int] = {}
    if not cursor:
        return seen
    if re.fullmatch(CURSOR_PATTERN, cursor) is None:
        raise InvalidInput("after is not a cursor this route gave", [])
    for part in cursor.split(","):
        stream, _, seq = part.partition(":")
        attempt, _, rank = stream.partition(".")
        seen[(int(attempt), int(rank))] = int(seq)
    return seen


def format_cursor(seen: dict[tuple[int, int], int]) -> str:
    return ",".join(f"{a}.{r}:{n}" for (a, r), n in sorted(seen.items()))


@dataclass(frozen=True)
class LogsQuery:
    """Which lines: newer than ``after``, oldest first, at most ``limit``; ``attempt`` and
    ``rank`` choose streams (default: all); ``attempt`` -1 is the latest."""

    rank: int | None = None
    attempt: int | None = None
    after: str | None = None
    limit: int = 1000
    # the last ``limit`` of those lines instead of the first (what `tail` shows); the cursor
    # then passes every line up to now
    tail: bool = False


def read_trial_logs(
    db: sessionmaker[Session], storage_root: str, trial_id: int, redact: Redactor, query: LogsQuery
) -> TrialLogs:
    """What the trial's workers printed, each attempt's."""
    with db.begin() as session:
        trial = repo.get_trial_row(session, trial_id)
        run_uri = f"{train_runs_uri(storage_root, trial.experiment_id)}/{trial.tune_trial_id}"
        running = trial.state not in TRIAL_ENDED
    return read_logs(run_uri, running, redact, query)


def read_final_run_logs(
    db: sessionmaker[Session],
    storage_root: str,
    final_run_id: int,
    redact: Redactor,
    query: LogsQuery,
) -> TrialLogs:
    """What the final run's workers printed, each attempt's."""
    with db.begin() as session:
        run = get_final_run_row(session, final_run_id)
        run_uri = final_run_uri(storage_root, run.experiment_id, run.id)
        running = run.state not in FINAL_RUN_ENDED
    return read_logs(run_uri, running, redact, query)


def read_driver_logs(
    db: sessionmaker[Session],
    storage_root: str,
    experiment_id: str,
    redact: Redactor,
    query: LogsQuery,
) -> TrialLogs:
    """What the sweep's drivers printed (rank 0; an attempt per driver job): Tune's progress,
    what Ray forwarded from the trials' processes, the driver's log and errors."""
    with db.begin() as session:
        state = repo.get_experiment_row(session, experiment_id).state
    return read_logs(
        driver_uri(storage_root, experiment_id), state in EXPERIMENT_ACTIVE, redact, query
    )


def read_logs(run_uri: str, running: bool, redact: Redactor, query: LogsQuery) -> TrialLogs:
    """The lines in ``<run_uri>/logs`` that ``query`` asks for."""
    rank, attempt, limit = query.rank, query.attempt, query.limit
    seen = parse_cursor(query.after)
    logs_uri = f"{run_uri}/{LOGS_DIR}"
    texts: dict[str, str] = {}

    def read(name: str) -> str:  # each file once: a head file's first line numbers attempts
        if name not in texts:
            texts[name] = read_text(f"{logs_uri}/{name}")
        return texts[name]

    streams = streams_in(logs_uri, read)
    attempts = sorted({s.attempt for s in streams})
    if attempt == -1 and attempts:
        attempt = attempts[-1]
    chosen = [s for s in streams if attempt in (None, s.attempt)]
    ranks = sorted({s.rank for s in chosen})
    chosen = [s for s in chosen if rank in (None, s.rank)]
    # (attempt, time, rank, seq, stream, text): sorted and cut to the page before any line is
    # redacted or built
    found: list[tuple[int, float, int, int, str, str]] = []
    dropped = 0
    for stream in chosen:
        key = (stream.attempt, stream.rank)
        after_seq = seen.get(key, 0)
        last_head = first_segment = None
        for name in stream.files:
            for raw in read(name).splitlines():
                try:
                    item = json.loads(raw)
                    seq = int(item["n"])
                except (ValueError, KeyError, TypeError):
                    continue  # a line being written
                if seq == 0:
                    continue  # the stream's start record
                if name.endswith(f".{LOG_HEAD}.jsonl"):
                    last_head = seq
                elif first_segment is None:
                    first_segment = seq
                if seq > after_seq:
                    found.append(
                        (
                            stream.attempt,
                            float(item.get("t", 0.0)),
                            stream.rank,
                            seq,
                            str(item.get("s", "stdout")),
                            str(item.get("m", "")),
                        )
                    )
        if last_head is not None and first_segment is not None:
            dropped += max(0, first_segment - last_head - 1)
    found.sort(key=lambda line: line[:4])
    page = found[-limit:] if query.tail else found[:limit]
    more = not query.tail and len(found) > limit
    lines = [
        LogLine(attempt=a, rank=r, stream=kind, time=t, seq=n, text=redact(text))
        for a, t, r, n, kind, text in page
    ]
    for a, _, r, n, _, _ in found if query.tail else page:
        seen[(a, r)] = max(seen.get((a, r), 0), n)
    return TrialLogs(
        lines=lines,
        cursor=format_cursor(seen),
        more=more,
        attempts=attempts,
        ranks=ranks,
        dropped=dropped,
        running=running,
    )
