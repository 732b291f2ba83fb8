import { useRef, useState } from "preact/hooks";
import { api } from "../api";
import { MetricChart } from "../charts/MetricChart";
import { Notes, PageError, SilentBadge, StateBadge, WaitingBadge, Waited } from "../components";
import { duration, formatSpan, waitedFor } from "../clocks";
import { hashQuery, setHashQuery, useLive, useTitle } from "../hooks";
import { ENDED_STATES, formatAgo, formatParam, formatValue, metricSeries, SWEEP_ENDED } from "../shape";
import type { Checkpoint, EventItem, Experiment, Me, Page, ResultItem, Trial } from "../types";
import { TrialSchedule } from "./Lineage";
import { LogsView, LogTail } from "./TrialLogs";

type Tab = "overview" | "logs";

/** What the page shows of a trial, read together. */
interface TrialView {
  trial: Trial; results: ResultItem[]; checkpoints: Checkpoint[]; events: EventItem[];
  sweep: { metric: string; spaces: number }; // its sweep's metric (named on the card) and search-space versions
  ended: boolean; // it and its sweep have ended: it changes no more
}

export function TrialPage({ id, me }: { id: number; me: Me }) {
  const sweep = useRef<TrialView["sweep"] | null>(null);
  const results = useRef<ResultItem[]>([]); // each poll asks for the ones after these only
  const [tab, setTab] = useState<Tab>(hashQuery().get("tab") === "logs" ? "logs" : "overview");
  const choose = (chosen: Tab) => {
    setTab(chosen);
    // the logs' filters are the logs tab's: the overview's address names none
    setHashQuery(chosen === "logs" ? { tab: "logs" } : { tab: "", rank: "", attempt: "" });
  };
  // polled until the trial can change no more: it is missing, or it and its sweep have ended (an
  // extension may continue an ended trial of a sweep that is live again)
  const { data: view, error, setData } = useLive<TrialView>(async () => {
    const trial = await api<Trial>(`/trials/${id}`);
    const trialEnded = ENDED_STATES.includes(trial.state);
    let sweepEnded = false;
    if (sweep.current === null || trialEnded) {
      const read = await api<Experiment>(`/experiments/${trial.experiment_id}`);
      sweep.current = { metric: read.metric, spaces: read.search_spaces?.length ?? 1 };
      sweepEnded = SWEEP_ENDED.includes(read.state);
    }
    const first = (results.current.at(-1)?.iteration ?? -1) + 1;
    const fresh = await api<Page<ResultItem>>(`/trials/${id}/results`, { query: { first, limit: 10000 } });
    if (fresh.items.length) results.current = [...results.current, ...fresh.items];
    const [checkpoints, events] = await Promise.all([
      api<Checkpoint[]>(`/trials/${id}/checkpoints`),
      api<Page<EventItem>>(`/experiments/${trial.experiment_id}/events`, { query: { trial: id, limit: 500 } }),
    ]);
    return { trial, results: results.current, checkpoints, events: events.items, sweep: sweep.current, ended: trialEnded && sweepEnded };
  }, 2000, [id], (read) => !read?.ended);
  useTitle(view ? `trial #${view.trial.number}` : null);

  if (!view) return error ? <PageError error={error} /> : <p class="muted">Loading…</p>;
  const { trial, checkpoints, events, sweep: { metric, spaces } } = view;
  const series = metricSeries(view.results);
  return (
    <section>
      <p><a href={`#/experiments/${trial.experiment_id}`}>‹ experiment {trial.experiment_id}</a></p>
      <h1>Trial #{trial.number} <StateBadge state={trial.state} /> <WaitingBadge reason={trial.waiting_for} />
        {trial.state === "running" && <SilentBadge trial={trial} />}</h1>
      {trial.waiting_for && <p class="muted" data-testid="waiting-for">{trial.waiting_for}</p>}
      {trial.waiting_for && waitedFor(trial) !== null && (
        <p data-testid="waiting-since" title={trial.waiting_since ?? ""}>waiting {formatSpan(waitedFor(trial)!)}<Waited trial={{ ...trial, waiting_since: null }} /></p>
      )}
      {trial.early_stopping && <p data-testid="early-stopping">{trial.early_stopping}</p>}
      {spaces > 1 && <p data-testid="space-version">sampled from search space v{trial.space_version}</p>}
      <p class="muted mono">id {trial.id} · {trial.tune_trial_id} · iteration {trial.iteration} · restarts {trial.restarts}</p>
      <p class="muted" data-testid="trial-clock">
        {trial.started_at ? <span title={trial.started_at}>started {formatAgo(trial.started_at)}</span> : "not started"}
        {trial.started_at && <> · {trial.finished_at ? "ran" : "running for"} <span data-testid="duration">{duration(trial)}</span></>}
        {" · "}{trial.last_reported_at
          ? <span title={trial.last_reported_at} data-testid="last-report">last result {formatAgo(trial.last_reported_at)}</span>
          : <span data-testid="last-report">no result yet</span>}
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      <div class="tabs" role="tablist" data-testid="trial-tabs">
        {(["overview", "logs"] as Tab[]).map((t) => (
          <button key={t} role="tab" class="tab" data-tab={t} aria-selected={tab === t} onClick={() => choose(t)}>{t}</button>
        ))}
      </div>
      {tab === "logs" ? <LogsView path={`/trials/${id}/logs`} live={!ENDED_STATES.includes(trial.state)} /> : (
        <>
          <div class="cards">
            <div class="card">
              <h3>Config</h3>
              <table class="kv" data-testid="config">
                <tbody>{Object.entries(trial.config).map(([k, v]) => <tr key={k}><th>{k}</th><td class="mono">{formatParam(v)}</td></tr>)}</tbody>
              </table>
            </div>
            <Notes notes={trial.notes} editable={me.role !== "viewer"} save={async (text) => {
              const noted = await api<Trial>(`/trials/${id}/notes`, { method: "PUT", body: { notes: text } });
              setData((old) => old && { ...old, trial: noted });
            }} />
            <div class="card" data-testid="metric-card">
              <h3>{metric}</h3>
              <p>last {formatValue(trial.last_metric)} · best <b>{formatValue(trial.best_metric)}</b></p>
            </div>
          </div>
          {(trial.error || trial.state === "failed") && (
            <>
              <h2>Error</h2>
              <div class="error-logs">
                {trial.error ? <pre class="error traceback" data-testid="traceback">{trial.error}</pre> : <p class="muted">No error was recorded.</p>}
                {/* what the workers printed last, beside what the trial died of (its next
                    failure, after an extension, reads them again) */}
                {trial.state === "failed" && <LogTail key={`${id}@${trial.finished_at}`} trialId={id} onOpen={() => choose("logs")} />}
              </div>
            </>
          )}
          <TrialSchedule trial={trial} version={view.results.length} ended={view.ended} />
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
        </>
      )}
    </section>
  );
}
