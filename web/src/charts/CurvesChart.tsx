import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import { alignSeries, formatConfig, formatValue, STATE_COLOURS } from "../shape";
import type { CurveSeries } from "../types";

interface Props {
  series: CurveSeries[];
  metric: string;
  xLabel: string;
  version: number; // bumped when points were merged into `series` in place
  onPick?: (trialId: number) => void;
}

/** All trials' learning curves on one canvas; pruned ones dashed, hover names the trial and config. */
export function CurvesChart({ series, metric, xLabel, version, onPick }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<CurveSeries | null>(null);
  const drawn = useRef<CurveSeries[]>([]);

  useEffect(() => {
    if (!box.current) return;
    const { xs, ys } = alignSeries(series);
    const sameShape = plot.current && drawn.current.length === series.length
      && drawn.current.every((s, i) => s.trial_id === series[i].trial_id && s.state === series[i].state);
    if (plot.current && sameShape) {
      plot.current.setData([xs, ...ys]);
      return;
    }
    plot.current?.destroy();
    drawn.current = series.map((s) => ({ ...s }));
    const options: uPlot.Options = {
      width: box.current.clientWidth || 800,
      height: 320,
      legend: { show: false },
      cursor: { focus: { prox: 12 }, points: { show: false } },
      focus: { alpha: 0.25 },
      scales: { x: { time: false } },
      // whole iterations only: a tick at 1.5 epochs means nothing
      axes: [{ label: xLabel, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000] }, { label: metric }],
      series: [
        {},
        ...series.map((s) => ({
          label: `trial ${s.trial_id}`,
          stroke: STATE_COLOURS[s.state],
          width: s.state === "running" ? 2 : 1,
          dash: s.state === "pruned" ? [4, 4] : undefined,
          alpha: s.state === "pruned" ? 0.6 : 1,
          spanGaps: true,
          points: { show: s.points.length === 1, size: 4 }, // a trial pruned at its first result is a dot
        })),
      ],
      hooks: {
        setSeries: [(_u, index) => setHover(index ? series[index - 1] : null)],
      },
    };
    plot.current = new uPlot(options, [xs, ...ys], box.current);
  }, [series, version, xLabel, metric]);

  useEffect(() => () => plot.current?.destroy(), []);

  useEffect(() => {
    const resize = () => box.current && plot.current?.setSize({ width: box.current.clientWidth, height: 320 });
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, []);

  const points = series.reduce((sum, s) => sum + s.points.length, 0);
  return (
    <div class="chart">
      <div ref={box} data-testid="curves" data-series={series.length} data-points={points}
        data-pruned={series.filter((s) => s.state === "pruned").length}
        onClick={() => hover && onPick?.(hover.trial_id)} />
      <p class="hover" data-testid="curve-hover">
        {hover
          ? <>trial <b>{hover.trial_id}</b> · {hover.state} · last {formatValue(hover.points.at(-1)?.[1])} · {formatConfig(hover.config)}</>
          : <span class="muted">Hover a curve to see its trial and config; click to open it. Dashed: pruned by ASHA.</span>}
      </p>
    </div>
  );
}
