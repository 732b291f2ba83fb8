import { crossPath, formatValue } from "../shape";
import type { History, HistoryPoint } from "../types";

const HEIGHT = 260;
const PAD = { top: 16, bottom: 40, left: 64, right: 16 };

/** Optuna's history plot: each finished trial's best metric in the order the trials ended (pruned
 *  ones faint, infeasible ones as red crosses) and the best so far as a step line. A click opens
 *  the trial. */
export function HistoryChart({ history, width }: { history: History; width: number }) {
  const points = history.points;
  if (!points.length) return <p class="muted" data-testid="history-empty">No trial has finished with a {history.metric} yet.</p>;
  const values = points.map((p) => p.value);
  const low = Math.min(...values), high = Math.max(...values);
  const span = high - low || 1;
  const last = history.finished_trials;
  const x = (order: number) => PAD.left + ((order - 0.5) / last) * (width - PAD.left - PAD.right);
  const y = (value: number) => HEIGHT - PAD.bottom - (0.05 + (0.9 * (value - low)) / span) * (HEIGHT - PAD.top - PAD.bottom);
  // the best so far as steps: flat until the trial that improved it
  const steps: string[] = [];
  let previous: number | null = null;
  for (const p of points) {
    if (p.best === null) continue;
    if (previous !== null && p.best !== previous) steps.push(`${x(p.order)},${y(previous)}`);
    steps.push(`${x(p.order)},${y(p.best)}`);
    previous = p.best;
  }
  if (previous !== null) steps.push(`${x(last)},${y(previous)}`);
  const label = (p: HistoryPoint) =>
    `trial #${p.trial_number} (${p.state}${p.feasible === false ? ", infeasible" : ""}), finished ${p.order} of ${last}: ` +
    `${history.metric}=${formatValue(p.value)}; best so far ${formatValue(p.best)}`;
  const open = (p: HistoryPoint) => { location.hash = `#/trials/${p.trial_id}`; };
  return (
    <div data-testid="history">
      <p class="muted">
        Each of the {last} finished trials' best {history.metric} ({history.mode}), in the order they ended, and the best so far
        {points.length < last ? ` (${points.length} drawn: every recent improvement and an even spread of the rest)` : ""}.
      </p>
      <svg width={width} height={HEIGHT} class="history" role="img" aria-label={`history of ${history.metric}`}>
        <polyline class="best" points={steps.join(" ")} fill="none" data-best={previous ?? ""} />
        {points.map((p) => {
          const [cx, cy] = [x(p.order), y(p.value)];
          const common = { key: p.trial_id, "data-trial": p.trial_id, "data-order": p.order, onClick: () => open(p) };
          if (p.feasible === false) {
            return (
              <path {...common} class="infeasible" d={crossPath(cx, cy)}>
                <title>{label(p)}</title>
              </path>
            );
          }
          return (
            <circle {...common} cx={cx} cy={cy} r={3} class={p.state}>
              <title>{label(p)}</title>
            </circle>
          );
        })}
        <g class="axis">
          <line x1={PAD.left} x2={width - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
          <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} />
          <text x={(PAD.left + width - PAD.right) / 2} y={HEIGHT - 8} text-anchor="middle">trials, in the order they finished</text>
          <text x={x(1)} y={HEIGHT - PAD.bottom + 14} class="tick" text-anchor="middle">1</text>
          <text x={x(last)} y={HEIGHT - PAD.bottom + 14} class="tick" text-anchor="middle">{last}</text>
          <text x={12} y={(PAD.top + HEIGHT - PAD.bottom) / 2} text-anchor="middle"
            transform={`rotate(-90 12 ${(PAD.top + HEIGHT - PAD.bottom) / 2})`}>{history.metric}</text>
          <text x={PAD.left - 4} y={y(low) + 4} class="tick" text-anchor="end">{formatValue(low)}</text>
          <text x={PAD.left - 4} y={y(high) + 4} class="tick" text-anchor="end">{formatValue(high)}</text>
        </g>
      </svg>
    </div>
  );
}
