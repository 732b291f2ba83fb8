import { useState } from "preact/hooks";
import { api } from "../api";
import { StateBadge } from "../components";
import { useAction, useLive } from "../hooks";
import { formatConfig, formatValue, mayChange, plural } from "../shape";
import type { Cluster, Experiment, FinalRun, Me, Page, Trial } from "../types";

const POLL_MS = 3000;
const ACTIVE = new Set(["queued", "running", "cancelling"]);
const PROMOTABLE = new Set(["completed", "cancelled", "failed"]);  // a sweep that has ended

function metricsText(metrics: Record<string, unknown> | null): string {
  if (!metrics) return "";
  return Object.entries(metrics).map(([k, v]) => `${k} ${formatValue(v as number)}`).join(" · ");
}

// The sweep's promoted trials, trained again with more workers; each ends as a model version.
export function FinalRuns({ experiment, me }: { experiment: Experiment; me: Me }) {
  // read again when the sweep moves (a promotion's runs follow its end), polled while one is active
  const { data, error: readError, setData: setRuns } = useLive(
    async () => (await api<Page<FinalRun>>(`/experiments/${experiment.id}/final-runs`)).items, POLL_MS,
    [experiment.id, experiment.state], (read) => read?.some((r) => ACTIVE.has(r.state)) ?? false,
  );
  const runs = data ?? [];
  const action = useAction();
  const error = action.error ?? readError;

  const cancel = async (run: FinalRun) => {
    if (!window.confirm(`Cancel final run ${run.id}? A running one is stopped; it registers no model.`)) return;
    await action.run(async () => {
      const changed = await api<FinalRun>(`/final-runs/${run.id}/cancel`, { method: "POST" });
      setRuns((current) => current && current.map((r) => (r.id === changed.id ? changed : r)));
    });
  };

  const [outcome, setOutcome] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const promote = (overrides: Record<string, unknown>) => action.run(async () => {
    const before = new Set(runs.map((r) => r.id));
    const page = await api<Page<FinalRun>>(`/experiments/${experiment.id}/promote`, { method: "POST", body: overrides });
    const added = page.items.filter((r) => !before.has(r.id));
    setRuns(page.items);
    setChoosing(false);
    setOutcome(added.length
      ? `Queued ${plural(added.length, "final run")}: ${added.map((r) => `trial #${r.trial_number ?? r.trial_id} on ${r.cluster}`).join(", ")}.`
      : "Nothing new: those trials are promoted already. Choose other trials or a larger top k.");
  });

  const member = mayChange(me, experiment.project);
  // only completed trials are promoted: a sweep that ended without one has nothing to offer
  const mayPromote = member && PROMOTABLE.has(experiment.state) && (experiment.trial_counts.completed ?? 0) > 0;
  if (!runs.length && !mayPromote) return null;
  return (
    <>
      <h2>Final runs</h2>
      {mayPromote && !choosing && <p><button data-action="promote" onClick={() => { setOutcome(null); setChoosing(true); }}>promote…</button></p>}
      {choosing && <PromoteForm experiment={experiment} promoted={new Set(runs.map((r) => r.trial_id))}
        onPromote={promote} onClose={() => setChoosing(false)} />}
      {outcome && <p data-testid="promote-outcome">{outcome}</p>}
      {error && <p class="error" role="alert">{error}</p>}
      {runs.length > 0 && (
        <table class="grid" data-testid="final-runs">
          <thead>
            <tr><th>rank</th><th>trial</th><th>state</th><th>workers</th><th>epochs</th><th>cluster</th><th>last metrics</th><th>test</th><th>model</th>{member && <th></th>}</tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-final-run={run.id}>
                <td>{run.purpose === "retrain" ? <span class="chip" title="a retrain schedule's run">retrain</span> : run.rank}</td>
                <td><a href={`#/trials/${run.trial_id}`}>trial #{run.trial_number ?? run.trial_id}</a></td>
                <td><StateBadge state={run.state} />{run.error && <span class="error" title={run.error}> error</span>}</td>
                <td>{run.num_workers}</td>
                <td>{run.epochs}</td>
                <td>{run.cluster}</td>
                <td class="muted">{metricsText(run.metrics && { [experiment.metric]: run.metrics[experiment.metric] as number })}</td>
                <td>{metricsText(run.test_metrics)}</td>
                <td>{run.model_version
                  ? <a href={`#/models/${encodeURIComponent(run.model_name)}`}>{run.model_name} v{run.model_version}</a>
                  : <span class="muted">{run.model_name}</span>}</td>
                {member && <td>{(run.state === "queued" || run.state === "running") &&
                  <button class="danger" data-action="cancel-final-run" onClick={() => cancel(run)}>cancel</button>}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The promotion's choices, as POST .../promote takes them: trials picked from the best ten
 *  (none: the spec's top k by the metric), and what may differ from the spec's promotion. An
 *  empty field keeps the spec's value (shown as the placeholder). */
function PromoteForm({ experiment, promoted, onPromote, onClose }: {
  experiment: Experiment; promoted: Set<number>;
  onPromote: (overrides: Record<string, unknown>) => Promise<void>; onClose: () => void;
}) {
  // the choices offered (none, where they cannot be read: the spec's defaults still hold)
  const best = useLive(async () => (await api<Page<Trial>>(`/experiments/${experiment.id}/trials`, {
    query: { state: "completed", limit: 10 },
  })).items, 0, [experiment.id]).data ?? [];
  const clusters = useLive(async () => (await api<Cluster[]>("/clusters")).filter((c) => c.role !== "sweep"), 0, []).data ?? [];
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [fields, setFields] = useState({ top_k: "", num_workers: "", epochs: "", cluster: "", model_name: "" });
  const spec = (experiment.spec.promotion ?? {}) as Record<string, unknown>;
  const field = (name: keyof typeof fields, label: string, type = "number") => (
    <label>{label}{" "}
      <input name={name} type={type} min={type === "number" ? 1 : undefined} value={fields[name]}
        placeholder={String(spec[name] ?? (name === "model_name" ? experiment.name : ""))}
        onInput={(e) => setFields({ ...fields, [name]: (e.target as HTMLInputElement).value })} />
    </label>
  );
  const submit = () => {
    const overrides: Record<string, unknown> = {};
    if (picked.size) overrides.trial_ids = [...picked];
    for (const name of ["top_k", "num_workers", "epochs"] as const) if (fields[name]) overrides[name] = Number(fields[name]);
    if (fields.cluster) overrides.cluster = fields.cluster;
    if (fields.model_name) overrides.model_name = fields.model_name;
    return onPromote(overrides);
  };
  const toggle = (id: number) => {
    const next = new Set(picked);
    if (!next.delete(id)) next.add(id);
    setPicked(next);
  };
  return (
    <div class="card promote-form" data-testid="promote-form">
      <h3>Promote</h3>
      <p class="muted">Trials (none picked: the best {String(spec.top_k ?? 1)} by {experiment.metric})</p>
      <ul class="pick">
        {best.map((t) => (
          <li key={t.id}>
            <label>
              <input type="checkbox" name="trial" value={t.id} checked={picked.has(t.id)}
                disabled={promoted.has(t.id)} onChange={() => toggle(t.id)} />
              {" "}#{t.number} · {formatValue(t.best_metric)} · {formatConfig(t.config)}
              {promoted.has(t.id) && <span class="muted"> (promoted)</span>}
            </label>
          </li>
        ))}
      </ul>
      <div class="filters">
        {field("top_k", "top k")}
        {field("num_workers", "workers")}
        {field("epochs", "epochs")}
        <label>cluster{" "}
          <select name="cluster" value={fields.cluster} onChange={(e) => setFields({ ...fields, cluster: (e.target as HTMLSelectElement).value })}>
            <option value="">{String(spec.cluster ?? "default")}</option>
            {clusters.map((c) => <option key={c.name} value={c.name}>{c.name}</option>)}
          </select>
        </label>
        {field("model_name", "model", "text")}
      </div>
      <p>
        <button data-action="promote-now" onClick={submit}>promote</button>
        <button class="link" onClick={onClose}>cancel</button>
      </p>
    </div>
  );
}
