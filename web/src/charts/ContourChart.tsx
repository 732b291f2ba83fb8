import { useState } from "preact/hooks";
import { hashQuery, setHashQuery } from "../hooks";
import {
  axisPosition, axisTicks, contourCells, formatValue, metricAxis, metricColour, paramAxes, plural, type Axis, type SpaceParameter,
} from "../shape";
import type { ConfigTable } from "../types";
import { Axes, logMark, plotArea } from "./Frame";
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
  const plot = plotArea(SIZE.width, SIZE.height, PAD);
  const [plotW, plotH] = [plot.right - plot.left, plot.bottom - plot.top];
  const count = (axis: Axis) => (axis.kind === "categorical" ? axis.categories.length : BINS);
  const [nx, ny] = [count(x.axis), count(y.axis)];
  const [px, py] = [plot.x, plot.y];
  // a categorical axis puts each category at the middle of its cell
  const cellAt = (axis: Axis, position: number, cells: number) =>
    axis.kind === "categorical" ? (Math.round(position * (cells - 1)) + 0.5) / cells : position;
  const at = (axis: Axis, value: unknown, cells: number) => {
    const position = axisPosition(axis, value);
    return position === null ? null : cellAt(axis, position, cells);
  };
  const ticks = (axis: Axis, cells: number) => axisTicks(axis).map((t) => {
    const position = cellAt(axis, t.position, cells);
    // an end's label kept inside the chart
    return { at: position, label: t.label, anchor: position > 0.97 ? "end" as const : position < 0.03 ? "start" as const : undefined };
  });
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
        <Axes plot={plot} x={{ ticks: ticks(x.axis, nx), title: `${xName}${logMark(x.axis)}` }}
          y={{ ticks: axisTicks(y.axis).map((t) => ({ at: cellAt(y.axis, t.position, ny), label: t.label })), title: `${yName}${logMark(y.axis)}` }} />
      </svg>
    </div>
  );
}
