import { useEffect, useRef, useState } from "preact/hooks";
import {
  type Axis, axisPosition, axisTicks, brushFilter, formatConfig, formatValue, linearTicks, metricAxis, metricColour, paramAxes, plural,
  STATE_COLOURS,
} from "../shape";
import { logMark, plotArea } from "./Frame";
import { ColourScale } from "./Legend";
import type { SpaceParameter } from "../shape";
import type { ConfigRow, ConfigTable } from "../types";

const HEIGHT = 280;
const PAD = { top: 24, bottom: 28, left: 56, right: 56 };

interface Props {
  table: ConfigTable;
  width: number;
  space: Record<string, SpaceParameter>;
  /** the brushes as the API's trial conditions (all to hold), on every change */
  onBrush?: (conditions: string[]) => void;
}

/** Parallel coordinates: one vertical axis per hyperparameter (spanning the search space) plus
 *  the metric (best on top); a line a trial, coloured by its metric (failed ones red). Dragging
 *  along an axis brushes a range: lines outside fade and ``onBrush`` gets the conditions; a
 *  click on an axis clears its brush. Hovering a line shows its trial, a click opens it. */
export function ParallelChart({ table, width, space, onBrush }: Props) {
  const [hovered, setHovered] = useState<ConfigRow | null>(null);
  // by axis name: a brush names what it filters, never a place another table's axes may hold
  const [brushes, setBrushes] = useState<Record<string, [number, number]>>({});
  const [dragging, setDragging] = useState<{ axis: number; from: number; to: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const params = paramAxes(table.params, table.rows, space);
  const metric = metricAxis(table.rows, table.mode);
  // the metric as an axis of its own: best on top, so a min metric's axis runs downwards
  const metricAsAxis: Axis = { kind: "numeric", name: "best_metric", min: metric.min, max: metric.max, log: false };
  const axes = [...params, metricAsAxis];
  const plot = plotArea(width, HEIGHT, PAD);
  const x = (i: number) => plot.x(i / Math.max(1, axes.length - 1));
  const y = plot.y;
  const positionAt = (clientY: number) => {
    const top = svg.current?.getBoundingClientRect().top ?? 0;
    return Math.min(1, Math.max(0, (plot.bottom - (clientY - top)) / (plot.bottom - plot.top)));
  };
  const filters = Object.entries(brushes).flatMap(([name, [low, high]]) => {
    const i = axes.findIndex((axis) => axis.name === name);
    if (i < 0) return []; // an axis no longer drawn filters nothing
    const isMetric = i === params.length;
    const reversed = isMetric && table.mode !== "max";
    return [{ i, ...brushFilter(axes[i], reversed ? 1 - high : low, reversed ? 1 - low : high) }];
  });
  const kept = (row: ConfigRow) =>
    filters.every(({ i, keeps }) => keeps(i === params.length ? row.metric : row.values[i]));
  const conditions = filters.flatMap((f) => f.conditions);
  useEffect(() => { onBrush?.(conditions); }, [conditions.join("\n")]);

  const endDrag = () => {
    if (!dragging) return;
    const [low, high] = [Math.min(dragging.from, dragging.to), Math.max(dragging.from, dragging.to)];
    const next = { ...brushes };
    const name = axes[dragging.axis].name;
    if (high - low < 0.02) delete next[name]; // a click: the axis's brush is cleared
    else next[name] = [low, high];
    setBrushes(next);
    setDragging(null);
  };
  // worst first so the best lines are drawn on top
  const rows = [...table.rows].reverse();
  const shown = table.rows.filter(kept).length;

  return (
    <div class="parallel-chart">
      <svg ref={svg} width={width} height={HEIGHT} data-testid="parallel" class="parallel" role="img"
        aria-label={`parallel coordinates of ${table.rows.length} trials`}
        onMouseMove={(e) => dragging && setDragging({ ...dragging, to: positionAt(e.clientY) })}
        onMouseUp={endDrag} onMouseLeave={endDrag}>
        {rows.map((row) => {
          const points: string[] = [];
          params.forEach((axis, i) => {
            const at = axisPosition(axis, row.values[i]);
            if (at !== null) points.push(`${x(i)},${y(at)}`);
          });
          if (row.metric !== null) points.push(`${x(params.length)},${y(metric.position(row.metric))}`);
          const inside = kept(row);
          const colour = row.state === "failed" || row.metric === null ? STATE_COLOURS[row.state] : metricColour(metric.position(row.metric));
          return (
            <polyline key={row.trial_id} data-trial={row.trial_id} data-brushed={inside ? "in" : "out"}
              points={points.join(" ")} fill="none" stroke={colour}
              stroke-width={hovered?.trial_id === row.trial_id ? 3 : 1.2}
              stroke-opacity={!inside ? 0.06 : hovered === null || hovered.trial_id === row.trial_id ? 0.8 : 0.25}
              onMouseEnter={() => setHovered(row)} onMouseLeave={() => setHovered(null)}
              onClick={() => { location.hash = `#/trials/${row.trial_id}`; }} />
          );
        })}
        {axes.map((axis, i) => {
          const isMetric = i === params.length;
          const ticks = isMetric
            ? linearTicks(metric.min, metric.max).map((t) => ({ label: t.label, position: metric.position(t.value) }))
            : axisTicks(axis);
          const brush = dragging?.axis === i ? [Math.min(dragging.from, dragging.to), Math.max(dragging.from, dragging.to)] : brushes[axis.name];
          return (
            <g key={axis.name} class={isMetric ? "axis metric" : "axis"} data-axis={axis.name}>
              <line x1={x(i)} x2={x(i)} y1={y(0)} y2={y(1)} />
              <text x={x(i)} y={PAD.top - 8} text-anchor="middle">
                {isMetric ? table.metric : axis.name}{logMark(axis)}
              </text>
              {ticks.map((t) => (
                <text key={t.label} x={x(i) + (isMetric ? -5 : 5)} y={y(t.position) + 4} class="tick"
                  text-anchor={isMetric ? "end" : "start"}>{t.label}</text>
              ))}
              {brush && <rect class="brush" x={x(i) - 7} width={14} y={y(brush[1])} height={Math.max(1, y(brush[0]) - y(brush[1]))} />}
              <rect class="brush-area" data-brush-axis={axis.name} x={x(i) - 10} width={20} y={y(1)} height={y(0) - y(1)}
                onMouseDown={(e) => { e.preventDefault(); const at = positionAt(e.clientY); setDragging({ axis: i, from: at, to: at }); }} />
            </g>
          );
        })}
      </svg>
      <ColourScale metric={table.metric} worst={table.mode === "max" ? metric.min : metric.max} best={table.mode === "max" ? metric.max : metric.min} />
      <p class="hover" data-testid="parallel-hover">
        {hovered
          ? <>trial <b>#{hovered.trial_number}</b> · {hovered.state} · {table.metric} {formatValue(hovered.metric)} · {formatConfig(Object.fromEntries(table.params.map((p, i) => [p, hovered.values[i]])))}</>
          : <span class="muted">Colour: {table.metric}, light worst to dark best (failed trials red). Drag along an axis to brush a range (the table below follows); click an axis to clear it.</span>}
      </p>
      {filters.length > 0 && (
        <p class="muted" data-testid="brushed" data-shown={shown}>
          {shown} of {plural(table.rows.length, "drawn trial")} in {conditions.join(", ")}{" "}
          <button class="link" onClick={() => setBrushes({})}>clear</button>
        </p>
      )}
    </div>
  );
}
