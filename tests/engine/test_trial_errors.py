"""Which trial errors Tune starts a trial again for (no Ray cluster needed): the loss of an actor
(the trial's own, or one it waited on), not an error the trial raised. The real-Ray side, a trial
restarting after its node died, runs in `make deploy-test` (deploy/e2e.sh kills the only Ray
worker container); a Train run failing past max_failures staying failed in
tests/engine/test_faults.py."""

from __future__ import annotations

from ray.exceptions import ActorDiedError, ActorUnavailableError, RayTaskError

from service.engine.callback import process_lost


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
