import { formatValue } from "../shape";
import type { Rungs } from "../types";

/** The rungs as the scheduler decided them: for each milestone, how many trials it judged there,
 *  what it decided (went on, stopped, paused, promoted, completed) and the cutoff it applied last. */
export function RungView({ rungs, metric }: { rungs: Rungs; metric: string }) {
  if (rungs.scheduler === "none") return <p class="muted">This sweep runs without early stopping: every trial gets the full budget.</p>;
  const promotion = rungs.scheduler === "asha_promotion";
  const widest = Math.max(1, ...rungs.rungs.map((r) => r.reached));
  return (
    <div data-testid="rungs">
      <p class="muted">
        {promotion
          ? `Promotion ASHA pauses every trial at each milestone and promotes the best 1/${rungs.reduction_factor} of a milestone's trials when a slot frees.`
          : `ASHA keeps the best 1/${rungs.reduction_factor} of the trials at each milestone.`}{" "}
        Counts and cutoffs are the decisions as they were made.
      </p>
      <table class="grid rungs">
        <thead><tr><th>Milestone</th><th>Reached</th><th>{promotion ? "Promoted / paused / stopped here" : "Continued / stopped here"}</th><th>Cutoff ({metric})</th></tr></thead>
        <tbody>
          {rungs.rungs.map((r) => (
            <tr key={r.milestone} data-milestone={r.milestone}>
              <td>{r.milestone}</td>
              <td class="num" data-reached={r.reached}>{r.reached}</td>
              <td>
                <div class="rungbar" style={{ width: `${(100 * r.reached) / widest}%` }}>
                  <span class="continued" style={{ flex: r.continued + r.promoted }} title={`${r.continued + r.promoted} ${promotion ? "promoted" : "continued"}`}>{r.continued + r.promoted || ""}</span>
                  <span class="paused" style={{ flex: r.paused }} title={`${r.paused} paused here`}>{r.paused || ""}</span>
                  <span class="stopped" style={{ flex: r.stopped }} title={`${r.stopped} stopped here`}>{r.stopped || ""}</span>
                  <span class="completed" style={{ flex: r.completed }} title={`${r.completed} completed here`}>{r.completed || ""}</span>
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
