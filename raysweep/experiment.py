"""``Experiment``: a handle on one sweep, for notebooks and scripts."""

from __future__ import annotations

import html
import time
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from tqdm.auto import tqdm

from raysweep.analysis import Importance, Pareto
from raysweep.errors import WaitTimeout
from raysweep.lifecycle import TRIAL_ENDED, ExperimentState
from raysweep.registry import FinalRunRead
from raysweep.schemas import EventRead, ExperimentRead, ExploitRead, TrialRead

if TYPE_CHECKING:
    import pandas

Trial = TrialRead


class Api(Protocol):
    url: str

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
    ) -> Any: ...

    def pages(self, path: str, params: Mapping[str, Any] | None = None) -> Iterator[Any]: ...


def require_pandas() -> Any:
    try:
        import pandas  # an optional extra: the base install stays light
    except ImportError:
        raise ImportError(
            "data frames need pandas: pip install '.[notebook]' in a raysweep checkout "
            "(raysweep is not on PyPI), or pip install pandas"
        ) from None
    return pandas


class Experiment:
    """One sweep on the server. Attributes mirror the API's ``ExperimentRead`` as of the last
    ``refresh()``.

    Example::

        experiment = client.experiment("3f2a9c01b7d4")
        experiment.wait(timeout=3600)
        print(experiment.best_trial().config)
    """

    def __init__(self, api: Api, data: ExperimentRead):
        self._api = api
        self.data = data

    def __getattr__(self, name: str) -> Any:
        # id, name, state, trial_counts, best_metric, ...: whatever the API returned
        if name == "data":
            raise AttributeError(name)
        return getattr(self.data, name)

    def __repr__(self) -> str:
        return f"Experiment({self.data.id!r}, name={self.data.name!r}, state={self.data.state})"

    @property
    def state(self) -> ExperimentState:
        return self.data.state

    def refresh(self) -> Experiment:
        self.data = ExperimentRead.model_validate(
            self._api.request("GET", f"/experiments/{self.data.id}")
        )
        return self

    # --- waiting -------------------------------------------------------------------------------

    def wait(
        self, timeout: float | None = None, progress: bool = True, poll_s: float = 2.0
    ) -> Experiment:
        """Block until the sweep is completed, failed or cancelled (or paused), showing a
        progress bar of finished trials with the pruned/failed counts and the best metric.
        Raises ``WaitTimeout`` after ``timeout`` seconds; the sweep itself goes on.

        Example::

            experiment.wait(timeout=600)
            assert experiment.state == "completed"
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        search = self.data.spec.get("search", {})
        # a grid sweep runs num_samples times every grid point: leave its total open
        total = None if search.get("algorithm") == "grid" else search.get("num_samples")
        bar = tqdm(total=total, desc=self.data.name, unit="trial", disable=not progress)
        try:
            while True:
                self.refresh()
                counts = self.data.trial_counts
                bar.n = sum(counts.get(state, 0) for state in TRIAL_ENDED)
                bar.set_postfix_str(self.progress_text(), refresh=False)
                bar.refresh()
                if self.state.is_final or self.state is ExperimentState.paused:
                    return self
                if deadline is not None and time.monotonic() >= deadline:
                    raise WaitTimeout(
                        f"experiment {self.data.id} still {self.state.value} after {timeout} s"
                    )
                remaining = poll_s if deadline is None else min(poll_s, deadline - time.monotonic())
                time.sleep(max(0.0, remaining))
        finally:
            bar.close()

    def progress_text(self) -> str:
        counts = self.data.trial_counts
        parts = [f"{counts[s]} {s}" for s in ("running", "pruned", "failed") if counts.get(s)]
        if self.data.best_metric is not None:
            parts.append(f"best {self.data.metric}={self.data.best_metric:.4g}")
        return f"{self.state.value}" + (": " + ", ".join(parts) if parts else "")

    # --- trials and results --------------------------------------------------------------------

    def trials(
        self,
        state: str | list[str] | None = None,
        sort: str = "best_metric",
        where: str | list[str] | None = None,
        order: str = "best",
    ) -> list[Trial]:
        """Every trial (all pages) matching every ``where`` condition, best first by default;
        ``sort`` is a column or ``config.<key>``.

        Example::

            experiment.trials(where=["lr>0.01", "optimizer=adam"], sort="config.lr", order="asc")
        """
        states = [state] if isinstance(state, str) else list(state or [])
        conditions = [where] if isinstance(where, str) else list(where or [])
        params = {"state": states, "sort": sort, "where": conditions, "order": order}
        path = f"/experiments/{self.data.id}/trials"
        return [Trial.model_validate(item) for item in self._api.pages(path, params)]

    def best_trial(self) -> Trial | None:
        self.refresh()
        if self.data.best_trial is None:
            return None
        return Trial.model_validate(self._api.request("GET", f"/trials/{self.data.best_trial.id}"))

    def trials_frame(self) -> pandas.DataFrame:
        """One row per trial: id, state, a column per hyperparameter, iteration, last and best
        metric, restarts. Needs pandas (``pip install '.[notebook]'`` in a checkout)."""
        pandas = require_pandas()
        rows = [
            {
                "trial_id": t.id,
                "state": t.state.value,
                **t.config,
                "iteration": t.iteration,
                "last_metric": t.last_metric,
                "best_metric": t.best_metric,
                "feasible": t.feasible,
                "restarts": t.restarts,
            }
            for t in self.trials()
        ]
        columns = [
            "trial_id",
            "state",
            "iteration",
            "last_metric",
            "best_metric",
            "feasible",
            "restarts",
        ]
        return pandas.DataFrame(rows, columns=None if rows else columns)

    def results_frame(self) -> pandas.DataFrame:
        """Long form: one row per reported result (trial_id, iteration, reported_at, and a
        column per metric). Needs pandas."""
        pandas = require_pandas()
        rows = []
        for trial in self.trials(sort="created_at"):
            for result in self._api.pages(f"/trials/{trial.id}/results"):
                rows.append(
                    {
                        "trial_id": trial.id,
                        "iteration": result["iteration"],
                        "reported_at": result["reported_at"],
                        **result["metrics"],
                    }
                )
        if not rows:
            return pandas.DataFrame(columns=["trial_id", "iteration", "reported_at"])
        return pandas.DataFrame(rows).sort_values(["trial_id", "iteration"], ignore_index=True)

    def events(self) -> list[EventRead]:
        """The timeline, oldest first (every page)."""
        events: list[EventRead] = []
        while True:
            page = self._api.request(
                "GET",
                f"/experiments/{self.data.id}/events",
                params={"after": events[-1].id if events else 0, "limit": 500},
            )
            events.extend(EventRead.model_validate(item) for item in page["items"])
            if len(page["items"]) < 500:
                return events

    def exploits(self, trial_id: int | None = None) -> list[ExploitRead]:
        """Population-based training's exploits (``scheduler: pbt``), oldest first: the sweep's
        lineage, or one trial's schedule (its config after each ``epoch``: ``new_config``)."""
        params = {"limit": 10_000, **({"trial_id": trial_id} if trial_id is not None else {})}
        found = self._api.request("GET", f"/experiments/{self.data.id}/exploits", params=params)
        return [ExploitRead.model_validate(item) for item in found]

    def importance(self, evaluator: str = "ped_anova") -> Importance:
        """How much each sampled hyperparameter decided the metric (``ped_anova``, Optuna's
        PED-ANOVA, or ``fanova``), most important first; with too few finished trials the list
        is empty and ``message`` says why.

        Example::

            ranked = experiment.importance()
            {p.name: p.importance for p in ranked.importances}   # {"lr": 0.81, "hidden": 0.12, ...}
        """
        return Importance.model_validate(
            self._api.request(
                "GET",
                f"/experiments/{self.data.id}/importance",
                params={"evaluator": evaluator},
            )
        )

    def pareto(self, limit: int = 1000) -> Pareto:
        """The completed trials that no other dominates on the spec's objectives (infeasible
        ones never), by the first objective, then a spread of the rest, ``limit`` in all."""
        path = f"/experiments/{self.data.id}/pareto"
        return Pareto.model_validate(self._api.request("GET", path, params={"limit": limit}))

    def pareto_frame(self, limit: int = 1000) -> pandas.DataFrame:
        """One row per completed trial (the front first): trial_id, on_front, feasible, a
        column per objective and per hyperparameter. Needs pandas.

        Example::

            frame = experiment.pareto_frame()
            frame[frame.on_front].plot.scatter("model_params", "val_accuracy")
        """
        pandas = require_pandas()
        front = self.pareto(limit)
        columns = ["trial_id", "on_front", "feasible", *(o.metric for o in front.objectives)]
        rows = [
            {
                "trial_id": t.trial_id,
                "on_front": t.on_front,
                "feasible": t.feasible,
                **t.values,
                **{k: v for k, v in t.config.items() if k not in columns},
            }
            for t in front.trials
        ]
        return pandas.DataFrame(rows, columns=None if rows else columns)

    # --- control -------------------------------------------------------------------------------

    def promote(self, **overrides: Any) -> list[FinalRunRead]:
        """Queue final runs for the top completed feasible trials of this ended sweep (with
        objectives: the Pareto front's; ``Conflict`` while it goes on or when none completed);
        ``overrides``: top_k, num_workers, epochs, lr_scaling, warm_start, model_name, cluster,
        the final run's own use_gpu, cpus_per_worker, gpus_per_worker and precision, and which
        trials: ``trial_numbers`` (their ``#`` in the sweep), ``trial_ids`` or ``pick``.

        Example::

            runs = experiment.promote(top_k=2, num_workers=8, gpus_per_worker=1, precision="bf16")
            experiment.promote(trial_numbers=[3, 5])  # trials #3 and #5
            experiment.promote(pick={"objective": "val_accuracy", "max": {"model_params": 1e5}})
        """
        page = self._api.request("POST", f"/experiments/{self.data.id}/promote", body=overrides)
        return [FinalRunRead.model_validate(item) for item in page["items"]]

    def final_runs(self) -> list[FinalRunRead]:
        """This sweep's final runs, best trial first; each ends as a model version."""
        page = self._api.request("GET", f"/experiments/{self.data.id}/final-runs")
        return [FinalRunRead.model_validate(item) for item in page["items"]]

    def cancel(self) -> Experiment:
        """Cancel (idempotent); a finished sweep raises ``Conflict``."""
        return self._control("cancel")

    def pause(self) -> Experiment:
        """Pause after the running trials checkpoint; ``resume()`` continues from there."""
        return self._control("pause")

    def resume(self) -> Experiment:
        return self._control("resume")

    def extend(
        self,
        num_samples: int | None = None,
        max_t: int | None = None,
        time_budget_s: float | None = None,
        search_space: Mapping[str, Any] | str | None = None,
        earlier_values: Mapping[str, Any] | None = None,
    ) -> Experiment:
        """Queue this completed, cancelled or paused sweep again with more configurations
        (``num_samples``: the new total), a larger ``max_t`` (completed trials continue from
        their checkpoints), a time budget, or a changed ``search_space`` (a mapping, as a
        spec's, or a named space; each sampled parameter it adds needs the value the earlier
        trials had in ``earlier_values``); it keeps its id, trials and results.

        Example::

            experiment.extend(num_samples=32, max_t=20).wait()
            experiment.extend(
                num_samples=40,
                search_space={**space, "lr": {"type": "loguniform", "low": 1e-3, "high": 1e-2},
                              "momentum": {"type": "uniform", "low": 0.8, "high": 0.99}},
                earlier_values={"momentum": 0.9},
            )
        """
        body = {
            "num_samples": num_samples,
            "max_t": max_t,
            "time_budget_s": time_budget_s,
            "search_space": search_space
            if isinstance(search_space, str) or search_space is None
            else dict(search_space),
            "earlier_values": dict(earlier_values) if earlier_values else None,
        }
        self.data = ExperimentRead.model_validate(
            self._api.request(
                "POST",
                f"/experiments/{self.data.id}/extend",
                body={k: v for k, v in body.items() if v is not None},
            )
        )
        return self

    def set_notes(self, notes: str) -> Experiment:
        """Write the sweep's notes (shown in the UI's lists); an empty text removes them.

        Example::

            experiment.set_notes("lr range too narrow: extend to 0.3")
        """
        self.data = ExperimentRead.model_validate(
            self._api.request("PUT", f"/experiments/{self.data.id}/notes", body={"notes": notes})
        )
        return self

    def _control(self, action: str) -> Experiment:
        self.data = ExperimentRead.model_validate(
            self._api.request("POST", f"/experiments/{self.data.id}/{action}")
        )
        return self

    # --- notebooks -----------------------------------------------------------------------------

    def _repr_html_(self) -> str:
        data = self.data
        counts = ", ".join(f"{n} {s}" for s, n in sorted(data.trial_counts.items())) or "no trials"
        best = "-" if data.best_metric is None else f"{data.best_metric:.4g}"
        link = f"{self._api.url}/#/experiments/{data.id}"
        cells = [
            (
                "experiment",
                f'<a href="{html.escape(link)}">{html.escape(data.name)}</a> '
                f"<code>{data.id}</code>",
            ),
            ("state", data.state.value),
            ("trainer", html.escape(data.trainer)),
            ("trials", counts),
            (f"best {html.escape(data.metric)} ({data.mode})", best),
        ]
        rows = "".join(
            f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in cells
        )
        return f"<table>{rows}</table>"
