import { useState } from "preact/hooks";
import { api } from "../api";
import { Labels, Pager, Progress, StateBadge } from "../components";
import { errorText, usePoll, useTitle } from "../hooks";
import { formatAgo, formatValue, hours, plannedTrials } from "../shape";
import type { Experiment, ExperimentState, Page, Project } from "../types";

const STATES: ExperimentState[] = ["queued", "running", "pausing", "paused", "cancelling", "completed", "failed", "cancelled"];
const PAGE_SIZE = 25;

export function ExperimentsPage({ project, projects }: { project: string; projects: Project[] }) {
  useTitle("experiments");
  const [page, setPage] = useState<Page<Experiment> | null>(null);
  const [state, setState] = useState("");
  const [label, setLabel] = useState("");
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);

  usePoll(async () => {
    try {
      setPage(await api<Page<Experiment>>("/experiments", {
        query: { state: state || undefined, label: label.includes(":") ? label.trim() : undefined, limit: PAGE_SIZE, offset, project: project || undefined },
      }));
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  }, 2000, [state, label, offset, project]);
  const chosen = projects.find((p) => p.name === project);

  return (
    <section>
      <h1>Experiments</h1>
      {chosen && (
        <p class="muted" data-testid="project-usage">
          Project <b>{chosen.name}</b> (weight {chosen.weight}) this month: {hours(chosen.usage_this_month.worker_seconds)} worker-hours,{" "}
          {hours(chosen.usage_this_month.cpu_seconds)} CPU-hours, {hours(chosen.usage_this_month.gpu_seconds)} GPU-hours
          {chosen.monthly_worker_hours !== null && <> of {chosen.monthly_worker_hours} worker-hours</>}
          {chosen.monthly_gpu_hours !== null && <> of {chosen.monthly_gpu_hours} GPU-hours</>}
        </p>
      )}
      <div class="filters">
        <label>State{" "}
          <select name="state" value={state} onChange={(e) => { setState((e.target as HTMLSelectElement).value); setOffset(0); }}>
            <option value="">any</option>
            {STATES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label>Label{" "}
          <input name="label" placeholder="key:value" value={label}
            onInput={(e) => { setLabel((e.target as HTMLInputElement).value); setOffset(0); }} />
        </label>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {page && (
        <>
          <table class="grid" data-testid="experiments">
            <thead>
              <tr><th>Name</th><th>Project</th><th>State</th><th>Trainer</th><th>Progress</th><th>Best</th><th>Created</th><th>Labels</th></tr>
            </thead>
            <tbody>
              {page.items.map((e) => (
                <tr key={e.id} data-experiment={e.id}>
                  <td><a href={`#/experiments/${e.id}`}>{e.name}</a> <span class="muted mono">{e.id}</span>
                    {e.notes && <div class="muted notes-line" data-testid="notes-line" title={e.notes}>{e.notes}</div>}</td>
                  <td>{e.project}</td>
                  <td><StateBadge state={e.state} /></td>
                  <td>{e.trainer}</td>
                  <td><Progress counts={e.trial_counts} planned={plannedTrials(e.trial_counts, e.spec)} /></td>
                  <td>{formatValue(e.best_metric)} <span class="muted">{e.metric}</span></td>
                  <td title={e.created_at}>{formatAgo(e.created_at)}</td>
                  <td><Labels labels={e.labels} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.total === 0 && <p class="muted">No experiments match. Submit one with <code>POST /api/v1/experiments</code>.</p>}
          <Pager total={page.total} offset={offset} size={PAGE_SIZE} onChange={setOffset} />
        </>
      )}
    </section>
  );
}
