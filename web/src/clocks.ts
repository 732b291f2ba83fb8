// How long trials have run, waited and been silent: what shows a stuck sweep at a glance. Pure
// (no DOM), unit tested in clocks.test.ts.
import type { TrialClock } from "./types";

/** A running trial is "silent" once it has reported nothing for longer than this bound: three
 *  of its own iterations (as long as its reports so far took on average: a trainer whose epochs
 *  take 20 minutes is not stuck after 30), and never under ten minutes (a fast trial pauses for
 *  a checkpoint upload, a garbage collection or a restart; the bundled trainers report every few
 *  seconds to a minute). Before its first report the bound counts from its start. */
export const SILENT_FLOOR_MS = 10 * 60_000;
export const SILENT_ITERATIONS = 3;

const at = (iso: string | null): number | null => (iso === null ? null : new Date(iso).getTime());

/** "45 s", "31 min", "2 h 5 min", "3 d 4 h": a span at the precision a person reads it. */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** What a wait's reason says the trial waits for, in a few words ("CPU", "GPU", "its project's
 *  quota", "the cluster to grow"); the whole reason goes in the title beside it. */
export function waitingWhat(reason: string): string {
  if (/quota|budget/i.test(reason)) return "its project's quota";
  if (/cluster to grow/i.test(reason)) return "the cluster to grow";
  const needs = /needs ([^;]*)/.exec(reason)?.[1] ?? reason;
  const kinds = [...new Set([...needs.matchAll(/\b([A-Za-z_][\w-]*):/g)].map((m) => m[1]))];
  return kinds.length ? kinds.join(" and ") : "resources";
}

interface Clocked {
  iteration: number; started_at: string | null; last_reported_at: string | null;
  waiting_for: string | null; waiting_since: string | null;
}

/** The silence bound of one trial (SILENT_FLOOR_MS, SILENT_ITERATIONS), in ms. */
export function silentBound(trial: Clocked): number {
  const started = at(trial.started_at);
  const last = at(trial.last_reported_at);
  if (started === null || last === null || trial.iteration < 1) return SILENT_FLOOR_MS;
  const perIteration = Math.max(0, last - started) / trial.iteration;
  return Math.max(SILENT_FLOOR_MS, SILENT_ITERATIONS * perIteration);
}

/** How long a running trial has been silent past its bound (null: it is not): waiting for
 *  resources is not silence, the wait says why. */
export function silentFor(trial: Clocked, now: number = Date.now()): number | null {
  if (trial.waiting_for !== null) return null;
  const since = at(trial.last_reported_at) ?? at(trial.started_at);
  if (since === null) return null;
  const silent = now - since;
  return silent > silentBound(trial) ? silent : null;
}

/** How long a trial has waited for resources (null: it does not, or since when is unknown). */
export function waitedFor(trial: Clocked, now: number = Date.now()): number | null {
  const since = at(trial.waiting_since);
  return trial.waiting_for === null || since === null ? null : Math.max(0, now - since);
}

export interface Attention { waiting: string | null; silent: string | null }

/** A sweep's running trials in two lines for its header and list row: "1 trial waiting 31 min
 *  for CPU", "trial #4 silent for 58 min" (null where nothing is). */
export function attention(running: TrialClock[], now: number = Date.now()): Attention {
  const waiting = running.filter((t) => t.waiting_for !== null);
  let waitingLine: string | null = null;
  if (waiting.length) {
    const waits = waiting.map((t) => waitedFor(t, now) ?? 0);
    const longest = Math.max(...waits);
    const oldest = waiting[waits.indexOf(longest)];
    const kinds = [...new Set(waiting.map((t) => waitingWhat(t.waiting_for!)))].join(", ");
    if (waiting.length === 1) {
      waitingLine = `1 trial waiting${longest > 0 ? ` ${formatSpan(longest)}` : ""} for ${kinds}`;
    } else {
      const longestText = longest > 0 ? `, the longest ${formatSpan(longest)} (#${oldest.trial_number})` : "";
      waitingLine = `${waiting.length} trials waiting for ${kinds}${longestText}`;
    }
  }
  const silent = running
    .map((t) => ({ trial: t, ms: silentFor(t, now) }))
    .filter((s): s is { trial: TrialClock; ms: number } => s.ms !== null)
    .sort((a, b) => b.ms - a.ms);
  let silentLine: string | null = null;
  if (silent.length === 1) silentLine = `trial #${silent[0].trial.trial_number} silent for ${formatSpan(silent[0].ms)}`;
  else if (silent.length > 1) {
    silentLine = `${silent.length} trials silent, the longest #${silent[0].trial.trial_number} for ${formatSpan(silent[0].ms)}`;
  }
  return { waiting: waitingLine, silent: silentLine };
}

/** A trial's run time: start to end, or to now while it runs ("" before it started). */
export function duration(trial: { started_at: string | null; finished_at: string | null }, now: number = Date.now()): string {
  const started = at(trial.started_at);
  if (started === null) return "";
  return formatSpan((at(trial.finished_at) ?? now) - started);
}
