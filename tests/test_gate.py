"""The gate's decisions on their own (no Ray): arrival order, capacity, nodes, waits, expiry,
elastic grants.
The real-Ray behaviour is tested in tests/engine/test_contention.py."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import pytest

from raysweep.spec import ExperimentSpec
from service.engine.driver_context import DriverContext
from service.engine.ledger import ENDED_KEPT_S, LEASE_TTL_S, Ledger, Notice
from service.engine.trial_plan import TrialPlan
from service.resources import Capacity, ProjectShare, ResourceRequest, carves, trial_request
from service.usecases.reports import Op, ReservationReclaimed, TrialRestarted
from tests.conftest import ManualClock, minimal_spec

TWO_CPU = Capacity(({"CPU": 2.0, "memory": 8e9},))
TWO_NODES = Capacity(({"CPU": 1.0}, {"CPU": 1.0}))


def trial(label: str, workers: int = 2, cpus: float = 0.6, owner: str = "exp") -> ResourceRequest:
    """A trial on a single-node cluster: its function's share carved out of its workers'."""
    return ResourceRequest(owner, label, {"CPU": cpus}, workers, {"CPU": 0.01}, carved=True)


def test_two_trials_that_fill_the_cluster_exactly_run_at_once() -> None:
    """Each trial's function (0.01 CPU, placed by Tune beside its group) is carved out of its
    workers' bundles: two trials of 2 x 0.5 CPU run together on 2 CPUs. With the function's
    share on top the second group missed 0.02 CPU and waited for the first trial to end."""
    exact = trial("a", cpus=0.5)
    assert exact.placed_bundle == {"CPU": 0.495} and exact.whole == {"CPU": 1.0}
    ledger = Ledger(ManualClock(100.0))
    assert ledger.request("a", exact, TWO_CPU, 0).state == "granted"
    assert ledger.request("b", trial("b", cpus=0.5), TWO_CPU, 0).state == "granted"
    assert ledger.free(TWO_CPU)["CPU"] == pytest.approx(0.0, abs=1e-9)
    # a third waits, and its reason says nothing is free in the cluster's terms (not "free {}")
    third = ledger.request("c", trial("c", cpus=0.5), TWO_CPU, 0)
    assert third.state == "waiting" and "; free {CPU: 0} of {CPU: 2}" in third.message
    # a share finer than Ray's unit is rounded up, so Ray never places more than was asked
    thirds = ResourceRequest("exp", "c", {"CPU": 0.5}, 3, {"CPU": 0.01}, carved=True)
    assert thirds.placed_bundle == {"CPU": 0.4966} and thirds.whole == {"CPU": 1.5}  # as asked
    # workers that ask too little to give a share keep their bundle; the function's is on top
    tiny = ResourceRequest("exp", "d", {"CPU": 0.01, "GPU": 1.0}, 1, {"CPU": 0.01}, carved=True)
    assert tiny.placed_bundle == {"CPU": 0.01, "GPU": 1.0} and tiny.whole["CPU"] == 0.02


def test_the_function_share_is_carved_only_where_one_node_has_cpus() -> None:
    """Across nodes a trial's function sits on one node and each worker's slack on its own: on
    3 nodes of 8 CPUs a trial of 3 whole-node workers carved to 7.9967 would be admitted by the
    totals and never placed (the node holding the function has 7.99 left). There the share
    stays on top and the submit check refuses the trial, as before the carve."""
    assert carves(TWO_CPU.nodes) and carves([{"CPU": 0.0}, {"CPU": 2.0}])  # a CPU-less head
    assert not carves(TWO_NODES.nodes)
    three = Capacity(({"CPU": 8.0},) * 3)
    whole_nodes = ResourceRequest("exp", "w", {"CPU": 8.0}, 3, {"CPU": 0.01}, carved=False)
    assert whole_nodes.placed_bundle == {"CPU": 8.0} and whole_nodes.whole == {"CPU": 24.01}
    assert whole_nodes.unplaceable(three) == "it needs {CPU: 24.01} in all"
    spec = ExperimentSpec.model_validate(
        minimal_spec(resources={"num_workers": 2, "cpus_per_worker": 0.5})
    )
    assert trial_request(spec, carves(TWO_CPU.nodes)).placed_bundle == {"CPU": 0.495}
    assert trial_request(spec, carves(TWO_NODES.nodes)).placed_bundle == {"CPU": 0.5}


def test_two_trials_that_do_not_fit_together_run_one_after_the_other() -> None:
    ledger = Ledger(ManualClock(100.0))
    assert ledger.request("a", trial("a"), TWO_CPU, 0).state == "granted"
    waiting = ledger.request("b", trial("b"), TWO_CPU, 0)
    assert waiting.state == "waiting"
    # what it needs (as the spec asks) and what is free: 2 - 1.19 (a's workers, its function's
    # share carved out) - 0.02 (both functions)
    assert "needs 2 worker(s) x {CPU: 0.6}" in waiting.message
    assert "free {CPU: 0.79} of {CPU: 2}" in waiting.message
    assert ledger.waiting("exp") == {"b": waiting.message}
    ledger.release("a")
    assert ledger.request("b", trial("b"), TWO_CPU, 0).state == "granted"
    assert ledger.waiting("exp") == {}


def test_a_run_given_datasets_keeps_a_cpu_free_beside_its_group_while_it_runs() -> None:
    """Ray Data's reads run outside the worker group: two such trials whose groups alone would
    fit together run one at a time, each leaving a CPU free; plain trials fill what is left."""
    with_data = ResourceRequest(
        "exp", "d1", {"CPU": 0.25}, 2, {"CPU": 0.01}, beside={"CPU": 1.0}, carved=True
    )
    ledger = Ledger(ManualClock(100.0))
    assert ledger.request("d1", with_data, TWO_CPU, 0).state == "granted"
    second = ledger.request("d2", replace(with_data, label="d2"), TWO_CPU, 0)
    assert second.state == "waiting"
    assert "needs 2 worker(s) x {CPU: 0.25} and {CPU: 1} free beside them" in second.message
    # 2 - 0.49 (d1's workers) - 1 (kept free beside them) - 0.02 (both functions)
    assert "free {CPU: 0.49} of {CPU: 2}" in second.message
    ledger.release("d1")
    assert ledger.request("d2", replace(with_data, label="d2"), TWO_CPU, 0).state == "granted"
    # a run that could never have its CPU free beside its group is refused, saying so
    whole = ResourceRequest(
        "exp", "w", {"CPU": 1.0}, 2, {"CPU": 0.01}, beside={"CPU": 1.0}, carved=True
    )
    refused = Ledger(ManualClock(100.0)).request("w", whole, TWO_CPU, 0)
    assert refused.state == "refused" and "{CPU: 3} in all" in refused.message
    # the plan asks for it where the spec names datasets, and only there
    plain = ExperimentSpec.model_validate(
        minimal_spec(search_space={"lr": {"type": "constant", "value": 0.1}})
    )
    spec = ExperimentSpec.model_validate(
        {
            **minimal_spec(search_space={"lr": {"type": "constant", "value": 0.1}}),
            "trainer": None,
            "code": {
                "package": "a" * 64,
                "entrypoint": "train:loop",
                "metrics": {"loss": "min", "epoch": "max"},
                "datasets": {"train": {"path": "/data/train.parquet"}},
            },
            "metric": "loss",
            "mode": "min",
        }
    )
    for source, beside in ((spec, {"CPU": 1.0}), (plain, {})):
        plan = TrialPlan.from_spec(
            source, epochs=1, num_workers=2, storage_path="/s", owner="e", resource_wait_s=0
        )
        assert plan.lease_request("t").beside == beside


def test_grants_follow_arrival_order_so_a_large_run_is_not_starved() -> None:
    ledger = Ledger(ManualClock(100.0))
    assert ledger.request("small-1", trial("s1", workers=1), TWO_CPU, 0).state == "granted"
    big = trial("big", workers=3)  # 1.5 CPU: waits for small-1
    assert ledger.request("big", big, TWO_CPU, 0).state == "waiting"
    # a later small run would fit beside small-1, but the big one came first
    later = ledger.request("small-2", trial("s2", workers=1), TWO_CPU, 0)
    assert later.state == "waiting" and "1 run(s) ahead" in later.message
    ledger.release("small-1")
    assert ledger.request("big", big, TWO_CPU, 0).state == "granted"
    assert ledger.request("small-2", trial("s2", workers=1), TWO_CPU, 0).state == "waiting"


def test_a_run_the_cluster_can_never_hold_is_refused_after_the_wait_and_blocks_nobody() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock)
    huge = trial("huge", workers=2, cpus=1.5)  # 3 CPU on a 2-CPU cluster
    first = ledger.request("huge", huge, TWO_CPU, wait_s=30)
    assert first.state == "waiting" and "waiting for the cluster to grow" in first.message
    # it does not hold back runs that fit
    assert ledger.request("a", trial("a"), TWO_CPU, 30).state == "granted"
    clock.now += 31
    refused = ledger.request("huge", huge, TWO_CPU, wait_s=30)
    assert refused.state == "refused"
    assert "2 worker(s) x {CPU: 1.5}" in refused.message and "{CPU: 3} in all" in refused.message
    assert "it has {CPU: 2} on 1 node(s)" in refused.message
    assert "RAYSWEEP_TRIAL_RESOURCE_WAIT_S" in refused.message
    assert "huge" not in ledger.waiting("exp")


def test_on_a_fixed_cluster_an_impossible_run_is_refused_at_once() -> None:
    decision = Ledger(ManualClock(100.0)).request(
        "g", ResourceRequest("e", "g", {"GPU": 1.0}, 4), TWO_CPU, 0
    )
    assert decision.state == "refused"
    assert "4 worker(s) x {GPU: 1}" in decision.message and "{GPU: 4} in all" in decision.message


def test_a_bundle_no_single_node_can_take_is_refused_even_when_the_sum_fits() -> None:
    decision = Ledger(ManualClock(100.0)).request(
        "x", trial("x", workers=1, cpus=1.5), TWO_NODES, 0
    )
    assert decision.state == "refused"
    assert "no node can take one worker's {CPU: 1.5}" in decision.message


def test_the_cluster_growing_admits_a_waiting_run() -> None:
    ledger = Ledger(ManualClock(100.0))
    big = trial("big", workers=2, cpus=1.5)
    assert ledger.request("big", big, TWO_CPU, 600).state == "waiting"
    grown = Capacity(({"CPU": 2.0}, {"CPU": 2.0}))
    assert ledger.request("big", big, grown, 600).state == "granted"


def test_a_lease_whose_holder_stopped_renewing_expires_and_renewal_keeps_it() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock)
    ledger.request("a", trial("a"), TWO_CPU, 0)
    ledger.request("b", trial("b"), TWO_CPU, 0)
    clock.now += LEASE_TTL_S / 2
    ledger.renew("a", trial("a"))
    assert ledger.request("b", trial("b"), TWO_CPU, 0).state == "waiting"
    clock.now += LEASE_TTL_S / 2 + 1  # a renewed half a TTL ago: still held
    assert ledger.request("b", trial("b"), TWO_CPU, 0).state == "waiting"
    clock.now += LEASE_TTL_S  # a's holder died: no renewals
    assert ledger.request("b", trial("b"), TWO_CPU, 0).state == "granted"


def test_a_gate_that_lost_its_state_takes_back_a_renewed_lease() -> None:
    ledger = Ledger(ManualClock(100.0))
    ledger.renew("a", trial("a"))  # the gate restarted while a ran
    assert ledger.request("b", trial("b"), TWO_CPU, 0).state == "waiting"


def test_killed_holders_release_their_leases_at_once() -> None:
    ledger = Ledger(ManualClock(100.0))
    ledger.request("exp/t1/actor1", trial("t1"), TWO_CPU, 0)
    ledger.request("exp/t2/actor2", trial("t2"), TWO_CPU, 0)
    assert ledger.release_holders(["actor1"]) == 1
    assert ledger.request("exp/t2/actor2", trial("t2"), TWO_CPU, 0).state == "granted"


def test_an_elastic_run_gets_what_is_free_up_to_its_maximum_and_no_more() -> None:
    """Granted between its minimum and maximum by what is free; the lease (and so its Train
    run) holds that many, and the next run is admitted into the rest."""
    ledger = Ledger(ManualClock(100.0))
    first = ResourceRequest("exp", "a", {"CPU": 0.5}, 1, {"CPU": 0.01}, max_count=8, carved=True)
    granted = ledger.request("a", first, TWO_CPU, 0)
    # 4 x 0.49 of the 1.99 free: its function's 0.01 is carved out of its minimum's bundles
    assert (granted.state, granted.workers) == ("granted", 4)
    small = ledger.request("b", trial("b", workers=1), TWO_CPU, 0)
    assert small.state == "waiting"  # 0.02 free, the 4 workers were granted
    assert "needs 1 worker(s)" in small.message and "free {CPU: 0.02}" in small.message
    ledger.release("a")
    assert ledger.request("b", trial("b", workers=1), TWO_CPU, 0).state == "granted"
    ledger.release("b")
    second = ResourceRequest("exp", "c", {"CPU": 0.5}, 1, {"CPU": 0.01}, max_count=2, carved=True)
    assert ledger.request("c", second, TWO_CPU, 0).workers == 2  # its maximum; 4 would fit
    assert "1-2 worker(s)" in second.describe()


def test_an_elastic_trial_asks_for_its_bounds_and_runs_pinned_to_its_grant() -> None:
    spec = ExperimentSpec.model_validate(
        minimal_spec(resources={"num_workers": [1, 4], "cpus_per_worker": 0.5})
    )
    plan = TrialPlan.from_spec(
        spec, epochs=2, num_workers=(1, 4), storage_path="/tmp", owner="exp", resource_wait_s=0
    )
    request = plan.lease_request("t1")
    assert (request.count, request.max_count) == (1, 4)
    assert plan.with_workers(3).num_workers == (1, 3)  # may shrink to 1, never past 3
    assert plan.with_workers(1).num_workers == 1
    fixed = TrialPlan.from_spec(
        spec, epochs=2, num_workers=2, storage_path="/tmp", owner="exp", resource_wait_s=0
    )
    assert fixed.lease_request("t2").max_count is None and fixed.with_workers(2) is fixed


def test_work_the_gate_did_not_admit_holds_its_share() -> None:
    """Another job or a model replica holding 1 CPU of the 2: Ray's free resources say so, and
    a run that would fit the leases' arithmetic alone waits until that work ends."""
    ledger = Ledger(ManualClock(100.0))
    busy = Capacity(TWO_CPU.nodes, available={"CPU": 1.0, "memory": 8e9})
    waiting = ledger.request("a", trial("a", workers=2, cpus=0.75), busy, 0)
    assert waiting.state == "waiting" and "free {CPU: 1} of {CPU: 2}" in waiting.message
    idle = Capacity(TWO_CPU.nodes, available={"CPU": 1.99, "memory": 8e9})  # its function
    assert ledger.request("a", trial("a", workers=2, cpus=0.75), idle, 0).state == "granted"
    # granted, not placed yet: Ray still shows its 1.49 CPU free, the lease holds them
    assert ledger.free(idle)["CPU"] == pytest.approx(0.5)


def in_project(
    label: str, project: str, priority: int = 0, cpus: float = 0.5, rung: int | None = None
) -> ResourceRequest:
    return ResourceRequest(
        project,
        label,
        {"CPU": cpus},
        1,
        {"CPU": 0.01},
        project=project,
        priority=priority,
        rung=rung,
    )


FOUR_SLOTS = Capacity(({"CPU": 2.0},))  # four 1 x 0.45-CPU runs and their functions


def test_a_project_below_its_share_gets_the_next_free_slot_before_earlier_arrivals() -> None:
    ledger = Ledger(ManualClock(100.0))
    for n in range(6):  # a's runs arrive first and fill the cluster
        ledger.request(f"a{n}", in_project(f"a{n}", "a", cpus=0.45), FOUR_SLOTS, 0)
    for n in range(3):
        decision = ledger.request(f"b{n}", in_project(f"b{n}", "b", cpus=0.45), FOUR_SLOTS, 0)
        assert decision.state == "waiting"
    # two of a's runs end: both slots go to b, whose share (0) is below a's, though a's
    # remaining runs arrived earlier
    ledger.release("a0")
    ledger.release("a1")
    ledger.request("a4", in_project("a4", "a", cpus=0.45), FOUR_SLOTS, 0)  # a's next poll
    granted = [k for k, e in ledger.entries.items() if e.granted]
    assert sorted(granted) == ["a2", "a3", "b0", "b1"]
    # at equal shares, arrival order decides between the projects again
    ledger.release("b0")
    assert ledger.request("b2", in_project("b2", "b", cpus=0.45), FOUR_SLOTS, 0).state == "granted"


def test_weights_divide_the_cluster_and_priorities_order_a_projects_own_runs() -> None:
    ledger = Ledger(ManualClock(100.0))
    ledger.set_project("heavy", ProjectShare(weight=3))
    for n in range(4):
        ledger.request(f"light{n}", in_project(f"light{n}", "light", cpus=0.45), FOUR_SLOTS, 0)
    for n, priority in enumerate([0, 0, 0, 1]):
        run = in_project(f"heavy{n}", "heavy", priority=priority, cpus=0.45)
        ledger.request(f"heavy{n}", run, FOUR_SLOTS, 0)
    for n in range(4):
        ledger.release(f"light{n}")
        ledger.request(
            f"light{n + 4}", in_project(f"light{n + 4}", "light", cpus=0.45), FOUR_SLOTS, 0
        )
    granted = sorted(k for k, e in ledger.entries.items() if e.granted)
    # weight 3 to 1: three of four slots; its high-priority run first
    assert granted == ["heavy0", "heavy1", "heavy3", "light4"]


def test_a_quota_holds_back_its_project_only_and_says_so() -> None:
    ledger = Ledger(ManualClock(100.0))
    ledger.set_project("capped", ProjectShare(max_workers=2))
    decisions = [
        ledger.request(f"c{n}", in_project(f"c{n}", "capped", cpus=0.45), FOUR_SLOTS, 0)
        for n in range(3)
    ]
    assert [d.state for d in decisions] == ["granted", "granted", "waiting"]
    assert "quota" in decisions[2].message and "max_workers 2" in decisions[2].message
    # the free slots behind the capped run go to others
    assert (
        ledger.request("o", in_project("o", "other", cpus=0.45), FOUR_SLOTS, 0).state == "granted"
    )


def test_every_lease_is_a_segment_from_its_grant_to_its_end() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock, wall=clock)
    ledger.request("exp/t1/actor1", trial("t1", workers=2), TWO_CPU, 0)
    clock.now += 10
    [held] = ledger.usage("exp")
    # what the workers hold as the spec asks (their function's share carved out of it)
    assert held.holding and held.seconds == 10 and held.workers == 2 and held.cpus == 1.2
    clock.now += 5
    ledger.release("exp/t1/actor1")
    [ended] = ledger.usage("exp")
    assert not ended.holding and ended.seconds == 15 and ended.started == held.started
    # a killed holder's lease ends at its last renewal, not when the gate noticed
    ledger.request("exp/t2/actor2", trial("t2"), TWO_CPU, 0)
    clock.now += 4
    ledger.renew("exp/t2/actor2", trial("t2"))
    clock.now += 20
    ledger.release_holders(["actor2"])
    assert sorted(s.seconds for s in ledger.usage("exp")) == [4, 15]
    assert ledger.usage("other") == []


def test_a_finished_owner_holds_nothing_and_its_leases_end_at_their_last_renewal() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock, wall=clock)
    ledger.request("exp/t1/a1", trial("t1"), TWO_CPU, 0)
    ledger.request("exp/t2/a2", trial("t2"), TWO_CPU, 0)  # waits: the cluster is full
    ledger.request("other/t3/a3", trial("t3", owner="other"), TWO_CPU, 0)
    clock.now += 3
    ledger.renew("exp/t1/a1", trial("t1"))
    clock.now += 10  # its trial was killed: no more renewals
    ledger.end_owner("exp")
    assert [(s.seconds, s.holding) for s in ledger.usage("exp")] == [(3, False)]
    assert list(ledger.entries) == ["other/t3/a3"]


def test_an_over_share_project_yields_its_lowest_rung_at_a_checkpoint_and_only_what_is_needed() -> (
    None
):
    clock = ManualClock(100.0)
    ledger = Ledger(clock)
    rungs = {"a1": 4, "a2": 1, "a3": 2, "a4": 1}
    for label, rung in rungs.items():  # a fills the four slots with promotion-ASHA segments
        clock.now += 1
        ledger.request(label, in_project(label, "a", cpus=0.45, rung=rung), FOUR_SLOTS, 0)
    assert ledger.yield_now("a2") is None  # nobody waits: every run goes on
    assert ledger.request("b1", in_project("b1", "b", cpus=0.45), FOUR_SLOTS, 0).state == (
        "waiting"
    )
    # one slot is enough for b: the lowest rung yields, the earlier granted of the two at rung
    # 1 (it is past its start, so it reaches a checkpoint soonest)
    assert [k for k, e in ledger.entries.items() if e.yield_to] == ["a2"]
    assert ledger.yield_now("a1") is None
    assert ledger.yield_now("a2") == "b"  # its run stops at this checkpoint
    # b's second run waits behind b1, whose slot a2 frees: nothing more yields yet
    ledger.request("b2", in_project("b2", "b", cpus=0.45), FOUR_SLOTS, 0)
    assert [k for k, e in ledger.entries.items() if e.yield_to] == ["a2"]
    first_arrival = ledger.entries["a2"].since
    ledger.release("a2")  # its run stopped at its checkpoint
    assert ledger.request("b1", in_project("b1", "b", cpus=0.45), FOUR_SLOTS, 0).state == (
        "granted"
    )
    # a2 asks again and keeps its place in a's queue: its first arrival
    clock.now += 1
    a2 = ledger.request("a2", in_project("a2", "a", cpus=0.45, rung=1), FOUR_SLOTS, 0)
    assert a2.state == "waiting" and ledger.entries["a2"].since == first_arrival
    # now b2 is first: a, without one more slot, holds 2 as b would: the next lowest rung
    ledger.request("b2", in_project("b2", "b", cpus=0.45), FOUR_SLOTS, 0)
    assert [k for k, e in ledger.entries.items() if e.yield_to] == ["a4"]
    # b2 is cancelled and a2 as well before a4's next checkpoint: nobody waits, the hint is
    # taken back
    ledger.release("b2")
    ledger.release("a2")
    assert ledger.yield_now("a4") is None
    # once a holds 2 and b 2, a third run of b takes nothing: a would fall below b
    ledger.request("b2", in_project("b2", "b", cpus=0.45), FOUR_SLOTS, 0)
    assert ledger.yield_now("a4") == "b"
    ledger.release("a4")
    assert ledger.request("b2", in_project("b2", "b", cpus=0.45), FOUR_SLOTS, 0).state == (
        "granted"
    )
    ledger.request("b3", in_project("b3", "b", cpus=0.45), FOUR_SLOTS, 0)
    assert not any(e.yield_to for e in ledger.entries.values())


def test_runs_that_cannot_yield_and_projects_at_their_share_keep_their_slots() -> None:
    ledger = Ledger(ManualClock(100.0))
    for n in range(4):  # grid trials (no rung): they run to their end
        ledger.request(f"a{n}", in_project(f"a{n}", "a", cpus=0.45), FOUR_SLOTS, 0)
    ledger.request("b0", in_project("b0", "b", cpus=0.45), FOUR_SLOTS, 0)
    assert not any(e.yield_to for e in ledger.entries.values())
    # two projects at two slots each: a third project's run takes no slot from either
    ledger = Ledger(ManualClock(100.0))
    for label in ("a0", "a1"):
        ledger.request(label, in_project(label, "a", cpus=0.45, rung=1), FOUR_SLOTS, 0)
    for label in ("b0", "b1"):
        ledger.request(label, in_project(label, "b", cpus=0.45, rung=1), FOUR_SLOTS, 0)
    # ... but c, holding nothing, does get one: a and b would still hold one each (>= c's one)
    ledger.request("c0", in_project("c0", "c", cpus=0.45), FOUR_SLOTS, 0)
    assert len([e for e in ledger.entries.values() if e.yield_to == "c"]) == 1
    # and a project never preempts itself
    ledger = Ledger(ManualClock(100.0))
    for n in range(5):
        ledger.request(f"a{n}", in_project(f"a{n}", "a", cpus=0.45, rung=1), FOUR_SLOTS, 0)
    assert not any(e.yield_to for e in ledger.entries.values())


def test_a_dead_holders_lease_ends_at_the_second_reap_and_its_reservations_are_due() -> None:
    ledger = Ledger(ManualClock(100.0))
    key = "exp/t1/aaaa"
    assert ledger.request(key, trial("t1"), TWO_CPU, 0).state == "granted"
    assert ledger.register_group(key, "pg1", "ctrl1")
    assert ledger.request("exp/t2/bbbb", trial("t2"), TWO_CPU, 0).state == "waiting"
    ledger.reap({"bbbb", "ctrl1"})  # one miss: a listing may be older than the lease
    assert key in ledger.entries and ledger.take_removals() == []
    ledger.reap({"bbbb", "ctrl1"})
    assert key not in ledger.entries
    (removal,) = ledger.take_removals()
    assert (removal.owner, removal.label, removal.group) == ("exp", "t1", "pg1")
    assert "trial's process is gone" in removal.why
    # the next decision grants the waiting run at once, not after the lease's 30 s TTL
    assert ledger.request("exp/t2/bbbb", trial("t2"), TWO_CPU, 0).state == "granted"
    assert [s.label for s in ledger.usage("exp") if not s.holding] == ["t1"]


def test_a_dead_controllers_group_is_due_while_its_trial_lives_on() -> None:
    ledger = Ledger(ManualClock(100.0))
    key = "exp/t1/aaaa"
    ledger.request(key, trial("t1"), TWO_CPU, 0)
    ledger.register_group(key, "pg1", "ctrl1")
    ledger.register_group(key, "pg2", "ctrl1")
    for _ in range(2):
        ledger.reap({"aaaa"})
    assert sorted(r.group for r in ledger.take_removals()) == ["pg1", "pg2"]
    assert ledger.entries[key].granted and ledger.entries[key].groups == {}
    # a holder that came back to life before the second reap is not dead
    ledger.register_group(key, "pg3", "ctrl2")
    ledger.reap({"aaaa"})
    ledger.reap({"aaaa", "ctrl2"})
    ledger.reap({"aaaa", "ctrl2"})
    assert ledger.take_removals() == []


def test_a_released_lease_hands_its_groups_for_removal_and_late_ones_go_after_the_ttl() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock)
    ledger.request("exp/t1/aaaa", trial("t1"), TWO_CPU, 0)
    ledger.register_group("exp/t1/aaaa", "pg1", "ctrl1")
    ledger.release("exp/t1/aaaa")
    assert [r.group for r in ledger.take_removals()] == ["pg1"]
    # a group registered after its lease ended (a slow callback) waits for a lease that does
    # not come back: due once the lease TTL has passed
    assert not ledger.register_group("exp/t1/aaaa", "pg2", "ctrl1")
    ledger.reap({"ctrl1"})
    assert ledger.take_removals() == []
    clock.now += LEASE_TTL_S + 1
    ledger.reap({"ctrl1"})
    assert [(r.label, r.group) for r in ledger.take_removals()] == [("t1", "pg2")]


def test_a_restarted_gate_keeps_a_group_registered_before_its_holder_renews() -> None:
    """The gate's node died: the new gate's ledger is empty; a Train run restarting its worker
    group registers the new group before the trial's next renewal brings the lease back. The
    group is the lease's again, not removed as a finished run's (seen on the multi-node test:
    the trial failed with "its placement group was removed")."""
    ledger = Ledger(ManualClock(100.0))
    assert not ledger.register_group("exp/t1/aaaa", "pg2", "ctrl1")
    for _ in range(3):
        ledger.reap({"aaaa", "ctrl1"})
    assert ledger.take_removals() == []
    ledger.renew("exp/t1/aaaa", trial("t1"))
    assert ledger.entries["exp/t1/aaaa"].groups == {"pg2": "ctrl1"} and not ledger.unleased
    # and it goes with its lease, as a registered group does
    ledger.release("exp/t1/aaaa")
    assert [r.group for r in ledger.take_removals()] == ["pg2"]
    # one whose controller died while it waited is due at once
    ledger.register_group("exp/t2/bbbb", "pg3", "ctrl3")
    for _ in range(2):
        ledger.reap(set())
    assert [(r.group, r.why) for r in ledger.take_removals()] == [
        ("pg3", "its Train controller is gone")
    ]


def test_notices_go_to_their_owners_driver_until_it_stores_them() -> None:
    wall = ManualClock(100.0)
    ledger = Ledger(ManualClock(100.0), wall)
    ledger.notify("exp", "t1", "restarted", "rank 0: ValueError: boom", once="n1")
    ledger.notify("exp", "t1", "restarted", "rank 0: ValueError: boom", once="n1")  # a retry
    ledger.notify("other", "t9", "reclaimed", "removed pg9")
    [restarted] = ledger.take_notices("exp")
    assert (restarted.label, restarted.kind) == ("t1", "restarted")
    # until the driver says it stored it (an answer lost to a timeout loses nothing)
    assert ledger.take_notices("exp") == [restarted]
    assert ledger.take_notices("exp", stored=[restarted.id]) == []
    [reclaimed] = ledger.take_notices("other")
    assert reclaimed.label == "t9" and reclaimed.id != restarted.id
    # an owner whose driver never asks again loses its notices after ENDED_KEPT_S
    ledger.notify("gone", "t3", "restarted", "rank 1: node lost")
    wall.now += ENDED_KEPT_S + 1
    assert ledger.take_notices("other") == [] and ledger.take_notices("gone") == []


class Submitted:
    """Where the driver's context submits what it stores (the recorder's ``submit``)."""

    def __init__(self) -> None:
        self.ops: list[Op] = []

    def submit(self, op: Op) -> None:
        self.ops.append(op)


def test_a_driver_stores_each_notice_once_and_acknowledges_what_its_last_answer_held() -> None:
    ledger = Ledger(ManualClock(100.0), ManualClock(100.0))
    named: list[set[str]] = []
    answer_lost = False

    def read_notices(stored: Collection[str]) -> list[Notice]:  # the gate's actor call
        named.append(set(stored))
        answer = ledger.take_notices("exp", stored)
        if answer_lost:
            raise TimeoutError("GetTimeoutError: the gate answered after 5 s")
        return answer

    submitted = Submitted()
    context = DriverContext(
        recorder=submitted,  # type: ignore[arg-type]
        read_request=lambda: None,
        time_attr="epoch",
        max_t=4,
        metric="loss",
        mode="min",
        target=None,
        read_notices=read_notices,
    )
    ledger.notify("exp", "t1", "restarted", "rank 0: ValueError: boom", once="n1")
    context.report_notices()
    ledger.notify("exp", "t2", "reclaimed", "removed pg2", once="n2")
    answer_lost = True
    context.report_notices()  # the gate forgot n1 and answered n2, too late
    answer_lost = False
    context.report_notices()  # n1 named again (its acknowledgement may not have arrived)
    context.report_notices()
    context.report_notices()
    assert named == [set(), {"n1"}, {"n1"}, {"n2"}, set()]
    assert submitted.ops == [
        TrialRestarted("t1", "rank 0: ValueError: boom"),
        ReservationReclaimed("t2", "removed pg2"),
    ]


def test_a_long_wait_names_what_holds_the_resources_outside_the_leases() -> None:
    clock = ManualClock(100.0)
    ledger = Ledger(clock)
    # Ray has 0.2 CPU free; the leases account for none of the 1.8 held
    held_outside = Capacity(TWO_CPU.nodes, available={"CPU": 0.2})
    first = ledger.request("exp/t1/aaaa", trial("t1"), held_outside, 0)
    assert first.state == "waiting" and not ledger.unexplained_waits(held_outside)
    ledger.outside = "placement group 01ab {CPU: 1.8} created, of job 02000000 (running)"
    clock.now += 25
    assert ledger.unexplained_waits(held_outside)
    later = ledger.request("exp/t1/aaaa", trial("t1"), held_outside, 0)
    assert "held outside raysweep's leases: placement group 01ab {CPU: 1.8}" in later.message
    # where the leases explain what is held, nothing is looked up
    ledger2 = Ledger(clock)
    placed = Capacity(TWO_CPU.nodes, {"CPU": 0.79})  # a's group and both functions placed
    assert ledger2.request("exp/a/aaaa", trial("a"), TWO_CPU, 0).state == "granted"
    assert ledger2.request("exp/b/bbbb", trial("b"), placed, 0).state == "waiting"
    clock.now += 25
    assert not ledger2.unexplained_waits(placed)


def test_a_warm_groups_lease_passes_to_its_sweeps_next_trial_unless_another_owner_waits() -> None:
    """service/engine/warm_group.py: the lease moves with the group (its reservations too), the
    ledger's segments say which trial held it when, and a run of another sweep waiting for
    resources makes the group give its lease up instead."""
    wall = ManualClock(1000.0)
    ledger = Ledger(ManualClock(100.0), wall)
    assert ledger.request("exp/a/actor1", trial("a"), TWO_CPU, 0).state == "granted"
    ledger.register_group("exp/a/actor1", "group1", "controller1")
    assert not ledger.contended("exp/a/actor1")
    wall.advance(10)
    assert ledger.handover("exp/a/actor1", "exp/b/actor1", trial("b"))
    assert list(ledger.entries) == ["exp/b/actor1"]
    assert ledger.entries["exp/b/actor1"].groups == {"group1": "controller1"}
    assert ledger.take_removals() == []  # the group stays: it runs the next trial
    # a registration sent under the old key before the handover, arriving after it
    assert ledger.register_group("exp/a/actor1", "group1b", "controller1")
    assert set(ledger.entries["exp/b/actor1"].groups) == {"group1", "group1b"}
    del ledger.entries["exp/b/actor1"].groups["group1b"]
    segments = {s.label: (s.started, s.ended, s.holding) for s in ledger.usage("exp")}
    assert segments == {"a": (1000.0, 1010.0, False), "b": (1010.0, 1010.0, True)}
    # another shape of group is not this group
    assert not ledger.handover("exp/b/actor1", "exp/c/actor1", trial("c", workers=1))
    assert "exp/b/actor1" in ledger.entries
    # another sweep's run waits: the group is contended and its lease does not pass on
    assert ledger.request("other/x/actor2", trial("x", owner="other"), TWO_CPU, 0).state == (
        "waiting"
    )
    assert ledger.contended("exp/b/actor1")
    assert not ledger.handover("exp/b/actor1", "exp/c/actor1", trial("c"))
    # the group gives it up; the waiting run is granted
    ledger.release("exp/b/actor1")
    assert [r.group for r in ledger.take_removals()] == ["group1"]
    assert ledger.request("other/x/actor2", trial("x", owner="other"), TWO_CPU, 0).state == (
        "granted"
    )
    # keys that went round (a trial back on the group it left) end a late registration's search
    ledger.handed.update({"k1": ("k2", 100.0), "k2": ("k1", 100.0)})
    assert not ledger.register_group("k1", "group9", "controller9")
    # a lease the ledger no longer holds is contended and passes to nobody
    assert ledger.contended("exp/b/actor1")
    assert not ledger.handover("exp/b/actor1", "exp/c/actor1", trial("c"))
