"""ASHA in two forms, both storing every decision when they make it (``RungDecided``, through
the recorder) and both rebuilding their rungs from the stored decisions in a restored driver
(Tune does not save a scheduler's state with the experiment):

- ``asha``: ``StoppingASHA``, deciding as Ray's ``ASHAScheduler``; a trial below its rung's
  cutoff stops.
- ``asha_promotion``: promotion-based ASHA (Li et al., MLSys 2020). A trial that reaches a rung
  pauses there: it holds no trial slot, its Train run's checkpoints stay. Its actor, with the
  warm worker group in it (``warm_group.py``), waits in Tune's actor cache for the next segment
  of any trial while a trial waits at a rung (one per trial slot); with warm groups off, the
  workers and placement group go with the segment. Whenever a trial slot is free, the best
  paused trial of the highest rung that is in its rung's top 1/reduction_factor is promoted and
  resumes from its checkpoint (its Train run is named after the trial); only when none is does
  a new configuration start.

Both are Tune schedulers. Under ``asha_promotion`` a trial trains in segments, each a Train run
that ends at its next rung with a checkpoint; Tune's PAUSE (without a Tune checkpoint) then
stops the trial (its actor cached: ``PromotionASHA._hold_actors``), and a promotion restarts the
function, whose Train run of the same name resumes from that checkpoint. Pausing a run midway
instead lets it train on until its actor is stopped (a fast trainer had finished all its epochs
by then).

The schedulers are in ``stopping_asha.py`` and ``promotion_asha.py``. This module still names
them (and the stopping form's ``Bracket``) because Tune pickles the sweep's scheduler into its
``tuner.pkl``: a sweep paused before they moved restores only if they are found here
(``tests/test_restorable_pickles.py``).
"""

from service.engine.promotion_asha import PromotionASHA
from service.engine.stopping_asha import Bracket, StoppingASHA

__all__ = ["Bracket", "PromotionASHA", "StoppingASHA"]
