"""The TensorBoard event files the trials write without TensorBoard (trainers/events.py), read
back by TensorBoard's own reader: the same tags, steps, values and wall times, records that pass
its CRC checks, flushed at every write; and the run's writer (trainers/tensorboard.py) beside a
Train run's checkpoints, on rank 0 only, never failing the run. No Ray cluster: Ray Train's
context is replaced by one holding a real Train storage context."""

from __future__ import annotations

import logging
import math
import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
import ray.train
from pyarrow import fs
from ray.train.v2._internal.execution.storage import StorageContext
from tensorboard.backend.event_processing.event_file_loader import (
    EventFileLoader,
    RawEventFileLoader,
)
from tensorboard.compat.proto.event_pb2 import Event
from tensorboard.compat.tensorflow_stub.pywrap_tensorflow import masked_crc32c as tb_masked_crc

from tests.tensorboard_files import Point, assert_epochs_written, event_files, read_scalars
from trainers import tensorboard
from trainers.events import EventFileWriter, crc32c, masked_crc32c
from trainers.kit import RayTrain
from trainers.tensorboard import ScalarWriter, scalar_writer

# what the kit reports each epoch (trainers.kit.epoch_metrics)
EPOCHS: list[dict[str, Any]] = [
    {
        "epoch": epoch,
        "train_loss": 1.0 / epoch,
        "val_loss": 1.2 / epoch,
        "val_accuracy": 0.5 + 0.1 * epoch,
        "samples_per_second": 1234.5 * epoch,
        "samples_per_second_per_worker": 617.25 * epoch,
        "lr": 0.01 * (4 - epoch) / 3,
        "model_params": 45_130.0,
        "allreduce_share": 0.125,
    }
    for epoch in (1, 2, 3)
]


def float32(value: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def test_the_reader_gets_back_every_tag_step_value_and_wall_time(tmp_path: Path) -> None:
    writer = EventFileWriter(str(tmp_path))
    start = 1_750_000_000.25
    for metrics in EPOCHS:
        assert writer.add_scalars(metrics, metrics["epoch"], wall_time=start + metrics["epoch"])
    writer.close()
    scalars = read_scalars(tmp_path)
    assert sorted(scalars) == sorted(EPOCHS[0])
    for tag, points in scalars.items():
        assert points == [Point(m["epoch"], float32(m[tag]), start + m["epoch"]) for m in EPOCHS], (
            tag
        )
    assert_epochs_written(tmp_path, (1, 2, 3), tags=sorted(EPOCHS[0]))


def test_the_file_is_named_and_versioned_as_tensorboard_expects(tmp_path: Path) -> None:
    before = int(time.time())
    writer = EventFileWriter(str(tmp_path / "new" / "dir"))
    name = Path(writer.path).name
    match = re.fullmatch(r"events\.out\.tfevents\.(\d+)\.(.+)\.(\d+)\.(\d+)", name)
    assert match is not None, name
    assert before <= int(match[1]) <= time.time()
    assert event_files(tmp_path / "new" / "dir") == [Path(writer.path)]
    first = next(iter(EventFileLoader(writer.path).Load()))
    assert first.file_version == "brain.Event:2" and first.step == 0


def test_every_record_passes_tensorboards_crc_checks_and_a_corrupt_one_does_not(
    tmp_path: Path,
) -> None:
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value
    for data in (b"", b"x", bytes(range(256)) * 3):
        assert masked_crc32c(data) == tb_masked_crc(data)
    writer = EventFileWriter(str(tmp_path))
    for metrics in EPOCHS:
        writer.add_scalars(metrics, metrics["epoch"])
    records = list(RawEventFileLoader(writer.path).Load())
    assert len(records) == 1 + len(EPOCHS)  # the version, then one event per epoch
    data = bytearray(Path(writer.path).read_bytes())
    data[-6] ^= 0x01  # a byte of the last event: its data no longer matches its CRC
    Path(writer.path).write_bytes(bytes(data))
    assert len(list(RawEventFileLoader(writer.path).Load())) == len(EPOCHS)


def test_a_live_reader_sees_each_write_at_once(tmp_path: Path) -> None:
    writer = EventFileWriter(str(tmp_path))
    reader = RawEventFileLoader(writer.path)
    assert [Event.FromString(e).file_version for e in reader.Load()] == ["brain.Event:2"]
    for metrics in EPOCHS:
        writer.add_scalars(metrics, metrics["epoch"])
        (record,) = list(reader.Load())  # without closing the writer
        event = Event.FromString(record)  # the protobuf as written, simple_value and all
        assert event.step == metrics["epoch"]
        assert {v.tag: v.simple_value for v in event.summary.value} == pytest.approx(metrics)


def test_numbers_are_written_nested_ones_by_path_and_text_left_out(tmp_path: Path) -> None:
    writer = EventFileWriter(str(tmp_path))
    written = writer.add_scalars(
        {"ok": True, "n": 3, "big": 1e300, "nan": math.nan, "loss": {"val": 0.5}, "note": "x"},
        step=-2,
    )
    assert written == 5
    assert writer.add_scalars({"note": "only text"}, step=1) == 0
    scalars = read_scalars(tmp_path)
    assert {tag: points[0].value for tag, points in scalars.items() if tag != "nan"} == {
        "ok": 1.0,
        "n": 3.0,
        "big": math.inf,  # past float32's range
        "loss/val": 0.5,
    }
    assert math.isnan(scalars["nan"][0].value) and scalars["n"][0].step == -2


def test_an_object_store_file_is_rewritten_whole_and_reads_back(tmp_path: Path) -> None:
    # a filesystem that is not the local one: the writer cannot append, so it rewrites
    store = fs.SubTreeFileSystem(str(tmp_path), fs.LocalFileSystem())
    writer = EventFileWriter("bucket/run/tensorboard", store)
    for metrics in EPOCHS[:2]:
        writer.add_scalars(metrics, metrics["epoch"])
        assert_epochs_written(tmp_path / "bucket/run/tensorboard", range(1, metrics["epoch"] + 1))


class FakeTrainContext:
    """Ray Train's worker context, with a real Train V2 storage context on a local path."""

    def __init__(self, storage_path: Path, run: str, rank: int):
        self.storage = StorageContext(storage_path=str(storage_path), experiment_dir_name=run)
        self.rank = rank

    def get_world_rank(self) -> int:
        return self.rank

    def get_storage(self) -> StorageContext:
        return self.storage


@pytest.fixture
def in_train_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    """Puts this test in Train run ``run`` on storage ``tmp_path`` as the rank it is given."""
    monkeypatch.setattr(tensorboard, "_writers", {})

    def enter(rank: int, run: str = "run") -> Path:
        context = FakeTrainContext(tmp_path, run, rank)
        monkeypatch.setattr(ray.train, "get_context", lambda: context)
        return tmp_path / run / "tensorboard"

    return enter


def test_the_kit_writes_every_report_beside_the_run_on_rank_0_only(
    in_train_run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    reported: list[dict[str, float]] = []
    monkeypatch.setattr(ray.train, "report", lambda metrics, checkpoint: reported.append(metrics))
    logdir = in_train_run(rank=1)
    for metrics in EPOCHS:
        RayTrain().report(metrics, None)
    assert not logdir.exists() and len(reported) == 3
    logdir = in_train_run(rank=0)
    for metrics in EPOCHS:
        RayTrain().report(metrics, None)
    assert reported == EPOCHS * 2
    scalars = assert_epochs_written(logdir, (1, 2, 3), tags=sorted(EPOCHS[0]))
    assert [p.value for p in scalars["val_accuracy"]] == [
        float32(m["val_accuracy"]) for m in EPOCHS
    ]
    assert len(event_files(logdir)) == 1  # one file per process, kept open
    assert scalar_writer() is scalar_writer()  # user code's writes go to the kit's file


def test_a_restarted_run_shows_its_new_epochs_in_place_of_the_old(in_train_run: Any) -> None:
    logdir = in_train_run(rank=0)
    first = ScalarWriter(str(logdir), None)  # the attempt that died after epoch 3's report
    for metrics in EPOCHS:
        first.write(metrics, metrics["epoch"])
    second = ScalarWriter(str(logdir), None)  # resumed from epoch 2's checkpoint
    assert second.write({**EPOCHS[2], "train_loss": 0.25}, 3)
    assert len(event_files(logdir)) == 2
    scalars = assert_epochs_written(logdir, (1, 2, 3))
    assert [p.value for p in scalars["train_loss"]] == [1.0, 0.5, 0.25]


def test_writing_never_fails_the_run(
    in_train_run: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    writer = ScalarWriter(str(blocked / "tensorboard"), None)
    with caplog.at_level(logging.WARNING, logger="trainers.tensorboard"):
        assert writer.write(EPOCHS[0], 1) is False
        assert writer.write(EPOCHS[1], 2) is False
    assert "could not write TensorBoard scalars" in caplog.text and "2 writes" in caplog.text
    # outside a Train worker: a writer that writes nothing
    assert scalar_writer().write(EPOCHS[0], 1) is False
