import { useState } from "preact/hooks";
import { api } from "../api";
import { Attention, Clip, FilterMenu, Labels, Pager, Progress, Quantity, StateBadge } from "../components";
import { useLive, useTitle } from "../hooks";
import { formatAgo, formatValue, hours, plannedTrials } from "../shape";
import { everyValue, type Experiment, type ExperimentState, type Page, type Project } from "../types";

const STATES = everyValue<ExperimentState>({
  queued: true, running: true, pausing: true, paused: true, cancelling: true, completed: true, failed: true, cancelled: true,
});
const PAGE_SIZE = 25;

export function ExperimentsPage({ project, projects }: { project: string; projects: Project[] }) {
  useTitle("experiments");
  const [state, setState] = useState("");
  const [label, setLabel] = useState("");
  const [offset, setOffset] = useState(0);
  const { data: page, error } = useLive(() => api<Page<Experiment>>("/experiments", {
    query: { state: state || undefined, label: label.includes(":") ? label.trim() : undefined, limit: PAGE_SIZE, offset, project: project || undefined },
  }), 2000, [state, label, offset, project]);
  const chosen = projects.find((p) => p.name === project);

  return (
    <section>
      <h1>Experiments</h1>
      {chosen && (
        <p class="muted" data-testid="project-usage"><ProjectUsage project={chosen} /></p>
      )}
      <div class="filters">
        <FilterMenu label="State" name="state" value={state} choices={STATES} onChange={(chosen) => { setState(chosen); setOffset(0); }} />
        <label>Label{" "}
          <input name="label" placeholder="key:value" value={label}
            onInput={(e) => { setLabel((e.target as HTMLInputElement).value); setOffset(0); }} />
        </label>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {page && (
        <>
          {/* fits 1440 px whatever the names: long text cut with its whole on hover, labels
              wrapped; on a phone each row is a card (style.css) */}
          <table class="grid experiments" data-testid="experiments">
            <thead>
              <tr><th>Name</th><th>Project</th><th>State</th><th>Trainer</th><th>Progress</th><th>Best</th><th>Created</th><th>Labels</th></tr>
            </thead>
            <tbody>
              {page.items.map((e) => (
                <tr key={e.id} data-experiment={e.id}>
                  <td class="name-cell" data-label="Name">
                    <a href={`#/experiments/${e.id}`} class="clip" title={e.name}>{e.name}</a>
                    <span class="muted mono id">{e.id}</span>
                    {e.notes && <div class="muted notes-line" data-testid="notes-line" title={e.notes}>{e.notes}</div>}
                  </td>
                  <td data-label="Project" data-col="project"><Clip text={e.project} /></td>
                  <td data-label="State" data-col="state"><StateBadge state={e.state} /></td>
                  <td data-label="Trainer"><Clip text={e.trainer} /></td>
                  <td data-label="Progress" data-col="progress">
                    <Progress counts={e.trial_counts} planned={plannedTrials(e.trial_counts, e.spec)} />
                    <Attention running={e.running ?? []} compact />
                  </td>
                  <td data-label="Best" data-col="best"><span class="clip" title={`${formatValue(e.best_metric)} ${e.metric}`}>{formatValue(e.best_metric)} <span class="muted">{e.metric}</span></span></td>
                  <td data-label="Created" title={e.created_at}>{formatAgo(e.created_at)}</td>
                  <td data-label="Labels" class="labels-cell"><Labels labels={e.labels} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.total === 0 && <p class="muted">No experiments match{project ? ` in project ${project}` : ""}. Submit one with <code>POST /api/v1/experiments</code>.</p>}
          <Pager total={page.total} offset={offset} size={PAGE_SIZE} onChange={setOffset} />
        </>
      )}
    </section>
  );
}

/** A project's month in sentences, each budget beside what it bounds: "Project vision (weight 3).
 *  This month it has held 2.0 worker-hours of its 500, 1.0 CPU-hours and 0.000 GPU-hours of its
 *  120." */
function ProjectUsage({ project }: { project: Project }) {
  const used = project.usage_this_month;
  const ofBudget = (budget: number | null) => (budget === null ? "" : ` of its ${budget}`);
  return (
    <>
      Project <b>{project.name}</b> (weight {project.weight}). This month it has held{" "}
      <Quantity value={hours(used.worker_seconds)} unit="worker-hours" />{ofBudget(project.monthly_worker_hours)},{" "}
      <Quantity value={hours(used.cpu_seconds)} unit="CPU-hours" /> and{" "}
      <Quantity value={hours(used.gpu_seconds)} unit="GPU-hours" />{ofBudget(project.monthly_gpu_hours)}.
    </>
  );
}
