import { api } from "../api";
import { LINE_COLOURS, MetricChart } from "../charts/MetricChart";
import { PageError, StateBadge } from "../components";
import { useLive, useTitle } from "../hooks";
import { formatParam, formatValue, metricSeries } from "../shape";
import type { Page, ResultItem, Trial } from "../types";

export const MAX_COMPARED = 4;

interface Compared { trial: Trial; results: ResultItem[] }

/** 2-4 trials side by side: their configs (the keys that differ marked), where they ended, and
 *  every metric they report with their curves overlaid. */
export function ComparePage({ ids }: { ids: number[] }) {
  const { data: compared, error } = useLive(async (): Promise<Compared[]> => {
    if (ids.length < 2 || ids.length > MAX_COMPARED) {
      throw new Error(`Compare takes 2 to ${MAX_COMPARED} trials; the address names ${ids.length}.`);
    }
    return Promise.all(ids.map(async (id) => ({
      trial: await api<Trial>(`/trials/${id}`),
      results: (await api<Page<ResultItem>>(`/trials/${id}/results`, { query: { limit: 10000 } })).items,
    })));
  }, 0, [ids.join(",")]);
  useTitle(compared ? `compare ${compared.map((c) => `#${c.trial.number}`).join(", ")}` : "compare");

  if (error) return <PageError error={error} />;
  if (!compared) return <p class="muted">Loading…</p>;
  const keys = [...new Set(compared.flatMap((c) => Object.keys(c.trial.config)))].sort();
  const differs = (key: string) => new Set(compared.map((c) => JSON.stringify(c.trial.config[key] ?? null))).size > 1;
  const series = compared.map((c) => metricSeries(c.results));
  const metrics = [...new Set(series.flatMap((s) => [...s.keys()]))].sort();
  // each trial's column headed in its line's colour, with the line's mark
  const head = compared.map((c, i) => (
    <th key={c.trial.id} class="trial" data-trial={c.trial.id} data-colour={LINE_COLOURS[i]} style={{ color: LINE_COLOURS[i] }}>
      <svg width="18" height="10" aria-hidden="true"><line x1="1" x2="17" y1="5" y2="5" stroke={LINE_COLOURS[i]} stroke-width="3" /></svg>{" "}
      <a href={`#/trials/${c.trial.id}`}>trial #{c.trial.number}</a>
    </th>
  ));
  // both tables share their columns' widths: a trial's values sit one above the other
  const columns = (
    <colgroup><col class="key" />{compared.map((c) => <col key={c.trial.id} />)}</colgroup>
  );
  return (
    <section>
      <p><a href={`#/experiments/${compared[0].trial.experiment_id}`}>‹ experiment {compared[0].trial.experiment_id}</a></p>
      <h1>Compare {compared.length} trials</h1>
      <h2>Config</h2>
      <table class="grid compare" data-testid="compare-config">
        {columns}
        <thead><tr><th></th>{head}</tr></thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key} data-key={key} data-differs={String(differs(key))} class={differs(key) ? "differs" : ""}>
              <th>{key}</th>
              {compared.map((c) => <td key={c.trial.id} class="num">{formatParam(c.trial.config[key])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Where they ended</h2>
      <table class="grid compare" data-testid="compare-final">
        {columns}
        <thead><tr><th></th>{head}</tr></thead>
        <tbody>
          <tr><th>state</th>{compared.map((c) => <td key={c.trial.id}><StateBadge state={c.trial.state} /></td>)}</tr>
          <tr><th>iteration</th>{compared.map((c) => <td key={c.trial.id} class="num">{c.trial.iteration}</td>)}</tr>
          <tr data-row="last"><th>last</th>{compared.map((c) => <td key={c.trial.id} class="num">{formatValue(c.trial.last_metric)}</td>)}</tr>
          <tr data-row="best"><th>best</th>{compared.map((c) => <td key={c.trial.id} class="num">{formatValue(c.trial.best_metric)}</td>)}</tr>
        </tbody>
      </table>
      <h2>Metrics</h2>
      <div class="metric-grid" data-testid="compare-metrics" data-count={metrics.length}>
        {metrics.map((name) => (
          <MetricChart key={name} name={name}
            lines={compared.map((c, i) => ({ label: `trial #${c.trial.number}`, points: series[i].get(name) ?? [] }))} />
        ))}
      </div>
    </section>
  );
}
