import type { Importance } from "../types";

/** Hyperparameter importance as horizontal bars, most important first; the server's message
 *  (too few finished trials) in place of the bars until there is a ranking. */
export function ImportanceChart({ importance }: { importance: Importance }) {
  if (!importance.importances.length) return <p class="muted" data-testid="importance-message">{importance.message}</p>;
  const top = Math.max(...importance.importances.map((p) => p.importance), 1e-9);
  return (
    <div data-testid="importance">
      <p class="muted">
        Optuna's {importance.evaluator === "fanova" ? "fANOVA" : "PED-ANOVA"} over {importance.trials_used} trials compared at iteration {importance.at_iteration}: how much each hyperparameter decided {importance.metric}.
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
  );
}
