import { axisPosition, formatValue, metricAxis, paramAxes, type Axis, type SpaceParameter } from "../shape";
import type { ConfigTable } from "../types";

const PANEL = { width: 260, height: 190 };
const PAD = { top: 10, bottom: 34, left: 52, right: 10 };

/** Optuna's slice plot: one panel per sampled hyperparameter, the metric of each trial drawn
 *  against its value (on the axis the parallel coordinates use: the search space's bounds, log
 *  where the space is). Best at the top whatever the mode; a click opens the trial. */
export function SliceChart({ table, space }: { table: ConfigTable; space: Record<string, SpaceParameter> }) {
  const axes = paramAxes(table.params, table.rows, space).filter(varies);
  const rows = table.rows.filter((row) => row.metric !== null && Number.isFinite(row.metric));
  if (!axes.length || !rows.length) return <p class="muted" data-testid="slice-empty">No sampled hyperparameter with a {table.metric} yet.</p>;
  const metric = metricAxis(rows, table.mode);
  const plotW = PANEL.width - PAD.left - PAD.right, plotH = PANEL.height - PAD.top - PAD.bottom;
  const y = (value: number) => PAD.top + (1 - metric.position(value)) * plotH;
  const [top, bottom] = table.mode === "max" ? [metric.max, metric.min] : [metric.min, metric.max];
  return (
    <div class="slices" data-testid="slice">
      {axes.map((axis) => {
        const column = table.params.indexOf(axis.name);
        const x = (position: number) => PAD.left + (0.04 + 0.92 * position) * plotW;
        return (
          <svg key={axis.name} data-param={axis.name} class="slice" width={PANEL.width} height={PANEL.height} role="img"
            aria-label={`${table.metric} against ${axis.name}`}>
            {rows.map((row) => {
              const at = axisPosition(axis, row.values[column]);
              if (at === null) return null;
              return (
                <circle key={row.trial_id} data-trial={row.trial_id} cx={x(at)} cy={y(row.metric!)} r={3} class={row.state}
                  onClick={() => { location.hash = `#/trials/${row.trial_id}`; }}>
                  <title>{`trial #${row.trial_number} (${row.state}): ${axis.name}=${formatValue(row.values[column])}, ${table.metric}=${formatValue(row.metric)}`}</title>
                </circle>
              );
            })}
            <g class="axis">
              <line x1={PAD.left} x2={PANEL.width - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
              <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={PAD.top + plotH} />
              {ticks(axis).map(([position, text]) => (
                <text key={text} x={x(position)} y={PAD.top + plotH + 12} class="tick" text-anchor="middle">{text}</text>
              ))}
              <text x={PAD.left + plotW / 2} y={PANEL.height - 4} text-anchor="middle">{axis.name}{axis.kind === "numeric" && axis.log ? " (log)" : ""}</text>
              <text x={PAD.left - 4} y={PAD.top + 8} class="tick" text-anchor="end">{formatValue(top)}</text>
              <text x={PAD.left - 4} y={PAD.top + plotH} class="tick" text-anchor="end">{formatValue(bottom)}</text>
            </g>
          </svg>
        );
      })}
    </div>
  );
}

/** A constant (one category, or no range) has nothing to slice. */
function varies(axis: Axis): boolean {
  return axis.kind === "categorical" ? axis.categories.length > 1 : axis.max > axis.min;
}

/** The ends of a numeric axis; every category of a categorical one (where ``axisPosition``
 *  puts its trials). */
function ticks(axis: Axis): [number, string][] {
  if (axis.kind === "categorical") return axis.categories.map((c) => [axisPosition(axis, c)!, c]);
  return [[0, formatValue(axis.min)], [1, formatValue(axis.max)]];
}
