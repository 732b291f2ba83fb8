"""Every private Ray, Ray Train and Ray Tune name raysweep's engine uses, in one place.

raysweep pins ``ray==2.60.*`` and leans on a few names Ray does not promise to keep. They are
imported here and nowhere else, each with what happens when the next Ray moves it:

- optional ones (the two Train helpers raysweep drops from its runs) are ``None`` when missing,
  and the runs start them again, as Ray does: slower, not wrong;
- required ones (Train's callback interfaces, Tune's trial session, the GCS state accessors and
  the core worker, Serve's SDK client) fail the import of this module with an error naming every
  moved name at once, before a driver or the server starts, instead of one ``ImportError`` deep
  in a trial.

``tests/engine/test_ray_compat.py`` checks each name (and the private attributes of public
classes that ``engine/search.py`` reads), so an upgrade of Ray fails one test that lists what
moved.
"""

from __future__ import annotations

import weakref
from typing import Any

# what this Ray lacks of the names the engine cannot work without (raised together below)
_moved: list[str] = []
try:
    from ray.train.v2._internal.execution.callback import (
        ControllerCallback,
        ReportCallback,
        WorkerGroupCallback,
    )
    from ray.train.v2._internal.execution.context import TrainRunContext
    from ray.train.v2._internal.execution.failure_handling import FailureDecision
except ImportError as error:
    _moved.append(f"Ray Train V2's callback interfaces ({error})")
try:
    # what a warm worker group's trials see as ray.train (Train's documented patch point) and
    # how the trial registers their checkpoints as Train would (service/engine/warm_*.py)
    from ray.train.v2._internal.execution.checkpoint.checkpoint_manager import CheckpointManager
    from ray.train.v2._internal.execution.storage import StorageContext
    from ray.train.v2._internal.execution.train_fn_utils import (
        TrainFnUtils,
        get_train_fn_utils,
        set_train_fn_utils,
    )
    from ray.train.v2._internal.execution.training_report import _TrainingReport as TrainingReport
except ImportError as error:
    _moved.append(f"Ray Train V2's per-run user API and checkpoint manager ({error})")
try:
    # what raysweep's runs set torch.distributed up with (``train_run.TorchProcessGroup``)
    from ray.train._internal.utils import get_address_and_port
    from ray.train.constants import (
        DEFAULT_TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
        TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S,
    )
    from ray.train.v2._internal.util import TrainingFramework
except ImportError as error:
    _moved.append(f"Ray Train's torch set-up helpers ({error})")
try:
    import ray._private.state as ray_state
    import ray._raylet as _raylet
    from ray._private.worker import global_worker
    from ray._raylet import ActorID, PlacementGroupID

    # the Cython module's auth names are not in Ray's type stubs
    _RayConfig: Any = _raylet.Config  # type: ignore[attr-defined]
    get_authentication_mode: Any = _raylet.get_authentication_mode  # type: ignore[attr-defined]
except ImportError as error:
    _moved.append(f"Ray's GCS state accessors, ids and core worker ({error})")
try:
    # Tune's function-trainable session: without its queues a trial's last report can hang
    # (trial.wait_until_tune_has_the_last_result), so it is not optional
    from ray.train._internal.session import get_session as _get_train_session
except ImportError as error:
    _moved.append(f"Tune's trial session ({error})")
try:
    from ray.dashboard.modules.serve.sdk import ServeSubmissionClient
except ImportError as error:
    _moved.append(f"Serve's SDK client ({error})")
if _moved:
    raise ImportError(
        "this Ray no longer has what raysweep's engine uses: "
        + "; ".join(_moved)
        + ". raysweep supports ray==2.60.* (service/engine/ray_compat.py lists what it needs)"
    )

# names whose absence costs time, never a result (see their users' docstrings): None if missing
try:
    from ray.train.v2._internal.callbacks.datasets import DatasetsCallback
except ImportError:  # pragma: no cover - another Ray
    DatasetsCallback = None  # type: ignore[assignment,misc]
try:
    from ray.train.v2._internal.callbacks.placement_group_callback import (
        PlacementGroupCleanerCallback,
    )
except ImportError:  # pragma: no cover - another Ray
    PlacementGroupCleanerCallback = None  # type: ignore[assignment,misc]

try:
    from ray._common.constants import HEAD_NODE_RESOURCE_NAME
except ImportError:  # pragma: no cover - another Ray
    HEAD_NODE_RESOURCE_NAME = None  # type: ignore[assignment]
# every cluster's head node has 1 of this resource: the gate asks for a sliver of it to live
# there, as Ray Train's own state actor does (the literal is 2.60's value, should Ray move it)
HEAD_NODE_RESOURCE: str = HEAD_NODE_RESOURCE_NAME or "node:__internal_head__"

# TorchConfig's module (it imports torch) and its functions a run's workers call by name, so
# that the processes which only hold a run's config do not import it (``train_run``); checked
# by the test, as a missing one would fail every run's start on its workers
TORCH_CONFIG_MODULE = "ray.train.torch.config"
TORCH_CONFIG_NAMES = (
    "_set_torch_distributed_env_vars",
    "_setup_torch_process_group",
    "_shutdown_torch",
    "TorchConfigContextManager",
)

# private attributes of public classes the engine subclasses (checked by the test)
# (the stopping ASHA decides on rung code of its own: no scheduler's are read)
PRIVATE_ATTRIBUTES = {
    "ray.tune.search.optuna.OptunaSearch": ("_ot_study", "_space"),
}
# every module path above, for the test that checks they all still import
OPTIONAL_NAMES = {
    "HEAD_NODE_RESOURCE_NAME": HEAD_NODE_RESOURCE_NAME,
    "DatasetsCallback": DatasetsCallback,
    "PlacementGroupCleanerCallback": PlacementGroupCleanerCallback,
}

__all__ = [
    "DEFAULT_TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S",
    "HEAD_NODE_RESOURCE",
    "TORCH_PROCESS_GROUP_SHUTDOWN_TIMEOUT_S",
    "ActorID",
    "CheckpointManager",
    "ControllerCallback",
    "DatasetsCallback",
    "FailureDecision",
    "PlacementGroupCleanerCallback",
    "PlacementGroupID",
    "ReportCallback",
    "ServeSubmissionClient",
    "StorageContext",
    "TrainFnUtils",
    "TrainRunContext",
    "TrainingFramework",
    "TrainingReport",
    "TrialActorHold",
    "WorkerGroupCallback",
    "get_address_and_port",
    "get_train_fn_utils",
    "ray_state",
    "set_train_fn_utils",
]


def contains_tensor(metrics: dict[str, Any]) -> bool:
    """Whether reported metrics hold a torch tensor (Train refuses those); asked only where torch
    is loaded: the module imports it."""
    from ray.air._internal.torch_utils import contains_tensor as found

    return bool(found(metrics))


def train_session() -> Any:
    """The Tune/Train session of this process (its report queues), or None."""
    return _get_train_session()


def core_worker() -> Any:
    """This process's Ray core worker (set by ``ray.init``): it kills an actor by id, which no
    public API does for an actor one holds no handle to."""
    return global_worker.core_worker  # type: ignore[attr-defined]


def read_settings_again() -> None:
    """Have Ray read its settings (``RAY_*``) from the environment again: it reads them when it
    is imported, so a variable set after that is seen only then. Only before ``ray.init``: a
    connected process holds the cluster's settings, which this would reset."""
    _RayConfig.initialize("")


def token_auth() -> bool:
    """Whether this process sends Ray's auth token (``RAY_AUTH_MODE=token``, as Ray read it)."""
    return bool(get_authentication_mode())


def gcs_placement_group_table() -> list[bytes]:
    """The GCS's raw placement-group records (``placement_group_table`` leaves the creator
    actor out)."""
    accessor = ray_state.state._connect_and_get_accessor()
    rows: list[bytes] = accessor.get_placement_group_table()
    return rows


class TrialActorHold:
    """A scheduler's hold on Tune's cache of trial actors (``reuse_actors``), where a warm worker
    group lives on (``service/engine/warm_group.py``). Tune keeps a stopped trial's actor only
    for a trial it has already staged, and keeps none at all once its searcher has made every
    configuration: right for trials that never come back, but promotion ASHA's paused trials
    do, and an actor Tune ends takes its warm group with it, so every later segment started
    cold. While a hold is up, Tune keeps up to ``count`` stopped trials' actors for the trials
    it starts next; a hold of 0 gives the choice back to Tune.

    Tune pickles the scheduler (``tuner.pkl``) and the controller's attributes (its experiment
    state): the hold keeps no reference to the controller (a registry of weak ones does) and is
    not saved (a restored driver's controller starts with a cache of its own)."""

    def __init__(self) -> None:
        self.count = 0
        self._key: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__()  # type: ignore[misc]

    def hold(self, controller: Any, trial: Any, count: int) -> None:
        """Keep up to ``count`` actors of trials shaped like ``trial`` (its resources)."""
        tune = getattr(controller, "_tune_controller", controller)  # schedulers get a wrapper
        _install_actor_holds(type(tune))
        key = trial.placement_group_factory
        if self._key is not None and key != self._key:
            count = 0  # one trial shape per sweep; a change of it is not kept
        if count != self.count:
            cache = tune._actor_cache
            if count > self.count:
                cache.increase_max(key, count - self.count)
            else:
                cache.decrease_max(self._key, self.count - count)
            self.count, self._key = count, key if count else None
        _actor_holds[tune] = self


# each controller's hold (weak: a controller and its hold go together)
_actor_holds: weakref.WeakKeyDictionary[Any, TrialActorHold] = weakref.WeakKeyDictionary()


def _install_actor_holds(controller_class: type) -> None:
    """Once per process: Tune's controllers (``TuneController``) consult their hold when they
    stop a trial (on the class, not the instance: an instance attribute would go into Tune's
    experiment state)."""
    cache_actor = controller_class._maybe_cache_trial_actor  # type: ignore[attr-defined]
    if getattr(cache_actor, "consults_holds", False):
        return

    def maybe_cache_trial_actor(tune: Any, trial: Any) -> bool:
        hold = _actor_holds.get(tune)
        staged = tune._staged_trials
        if hold is None or not hold.count or trial in staged:
            return bool(cache_actor(tune, trial))
        # Tune's "search finished and nothing staged: keep nothing" is the one rule a hold
        # lifts; the trial counts as staged for that check only (the cache's own bound, which
        # the hold raised, still applies)
        staged.add(trial)
        try:
            return bool(cache_actor(tune, trial))
        finally:
            staged.discard(trial)

    maybe_cache_trial_actor.consults_holds = True  # type: ignore[attr-defined]
    controller_class._maybe_cache_trial_actor = maybe_cache_trial_actor  # type: ignore[attr-defined]


def missing_private_attributes() -> list[str]:
    """The private attributes the engine reads that this Ray's classes lack (after setting
    them up as the engine does)."""
    import inspect
    import re

    from ray.tune.execution.tune_controller import TuneController
    from ray.tune.search.optuna import OptunaSearch

    searcher = OptunaSearch(space={"x": _uniform()}, metric="loss", mode="min")
    instances = {"ray.tune.search.optuna.OptunaSearch": searcher}
    missing = [
        f"{owner}.{attribute}"
        for owner, attributes in PRIVATE_ATTRIBUTES.items()
        for attribute in attributes
        if not hasattr(instances[owner], attribute)
    ]
    # TrialActorHold's: the controller's cache and staged set (set by its constructor: building
    # one needs a cluster), the method it wraps, and the wrapper schedulers get
    from ray.tune.execution.tune_controller import TrialRunnerWrapper
    from ray.tune.utils.object_cache import _ObjectCache

    sources = {
        "TuneController": inspect.getsource(TuneController.__init__),
        "TrialRunnerWrapper": inspect.getsource(TrialRunnerWrapper.__init__),
    }
    set_in_constructors = {
        "TuneController": ("_actor_cache", "_staged_trials"),
        "TrialRunnerWrapper": ("_tune_controller",),
    }
    missing += [
        f"{owner}.{name}"
        for owner, names in set_in_constructors.items()
        for name in names
        if not re.search(rf"self\.{name}\s*(:[^=\n]*)?=", sources[owner])
    ]
    methods = {
        TuneController: ("_maybe_cache_trial_actor",),
        _ObjectCache: ("increase_max", "decrease_max"),
    }
    missing += [
        f"{owner.__name__}.{name}"
        for owner, names in methods.items()
        for name in names
        if not hasattr(owner, name)
    ]
    return missing


def _uniform() -> Any:
    from ray import tune

    return tune.uniform(0.0, 1.0)
