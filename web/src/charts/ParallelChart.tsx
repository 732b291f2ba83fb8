import { useState } from "preact/hooks";
import { axisPosition, formatValue, metricAxis, paramAxes, STATE_COLOURS } from "../shape";
import type { SpaceParameter } from "../shape";
import type { ConfigTable } from "../types";

const HEIGHT = 260;
const PAD = { top: 24, bottom: 28, side: 48 };

/** Parallel coordinates: one vertical axis per hyperparameter (spanning the search space) plus
 *  the metric (best on top). */
export function ParallelChart({ table, width, space }: { table: ConfigTable; width: number; space: Record<string, SpaceParameter> }) {
  const [highlight, setHighlight] = useState<number | null>(null);
  const axes = paramAxes(table.params, table.rows, space);
  const metric = metricAxis(table.rows, table.mode);
  const columns = axes.length + 1;
  const x = (i: number) => PAD.side + (i * (width - 2 * PAD.side)) / Math.max(1, columns - 1);
  const y = (position: number) => PAD.top + (1 - position) * (HEIGHT - PAD.top - PAD.bottom);
  // worst first so the best lines are drawn on top
  const rows = [...table.rows].reverse();

  return (
    <svg width={width} height={HEIGHT} data-testid="parallel" class="parallel" role="img"
      aria-label={`parallel coordinates of ${table.rows.length} trials`}>
      {rows.map((row) => {
        const points: string[] = [];
        axes.forEach((axis, i) => {
          const at = axisPosition(axis, row.values[i]);
          if (at !== null) points.push(`${x(i)},${y(at)}`);
        });
        if (row.metric !== null) points.push(`${x(axes.length)},${y(metric.position(row.metric))}`);
        return (
          <polyline key={row.trial_id} data-trial={row.trial_id} points={points.join(" ")} fill="none"
            stroke={STATE_COLOURS[row.state]} stroke-width={highlight === row.trial_id ? 3 : 1}
            stroke-opacity={highlight === null || highlight === row.trial_id ? 0.7 : 0.15}
            onMouseEnter={() => setHighlight(row.trial_id)} onMouseLeave={() => setHighlight(null)}>
            <title>trial #{row.trial_number} ({row.state}): {table.params.map((p, i) => `${p}=${formatValue(row.values[i])}`).join(", ")}; {table.metric}={formatValue(row.metric)}</title>
          </polyline>
        );
      })}
      {axes.map((axis, i) => (
        <g key={axis.name} class="axis">
          <line x1={x(i)} x2={x(i)} y1={y(0)} y2={y(1)} />
          <text x={x(i)} y={PAD.top - 8} text-anchor="middle">{axis.name}{axis.kind === "numeric" && axis.log ? " (log)" : ""}</text>
          {axis.kind === "numeric"
            ? <>
                <text x={x(i) + 4} y={y(0)} class="tick">{formatValue(axis.min)}</text>
                <text x={x(i) + 4} y={y(1) + 10} class="tick">{formatValue(axis.max)}</text>
              </>
            : axis.categories.map((c) => (
                <text key={c} x={x(i) + 4} y={y(axisPosition(axis, c) ?? 0) + 4} class="tick">{c}</text>
              ))}
        </g>
      ))}
      <g class="axis metric">
        <line x1={x(axes.length)} x2={x(axes.length)} y1={y(0)} y2={y(1)} />
        <text x={x(axes.length)} y={PAD.top - 8} text-anchor="middle">{table.metric}</text>
        <text x={x(axes.length) - 4} y={y(1) + 10} class="tick" text-anchor="end">{formatValue(table.mode === "max" ? metric.max : metric.min)}</text>
        <text x={x(axes.length) - 4} y={y(0)} class="tick" text-anchor="end">{formatValue(table.mode === "max" ? metric.min : metric.max)}</text>
      </g>
    </svg>
  );
}
