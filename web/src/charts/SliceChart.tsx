import {
  axisPosition, axisTicks, formatParam, formatValue, metricAxis, paramAxes, STATE_COLOURS, type Axis, type SpaceParameter,
} from "../shape";
import type { ConfigTable, TrialState } from "../types";
import { Axes, logMark, plotArea, valueTicks } from "./Frame";
import { Legend } from "./Legend";

const PANEL = { width: 280, height: 200 };
const PAD = { top: 10, bottom: 34, left: 66, right: 16 };
// the dots' fills (style.css): pruned and cancelled alike
const DOTS: [TrialState[], string, string][] = [
  [["completed"], "completed", "#2563eb"], [["running"], "running", "#16a34a"],
  [["pruned", "cancelled"], "pruned or cancelled", "#94a3b8"], [["failed"], "failed", STATE_COLOURS.failed],
];

/** Optuna's slice plot: one panel per sampled hyperparameter, the metric of each trial drawn
 *  against its value (on the axis the parallel coordinates use: the search space's bounds, log
 *  where the space is). Best at the top whatever the mode; a click opens the trial. */
export function SliceChart({ table, space }: { table: ConfigTable; space: Record<string, SpaceParameter> }) {
  const axes = paramAxes(table.params, table.rows, space).filter(varies);
  const rows = table.rows.filter((row) => row.metric !== null && Number.isFinite(row.metric));
  if (!axes.length || !rows.length) return <p class="muted" data-testid="slice-empty">No sampled hyperparameter with a {table.metric} yet.</p>;
  const metric = metricAxis(rows, table.mode);
  const plot = plotArea(PANEL.width, PANEL.height, PAD);
  const y = (value: number) => plot.y(metric.position(value));
  const yTicks = valueTicks(metric.min, metric.max, metric.position, 4);
  // 4% of room on each side: no dot sits on the y axis
  const inset = (position: number) => 0.04 + 0.92 * position;
  const x = (position: number) => plot.x(inset(position));
  const states = new Set(rows.map((r) => r.state));
  return (
    <>
    <Legend name="slice" items={DOTS.filter(([of]) => of.some((s) => states.has(s))).map(([, label, colour]) => ({ label, colour }))} />
    <div class="slices" data-testid="slice">
      {axes.map((axis) => {
        const column = table.params.indexOf(axis.name);
        return (
          <svg key={axis.name} data-param={axis.name} class="slice" width={PANEL.width} height={PANEL.height} role="img"
            aria-label={`${table.metric} against ${axis.name}`}>
            {rows.map((row) => {
              const at = axisPosition(axis, row.values[column]);
              if (at === null) return null;
              return (
                <circle key={row.trial_id} data-trial={row.trial_id} cx={x(at)} cy={y(row.metric!)} r={3} class={row.state}
                  onClick={() => { location.hash = `#/trials/${row.trial_id}`; }}>
                  <title>{`trial #${row.trial_number} (${row.state}): ${axis.name}=${formatParam(row.values[column])}, ${table.metric}=${formatValue(row.metric)}`}</title>
                </circle>
              );
            })}
            <Axes plot={plot} x={{ ticks: axisTicks(axis).map((t) => ({ at: inset(t.position), label: t.label })), title: `${axis.name}${logMark(axis)}` }}
              y={{ ticks: yTicks, title: `${table.metric} (${table.mode})` }} />
          </svg>
        );
      })}
    </div>
    </>
  );
}

/** A constant (one category, or no range) has nothing to slice. */
function varies(axis: Axis): boolean {
  return axis.kind === "categorical" ? axis.categories.length > 1 : axis.max > axis.min;
}

