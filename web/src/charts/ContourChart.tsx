import { useState } from "preact/hooks";
import { hashQuery, setHashQuery } from "../hooks";
import {
  axisPosition, axisTicks, contourCells, formatValue, metricAxis, metricColour, paramAxes, plural, type Axis, type SpaceParameter,
} from "../shape";
import type { ConfigTable } from "../types";
import { ColourScale } from "./Legend";

const HEIGHT = 340;
const PAD = { top: 12, bottom: 40, left: 72, right: 24 };
const BINS = 12;

/** Optuna's contour plot, binned: two chosen hyperparameters as the plane (on the search
 *  space's axes), each cell coloured by the best metric of the trials in it, the trials as dots.
 *  ``preferred``: the parameters chosen first (the most important ones). */
export function ContourChart({ table, space, preferred, width }: { table: ConfigTable; space: Record<string, SpaceParameter>; preferred: string[]; width: number }) {
  const SIZE = { width: Math.min(460, width), height: HEIGHT };
  const axes = paramAxes(table.params, table.rows, space);
  const names = table.params;
  const first = [...preferred.filter((p) => names.includes(p)), ...names.filter((p) => !preferred.includes(p))];
  // a pair chosen, kept in the address (contour=x,y)
  const [chosen, setChosen] = useState<[string, string] | null>(() => {
    const pair = (hashQuery().get("contour") ?? "").split(",");
    return pair.length === 2 && pair.every((p) => table.params.includes(p)) ? [pair[0], pair[1]] : null;
  });
  if (names.length < 2) return null;
  const [xName, yName] = chosen ?? [first[0], first[1]];
  const x = { axis: axes[names.indexOf(xName)], column: names.indexOf(xName) };
  const y = { axis: axes[names.indexOf(yName)], column: names.indexOf(yName) };
  const rows = table.rows.filter((r) => r.metric !== null && Number.isFinite(r.metric));
  const metric = metricAxis(rows, table.mode);
  const cells = contourCells(rows, x, y, BINS, table.mode);
  const plotW = SIZE.width - PAD.left - PAD.right, plotH = SIZE.height - PAD.top - PAD.bottom;
  const count = (axis: Axis) => (axis.kind === "categorical" ? axis.categories.length : BINS);
  const [nx, ny] = [count(x.axis), count(y.axis)];
  const px = (position: number) => PAD.left + position * plotW;
  const py = (position: number) => PAD.top + (1 - position) * plotH;
  // a categorical axis puts each category at the middle of its cell
  const at = (axis: Axis, value: unknown, cells: number) => {
    const position = axisPosition(axis, value);
    if (position === null) return null;
    return axis.kind === "categorical" ? (Math.round(position * (cells - 1)) + 0.5) / cells : position;
  };
  const tickAt = (axis: Axis, position: number, cells: number) =>
    axis.kind === "categorical" ? (Math.round(position * (cells - 1)) + 0.5) / cells : position;
  const choose = (axisIndex: 0 | 1, name: string) => {
    const next: [string, string] = [xName, yName];
    next[axisIndex] = name;
    if (next[0] === next[1]) return;
    setChosen(next);
    setHashQuery({ contour: next.join(",") });
  };
  const menu = (axisIndex: 0 | 1, value: string) => (
    <select name={axisIndex === 0 ? "contour-x" : "contour-y"} value={value} onChange={(e) => choose(axisIndex, (e.target as HTMLSelectElement).value)}>
      {names.map((n) => <option key={n} value={n}>{n}</option>)}
    </select>
  );
  return (
    <div class="chart contour" data-testid="contour" data-x={xName} data-y={yName} data-cells={cells.length}>
      <div class="chart-tools">
        <label>x {menu(0, xName)}</label>
        <label>y {menu(1, yName)}</label>
        <span class="muted">each cell: the best {table.metric} of its trials; a dot: a trial</span>
      </div>
      <ColourScale metric={table.metric} worst={table.mode === "max" ? metric.min : metric.max} best={table.mode === "max" ? metric.max : metric.min} />
      <svg width={SIZE.width} height={SIZE.height} class="history" role="img" aria-label={`${table.metric} over ${xName} and ${yName}`}>
        {cells.map((c) => (
          <rect key={`${c.i},${c.j}`} class="cell" data-best={c.best} data-count={c.count}
            x={px(c.i / nx)} y={py((c.j + 1) / ny)} width={plotW / nx} height={plotH / ny}
            fill={metricColour(metric.position(c.best))}>
            <title>{`${plural(c.count, "trial")}, best ${table.metric} ${formatValue(c.best)}`}</title>
          </rect>
        ))}
        {rows.map((r) => {
          const cx = at(x.axis, r.values[x.column], nx), cy = at(y.axis, r.values[y.column], ny);
          if (cx === null || cy === null) return null;
          // outlined: a dark dot on a dark (best) cell still shows
          return <circle key={r.trial_id} class="trial-dot" cx={px(cx)} cy={py(cy)} r={2.2} fill="#0f172a" stroke="white" stroke-width={0.8} />;
        })}
        <g class="axis">
          <line x1={PAD.left} x2={SIZE.width - PAD.right} y1={PAD.top + plotH} y2={PAD.top + plotH} />
          <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={PAD.top + plotH} />
          {axisTicks(x.axis).map((t) => {
            const at = tickAt(x.axis, t.position, nx);
            // an end's label kept inside the chart
            const anchor = at > 0.97 ? "end" : at < 0.03 ? "start" : "middle";
            return <text key={t.label} x={px(at)} y={PAD.top + plotH + 12} class="tick" text-anchor={anchor}>{t.label}</text>;
          })}
          {axisTicks(y.axis).map((t) => (
            <text key={t.label} x={PAD.left - 4} y={py(tickAt(y.axis, t.position, ny)) + 4} class="tick" text-anchor="end">{t.label}</text>
          ))}
          <text x={PAD.left + plotW / 2} y={SIZE.height - 6} text-anchor="middle" data-axis-title="x">{xName}{logMark(x.axis)}</text>
          <text x={12} y={PAD.top + plotH / 2} text-anchor="middle" data-axis-title="y"
            transform={`rotate(-90 12 ${PAD.top + plotH / 2})`}>{yName}{logMark(y.axis)}</text>
        </g>
      </svg>
    </div>
  );
}

/** " (log)" after a log axis's name: its ticks are decades, not even steps. */
function logMark(axis: Axis): string {
  return axis.kind === "numeric" && axis.log ? " (log)" : "";
}
