# %% [markdown]
# # A digits sweep from a notebook
#
# Run the cells in Jupyter (VS Code and JupyterLab read `# %%` cells), or the whole file with
# `python examples/notebook.py`, against a server started with `make run`. The client finds the
# server and token itself: `RAYSWEEP_URL` / `RAYSWEEP_TOKEN`, `~/.config/raysweep/config.toml`,
# or the local server's `var/admin-token`. Needs pandas and matplotlib: `pip install '.[notebook]'`
# in the raysweep checkout (raysweep is not on PyPI).

# %%
import os

import matplotlib

if "ipykernel" not in os.environ.get("MPLBACKEND", "") and not os.environ.get("JPY_PARENT_PID"):
    matplotlib.use("Agg")  # run as a script: draw into a file
import matplotlib.pyplot as plt

from raysweep import Client

client = Client()
print(client)

# %% A small sweep: 4 TPE trials of the bundled digits MLP, ASHA stopping the weak ones
experiment = client.submit(
    {
        "name": "digits-notebook",
        "trainer": "digits_mlp",
        "search_space": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
        "search": {"algorithm": "tpe", "num_samples": 4, "max_concurrent_trials": 2, "seed": 0},
        "early_stopping": {"scheduler": "asha", "max_t": 3, "grace_period": 1},
        # one worker per trial: two trials at once fit a 2-CPU laptop (a trial's Ray Train
        # workers and its trial function must all fit the cluster at once)
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "labels": {"source": "notebook"},
    }
)
experiment  # noqa: B018 -- a notebook shows this cell as the handle's HTML summary

# %% Wait with a progress bar (trials finished, pruned, failed, best metric)
experiment.wait(timeout=float(os.environ.get("EXAMPLE_TIMEOUT_S", "1200")))
print(experiment.progress_text())

# %% One row per trial, a column per hyperparameter
trials = experiment.trials_frame()
print(trials.to_string(max_cols=12))

# %% Learning curves from the long-form results
results = experiment.results_frame()
figure, axis = plt.subplots(figsize=(7, 4))
for trial_id, curve in results.groupby("trial_id"):
    state = trials.loc[trials.trial_id == trial_id, "state"].item()
    axis.plot(
        curve["iteration"],
        curve["val_accuracy"],
        marker="o",
        linestyle="--" if state == "pruned" else "-",
        label=f"trial {trial_id} ({state})",
    )
axis.set_xlabel("epoch")
axis.set_ylabel("val_accuracy")
axis.legend()
figure.savefig(os.environ.get("EXAMPLE_FIGURE", "learning_curves.png"), dpi=80)

# %%
best = experiment.best_trial()
print(f"best trial {best.id}: val_accuracy={best.best_metric:.4f} with {best.config}")
