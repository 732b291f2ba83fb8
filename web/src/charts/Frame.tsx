import type { ComponentChildren } from "preact";
import { linearTicks, type Axis } from "../shape";

/** The room an SVG chart leaves around its plot: for the ticks and the axes' titles. */
export interface Pad { top: number; bottom: number; left: number; right: number }

/** An SVG chart's plot area: ``x`` and ``y`` put a position (0 to 1 along an axis; 0 the left
 *  and the bottom) at its place in the SVG. */
export interface Plot {
  width: number; height: number; left: number; right: number; top: number; bottom: number;
  x: (position: number) => number;
  y: (position: number) => number;
}

export function plotArea(width: number, height: number, pad: Pad): Plot {
  const [left, right, top, bottom] = [pad.left, width - pad.right, pad.top, height - pad.bottom];
  return {
    width, height, left, right, top, bottom,
    x: (position) => left + position * (right - left),
    y: (position) => bottom - position * (bottom - top),
  };
}

/** A value's position along an axis from ``min`` to ``max`` (one value alone: a span of 1),
 *  ``margin`` of the axis left free at each end, so no mark sits on the frame. */
export function linearScale(min: number, max: number, margin = 0): (value: number) => number {
  const span = max - min || 1;
  return (value) => margin + ((1 - 2 * margin) * (value - min)) / span;
}

/** A tick: its label at a position along its axis (``linearScale``'s, or an axis's own). */
export interface Tick { at: number; label: string; anchor?: "start" | "middle" | "end" }

/** Even ticks over values from ``min`` to ``max``, each at its position on ``scale``. */
export function valueTicks(min: number, max: number, scale: (value: number) => number, count?: number): Tick[] {
  return linearTicks(min, max, count).map((t) => ({ at: scale(t.value), label: t.label }));
}

interface AxisProps { ticks: Tick[]; title: ComponentChildren; grid?: boolean }

/** The frame of a scatter or step chart: the x axis along the bottom and the y axis up the left,
 *  each with its ticks and title (the y one turned), and for ``grid`` a line across at each y
 *  tick. */
export function Axes({ plot, x, y }: { plot: Plot; x: AxisProps; y: AxisProps }) {
  const middle = (plot.top + plot.bottom) / 2;
  return (
    <g class="axis">
      <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
      <line x1={plot.left} x2={plot.left} y1={plot.top} y2={plot.bottom} />
      {x.ticks.map((t) => (
        <g key={t.label}>
          {x.grid && <line class="grid-line" x1={plot.x(t.at)} x2={plot.x(t.at)} y1={plot.top} y2={plot.bottom} />}
          <text x={plot.x(t.at)} y={plot.bottom + 14} class="tick" text-anchor={t.anchor ?? "middle"}>{t.label}</text>
        </g>
      ))}
      <text x={(plot.left + plot.right) / 2} y={plot.height - 6} text-anchor="middle" data-axis-title="x">{x.title}</text>
      {y.ticks.map((t) => (
        <g key={t.label}>
          {y.grid && <line class="grid-line" x1={plot.left} x2={plot.right} y1={plot.y(t.at)} y2={plot.y(t.at)} />}
          <text x={plot.left - 4} y={plot.y(t.at) + 4} class="tick" text-anchor={t.anchor ?? "end"}>{t.label}</text>
        </g>
      ))}
      <text class="y-title" x={12} y={middle} text-anchor="middle" transform={`rotate(-90 12 ${middle})`}
        data-axis-title="y">{y.title}</text>
    </g>
  );
}

/** " (log)" after a log axis's name: its ticks are decades, not even steps. */
export function logMark(axis: Axis): string {
  return axis.kind === "numeric" && axis.log ? " (log)" : "";
}
