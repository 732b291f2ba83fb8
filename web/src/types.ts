// The API's JSON shapes. Source of truth: raysweep's schema modules (schemas.py, lifecycle.py,
// analysis.py, timeline.py, projects.py, schedules.py, ...). tests/test_web_types.py checks each
// interface against the OpenAPI schema it mirrors (named there): a field here must be one the API
// sends, and each state union the API's values.

export type ExperimentState =
  | "queued" | "running" | "pausing" | "paused" | "cancelling" | "completed" | "failed" | "cancelled";
export type TrialState = "pending" | "running" | "paused" | "completed" | "pruned" | "failed" | "cancelled";
export type Role = "admin" | "member" | "viewer";
export type Config = Record<string, unknown>;

export interface Page<T> { items: T[]; total: number; limit: number; offset: number }

export interface TrialSummary {
  id: number; number: number; tune_trial_id: string; state: TrialState; config: Config;
  iteration: number; last_metric: number | null; best_metric: number | null;
  objective_values: Record<string, number | null> | null; feasible: boolean | null;
  notes: string | null;
  /** the version of its sweep's search space it was sampled from (1 until a change) */
  space_version: number;
}

export interface Trial extends TrialSummary {
  experiment_id: string; checkpoint_uri: string | null; restarts: number; error: string | null;
  waiting_for: string | null; waiting_since: string | null; last_reported_at: string | null;
  early_stopping: string | null;
  created_at: string; started_at: string | null; finished_at: string | null;
}

export interface Experiment {
  id: string; name: string; project: string; trainer: string; metric: string; mode: "min" | "max";
  state: ExperimentState; spec: Record<string, unknown>; labels: Record<string, string>;
  notes: string | null;
  error: string | null; driver_job_id: string | null; driver_restarts: number;
  extensions: number;
  /** every version of the search space, oldest first; null while it has its first only */
  search_spaces: SpaceVersion[] | null;
  created_at: string; updated_at: string; started_at: string | null; finished_at: string | null;
  best_metric: number | null; trial_counts: Partial<Record<TrialState, number>>;
  best_trial: TrialSummary | null; pareto_front: number[] | null;
  running: TrialClock[];
}

/** One version of a sweep's search space (raysweep/schemas.py SpaceVersion): the submitted
 *  one (extension 0), then each an extension set. */
export interface SpaceVersion {
  version: number; extension: number; search_space: Record<string, unknown>;
  added: Record<string, unknown>; removed: string[]; changed: string[];
}

/** A 422's problem: where (``search_space.lr``, ``earlier_values.dropout``) and what. */
export interface Problem { path: string; message: string }

/** A running trial's clock in its sweep's read: its wait and its latest report. */
export interface TrialClock {
  trial_id: number; trial_number: number; iteration: number; started_at: string | null;
  last_reported_at: string | null; waiting_for: string | null; waiting_since: string | null;
}

export interface EventItem {
  id: number; kind: string; message: string; trial_id: number | null; trial_number: number | null;
  data: Record<string, unknown>; created_at: string;
}

export interface CurveSeries { trial_id: number; trial_number: number; state: TrialState; config: Config; points: [number, number][] }
export interface Curves { metric: string; mode: string; metrics: string[]; total_trials: number; series: CurveSeries[]; cursor: number }

export interface Rung {
  milestone: number; reached: number; continued: number; stopped: number;
  paused: number; promoted: number; completed: number; cutoff: number | null;
}
export interface Rungs { scheduler: string; reduction_factor: number | null; rungs: Rung[] }

export interface ConfigRow { trial_id: number; trial_number: number; state: TrialState; metric: number | null; values: unknown[] }
export interface ConfigTable {
  metric: string; mode: string; total_trials: number; params: string[]; rows: ConfigRow[];
  sample: "best" | "random" | "all"; all_max: number;
}

export interface ParameterImportance { name: string; importance: number }
export interface Importance {
  evaluator: "ped_anova" | "fanova"; metric: string; mode: string; at_iteration: number | null; trials_used: number;
  importances: ParameterImportance[]; message: string | null;
  trials_reached: number; trials_reporting: number; iterations: number[]; warnings: ImportanceWarning[];
}
export interface ImportanceWarning { parameter: string; value: string; trials: number; compared: number; stopped_at: number; message: string }

export interface ObjectiveRead { metric: string; mode: "min" | "max" }
export interface ParetoTrial {
  trial_id: number; trial_number: number; config: Config; values: Record<string, number>; feasible: boolean | null; on_front: boolean;
}
export interface Pareto {
  objectives: ObjectiveRead[]; front: number[]; trials: ParetoTrial[]; completed_trials: number; message: string | null;
}

export interface HistoryPoint {
  trial_id: number; trial_number: number; order: number; state: TrialState; value: number; best: number | null; feasible: boolean | null;
}
export interface History {
  metric: string; mode: string; finished_trials: number; points: HistoryPoint[]; edf: [number, number][]; edf_trials: number;
}

export interface ResultPoint { id: number; trial_id: number; iteration: number; value: number | null }
export interface Updates {
  experiment: Experiment; results: ResultPoint[]; events: EventItem[]; cursor: number; more: boolean;
}

export interface ResultItem { iteration: number; metrics: Record<string, unknown>; reported_at: string }
export interface Checkpoint { iteration: number; uri: string; metric: number | null; created_at: string; deleted: boolean }
export interface Me { id: number; name: string; role: Role; projects: Record<string, Role> }

export interface Usage { worker_seconds: number; cpu_seconds: number; gpu_seconds: number }
export interface UsageReport {
  start: string; end: string; total: Usage; by_project: Record<string, Usage>;
  by_experiment: Record<string, Usage>; by_day: Record<string, Usage>; by_trial: Record<string, Usage>;
}
export interface Project {
  name: string; description: string | null; weight: number;
  max_workers: number | null; max_cpus: number | null; max_gpus: number | null; max_queued: number | null;
  monthly_worker_hours: number | null; monthly_gpu_hours: number | null;
  created_at: string; usage_this_month: Usage;
}

export type FinalRunState = "queued" | "running" | "cancelling" | "completed" | "failed" | "cancelled";
export interface FinalRun {
  id: number; experiment_id: string; trial_id: number; trial_number: number | null; rank: number; state: FinalRunState;
  config: Config; num_workers: number; epochs: number; model_name: string; cluster: string;
  restarts: number; error: string | null; metrics: Record<string, unknown> | null;
  test_metrics: Record<string, number> | null; model_version: number | null;
  purpose: "promotion" | "retrain";
}
export interface ModelSummary { name: string; project: string; latest_version: number; versions: number; aliases: Record<string, number> }
export interface ModelVersion {
  name: string; version: number; project: string; final_run_id: number; experiment_id: string; trial_id: number; trial_number: number | null;
  trainer: string; config: Config; metrics: Record<string, unknown>; test_metrics: Record<string, number> | null;
  checkpoint_uri: string; code_version: Record<string, string>; data_fingerprint: string | null;
  comparison: Comparison | null; aliases: string[]; created_at: string;
}
export interface Comparison {
  alias: string; metric: string; mode: string; margin: number; challenger: number | null;
  champion: number | null; champion_version: number | null; promoted: boolean; reason: string;
}

export interface RetrainSettings {
  model: string; alias: string; margin: number; epochs: number | null; num_workers: number | null;
  cluster: string | null; retune: { num_samples: number; warm_start_top: number } | null;
}
export interface ScheduleFiring {
  id: number; scheduled_for: string; fired_at: string; outcome: string;
  experiment_id: string | null; final_run_id: number | null; message: string;
}
export interface Schedule {
  id: string; name: string; project: string; kind: "sweep" | "retrain"; cron: string; timezone: string; enabled: boolean;
  overlap: string; misfire: string; template: Record<string, unknown> | null; retrain: RetrainSettings | null;
  next_run_at: string | null; created_by: string | null; created_at: string; last_firing: ScheduleFiring | null;
}

export interface Cluster { name: string; address: string; role: "sweep" | "final" | "both"; max_concurrent_jobs: number; authenticated: boolean }

/** A line a trial's worker wrote (``GET /trials/{id}/logs``; raysweep/logs.py). */
export interface LogLine { attempt: number; rank: number; stream: "stdout" | "stderr" | string; time: number; seq: number; text: string }
export interface TrialLogs {
  lines: LogLine[]; cursor: string; more: boolean; attempts: number[]; ranks: number[]; dropped: number; running: boolean;
}

// webhooks (raysweep/webhooks.py)
export type DeliveryState = "pending" | "delivered" | "failed";
export interface Webhook {
  id: number; project: string; url: string; url_redacted: boolean; events: string[]; format: "json" | "slack";
  enabled: boolean; secret_hint: string; created_by: string | null; created_at: string; updated_at: string;
}
export interface WebhookCreated extends Webhook { secret: string | null }
export interface Delivery {
  id: number; webhook_id: number; event: string; state: DeliveryState; attempts: number; response_code: number | null;
  error: string | null; payload: Record<string, unknown>; created_at: string; last_attempt_at: string | null;
  next_attempt_at: string | null; delivered_at: string | null;
}

/** When a sweep's latest trials ran and waited (``GET /experiments/{id}/timeline``;
 *  raysweep/timeline.py). */
export interface TrialWait { since: string; until: string | null; ongoing: boolean }
export interface TimelineTrial {
  trial_id: number; trial_number: number; state: TrialState; started_at: string | null; finished_at: string | null;
  waits: TrialWait[];
}
export interface TimelineData { total_trials: number; limit: number; truncated: boolean; trials: TimelineTrial[] }
