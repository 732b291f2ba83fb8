import { useMemo } from "preact/hooks";
import type uPlot from "uplot";
import { alignSeries, formatTick } from "../shape";
import { Legend } from "./Legend";
import { UPlot, type PlotOptions } from "./UPlot";

export interface Line { label: string; points: [number, number][] }

// one colour a trial, in the order they are compared
export const LINE_COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea"];

// iterations are whole numbers: ticks at whole steps only
export const ITERATION_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

/** One reported metric against the iteration, a line a trial: the trial page draws one, the
 *  compare page overlays up to four. */
export function MetricChart({ name, lines }: { name: string; lines: Line[] }) {
  const data = useMemo((): uPlot.AlignedData => {
    const { xs, ys } = alignSeries(lines);
    return [xs, ...ys];
  }, [lines]);
  const colour = (i: number) => LINE_COLOURS[i % LINE_COLOURS.length];
  const options: PlotOptions = {
    // the legend is ours (below): uPlot's reads "-- #99: --" until the cursor is on a point
    title: name, legend: { show: false }, scales: { x: { time: false } },
    axes: [
      { label: "iteration", incrs: ITERATION_STEPS, values: (_: uPlot, values: number[]) => values.map(String) },
      { label: name, size: 64, values: (_: uPlot, values: number[]) => values.map(formatTick) },
    ],
    series: [{}, ...lines.map((line, i) => ({ label: line.label, stroke: colour(i), width: 2, spanGaps: true }))],
  };
  return (
    <div class="metric-chart">
      <UPlot options={options} data={data} shape={String(lines.length)} width={360} height={220}
        data-metric={name} data-lines={lines.length} />
      {lines.length > 1 && (
        <Legend name={name} items={lines.map((line, i) => ({
          label: line.points.length ? line.label : `${line.label} (does not report it)`, colour: colour(i), mark: "line",
        }))} />
      )}
    </div>
  );
}
