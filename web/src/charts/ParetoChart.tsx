import { crossPath, formatConfig, formatValue } from "../shape";
import type { Pareto, ParetoTrial } from "../types";
import { Axes, linearScale, plotArea, valueTicks } from "./Frame";
import { Legend } from "./Legend";

const HEIGHT = 300;
const PAD = { top: 16, bottom: 40, left: 64, right: 16 };

/** The Pareto front: with two objectives a scatter of the completed trials (the front filled
 *  and joined, dominated ones faint, infeasible ones as red crosses); with three or more, the
 *  front as a table. A click opens the trial. */
export function ParetoChart({ pareto, width }: { pareto: Pareto; width: number }) {
  if (pareto.message) return <p class="muted" data-testid="pareto-message">{pareto.message}</p>;
  const names = pareto.objectives.map((o) => o.metric);
  const summary = (
    <p class="muted">
      {pareto.front.length} of {pareto.completed_trials} completed trials on the front
      {pareto.trials.length < pareto.completed_trials ? ` (${pareto.trials.length} drawn)` : ""}; each judged by its latest{" "}
      {pareto.objectives.map((o) => `${o.metric} (${o.mode})`).join(", ")}.
    </p>
  );
  if (names.length !== 2) {
    const front = pareto.front.map((id) => pareto.trials.find((t) => t.trial_id === id)!).filter(Boolean);
    return (
      <div data-testid="pareto">
        {summary}
        <table class="grid" data-testid="pareto-table">
          <thead><tr><th>Trial</th>{names.map((n) => <th key={n}>{n}</th>)}<th>Config</th></tr></thead>
          <tbody>
            {front.map((t) => (
              <tr key={t.trial_id} data-trial={t.trial_id}>
                <td><a href={`#/trials/${t.trial_id}`}>#{t.trial_number}</a></td>
                {names.map((n) => <td key={n} class="num">{formatValue(t.values[n])}</td>)}
                <td class="muted">{formatConfig(t.config)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  const [xName, yName] = names;
  const plot = plotArea(width, HEIGHT, PAD);
  // 5% of room on each side: no point sits on an axis
  const axis = (name: string) => {
    const values = pareto.trials.map((t) => t.values[name]);
    const min = Math.min(...values), max = Math.max(...values);
    const scale = linearScale(min, max, 0.05);
    return { scale, ticks: valueTicks(min, max, scale) };
  };
  const [xs, ys] = [axis(xName), axis(yName)];
  const point = (t: ParetoTrial) => [plot.x(xs.scale(t.values[xName])), plot.y(ys.scale(t.values[yName]))] as const;
  const front = pareto.trials.filter((t) => t.on_front).sort((a, b) => a.values[xName] - b.values[xName]);
  const open = (t: ParetoTrial) => { location.hash = `#/trials/${t.trial_id}`; };
  const label = (t: ParetoTrial) =>
    `trial #${t.trial_number}${t.on_front ? " (on the front)" : ""}${t.feasible === false ? " (infeasible)" : ""}: ` +
    `${xName}=${formatValue(t.values[xName])}, ${yName}=${formatValue(t.values[yName])}; ${formatConfig(t.config)}`;
  return (
    <div data-testid="pareto">
      {summary}
      <svg width={width} height={HEIGHT} class="pareto" role="img" aria-label={`Pareto front of ${xName} and ${yName}`}>
        <polyline points={front.map((t) => point(t).join(",")).join(" ")} fill="none" class="front" />
        {pareto.trials.map((t) => {
          const [x, y] = point(t);
          const common = { key: t.trial_id, "data-trial": t.trial_id, "data-front": String(t.on_front), onClick: () => open(t) };
          if (t.feasible === false) {
            return (
              <path {...common} data-infeasible="true" class="infeasible" d={crossPath(x, y)}>
                <title>{label(t)}</title>
              </path>
            );
          }
          return (
            <circle {...common} cx={x} cy={y} r={t.on_front ? 5 : 3} class={t.on_front ? "on-front" : "dominated"}>
              <title>{label(t)}</title>
            </circle>
          );
        })}
        <Axes plot={plot} x={{ ticks: xs.ticks, title: `${xName} (${pareto.objectives[0].mode})` }}
          y={{ ticks: ys.ticks, title: `${yName} (${pareto.objectives[1].mode})` }} />
      </svg>
      <Legend name="pareto" items={[
        { label: "on the front", colour: "#2563eb" },
        { label: "dominated", colour: "#94a3b8" },
        ...(pareto.trials.some((t) => t.feasible === false) ? [{ label: "infeasible (breaks a constraint)", colour: "#dc2626", mark: "cross" as const }] : []),
      ]} />
    </div>
  );
}
