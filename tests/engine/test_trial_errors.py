"""Which trial errors Tune starts a trial again for (no Ray cluster needed): the loss of an actor
(the trial's own, or one it waited on), not an error the trial raised. The real-Ray side, a trial
restarting after its node died, runs in `make deploy-test` (deploy/e2e.sh kills the only Ray
worker container); a Train run failing past max_failures staying failed in
tests/engine/test_faults.py."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from ray.exceptions import ActorDiedError, ActorUnavailableError, RayTaskError

from raysweep.code_ref import DatasetSource
from raysweep.lifecycle import TrialState
from service.engine import trial as trial_module
from service.engine.callback import SweepStopper, process_lost, requirements_message
from service.engine.driver_context import DriverContext, failure_fingerprint
from service.engine.ray_compat import FailureDecision
from service.engine.trial import WorkerGroupWatch, build_datasets, failure_summary
from service.engine.trial_plan import TrialPlan
from service.engine.user_code import CodeLoadError, load_training_function


def test_a_trials_worker_group_restart_is_told_for_it_and_a_warm_groups_for_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Train retrying a trial's worker group is the trial's restart; a warm group's (only its
    start is retried) is no trial's: under CPU stress CI once stored it as a trial named "warm
    group"."""
    told: list[tuple[str, ...]] = []
    monkeypatch.setattr(trial_module, "tell_gate", lambda method, *args: told.append(args))
    WorkerGroupWatch("exp/t1/a", "exp", "t1").before_controller_execute_failure_decision(
        FailureDecision.RETRY
    )
    WorkerGroupWatch("exp/t2/a", "exp", None).before_controller_execute_failure_decision(
        FailureDecision.RETRY
    )
    assert [args[:3] for args in told] == [("exp", "t1", "restarted")]


def test_a_lost_actor_is_a_restart_and_an_error_of_the_trials_own_is_final() -> None:
    # the trial's own actor on a node that died: Tune sees it unavailable, or dead
    assert process_lost(ActorUnavailableError("temporarily unavailable", b"0" * 16))
    assert process_lost(ActorDiedError())
    # an actor the trial waited on (its Train controller) died under it
    assert process_lost(RayTaskError("train", "traceback", ActorDiedError()))
    # its Train run failed past max_failures, or its code raised
    assert not process_lost(RayTaskError("train", "traceback", RuntimeError("boom")))
    assert not process_lost(ValueError("no such module"))
    assert not process_lost(None)  # no pickled error: nothing says a process was lost


def context(fail_fast_after: int = 3, requires_time_attr: bool = False) -> DriverContext:
    return DriverContext(
        recorder=None,  # type: ignore[arg-type]
        read_request=lambda: None,
        time_attr="epoch",
        max_t=4,
        metric="loss",
        mode="min",
        target=None,
        fail_fast_after=fail_fast_after,
        requires_time_attr=requires_time_attr,
    ).bind()


BUG = 'Traceback (most recent call last):\n  File "train.py", line {n}\n{error}\n'


def test_n_trials_failing_the_same_way_stop_the_sweep_with_that_error() -> None:
    # the same bug, seen with other numbers and addresses in each trial
    sweep = context()
    for n, value in ((12, 0.51), (13, 0.77), (14, 0.3)):
        assert sweep.sweep_error is None
        sweep.trial_failed(BUG.format(n=n, error=f"ValueError: loss {value} at 0x7f3a{n}"))
    assert sweep.sweep_error is not None
    assert "3 trials failed with the same error and none ended otherwise" in sweep.sweep_error
    assert sweep.sweep_error.endswith("ValueError: loss 0.3 at 0x7f3a14")
    assert SweepStopper().stop_all()
    assert failure_fingerprint("ValueError: loss 1.5") == failure_fingerprint("ValueError: loss 2")
    # one trial failing otherwise first (a lost worker) no longer keeps the bug from stopping it
    # (CI twice saw every trial of tests/engine/test_code.py fail alike with fail-fast unmoved)
    lost_first = context()
    lost_first.trial_failed(BUG.format(n=1, error="ActorDiedError: the worker died"))
    for n in range(3):
        assert lost_first.sweep_error is None
        lost_first.trial_failed(BUG.format(n=n, error=f"ValueError: bad batch at step {n}"))
    assert "ValueError: bad batch at step 2" in (lost_first.sweep_error or "")


def test_different_failures_a_good_trial_first_or_zero_never_stop_the_sweep() -> None:
    mixed = context()
    for error in ("ValueError: a", "KeyError: 'b'", "ValueError: a", "KeyError: 'b'", "OSError"):
        mixed.trial_failed(BUG.format(n=1, error=error))
    assert mixed.sweep_error is None
    after_a_good_one = context()
    after_a_good_one.trial_failed(BUG.format(n=1, error="ValueError: a"))
    after_a_good_one.trial_ended_well("3f2a_1", TrialState.completed)
    for _ in range(5):
        after_a_good_one.trial_failed(BUG.format(n=1, error="ValueError: a"))
    assert after_a_good_one.sweep_error is None
    off = context(fail_fast_after=0)
    for _ in range(5):
        off.trial_failed(BUG.format(n=1, error="ValueError: a"))
    assert off.sweep_error is None


def test_a_result_without_the_time_attribute_stops_its_trial_as_failed_naming_it() -> None:
    judged = context(requires_time_attr=True)
    stopper = SweepStopper()
    assert not stopper("t1", {"epoch": 1, "loss": 0.5})
    assert stopper("t2", {"step": 1, "loss": 0.5})
    assert "the trial's results lack 'epoch'" in judged.contract_errors["t2"]
    assert "t1" not in judged.contract_errors
    unjudged = context(requires_time_attr=False)
    assert not SweepStopper()("t3", {"loss": 0.5}) and unjudged.contract_errors == {}


# the end of the error Tune records for a trial whose runtime environment Ray could not set up
# (a requirement pip cannot find), as Ray 2.60 words it
UNINSTALLABLE = """ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.
Traceback (most recent call last):
  File "ray/_private/runtime_env/utils.py", line 103, in check_output_cmd
    raise SubprocessCalledProcessError(
ray._private.runtime_env.utils.SubprocessCalledProcessError: Run cmd[9] failed with the following details.
Command '['/tmp/ray/session/runtime_resources/pip/2d48/virtualenv/bin/python', '-m', 'pip', 'install', '-r', 'requirements.txt']' returned non-zero exit status 1.
Last 50 lines of stdout:
    Looking in indexes: https://pypi.org/simple
    ERROR: Could not find a version that satisfies the requirement surely-not-a-package==9.9 (from versions: none)
    ERROR: No matching distribution found for surely-not-a-package==9.9
"""  # noqa: E501


def test_a_requirement_pip_cannot_install_fails_the_sweep_in_pips_words() -> None:
    assert requirements_message(UNINSTALLABLE) == (
        "cannot install the code's requirements: ERROR: Could not find a version that "
        "satisfies the requirement surely-not-a-package==9.9 (from versions: none); "
        "ERROR: No matching distribution found for surely-not-a-package==9.9"
    )
    assert requirements_message("ValueError: bad batch") is None


PLAN = TrialPlan(
    trainer=None,
    entrypoint="train:train_loop",
    epochs=1,
    checkpoint_frequency=1,
    max_failures=0,
    num_workers=1,
    use_gpu=False,
    cpus_per_worker=0.5,
    gpus_per_worker=0.0,
    storage_path="/unused",
    seed=0,
)


def test_code_that_cannot_load_or_build_its_datasets_is_a_code_load_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the trial actor (or a final run's task) raises before its workers start; the driver
    fails the sweep on the first such trial (on Ray: tests/engine/test_code.py)."""
    (tmp_path / "train.py").write_text("def other(config):\n    pass\n")
    (tmp_path / "data.py").write_text(
        "def rows():\n    return [1, 2]\n\n\ndef broken():\n    1 / 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    # the two modules this test imports go again after it (another test's may share a name)
    for module in ("train", "data"):
        monkeypatch.setitem(sys.modules, module, sys.modules.get(module))
        del sys.modules[module]
    with pytest.raises(CodeLoadError, match="'train:train_loop': AttributeError"):
        load_training_function(PLAN.entrypoint)
    cases = {
        "data:rows": "dataset 'd': data:rows returned a list, not a ray.data.Dataset",
        "data:broken": "cannot build dataset 'd' from function data:broken: ZeroDivisionError",
        "nowhere:make": "from function nowhere:make: ModuleNotFoundError",
    }
    for function, message in cases.items():
        plan = replace(PLAN, datasets=(("d", DatasetSource(function=function)),))
        with pytest.raises(CodeLoadError, match=re.escape(message)):
            build_datasets(plan)
    assert build_datasets(PLAN) is None  # no datasets: Ray Data is not even imported


def test_a_failure_names_each_rank_and_the_first_line_of_its_error_however_it_came() -> None:
    # Train's worker exceptions, and a warm worker's error text ("Type: message", a traceback)
    warm_text = 'ValueError: bad lr\nTraceback (most recent call last):\n  File "x.py"'
    errors: dict[int, BaseException | str] = {
        1: warm_text,
        0: RuntimeError("CUDA out of memory\nmore detail"),
        2: KeyError(),
        3: "   ",
    }
    assert failure_summary(errors) == (
        "rank 0: RuntimeError: CUDA out of memory; rank 1: ValueError: bad lr; "
        "rank 2: KeyError; rank 3: an error with no message"
    )
    assert failure_summary({0: "x" * 400}) == "rank 0: " + "x" * 300
