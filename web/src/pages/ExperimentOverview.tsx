import { useEffect } from "preact/hooks";
import { api } from "../api";
import { Labels, Notes, Progress, Quantity, StateBadge } from "../components";
import { useChangedLive } from "../hooks";
import { LEDGER_START, formatAgo, formatConfig, formatValue, hours, plannedTrials } from "../shape";
import type { EventItem, Experiment, UsageReport } from "../types";
import { isPbt, Lineage } from "./Lineage";
import { SpaceVersions } from "./SearchSpaces";

const USAGE_REFRESH_MS = 5000;

interface Props {
  experiment: Experiment; events: EventItem[]; version: number; ended: boolean; mayAct: boolean;
  onChange: (read: Experiment) => void; onError: (error: string) => void;
}

/** The overview tab: the sweep's progress and compute, its notes, best trial,
 *  search-space versions, PBT's lineage and events (the page's poll brings those). */
export function ExperimentOverview({ experiment, events, version, ended, mayAct, onChange, onError }: Props) {
  const { data: usage, error } = useChangedLive(async () =>
    (await api<UsageReport>("/usage", { query: { experiment: experiment.id, from: LEDGER_START } })).total,
  version, ended, USAGE_REFRESH_MS);
  useEffect(() => { if (error) onError(error); }, [error]); // shown with the page's errors
  const best = experiment.best_trial;
  return (
    <>
      <div class="cards">
        <div class="card">
          <h3>Sweep</h3>
          <p>{experiment.trainer} · {experiment.mode} {experiment.metric}</p>
          <Progress counts={experiment.trial_counts} planned={plannedTrials(experiment.trial_counts, experiment.spec)} />
          <p class="muted">{Object.entries(experiment.trial_counts).map(([s, n]) => `${n} ${s}`).join(" · ") || "no trials yet"}</p>
          <p class="muted">created {formatAgo(experiment.created_at)} · driver restarts {experiment.driver_restarts}</p>
          {usage && (
            <p class="muted" data-testid="compute">
              project {experiment.project} · compute held: <Quantity value={hours(usage.worker_seconds)} unit="worker-h" /> ·{" "}
              <Quantity value={hours(usage.cpu_seconds)} unit="CPU-h" />
              {usage.gpu_seconds > 0 && <> · <Quantity value={hours(usage.gpu_seconds)} unit="GPU-h" /></>}
            </p>
          )}
          <Labels labels={experiment.labels} />
        </div>
        <Notes notes={experiment.notes} editable={mayAct} save={async (text) => {
          onChange(await api<Experiment>(`/experiments/${experiment.id}/notes`, { method: "PUT", body: { notes: text } }));
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

      {experiment.search_spaces && <SpaceVersions versions={experiment.search_spaces} />}

      {isPbt(experiment.spec) && <Lineage experiment={experiment} version={version} ended={ended} />}

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
    </>
  );
}
