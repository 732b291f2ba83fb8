import { api } from "../api";
import { PageError, StateBadge } from "../components";
import { useAction, useLive, useTitle } from "../hooks";
import { formatAgo, formatInZone, formatUntil, plural } from "../shape";
import type { Me, Page, Schedule, ScheduleFiring } from "../types";

const POLL_MS = 2000;

/** What each due time runs, in a line. */
function whatItRuns(s: Schedule): string {
  if (s.kind === "sweep") return `sweep ${String(s.template?.name ?? "")}`;
  const r = s.retrain!;
  const retune = r.retune ? `, re-tuned with ${plural(r.retune.num_samples, "trial")}` : "";
  return `retrain ${r.model} ${r.alias} (margin ${r.margin}${retune})`;
}

function NextRun({ s }: { s: Schedule }) {
  if (!s.next_run_at) return <span class="muted">paused</span>;
  return (
    <span title={s.next_run_at} data-testid="next-run">
      {formatInZone(s.next_run_at, s.timezone)} <span class="muted">{s.timezone} · {formatUntil(s.next_run_at)}</span>
    </span>
  );
}

function PauseButton({ s, me, onChanged }: { s: Schedule; me: Me; onChanged: (s: Schedule) => void }) {
  const { error, run } = useAction();
  if (me.role === "viewer") return null;
  const toggle = async () => {
    const question = s.enabled
      ? `Pause ${s.name}? It fires nothing until resumed.`
      : `Resume ${s.name}? Times missed while paused are not fired.`;
    if (!window.confirm(question)) return;
    await run(async () => onChanged(await api<Schedule>(`/schedules/${s.id}`, { method: "PATCH", body: { enabled: !s.enabled } })));
  };
  return (
    <>
      <button onClick={toggle} data-action={s.enabled ? "pause" : "resume"}>{s.enabled ? "pause" : "resume"}</button>
      {error && <span class="error" role="alert"> {error}</span>}
    </>
  );
}

function FiringTarget({ f, s }: { f: ScheduleFiring; s: Schedule }) {
  return (
    <>
      {f.experiment_id && <a href={`#/experiments/${f.experiment_id}`}>sweep {f.experiment_id}</a>}
      {f.experiment_id && f.final_run_id && ", "}
      {f.final_run_id && s.retrain && (
        <a href={`#/models/${encodeURIComponent(s.retrain.model)}`}>final run {f.final_run_id}</a>
      )}
    </>
  );
}

// Cron schedules: the list, or one schedule with its firings (refreshed while open).
export function SchedulesPage({ id, me, project }: { id: string | null; me: Me; project: string }) {
  return id ? <ScheduleView id={id} me={me} /> : <ScheduleList me={me} project={project} />;
}

function ScheduleList({ me, project }: { me: Me; project: string }) {
  useTitle("schedules");
  const { data: schedules, error, setData } = useLive(async () =>
    (await api<Page<Schedule>>("/schedules", { query: { limit: 200, project: project || undefined } })).items,
  POLL_MS, [project]);
  if (!schedules) return error ? <PageError error={error} /> : <p class="muted">Loading…</p>;
  const replace = (changed: Schedule) => setData(schedules.map((s) => (s.id === changed.id ? changed : s)));
  return (
    <section>
      <h1>Schedules</h1>
      {project && <p class="muted scope" data-testid="scope">Project {project}'s schedules (the switcher above shows every project's).</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {!schedules.length && <p class="muted">No schedule {project ? `in project ${project} ` : ""}yet. Create one with <code>raysweep schedules create</code> or <code>POST /api/v1/schedules</code>.</p>}
      <table class="grid" data-testid="schedules">
        <thead><tr><th>Name</th><th>Runs</th><th>Cron</th><th>Next run</th><th>Last firing</th><th>Policies</th><th></th></tr></thead>
        <tbody>
          {schedules.map((s) => (
            <tr key={s.id} data-schedule={s.name}>
              <td><a href={`#/schedules/${s.id}`}>{s.name}</a></td>
              <td>{whatItRuns(s)}</td>
              <td class="mono">{s.cron}</td>
              <td><NextRun s={s} /></td>
              <td>{s.last_firing ? <><StateBadge state={s.last_firing.outcome} /> <span class="muted">{formatAgo(s.last_firing.fired_at)}</span></> : <span class="muted">never</span>}</td>
              <td class="muted">overlap {s.overlap} · misfire {s.misfire}</td>
              <td><PauseButton s={s} me={me} onChanged={replace} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** One schedule and its firings. */
function ScheduleView({ id, me }: { id: string; me: Me }) {
  const { data, error, setData } = useLive(async () => {
    const [schedule, firings] = await Promise.all([
      api<Schedule>(`/schedules/${id}`),
      api<Page<ScheduleFiring>>(`/schedules/${id}/firings`, { query: { limit: 100 } }),
    ]);
    return { schedule, firings };
  }, POLL_MS, [id]);
  useTitle(`schedule ${data?.schedule.name ?? id}`);
  if (!data) return error ? <PageError error={error} back="#/schedules" backLabel="schedules" /> : <p class="muted">Loading…</p>;
  const { schedule, firings } = data;
  return (
    <section>
      <p><a href="#/schedules">‹ schedules</a></p>
      <h1>{schedule.name} <PauseButton s={schedule} me={me} onChanged={(changed) => setData({ schedule: changed, firings })} /></h1>
      {error && <p class="error" role="alert">{error}</p>}
      <dl class="lineage">
        <dt>project</dt><dd>{schedule.project}</dd>
        <dt>runs</dt><dd>{whatItRuns(schedule)}</dd>
        <dt>cron</dt><dd class="mono">{schedule.cron} <span class="muted">({schedule.timezone})</span></dd>
        <dt>next run</dt><dd><NextRun s={schedule} /></dd>
        <dt>overlap</dt><dd>{schedule.overlap}</dd>
        <dt>misfire</dt><dd>{schedule.misfire}</dd>
        <dt>created</dt><dd>{formatAgo(schedule.created_at)} by {schedule.created_by ?? "?"}</dd>
      </dl>
      <h2>Firings <span class="muted">({firings.total})</span></h2>
      {!firings.items.length && <p class="muted">Not fired yet.</p>}
      <table class="grid" data-testid="firings">
        <thead><tr><th>Due</th><th>Fired</th><th>Outcome</th><th>Started</th><th>What happened</th></tr></thead>
        <tbody>
          {firings.items.map((f) => (
            <tr key={f.id} data-outcome={f.outcome}>
              <td title={f.scheduled_for}>{formatInZone(f.scheduled_for, schedule.timezone)}</td>
              <td title={f.fired_at}>{formatAgo(f.fired_at)}</td>
              <td><StateBadge state={f.outcome} /></td>
              <td><FiringTarget f={f} s={schedule} /></td>
              <td class="message">{f.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
