"""Tune pickles the sweep's searcher and scheduler into its experiment state (``tuner.pkl``),
and with the searcher the history an extension or a warm start hands it
(``service.usecases.extension.History``): a sweep paused before a module moved restores only if
every class in those pickles is still found where it was. The history below was pickled
(``cloudpickle.dumps``) by the code before the state enums moved from raysweep.schemas to
raysweep.lifecycle (commit 4b0156a); raysweep.schemas keeps importing the enums it names for that
reason."""

from __future__ import annotations

import pickle
from pathlib import Path

from raysweep.lifecycle import TrialState
from service.engine.promotion_asha import PromotionASHA
from service.engine.stopping_asha import StoppingASHA
from service.usecases.extension import Evaluated, History

PICKLED = Path(__file__).parent / "pickled"

HISTORY_PICKLED_BEFORE_THE_SPLIT = (
    b"\x80\x05\x95^\x01\x00\x00\x00\x00\x00\x00\x8c\x1aservice.use"
    b"cases.extension\x94\x8c\x07Histor"
    b"y\x94\x93\x94)\x81\x94}\x94(\x8c\tevaluated\x94]\x94"
    b"(h\x00\x8c\tEvaluated\x94\x93\x94)\x81\x94}\x94(\x8c"
    b"\x06params\x94}\x94\x8c\x02lr\x94G?\xb9\x99\x99\x99\x99\x99\x9a"
    b"s\x8c\x05value\x94G?\xe0\x00\x00\x00\x00\x00\x00\x8c\x05stat"
    b"e\x94\x8c\x10raysweep.schemas\x94\x8c\nT"
    b"rialState\x94\x93\x94\x8c\tcompleted\x94"
    b"\x85\x94R\x94\x8c\x06values\x94]\x94(G?\xe0\x00\x00\x00\x00\x00"
    b"\x00G?\xf0\x00\x00\x00\x00\x00\x00eubh\x08)\x81\x94}\x94(h\x0b}"
    b"\x94h\rG?\xc9\x99\x99\x99\x99\x99\x9ash\x0eNh\x0fh\x12\x8c\x06pr"
    b"uned\x94\x85\x94R\x94h\x16Nube\x8c\ncontinu"
    b"ing\x94]\x94\x8c\x02t1\x94}\x94h\rG?\xd3333333"
    b"sK\x02\x87\x94a\x8c\x0bnew_samples\x94K\x03\x8c\x07"
    b"extends\x94\x88\x8c\x08left_out\x94K\x00ub"
    b"."
)


def test_a_history_pickled_before_the_state_enums_moved_still_loads() -> None:
    assert b"raysweep.schemas" in HISTORY_PICKLED_BEFORE_THE_SPLIT
    history = pickle.loads(HISTORY_PICKLED_BEFORE_THE_SPLIT)
    assert history == History(
        evaluated=[
            Evaluated({"lr": 0.1}, 0.5, TrialState.completed, [0.5, 1.0]),
            Evaluated({"lr": 0.2}, None, TrialState.pruned),
        ],
        continuing=[("t1", {"lr": 0.3}, 2)],
        new_samples=3,
    )
    assert history.evaluated[0].state is TrialState.completed


def test_schedulers_pickled_before_asha_split_still_load() -> None:
    """Tune pickles the sweep's scheduler into ``tuner.pkl``. These were pickled (cloudpickle,
    as Tune does) by commit b03cddd, when both schedulers were defined in
    ``service.engine.asha``; they now live in their own modules and asha.py names them."""
    pickled = (PICKLED / "asha_schedulers_b03cddd.pkl").read_bytes()
    assert b"service.engine.asha" in pickled and b"stopping_asha" not in pickled
    stopping, promotion = pickle.loads(pickled)
    assert isinstance(stopping, StoppingASHA) and isinstance(promotion, PromotionASHA)
    assert [milestone for milestone, _ in stopping._brackets[0].rungs] == [9, 3, 1]
    assert promotion._milestones == [[1, 3, 9]]
    assert promotion._actors.count == 0  # an attribute added since: a restored one has it
