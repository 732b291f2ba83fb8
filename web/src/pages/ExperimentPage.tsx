import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { Attention, PageError, StateBadge, ViewGuard } from "../components";
import { errorText, hashQuery, setHashQuery, useLive, usePoll, useTitle } from "../hooks";
import { SWEEP_ENDED, mayChange, type SpaceParameter } from "../shape";
import type { EventItem, Experiment, Me, Updates } from "../types";
import { spanningSpace } from "../spaces";
import { ANALYSIS_KEYS, ExperimentAnalysis, chartWidth, useWidth, type ResultFeed } from "./ExperimentAnalysis";
import { ExperimentOverview } from "./ExperimentOverview";
import { ExperimentTimeline } from "./ExperimentTimeline";
import { FinalRuns } from "./FinalRuns";
import { ExtendForm } from "./SearchSpaces";
import { LogsView } from "./TrialLogs";
import { TrialTable } from "./TrialTable";

const POLL_MS = 1000;
// asked of the poll while no tab draws curves: results after the largest id there can be (none)
const NO_RESULTS = "9223372036854775807";

type Action = "cancel" | "pause" | "resume";

const ACTIONS: Record<Action, { allowed: string[]; confirm: string }> = {
  cancel: { allowed: ["queued", "running", "pausing", "paused"], confirm: "Cancel this sweep? Running trials are stopped." },
  pause: { allowed: ["queued", "running"], confirm: "Pause this sweep? Running trials stop after their next checkpoint and resume from it." },
  resume: { allowed: ["paused"], confirm: "Resume this sweep from its checkpoints?" },
};

const EXTENDABLE = ["completed", "cancelled", "paused"];

/** The page's tabs, in order, with the address keys each keeps (cleared when another is
 *  chosen: a shared address names only what its tab shows). */
const TABS = {
  overview: { label: "overview", keys: [] as string[] },
  trials: { label: "trials", keys: ["state", "where", "offset", "space", "sort", "order"] },
  analysis: { label: "analysis", keys: ANALYSIS_KEYS },
  timeline: { label: "timeline", keys: [] },
  "driver-log": { label: "driver log", keys: ["attempt"] },
  "final-runs": { label: "final runs", keys: [] },
};
type Tab = keyof typeof TABS;
const isTab = (name: string | null): name is Tab => name !== null && name in TABS;

/** A sweep: its header and actions over tabs (kept in the address: ``?tab=analysis``; none, the
 *  overview). One poll of ``/updates`` keeps the header, the events and the curves' results
 *  current until the sweep ends; each tab loads only its own data, and only while shown. */
export function ExperimentPage({ id, me }: { id: string; me: Me }) {
  const lastEvent = useRef(0);
  const lastState = useRef<string | null>(null);
  // the sweep as first read; the poll below (and the actions) keep it current
  const { data: experiment, error: readError, setData: setExperiment } = useLive(async () => {
    const read = await api<Experiment>(`/experiments/${id}`);
    lastState.current = read.state;
    return read;
  }, 0, [id]);
  const [events, setEvents] = useState<EventItem[]>([]);
  const [version, setVersion] = useState(0); // what the poll saw change: the tabs load again
  const [brushed, setBrushed] = useState<string[]>([]); // the parallel chart's, as conditions
  const [error, setError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [extending, setExtending] = useState(false);
  const [tab, setTab] = useState<Tab>(() => (isTab(hashQuery().get("tab")) ? (hashQuery().get("tab") as Tab) : "overview"));
  const feed = useRef<ResultFeed | null>(null);
  const width = useWidth();
  useTitle(experiment?.name ?? null);

  // an address naming another tab of this sweep (a link, back and forward) shows it: the page
  // stays, its poll and what it read with it
  useEffect(() => {
    const follow = () => {
      const named = hashQuery().get("tab");
      setTab(isTab(named) ? named : "overview");
    };
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, []);

  const choose = (chosen: Tab) => {
    const cleared = Object.fromEntries(Object.values(TABS).flatMap((t) => t.keys).map((k) => [k, ""]));
    setHashQuery({ ...cleared, tab: chosen === "overview" ? "" : chosen });
    setTab(chosen);
  };

  const refresh = async () => {
    try {
      let more = true;
      let changed = false;
      while (more) {
        const asked = feed.current; // the curves shown when asked: their results only
        const updates: Updates = await api<Updates>(`/experiments/${id}/updates`, {
          query: { after: asked ? asked.cursor : NO_RESULTS, events_after: lastEvent.current },
        });
        setExperiment(updates.experiment);
        more = asked !== null && updates.more;
        if (updates.experiment.state !== lastState.current) {
          lastState.current = updates.experiment.state;
          changed = true; // trials change with their sweep: a cancelled sweep's trials end too
        }
        if (updates.events.length) {
          lastEvent.current = updates.events.at(-1)!.id;
          setEvents((old) => [...updates.events.slice().reverse(), ...old].slice(0, 500));
          changed = true;
        }
        if (asked && feed.current === asked) {
          asked.cursor = updates.cursor;
          asked.merge(updates.results, updates.experiment.metric);
          changed ||= updates.results.length > 0;
        }
      }
      setError(null);
      if (changed) setVersion((v) => v + 1);
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  useEffect(() => {
    lastEvent.current = 0;
    setEvents([]);
    setExtending(false); // a form open on another sweep's page is that page's
  }, [id]);

  // an ended sweep changes no more: its page asks nothing after the first answers (an extend
  // from here makes it live again; one extended elsewhere is seen when the page is opened again)
  usePoll(async () => { if (experiment) await refresh(); }, POLL_MS, [id, experiment === null],
    !experiment || !SWEEP_ENDED.includes(experiment.state));

  // the extend form's answer: the sweep queued again (live: polled from here)
  const extended = (read: Experiment) => {
    setExperiment(read);
    setExtending(false);
    setActionError(null);
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

  if (!experiment) return readError ? <PageError error={readError} /> : <p class="muted">Loading…</p>;
  const mayAct = mayChange(me, experiment.project);
  // the charts' axes span every version's space: a narrowed range keeps the earlier trials on them
  const space = experiment.search_spaces
    ? spanningSpace(experiment.search_spaces)
    : ((experiment.spec.search_space ?? {}) as Record<string, SpaceParameter>);
  const ended = SWEEP_ENDED.includes(experiment.state);

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
            {EXTENDABLE.includes(experiment.state) && (
              <button data-action="extend" aria-expanded={extending} onClick={() => setExtending(!extending)}>extend</button>
            )}
          </span>
        )}
      </div>
      {/* what holds a live sweep, seen from every tab */}
      {!ended && <Attention running={experiment.running ?? []} />}
      {error && <p class="error" role="alert">{error}</p>}
      {actionError && <p class="error" role="alert">{actionError}</p>}
      {experiment.error && <pre class="error">{experiment.error}</pre>}
      {extending && mayAct && EXTENDABLE.includes(experiment.state) && (
        <ExtendForm key={experiment.id} experiment={experiment} onExtended={extended} onClose={() => setExtending(false)} />
      )}
      <div class="tabs" role="tablist" data-testid="experiment-tabs">
        {(Object.keys(TABS) as Tab[]).map((t) => (
          <button key={t} role="tab" class="tab" data-tab={t} aria-selected={tab === t} onClick={() => choose(t)}>{TABS[t].label}</button>
        ))}
      </div>
      <div role="tabpanel" data-testid="tab-panel" data-tab={tab}>
        {tab === "overview" && (
          <ExperimentOverview experiment={experiment} events={events} version={version} ended={ended} mayAct={mayAct}
            onChange={setExperiment} onError={setError} />
        )}
        {tab === "trials" && (
          <ViewGuard view="trials" label="trial table">
            <TrialTable experiment={experiment} version={version} params={[]} brushed={brushed} live={!ended} />
          </ViewGuard>
        )}
        {tab === "analysis" && (
          <ExperimentAnalysis experiment={experiment} version={version} ended={ended} width={width} space={space}
            feed={feed} onBrush={setBrushed} onError={setError} />
        )}
        {tab === "timeline" && (
          <ExperimentTimeline experimentId={id} version={version} ended={ended} width={chartWidth(width, 1400)} />
        )}
        {tab === "driver-log" && <LogsView path={`/experiments/${id}/driver-logs`} live={!ended} ranks={false} />}
        {tab === "final-runs" && (
          <ViewGuard view="final-runs" label="final runs"><FinalRuns experiment={experiment} me={me} /></ViewGuard>
        )}
      </div>
    </section>
  );
}
