import { formatTicks, plural } from "../shape";
import type { History } from "../types";
import { Axes, linearScale, plotArea, valueTicks } from "./Frame";

const HEIGHT = 220;
const FRACTIONS = [0, 0.25, 0.5, 0.75, 1];
const FRACTION_LABELS = formatTicks(FRACTIONS);
const PAD = { top: 16, bottom: 40, left: 64, right: 16 };

/** Optuna's EDF plot: for each value of the metric, the fraction of finished trials at or below
 *  it, as steps. A sweep whose trials are mostly good climbs late (mode max) or early (min). The
 *  server leaves failed and infeasible trials out, so neither sets the axis's range. */
export function EdfChart({ history, width }: { history: History; width: number }) {
  const edf = history.edf;
  if (!edf.length) return null;
  const low = edf[0][0], high = edf[edf.length - 1][0];
  const plot = plotArea(width, HEIGHT, PAD);
  const scale = linearScale(low, high);
  const x = (value: number) => plot.x(scale(value));
  const y = plot.y;
  // steps: flat at the fraction so far until the next value, then up to its own
  const steps: string[] = [`${x(low)},${y(0)}`];
  let previous = 0;
  for (const [value, fraction] of edf) {
    steps.push(`${x(value)},${y(previous)}`, `${x(value)},${y(fraction)}`);
    previous = fraction;
  }
  return (
    <div data-testid="edf" data-range={`${low},${high}`}>
      <p class="muted">
        EDF: of the {plural(history.edf_trials, "finished trial")} that count, the fraction whose {history.metric} is at or below each value
        {history.edf_trials < history.finished_trials ? ` (${history.finished_trials - history.edf_trials} failed or infeasible left out)` : ""}.
      </p>
      <svg width={width} height={HEIGHT} class="history" role="img" aria-label={`empirical distribution of ${history.metric}`}>
        <polyline class="best" points={steps.join(" ")} fill="none" data-points={edf.length} />
        <Axes plot={plot} x={{ ticks: valueTicks(low, high, scale), title: history.metric }}
          y={{ ticks: FRACTIONS.map((f, i) => ({ at: f, label: FRACTION_LABELS[i] })), title: "fraction", grid: true }} />
      </svg>
    </div>
  );
}
