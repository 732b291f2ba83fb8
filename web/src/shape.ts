// Pure data shaping for the views: no DOM, no fetch, so it is unit tested (shape.test.ts).
import { everyValue, type Config, type ConfigRow, type CurveSeries, type ExperimentState, type ResultItem, type ResultPoint, type TrialState } from "./types";

export const TRIAL_STATES = everyValue<TrialState>({
  running: true, pending: true, paused: true, completed: true, pruned: true, failed: true, cancelled: true,
});

export const STATE_COLOURS: Record<TrialState, string> = {
  running: "#2563eb",
  pending: "#a3a3a3",
  paused: "#8b5cf6",
  completed: "#16a34a",
  pruned: "#f59e0b",
  failed: "#dc2626",
  cancelled: "#737373",
};

/** uPlot wants one shared x array and one y array per series, with nulls where a series has no point. */
export function alignSeries(series: Pick<CurveSeries, "points">[]): { xs: number[]; ys: (number | null)[][] } {
  const xSet = new Set<number>();
  for (const s of series) for (const [x] of s.points) xSet.add(x);
  const xs = [...xSet].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const column: (number | null)[] = new Array(xs.length).fill(null);
    for (const [x, y] of s.points) column[index.get(x)!] = y;
    return column;
  });
  return { xs, ys };
}

/** Exponential moving average of a curve's values, as TensorBoard smooths (debiased, so the
 *  start is not pulled towards zero); gaps stay gaps. ``weight`` 0 leaves the values as they are. */
export function smooth(values: (number | null)[], weight: number): (number | null)[] {
  if (weight <= 0) return values;
  let average = 0;
  let seen = 0;
  return values.map((value) => {
    if (value === null) return null;
    average = average * weight + (1 - weight) * value;
    seen += 1;
    return average / (1 - weight ** seen);
  });
}

/**
 * Adds live results to the drawn series (in place). Returns whether anything changed and the
 * trials the chart does not know yet (their config and state must be fetched).
 */
export function mergeResults(series: CurveSeries[], results: ResultPoint[]): { changed: boolean; unknown: number[] } {
  const byTrial = new Map(series.map((s) => [s.trial_id, s]));
  const unknown = new Set<number>();
  let changed = false;
  for (const result of results) {
    const target = byTrial.get(result.trial_id);
    if (!target) {
      unknown.add(result.trial_id);
      continue;
    }
    if (result.value === null || !Number.isFinite(result.value)) continue;
    const points = target.points;
    const at = points.findIndex(([x]) => x >= result.iteration);
    if (at === -1) points.push([result.iteration, result.value]);
    else if (points[at][0] === result.iteration) points[at] = [result.iteration, result.value];
    else points.splice(at, 0, [result.iteration, result.value]);
    changed = true;
  }
  return { changed, unknown: [...unknown] };
}

export interface ProgressSegment { state: TrialState; count: number; percent: number }

export const ENDED_STATES: TrialState[] = ["completed", "pruned", "failed", "cancelled"];

/** A sweep in one of these has ended: nothing of it changes until it is extended. */
export const SWEEP_ENDED: string[] = ["completed", "failed", "cancelled"] satisfies ExperimentState[];

type Counts = Partial<Record<TrialState, number>>;
const countOf = (counts: Counts, states: TrialState[]) => states.reduce((sum, s) => sum + (counts[s] ?? 0), 0);

/** The trials a sweep will have: its spec's num_samples, or the trials so far where there are
 *  more (a spec without it, or trials retried). */
export function plannedTrials(counts: Counts, spec: Record<string, unknown>): number {
  const search = spec.search as { num_samples?: number } | undefined;
  return Math.max(countOf(counts, TRIAL_STATES), search?.num_samples ?? 0);
}

/** Trials by state as bar segments of the ``planned`` trials, in a fixed order, empty states
 *  left out; what the segments leave of the bar is the trials not started yet. */
export function progressSegments(counts: Counts, planned = 0): ProgressSegment[] {
  const whole = Math.max(countOf(counts, TRIAL_STATES), planned);
  if (whole === 0) return [];
  return TRIAL_STATES.filter((state) => (counts[state] ?? 0) > 0).map((state) => ({
    state,
    count: counts[state]!,
    percent: (100 * counts[state]!) / whole,
  }));
}

/** "ended/planned", the count beside a progress bar. */
export function progressCount(counts: Counts, planned = 0): string {
  return `${countOf(counts, ENDED_STATES)}/${Math.max(countOf(counts, TRIAL_STATES), planned)}`;
}

export type Axis =
  | { kind: "numeric"; name: string; min: number; max: number; log: boolean }
  | { kind: "categorical"; name: string; categories: string[] };

/** A search-space parameter as the spec stores it (raysweep/search_space.py). */
export interface SpaceParameter { type: string; low?: number; high?: number; log?: boolean; values?: unknown[] }

/** One axis per hyperparameter. A parameter of the search space spans the space (its bounds,
 *  log for loguniform or log ints; a choice's values in the spec's order), so a chart of the
 *  best trials is not stretched to the range they happen to cover; others fit the values drawn
 *  (log when they span > 2 decades). */
export function paramAxes(params: string[], rows: ConfigRow[], space: Record<string, SpaceParameter> = {}): Axis[] {
  return params.map((name, column) => {
    const parameter = space[name];
    if (parameter && typeof parameter.low === "number" && typeof parameter.high === "number") {
      const log = parameter.type === "loguniform" || (parameter.type === "int" && parameter.log === true);
      return { kind: "numeric", name, min: parameter.low, max: parameter.high, log };
    }
    if (parameter && Array.isArray(parameter.values) && parameter.values.length) {
      return { kind: "categorical", name, categories: parameter.values.map((v) => String(v)) };
    }
    const values = rows.map((row) => row.values[column]).filter((v) => v !== null && v !== undefined);
    const numeric = values.length > 0 && values.every((v) => typeof v === "number" && Number.isFinite(v));
    if (!numeric) {
      const categories = [...new Set(values.map((v) => String(v)))].sort();
      return { kind: "categorical", name, categories };
    }
    const numbers = values as number[];
    const min = Math.min(...numbers);
    const max = Math.max(...numbers);
    return { kind: "numeric", name, min, max, log: min > 0 && max / min > 100 };
  });
}

/** Where a value sits on its axis, 0 (bottom) to 1 (top); null when it is missing. */
export function axisPosition(axis: Axis, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (axis.kind === "categorical") {
    const at = axis.categories.indexOf(String(value));
    if (at === -1) return null;
    return axis.categories.length === 1 ? 0.5 : at / (axis.categories.length - 1);
  }
  if (typeof value !== "number") return null;
  if (axis.max === axis.min) return 0.5;
  if (axis.log) return (Math.log(value) - Math.log(axis.min)) / (Math.log(axis.max) - Math.log(axis.min));
  return (value - axis.min) / (axis.max - axis.min);
}

/** The value at ``position`` (0 bottom, 1 top) of a numeric axis: axisPosition's inverse. */
export function axisValue(axis: Extract<Axis, { kind: "numeric" }>, position: number): number {
  if (axis.log) return Math.exp(Math.log(axis.min) + position * (Math.log(axis.max) - Math.log(axis.min)));
  return axis.min + position * (axis.max - axis.min);
}

/** Where an axis is labelled, along its length: a linear axis at round steps inside it
 *  (``niceTicks``), a log axis at its ends and the decades inside it, all in exponent form
 *  (1e-4, 1e-3, …); a categorical axis, every category. */
export function axisTicks(axis: Axis): { label: string; position: number }[] {
  if (axis.kind === "categorical") return axis.categories.map((c) => ({ label: c, position: axisPosition(axis, c) ?? 0 }));
  if (axis.max === axis.min) return [{ label: formatTick(axis.min), position: 0.5 }];
  if (axis.log) {
    const decades = [];
    for (let e = Math.ceil(Math.log10(axis.min)); 10 ** e < axis.max; e++) decades.push(10 ** e);
    const values = [axis.min, ...decades.filter((d) => d > axis.min * 1.5 && d < axis.max / 1.5), axis.max];
    return values.map((v) => ({ label: formatLogTick(v), position: axisPosition(axis, v) ?? 0 }));
  }
  return linearTicks(axis.min, axis.max).map((t) => ({ label: t.label, position: axisPosition(axis, t.value) ?? 0 }));
}

/** A log axis's tick in exponent form: "1e-3" at a decade, "3.2e-4" between. */
export function formatLogTick(value: number | null): string {
  if (value === null || !Number.isFinite(value) || value <= 0) return value === null ? "" : String(value);
  const [mantissa, exponent] = value.toExponential(1).split("e");
  return `${mantissa === "1.0" ? "1" : mantissa}e${Number(exponent)}`;
}

/** A brush over ``[low, high]`` (positions) of an axis, as the API's trial filter says it
 *  (``where`` conditions, all to hold) and as a test of a value with the same bounds. A numeric
 *  axis: two bounds, to 6 digits; a categorical one: ``!=`` for each category left out. */
export function brushFilter(axis: Axis, low: number, high: number): { conditions: string[]; keeps: (value: unknown) => boolean } {
  if (axis.kind === "categorical") {
    const inside = axis.categories.filter((c) => { const at = axisPosition(axis, c) ?? -1; return at >= low && at <= high; });
    const outside = axis.categories.filter((c) => !inside.includes(c));
    return { conditions: outside.map((c) => `${axis.name}!=${c}`), keeps: (v) => inside.includes(String(v)) };
  }
  const from = Number(axisValue(axis, low).toPrecision(6));
  const to = Number(axisValue(axis, high).toPrecision(6));
  return {
    conditions: [`${axis.name}>=${from}`, `${axis.name}<=${to}`],
    keeps: (v) => typeof v === "number" && v >= from && v <= to,
  };
}

/** Optuna's contour, binned: the plane of two hyperparameters cut in ``bins`` x ``bins`` cells
 *  (a categorical axis, a cell a category), each with the best metric of the trials in it
 *  (``mode``) and how many there are; cells without a trial are left out. */
export function contourCells(
  rows: ConfigRow[], x: { axis: Axis; column: number }, y: { axis: Axis; column: number }, bins: number, mode: string,
): { i: number; j: number; best: number; count: number }[] {
  const cell = (axis: Axis, value: unknown): number | null => {
    if (axis.kind === "categorical") {
      const at = axis.categories.indexOf(String(value));
      return at < 0 ? null : at;
    }
    const at = axisPosition(axis, value);
    return at === null ? null : Math.min(bins - 1, Math.max(0, Math.floor(at * bins)));
  };
  const cells = new Map<string, { i: number; j: number; best: number; count: number }>();
  for (const row of rows) {
    if (row.metric === null || !Number.isFinite(row.metric)) continue;
    const i = cell(x.axis, row.values[x.column]), j = cell(y.axis, row.values[y.column]);
    if (i === null || j === null) continue;
    const key = `${i},${j}`;
    const found = cells.get(key);
    if (!found) cells.set(key, { i, j, best: row.metric, count: 1 });
    else {
      found.count += 1;
      if (mode === "max" ? row.metric > found.best : row.metric < found.best) found.best = row.metric;
    }
  }
  return [...cells.values()];
}

/** A colour for a metric's place between the worst (0, light) and the best (1, dark blue). */
export function metricColour(position: number): string {
  const p = Math.min(1, Math.max(0, position));
  return `hsl(${Math.round(200 + 30 * p)}, 85%, ${Math.round(82 - 52 * p)}%)`;
}

/** An SVG path of an 8-pixel cross at (x, y): how the scatter charts mark an infeasible trial. */
export function crossPath(x: number, y: number): string {
  return `M${x - 4},${y - 4}L${x + 4},${y + 4}M${x - 4},${y + 4}L${x + 4},${y - 4}`;
}

/** The metric axis of the parallel coordinates: best at the top whatever the mode. */
export function metricAxis(rows: ConfigRow[], mode: string): { min: number; max: number; position: (v: number) => number } {
  const values = rows.map((r) => r.metric).filter((v): v is number => v !== null && Number.isFinite(v));
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  const span = max - min || 1;
  return {
    min,
    max,
    position: (v: number) => (mode === "max" ? (v - min) / span : (max - v) / span),
  };
}

/** Every numeric metric a trial reported, as one series per name (the time attribute on x). */
export function metricSeries(results: ResultItem[]): Map<string, [number, number][]> {
  const series = new Map<string, [number, number][]>();
  for (const result of results) {
    for (const [name, value] of Object.entries(result.metrics)) {
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      if (!series.has(name)) series.set(name, []);
      series.get(name)!.push([result.iteration, value]);
    }
  }
  // a metric that only counts iterations (epoch, training_iteration) is the x axis, not a curve
  for (const [name, points] of series) if (points.every(([x, y]) => x === y)) series.delete(name);
  return series;
}

/** The trial filter's conditions (`lr>0.01, optimizer=adam`), one per comma, as the API's
 *  repeatable `where` parameter takes them; the server checks each and names a bad one. */
export function splitConditions(filter: string): string[] {
  return filter.split(",").map((c) => c.trim()).filter(Boolean);
}

/** Round values to label a linear axis from ``min`` to ``max`` at, about ``count`` of them
 *  (steps of 1, 2 or 5 times a power of ten), inside the range; both ends are labelled when
 *  the range is narrower than one step. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max === min) return [min];
  const [low, high] = min < max ? [min, max] : [max, min];
  const rough = (high - low) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  const error = rough / power; // 1 to 10: the step nearest it, as d3's ticks choose
  const step = power * (error >= 7.07 ? 10 : error >= 3.16 ? 5 : error >= 1.41 ? 2 : 1);
  const ticks: number[] = [];
  for (let i = Math.ceil(low / step - 1e-9); i * step <= high + step * 1e-9; i++) {
    ticks.push(Number((i * step).toPrecision(12)));
  }
  return ticks.length >= 2 ? ticks : [low, high];
}

/** Labels for ticks drawn together, all in one format: the same decimals (0.90, 0.95, 1.00,
 *  enough to tell neighbours apart), or exponent form when the values are tiny or huge. */
export function formatTicks(values: (number | null)[]): string[] {
  // uPlot hands a null for a tick it leaves out: an empty label
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (!finite.length) return values.map(() => "");
  const largest = Math.max(...finite.map(Math.abs));
  const each = (format: (v: number) => string) => values.map((v) => (v === null || !Number.isFinite(v) ? "" : format(v)));
  if (largest !== 0 && (largest < 1e-3 || largest >= 1e6)) return each((v) => (v === 0 ? "0" : v.toExponential(1)));
  const sorted = [...new Set(finite)].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((v, i) => v - sorted[i]).filter((g) => g > 0);
  const step = gaps.length ? Math.min(...gaps) : largest || 1;
  const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
  // a step like 0.25 needs one decimal more than its power of ten gives: enough decimals
  // that every label says its value
  const enough = (d: number) => sorted.every((v) => Math.abs(Number(v.toFixed(d)) - v) <= step * 1e-6);
  let chosen = decimals;
  while (chosen < 6 && !enough(chosen)) chosen++;
  return each((v) => v.toFixed(chosen));
}

/** A linear axis's ticks as (value, label) pairs, the labels in one format. */
export function linearTicks(min: number, max: number, count = 5): { value: number; label: string }[] {
  const values = niceTicks(min, max, count);
  const labels = formatTicks(values);
  return values.map((value, i) => ({ value, label: labels[i] }));
}

/** An axis tick: up to 4 significant digits without trailing zeros (0.0025, 12000), tiny and
 *  huge magnitudes in exponent form (1.5e-5, 2.0e+6). */
export function formatTick(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e6)) return value.toExponential(1);
  return String(Number(value.toPrecision(4)));
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "–";
  if (typeof value === "number") {
    if (Number.isInteger(value)) return String(value);
    const magnitude = Math.abs(value);
    return magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e5) ? value.toExponential(2) : value.toPrecision(4);
  }
  return String(value);
}

/** A hyperparameter's value as it was set: up to 4 significant digits without trailing zeros
 *  ("lr=0.01", not "0.01000"), tiny and huge ones in exponent form ("1.5e-5"). */
export function formatParam(value: unknown): string {
  if (typeof value !== "number" || Number.isInteger(value) || !Number.isFinite(value)) return formatValue(value);
  const magnitude = Math.abs(value);
  if (magnitude < 1e-3 || magnitude >= 1e5) return value.toExponential(2).replace(/\.?0+e/, "e");
  return String(Number(value.toPrecision(4)));
}

export function formatConfig(config: Config): string {
  return Object.entries(config)
    .map(([key, value]) => `${key}=${formatParam(value)}`)
    .join(", ");
}

/** A count and its noun, agreeing: "1 trial", "3 trials" (``many`` for an irregular plural). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function formatAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86400)}d ago`;
}

/** How long until a future time: "in 40s", "in 5m", "in 3h", "in 2d"; "due" once passed. */
export function formatUntil(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  if (seconds <= 0) return "due";
  if (seconds < 60) return `in ${seconds}s`;
  if (seconds < 3600) return `in ${Math.floor(seconds / 60)}m`;
  if (seconds < 86400) return `in ${Math.floor(seconds / 3600)}h`;
  return `in ${Math.floor(seconds / 86400)}d`;
}

/** A UTC time as the wall-clock time in `timeZone` ("2026-11-22 03:00"), as a cron reads it. */
export function formatInZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
  }).format(new Date(iso));
}

// the compute ledger's reports begin here: every lease ever held
export const LEDGER_START = "2000-01-01T00:00:00Z";

/** Seconds held, as hours: three decimals below a hundredth of an hour, else one. */
export function hours(seconds: number): string {
  return (seconds / 3600).toFixed(seconds < 36 ? 3 : 1);
}

/** Whether the token may change the project's objects: an admin anywhere, a member there. */
export function mayChange(me: { role: string; projects?: Record<string, string> }, project: string): boolean {
  if (me.role === "admin") return true;
  const role = me.projects?.[project];
  return role === "member" || role === "admin";
}
