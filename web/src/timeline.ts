// The timeline's shape: each trial's bar and waits as times, and the time axis's ticks. Pure (no
// DOM), unit tested in timeline.test.ts.
import type { TimelineData, TrialState } from "./types";

export interface Span { from: number; to: number }
export interface TimelineRow {
  trialId: number; number: number; state: TrialState; run: Span; waits: (Span & { ongoing: boolean })[];
}

const time = (iso: string): number => new Date(iso).getTime();

/** One row per trial that has started, oldest (by number) first; a running trial's bar and an
 *  ongoing wait end at ``now``. ``start`` and ``end`` span them all. */
export function timelineRows(data: TimelineData, now: number = Date.now()): { rows: TimelineRow[]; start: number; end: number } {
  const rows: TimelineRow[] = [];
  for (const trial of [...data.trials].sort((a, b) => a.trial_number - b.trial_number)) {
    if (trial.started_at === null) continue;
    const from = time(trial.started_at);
    const to = Math.max(from, trial.finished_at === null ? now : time(trial.finished_at));
    rows.push({
      trialId: trial.trial_id, number: trial.trial_number, state: trial.state, run: { from, to },
      waits: trial.waits.map((w) => {
        const since = time(w.since);
        return { from: since, to: Math.max(since, w.until === null ? (w.ongoing ? now : to) : time(w.until)), ongoing: w.ongoing };
      }),
    });
  }
  const start = Math.min(...rows.map((r) => Math.min(r.run.from, ...r.waits.map((w) => w.from))));
  const end = Math.max(...rows.map((r) => Math.max(r.run.to, ...r.waits.map((w) => w.to))));
  return rows.length ? { rows, start, end: Math.max(end, start + 1000) } : { rows, start: now, end: now };
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const STEPS = [1, 2, 5, 10, 15, 30].map((s) => s * SECOND)
  .concat([1, 2, 5, 10, 15, 30].map((m) => m * MINUTE), [1, 2, 3, 6, 12, 24, 48, 168].map((h) => h * HOUR));

/** Ticks every round step (seconds, minutes, hours, days) from the start, about ``count`` of
 *  them: offsets in ms, labelled as the time since the start ("+30 s", "+2 min", "+1 h 30"). */
export function timeTicks(spanMs: number, count = 6): { offset: number; label: string }[] {
  const step = STEPS.find((s) => spanMs / s <= count) ?? Math.ceil(spanMs / count / (24 * HOUR)) * 24 * HOUR;
  const ticks = [];
  for (let offset = 0; offset <= spanMs; offset += step) ticks.push({ offset, label: offsetLabel(offset) });
  return ticks;
}

function offsetLabel(ms: number): string {
  if (ms === 0) return "0";
  if (ms < MINUTE) return `+${ms / SECOND} s`;
  if (ms < HOUR) return `+${Math.round(ms / MINUTE)} min`;
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.round((ms % HOUR) / MINUTE);
  if (hours < 48) return minutes ? `+${hours} h ${minutes}` : `+${hours} h`;
  return `+${Math.round(hours / 24)} d`;
}
