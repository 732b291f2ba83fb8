import { formatTicks, linearTicks, plural } from "../shape";
import type { History } from "../types";

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
  const span = high - low || 1;
  const x = (value: number) => PAD.left + ((value - low) / span) * (width - PAD.left - PAD.right);
  const y = (fraction: number) => HEIGHT - PAD.bottom - fraction * (HEIGHT - PAD.top - PAD.bottom);
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
        <g class="axis">
          <line x1={PAD.left} x2={width - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
          <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} />
          <text x={(PAD.left + width - PAD.right) / 2} y={HEIGHT - 8} text-anchor="middle">{history.metric}</text>
          {linearTicks(low, high).map((t) => (
            <text key={t.label} x={x(t.value)} y={HEIGHT - PAD.bottom + 14} class="tick" text-anchor="middle">{t.label}</text>
          ))}
          {FRACTIONS.map((f, i) => (
            <g key={f}>
              <line class="grid-line" x1={PAD.left} x2={width - PAD.right} y1={y(f)} y2={y(f)} />
              <text x={PAD.left - 4} y={y(f) + 4} class="tick" text-anchor="end">{FRACTION_LABELS[i]}</text>
            </g>
          ))}
          <text x={12} y={(PAD.top + HEIGHT - PAD.bottom) / 2} text-anchor="middle"
            transform={`rotate(-90 12 ${(PAD.top + HEIGHT - PAD.bottom) / 2})`}>fraction</text>
        </g>
      </svg>
    </div>
  );
}
