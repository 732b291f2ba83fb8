"""The rules of warm worker groups on their own, in this process (no Ray cluster): what a worker
puts back between trials (``WorkerBaseline``), when a group is replaced (``spent``) and when an
idle group gives its lease up (``idle_for``, ``give_up_why``). tests/engine/test_warm_groups.py
runs them on real Ray."""

from __future__ import annotations

import gc
import os
import random
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import torch

from service.engine.warm_group import TUNE_SILENT_S, give_up_why, idle_for
from service.engine.warm_mailbox import Job
from service.engine.warm_worker import WorkerBaseline, spent


def job(recycle_after: int = 20, max_rss_bytes: int = 0) -> Job:
    return Job(
        seq=1,
        name="t1",
        entrypoint="m:f",
        config={},
        storage_path="/s",
        log_max_bytes=4096,
        resume=None,
        stamp="x",
        torch_process_group=False,
        recycle_after=recycle_after,
        max_rss_bytes=max_rss_bytes,
    )


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """``WorkerBaseline.capture`` freezes what lives (gc.freeze), as a worker's loop wants; the
    test process is put back."""
    yield
    gc.unfreeze()


@pytest.fixture
def user_package(tmp_path: Path) -> Iterator[Path]:
    """A module outside the Python installation, as a trial's package is (its working dir)."""
    (tmp_path / "grown_state.py").write_text("ITEMS = []\n")
    yield tmp_path
    sys.modules.pop("grown_state", None)


def test_a_worker_is_put_back_as_it_was_before_its_first_trial(user_package: Path) -> None:
    baseline = WorkerBaseline.capture()
    before = (torch.get_default_dtype(), torch.is_grad_enabled(), os.getcwd(), list(sys.path))
    draws = (random.random(), torch.rand(1).item())
    baseline.restore(process_group=False)  # the draws above are put back too

    # a trial that leaves everything dirty
    os.environ["RAYSWEEP_TEST_DIRTY"] = "1"
    sys.path.insert(0, str(user_package))
    import grown_state  # type: ignore[import-not-found]

    grown_state.ITEMS.append(1)
    os.chdir(user_package)
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch.manual_seed(1234)
    random.seed(1234)
    # a model left in a reference cycle: garbage only the collector frees
    model = torch.nn.Linear(4, 4)
    cycle: dict[str, object] = {"model": model}
    cycle["self"] = cycle
    model_ref = weakref.ref(model)
    del model, cycle

    assert baseline.restore(process_group=False) is None
    assert model_ref() is None  # collected, though what lived before the trial is frozen
    assert "RAYSWEEP_TEST_DIRTY" not in os.environ
    assert "grown_state" not in sys.modules  # the next trial imports it anew: an empty list
    assert (torch.get_default_dtype(), torch.is_grad_enabled(), os.getcwd(), sys.path) == before
    assert (random.random(), torch.rand(1).item()) == draws
    # installed modules stay imported: that is what makes the group warm
    assert "torch" in sys.modules


def test_a_thread_a_trial_left_running_ends_the_group() -> None:
    baseline = WorkerBaseline.capture()
    stop = threading.Event()
    threading.Thread(target=stop.wait, name="leaked", daemon=True).start()
    try:
        assert baseline.restore(process_group=False) == "it left threads running: leaked"
    finally:
        stop.set()
    # one that ends within the grace is not a leak
    threading.Thread(target=lambda: None, name="brief").start()
    assert baseline.restore(process_group=False) is None


def test_a_group_is_replaced_after_its_share_of_trials_or_past_the_memory_bound() -> None:
    assert spent(job(recycle_after=3), served=2, rss_bytes=1 << 30) is None
    assert spent(job(recycle_after=3), served=3, rss_bytes=0) == (
        "it ran 3 trials (RAYSWEEP_WARM_GROUP_TRIALS)"
    )
    bounded = job(max_rss_bytes=512 << 20)
    assert spent(bounded, served=1, rss_bytes=256 << 20) is None
    assert spent(bounded, served=1, rss_bytes=600 << 20) == (
        "a worker uses 600 MiB (RAYSWEEP_WARM_GROUP_MAX_RSS_MB)"
    )
    assert spent(job(max_rss_bytes=0), served=1, rss_bytes=1 << 40) is None  # no bound


def test_an_idle_group_gives_its_lease_up_when_another_owner_waits_or_after_the_timeout() -> None:
    asked: list[bool] = []

    def contended(answer: bool) -> Callable[[], bool]:
        def ask() -> bool:
            asked.append(answer)
            return answer

        return ask

    # training: neither idle nor asked
    assert idle_for(True, idle_since=0.0, tune_since=None, now=100.0) is None
    assert give_up_why(None, 30.0, contended(True)) is None
    assert asked == []
    # between trials, or its trial's report left untaken by Tune past TUNE_SILENT_S
    assert idle_for(False, idle_since=90.0, tune_since=None, now=100.0) == 10.0
    assert idle_for(True, idle_since=0.0, tune_since=99.0, now=100.0) is None
    silent = idle_for(True, idle_since=0.0, tune_since=100.0 - TUNE_SILENT_S - 1, now=100.0)
    assert silent == TUNE_SILENT_S + 1
    # idle: kept while nobody else waits, given up at once when someone does, or after idle_s
    assert give_up_why(10.0, 30.0, contended(False)) is None
    assert give_up_why(10.0, 30.0, contended(True)) == (
        "a run of another owner waits for its resources"
    )
    assert give_up_why(31.0, 30.0, contended(False)) == ("idle 31s (RAYSWEEP_WARM_GROUP_IDLE_S)")
