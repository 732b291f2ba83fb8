import { plural } from "../shape";
import type { Importance } from "../types";

/** Hyperparameter importance as horizontal bars, most important first: which trials were
 *  compared (those that reached one iteration, a rung one may choose), a warning where early
 *  stopping left a value of a choice out of them, and the server's message (too few trials) in
 *  place of the bars until there is a ranking. */
export function ImportanceChart({ importance, onIteration }: { importance: Importance; onIteration?: (at: number | null) => void }) {
  const top = Math.max(...importance.importances.map((p) => p.importance), 1e-9);
  const at = importance.at_iteration;
  const rungs = importance.iterations ?? [];
  return (
    <div data-testid="importance-view">
      {at !== null && (
        <p data-testid="importance-compared">
          Compared: the {plural(importance.trials_reached, "trial")} of {importance.trials_reporting} with a result that reached
          iteration {at}, each by its {importance.metric} there
          {importance.trials_used < importance.trials_reached ? ` (${importance.trials_used} of them sampled)` : ""}.{" "}
          {onIteration && rungs.length > 1 && (
            <label>compare at{" "}
              <select name="importance-at" value={String(at)}
                onChange={(e) => onIteration(Number((e.target as HTMLSelectElement).value))}>
                {rungs.map((r) => <option key={r} value={String(r)}>iteration {r}</option>)}
                {!rungs.includes(at) && <option value={String(at)}>iteration {at}</option>}
              </select>
            </label>
          )}
        </p>
      )}
      {importance.warnings.length > 0 && (
        <div class="banner warn" role="status" data-testid="importance-warning">
          <p><b>Early stopping skewed the compared trials:</b></p>
          <ul>
            {importance.warnings.map((w) => (
              <li key={`${w.parameter}=${w.value}`} data-param={w.parameter} data-value={w.value} data-stopped-at={w.stopped_at}>{w.message}</li>
            ))}
          </ul>
          {onIteration && rungs.includes(importance.warnings[0].stopped_at) && (
            <button type="button" data-action="compare-at-rung" onClick={() => onIteration(importance.warnings[0].stopped_at)}>
              compare at iteration {importance.warnings[0].stopped_at}
            </button>
          )}
        </div>
      )}
      {!importance.importances.length ? <p class="muted" data-testid="importance-message">{importance.message}</p> : (
        <div data-testid="importance">
          <p class="muted">
            Optuna's {importance.evaluator === "fanova" ? "fANOVA" : "PED-ANOVA"} over {plural(importance.trials_used, "trial")}: how much each hyperparameter decided {importance.metric}.
          </p>
          <table class="grid importance">
            <tbody>
              {importance.importances.map((p) => (
                <tr key={p.name} data-param={p.name}>
                  <th scope="row">{p.name}</th>
                  <td><div class="importancebar" style={{ width: `${(100 * p.importance) / top}%` }} /></td>
                  <td class="num">{p.importance.toFixed(3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
