import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { CurvesChart } from "../charts/CurvesChart";
import { ContourChart } from "../charts/ContourChart";
import { EdfChart } from "../charts/EdfChart";
import { HistoryChart } from "../charts/HistoryChart";
import { ImportanceChart } from "../charts/ImportanceChart";
import { ParallelChart } from "../charts/ParallelChart";
import { SliceChart } from "../charts/SliceChart";
import { ParetoChart } from "../charts/ParetoChart";
import { RungView } from "../charts/RungView";
import { Labels, Notes, Progress, StateBadge } from "../components";
import { errorText, hashQuery, setHashQuery, usePoll, useTitle } from "../hooks";
import { LEDGER_START, mayChange, formatAgo, formatConfig, formatValue, hours, mergeResults, plannedTrials, type SpaceParameter } from "../shape";
import type { ConfigTable, Curves, EventItem, Experiment, History, Importance, Me, Pareto, Rungs, Updates, Usage, UsageReport } from "../types";
import { FinalRuns } from "./FinalRuns";
import { TrialTable } from "./TrialTable";

const POLL_MS = 1000;
const SLOW_REFRESH_MS = 5000; // rungs, parallel coordinates, curves' trials: heavier, less urgent

type Action = "cancel" | "pause" | "resume";

const ACTIONS: Record<Action, { allowed: string[]; confirm: string }> = {
  cancel: { allowed: ["queued", "running", "pausing", "paused"], confirm: "Cancel this sweep? Running trials are stopped." },
  pause: { allowed: ["queued", "running"], confirm: "Pause this sweep? Running trials stop after their next checkpoint and resume from it." },
  resume: { allowed: ["paused"], confirm: "Resume this sweep from its checkpoints?" },
};

const EXTENDABLE = ["completed", "cancelled", "paused"];

export function ExperimentPage({ id, me }: { id: string; me: Me }) {
  const [experiment, setExperiment] = useState<Experiment | null>(null);
  const [curves, setCurves] = useState<Curves | null>(null);
  const [curvesVersion, setCurvesVersion] = useState(0);
  const [rungs, setRungs] = useState<Rungs | null>(null);
  const [configs, setConfigs] = useState<ConfigTable | null>(null);
  const [importance, setImportance] = useState<Importance | null>(null);
  const [pareto, setPareto] = useState<Pareto | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const multiObjective = useRef(false);
  const [events, setEvents] = useState<EventItem[]>([]);
  const [tableVersion, setTableVersion] = useState(0);
  const [brushed, setBrushed] = useState<string[]>([]); // the parallel chart's, as conditions
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const cursor = useRef<number | null>(null);
  const lastEvent = useRef(0);
  const lastSlowRefresh = useRef(0);
  const curvesRef = useRef<Curves | null>(null);
  // another reported metric chosen to draw (in the address, to share)
  const curveMetric = useRef<string | null>(hashQuery().get("metric"));
  const busy = useRef(false);
  const slowDue = useRef(false);
  const width = useWidth();
  useTitle(experiment?.name ?? null);

  // rungs, configs and the curves' trials and states (new trials, running -> pruned); the server
  // caches these until a trial changes. The fresh curves hold every result up to their cursor.
  const loadSlow = async () => {
    lastSlowRefresh.current = Date.now();
    const [newRungs, newConfigs, newImportance, newCurves, newPareto, newHistory, newUsage] = await Promise.all([
      api<Rungs>(`/experiments/${id}/rungs`),
      api<ConfigTable>(`/experiments/${id}/configs`),
      api<Importance>(`/experiments/${id}/importance`),
      api<Curves>(`/experiments/${id}/curves`, { query: { metric: curveMetric.current ?? undefined } }),
      multiObjective.current ? api<Pareto>(`/experiments/${id}/pareto`) : Promise.resolve(null),
      api<History>(`/experiments/${id}/history`),
      api<UsageReport>("/usage", { query: { experiment: id, from: LEDGER_START } }),
    ]);
    setUsage(newUsage.total);
    setPareto(newPareto);
    setHistory(newHistory);
    setRungs(newRungs);
    setConfigs(newConfigs);
    setImportance(newImportance);
    curvesRef.current = newCurves;
    setCurves(newCurves);
    cursor.current = newCurves.cursor;
  };

  const [usage, setUsage] = useState<Usage | null>(null);

  const chooseCurveMetric = async (metric: string) => {
    curveMetric.current = metric === experiment?.metric ? null : metric;
    setHashQuery({ metric: curveMetric.current ?? "" });
    try {
      const chosen = await api<Curves>(`/experiments/${id}/curves`, { query: { metric: curveMetric.current ?? undefined } });
      curvesRef.current = chosen;
      setCurves(chosen);
      cursor.current = chosen.cursor; // as loadSlow: the fresh curves hold every result up to it
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  const refresh = async () => {
    if (cursor.current === null || busy.current) return; // the first curves set the cursor
    busy.current = true;
    try {
      let more = true;
      let changed = false;
      while (more) {
        const updates: Updates = await api<Updates>(`/experiments/${id}/updates`, {
          query: { after: cursor.current, events_after: lastEvent.current },
        });
        setExperiment(updates.experiment);
        cursor.current = updates.cursor;
        more = updates.more;
        if (updates.events.length) {
          lastEvent.current = updates.events.at(-1)!.id;
          setEvents((old) => [...updates.events.slice().reverse(), ...old].slice(0, 500));
          changed = true;
        }
        // the poll carries the sweep's metric: another one drawn waits for the slow refresh
        if (updates.results.length && curvesRef.current && curvesRef.current.metric === updates.experiment.metric) {
          mergeResults(curvesRef.current.series, updates.results);
          changed = true;
        }
      }
      setError(null);
      if (changed) {
        setCurvesVersion((v) => v + 1);
        setTableVersion((v) => v + 1);
        slowDue.current = true;
      }
      // at most every few seconds, but always once after the last change
      if (slowDue.current && Date.now() - lastSlowRefresh.current > SLOW_REFRESH_MS) {
        slowDue.current = false;
        await loadSlow();
      }
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      busy.current = false;
    }
  };

  useEffect(() => {
    cursor.current = null;
    lastEvent.current = 0;
    setEvents([]);
    api<Experiment>(`/experiments/${id}`)
      .then((read) => {
        multiObjective.current = Array.isArray(read.spec.objectives);
        setExperiment(read);
        return loadSlow();
      })
      .then(refresh)
      .catch((caught) => setError(errorText(caught)));
  }, [id]);

  usePoll(refresh, POLL_MS, [id]);

  // extend: asks for the new totals (empty keeps the current one); the server names every problem
  const extend = async () => {
    const spec = experiment!.spec as { search?: { num_samples?: number }; early_stopping?: { max_t?: number } };
    const samples = window.prompt(`Configurations in all (now ${spec.search?.num_samples ?? "?"}; empty keeps it)`, "");
    if (samples === null) return;
    const maxT = window.prompt(`Budget max_t of every trial (now ${spec.early_stopping?.max_t ?? "?"}; empty keeps it)`, "");
    if (maxT === null) return;
    const body: Record<string, number> = {};
    if (samples.trim()) body.num_samples = Number(samples);
    if (maxT.trim()) body.max_t = Number(maxT);
    try {
      setExperiment(await api<Experiment>(`/experiments/${id}/extend`, { method: "POST", body }));
      setActionError(null);
    } catch (caught) {
      setActionError(errorText(caught));
    }
  };

  const act = async (action: Action) => {
    if (!window.confirm(ACTIONS[action].confirm)) return;
    try {
      setExperiment(await api<Experiment>(`/experiments/${id}/${action}`, { method: "POST" }));
      setActionError(null);
    } catch (caught) {
      setActionError(errorText(caught));
    }
  };

  if (!experiment) return error ? <p class="error" role="alert">{error}</p> : <p class="muted">Loading…</p>;
  const mayAct = mayChange(me, experiment.project);
  const early = (experiment.spec.early_stopping ?? {}) as { time_attr?: string | null };
  const xLabel = early.time_attr ?? "iteration";
  const best = experiment.best_trial;

  return (
    <section>
      <p><a href="#/">‹ experiments</a></p>
      <div class="title">
        <h1>{experiment.name} <StateBadge state={experiment.state} /></h1>
        <span class="muted mono">{experiment.id}</span>
        {mayAct && (
          <span class="actions" data-testid="actions">
            {(Object.keys(ACTIONS) as Action[]).filter((a) => ACTIONS[a].allowed.includes(experiment.state)).map((a) => (
              <button key={a} data-action={a} class={a === "cancel" ? "danger" : ""} onClick={() => act(a)}>{a}</button>
            ))}
            {EXTENDABLE.includes(experiment.state) && <button data-action="extend" onClick={extend}>extend</button>}
          </span>
        )}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {actionError && <p class="error" role="alert">{actionError}</p>}
      {experiment.error && <pre class="error">{experiment.error}</pre>}
      <div class="cards">
        <div class="card">
          <h3>Sweep</h3>
          <p>{experiment.trainer} · {experiment.mode} {experiment.metric}</p>
          <Progress counts={experiment.trial_counts} planned={plannedTrials(experiment.trial_counts, experiment.spec)} />
          <p class="muted">{Object.entries(experiment.trial_counts).map(([s, n]) => `${n} ${s}`).join(" · ") || "no trials yet"}</p>
          <p class="muted">created {formatAgo(experiment.created_at)} · driver restarts {experiment.driver_restarts}</p>
          {usage && (
            <p class="muted" data-testid="compute">
              project {experiment.project} · compute held: {hours(usage.worker_seconds)} worker-h · {hours(usage.cpu_seconds)} CPU-h
              {usage.gpu_seconds > 0 && <> · {hours(usage.gpu_seconds)} GPU-h</>}
            </p>
          )}
          <Labels labels={experiment.labels} />
        </div>
        <Notes notes={experiment.notes} editable={mayAct} save={async (text) => {
          setExperiment(await api<Experiment>(`/experiments/${id}/notes`, { method: "PUT", body: { notes: text } }));
        }} />
        <div class="card" data-testid="best">
          <h3>Best trial</h3>
          {best ? (
            <>
              <p><a href={`#/trials/${best.id}`}>trial #{best.number}</a> <StateBadge state={best.state} /></p>
              <p class="big">{formatValue(best.best_metric)} <span class="muted">{experiment.metric}</span></p>
              <p class="muted">{formatConfig(best.config)}</p>
            </>
          ) : <p class="muted">No result yet.</p>}
        </div>
      </div>

      <FinalRuns experiment={experiment} me={me} />

      {pareto && (
        <>
          <h2>Pareto front</h2>
          <ParetoChart pareto={pareto} width={chartWidth(width, 900)} />
        </>
      )}

      <h2>Learning curves</h2>
      {curves && (
        <>
          <p class="muted">{curves.series.length < curves.total_trials
            ? `${curves.series.length} of ${curves.total_trials} trials drawn: the running ones, the best ones and an even spread of the rest.`
            : `${curves.total_trials} trials.`}</p>
          <CurvesChart series={curves.series} metric={curves.metric} metrics={curves.metrics} xLabel={xLabel}
            version={curvesVersion} onMetric={chooseCurveMetric}
            onPick={(trial) => { location.hash = `#/trials/${trial}`; }} />
        </>
      )}

      <h2>History</h2>
      {history && <HistoryChart history={history} width={chartWidth(width, 1400)} />}
      {history && <EdfChart history={history} width={chartWidth(width, 900)} />}

      <h2>ASHA rungs</h2>
      {rungs && <RungView rungs={rungs} metric={experiment.metric} />}

      <h2>Hyperparameters</h2>
      {configs && (
        <>
          <ParallelChart table={configs} width={chartWidth(width, 1400)} onBrush={setBrushed}
            space={(experiment.spec.search_space ?? {}) as Record<string, SpaceParameter>} />
          {configs.rows.length < configs.total_trials && <p class="muted">best {configs.rows.length} of {configs.total_trials} trials</p>}
          <h3>Slices</h3>
          <SliceChart table={configs} space={(experiment.spec.search_space ?? {}) as Record<string, SpaceParameter>} />
          <h3>Contour</h3>
          <ContourChart table={configs} space={(experiment.spec.search_space ?? {}) as Record<string, SpaceParameter>}
            preferred={importance?.importances.map((p) => p.name) ?? []} width={chartWidth(width, 520)} />
        </>
      )}

      <h2>Importance</h2>
      {importance && <ImportanceChart importance={importance} />}

      <h2>Trials</h2>
      <TrialTable key={experiment.id} experiment={experiment} version={tableVersion} params={configs?.params ?? []}
        brushed={brushed} />

      <h2>Events</h2>
      <ol class="events" data-testid="events">
        {events.map((e) => (
          <li key={e.id} data-kind={e.kind}>
            <span class="muted" title={e.created_at}>{formatAgo(e.created_at)}</span> <b>{e.kind.replace(/_/g, " ")}</b>{" "}
            {e.trial_id !== null && <a href={`#/trials/${e.trial_id}`}>trial #{e.trial_number ?? e.trial_id}</a>} {e.message}
          </li>
        ))}
      </ol>

      <details>
        <summary>Spec</summary>
        <pre data-testid="spec">{JSON.stringify(experiment.spec, null, 2)}</pre>
      </details>
    </section>
  );
}

/** An SVG chart's width in a window ``width`` wide: the page less its margins (narrower on a
 * phone, style.css), at most ``widest``. */
function chartWidth(width: number, widest: number): number {
  const margins = width <= 700 ? 42 : 64;
  return Math.max(240, Math.min(width, widest) - margins);
}

function useWidth(): number {
  const [width, setWidth] = useState(window.innerWidth);
  useEffect(() => {
    const resize = () => setWidth(window.innerWidth);
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, []);
  return width;
}
