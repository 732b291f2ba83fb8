import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type uPlot from "uplot";
import { hashQuery, setHashQuery } from "../hooks";
import { alignSeries, formatConfig, formatLogTick, formatTicks, formatValue, smooth, STATE_COLOURS, TRIAL_STATES } from "../shape";
import type { CurveSeries } from "../types";
import { Legend, type LegendItem } from "./Legend";
import { ITERATION_STEPS } from "./MetricChart";
import { UPlot, type PlotOptions } from "./UPlot";

// the best trial's curve: drawn last, wide and dark, whatever its state
const BEST_COLOUR = "#0f172a";

const SMOOTHING = [0, 0.6, 0.8, 0.9, 0.95, 0.99];

interface Props {
  series: CurveSeries[];
  metric: string; // the one drawn
  metrics?: string[]; // the ones the trials report: offered in a menu when given
  onMetric?: (metric: string) => void;
  xLabel: string;
  version: number; // bumped when points were merged into `series` in place
  onPick?: (trialId: number) => void;
  best?: { trial_id: number; trial_number: number; value: number | null } | null; // highlighted
}

/** The y range of values from ``min`` to ``max`` with 5% of their span either side (a flat line:
 *  +-1% of its value), not stretched to round numbers. */
function fitted(min: number | null, max: number | null): uPlot.Range.MinMax {
  if (min === null || max === null) return [0, 1];
  const pad = max > min ? (max - min) * 0.05 : Math.abs(max) * 0.01 || 1;
  return [min - pad, max + pad];
}

/** All trials' learning curves on one canvas; pruned ones dashed, hover names the trial and config. */
export function CurvesChart({ series: given, metric, metrics, onMetric, xLabel, version, onPick, best }: Props) {
  // the best trial's series last, so its curve is drawn over the others
  const bestId = best?.trial_id ?? null;
  const series = bestId === null || !given.some((s) => s.trial_id === bestId)
    ? given
    : [...given.filter((s) => s.trial_id !== bestId), given.find((s) => s.trial_id === bestId)!];
  const plot = useRef<uPlot | null>(null);
  const [hover, setHover] = useState<CurveSeries | null>(null);
  const [logScale, setLogScale] = useState(false);
  // kept in the address with the page's other choices
  const [smoothing, setSmoothing] = useState(() => {
    const shared = Number(hashQuery().get("smoothing"));
    return SMOOTHING.includes(shared) ? shared : 0;
  });
  useEffect(() => setHashQuery({ smoothing: smoothing ? String(smoothing) : "" }), [smoothing]);
  const [zoomed, setZoomed] = useState(false);
  const points = series.reduce((sum, s) => sum + s.points.length, 0);
  // a log axis cannot show zero or below
  const canLog = points > 0 && series.every((s) => s.points.every(([, y]) => y > 0));
  const log = logScale && canLog;

  const data = useMemo((): uPlot.AlignedData => {
    const { xs, ys } = alignSeries(series);
    return [xs, ...ys.map((column) => smooth(column, smoothing))];
  }, [series.length, given, version, smoothing, bestId]);
  // the same trials in the same states on the same axes: new points go into the plot drawn
  const shape = JSON.stringify([log, metric, series.map((s) => [s.trial_id, s.state])]);
  const options: PlotOptions | null = points === 0 ? null : { // the empty state below, no blank canvas
    legend: { show: false },
    cursor: { focus: { prox: 12 }, points: { show: false } },
    focus: { alpha: 0.25 },
    // y fitted to the data drawn (uPlot's default pads to round numbers)
    scales: { x: { time: false }, y: log ? { distr: 3 } : { range: (_u, min, max) => fitted(min, max) } },
    axes: [
      { label: xLabel, incrs: ITERATION_STEPS, values: (_: uPlot, v: number[]) => v.map(String) },
      // one format for the ticks drawn together (0.90, 0.95, 1.00; a log axis's in exponent form)
      { label: metric, size: 64, values: (_: uPlot, v: number[]) => (log ? v.map(formatLogTick) : formatTicks(v)) },
    ],
    series: [
      {},
      ...series.map((s) => ({
        label: `trial #${s.trial_number}`,
        stroke: s.trial_id === bestId ? BEST_COLOUR : STATE_COLOURS[s.state],
        width: s.trial_id === bestId ? 3 : s.state === "running" ? 2 : 1,
        dash: s.state === "pruned" ? [4, 4] : undefined,
        alpha: s.state === "pruned" ? 0.6 : 1,
        spanGaps: true,
        points: { show: s.points.length === 1, size: 4 }, // a trial pruned at its first result is a dot
      })),
    ],
    hooks: {
      setSeries: [(_u, index) => setHover(index ? series[index - 1] : null)],
      // a drag over the plot zooms in on x; note it, so "reset zoom" shows
      setSelect: [(u) => { if (u.select.width > 0) setZoomed(true); }],
    },
  };
  // a new plot starts unzoomed
  const made = (made: uPlot | null) => {
    plot.current = made;
    setZoomed(false);
  };
  const resetZoom = () => {
    const u = plot.current;
    if (!u) return;
    setZoomed(false);
    u.setData(u.data, true);
  };

  return (
    <div class="chart">
      <div class="chart-tools">
        {metrics && metrics.length > 1 && onMetric && (
          <label>metric{" "}
            <select name="curve-metric" value={metric} onChange={(e) => onMetric((e.target as HTMLSelectElement).value)}>
              {metrics.map((name) => <option key={name} value={name}>{name}</option>)}
            </select>
          </label>
        )}
        <label title="an exponential moving average of each curve (as TensorBoard's)">smoothing{" "}
          <select name="smoothing" value={String(smoothing)} onChange={(e) => setSmoothing(Number((e.target as HTMLSelectElement).value))}>
            {SMOOTHING.map((w) => <option key={w} value={String(w)}>{w === 0 ? "none" : w}</option>)}
          </select>
        </label>
        <label title={canLog ? "" : "a log axis needs every value above zero"}>
          <input type="checkbox" name="log" checked={log} disabled={!canLog}
            onChange={(e) => setLogScale((e.target as HTMLInputElement).checked)} /> log scale
        </label>
        {zoomed && <button type="button" data-testid="reset-zoom" onClick={resetZoom}>reset zoom</button>}
      </div>
      {points === 0 && <p class="empty" data-testid="curves-empty">No results yet: each trial's curve appears here as it reports {metric}.</p>}
      <Legend name="curves" items={curveLegend(series, best ?? null)} />
      <UPlot options={options} data={data} shape={shape} height={320} keepScales={zoomed} onPlot={made}
        data-testid="curves" data-series={series.length} data-points={points}
        data-pruned={series.filter((s) => s.state === "pruned").length} data-log={String(log)}
        data-zoomed={String(zoomed)} data-metric={metric} data-smoothing={String(smoothing)}
        onClick={() => hover && onPick?.(hover.trial_id)} />
      <p class="hover" data-testid="curve-hover">
        {hover
          ? <>trial <b>#{hover.trial_number}</b> · {hover.state} · last {formatValue(hover.points.at(-1)?.[1])} · {formatConfig(hover.config)}</>
          : <span class="muted">Hover a curve to see its trial and config; click to open it. Dashed: pruned by early stopping.</span>}
      </p>
    </div>
  );
}

/** The best trial (its number and value), then each state drawn, in its colour (pruned dashed). */
function curveLegend(series: CurveSeries[], best: Props["best"]): LegendItem[] {
  const states = new Set(series.map((s) => s.state));
  const drawnBest = best && series.some((s) => s.trial_id === best.trial_id) ? best : null;
  return [
    ...(drawnBest ? [{
      label: `best: trial #${drawnBest.trial_number} (${formatValue(drawnBest.value)})`, colour: BEST_COLOUR, mark: "bold" as const,
    }] : []),
    ...TRIAL_STATES.filter((state) => states.has(state)).map((state) => ({
      label: state, colour: STATE_COLOURS[state], mark: state === "pruned" ? "dash" as const : "line" as const,
    })),
  ];
}
