import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { MetricChart } from "../charts/MetricChart";
import { Notes, StateBadge, WaitingBadge } from "../components";
import { errorText, usePoll, useTitle } from "../hooks";
import { formatAgo, formatValue, metricSeries } from "../shape";
import type { Checkpoint, EventItem, Experiment, Me, Page, ResultItem, Trial } from "../types";

export function TrialPage({ id, me }: { id: number; me: Me }) {
  const [trial, setTrial] = useState<Trial | null>(null);
  const [results, setResults] = useState<ResultItem[]>([]);
  const [checkpoints, setCheckpoints] = useState<Checkpoint[]>([]);
  const [events, setEvents] = useState<EventItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [metric, setMetric] = useState<string | null>(null);  // the sweep's, named on the card
  const lastIteration = useRef(-1);
  useTitle(trial ? `trial #${trial.number}` : null);

  useEffect(() => {
    lastIteration.current = -1;
    setResults([]);
    setMetric(null);
  }, [id]);

  usePoll(async () => {
    try {
      const current = await api<Trial>(`/trials/${id}`);
      setTrial(current);
      if (metric === null) setMetric((await api<Experiment>(`/experiments/${current.experiment_id}`)).metric);
      const fresh = await api<Page<ResultItem>>(`/trials/${id}/results`, { query: { first: lastIteration.current + 1, limit: 10000 } });
      if (fresh.items.length) {
        lastIteration.current = fresh.items.at(-1)!.iteration;
        setResults((old) => [...old, ...fresh.items]);
      }
      const [newCheckpoints, newEvents] = await Promise.all([
        api<Checkpoint[]>(`/trials/${id}/checkpoints`),
        api<Page<EventItem>>(`/experiments/${current.experiment_id}/events`, { query: { trial: id, limit: 500 } }),
      ]);
      setCheckpoints(newCheckpoints);
      setEvents(newEvents.items);
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  }, 2000, [id]);

  if (!trial) return error ? <p class="error" role="alert">{error}</p> : <p class="muted">Loading…</p>;
  const series = metricSeries(results);
  return (
    <section>
      <p><a href={`#/experiments/${trial.experiment_id}`}>‹ experiment {trial.experiment_id}</a></p>
      <h1>Trial #{trial.number} <StateBadge state={trial.state} /> <WaitingBadge reason={trial.waiting_for} /></h1>
      {trial.waiting_for && <p class="muted" data-testid="waiting-for">{trial.waiting_for}</p>}
      {trial.early_stopping && <p data-testid="early-stopping">{trial.early_stopping}</p>}
      <p class="muted mono">id {trial.id} · {trial.tune_trial_id} · iteration {trial.iteration} · restarts {trial.restarts}
        {trial.started_at && ` · started ${formatAgo(trial.started_at)}`}</p>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="cards">
        <div class="card">
          <h3>Config</h3>
          <table class="kv" data-testid="config">
            <tbody>{Object.entries(trial.config).map(([k, v]) => <tr key={k}><th>{k}</th><td class="mono">{formatValue(v)}</td></tr>)}</tbody>
          </table>
        </div>
        <Notes notes={trial.notes} editable={me.role !== "viewer"} save={async (text) => {
          setTrial(await api<Trial>(`/trials/${id}/notes`, { method: "PUT", body: { notes: text } }));
        }} />
        <div class="card" data-testid="metric-card">
          <h3>{metric ?? "Metric"}</h3>
          <p>last {formatValue(trial.last_metric)} · best <b>{formatValue(trial.best_metric)}</b></p>
        </div>
      </div>
      {trial.error && (
        <>
          <h2>Error</h2>
          <pre class="error traceback" data-testid="traceback">{trial.error}</pre>
        </>
      )}
      <h2>Metrics</h2>
      <div class="metric-grid" data-testid="metrics" data-count={series.size}>
        {[...series.entries()].map(([name, points]) => <MetricChart key={name} name={name} lines={[{ label: name, points }]} />)}
        {series.size === 0 && <p class="muted">No results yet.</p>}
      </div>
      <h2>Checkpoints</h2>
      <table class="grid" data-testid="checkpoints">
        <thead><tr><th>Iteration</th><th>Metric</th><th>URI</th><th>Saved</th></tr></thead>
        <tbody>
          {checkpoints.map((c) => (
            <tr key={c.iteration} class={c.deleted ? "deleted" : ""}>
              <td class="num">{c.iteration}</td><td class="num">{formatValue(c.metric)}</td>
              <td class="mono">{c.uri}{c.deleted && " (removed by retention)"}</td><td>{formatAgo(c.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Restarts and events</h2>
      <ol class="events" data-testid="trial-events">
        {events.map((e) => (
          <li key={e.id}><span class="muted">{formatAgo(e.created_at)}</span> <b>{e.kind}</b> {e.message}
            {Object.keys(e.data).length > 0 && <pre>{JSON.stringify(e.data, null, 2)}</pre>}</li>
        ))}
        {events.length === 0 && <li class="muted">None.</li>}
      </ol>
    </section>
  );
}
