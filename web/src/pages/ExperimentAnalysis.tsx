import { useEffect, useRef, useState } from "preact/hooks";
import type { MutableRef } from "preact/hooks";
import { api, ApiError } from "../api";
import { CurvesChart } from "../charts/CurvesChart";
import { ContourChart } from "../charts/ContourChart";
import { EdfChart } from "../charts/EdfChart";
import { HistoryChart } from "../charts/HistoryChart";
import { ImportanceChart } from "../charts/ImportanceChart";
import { ParallelChart } from "../charts/ParallelChart";
import { SliceChart } from "../charts/SliceChart";
import { ParetoChart } from "../charts/ParetoChart";
import { RungView } from "../charts/RungView";
import { ViewGuard } from "../components";
import { errorText, hashQuery, setHashQuery, useChangedLoad } from "../hooks";
import { mergeResults, plural, type SpaceParameter } from "../shape";
import { everyValue, type ConfigSample, type ConfigTable, type Curves, type Experiment, type History, type Importance, type Pareto, type ResultPoint, type Rungs } from "../types";

const SLOW_REFRESH_MS = 30_000; // rungs, importance, history, and the curves and configs when due (below): heavier (~370 KB gzipped at 100,000 trials), less urgent: the curves follow each result through /updates meanwhile, and an unchanged view is a 304 (the server's ETags)

/** What decides which trials the curves draw (the running ones, the best ones, a spread of the
 *  rest) and their states: while it stays the same, the curves shown, which the poll's results
 *  keep current, are what a fresh read would send, and are not asked for again. */
const curvesBasis = (experiment: Experiment) =>
  JSON.stringify([experiment.state, experiment.trial_counts, experiment.best_trial?.id ?? null,
    experiment.running.map((clock) => clock.trial_id).sort((a, b) => a - b)]);

/** The configs (parallel coordinates, slices, contour) hold every drawn trial's best value, which
 *  each result of a running trial can move: past the trials drawn changing (the curves' basis),
 *  they are read again at most this often (~30 KB gzipped at 100,000 trials each time). */
const CONFIGS_MAX_AGE_MS = 120_000;

/** The page's poll hands the analysis tab the results newer than ``cursor`` (its curves'):
 *  while no tab draws curves, the poll asks for none. */
export interface ResultFeed { cursor: number; merge: (results: ResultPoint[], metric: string) => void }

type Sample = ConfigSample;
const SAMPLES = everyValue<Sample>({ best: true, random: true, all: true });
const SAMPLE_SIZE = 1000; // trials the hyperparameter views draw: SVG elements each
/** The address keys this tab keeps (cleared when another tab is chosen). */
export const ANALYSIS_KEYS = ["metric", "sample", "at"];

interface Props {
  experiment: Experiment; version: number; ended: boolean; width: number; space: Record<string, SpaceParameter>;
  feed: MutableRef<ResultFeed | null>; onBrush: (conditions: string[]) => void; onError: (error: string) => void;
}

/** The analysis tab: curves, history and EDF, rungs, parallel coordinates, slices, contour,
 *  importance and (several objectives) the Pareto front. Loaded when shown, and again (at most
 *  every few seconds) as the page's poll sees the sweep change; the curves take the poll's new
 *  results at once. */
export function ExperimentAnalysis({ experiment, version, ended, width, space, feed, onBrush, onError }: Props) {
  const id = experiment.id;
  const [curves, setCurves] = useState<Curves | null>(null);
  const [curvesVersion, setCurvesVersion] = useState(0);
  const [rungs, setRungs] = useState<Rungs | null>(null);
  const [configs, setConfigs] = useState<ConfigTable | null>(null);
  const [importance, setImportance] = useState<Importance | null>(null);
  const [pareto, setPareto] = useState<Pareto | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const curvesRef = useRef<Curves | null>(null);
  const curvesReadAt = useRef<string | null>(null); // curvesBasis when the curves shown were read
  const configsReadAt = useRef<{ basis: string; at: number } | null>(null); // likewise, and when
  // another reported metric chosen to draw (in the address, to share)
  const curveMetric = useRef<string | null>(hashQuery().get("metric"));
  // the hyperparameter views' sample and importance's rung, in the address too
  const sample = useRef<Sample>(SAMPLES.includes(hashQuery().get("sample") as Sample) ? (hashQuery().get("sample") as Sample) : "best");
  const importanceAt = useRef<number | null>(Number(hashQuery().get("at")) || null);
  const multiObjective = Array.isArray(experiment.spec.objectives);

  // the fresh curves hold every result up to their cursor: the poll goes on from there
  const showCurves = (fresh: Curves) => {
    curvesRef.current = fresh;
    setCurves(fresh);
    feed.current = {
      cursor: fresh.cursor,
      merge: (results, metric) => {
        // the poll carries the sweep's metric: another one drawn waits for the slow refresh
        if (curvesRef.current && curvesRef.current.metric === metric && results.length) {
          mergeResults(curvesRef.current.series, results);
          setCurvesVersion((v) => v + 1);
        }
      },
    };
  };
  useEffect(() => {
    onBrush([]); // the parallel chart starts without brushes: so does the trial table
    return () => { feed.current = null; };
  }, [id]);

  // a sample or rung from the address this sweep refuses (all of too many trials, a rung it
  // lacks): the default instead, never a page that fails
  const loadConfigs = () =>
    api<ConfigTable>(`/experiments/${id}/configs`, { query: { sample: sample.current, limit: SAMPLE_SIZE } }).catch((caught) => {
      if (sample.current === "best" || !(caught instanceof ApiError) || caught.status !== 422) throw caught;
      sample.current = "best";
      setHashQuery({ sample: "" });
      return api<ConfigTable>(`/experiments/${id}/configs`, { query: { limit: SAMPLE_SIZE } });
    });
  const loadImportance = () =>
    api<Importance>(`/experiments/${id}/importance`, { query: { at_iteration: importanceAt.current } }).catch((caught) => {
      if (importanceAt.current === null || !(caught instanceof ApiError) || caught.status !== 422) throw caught;
      importanceAt.current = null;
      setHashQuery({ at: "" });
      return api<Importance>(`/experiments/${id}/importance`);
    });

  // rungs, configs and the curves' trials and states (new trials, running -> pruned); the server
  // caches these until a trial changes. Each view is drawn as it arrives (a cold server computes
  // them a few at a time: importance and history, the slowest, hold back no other chart), asked
  // in the order the page shows them.
  useChangedLoad(async () => {
    // another metric drawn is not in the poll's results: it is read again each time
    const basis = curvesBasis(experiment);
    const readCurves = curveMetric.current !== null || curvesReadAt.current !== basis;
    const configsRead = configsReadAt.current;
    const readConfigs = configsRead === null || configsRead.basis !== basis || Date.now() - configsRead.at >= CONFIGS_MAX_AGE_MS;
    const shown = <T,>(read: Promise<T>, show: (value: T) => void) =>
      read.then(show, (caught: unknown) => onError(errorText(caught)));
    await Promise.all([
      readCurves
        ? shown(api<Curves>(`/experiments/${id}/curves`, { query: { metric: curveMetric.current ?? undefined } }), (fresh) => {
          curvesReadAt.current = basis;
          showCurves(fresh);
        })
        : null,
      shown(api<Rungs>(`/experiments/${id}/rungs`), setRungs),
      readConfigs
        ? shown(loadConfigs(), (fresh) => {
          configsReadAt.current = { basis, at: Date.now() };
          setConfigs(fresh);
        })
        : null,
      multiObjective ? shown(api<Pareto>(`/experiments/${id}/pareto`), setPareto) : null,
      shown(api<History>(`/experiments/${id}/history`), setHistory),
      shown(loadImportance(), setImportance),
    ]);
  }, version, ended, SLOW_REFRESH_MS);

  const chooseCurveMetric = async (metric: string) => {
    curveMetric.current = metric === experiment.metric ? null : metric;
    setHashQuery({ metric: curveMetric.current ?? "" });
    try {
      const basis = curvesBasis(experiment);
      showCurves(await api<Curves>(`/experiments/${id}/curves`, { query: { metric: curveMetric.current ?? undefined } }));
      curvesReadAt.current = basis;
    } catch (caught) {
      onError(errorText(caught));
    }
  };

  const chooseSample = async (chosen: Sample) => {
    sample.current = chosen;
    setHashQuery({ sample: chosen === "best" ? "" : chosen });
    try {
      setConfigs(await api<ConfigTable>(`/experiments/${id}/configs`, { query: { sample: chosen, limit: SAMPLE_SIZE } }));
    } catch (caught) {
      onError(errorText(caught));
    }
  };

  const chooseImportanceAt = async (at: number | null) => {
    importanceAt.current = at;
    setHashQuery({ at: at === null ? "" : String(at) });
    try {
      setImportance(await api<Importance>(`/experiments/${id}/importance`, { query: { at_iteration: at } }));
    } catch (caught) {
      onError(errorText(caught));
    }
  };

  const early = (experiment.spec.early_stopping ?? {}) as { time_attr?: string | null; scheduler?: string };
  const xLabel = early.time_attr ?? "iteration";
  const best = experiment.best_trial;
  return (
    <>
      {pareto && (
        <>
          <h2>Pareto front</h2>
          <ViewGuard view="pareto" label="Pareto front"><ParetoChart pareto={pareto} width={chartWidth(width, 900)} /></ViewGuard>
        </>
      )}

      <h2>Learning curves</h2>
      {curves && (
        <ViewGuard view="curves" label="learning curves">
          <p class="muted" data-testid="curves-count">{curves.series.length < curves.total_trials
            ? `${curves.series.length} of ${plural(curves.total_trials, "trial")} drawn: the running ones, the best ones and an even spread of the rest.`
            : `${plural(curves.total_trials, "trial")}.`}</p>
          <CurvesChart series={curves.series} metric={curves.metric} metrics={curves.metrics} xLabel={xLabel}
            version={curvesVersion} onMetric={chooseCurveMetric}
            best={best && curves.metric === experiment.metric ? { trial_id: best.id, trial_number: best.number, value: best.best_metric } : null}
            onPick={(trial) => { location.hash = `#/trials/${trial}`; }} />
        </ViewGuard>
      )}

      <h2>History</h2>
      {history && <ViewGuard view="history" label="history"><HistoryChart history={history} width={chartWidth(width, 1400)} /></ViewGuard>}
      {history && <ViewGuard view="edf" label="distribution (EDF)"><EdfChart history={history} width={chartWidth(width, 900)} /></ViewGuard>}

      <h2>{(rungs?.scheduler ?? early.scheduler ?? "asha") === "none" ? "Early stopping" : "ASHA rungs"}</h2>
      {rungs && <ViewGuard view="rungs" label="rungs"><RungView rungs={rungs} metric={experiment.metric} /></ViewGuard>}

      <h2>Hyperparameters</h2>
      {configs && (
        <>
          <SampleBanner table={configs} size={SAMPLE_SIZE} onChoose={chooseSample} />
          <ViewGuard view="parallel" label="parallel coordinates">
            <ParallelChart table={configs} width={chartWidth(width, 1400)} onBrush={onBrush} space={space} />
          </ViewGuard>
          <h3>Slices</h3>
          <ViewGuard view="slice" label="slice plot"><SliceChart table={configs} space={space} /></ViewGuard>
          <h3>Contour</h3>
          <ViewGuard view="contour" label="contour">
            <ContourChart table={configs} space={space}
              preferred={importance?.importances.map((p) => p.name) ?? []} width={chartWidth(width, 520)} />
          </ViewGuard>
        </>
      )}

      <h2>Importance</h2>
      {importance && <ViewGuard view="importance" label="importance"><ImportanceChart importance={importance} onIteration={chooseImportanceAt} /></ViewGuard>}
    </>
  );
}

/** Which trials the hyperparameter views (parallel coordinates, slices, contour) draw, said
 *  where they are seen when they are not all of them, and the choice of another sample. */
function SampleBanner({ table, size, onChoose }: { table: ConfigTable; size: number; onChoose: (sample: Sample) => void }) {
  const total = table.total_trials;
  if (total <= size && table.sample !== "all") return null;
  const drawn = table.rows.length;
  const which = table.sample === "random" ? `a random ${drawn.toLocaleString()} (the same ones each time)`
    : table.sample === "all" ? `all ${drawn.toLocaleString()}` : `the best ${drawn.toLocaleString()}`;
  const tooMany = total > table.all_max;
  return (
    <div class={`banner${drawn < total ? "" : " complete"}`} role="status" data-testid="sample-banner" data-sample={table.sample}
      data-drawn={drawn} data-total={total}>
      <p>
        <b>{drawn < total ? "Sampled" : "Every trial"}:</b> these charts draw {which} of {plural(total, "trial")}
        {table.sample === "best" && drawn < total ? ": they show where the best trials lie, not all the search explored" : ""}.
      </p>
      <label>draw{" "}
        <select name="sample" value={table.sample} onChange={(e) => onChoose((e.target as HTMLSelectElement).value as Sample)}>
          <option value="best">the best {size.toLocaleString()}</option>
          <option value="random">a random {size.toLocaleString()}</option>
          <option value="all" disabled={tooMany}>all (sweeps up to {table.all_max.toLocaleString()} trials)</option>
        </select>
      </label>
    </div>
  );
}

/** An SVG chart's width in a window ``width`` wide: the page less its margins (narrower on a
 * phone, style.css), at most ``widest``. */
export function chartWidth(width: number, widest: number): number {
  const margins = width <= 700 ? 42 : 64;
  return Math.max(240, Math.min(width, widest) - margins);
}

export function useWidth(): number {
  const [width, setWidth] = useState(window.innerWidth);
  useEffect(() => {
    const resize = () => setWidth(window.innerWidth);
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, []);
  return width;
}
