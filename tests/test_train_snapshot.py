"""Ray Train's checkpoint snapshot of a run, kept whole (service/train_snapshot.py): a snapshot
cut short (a node lost while Train rewrote it) is put back from the copy of the report before,
or removed when there is none; readers fall back to the copy; retention rewrites both. The
same on a real Train run: tests/engine/test_trainer.py."""

from __future__ import annotations

import json
from pathlib import Path

from service.train_snapshot import (
    SNAPSHOT_COPY,
    TRAIN_SNAPSHOT,
    copy_snapshot,
    read_snapshot,
    repair_snapshot,
)
from service.usecases.retention import keep_in_snapshot


def snapshot(*names: str) -> dict[str, object]:
    results = [
        {"checkpoint_dir_name": name, "metrics": {"epoch": i + 1}} for i, name in enumerate(names)
    ]
    return {
        "checkpoint_results": results,
        "checkpoint_report_indices": list(range(len(names))),
        "latest_checkpoint_result": results[-1] if results else None,
        "ray_version": "2.60.0",
    }


def write(path: Path, value: object) -> None:
    path.write_text(json.dumps(value))


def test_a_snapshot_cut_short_is_put_back_from_its_copy(tmp_path: Path) -> None:
    write(tmp_path / TRAIN_SNAPSHOT, snapshot("checkpoint_1"))
    copy_snapshot(str(tmp_path))
    assert json.loads((tmp_path / SNAPSHOT_COPY).read_text()) == snapshot("checkpoint_1")
    assert repair_snapshot(str(tmp_path)) is None  # whole: left alone
    # report 2's write was cut: Train had emptied the file, or written part of it
    for cut in (b"", json.dumps(snapshot("checkpoint_1", "checkpoint_2")).encode()[:40]):
        (tmp_path / TRAIN_SNAPSHOT).write_bytes(cut)
        assert read_snapshot(str(tmp_path)) == snapshot("checkpoint_1")  # readers take the copy
        done = repair_snapshot(str(tmp_path))
        assert done is not None and "put back its copy" in done
        assert json.loads((tmp_path / TRAIN_SNAPSHOT).read_text()) == snapshot("checkpoint_1")
    # a copy is only ever taken of a snapshot that parses
    (tmp_path / TRAIN_SNAPSHOT).write_bytes(b'{"checkpoint_res')
    copy_snapshot(str(tmp_path))
    assert json.loads((tmp_path / SNAPSHOT_COPY).read_text()) == snapshot("checkpoint_1")


def test_a_whole_snapshot_refreshes_a_copy_that_lags_when_the_run_starts(tmp_path: Path) -> None:
    """The process died after Train wrote report 3's snapshot (and deleted checkpoint 1) but
    before it copied it: the copy still names checkpoint 1, and must not be what a later cut
    snapshot is replaced with."""
    write(tmp_path / TRAIN_SNAPSHOT, snapshot("checkpoint_2", "checkpoint_3"))
    write(tmp_path / SNAPSHOT_COPY, snapshot("checkpoint_1", "checkpoint_2"))
    assert repair_snapshot(str(tmp_path)) is None
    assert json.loads((tmp_path / SNAPSHOT_COPY).read_text()) == snapshot(
        "checkpoint_2", "checkpoint_3"
    )


def test_a_snapshot_cut_short_without_a_copy_is_removed(tmp_path: Path) -> None:
    assert repair_snapshot(str(tmp_path)) is None and read_snapshot(str(tmp_path)) is None
    (tmp_path / TRAIN_SNAPSHOT).write_bytes(b"")
    done = repair_snapshot(str(tmp_path))
    assert done is not None and "starts from its first epoch" in done
    assert not (tmp_path / TRAIN_SNAPSHOT).exists()


def test_retention_rewrites_the_snapshot_and_its_copy(tmp_path: Path) -> None:
    write(tmp_path / TRAIN_SNAPSHOT, snapshot("checkpoint_1", "checkpoint_2", "checkpoint_3"))
    write(tmp_path / SNAPSHOT_COPY, snapshot("checkpoint_1", "checkpoint_2"))
    keep_in_snapshot(str(tmp_path), {"checkpoint_2", "checkpoint_3"})
    kept = json.loads((tmp_path / TRAIN_SNAPSHOT).read_text())
    assert [r["checkpoint_dir_name"] for r in kept["checkpoint_results"]] == [
        "checkpoint_2",
        "checkpoint_3",
    ]
    assert kept["checkpoint_report_indices"] == [1, 2]
    copy = json.loads((tmp_path / SNAPSHOT_COPY).read_text())
    assert [r["checkpoint_dir_name"] for r in copy["checkpoint_results"]] == ["checkpoint_2"]
    assert copy["latest_checkpoint_result"]["checkpoint_dir_name"] == "checkpoint_2"
    # a snapshot cut short is left to the run's repair, not rewritten from nothing
    (tmp_path / TRAIN_SNAPSHOT).write_bytes(b"")
    keep_in_snapshot(str(tmp_path), {"checkpoint_3"})
    assert (tmp_path / TRAIN_SNAPSHOT).read_bytes() == b""
