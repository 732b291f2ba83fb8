// Generated from the API's OpenAPI document (web/openapi.json) by openapi-typescript
// (web/scripts/api-schema.mjs): do not edit. After a change of the API's schemas, `make web`
// writes both again; commit them with the change. The UI names these types in src/types.ts.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is alive */
        get: operations["healthz_healthz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Database reachable with a current schema; Ray reachable */
        get: operations["readyz_readyz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List experiments, newest first */
        get: operations["list_experiments_api_v1_experiments_get"];
        put?: never;
        /**
         * Submit an experiment
         * @description Validate an `ExperimentSpec` completely and store it as `queued` in its `project`
         *     (where the token must be a member: a project it has no role in is a 404); a bad spec is a
         *     422 listing every problem, and nothing is stored. A trial larger than the project's quota
         *     is a 422 at `resources`; a project with `max_queued` sweeps queued, or past its monthly
         *     budget, is a 409 with the numbers. On a sweep cluster that does not autoscale, a
         *     spec whose one trial (its worker group) can never be placed on the cluster's nodes, as the
         *     controller last saw them, is such a 422 at `resources`.
         */
        post: operations["submit_api_v1_experiments_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One experiment with trial counts and the best trial */
        get: operations["get_experiment_api_v1_experiments__experiment_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete a finished or paused experiment and its storage
         * @description Removes the experiment's rows (trials, results, checkpoints, events) and its storage
         *     directory. A queued, running, pausing or cancelling experiment is a 409: cancel it first.
         */
        delete: operations["delete_api_v1_experiments__experiment_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel (idempotent)
         * @description A queued sweep is cancelled at once; a running one moves to `cancelling` and its driver
         *     stops it at the next result. Cancelling a cancelled sweep changes nothing; a finished one is
         *     a 409.
         */
        post: operations["cancel_api_v1_experiments__experiment_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Write the sweep's notes
         * @description Replaces the notes (at most 10,000 characters; empty removes them). The list and the
         *     experiment show them.
         */
        put: operations["put_notes_api_v1_experiments__experiment_id__notes_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause (idempotent)
         * @description A running sweep moves to `pausing`; its driver stops it once every running trial has saved
         *     a checkpoint, keeping Tune's state, and the sweep becomes `paused` with nothing left in Ray.
         *     A queued sweep is paused at once. Pausing a paused or pausing sweep changes nothing; a
         *     cancelling or finished one is a 409.
         */
        post: operations["pause_api_v1_experiments__experiment_id__pause_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused sweep (idempotent)
         * @description A paused sweep is queued again; its next driver restores Tune's state, and unfinished
         *     trials continue from their latest checkpoints. Resuming a queued or running sweep changes
         *     nothing; a pausing, cancelling or finished one is a 409.
         */
        post: operations["resume_api_v1_experiments__experiment_id__resume_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/extend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extend a completed, cancelled or paused sweep
         * @description Queues the sweep again with more configurations (`num_samples`: the new total), a larger
         *     `max_t` or a `time_budget_s`. It keeps its id, trials and results: the new configurations
         *     are suggested by a searcher that knows every stored trial (pruned ones as pruned), and
         *     trials with budget left (completed or cancelled below the new `max_t`, a paused sweep's
         *     open ones, and under `asha_promotion` the pruned ones, paused at their rungs again)
         *     continue from their checkpoints instead of starting again. An `extended` event records
         *     what changed. A queued, running, pausing, cancelling or failed sweep is a 409; a
         *     `num_samples` not above the sweep's, a `max_t` below it, a grid sweep, or an extension
         *     that would run nothing is a 422.
         *
         *     With `search_space` (inline or a named one) the sweep's space changes: it is checked as a
         *     submitted spec's is (every problem a 422 at its path; nothing changes then), each sampled
         *     parameter it adds needs the value the earlier trials had in `earlier_values`, and the
         *     sweep's `search_spaces` gets a new version. The searcher is told the earlier trials that
         *     lie in the new space (added parameters at their earlier values, removed ones dropped); the
         *     others are left out and counted in the `extended` event. Continuing trials keep their
         *     configs and checkpoints; new trials carry the new `space_version`.
         */
        post: operations["extend_api_v1_experiments__experiment_id__extend_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The experiment's timeline */
        get: operations["events_api_v1_experiments__experiment_id__events_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/trials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An experiment's trials
         * @description The experiment's trials that match every `where` condition, sorted over all of them;
         *     `total` counts the matches. A condition that cannot be read is a 422 naming it.
         */
        get: operations["list_trials_api_v1_experiments__experiment_id__trials_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One trial */
        get: operations["get_trial_api_v1_trials__trial_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Write the trial's notes
         * @description Replaces the notes (at most 10,000 characters; empty removes them). The trial table and
         *     the trial page show them.
         */
        put: operations["put_notes_api_v1_trials__trial_id__notes_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A trial's reported results */
        get: operations["results_api_v1_trials__trial_id__results_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A trial's checkpoints, oldest first */
        get: operations["checkpoints_api_v1_trials__trial_id__checkpoints_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The early-stopping decisions made about a trial
         * @description Each as the scheduler made it: the rung, the trial's value, the cutoff, its rank and the rung's size then, and the decision (continue, stop, pause, promote, complete), oldest first. Empty without early stopping.
         */
        get: operations["decisions_api_v1_trials__trial_id__decisions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/exploits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Population-based training's exploits: the sweep's lineage
         * @description Under `early_stopping.scheduler: pbt`, each exploit, oldest first: at `epoch` the trial continued from a copy of the source trial's checkpoint with `new_config` (the source's config, perturbed). A trial's exploits are its schedule (its config over epochs) and say where its weights came from; promotion replays that schedule. Empty for other schedulers.
         */
        get: operations["exploits_api_v1_experiments__experiment_id__exploits_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/tensorboard": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An experiment's trials as TensorBoard runs
         * @description Each trial, by number, with a run name (`#<number>` and the config keys that differ
         *     between the trials) and the directory on the storage URI where its Train run writes the
         *     TensorBoard scalars of every metric it reports (a trial that has not reported yet may have
         *     none). `tensorboard --logdir_spec "<name>:<logdir>,..."` opens them.
         */
        get: operations["runs_api_v1_experiments__experiment_id__tensorboard_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/trials/{trial_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a trial's workers printed
         * @description Every line each worker of each attempt of the trial wrote to stdout or stderr (its
         *     traceback included when it failed), oldest first, with its time, rank, attempt and
         *     stream; secrets the server knows of (tokens, the database URL) are replaced by `***`.
         *     Kept per worker and attempt: the first quarter of RAYSWEEP_TRIAL_LOG_MAX_BYTES and the
         *     latest lines; `dropped` counts the lines between. Follow a running trial by passing each
         *     answer's `cursor` back as `after` with `wait_s` (a long poll: plain HTTP that every client
         *     and proxy handles, where server-sent events would hold a connection per follower).
         */
        get: operations["trial_logs_api_v1_trials__trial_id__logs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/final-runs/{final_run_id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a final run's workers printed
         * @description As a trial's logs (`GET /trials/{id}/logs`), for the workers of a final run: each
         *     attempt (a restart of its worker group) and rank, secrets replaced, followed while the
         *     run is active.
         */
        get: operations["final_run_logs_api_v1_final_runs__final_run_id__logs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/driver-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What a sweep's drivers printed
         * @description What each driver job of the sweep printed (an attempt per driver job: a resume, an
         *     extension or a restart after the driver died starts another; rank 0): Tune's progress,
         *     the driver's own log and errors, and what Ray forwarded from the trials' processes.
         *     Secrets replaced, bounded as a trial's logs are, followed while the sweep is active.
         */
        get: operations["driver_logs_api_v1_experiments__experiment_id__driver_logs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's token: name and role */
        get: operations["me_api_v1_me_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/curves": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Learning curves, downsampled
         * @description A metric (the sweep's, or `metric`) against the time attribute. Past `max_trials` the
         *     running trials, the best ones and an even spread of the rest are sent; `total_trials` says
         *     how many exist, `metrics` which numbers the trials report.
         */
        get: operations["curves_api_v1_experiments__experiment_id__curves_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The metric in completion order
         * @description Each finished trial's best metric value in the order the trials ended, with the best
         *     value so far (over the feasible trials, as the experiment's best trial is chosen). Past
         *     `max_points`, every improvement of the best (the latest, up to half the points) and an even
         *     spread of the rest are sent.
         */
        get: operations["history_api_v1_experiments__experiment_id__history_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/rungs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ASHA's rungs
         * @description For each milestone of ASHA's first bracket: trials that reached it, went on, or stopped
         *     there, and the cutoff computed from the metric values recorded at it.
         */
        get: operations["rungs_api_v1_experiments__experiment_id__rungs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Hyperparameters against the metric
         * @description Each trial's config and best metric, best first, for the parallel coordinates, slice
         *     and contour plots: `sample` says which trials when the sweep has more than `limit`.
         */
        get: operations["configs_api_v1_experiments__experiment_id__configs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/importance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Hyperparameter importance
         * @description How much each sampled hyperparameter decided the metric, most important first, from the
         *     trials' values at one iteration (`at_iteration`: by default the deepest that a quarter of
         *     the trials, and at least 5, reached, so trials ASHA stopped early are compared with the
         *     others at the same budget). Below 5 such trials `importances` is empty and `message` says
         *     how many there are. `warnings` names the values of a choice parameter that early stopping
         *     left out of the compared set (most of their trials ended at an earlier rung).
         */
        get: operations["importance_api_v1_experiments__experiment_id__importance_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/pareto": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Pareto front of the objectives
         * @description The completed trials that no other dominates on the spec's `objectives` (each trial
         *     judged by its latest value of every objective), infeasible trials never on it; then an
         *     even spread of the other completed trials, for a scatter. `front` lists the front's trial
         *     ids by the first objective. A sweep with one metric has its best trial(s) as the front.
         */
        get: operations["pareto_api_v1_experiments__experiment_id__pareto_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * When each trial ran and waited for resources
         * @description The latest `limit` trials (by number, newest first): when each started and ended
         *     (`finished_at` null while it runs) and its waits for the cluster to place it (from its
         *     `trial_waiting` events; a wait's end is the trial's next result or event). `total_trials`
         *     counts them all; `truncated` says older ones were left out.
         */
        get: operations["timeline_api_v1_experiments__experiment_id__timeline_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed since a cursor
         * @description Poll this for live views: the experiment (state, counts, best trial) and only the
         *     results and events newer than the cursors.
         */
        get: operations["updates_api_v1_experiments__experiment_id__updates_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List code packages, newest first */
        get: operations["list_code_api_v1_code_get"];
        put?: never;
        /**
         * Upload a training-code package
         * @description Upload a zip or tar.gz of Python code as the raw body (`curl --data-binary @pkg.zip`).
         *     It is checked as an archive and parsed in a child process with a time and a memory limit,
         *     never imported or run by the server (at most 1 MiB of Python per file and 8 MiB in all are
         *     parsed; past a limit the answer is a 422 naming it); stored as a
         *     zip named by its sha256 (`RAYSWEEP_MAX_CODE_BYTES` bounds the size). 201 when new, 200 when
         *     the project held the same files before. A spec of that project then names it as
         *     `code: {package: <sha256>, entrypoint: "module:function", metrics: {...}}`.
         */
        post: operations["upload_api_v1_code_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/code/{sha256}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One code package
         * @description As the caller's projects hold it: who uploaded it there, and when.
         */
        get: operations["get_code_api_v1_code__sha256__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Promote a completed sweep's top trials to final runs
         * @description Queue a final run for each of the top-k completed feasible trials (best metric first,
         *     fewer epochs on a tie; with `objectives`, the Pareto front's by the first objective) not
         *     promoted before, with the spec's `promotion` settings and these overrides. `pick` takes the
         *     front's trials within bounds on the objectives, best first by one of them; `trial_numbers`
         *     (their `#` in the sweep) or `trial_ids` name the trials instead (each completed and
         *     feasible, else a 422 naming it).
         *     Each trains the trial's config with more workers and a scaled LR on the final cluster (with
         *     its own per-worker resources and precision, when given) and registers a model version.
         *     A cancelled or failed sweep promotes the trials that completed. 409 when the sweep is still
         *     going or has no completed trial; 422 naming each problem when the final cluster is unknown,
         *     or does not autoscale and can never hold the final run's workers. Answers the experiment's
         *     final runs: 201 when it queued new ones, 200 when the top-k were all promoted before (it
         *     changed nothing).
         */
        post: operations["promote_api_v1_experiments__experiment_id__promote_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/experiments/{experiment_id}/final-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An experiment's final runs */
        get: operations["final_runs_api_v1_experiments__experiment_id__final_runs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/final-runs/{final_run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One final run */
        get: operations["final_run_api_v1_final_runs__final_run_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/final-runs/{final_run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a final run (idempotent)
         * @description A queued final run is `cancelled` at once; a running one becomes `cancelling` and the
         *     controller stops its Ray job, then marks it `cancelled` (a run that finishes first keeps
         *     its outcome). Cancelling a cancelling run changes nothing; a finished one is a 409. A
         *     retrain whose final run is cancelled ends `cancelled`.
         */
        post: operations["cancel_final_run_api_v1_final_runs__final_run_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/final-runs/{final_run_id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A final run's results, per epoch */
        get: operations["final_run_results_api_v1_final_runs__final_run_id__results_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered models */
        get: operations["list_models_api_v1_models_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/{name}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A model's versions, newest first */
        get: operations["versions_api_v1_models__name__versions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/{name}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One version (a number or an alias) */
        get: operations["version_api_v1_models__name__versions__version__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/{name}/aliases/{alias}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An alias, its version and its history */
        get: operations["get_alias_api_v1_models__name__aliases__alias__get"];
        /**
         * Point an alias at a version
         * @description One holder per alias: setting it moves it from its previous version; history is kept.
         */
        put: operations["set_alias_api_v1_models__name__aliases__alias__put"];
        post?: never;
        /**
         * Remove an alias from its version
         * @description Members. The alias no longer names a version (its history stays), so that version's sweep
         *     may be deleted. A 409 naming the schedule while a retrain schedule follows the alias: delete
         *     that schedule first, or move the alias (PUT) instead.
         */
        delete: operations["delete_alias_api_v1_models__name__aliases__alias__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/{name}/versions/{version}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A version's deployment: state and URL */
        get: operations["deployment_api_v1_models__name__versions__version__deploy_get"];
        put?: never;
        /**
         * Serve a version with Ray Serve on the final cluster
         * @description Deploys the version (a number or an alias) as a Ray Serve application with a JSON
         *     predict endpoint: POST `url` with `{"inputs": [[...], ...]}` (one row per example, shaped
         *     like the trainer's inputs: 64 pixel values for the digits trainers, 10 features for
         *     diabetes_regression, up to 64 token ids for tiny_lm) for `{"outputs": [...]}` (the model's
         *     raw outputs) and `{"predictions": [...]}` (class ids for classifiers, values for the
         *     regressor). The endpoint needs `Authorization: Bearer <key>`: `key` is in this answer
         *     when it makes the deployment (202, while it deploys: poll GET), and never again (200 when it
         *     was deployed already, without the key).
         */
        post: operations["deploy_api_v1_models__name__versions__version__deploy_post"];
        /**
         * Remove a version's deployment
         * @description The Serve application is removed by the controller; the state turns `deleted`.
         */
        delete: operations["undeploy_api_v1_models__name__versions__version__deploy_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Ray clusters raysweep uses
         * @description Configured by `RAYSWEEP_CLUSTERS`; by default one cluster, `local`, with both roles.
         *     Tokens are never shown, only whether one is set; of the projects a cluster is bound to,
         *     only the caller's.
         */
        get: operations["list_clusters_api_v1_clusters_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List schedules by name */
        get: operations["list_schedules_api_v1_schedules_get"];
        put?: never;
        /**
         * Create a schedule
         * @description The cron expression (five fields, read in `timezone`), the time zone and what the kind
         *     runs are checked completely: a 422 names every problem and stores nothing. Each due time
         *     fires once (even with several servers). A project holds at most
         *     `RAYSWEEP_MAX_SCHEDULES_PER_PROJECT` schedules (100 by default); one more is a 409, as is a
         *     name the project's schedules already use.
         *
         *     - kind `sweep`: submits `spec` as a new sweep named `<name>-<YYYYMMDDTHHMM>` and labelled
         *       `schedule: <schedule name>`.
         *     - kind `retrain`: trains `retrain.model`'s `retrain.alias` version (default `production`)
         *       again as a final run with its config on the current data (after a re-tuning sweep
         *       warm-started from the previous study's best configs when `retrain.retune` is set). The
         *       new version takes the alias only if its held-out test metric beats the current one by
         *       more than `retrain.margin`; otherwise it becomes the `candidate`, with the comparison
         *       recorded on it. An unknown model, or one without the alias or a held-out test metric,
         *       is a 422.
         *
         *     On a sweep cluster that does not autoscale, a template whose one trial can never be placed
         *     on the cluster's nodes is a 422 at `spec.resources`, as at `POST /experiments`; a firing
         *     (or a retrain's re-tuning sweep) whose trial no longer fits is recorded as `failed` with
         *     the reason instead of a sweep that would wait forever.
         */
        post: operations["create_api_v1_schedules_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{schedule_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One schedule, with its next due time and last firing */
        get: operations["get_schedule_api_v1_schedules__schedule_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete a schedule
         * @description Its firing history goes with it; the sweeps it submitted stay.
         */
        delete: operations["delete_api_v1_schedules__schedule_id__delete"];
        options?: never;
        head?: never;
        /**
         * Pause or resume a schedule
         * @description Resuming computes the next due time from now: times missed while paused never fire.
         */
        patch: operations["update_api_v1_schedules__schedule_id__patch"];
        trace?: never;
    };
    "/api/v1/schedules/{schedule_id}/firings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A schedule's firings, newest first */
        get: operations["firings_api_v1_schedules__schedule_id__firings_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The projects the token has a role in (an admin: all) */
        get: operations["list_projects_api_v1_projects_get"];
        put?: never;
        /**
         * Create a project (admin)
         * @description A new project with its weight in fair share, quotas and monthly budgets (null: no limit).
         *     Tokens get a role in it with `python -m service token grant NAME --project P --role R`.
         */
        post: operations["create_project_api_v1_projects_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project, with what it spent this month */
        get: operations["get_project_api_v1_projects__name__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a project's weight, quotas or budgets (admin)
         * @description Sets the fields the body names (null: no limit); running sweeps keep to the new quotas
         *     from their next trial on.
         */
        patch: operations["update_project_api_v1_projects__name__patch"];
        trace?: never;
    };
    "/api/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compute held, in all and per project, sweep and UTC day
         * @description What the worker groups of the token's projects' sweeps and final runs held (workers,
         *     and the CPUs and GPUs reserved for them, times the seconds from the start of a worker group
         *     to its end, restarts included) in [from, to). A lease still held counts to the last few
         *     seconds. A window that ends before it starts is empty.
         */
        get: operations["usage_api_v1_usage_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{project}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's webhooks (viewer) */
        get: operations["list_webhooks_api_v1_projects__project__webhooks_get"];
        put?: never;
        /**
         * Create a webhook (member)
         * @description The project's `events` are POSTed to `url` as JSON (or a Slack incoming-webhook body),
         *     each delivery signed in the `Raysweep-Signature` header: `t=<unix time>,v1=<hex
         *     HMAC-SHA256 of "<t>.<body>" under the secret>`. A receiver recomputes it over the raw body,
         *     compares in constant time and refuses a `t` more than a few minutes old; `Raysweep-Delivery`
         *     (the delivery id, the same on every retry) lets it refuse replays and repeats.
         *
         *     The secret, when the server made it, is in this response only; the URL's user info, query
         *     values and a Slack URL's path are never shown again. At most 20 webhooks per project (409).
         *     `trial.failed` is sent at most once per sweep per 5 minutes.
         */
        post: operations["create_webhook_api_v1_projects__project__webhooks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{project}/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook (viewer) */
        get: operations["get_webhook_api_v1_projects__project__webhooks__webhook_id__get"];
        put?: never;
        post?: never;
        /** Delete a webhook and its log (member) */
        delete: operations["delete_webhook_api_v1_projects__project__webhooks__webhook_id__delete"];
        options?: never;
        head?: never;
        /**
         * Change a webhook: URL, events, format, secret, on/off
         * @description Sets the fields the body names; a new `secret` signs every delivery sent from now on
         *     (retries of older ones too).
         */
        patch: operations["update_webhook_api_v1_projects__project__webhooks__webhook_id__patch"];
        trace?: never;
    };
    "/api/v1/projects/{project}/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test delivery (member)
         * @description Queues a `webhook.test` delivery, signed like every other; the controller sends it
         *     within a second or so, and its outcome (status, response code, error) appears in
         *     `GET .../deliveries`.
         */
        post: operations["send_test_api_v1_projects__project__webhooks__webhook_id__test_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{project}/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's delivery log, newest first
         * @description Each delivery's event, state (`pending`, `delivered`, `failed`), attempts, the latest
         *     attempt's response code and error, and its times. A 5xx, 408, 429, connection error or
         *     timeout is retried with exponential backoff (`RAYSWEEP_WEBHOOK_RETRY_S`, doubling) up to
         *     `RAYSWEEP_WEBHOOK_MAX_ATTEMPTS`; any other 4xx or a redirect fails it at once.
         */
        get: operations["list_deliveries_api_v1_projects__project__webhooks__webhook_id__deliveries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Operator metrics in Prometheus format
         * @description Experiments, trials, final runs and schedule firings by state, results stored, driver and
         *     final-run restarts (from the database, the same on every server; the token's projects
         *     only, as for the ledger below), and this process's
         *     request latency (`raysweep_http_request_duration_seconds` by route template) and controller
         *     loops (`raysweep_controller_lag_seconds`: time since each loop last finished a pass,
         *     `raysweep_controller_pass_seconds`, `raysweep_controller_pass_errors_total`), and the
         *     compute ledger's totals (`raysweep_compute_{worker,cpu,gpu}_seconds_total`) for the
         *     token's projects only. Needs a token (a viewer's is enough).
         */
        get: operations["metrics_metrics_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sweep a driver starts from
         * @description The sweep's state, spec and extensions, and the Tune ids of its stored trials.
         */
        get: operations["sweep_api_v1_jobs_sweep_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The control request the driver must honour */
        get: operations["control_request_api_v1_jobs_sweep_request_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/decisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sweep's stored early-stopping decisions */
        get: operations["decisions_api_v1_jobs_sweep_decisions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/exploits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sweep's stored PBT exploits */
        get: operations["exploits_api_v1_jobs_sweep_exploits_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the sweep's next Tune run starts from
         * @description An extension's stored trials and a warm start's other sweeps' (null: from scratch).
         */
        get: operations["history_api_v1_jobs_sweep_history_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The completed trials, for stop.converged
         * @description Empty while fewer than `min_trials`, or no more than `judged`, have completed.
         */
        get: operations["completed_api_v1_jobs_sweep_completed_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the sweep spent of stop.budget, once spent */
        get: operations["budget_api_v1_jobs_sweep_budget_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sweep's project's weight and quotas */
        get: operations["share_api_v1_jobs_sweep_share_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a batch of the sweep's reports
         * @description Trials started, results and checkpoints, decisions, waits, restarts, leases and ends,
         *     in one transaction. A batch sent twice stores each result once, and with its `sequence`
         *     nothing else twice either (a restart's count, an event). The checkpoints of the trials the
         *     batch ends are pruned to the spec's `fault_tolerance.checkpoints_to_keep`.
         */
        post: operations["records_api_v1_jobs_sweep_records_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/prune": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Prune the finished trials' checkpoints
         * @description What an earlier driver of the sweep may not have pruned before it died.
         */
        post: operations["prune_api_v1_jobs_sweep_prune_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Tell what the driver removed from Ray */
        post: operations["event_api_v1_jobs_sweep_events_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/sweep/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record how the driver ended
         * @description The sweep's final (or paused) state; the token is revoked with it.
         */
        post: operations["finish_api_v1_jobs_sweep_finish_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/final-run/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start the final run: what to train
         * @description Moves a queued run to running; null when it ended or is being cancelled.
         */
        post: operations["final_run_start_api_v1_jobs_final_run_start_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/final-run/epochs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store one epoch's report */
        post: operations["final_run_epoch_api_v1_jobs_final_run_epochs_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/final-run/worker-failures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a worker failure */
        post: operations["final_run_worker_failure_api_v1_jobs_final_run_worker_failures_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/final-run/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store the run's held compute */
        post: operations["final_run_usage_api_v1_jobs_final_run_usage_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/final-run/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record how the final run ended */
        post: operations["final_run_finish_api_v1_jobs_final_run_finish_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AliasRead */
        AliasRead: {
            /** Name */
            name: string;
            /** Alias */
            alias: string;
            /** Version */
            version: number;
            /**
             * History
             * @description Every move, newest first.
             */
            history: {
                [key: string]: unknown;
            }[];
        };
        /** AliasSet */
        AliasSet: {
            /** Version */
            version: number;
        };
        /** BudgetSpent */
        BudgetSpent: {
            /** Spent */
            spent: string | null;
        };
        /** CheckpointRead */
        CheckpointRead: {
            /** Iteration */
            iteration: number;
            /** Uri */
            uri: string;
            /** Metric */
            metric: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Deleted
             * @description Removed by retention; the row stays as history.
             */
            deleted: boolean;
        };
        /** Choice */
        Choice: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "choice";
            /** Values */
            values: (boolean | number | string | null)[];
        };
        /**
         * ClusterRead
         * @description A Ray cluster record (its token is never shown).
         */
        ClusterRead: {
            /** Name */
            name: string;
            /**
             * Address
             * @description Its Jobs API, or `this server's Ray` for the default.
             */
            address: string;
            /**
             * Role
             * @description sweep, final or both.
             */
            role: string;
            /** Max Concurrent Jobs */
            max_concurrent_jobs: number;
            /**
             * Authenticated
             * @description Whether a token is configured for it.
             */
            authenticated: boolean;
            /**
             * Projects
             * @description A cluster of these projects' own (those the caller has a role in; an admin sees all): as a sweep cluster their sweeps run there alone, as a final cluster their final runs and deployments may go there (and to no shared one), and no other project's do. Empty on a shared one.
             */
            projects?: string[];
        };
        /**
         * CodePackageRead
         * @description An uploaded training-code package; name it in a spec as ``code: {package: <sha256>}``.
         */
        CodePackageRead: {
            /** Sha256 */
            sha256: string;
            /** Size Bytes */
            size_bytes: number;
            /** Files */
            files: number;
            /**
             * Modules
             * @description Importable modules, e.g. `train` or `pkg.train`.
             */
            modules: string[];
            /**
             * Uploaded By
             * @description The token that uploaded it into the project it is read through (the first of the caller's projects to hold it): the same files uploaded in another project do not show who uploaded them there.
             */
            uploaded_by: string | null;
            /**
             * Created At
             * Format: date-time
             * @description When that project first held it.
             */
            created_at: string;
        };
        /**
         * CodeRef
         * @description User training code: an uploaded package (``POST /api/v1/code``) and the function in it that
         *     Ray Train runs on every worker (see trainers/README.md for the contract).
         *
         *     Example::
         *
         *         CodeRef(package="9f2c...", entrypoint="train:train_loop",
         *                 metrics={"val_loss": "min", "epoch": "max"})
         */
        CodeRef: {
            /**
             * Package
             * @description The package's sha256, as the upload returned.
             */
            package: string;
            /**
             * Entrypoint
             * @description `module:function` inside the package, e.g. `train:train_loop`.
             */
            entrypoint: string;
            /**
             * Metrics
             * @description Every metric the function reports and its direction; must include every metric the spec reads (`metric`, or each of `objectives`, and `constraints`) and, unless early_stopping.scheduler is `none`, the early-stopping time attribute (default `epoch`): a spec (or schedule template) without them is a 422 naming each.
             */
            metrics: {
                [key: string]: "min" | "max";
            };
            /**
             * Requirements
             * @description Python packages the code needs beyond raysweep's own (torch, Ray, numpy, ...), as pip requirement specifiers (`torchvision==0.28.0`, `tomli-w>=1`): installed by Ray's runtime environment into a virtualenv on each node that runs the sweep (over raysweep's packages, cached per list), before its first trial starts. A requirement pip cannot install fails the sweep with pip's error. Names and versions only: no options, URLs or paths.
             */
            requirements?: string[];
            /**
             * Process Group
             * @description `torch`: Ray Train sets up torch.distributed on the workers before the function runs (gloo on CPUs, NCCL on GPUs), as its TorchTrainer does: what DDP (`ray.train.torch.prepare_model`) needs. `none`: no process group, for code that does not use torch.distributed (each worker still has its rank and world size from `ray.train.get_context()`, and reports and checkpoints as usual); its trials' Ray processes then never import torch, which saves seconds of start-up per trial.
             * @default torch
             * @enum {string}
             */
            process_group: "torch" | "none";
            /**
             * Datasets
             * @description Ray Data datasets given to Ray Train (its `datasets=`), by name: each worker reads its shard with `ray.train.get_dataset_shard(name)` (an iterator: `iter_torch_batches`, `iter_batches`). Ray Train splits them over the workers each epoch. Ray Data's read and transform tasks run beside the worker group, on CPUs it does not hold: the resource gate keeps one CPU free beside each running trial (and final run) given datasets. Bundled trainers load their own data and take none.
             */
            datasets?: {
                [key: string]: components["schemas"]["DatasetSource"];
            };
            /**
             * Checkpoints
             * @description Whether the function saves checkpoints (`ray.train.report(metrics, checkpoint=...)`) and resumes from `ray.train.get_checkpoint()`. Without them a trial whose workers restart starts over from its first epoch, resuming a paused sweep ends its trials that trained, an extension cannot continue a trial, and `asha_promotion` (which pauses trials at their checkpoints) is refused; the submit answer's `notes` say so.
             * @default true
             */
            checkpoints: boolean;
        };
        /**
         * ComputeBudget
         * @description Compute a sweep may spend, as the ledger counts it (what its worker groups held, restarts
         *     included); the sweep ends when either is spent.
         */
        ComputeBudget: {
            /**
             * Gpu Hours
             * @default null
             */
            gpu_hours: (number) | null;
            /**
             * Worker Hours
             * @default null
             */
            worker_hours: (number) | null;
        };
        /** ConfigRow */
        ConfigRow: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number: number;
            state: components["schemas"]["TrialState"];
            /** Metric */
            metric: number | null;
            /**
             * Values
             * @description One value per entry of `params`.
             */
            values: unknown[];
        };
        /**
         * ConfigSample
         * @description Which trials a hyperparameter view gets when it cannot get all of them.
         * @enum {string}
         */
        ConfigSample: "best" | "random" | "all";
        /**
         * ConfigTable
         * @description Hyperparameters against the metric, best trials first, for parallel coordinates, the
         *     slice and contour plots.
         */
        ConfigTable: {
            /** Metric */
            metric: string;
            /** Mode */
            mode: string;
            /** Total Trials */
            total_trials: number;
            /** Params */
            params: string[];
            /** Rows */
            rows: components["schemas"]["ConfigRow"][];
            /**
             * @description How `rows` were chosen from the trials.
             * @default best
             */
            sample: components["schemas"]["ConfigSample"];
            /**
             * All Max
             * @description The most trials `sample=all` sends (else 422).
             * @default 5000
             */
            all_max: number;
        };
        /** Constant */
        Constant: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "constant";
            /** Value */
            value: boolean | number | string | null;
        };
        /**
         * Constraint
         * @description A bound a trial's final result must keep to be feasible; infeasible trials are marked,
         *     never best and never promoted, and the samplers that can (tpe, gp) learn to avoid them.
         */
        Constraint: {
            /** Metric */
            metric: string;
            /**
             * Max
             * @default null
             */
            max: number | null;
            /**
             * Min
             * @default null
             */
            min: number | null;
        };
        /** ControlRequest */
        ControlRequest: {
            /** Request */
            request: ("cancel" | "pause") | null;
        };
        /**
         * Converged
         * @description Ending a sweep once more trials are unlikely to help, by Optuna's terminator.
         */
        Converged: {
            /**
             * Min Trials
             * @description Completed trials before the terminator is asked; the regret bounds of the second half of them set the threshold.
             * @default 20
             */
            min_trials: number;
            /**
             * Threshold Ratio
             * @description The threshold as a share of the median early regret bound (Optuna's default 0.01); larger stops sooner.
             * @default 0.01
             */
            threshold_ratio: number;
        };
        /** CurveSeries */
        CurveSeries: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number: number;
            state: components["schemas"]["TrialState"];
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /**
             * Points
             * @description `[iteration, metric]` pairs.
             */
            points: [
                number,
                number
            ][];
        };
        /**
         * Curves
         * @description Learning curves, downsampled: at most ``max_trials`` series of at most ``max_points``.
         */
        Curves: {
            /**
             * Metric
             * @description The metric drawn.
             */
            metric: string;
            /** Mode */
            mode: string;
            /**
             * Metrics
             * @description The numbers the trials report, by name (any of them can be drawn).
             */
            metrics?: string[];
            /** Total Trials */
            total_trials: number;
            /** Series */
            series: components["schemas"]["CurveSeries"][];
            /**
             * Cursor
             * @description The largest result id when read: poll `updates` after it.
             */
            cursor: number;
        };
        /**
         * DatasetSource
         * @description A Ray Data dataset the workers read their shard of (``ray.train.get_dataset_shard(name)``):
         *     files at ``path``, or what a function of the package returns.
         *
         *     Example::
         *
         *         DatasetSource(path="/data/fashion/train.parquet")
         *         DatasetSource(function="data:make_train")
         */
        DatasetSource: {
            /**
             * Path
             * @description A file or directory every node of the sweep's cluster (and of its final runs' cluster) reads: a shared filesystem, or a `s3://`/`gs://` URI with the nodes' credentials; read with Ray Data's `read_parquet`, `read_csv` or `read_json`.
             * @default null
             */
            path: string | null;
            /**
             * Format
             * @description How to read `path`; default: its suffix (`.parquet`, `.csv`, `.json`, `.jsonl`). Required for a directory or another suffix.
             * @default null
             */
            format: ("parquet" | "csv" | "json") | null;
            /**
             * Function
             * @description `module:function` in the code package, called with no arguments in each trial (and final run) before its workers start; it returns a `ray.data.Dataset`, e.g. `ray.data.from_items(...)` for a small generated set.
             * @default null
             */
            function: string | null;
        };
        /**
         * DeliveryRead
         * @description One event sent (or to be sent) to one webhook, with its latest attempt.
         */
        DeliveryRead: {
            /** Id */
            id: number;
            /** Webhook Id */
            webhook_id: number;
            /** Event */
            event: string;
            state: components["schemas"]["DeliveryState"];
            /** Attempts */
            attempts: number;
            /**
             * Response Code
             * @description The latest attempt's HTTP status, if any.
             */
            response_code: number | null;
            /**
             * Error
             * @description Why the latest attempt did not deliver.
             */
            error: string | null;
            /**
             * Payload
             * @description The event as the `json` format sends it.
             */
            payload: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Attempt At */
            last_attempt_at: string | null;
            /**
             * Next Attempt At
             * @description When a pending one is tried next.
             */
            next_attempt_at: string | null;
            /** Delivered At */
            delivered_at: string | null;
        };
        /**
         * DeliveryState
         * @enum {string}
         */
        DeliveryState: "pending" | "delivered" | "failed";
        /**
         * DeploymentRead
         * @description A model version served by Ray Serve. POST ``url`` with ``Authorization: Bearer <key>``
         *     and ``{"inputs": [...]}`` (one row per example, shaped like the trainer's inputs) for
         *     ``{"outputs": [...], "predictions": [...]}``; without the key the endpoint answers 401.
         */
        DeploymentRead: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Version */
            version: number;
            /** App Name */
            app_name: string;
            /** Cluster */
            cluster: string;
            state: components["schemas"]["DeploymentState"];
            /** Route Prefix */
            route_prefix: string;
            /**
             * Url
             * @description The predict endpoint, once running.
             */
            url: string | null;
            /** Error */
            error: string | null;
            /** Created By */
            created_by: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /**
             * Key
             * @description The endpoint's bearer key: only in the answer to the deploy that made the deployment (raysweep keeps its hash); deploy again after an undeploy for a new one.
             */
            key?: string | null;
        };
        /**
         * DeploymentState
         * @enum {string}
         */
        DeploymentState: "deploying" | "running" | "failed" | "deleting" | "deleted";
        /** DriverEvent */
        DriverEvent: {
            /**
             * Kind
             * @enum {string}
             */
            kind: "ray_leftovers_removed" | "ray_leak";
            /** Message */
            message: string;
            /** Data */
            data?: {
                [key: string]: unknown;
            };
        };
        /**
         * DriverOutcome
         * @description How a sweep's driver ended: its error (None when Tune returned), whether its job was
         *     stopped (SIGTERM) or Tune interrupted for a pause, which trial reached ``stop.target``, and
         *     why the terminator judged the sweep converged (``stop.converged``), and what it spent of
         *     ``stop.budget`` when that ended it.
         */
        DriverOutcome: {
            /** Error */
            error?: string | null;
            /**
             * Terminated
             * @default false
             */
            terminated: boolean;
            /**
             * Interrupted
             * @default false
             */
            interrupted: boolean;
            /** Target Reached By */
            target_reached_by?: string | null;
            /** Converged */
            converged?: string | null;
            /** Budget Spent */
            budget_spent?: string | null;
        };
        /** EarlyStopping */
        EarlyStopping: {
            /**
             * Objective
             * @description With `objectives`: the one ASHA judges trials by (and stop.target, best_metric, importance and retention read); default the first. Without: the metric.
             * @default null
             */
            objective: string | null;
            /**
             * Scheduler
             * @description `asha` stops a trial below its rung's cutoff; `asha_promotion` pauses every trial at each rung (its checkpoint kept, its trial slot freed) and promotes the best paused ones, the top 1/reduction_factor of a rung, when a trial slot frees; `pbt` is population-based training (the `pbt` block; num_samples is the population): every trial trains to max_t, and every perturbation_interval epochs the bottom quantile continues from a copy of a top trial's checkpoint with a perturbed config; `none` runs every trial to max_t.
             * @default asha
             * @enum {string}
             */
            scheduler: "asha" | "asha_promotion" | "pbt" | "none";
            /**
             * Time Attr
             * @description Progress measure; defaults to the trainer's (usually epoch).
             * @default null
             */
            time_attr: string | null;
            /**
             * Max T
             * @description Budget of every trial.
             * @default 10
             */
            max_t: number;
            /**
             * Grace Period
             * @default 1
             */
            grace_period: number;
            /**
             * Reduction Factor
             * @default 2
             */
            reduction_factor: number;
            /**
             * Brackets
             * @default 1
             */
            brackets: number;
            /**
             * @description Population-based training's settings, with `scheduler: pbt` only (defaults when left out).
             * @default null
             */
            pbt: components["schemas"]["PopulationConfig"] | null;
        };
        /**
         * ErrorBody
         * @description The one shape of every 4xx: a code, a message and per-field details.
         */
        ErrorBody: {
            /** Code */
            code: string;
            /** Message */
            message: string;
            /** Details */
            details?: components["schemas"]["Problem"][];
        };
        /** ErrorResponse */
        ErrorResponse: {
            error: components["schemas"]["ErrorBody"];
        };
        /**
         * Evaluated
         * @description A trial already run, as the extension's searcher is told of it.
         */
        Evaluated: {
            /** Params */
            params: {
                [key: string]: unknown;
            };
            /** Value */
            value: number | null;
            state: components["schemas"]["TrialState"];
            /** Values */
            values?: number[] | null;
        };
        /** EventRead */
        EventRead: {
            /** Id */
            id: number;
            /** Kind */
            kind: string;
            /** Message */
            message: string;
            /** Trial Id */
            trial_id: number | null;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first), with trial_id.
             */
            trial_number?: number | null;
            /** Data */
            data: {
                [key: string]: unknown;
            };
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /** ExperimentCreated */
        ExperimentCreated: {
            /** Id */
            id: string;
            state: components["schemas"]["ExperimentState"];
            /**
             * Notes
             * @description What the sweep gives up as submitted (e.g. code that saves no checkpoints); the SDK and CLI show each as a warning.
             */
            notes?: string[];
        };
        /** ExperimentRead */
        ExperimentRead: {
            /** Id */
            id: string;
            /** Name */
            name: string;
            /**
             * Project
             * @default default
             */
            project: string;
            /** Trainer */
            trainer: string;
            /**
             * Metric
             * @description The metric best_metric and best_trial judge by: the spec's, or with `objectives` the one early_stopping.objective names (see GET .../pareto for the front).
             */
            metric: string;
            /** Mode */
            mode: string;
            state: components["schemas"]["ExperimentState"];
            /** Spec */
            spec: {
                [key: string]: unknown;
            };
            /** Labels */
            labels: {
                [key: string]: string;
            };
            /**
             * Notes
             * @description A member's notes on the sweep.
             */
            notes?: string | null;
            /** Error */
            error: string | null;
            /** Driver Job Id */
            driver_job_id: string | null;
            /** Driver Restarts */
            driver_restarts: number;
            /**
             * Extensions
             * @description Times the sweep was extended.
             * @default 0
             */
            extensions: number;
            /**
             * Search Spaces
             * @description Every version of the search space, oldest first, once an extension changed it (the spec holds the latest); null while the sweep has its first space only.
             */
            search_spaces?: components["schemas"]["SpaceVersion"][] | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Started At */
            started_at: string | null;
            /** Finished At */
            finished_at: string | null;
            /**
             * Best Metric
             * @description The best trial's metric: the best so far while the sweep runs, the one recorded when it ended afterwards.
             */
            best_metric: number | null;
            /**
             * Trial Counts
             * @description Number of trials in each state.
             */
            trial_counts?: {
                [key: string]: number;
            };
            /** @description The feasible trial with the best `metric` (with objectives: the scalar objective ASHA uses). */
            best_trial?: components["schemas"]["TrialSummary"] | null;
            /**
             * Pareto Front
             * @description With objectives, in GET /experiments/{id}: the best trials, the Pareto front's ids by the first objective (at most 100; GET .../pareto has their values). Null for one metric, and in lists.
             */
            pareto_front?: number[] | null;
            /**
             * Running
             * @description Its running trials (and any other waiting for resources), with when each began waiting and last reported: longest waiting first, then longest silent. As many as run at once, which the cluster and max_concurrent_trials bound.
             */
            running?: components["schemas"]["TrialClock"][];
        };
        /**
         * ExperimentSpec
         * @description A sweep: what to train, over which space, judged by which metric, within which budget.
         *     Exactly one of ``trainer`` (a bundled trainer) and ``code`` (an uploaded package) names what
         *     to train.
         *
         *     Example::
         *
         *         ExperimentSpec(name="digits", trainer="digits_mlp", search_space="digits_mlp",
         *                        metric="val_accuracy", mode="max")
         */
        ExperimentSpec: {
            /** Name */
            name: string;
            /**
             * Project
             * @description The project the sweep belongs to: who may see it, whose quota and budget it counts against. Submitted without one, a sweep goes to the token's project when the token has a role in one project only, else to `default`.
             * @default default
             */
            project: string;
            /**
             * Priority
             * @description Among its project's waiting trials, a higher priority's start first.
             * @default normal
             * @enum {string}
             */
            priority: "high" | "normal" | "low";
            /**
             * Trainer
             * @default null
             */
            trainer: string | null;
            /** @default null */
            code: components["schemas"]["CodeRef"] | null;
            /** Search Space */
            search_space: string | {
                [key: string]: components["schemas"]["Uniform"] | components["schemas"]["LogUniform"] | components["schemas"]["IntRange"] | components["schemas"]["Choice"] | components["schemas"]["Grid"] | components["schemas"]["Constant"];
            };
            /**
             * Metric
             * @description The metric optimised.
             * @default null
             */
            metric: string | null;
            /**
             * Mode
             * @default null
             */
            mode: ("min" | "max") | null;
            /**
             * Objectives
             * @description Multi-objective search instead of metric/mode: Optuna's sampler looks for the Pareto front (GET /experiments/{id}/pareto); ASHA and best_metric use the objective early_stopping.objective names (default the first).
             * @default null
             */
            objectives: components["schemas"]["Objective"][] | null;
            /** Constraints */
            constraints?: components["schemas"]["Constraint"][];
            /**
             * Description
             * @default
             */
            description: string;
            search?: components["schemas"]["SearchConfig"];
            early_stopping?: components["schemas"]["EarlyStopping"];
            resources?: components["schemas"]["Resources"];
            fault_tolerance?: components["schemas"]["FaultTolerance"];
            results?: components["schemas"]["ResultRetention"];
            stop?: components["schemas"]["StopConfig"];
            promotion?: components["schemas"]["Promotion"];
            /** Labels */
            labels?: {
                [key: string]: string;
            };
        };
        /**
         * ExperimentState
         * @enum {string}
         */
        ExperimentState: "queued" | "running" | "pausing" | "paused" | "cancelling" | "completed" | "failed" | "cancelled";
        /**
         * ExperimentUpdates
         * @description What changed since a cursor: pass `cursor` back as `after` to get only newer results.
         */
        ExperimentUpdates: {
            experiment: components["schemas"]["ExperimentRead"];
            /** Results */
            results: components["schemas"]["ResultPoint"][];
            /** Events */
            events: components["schemas"]["EventRead"][];
            /**
             * Cursor
             * @description The largest result id sent so far.
             */
            cursor: number;
            /**
             * More
             * @description More results are waiting: ask again at once.
             */
            more: boolean;
        };
        /**
         * ExploitDecided
         * @description At ``epoch``, trial ``tune_id`` continues from a copy of trial ``source``'s checkpoint
         *     with ``new_config`` (values in the metric's own sign; trials by the name the database knows
         *     them by).
         */
        ExploitDecided: {
            /** Tune Id */
            tune_id: string;
            /** Epoch */
            epoch: number;
            /** Source */
            source: string;
            /** Value */
            value: number | null;
            /** Source Value */
            source_value: number | null;
            /** Old Config */
            old_config: {
                [key: string]: unknown;
            };
            /** New Config */
            new_config: {
                [key: string]: unknown;
            };
        };
        /**
         * ExploitRead
         * @description One exploit of population-based training: at ``epoch`` the trial continued from a copy
         *     of the source trial's checkpoint with ``new_config``.
         */
        ExploitRead: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number (1 first).
             */
            trial_number?: number | null;
            /**
             * Source Trial Id
             * @description The trial whose checkpoint was copied.
             */
            source_trial_id: number;
            /**
             * Source Trial Number
             * @description Its number (1 first).
             */
            source_trial_number?: number | null;
            /**
             * Epoch
             * @description The epoch both had reached; training went on after it.
             */
            epoch: number;
            /**
             * Value
             * @description The trial's metric at the epoch.
             */
            value: number | null;
            /**
             * Source Value
             * @description The source trial's metric at the epoch.
             */
            source_value: number | null;
            /**
             * Old Config
             * @description The trial's config until the epoch.
             */
            old_config: {
                [key: string]: unknown;
            };
            /**
             * New Config
             * @description Its config after: the source's, with the mutated parameters perturbed.
             */
            new_config: {
                [key: string]: unknown;
            };
            /**
             * Decided At
             * Format: date-time
             */
            decided_at: string;
        };
        /**
         * ExtendRequest
         * @description More of a finished or paused sweep: any of these, each beyond the sweep's own.
         */
        ExtendRequest: {
            /**
             * Num Samples
             * @description The sweep's new number of configurations in all (more than its spec's); the new ones are suggested knowing every trial so far.
             */
            num_samples?: number | null;
            /**
             * Max T
             * @description A budget at least the current one; with a larger one, completed trials continue from their checkpoints to it.
             */
            max_t?: number | null;
            /**
             * Time Budget S
             * @description The extension's own time budget.
             */
            time_budget_s?: number | null;
            /**
             * Search Space
             * @description A new search space, as a spec's `search_space` (a mapping of parameters, or a named space): ranges narrowed or widened, parameters added or removed. The new configurations are sampled from it; the earlier trials that lie in it (added parameters at `earlier_values`) are what its searcher is told, the others are left out and counted in the `extended` event; continuing trials keep their configs and checkpoints. The sweep's space gets a new version; each trial says which one it was sampled from.
             */
            search_space?: {
                [key: string]: unknown;
            } | string | null;
            /**
             * Earlier Values
             * @description With `search_space`: for each sampled parameter it adds, the value the earlier trials had (they ran without it); every added one must be named.
             */
            earlier_values?: {
                [key: string]: boolean | number | string | null;
            };
        };
        /** FaultTolerance */
        FaultTolerance: {
            /**
             * Max Failures
             * @description Restarts (from the latest checkpoint) a trial may use before it fails: of its worker group, and as many of the trial itself when its own process is lost with its node.
             * @default 2
             */
            max_failures: number;
            /**
             * Checkpoint Frequency
             * @description Checkpoint every N epochs.
             * @default 1
             */
            checkpoint_frequency: number;
            /**
             * Checkpoints To Keep
             * @description Latest checkpoints kept per finished trial, besides its best one.
             * @default 2
             */
            checkpoints_to_keep: number;
            /**
             * Fail Fast After
             * @description Stop the sweep, failed with that error, once N trials have failed with the same error (exception type and message, numbers aside) while none ended otherwise: a bug every trial hits is reported once, not run into by every trial. 0: never.
             * @default 3
             */
            fail_fast_after: number;
        };
        /** FinalRunEnd */
        FinalRunEnd: {
            outcome: components["schemas"]["FinalRunOutcome"] | null;
            /** Error */
            error: string | null;
        };
        /** FinalRunEpoch */
        FinalRunEpoch: {
            /** Epoch */
            epoch: number;
            /** Metrics */
            metrics: {
                [key: string]: unknown;
            };
        };
        /** FinalRunJob */
        FinalRunJob: {
            /** Final Run Id */
            final_run_id: number;
            /** Experiment Id */
            experiment_id: string;
            spec: components["schemas"]["ExperimentSpec"];
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /** Num Workers */
            num_workers: number;
            /** Epochs */
            epochs: number;
            /** Warm Start Uri */
            warm_start_uri: string | null;
            /** Resources */
            resources?: {
                [key: string]: unknown;
            } | null;
            /** Schedule */
            schedule?: {
                [key: string]: unknown;
            }[] | null;
        };
        /** FinalRunOutcome */
        FinalRunOutcome: {
            /** Metrics */
            metrics: {
                [key: string]: unknown;
            };
            /** Checkpoint Uri */
            checkpoint_uri: string;
            /** Test Metrics */
            test_metrics: {
                [key: string]: number;
            } | null;
            /** Data Fingerprint */
            data_fingerprint: string | null;
            /** Code Version */
            code_version: {
                [key: string]: unknown;
            };
        };
        /**
         * FinalRunRead
         * @description A promoted trial trained again with more workers; it ends as a model version.
         */
        FinalRunRead: {
            /** Id */
            id: number;
            /** Experiment Id */
            experiment_id: string;
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number?: number | null;
            /**
             * Rank
             * @description 1 for the sweep's best trial.
             */
            rank: number;
            state: components["schemas"]["FinalRunState"];
            /**
             * Config
             * @description What the workers got: the trial's, scaled.
             */
            config: {
                [key: string]: unknown;
            };
            /** Num Workers */
            num_workers: number;
            /**
             * Resources
             * @description Each worker's use_gpu, cpus_per_worker and gpus_per_worker; null: the sweep's.
             */
            resources?: {
                [key: string]: unknown;
            } | null;
            /** Epochs */
            epochs: number;
            /**
             * Schedule
             * @description A PBT trial's config changes, replayed: each {epoch, config} trained from the epoch after `epoch` (scaled as `config`); null: `config` throughout.
             */
            schedule?: {
                [key: string]: unknown;
            }[] | null;
            /**
             * Warm Start Uri
             * @description The checkpoint its weights start from (the trial's best), or null.
             */
            warm_start_uri: string | null;
            /** Model Name */
            model_name: string;
            /**
             * Cluster
             * @description The final cluster record it runs on.
             */
            cluster: string;
            /** Job Id */
            job_id: string | null;
            /**
             * Restarts
             * @description Times its job was resubmitted after it died.
             */
            restarts: number;
            /**
             * Worker Failures
             * @description Worker-group failures Ray Train retried.
             */
            worker_failures: number;
            /** Error */
            error: string | null;
            /**
             * Metrics
             * @description The last epoch's reported metrics.
             */
            metrics: {
                [key: string]: unknown;
            } | null;
            /**
             * Test Metrics
             * @description On the held-out test split.
             */
            test_metrics: {
                [key: string]: unknown;
            } | null;
            /** Checkpoint Uri */
            checkpoint_uri: string | null;
            /**
             * Purpose
             * @description `promotion` (once per trial) or `retrain` (a retrain schedule's firing).
             * @enum {string}
             */
            purpose: "promotion" | "retrain";
            /**
             * Challenge
             * @description A retrain's champion/challenger rule: alias, margin, metric, mode.
             */
            challenge: {
                [key: string]: unknown;
            } | null;
            /** Model Version */
            model_version?: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Started At */
            started_at: string | null;
            /** Finished At */
            finished_at: string | null;
        };
        /**
         * FinalRunState
         * @enum {string}
         */
        FinalRunState: "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled";
        /**
         * FiringOutcome
         * @enum {string}
         */
        FiringOutcome: "submitted" | "waiting" | "skipped" | "missed" | "failed" | "tuning" | "training" | "promoted" | "kept" | "cancelled";
        /** Grid */
        Grid: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "grid";
            /** Values */
            values: (boolean | number | string | null)[];
        };
        /**
         * HeldSegment
         * @description One worker group's lease from its grant to its end (``holding``: not ended yet, counted
         *     to now), with what it held: workers, and their CPUs and GPUs in all. Times are seconds
         *     since the epoch.
         */
        HeldSegment: {
            /** Key */
            key: string;
            /** Owner */
            owner: string;
            /** Label */
            label: string;
            /** Started */
            started: number;
            /** Ended */
            ended: number;
            /** Holding */
            holding: boolean;
            /** Workers */
            workers: number;
            /** Cpus */
            cpus: number;
            /** Gpus */
            gpus: number;
        };
        /** HistoryPoint */
        HistoryPoint: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number: number;
            /**
             * Order
             * @description Its place among the finished trials by end time, from 1.
             */
            order: number;
            state: components["schemas"]["TrialState"];
            /**
             * Value
             * @description Its best reported metric (as the trial table shows).
             */
            value: number;
            /**
             * Best
             * @description The best value of the feasible trials finished up to and including this one (null while none is feasible): at the end, the best trial's among finished ones.
             */
            best: number | null;
            /**
             * Feasible
             * @description Null when the sweep has no constraints.
             */
            feasible: boolean | null;
        };
        /**
         * Importance
         * @description Which sampled hyperparameters decided the metric, most important first.
         */
        Importance: {
            evaluator: components["schemas"]["ImportanceEvaluator"];
            /** Metric */
            metric: string;
            /** Mode */
            mode: string;
            /**
             * At Iteration
             * @description The iteration every ranked trial is compared at: the deepest that a quarter of the trials, and at least 5, reached (under ASHA most stop early); null before any result.
             */
            at_iteration: number | null;
            /**
             * Trials Used
             * @description Trials ranked: those with a value at `at_iteration`, whatever their state now; fANOVA takes at most 200 (the best 100 and an even spread of the rest), PED-ANOVA at most 1,000 (an even spread over the ranking, which keeps the best tenth it compares with the rest).
             */
            trials_used: number;
            /** Importances */
            importances: components["schemas"]["ParameterImportance"][];
            /**
             * Message
             * @description Why there is no ranking yet (too few trials), else null.
             */
            message?: string | null;
            /**
             * Trials Reached
             * @description Trials with a value at `at_iteration`: the set compared (before `trials_used` samples it).
             * @default 0
             */
            trials_reached: number;
            /**
             * Trials Reporting
             * @description Trials with any result: the set `trials_reached` is drawn from.
             * @default 0
             */
            trials_reporting: number;
            /**
             * Iterations
             * @description The iterations `at_iteration` may be asked at: the sweep's rungs (ASHA's milestones and max_t; max_t alone without early stopping).
             */
            iterations?: number[];
            /**
             * Warnings
             * @description Values of a choice parameter that early stopping left out of the compared set: the ranking says little about that parameter.
             */
            warnings?: components["schemas"]["ImportanceWarning"][];
        };
        /**
         * ImportanceEvaluator
         * @enum {string}
         */
        ImportanceEvaluator: "ped_anova" | "fanova";
        /**
         * ImportanceWarning
         * @description A value of a choice parameter that holds a real share of the trials with a result but
         *     next to none of those compared at `at_iteration`: most of its trials stopped earlier.
         */
        ImportanceWarning: {
            /** Parameter */
            parameter: string;
            /**
             * Value
             * @description The value as text.
             */
            value: string;
            /**
             * Trials
             * @description Trials with a result that took this value.
             */
            trials: number;
            /**
             * Compared
             * @description Of those, trials with a value at `at_iteration`.
             */
            compared: number;
            /**
             * Stopped At
             * @description The iteration where most of its other trials ended.
             */
            stopped_at: number;
            /** Message */
            message: string;
        };
        /** IntRange */
        IntRange: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "int";
            /** Low */
            low: number;
            /** High */
            high: number;
            /**
             * Step
             * @default 1
             */
            step: number;
            /**
             * Log
             * @default false
             */
            log: boolean;
        };
        /** LogLine */
        LogLine: {
            /**
             * Attempt
             * @description The worker group's attempt, 1 first (a restart, a promotion-ASHA segment or a yield starts one).
             */
            attempt: number;
            /**
             * Rank
             * @description The worker's rank in its group.
             */
            rank: number;
            /**
             * Stream
             * @description `stdout` or `stderr`.
             */
            stream: string;
            /**
             * Time
             * @description When the worker wrote it (Unix seconds).
             */
            time: number;
            /**
             * Seq
             * @description Its place in its worker's output of that attempt, 1 first.
             */
            seq: number;
            /**
             * Text
             * @description The line, secrets (tokens, database URLs) replaced by `***`.
             */
            text: string;
        };
        /** LogUniform */
        LogUniform: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "loguniform";
            /** Low */
            low: number;
            /** High */
            high: number;
        };
        /**
         * Misfire
         * @enum {string}
         */
        Misfire: "run_once" | "skip";
        /** ModelRead */
        ModelRead: {
            /** Name */
            name: string;
            /**
             * Project
             * @description The project the model belongs to.
             * @default
             */
            project: string;
            /** Latest Version */
            latest_version: number;
            /** Versions */
            versions: number;
            /** Aliases */
            aliases: {
                [key: string]: number;
            };
        };
        /**
         * ModelVersionRead
         * @description A registered model version and its lineage.
         */
        ModelVersionRead: {
            /** Name */
            name: string;
            /** Version */
            version: number;
            /**
             * Project
             * @description The project the model belongs to.
             * @default
             */
            project: string;
            /** Final Run Id */
            final_run_id: number;
            /** Experiment Id */
            experiment_id: string;
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number?: number | null;
            /** Trainer */
            trainer: string;
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /** Metrics */
            metrics: {
                [key: string]: unknown;
            };
            /** Test Metrics */
            test_metrics: {
                [key: string]: unknown;
            } | null;
            /** Checkpoint Uri */
            checkpoint_uri: string;
            /**
             * Code Version
             * @description raysweep version, git commit when known, or the uploaded package's sha256.
             */
            code_version: {
                [key: string]: unknown;
            };
            /**
             * Data Fingerprint
             * @description sha256 of the dataset's splits.
             */
            data_fingerprint: string | null;
            /**
             * Comparison
             * @description A retrained version's champion/challenger result: the metric, both values, the margin and whether it was promoted.
             */
            comparison?: {
                [key: string]: unknown;
            } | null;
            /** Aliases */
            aliases?: string[];
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
        };
        /**
         * NotesUpdate
         * @description A member's notes on an experiment or a trial; an empty text removes them.
         */
        NotesUpdate: {
            /**
             * Notes
             * @description Free text, at most 10,000 characters; empty removes the notes.
             */
            notes: string;
        };
        /**
         * Objective
         * @description One metric a sweep optimises, in its direction.
         */
        Objective: {
            /** Metric */
            metric: string;
            /**
             * Mode
             * @enum {string}
             */
            mode: "min" | "max";
        };
        /** ObjectiveRead */
        ObjectiveRead: {
            /** Metric */
            metric: string;
            /** Mode */
            mode: string;
        };
        /**
         * Overlap
         * @enum {string}
         */
        Overlap: "skip" | "queue" | "cancel_previous";
        /** Page[CodePackageRead] */
        Page_CodePackageRead_: {
            /** Items */
            items: components["schemas"]["CodePackageRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[DeliveryRead] */
        Page_DeliveryRead_: {
            /** Items */
            items: components["schemas"]["DeliveryRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[EventRead] */
        Page_EventRead_: {
            /** Items */
            items: components["schemas"]["EventRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[ExperimentRead] */
        Page_ExperimentRead_: {
            /** Items */
            items: components["schemas"]["ExperimentRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[FinalRunRead] */
        Page_FinalRunRead_: {
            /** Items */
            items: components["schemas"]["FinalRunRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[ModelVersionRead] */
        Page_ModelVersionRead_: {
            /** Items */
            items: components["schemas"]["ModelVersionRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[ResultRead] */
        Page_ResultRead_: {
            /** Items */
            items: components["schemas"]["ResultRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[ScheduleFiringRead] */
        Page_ScheduleFiringRead_: {
            /** Items */
            items: components["schemas"]["ScheduleFiringRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[ScheduleRead] */
        Page_ScheduleRead_: {
            /** Items */
            items: components["schemas"]["ScheduleRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** Page[TrialRead] */
        Page_TrialRead_: {
            /** Items */
            items: components["schemas"]["TrialRead"][];
            /** Total */
            total: number;
            /** Limit */
            limit: number;
            /** Offset */
            offset: number;
        };
        /** ParameterImportance */
        ParameterImportance: {
            /** Name */
            name: string;
            /**
             * Importance
             * @description Share of the importance, 0-1; all sum to 1.
             */
            importance: number;
        };
        /**
         * Pareto
         * @description The completed trials against the objectives, the Pareto front first (ordered by the
         *     first objective), then a spread of the rest.
         */
        Pareto: {
            /** Objectives */
            objectives: components["schemas"]["ObjectiveRead"][];
            /**
             * Front
             * @description The front's trial ids, by the first objective.
             */
            front: number[];
            /** Trials */
            trials: components["schemas"]["ParetoTrial"][];
            /**
             * Completed Trials
             * @description Completed trials with every objective's value: those the front is of.
             */
            completed_trials: number;
            /**
             * Message
             * @description Why the front is empty (no completed trial yet), else null.
             */
            message?: string | null;
        };
        /** ParetoTrial */
        ParetoTrial: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number: number;
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /**
             * Values
             * @description Its latest value of each objective.
             */
            values: {
                [key: string]: number;
            };
            /**
             * Feasible
             * @description Null when the sweep has no constraints.
             */
            feasible: boolean | null;
            /**
             * On Front
             * @description Feasible and dominated by no other trial.
             */
            on_front: boolean;
        };
        /**
         * Pick
         * @description Which trials of the Pareto front to promote: those within the bounds, best first by
         *     one objective.
         */
        Pick: {
            /**
             * Objective
             * @description The objective to rank by.
             */
            objective: string;
            /**
             * Max
             * @description Upper bounds on objectives.
             */
            max?: {
                [key: string]: number;
            };
            /**
             * Min
             * @description Lower bounds on objectives.
             */
            min?: {
                [key: string]: number;
            };
        };
        /**
         * PopulationConfig
         * @description Population-based training (``early_stopping.scheduler: pbt``), as Ray Tune's PBT with
         *     ``synch=True``: the population (``search.num_samples`` trials, sampled by
         *     ``search.algorithm``) trains in steps of ``perturbation_interval`` epochs; when every live
         *     trial has reached a step, the worst ``quantile_fraction`` of them each copy the latest
         *     checkpoint (model and optimizer state, every DDP rank's files) and the config of a trial
         *     drawn from the best ``quantile_fraction``, then perturb the ``mutate`` parameters.
         */
        PopulationConfig: {
            /**
             * Perturbation Interval
             * @description Epochs between exploit steps (< max_t).
             * @default 2
             */
            perturbation_interval: number;
            /**
             * Quantile Fraction
             * @description The share of the population that exploits (the worst) and that is copied from (the best); at least one trial each.
             * @default 0.25
             */
            quantile_fraction: number;
            /**
             * Resample Probability
             * @description The chance a mutated parameter is sampled anew from the search space instead of perturbed (a number x0.8 or x1.2 within its bounds, a choice moved to a neighbouring value).
             * @default 0.25
             */
            resample_probability: number;
            /**
             * Mutate
             * @description The parameters an exploit perturbs; default every numeric and choice parameter of the space except those a bundled trainer's model or optimizer state depends on (its shape: a copied checkpoint would not load). The others are copied from the trial exploited.
             * @default null
             */
            mutate: string[] | null;
        };
        /**
         * Problem
         * @description One thing wrong with a request, located by a dotted path (``search.num_samples``).
         */
        Problem: {
            /** Path */
            path: string;
            /** Message */
            message: string;
        };
        /** ProjectCreate */
        ProjectCreate: {
            /** Description */
            description?: string | null;
            /**
             * Weight
             * @description Its share of a contested cluster, relative to the other projects' weights.
             * @default 1
             */
            weight: number;
            /**
             * Max Workers
             * @description Train workers at once; null: no limit.
             */
            max_workers?: number | null;
            /**
             * Max Cpus
             * @description CPUs its workers hold at once; null: no limit.
             */
            max_cpus?: number | null;
            /**
             * Max Gpus
             * @description GPUs its workers hold at once; null: no limit.
             */
            max_gpus?: number | null;
            /**
             * Max Queued
             * @description Sweeps queued at once; null: no limit.
             */
            max_queued?: number | null;
            /**
             * Monthly Worker Hours
             * @description New sweeps are refused once its worker-hours this (UTC) month reach it.
             */
            monthly_worker_hours?: number | null;
            /**
             * Monthly Gpu Hours
             * @description New sweeps are refused once its GPU-hours this (UTC) month reach it.
             */
            monthly_gpu_hours?: number | null;
            /** Name */
            name: string;
        };
        /** ProjectRead */
        ProjectRead: {
            /** Name */
            name: string;
            /** Description */
            description: string | null;
            /** Weight */
            weight: number;
            /** Max Workers */
            max_workers: number | null;
            /** Max Cpus */
            max_cpus: number | null;
            /** Max Gpus */
            max_gpus: number | null;
            /** Max Queued */
            max_queued: number | null;
            /** Monthly Worker Hours */
            monthly_worker_hours: number | null;
            /** Monthly Gpu Hours */
            monthly_gpu_hours: number | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** @description Held since the first of this UTC month. */
            usage_this_month: components["schemas"]["Usage"];
        };
        /**
         * ProjectShare
         * @description A project's weight in fair share and its quotas (None: no limit), as the gate applies
         *     them to the worker groups it grants.
         */
        ProjectShare: {
            /**
             * Weight
             * @default 1
             */
            weight: number;
            /** Max Workers */
            max_workers?: number | null;
            /** Max Cpus */
            max_cpus?: number | null;
            /** Max Gpus */
            max_gpus?: number | null;
        };
        /**
         * ProjectUpdate
         * @description The fields named are set; the others keep their values.
         */
        ProjectUpdate: {
            /** Description */
            description?: string | null;
            /**
             * Weight
             * @default 1
             */
            weight: number;
            /**
             * Max Workers
             * @description Train workers at once; null: no limit.
             */
            max_workers?: number | null;
            /**
             * Max Cpus
             * @description CPUs its workers hold at once; null: no limit.
             */
            max_cpus?: number | null;
            /**
             * Max Gpus
             * @description GPUs its workers hold at once; null: no limit.
             */
            max_gpus?: number | null;
            /**
             * Max Queued
             * @description Sweeps queued at once; null: no limit.
             */
            max_queued?: number | null;
            /**
             * Monthly Worker Hours
             * @description New sweeps are refused once its worker-hours this (UTC) month reach it.
             */
            monthly_worker_hours?: number | null;
            /**
             * Monthly Gpu Hours
             * @description New sweeps are refused once its GPU-hours this (UTC) month reach it.
             */
            monthly_gpu_hours?: number | null;
        };
        /**
         * Promotion
         * @description Training the sweep's top trials again, bigger (more workers, other resources), as
         *     registered model versions.
         */
        Promotion: {
            /**
             * Use Gpu
             * @description Default: the sweep's; a gpus_per_worker above 0 implies it.
             * @default null
             */
            use_gpu: boolean | null;
            /**
             * Cpus Per Worker
             * @description Default: the sweep's.
             * @default null
             */
            cpus_per_worker: number | null;
            /**
             * Gpus Per Worker
             * @description Default: the sweep's, or 1 when use_gpu is new.
             * @default null
             */
            gpus_per_worker: number | null;
            /**
             * Precision
             * @description Mixed precision of a bundled trainer's final run (bf16 or fp16 on GPUs); default: the trial's.
             * @default null
             */
            precision: ("fp32" | "bf16" | "fp16") | null;
            /**
             * Auto
             * @description Promote when the sweep completes.
             * @default false
             */
            auto: boolean;
            /**
             * Top K
             * @description Trials promoted, best first.
             * @default 1
             */
            top_k: number;
            /**
             * Num Workers
             * @description Workers of a final run.
             * @default 4
             */
            num_workers: number;
            /**
             * Epochs
             * @description Final budget; default: max_t_multiple x max_t.
             * @default null
             */
            epochs: number | null;
            /**
             * Max T Multiple
             * @default 1
             */
            max_t_multiple: number;
            /**
             * Lr Scaling
             * @description Bundled trainers keep each worker's batch, so the global batch grows with the workers; the LR follows it by this rule, after a warmup.
             * @default sqrt
             * @enum {string}
             */
            lr_scaling: "none" | "linear" | "sqrt";
            /**
             * Warmup Epochs
             * @description LR warmup of a final run.
             * @default 1
             */
            warmup_epochs: number;
            /**
             * Warm Start
             * @description Start from the trial's best checkpoint's weights.
             * @default false
             */
            warm_start: boolean;
            /**
             * Model Name
             * @description Registry name; default: the experiment's.
             * @default null
             */
            model_name: string | null;
            /**
             * Cluster
             * @description The final cluster record (GET /api/v1/clusters); default: the first with the final role.
             * @default null
             */
            cluster: string | null;
        };
        /**
         * PromotionOverrides
         * @description What ``POST /experiments/{id}/promote`` may change from the spec's ``promotion``, and
         *     which trials it promotes (default: the top_k completed feasible trials by the metric; with
         *     ``objectives``, the Pareto front's by the first objective).
         */
        PromotionOverrides: {
            /**
             * Use Gpu
             * @description Default: the sweep's; a gpus_per_worker above 0 implies it.
             */
            use_gpu?: boolean | null;
            /**
             * Cpus Per Worker
             * @description Default: the sweep's.
             */
            cpus_per_worker?: number | null;
            /**
             * Gpus Per Worker
             * @description Default: the sweep's, or 1 when use_gpu is new.
             */
            gpus_per_worker?: number | null;
            /**
             * Precision
             * @description Mixed precision of a bundled trainer's final run (bf16 or fp16 on GPUs); default: the trial's.
             */
            precision?: ("fp32" | "bf16" | "fp16") | null;
            /**
             * Trial Ids
             * @description Promote these trials (completed and feasible, of this sweep) instead, by id (as the API's trial reads key them).
             */
            trial_ids?: number[] | null;
            /**
             * Trial Numbers
             * @description Promote these trials instead, by their number in the sweep (`#3` in the web UI and the CLI's tables); give trial_ids, trial_numbers or pick, one at most.
             */
            trial_numbers?: number[] | null;
            /** @description Promote the top_k trials of the Pareto front that keep `max`/`min`, best first by `objective`; e.g. {objective: val_loss, max: {latency_ms: 20}}. */
            pick?: components["schemas"]["Pick"] | null;
            /** Top K */
            top_k?: number | null;
            /** Num Workers */
            num_workers?: number | null;
            /** Epochs */
            epochs?: number | null;
            /** Lr Scaling */
            lr_scaling?: ("none" | "linear" | "sqrt") | null;
            /** Warm Start */
            warm_start?: boolean | null;
            /** Model Name */
            model_name?: string | null;
            /** Cluster */
            cluster?: string | null;
        };
        /** Pruned */
        Pruned: {
            /** Deleted */
            deleted: number;
        };
        /**
         * ReservationReclaimed
         * @description The gate removed a worker-group reservation the trial's run left behind (its trial or
         *     its Train controller died first); ``message`` says which and what it held. ``tune_id`` is
         *     empty for one no trial had registered (its run died while its workers started).
         */
        ReservationReclaimed: {
            /** Tune Id */
            tune_id: string;
            /** Message */
            message: string;
        };
        /** Resources */
        Resources: {
            /**
             * Num Workers
             * @description Workers per trial; [min, max] makes the trial elastic: it starts with as many workers as are free, between the two, and never grows past that start.
             * @default 2
             */
            num_workers: number | [
                number,
                number
            ];
            /**
             * Use Gpu
             * @default false
             */
            use_gpu: boolean;
            /**
             * Cpus Per Worker
             * @description CPUs each Train worker holds. A trial's Tune function holds 0.01 CPU more; on a cluster whose CPUs are on one node that comes out of the workers' share (where each asks at least 0.02), so a trial holds num_workers times this in all.
             * @default 1
             */
            cpus_per_worker: number;
            /**
             * Gpus Per Worker
             * @default 0
             */
            gpus_per_worker: number;
        };
        /** ResultPoint */
        ResultPoint: {
            /** Id */
            id: number;
            /** Trial Id */
            trial_id: number;
            /** Iteration */
            iteration: number;
            /**
             * Value
             * @description The experiment's metric in this result.
             */
            value: number | null;
        };
        /** ResultRead */
        ResultRead: {
            /** Iteration */
            iteration: number;
            /** Metrics */
            metrics: {
                [key: string]: unknown;
            };
            /**
             * Reported At
             * Format: date-time
             */
            reported_at: string;
        };
        /** ResultReported */
        ResultReported: {
            /** Tune Id */
            tune_id: string;
            /** Iteration */
            iteration: number;
            /** Metrics */
            metrics: {
                [key: string]: unknown;
            };
            /** Checkpoint Uri */
            checkpoint_uri?: string | null;
        };
        /**
         * ResultRetention
         * @description Which reported results a trial keeps in the store: a sweep of very long trials need not
         *     keep every step. Whatever the policy, a trial keeps its results at the rungs (the
         *     early-stopping milestones, max_t included), and its progress (iteration, last and best
         *     values) counts every result.
         */
        ResultRetention: {
            /**
             * Keep
             * @description `all`; `every_n`: results at iterations that are multiples of `n`, and each that improved the trial's best when it came; `last_k_per_trial`: a trial's latest `k` results and its best.
             * @default all
             * @enum {string}
             */
            keep: "all" | "every_n" | "last_k_per_trial";
            /**
             * N
             * @description For `every_n`.
             * @default 10
             */
            n: number;
            /**
             * K
             * @description For `last_k_per_trial`.
             * @default 100
             */
            k: number;
        };
        /**
         * RetrainSettings
         * @description What a `retrain` schedule retrains and how the result may replace the model in use; the
         *     resources default to the champion's final run's.
         */
        RetrainSettings: {
            /**
             * Use Gpu
             * @description Default: the sweep's; a gpus_per_worker above 0 implies it.
             */
            use_gpu?: boolean | null;
            /**
             * Cpus Per Worker
             * @description Default: the sweep's.
             */
            cpus_per_worker?: number | null;
            /**
             * Gpus Per Worker
             * @description Default: the sweep's, or 1 when use_gpu is new.
             */
            gpus_per_worker?: number | null;
            /**
             * Precision
             * @description Mixed precision of a bundled trainer's final run (bf16 or fp16 on GPUs); default: the trial's.
             */
            precision?: ("fp32" | "bf16" | "fp16") | null;
            /**
             * Model
             * @description A registered model's name.
             */
            model: string;
            /**
             * Alias
             * @description The alias whose version is retrained, and which the retrained version takes only if it beats that version (the champion).
             * @default production
             */
            alias: string;
            /**
             * Margin
             * @description How much better (absolute, on the held-out test metric of the sweep's metric) the challenger must be; a tie or less keeps the champion.
             * @default 0
             */
            margin: number;
            /**
             * Epochs
             * @description Default: the champion's final-run epochs.
             */
            epochs?: number | null;
            /**
             * Num Workers
             * @description Default: the champion's final-run workers.
             */
            num_workers?: number | null;
            /**
             * Cluster
             * @description Final cluster; default: the champion's, else the first.
             */
            cluster?: string | null;
            /** @description Re-tune first; the new sweep's best config is retrained. */
            retune?: components["schemas"]["Retune"] | null;
        };
        /**
         * Retune
         * @description A small sweep before the retrain: the previous study's best configs tried first, and
         *     its searcher told every finished trial of that study (``search.warm_start_from``).
         */
        Retune: {
            /**
             * Num Samples
             * @description Trials of the re-tuning sweep.
             * @default 4
             */
            num_samples: number;
            /**
             * Warm Start Top
             * @description The previous study's best completed configs tried first (`points_to_evaluate`).
             * @default 3
             */
            warm_start_top: number;
        };
        /**
         * Role
         * @enum {string}
         */
        Role: "admin" | "member" | "viewer";
        /** Rung */
        Rung: {
            /**
             * Milestone
             * @description The iteration at which ASHA compares trials.
             */
            milestone: number;
            /**
             * Reached
             * @description Trials the scheduler judged at this milestone.
             */
            reached: number;
            /**
             * Continued
             * @description Of those, trials it let go on (asha's continue).
             */
            continued: number;
            /**
             * Stopped
             * @description Of those, trials it pruned here.
             */
            stopped: number;
            /**
             * Paused
             * @description asha_promotion: trials paused here and not (yet) promoted.
             * @default 0
             */
            paused: number;
            /**
             * Promoted
             * @description asha_promotion: trials promoted from here.
             * @default 0
             */
            promoted: number;
            /**
             * Completed
             * @description Trials that reached max_t at this rung.
             * @default 0
             */
            completed: number;
            /**
             * Cutoff
             * @description The cutoff of the latest decision made at this milestone, as the scheduler applied it (null until a second trial reached it).
             */
            cutoff: number | null;
        };
        /**
         * RungDecided
         * @description The scheduler's decision about one trial at one rung (values in the metric's own sign).
         */
        RungDecided: {
            /** Tune Id */
            tune_id: string;
            /** Bracket */
            bracket: number;
            /** Milestone */
            milestone: number;
            /** Value */
            value: number | null;
            /** Cutoff */
            cutoff: number | null;
            /** Rank */
            rank: number | null;
            /** Rung Size */
            rung_size: number;
            decision: components["schemas"]["RungDecisionKind"];
        };
        /**
         * RungDecisionKind
         * @description What an early-stopping scheduler decided about a trial at a rung.
         * @enum {string}
         */
        RungDecisionKind: "continue" | "stop" | "pause" | "promote" | "complete";
        /**
         * RungDecisionRead
         * @description One decision ASHA made, with what it saw when it made it.
         */
        RungDecisionRead: {
            /**
             * Milestone
             * @description The rung: the iteration at which trials are compared.
             */
            milestone: number;
            /**
             * Bracket
             * @description The ASHA bracket the trial belongs to (0 with one).
             */
            bracket: number;
            /**
             * Value
             * @description The trial's metric at the milestone.
             */
            value: number | null;
            /**
             * Cutoff
             * @description The value the trial had to beat (asha), or the worst value still in the rung's top 1/reduction_factor (asha_promotion); null when the rung held no other trial.
             */
            cutoff: number | null;
            /**
             * Rank
             * @description The trial's rank in the rung then (1 = best).
             */
            rank: number | null;
            /**
             * Rung Size
             * @description Trials recorded at the rung then, this one included.
             */
            rung_size: number;
            decision: components["schemas"]["RungDecisionKind"];
            /**
             * Reason
             * @description The decision in one line.
             */
            reason: string;
            /**
             * Decided At
             * Format: date-time
             */
            decided_at: string;
        };
        /** Rungs */
        Rungs: {
            /** Scheduler */
            scheduler: string;
            /** Reduction Factor */
            reduction_factor: number | null;
            /**
             * Rungs
             * @description Lowest milestone first; empty without ASHA.
             */
            rungs: components["schemas"]["Rung"][];
        };
        /**
         * ScheduleCreate
         * @description A cron schedule. Kind `sweep` submits ``spec`` as a fresh sweep at every due time; kind
         *     `retrain` trains ``retrain.model``'s production version's config again on the current data
         *     as a final run (optionally after a small re-tuning sweep) and promotes it only if it wins.
         *
         *     Example::
         *
         *         ScheduleCreate(name="nightly", cron="0 3 * * *", timezone="Europe/Berlin",
         *                        spec={"name": "digits", "trainer": "digits_mlp", ...})
         *         ScheduleCreate(name="weekly-retrain", cron="0 4 * * 1", kind="retrain",
         *                        retrain={"model": "digits", "margin": 0.005})
         */
        ScheduleCreate: {
            /** Name */
            name: string;
            /**
             * Project
             * @description The project the schedule, and what it runs, belong to: a `sweep` spec's project is this one, a `retrain` model must be one of its models. Left out: the token's project when the token has a role in one project only, else `default`.
             * @default default
             */
            project: string;
            /**
             * Cron
             * @description Five-field cron, e.g. `0 3 * * *`.
             */
            cron: string;
            /**
             * Timezone
             * @description IANA time zone the cron reads in.
             * @default UTC
             */
            timezone: string;
            /**
             * @description `sweep`: submit `spec` as a new experiment each time; `retrain`: retrain the model named in `retrain` and promote it only if it beats the current version.
             * @default sweep
             */
            kind: components["schemas"]["ScheduleKind"];
            /**
             * Enabled
             * @default true
             */
            enabled: boolean;
            /**
             * @description When the previous firing's run is still going: skip this time, queue it until the previous one ends, or cancel the previous one (its sweep, or a retrain's re-tuning sweep or final run) and start this one.
             * @default skip
             */
            overlap: components["schemas"]["Overlap"];
            /**
             * @description Due times missed while no server ran: fire once for all, or skip them.
             * @default run_once
             */
            misfire: components["schemas"]["Misfire"];
            /**
             * Spec
             * @description Kind `sweep`: the experiment spec each firing submits.
             */
            spec?: {
                [key: string]: unknown;
            } | null;
            /** @description Kind `retrain`: the model and the champion/challenger rule. */
            retrain?: components["schemas"]["RetrainSettings"] | null;
        };
        /** ScheduleFiringRead */
        ScheduleFiringRead: {
            /** Id */
            id: number;
            /**
             * Scheduled For
             * Format: date-time
             */
            scheduled_for: string;
            /**
             * Fired At
             * Format: date-time
             */
            fired_at: string;
            /** @description submitted (a sweep), waiting (queued behind the previous run), skipped (overlap), missed (misfire: skip), failed; for retrains tuning, training, then promoted (the retrained version took the alias) or kept (the champion stayed; the retrained version is the `candidate`), or cancelled (its sweep or final run was cancelled, by hand or by the next firing's `cancel_previous`). */
            outcome: components["schemas"]["FiringOutcome"];
            /**
             * Experiment Id
             * @description The sweep it submitted (or re-tuned with).
             */
            experiment_id: string | null;
            /**
             * Final Run Id
             * @description The retrain's final run.
             */
            final_run_id: number | null;
            /** Message */
            message: string;
        };
        /**
         * ScheduleKind
         * @enum {string}
         */
        ScheduleKind: "sweep" | "retrain";
        /** ScheduleRead */
        ScheduleRead: {
            /** Id */
            id: string;
            /** Name */
            name: string;
            /** Project */
            project: string;
            kind: components["schemas"]["ScheduleKind"];
            /** Cron */
            cron: string;
            /** Timezone */
            timezone: string;
            /** Enabled */
            enabled: boolean;
            overlap: components["schemas"]["Overlap"];
            misfire: components["schemas"]["Misfire"];
            /**
             * Template
             * @description Kind `sweep`: the checked spec each firing submits.
             */
            template: {
                [key: string]: unknown;
            } | null;
            /** @description Kind `retrain`: what is retrained. */
            retrain: components["schemas"]["RetrainSettings"] | null;
            /**
             * Next Run At
             * @description The next due time (UTC); none when paused.
             */
            next_run_at: string | null;
            /** Created By */
            created_by: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            last_firing?: components["schemas"]["ScheduleFiringRead"] | null;
        };
        /** ScheduleUpdate */
        ScheduleUpdate: {
            /** Enabled */
            enabled: boolean;
        };
        /** SearchConfig */
        SearchConfig: {
            /**
             * Algorithm
             * @description Optuna's samplers, each seeded by `seed`: `tpe` (the default), `random`, `gp` (Gaussian process, for small budgets: random for the first third of num_samples, at most 10, then modelled), `cmaes` (CMA-ES: two or more numeric parameters; choices are sampled at random beside it), `qmc` (Sobol quasi-random, scrambled); `grid` is Tune's grid over `grid` parameters.
             * @default tpe
             * @enum {string}
             */
            algorithm: "tpe" | "random" | "grid" | "gp" | "cmaes" | "qmc";
            /**
             * Num Samples
             * @default 8
             */
            num_samples: number;
            /**
             * Max Concurrent Trials
             * @default 2
             */
            max_concurrent_trials: number;
            /**
             * Seed
             * @default null
             */
            seed: number | null;
            /**
             * Points To Evaluate
             * @description Configurations tried first, each a mapping of parameter to value.
             */
            points_to_evaluate?: {
                [key: string]: boolean | number | string | null;
            }[];
            /**
             * Warm Start From
             * @description Experiments whose finished trials the searcher is told before it suggests anything: they must sample the same parameters (names and types) for the same metric and mode; their configurations outside this space are left out.
             */
            warm_start_from?: string[];
        };
        /**
         * SpaceVersion
         * @description One version of a sweep's search space: the first, or one an extension set.
         */
        SpaceVersion: {
            /**
             * Version
             * @description 1 for the space the sweep was submitted with, then 2, …
             */
            version: number;
            /**
             * Extension
             * @description The extension that set it (0: the submitted space).
             */
            extension: number;
            /** Search Space */
            search_space: {
                [key: string]: unknown;
            };
            /**
             * Added
             * @description Parameters it added, each with the value the earlier trials had.
             */
            added?: {
                [key: string]: unknown;
            };
            /**
             * Removed
             * @description Parameters it removed.
             */
            removed?: string[];
            /**
             * Changed
             * @description Parameters whose distribution it changed.
             */
            changed?: string[];
        };
        /** StopConfig */
        StopConfig: {
            /**
             * Time Budget S
             * @default null
             */
            time_budget_s: number | null;
            /**
             * @description End the sweep once its trials have held this much compute (checked every few seconds while it runs; trials still running are cancelled and a `budget_spent` event says what was spent).
             * @default null
             */
            budget: components["schemas"]["ComputeBudget"] | null;
            /**
             * Target
             * @description A trial reaching this metric value ends the sweep.
             * @default null
             */
            target: number | null;
            /**
             * @description End the sweep when Optuna's terminator judges it converged: the regret bound (a Gaussian process's bound on how much better than the best completed trial the space could still do) falls below threshold_ratio (1%) of its median over the trials after the first min_trials/2. Asked at most every 2 s; trials still running are cancelled and an event says why the sweep ended. Not with a grid; an extension of the sweep drops it.
             * @default null
             */
            converged: components["schemas"]["Converged"] | null;
        };
        /** SweepEnded */
        SweepEnded: {
            state: components["schemas"]["ExperimentState"];
        };
        /**
         * SweepStart
         * @description What a driver starts from: the sweep's state, spec and extensions, and the Tune ids of
         *     its stored trials, final and not.
         */
        SweepStart: {
            state: components["schemas"]["ExperimentState"];
            /** Spec */
            spec: {
                [key: string]: unknown;
            };
            /** Extensions */
            extensions: number;
            /** Finished */
            finished?: string[];
            /** Unfinished */
            unfinished?: string[];
        };
        /**
         * TensorBoardRun
         * @description One trial as a TensorBoard run.
         */
        TensorBoardRun: {
            /** Trial Id */
            trial_id: number;
            /**
             * Number
             * @description The trial's number in its sweep (1 first).
             */
            number: number;
            state: components["schemas"]["TrialState"];
            /**
             * Name
             * @description The run's name: `#<number>` and the config keys that differ between the sweep's trials, e.g. `#3 lr=0.0123 optimizer=adam`.
             */
            name: string;
            /**
             * Logdir
             * @description Where its event files are: a path or URI under the server's storage URI.
             */
            logdir: string;
        };
        /**
         * TensorBoardRuns
         * @description An experiment's trials as TensorBoard runs, by number.
         */
        TensorBoardRuns: {
            /** Experiment Id */
            experiment_id: string;
            /** Runs */
            runs: components["schemas"]["TensorBoardRun"][];
        };
        /**
         * Timeline
         * @description When each trial ran and when it waited for resources (optuna-dashboard's timeline).
         *
         *     Example: ``GET /api/v1/experiments/exp-1/timeline?limit=100`` answers the 100 latest
         *     trials, newest first, with ``total_trials`` and ``truncated`` saying whether any were left
         *     out.
         */
        Timeline: {
            /**
             * Total Trials
             * @description The sweep's trials, all of them.
             */
            total_trials: number;
            /**
             * Limit
             * @description The most trials answered (the request's `limit`).
             */
            limit: number;
            /**
             * Truncated
             * @description More trials exist than `trials` holds: the older ones are left out.
             */
            truncated: boolean;
            /**
             * Trials
             * @description The latest trials, by number, newest first.
             */
            trials: components["schemas"]["TimelineTrial"][];
        };
        /** TimelineTrial */
        TimelineTrial: {
            /** Trial Id */
            trial_id: number;
            /**
             * Trial Number
             * @description The trial's number in its experiment (1 first).
             */
            trial_number: number;
            state: components["schemas"]["TrialState"];
            /**
             * Started At
             * @description When the driver started it.
             */
            started_at: string | null;
            /**
             * Finished At
             * @description When it ended; null while it has not.
             */
            finished_at: string | null;
            /**
             * Waits
             * @description Its waits for resources, oldest first.
             */
            waits: components["schemas"]["TrialWait"][];
        };
        /** TokenRead */
        TokenRead: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** @description `admin`: every project and the service's own settings; otherwise the highest of its project roles. */
            role: components["schemas"]["Role"];
            /**
             * Projects
             * @description Its role in each project it may see (an admin token: none listed, all of them).
             */
            projects?: {
                [key: string]: components["schemas"]["Role"];
            };
            /** Prefix */
            prefix: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Last Used At */
            last_used_at: string | null;
            /** Revoked At */
            revoked_at: string | null;
        };
        /**
         * TrialClock
         * @description A running trial's clock in its sweep's read: whether it waits for resources and since
         *     when, and when it last reported (what the web UI says a stuck sweep is doing).
         */
        TrialClock: {
            /** Trial Id */
            trial_id: number;
            /** Trial Number */
            trial_number: number;
            /** Iteration */
            iteration: number;
            /** Started At */
            started_at: string | null;
            /**
             * Last Reported At
             * @description Its latest result's; null before one.
             */
            last_reported_at: string | null;
            /**
             * Waiting For
             * @description As TrialRead's: what its worker group waits for.
             */
            waiting_for: string | null;
            /**
             * Waiting Since
             * @description When that wait began; null when none.
             */
            waiting_since: string | null;
        };
        /** TrialEnded */
        TrialEnded: {
            /** Tune Id */
            tune_id: string;
            state: components["schemas"]["TrialState"];
            /** Error */
            error?: string | null;
        };
        /**
         * TrialHeld
         * @description One lease of the trial's worker group, as the gate counts it: stored (again, as it goes
         *     on) in the compute ledger.
         */
        TrialHeld: {
            /** Tune Id */
            tune_id: string;
            segment: components["schemas"]["HeldSegment"];
        };
        /** TrialLogs */
        TrialLogs: {
            /**
             * Lines
             * @description Oldest first.
             */
            lines: components["schemas"]["LogLine"][];
            /**
             * Cursor
             * @description Pass back as `after` to get only newer lines.
             */
            cursor: string;
            /**
             * More
             * @description More lines are waiting: ask again at once.
             */
            more: boolean;
            /**
             * Attempts
             * @description The attempts there are logs of.
             */
            attempts: number[];
            /**
             * Ranks
             * @description The ranks there are logs of (in the chosen attempts).
             */
            ranks: number[];
            /**
             * Dropped
             * @description Lines of the chosen streams not kept (past the head, before the latest lines: RAYSWEEP_TRIAL_LOG_MAX_BYTES).
             */
            dropped: number;
            /**
             * Running
             * @description The trial may still write more.
             */
            running: boolean;
        };
        /** TrialRead */
        TrialRead: {
            /** Id */
            id: number;
            /**
             * Number
             * @description The trial's place in its experiment: 1 for the first trial created, then 2, 3, ... (the web UI names trials by it; `id` is the API's key).
             */
            number: number;
            /** Tune Trial Id */
            tune_trial_id: string;
            state: components["schemas"]["TrialState"];
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /** Iteration */
            iteration: number;
            /** Last Metric */
            last_metric: number | null;
            /** Best Metric */
            best_metric: number | null;
            /**
             * Objective Values
             * @description The latest result's value of each objective and constrained metric.
             */
            objective_values?: {
                [key: string]: number | null;
            } | null;
            /**
             * Feasible
             * @description Whether the latest result keeps the spec's constraints; null without constraints. An infeasible trial is never the best and never promoted.
             */
            feasible?: boolean | null;
            /**
             * Notes
             * @description A member's notes on the trial.
             */
            notes?: string | null;
            /**
             * Space Version
             * @description The version of the sweep's search space the trial was sampled from (see the experiment's `search_spaces`; 1 until an extension changes the space).
             * @default 1
             */
            space_version: number;
            /** Experiment Id */
            experiment_id: string;
            /** Checkpoint Uri */
            checkpoint_uri: string | null;
            /** Restarts */
            restarts: number;
            /** Error */
            error: string | null;
            /**
             * Waiting For
             * @description Set while the trial's worker group waits for cluster resources: what it needs and what is free (a running trial at iteration 0 with this set is queued, not stuck).
             */
            waiting_for?: string | null;
            /**
             * Waiting Since
             * @description With waiting_for: when this wait began (its `trial_waiting` event).
             */
            waiting_since?: string | null;
            /**
             * Last Reported At
             * @description When its latest result was reported; null before its first.
             */
            last_reported_at?: string | null;
            /**
             * Early Stopping
             * @description The latest early-stopping decision about this trial, in one line, as the scheduler made it: why it was pruned, paused, promoted or went on.
             */
            early_stopping?: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Started At */
            started_at: string | null;
            /** Finished At */
            finished_at: string | null;
        };
        /**
         * TrialRestarted
         * @description Ray Train restarted the trial's worker group ``count`` times (from its latest checkpoint).
         */
        TrialRestarted: {
            /** Tune Id */
            tune_id: string;
            /** Reason */
            reason: string;
            /**
             * Count
             * @default 1
             */
            count: number;
        };
        /** TrialStarted */
        TrialStarted: {
            /** Tune Id */
            tune_id: string;
            /** Config */
            config: {
                [key: string]: unknown;
            };
        };
        /**
         * TrialState
         * @enum {string}
         */
        TrialState: "pending" | "running" | "paused" | "completed" | "pruned" | "failed" | "cancelled";
        /** TrialSummary */
        TrialSummary: {
            /** Id */
            id: number;
            /**
             * Number
             * @description The trial's place in its experiment: 1 for the first trial created, then 2, 3, ... (the web UI names trials by it; `id` is the API's key).
             */
            number: number;
            /** Tune Trial Id */
            tune_trial_id: string;
            state: components["schemas"]["TrialState"];
            /** Config */
            config: {
                [key: string]: unknown;
            };
            /** Iteration */
            iteration: number;
            /** Last Metric */
            last_metric: number | null;
            /** Best Metric */
            best_metric: number | null;
            /**
             * Objective Values
             * @description The latest result's value of each objective and constrained metric.
             */
            objective_values?: {
                [key: string]: number | null;
            } | null;
            /**
             * Feasible
             * @description Whether the latest result keeps the spec's constraints; null without constraints. An infeasible trial is never the best and never promoted.
             */
            feasible?: boolean | null;
            /**
             * Notes
             * @description A member's notes on the trial.
             */
            notes?: string | null;
            /**
             * Space Version
             * @description The version of the sweep's search space the trial was sampled from (see the experiment's `search_spaces`; 1 until an extension changes the space).
             * @default 1
             */
            space_version: number;
        };
        /**
         * TrialWait
         * @description A time the trial's worker group waited for the cluster to place it.
         */
        TrialWait: {
            /**
             * Since
             * Format: date-time
             * @description When the wait began (its `trial_waiting` event).
             */
            since: string;
            /**
             * Until
             * @description When it ended: its `trial_placed` event (the gate placed its workers; a wait stored before that event existed: the trial's next result or event after it), else the trial's end; null while it goes on.
             */
            until: string | null;
            /**
             * Ongoing
             * @description The trial waits now: this is its current wait.
             */
            ongoing: boolean;
        };
        /**
         * TrialWaiting
         * @description The trial's worker group waits for resources (``reason``), or no longer does (None).
         */
        TrialWaiting: {
            /** Tune Id */
            tune_id: string;
            /** Reason */
            reason: string | null;
        };
        /**
         * TrialYielded
         * @description The trial's worker group stopped at its checkpoint at ``iteration`` to yield its workers to
         *     a project below its fair share; the trial waits for a slot and resumes from there.
         */
        TrialYielded: {
            /** Tune Id */
            tune_id: string;
            /** Iteration */
            iteration: number;
        };
        /** Uniform */
        Uniform: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "uniform";
            /** Low */
            low: number;
            /** High */
            high: number;
        };
        /**
         * Usage
         * @description Compute held: workers, and the CPUs and GPUs they reserved, times the seconds held.
         */
        Usage: {
            /**
             * Worker Seconds
             * @default 0
             */
            worker_seconds: number;
            /**
             * Cpu Seconds
             * @default 0
             */
            cpu_seconds: number;
            /**
             * Gpu Seconds
             * @default 0
             */
            gpu_seconds: number;
        };
        /** UsageRead */
        UsageRead: {
            /**
             * Start
             * Format: date-time
             */
            start: string;
            /**
             * End
             * Format: date-time
             */
            end: string;
            total: components["schemas"]["Usage"];
            /** By Project */
            by_project: {
                [key: string]: components["schemas"]["Usage"];
            };
            /**
             * By Experiment
             * @description Per sweep (its final runs count towards it).
             */
            by_experiment: {
                [key: string]: components["schemas"]["Usage"];
            };
            /**
             * By Day
             * @description Per UTC day, `YYYY-MM-DD`.
             */
            by_day: {
                [key: string]: components["schemas"]["Usage"];
            };
            /**
             * By Trial
             * @description Per trial id (a final run's counts in no trial's).
             */
            by_trial?: {
                [key: string]: components["schemas"]["Usage"];
            };
        };
        /**
         * WebhookCreate
         * @description A webhook of a project: ``events`` are POSTed to ``url``, signed with ``secret``.
         */
        WebhookCreate: {
            /**
             * Url
             * @description Where deliveries are POSTed (http or https). Treated as a secret: user info, query values and a Slack webhook's path are never shown again.
             */
            url: string;
            /**
             * Events
             * @description The events it is told about.
             */
            events: components["schemas"]["WebhookEvent"][];
            /**
             * Secret
             * @description The HMAC-SHA256 key of the signature (16-256 characters); omitted: the server makes one and shows it once, in this response.
             */
            secret?: string | null;
            /**
             * Format
             * @description `json` (default): the event as JSON; `slack`: a Slack incoming-webhook body (`{"text": ...}`) with the same signature headers.
             * @default json
             * @enum {string}
             */
            format: "json" | "slack";
            /**
             * Enabled
             * @default true
             */
            enabled: boolean;
        };
        /** WebhookCreated */
        WebhookCreated: {
            /** Id */
            id: number;
            /** Project */
            project: string;
            /**
             * Url
             * @description The URL, with its secret parts shown as `***`.
             */
            url: string;
            /**
             * Url Redacted
             * @description Whether `url` hides parts of the stored URL.
             */
            url_redacted: boolean;
            /** Events */
            events: components["schemas"]["WebhookEvent"][];
            /**
             * Format
             * @enum {string}
             */
            format: "json" | "slack";
            /** Enabled */
            enabled: boolean;
            /**
             * Secret Hint
             * @description The secret's last four characters, after `…`.
             */
            secret_hint: string;
            /** Created By */
            created_by: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /**
             * Secret
             * @description The secret the server made (shown this once); null when the request gave one.
             */
            secret: string | null;
        };
        /**
         * WebhookEvent
         * @description What a webhook can ask to be told about.
         * @enum {string}
         */
        WebhookEvent: "sweep.completed" | "sweep.failed" | "sweep.cancelled" | "sweep.budget_spent" | "sweep.converged" | "trial.failed" | "final_run.completed" | "final_run.failed" | "model_version.created" | "alias.moved" | "schedule.firing_failed" | "schedule.firing_skipped";
        /** WebhookRead */
        WebhookRead: {
            /** Id */
            id: number;
            /** Project */
            project: string;
            /**
             * Url
             * @description The URL, with its secret parts shown as `***`.
             */
            url: string;
            /**
             * Url Redacted
             * @description Whether `url` hides parts of the stored URL.
             */
            url_redacted: boolean;
            /** Events */
            events: components["schemas"]["WebhookEvent"][];
            /**
             * Format
             * @enum {string}
             */
            format: "json" | "slack";
            /** Enabled */
            enabled: boolean;
            /**
             * Secret Hint
             * @description The secret's last four characters, after `…`.
             */
            secret_hint: string;
            /** Created By */
            created_by: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * WebhookUpdate
         * @description The fields given are changed; ``secret`` rotates the signing key.
         */
        WebhookUpdate: {
            /**
             * Url
             * @description Where deliveries are POSTed (http or https). Treated as a secret: user info, query values and a Slack webhook's path are never shown again.
             */
            url?: string | null;
            /** Events */
            events?: components["schemas"]["WebhookEvent"][] | null;
            /** Secret */
            secret?: string | null;
            /** Format */
            format?: ("json" | "slack") | null;
            /** Enabled */
            enabled?: boolean | null;
        };
        /** WorkerFailure */
        WorkerFailure: {
            /** Message */
            message: string;
        };
        /**
         * History
         * @description The finished trials' metric in the order they ended, with the best so far.
         */
        raysweep__analysis__History: {
            /** Metric */
            metric: string;
            /** Mode */
            mode: string;
            /**
             * Finished Trials
             * @description Trials that ended with a metric value. Past `max_points`, every point where the best improved and an even spread of the rest are sent, in order.
             */
            finished_trials: number;
            /** Points */
            points: components["schemas"]["HistoryPoint"][];
            /**
             * Edf
             * @description The empirical distribution of the finished trials' values (Optuna's EDF plot), failed and infeasible ones left out: (value, fraction of the trials at or below it), ascending, at most 200 points at evenly spaced ranks, the lowest and highest always among them.
             */
            edf?: [
                number,
                number
            ][];
            /**
             * Edf Trials
             * @description The trials the distribution is of: finished, not failed, feasible.
             * @default 0
             */
            edf_trials: number;
        };
        /**
         * History
         * @description What a Tune run starts from when it is not a sweep's first from scratch: an extension's
         *     (its own stored trials), or a warm-started sweep's (other sweeps' finished trials).
         */
        service__usecases__extension__History: {
            /** Evaluated */
            evaluated?: components["schemas"]["Evaluated"][];
            /** Continuing */
            continuing?: [
                string,
                {
                    [key: string]: unknown;
                },
                number
            ][];
            /**
             * New Samples
             * @default 0
             */
            new_samples: number;
            /**
             * Extends
             * @default true
             */
            extends: boolean;
            /**
             * Left Out
             * @default 0
             */
            left_out: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    healthz_healthz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: string;
                    };
                };
            };
        };
    };
    readyz_readyz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
        };
    };
    list_experiments_api_v1_experiments_get: {
        parameters: {
            query?: {
                /** @description Only this project's (default: every project the token has a role in). */
                project?: string | null;
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Filter by state (repeatable). */
                state?: components["schemas"]["ExperimentState"][];
                /** @description Filter by `key:value` (repeatable, at most 16); an experiment matches when it has every pair. */
                label?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ExperimentRead_"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    submit_api_v1_experiments_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExperimentSpec"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentCreated"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_experiment_api_v1_experiments__experiment_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_api_v1_experiments__experiment_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancel_api_v1_experiments__experiment_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    put_notes_api_v1_experiments__experiment_id__notes_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotesUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    pause_api_v1_experiments__experiment_id__pause_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    resume_api_v1_experiments__experiment_id__resume_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    extend_api_v1_experiments__experiment_id__extend_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ExtendRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    events_api_v1_experiments__experiment_id__events_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Only events with a larger id. */
                after?: number;
                /** @description Only this trial's events. */
                trial?: number | null;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_EventRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_trials_api_v1_experiments__experiment_id__trials_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Filter by state (repeatable). */
                state?: components["schemas"]["TrialState"][];
                /** @description `KEY OP VALUE` (repeatable, all must hold): KEY a config key (`lr`, or `config.iteration` where a column shares the name) or `best_metric`, `last_metric`, `iteration`, `space_version` (the search-space version a trial was sampled from); OP one of `= != < <= > >=`; a number compares as a number, other text as text (`=`/`!=` only). E.g. `lr>0.01`, `optimizer=adam`. */
                where?: string[];
                /** @description `best_metric`, `last_metric`, `iteration`, `created_at`, or `config.<key>` (numbers by value, then text); trials without it last. */
                sort?: string;
                /** @description `best`: best metric first for the experiment's mode. */
                order?: "best" | "asc" | "desc";
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_TrialRead_"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_trial_api_v1_trials__trial_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    put_notes_api_v1_trials__trial_id__notes_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotesUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    results_api_v1_trials__trial_id__results_get: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Smallest iteration. */
                first?: number | null;
                /** @description Largest iteration. */
                last?: number | null;
            };
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ResultRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    checkpoints_api_v1_trials__trial_id__checkpoints_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    decisions_api_v1_trials__trial_id__decisions_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RungDecisionRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exploits_api_v1_experiments__experiment_id__exploits_get: {
        parameters: {
            query?: {
                /** @description Only this trial's exploits. */
                trial_id?: number | null;
                limit?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExploitRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    runs_api_v1_experiments__experiment_id__tensorboard_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TensorBoardRuns"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    trial_logs_api_v1_trials__trial_id__logs_get: {
        parameters: {
            query?: {
                /** @description One rank only. */
                rank?: number | null;
                /** @description One attempt only (1 first; -1: the latest). */
                attempt?: number | null;
                /** @description The `cursor` of an earlier answer: only newer lines. */
                after?: string | null;
                limit?: number;
                /** @description The last `limit` lines (newer than `after`) instead of the first; the `cursor` then passes every line up to now, so following from it gives only new ones. */
                tail?: boolean;
                /** @description Follow: while it runs and nothing is newer than `after`, wait up to this long for a line (a long poll) before answering. */
                wait_s?: number;
            };
            header?: never;
            path: {
                trial_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialLogs"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_logs_api_v1_final_runs__final_run_id__logs_get: {
        parameters: {
            query?: {
                /** @description One rank only. */
                rank?: number | null;
                /** @description One attempt only (1 first; -1: the latest). */
                attempt?: number | null;
                /** @description The `cursor` of an earlier answer: only newer lines. */
                after?: string | null;
                limit?: number;
                /** @description The last `limit` lines (newer than `after`) instead of the first; the `cursor` then passes every line up to now, so following from it gives only new ones. */
                tail?: boolean;
                /** @description Follow: while it runs and nothing is newer than `after`, wait up to this long for a line (a long poll) before answering. */
                wait_s?: number;
            };
            header?: never;
            path: {
                final_run_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialLogs"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    driver_logs_api_v1_experiments__experiment_id__driver_logs_get: {
        parameters: {
            query?: {
                /** @description One attempt only (1 first; -1: the latest). */
                attempt?: number | null;
                /** @description The `cursor` of an earlier answer: only newer lines. */
                after?: string | null;
                limit?: number;
                /** @description The last `limit` lines (newer than `after`) instead of the first; the `cursor` then passes every line up to now, so following from it gives only new ones. */
                tail?: boolean;
                /** @description Follow: while it runs and nothing is newer than `after`, wait up to this long for a line (a long poll) before answering. */
                wait_s?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialLogs"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    me_api_v1_me_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    curves_api_v1_experiments__experiment_id__curves_get: {
        parameters: {
            query?: {
                /** @description Series at most. */
                max_trials?: number;
                /** @description Points per series. */
                max_points?: number;
                /** @description A reported metric to draw (see `metrics`); default: the sweep's. */
                metric?: string | null;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Curves"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    history_api_v1_experiments__experiment_id__history_get: {
        parameters: {
            query?: {
                /** @description Points at most. */
                max_points?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["raysweep__analysis__History"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rungs_api_v1_experiments__experiment_id__rungs_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rungs"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    configs_api_v1_experiments__experiment_id__configs_get: {
        parameters: {
            query?: {
                /** @description Trials at most, best first. */
                limit?: number;
                /** @description Which trials past `limit`: `best` (the default), `random` (seeded by the sweep: the same ones each time) or `all` (sweeps of at most `all_max` trials; else 422). */
                sample?: components["schemas"]["ConfigSample"];
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigTable"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    importance_api_v1_experiments__experiment_id__importance_get: {
        parameters: {
            query?: {
                /** @description `ped_anova` (Optuna's PED-ANOVA, the default) or `fanova`. */
                evaluator?: components["schemas"]["ImportanceEvaluator"];
                /** @description Compare the trials at this rung (one of `iterations`; else 422); default: the deepest that a quarter of the trials, and at least 5, reached. */
                at_iteration?: number | null;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Importance"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    pareto_api_v1_experiments__experiment_id__pareto_get: {
        parameters: {
            query?: {
                /** @description Trials at most: the front, then the rest. */
                limit?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pareto"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    timeline_api_v1_experiments__experiment_id__timeline_get: {
        parameters: {
            query?: {
                /** @description Trials at most, the latest first. */
                limit?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Timeline"];
                };
            };
            /** @description Not modified: the `If-None-Match` request header named this ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updates_api_v1_experiments__experiment_id__updates_get: {
        parameters: {
            query?: {
                /** @description `cursor` of the previous answer. */
                after?: number;
                /** @description Largest event id seen. */
                events_after?: number;
                /** @description Results at most. */
                limit?: number;
            };
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExperimentUpdates"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_code_api_v1_code_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Only this project's (default: every project the token has a role in). */
                project?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_CodePackageRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    upload_api_v1_code_post: {
        parameters: {
            query?: {
                /** @description The project that will hold it (default: the token's one project for a token bound to one, else `default`). */
                project?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/zip": string;
                "application/gzip": string;
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The same package was uploaded before */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodePackageRead"];
                };
            };
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodePackageRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_code_api_v1_code__sha256__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sha256: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodePackageRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    promote_api_v1_experiments__experiment_id__promote_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PromotionOverrides"] | null;
            };
        };
        responses: {
            /** @description Nothing new to promote. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_FinalRunRead_"];
                };
            };
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_FinalRunRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_runs_api_v1_experiments__experiment_id__final_runs_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                experiment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_FinalRunRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_api_v1_final_runs__final_run_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                final_run_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FinalRunRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancel_final_run_api_v1_final_runs__final_run_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                final_run_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FinalRunRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_results_api_v1_final_runs__final_run_id__results_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                final_run_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ResultRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_models_api_v1_models_get: {
        parameters: {
            query?: {
                /** @description Only this project's (default: every project the token has a role in). */
                project?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    versions_api_v1_models__name__versions_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ModelVersionRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    version_api_v1_models__name__versions__version__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelVersionRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_alias_api_v1_models__name__aliases__alias__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                alias: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AliasRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    set_alias_api_v1_models__name__aliases__alias__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                alias: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AliasSet"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AliasRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_alias_api_v1_models__name__aliases__alias__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                alias: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deployment_api_v1_models__name__versions__version__deploy_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deploy_api_v1_models__name__versions__version__deploy_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    undeploy_api_v1_models__name__versions__version__deploy_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_clusters_api_v1_clusters_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClusterRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_schedules_api_v1_schedules_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Only this project's (default: every project the token has a role in). */
                project?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ScheduleRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_api_v1_schedules_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_schedule_api_v1_schedules__schedule_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_api_v1_schedules__schedule_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_api_v1_schedules__schedule_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    firings_api_v1_schedules__schedule_id__firings_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                schedule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ScheduleFiringRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_projects_api_v1_projects_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_project_api_v1_projects_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_project_api_v1_projects__name__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_project_api_v1_projects__name__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    usage_api_v1_usage_get: {
        parameters: {
            query?: {
                /** @description Only this project's (default: every project the token has a role in). */
                project?: string | null;
                /** @description Only this sweep's (and its final runs'). */
                experiment?: string | null;
                /** @description ISO time (default: the first of this UTC month). */
                from?: string | null;
                /** @description ISO time (default: now). */
                to?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_webhooks_api_v1_projects__project__webhooks_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRead"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    create_webhook_api_v1_projects__project__webhooks_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    get_webhook_api_v1_projects__project__webhooks__webhook_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    delete_webhook_api_v1_projects__project__webhooks__webhook_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    update_webhook_api_v1_projects__project__webhooks__webhook_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    send_test_api_v1_projects__project__webhooks__webhook_id__test_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryRead"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    list_deliveries_api_v1_projects__project__webhooks__webhook_id__deliveries_get: {
        parameters: {
            query?: {
                /** @description Page size. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                project: string;
                webhook_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_DeliveryRead_"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    metrics_metrics_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=1.0.0; charset=utf-8": unknown;
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sweep_api_v1_jobs_sweep_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SweepStart"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    control_request_api_v1_jobs_sweep_request_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ControlRequest"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    decisions_api_v1_jobs_sweep_decisions_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": [
                        string,
                        components["schemas"]["RungDecided"]
                    ][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exploits_api_v1_jobs_sweep_exploits_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExploitDecided"][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    history_api_v1_jobs_sweep_history_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["service__usecases__extension__History"] | null;
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completed_api_v1_jobs_sweep_completed_get: {
        parameters: {
            query?: {
                /** @description Trials the last verdict saw. */
                judged?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": [
                        {
                            [key: string]: unknown;
                        },
                        number
                    ][];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    budget_api_v1_jobs_sweep_budget_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BudgetSpent"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    share_api_v1_jobs_sweep_share_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectShare"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    records_api_v1_jobs_sweep_records_post: {
        parameters: {
            query?: {
                /** @description The batch's place among the driver job's batches (1, 2, ...): a batch sent again with a sequence already stored is not stored twice. */
                sequence?: number | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": (components["schemas"]["TrialStarted"] | components["schemas"]["ResultReported"] | components["schemas"]["TrialEnded"] | components["schemas"]["TrialRestarted"] | components["schemas"]["ReservationReclaimed"] | components["schemas"]["TrialYielded"] | components["schemas"]["TrialWaiting"] | components["schemas"]["RungDecided"] | components["schemas"]["ExploitDecided"] | components["schemas"]["TrialHeld"])[];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    prune_api_v1_jobs_sweep_prune_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pruned"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    event_api_v1_jobs_sweep_events_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DriverEvent"];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    finish_api_v1_jobs_sweep_finish_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DriverOutcome"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SweepEnded"];
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_start_api_v1_jobs_final_run_start_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FinalRunJob"] | null;
                };
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_epoch_api_v1_jobs_final_run_epochs_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FinalRunEpoch"];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_worker_failure_api_v1_jobs_final_run_worker_failures_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkerFailure"];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_usage_api_v1_jobs_final_run_usage_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HeldSegment"][];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    final_run_finish_api_v1_jobs_final_run_finish_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FinalRunEnd"];
            };
        };
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is not valid JSON, or not the content type the route takes */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing, unknown or revoked token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The token's role may not do this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such object */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not allowed in the object's current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than the route's limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid input; every problem is listed in `details` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database did not answer in time or cannot be reached, or the server's view slots stayed taken (`busy`); retry after `Retry-After` seconds */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
