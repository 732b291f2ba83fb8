import { formatValue } from "../shape";
import type { Rungs } from "../types";

/** ASHA's rungs: for each milestone, how many trials reached it, went on, stopped, and the cutoff. */
export function RungView({ rungs, metric }: { rungs: Rungs; metric: string }) {
  if (rungs.scheduler !== "asha") return <p class="muted">This sweep runs without early stopping: every trial gets the full budget.</p>;
  const widest = Math.max(1, ...rungs.rungs.map((r) => r.reached));
  return (
    <div data-testid="rungs">
      <p class="muted">ASHA keeps the best 1/{rungs.reduction_factor} of the trials at each milestone (first bracket).</p>
      <table class="grid rungs">
        <thead><tr><th>Milestone</th><th>Reached</th><th>Continued / stopped here</th><th>Cutoff ({metric})</th></tr></thead>
        <tbody>
          {rungs.rungs.map((r) => (
            <tr key={r.milestone} data-milestone={r.milestone}>
              <td>{r.milestone}</td>
              <td class="num" data-reached={r.reached}>{r.reached}</td>
              <td>
                <div class="rungbar" style={{ width: `${(100 * r.reached) / widest}%` }}>
                  <span class="continued" style={{ flex: r.continued }} title={`${r.continued} continued`}>{r.continued || ""}</span>
                  <span class="stopped" style={{ flex: r.stopped }} title={`${r.stopped} stopped here`}>{r.stopped || ""}</span>
                  <span class="waiting" style={{ flex: Math.max(0, r.reached - r.continued - r.stopped) }} title="still deciding" />
                </div>
              </td>
              <td class="num">{formatValue(r.cutoff)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
