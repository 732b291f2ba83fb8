import { formatSpan } from "../clocks";
import { STATE_COLOURS, TRIAL_STATES } from "../shape";
import { timelineRows, timeTicks } from "../timeline";
import type { TimelineData } from "../types";
import { Legend } from "./Legend";

const LEFT = 44; // the trial numbers
const RIGHT = 12;
const TOP = 8;
const AXIS = 28; // the time axis under the bars
const HATCH = "timeline-waiting";

/** A bar per trial over time (optuna-dashboard's timeline), oldest at the top, coloured by its
 *  state; the parts it waited for the cluster to place it hatched. Its box scrolls inside
 *  itself: a phone shows it at ``width`` (at least 360) and a tall sweep's rows scroll. */
export function TimelineChart({ data, width, now = Date.now() }: { data: TimelineData; width: number; now?: number }) {
  const { rows, start, end } = timelineRows(data, now);
  if (!rows.length) return <p class="muted">No trial has started yet.</p>;
  const row = rows.length <= 40 ? 16 : rows.length <= 150 ? 7 : 4;
  const bar = Math.max(3, row - 3);
  const w = Math.max(360, width);
  const h = TOP + rows.length * row + AXIS;
  const span = end - start;
  const x = (t: number) => LEFT + ((t - start) / span) * (w - LEFT - RIGHT);
  const y = (i: number) => TOP + i * row;
  const states = TRIAL_STATES.filter((s) => rows.some((r) => r.state === s));
  const waited = rows.some((r) => r.waits.length);
  const labelEvery = Math.ceil(12 / row); // a number every few rows when they are thin
  return (
    <div class="timeline" data-testid="timeline">
      <Legend name="timeline" items={[
        ...states.map((s) => ({ label: s, colour: STATE_COLOURS[s], mark: "bold" as const })),
        ...(waited ? [{ label: "waiting for resources", colour: "#94a3b8", mark: "dash" as const, title: "hatched: the trial waited for the cluster to place it" }] : []),
      ]} />
      <div class="timeline-scroll">
        <svg width={w} height={h} role="img" aria-label={`timeline of ${rows.length} trials`} data-testid="timeline-chart">
          <defs>
            <pattern id={HATCH} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" fill="white" opacity="0.55" />
              <line x1="0" y1="0" x2="0" y2="6" stroke="#334155" stroke-width="2" />
            </pattern>
          </defs>
          {timeTicks(span).map((tick) => (
            <g key={tick.offset} class="tick">
              <line x1={x(start + tick.offset)} x2={x(start + tick.offset)} y1={TOP} y2={h - AXIS + 4} stroke="#e2e8f0" />
              <text x={x(start + tick.offset)} y={h - AXIS + 16} text-anchor="middle" font-size="10" fill="#475569">{tick.label}</text>
            </g>
          ))}
          <text x={w - RIGHT} y={h - 2} text-anchor="end" font-size="10" fill="#64748b">
            since {new Date(start).toLocaleString()}
          </text>
          {rows.map((r, i) => (
            <a key={r.trialId} href={`#/trials/${r.trialId}`} data-testid="timeline-bar" data-trial={r.number} data-state={r.state}
              data-waits={r.waits.length}>
              <title>{`trial #${r.number} · ${r.state} · ${r.state === "running" ? "running for" : "ran"} ${formatSpan(r.run.to - r.run.from)}`
                + (r.waits.length ? ` · waited ${formatSpan(r.waits.reduce((sum, s) => sum + s.to - s.from, 0))}${r.waits.some((s) => s.ongoing) ? " (waiting now)" : ""}` : "")}</title>
              {i % labelEvery === 0 && (
                <text x={LEFT - 4} y={y(i) + bar} text-anchor="end" font-size="10" fill="#475569">#{r.number}</text>
              )}
              <rect x={x(r.run.from)} y={y(i)} width={Math.max(1, x(r.run.to) - x(r.run.from))} height={bar} fill={STATE_COLOURS[r.state]} />
              {r.waits.map((s) => (
                <rect key={s.from} data-testid="timeline-wait" x={x(s.from)} y={y(i)} width={Math.max(1, x(s.to) - x(s.from))} height={bar}
                  fill={`url(#${HATCH})`} />
              ))}
            </a>
          ))}
        </svg>
      </div>
    </div>
  );
}
