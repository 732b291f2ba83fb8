// The API's JSON shapes, by the names the UI gives them: each the OpenAPI schema it is, from
// api-schema.ts (generated from the API's document: never written by hand here). Below them, the
// few shapes that are the UI's own.
import type { components } from "./api-schema";

type Schemas = components["schemas"];

/** An answer as the API sends it. Every field of a response schema is in every answer (no route
 *  leaves out unset or null fields), but the document marks a field with a default as optional:
 *  pydantic writes schemas for what a client may send. Deep, so a schema within is whole too. */
export type Sent<T> = T extends object ? { [K in keyof T]-?: Sent<T[K]> } : T;
type Read<Name extends keyof Schemas> = Sent<Schemas[Name]>;

export type ExperimentState = Schemas["ExperimentState"];
export type TrialState = Schemas["TrialState"];
export type Role = Schemas["Role"];
export type FinalRunState = Schemas["FinalRunState"];
export type DeliveryState = Schemas["DeliveryState"];
export type WebhookEvent = Schemas["WebhookEvent"];
export type ConfigSample = Schemas["ConfigSample"];

/** A page of a list: the API's pages differ only in what their items are. */
export type Page<T> = Omit<Read<"Page_ExperimentRead_">, "items"> & { items: T[] };

export type TrialSummary = Read<"TrialSummary">;
export type Trial = Read<"TrialRead">;
export type Experiment = Read<"ExperimentRead">;
/** One version of a sweep's search space: the submitted one (extension 0), then each an
 *  extension set. */
export type SpaceVersion = Read<"SpaceVersion">;
/** A 422's problem: where (``search_space.lr``, ``earlier_values.dropout``) and what. */
export type Problem = Read<"Problem">;
/** A running trial's clock in its sweep's read: its wait and its latest report. */
export type TrialClock = Read<"TrialClock">;
export type EventItem = Read<"EventRead">;

export type CurveSeries = Read<"CurveSeries">;
export type Curves = Read<"Curves">;
export type Rung = Read<"Rung">;
export type Rungs = Read<"Rungs">;
export type ConfigRow = Read<"ConfigRow">;
export type ConfigTable = Read<"ConfigTable">;
export type ParameterImportance = Read<"ParameterImportance">;
export type Importance = Read<"Importance">;
export type ImportanceWarning = Read<"ImportanceWarning">;
export type ObjectiveRead = Read<"ObjectiveRead">;
export type ParetoTrial = Read<"ParetoTrial">;
export type Pareto = Read<"Pareto">;
export type HistoryPoint = Read<"HistoryPoint">;
export type History = Read<"raysweep__analysis__History">;
export type ResultPoint = Read<"ResultPoint">;
export type Updates = Read<"ExperimentUpdates">;
export type ResultItem = Read<"ResultRead">;
export type Checkpoint = Read<"CheckpointRead">;
export type Me = Read<"TokenRead">;

export type Usage = Read<"Usage">;
export type UsageReport = Read<"UsageRead">;
export type Project = Read<"ProjectRead">;
export type FinalRun = Read<"FinalRunRead">;
export type ModelSummary = Read<"ModelRead">;
/** ``comparison`` is a free-form object in the API: the UI reads it as a ``Comparison``. */
export type ModelVersion = Omit<Read<"ModelVersionRead">, "comparison"> & { comparison: Comparison | null };
export type RetrainSettings = Read<"RetrainSettings">;
export type ScheduleFiring = Read<"ScheduleFiringRead">;
export type Schedule = Read<"ScheduleRead">;
export type Cluster = Read<"ClusterRead">;

/** A line a trial's worker wrote (``GET /trials/{id}/logs``). */
export type LogLine = Read<"LogLine">;
export type TrialLogs = Read<"TrialLogs">;

export type Webhook = Read<"WebhookRead">;
export type WebhookCreated = Read<"WebhookCreated">;
export type Delivery = Read<"DeliveryRead">;

/** When a sweep's latest trials ran and waited (``GET /experiments/{id}/timeline``). */
export type TrialWait = Read<"TrialWait">;
export type TimelineTrial = Read<"TimelineTrial">;
export type TimelineData = Read<"Timeline">;

// the UI's own

export type Config = Record<string, unknown>;

/** A model version's challenge of an alias's champion, as the registry records it. */
export interface Comparison {
  alias: string; metric: string; mode: string; margin: number; challenger: number | null;
  champion: number | null; champion_version: number | null; promoted: boolean; reason: string;
}

/** Every value of a string union, in the order written (a menu's, a legend's): the compiler
 *  refuses a list that misses one of the API's values or names one it lacks.
 *  ``everyValue<TrialState>({ running: true, pending: true, ... })`` */
export function everyValue<T extends string>(values: Record<T, true>): T[] {
  return Object.keys(values) as T[];
}
/** One exploit of population-based training: a trial continued from a copy of another's
 *  checkpoint with a new config. */
export type Exploit = Read<"ExploitRead">;
