import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import { alignSeries, formatTick } from "../shape";
import { Legend } from "./Legend";

export interface Line { label: string; points: [number, number][] }

// one colour a trial, in the order they are compared
export const LINE_COLOURS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea"];

/** One reported metric against the iteration, a line a trial: the trial page draws one, the
 *  compare page overlays up to four. */
export function MetricChart({ name, lines }: { name: string; lines: Line[] }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const drawnLines = useRef(0);
  useEffect(() => {
    if (!box.current) return;
    const { xs, ys } = alignSeries(lines);
    const data: uPlot.AlignedData = [xs, ...ys];
    if (plot.current && drawnLines.current === lines.length) {
      plot.current.setData(data);
      return;
    }
    plot.current?.destroy();
    drawnLines.current = lines.length;
    // the ticks drawn are also kept on the box (data-x-ticks, data-y-ticks), where a reader of
    // the page (or a test) finds them: uPlot paints them on its canvas
    const ticks = (axis: "x" | "y", format: (v: number) => string) =>
      (_: uPlot, values: number[]) => {
        const labels = values.map(format);
        if (box.current) box.current.dataset[`${axis}Ticks`] = labels.join("|");
        return labels;
      };
    plot.current = new uPlot({
      // the legend is ours (below): uPlot's reads "-- #99: --" until the cursor is on a point
      width: 360, height: 220, title: name, legend: { show: false },
      scales: { x: { time: false } },
      axes: [
        // iterations are whole numbers: ticks at whole steps only
        { label: "iteration", incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000], values: ticks("x", String) },
        { label: name, size: 64, values: ticks("y", formatTick) },
      ],
      series: [{}, ...lines.map((line, i) => ({ label: line.label, stroke: LINE_COLOURS[i % LINE_COLOURS.length], width: 2, spanGaps: true }))],
    }, data, box.current);
  }, [lines]);
  useEffect(() => () => plot.current?.destroy(), []);
  return (
    <div class="metric-chart">
      <div ref={box} data-metric={name} data-lines={lines.length} />
      {lines.length > 1 && (
        <Legend name={name} items={lines.map((line, i) => ({
          label: line.points.length ? line.label : `${line.label} (does not report it)`, colour: LINE_COLOURS[i % LINE_COLOURS.length], mark: "line",
        }))} />
      )}
    </div>
  );
}
