import { crossPath, formatValue, niceTicks, plural, STATE_COLOURS } from "../shape";
import type { History, HistoryPoint, TrialState } from "../types";
import { Axes, linearScale, plotArea, valueTicks } from "./Frame";
import { Legend, type LegendItem } from "./Legend";

const HEIGHT = 260;
const PAD = { top: 16, bottom: 40, left: 64, right: 16 };

/** Whether a trial's value counts on the history's and the EDF's scales: a failed trial's last
 *  value or an infeasible one's is no result to compare, and one of them far from the rest
 *  would squeeze every other point into a line. */
export function counts(point: HistoryPoint): boolean {
  return point.state !== "failed" && point.feasible !== false;
}

/** Optuna's history plot: each finished trial's best metric in the order the trials ended (pruned
 *  ones faint, infeasible ones as red crosses) and the best so far as a step line (which never
 *  takes a failed, pruned or infeasible trial: the server's). The y axis spans the trials that
 *  count; a failed or infeasible one beyond it sits at its edge. A click opens the trial. */
export function HistoryChart({ history, width }: { history: History; width: number }) {
  const points = history.points;
  if (!points.length) return <p class="muted" data-testid="history-empty">No trial has finished with a {history.metric} yet.</p>;
  const counted = points.filter(counts);
  const values = (counted.length ? counted : points).map((p) => p.value);
  const low = Math.min(...values), high = Math.max(...values);
  const span = high - low || 1;
  const last = history.finished_trials;
  const plot = plotArea(width, HEIGHT, PAD);
  const order = (at: number) => (at - 0.5) / last;
  const x = (at: number) => plot.x(order(at));
  const scale = linearScale(low, high, 0.05);
  // beyond the scale: just inside the plot's edge, in the margin the scale leaves
  const y = (value: number) => plot.y(scale(Math.min(high + 0.04 * span, Math.max(low - 0.04 * span, value))));
  const offScale = (value: number) => (value < low ? "below" : value > high ? "above" : undefined);
  const outside = points.filter((p) => offScale(p.value) !== undefined).length;
  // the best so far as steps: flat until the trial that improved it
  const steps: string[] = [];
  let previous: number | null = null;
  for (const p of points) {
    if (p.best === null) continue;
    if (previous !== null && p.best !== previous) steps.push(`${x(p.order)},${y(previous)}`);
    steps.push(`${x(p.order)},${y(p.best)}`);
    previous = p.best;
  }
  if (previous !== null) steps.push(`${x(last)},${y(previous)}`);
  const label = (p: HistoryPoint) =>
    `trial #${p.trial_number} (${p.state}${p.feasible === false ? ", infeasible" : ""}), finished ${p.order} of ${last}: ` +
    `${history.metric}=${formatValue(p.value)}; best so far ${formatValue(p.best)}`;
  const open = (p: HistoryPoint) => { location.hash = `#/trials/${p.trial_id}`; };
  return (
    <div data-testid="history" data-range={`${low},${high}`}>
      <p class="muted">
        {last === 1 ? "The finished trial's" : `Each of the ${last} finished trials'`} best {history.metric} ({history.mode}), in the order they ended, and the best so far
        {points.length < last ? ` (${points.length} drawn: every recent improvement and an even spread of the rest)` : ""}.
        {outside > 0 && ` ${plural(outside, "failed or infeasible trial")} off the scale, drawn at its edge.`}
      </p>
      <svg width={width} height={HEIGHT} class="history" role="img" aria-label={`history of ${history.metric}`}>
        <polyline class="best" points={steps.join(" ")} fill="none" data-best={previous ?? ""} />
        {points.map((p) => {
          const [cx, cy] = [x(p.order), y(p.value)];
          const common = {
            key: p.trial_id, "data-trial": p.trial_id, "data-order": p.order, "data-off-scale": offScale(p.value), onClick: () => open(p),
          };
          if (p.feasible === false) {
            return (
              <path {...common} class="infeasible" d={crossPath(cx, cy)}>
                <title>{label(p)}</title>
              </path>
            );
          }
          return (
            <circle {...common} cx={cx} cy={cy} r={3} class={p.state}>
              <title>{label(p)}</title>
            </circle>
          );
        })}
        <Axes plot={plot}
          x={{ ticks: orderTicks(last).map((n) => ({ at: order(n), label: String(n) })), title: "trials, in the order they finished" }}
          y={{ ticks: valueTicks(low, high, scale), title: history.metric, grid: true }} />
      </svg>
      <Legend name="history" items={legend(points)} />
    </div>
  );
}

/** Whole trial counts along the x axis, the first and last among them. */
function orderTicks(last: number): number[] {
  const inside = niceTicks(1, last, 6).filter((v) => Number.isInteger(v) && v > 1 && v < last);
  // no label crowding an end's
  const room = Math.max(1, last / 20);
  return [1, ...inside.filter((v) => v - 1 > room && last - v > room), ...(last > 1 ? [last] : [])];
}

const DOT_LABELS: [TrialState, string][] = [["completed", "completed"], ["running", "running"], ["pruned", "pruned or cancelled"], ["failed", "failed"]];

/** The marks drawn: the best-so-far line, each state's dots, the infeasible trials' crosses. */
function legend(points: HistoryPoint[]): LegendItem[] {
  const states = new Set<TrialState>(points.filter((p) => p.feasible !== false).map((p) => (p.state === "cancelled" ? "pruned" : p.state)));
  const colour = (state: TrialState) => (state === "pruned" ? "#94a3b8" : state === "completed" ? "#2563eb" : STATE_COLOURS[state]);
  return [
    { label: "best so far", colour: "#16a34a", mark: "line" },
    ...DOT_LABELS.filter(([state]) => states.has(state)).map(([state, label]) => ({ label, colour: colour(state) })),
    ...(points.some((p) => p.feasible === false) ? [{ label: "infeasible", colour: "#dc2626", mark: "cross" as const }] : []),
  ];
}
