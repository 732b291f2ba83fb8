import { api } from "../api";
import { PageError } from "../components";
import { useLive, useTitle } from "../hooks";
import { formatAgo, formatConfig, formatValue } from "../shape";
import type { ModelSummary, ModelVersion, Page } from "../types";

function metricsText(metrics: Record<string, unknown> | null): string {
  if (!metrics) return "none";
  return Object.entries(metrics)
    .filter(([, v]) => typeof v === "number")
    .map(([k, v]) => `${k} ${formatValue(v as number)}`)
    .join(" · ");
}

// The model registry: every model, or one model's versions with their lineage.
export function ModelsPage({ name, project }: { name: string | null; project: string }) {
  return name ? <ModelVersions name={name} /> : <ModelList project={project} />;
}

function ModelList({ project }: { project: string }) {
  useTitle("models");
  const { data: models, error } = useLive(() => api<ModelSummary[]>("/models", { query: { project: project || undefined } }), 0, [project]);
  if (error) return <PageError error={error} />;
  if (!models) return <p class="muted">Loading…</p>;
  return (
    <section>
      <h1>Models</h1>
      {project && <p class="muted scope" data-testid="scope">Project {project}'s models (the switcher above shows every project's).</p>}
      {!models.length && <p class="muted">No model {project ? `in project ${project} ` : ""}yet: promote a completed sweep.</p>}
      <table class="grid" data-testid="models">
        <thead><tr><th>name</th><th>latest</th><th>versions</th><th>aliases</th></tr></thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.name}>
              <td><a href={`#/models/${encodeURIComponent(m.name)}`}>{m.name}</a></td>
              <td>v{m.latest_version}</td>
              <td>{m.versions}</td>
              <td>{Object.entries(m.aliases).map(([a, v]) => `${a} → v${v}`).join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ModelVersions({ name }: { name: string }) {
  useTitle(`model ${name}`);
  const { data: versions, error } = useLive(async () =>
    (await api<Page<ModelVersion>>(`/models/${encodeURIComponent(name)}/versions`)).items, 0, [name]);
  if (error) return <PageError error={error} back="#/models" backLabel="models" />;
  if (!versions) return <p class="muted">Loading…</p>;
  return (
    <section>
      <p><a href="#/models">‹ models</a></p>
      <h1>{name}</h1>
      {versions.length > 0 && <p class="muted" data-testid="model-project">project {versions[0].project}</p>}
      {versions.map((v) => (
        <div class="card" key={v.version} data-version={v.version}>
          <h3>v{v.version} {v.aliases.map((a) => <span class="badge" key={a}>{a}</span>)}</h3>
          <dl class="lineage">
            <dt>from</dt>
            <dd><a href={`#/experiments/${v.experiment_id}`}>experiment {v.experiment_id}</a>, <a href={`#/trials/${v.trial_id}`}>trial #{v.trial_number ?? v.trial_id}</a>, final run {v.final_run_id} ({v.trainer})</dd>
            <dt>validation</dt><dd>{metricsText(v.metrics)}</dd>
            <dt>test</dt><dd data-testid="test-metrics">{metricsText(v.test_metrics)}</dd>
            {v.comparison && (
              <>
                <dt>challenge</dt>
                <dd data-testid="comparison" data-promoted={String(v.comparison.promoted)}>
                  {v.comparison.promoted ? `took ${v.comparison.alias}` : `kept out of ${v.comparison.alias}`}: {v.comparison.reason}
                </dd>
              </>
            )}
            <dt>config</dt><dd class="muted">{formatConfig(v.config)}</dd>
            <dt>checkpoint</dt><dd class="mono">{v.checkpoint_uri}</dd>
            <dt>code</dt><dd class="mono">{Object.entries(v.code_version).map(([k, c]) => `${k} ${c}`).join(" · ")}</dd>
            <dt>data</dt><dd class="mono">{v.data_fingerprint ?? "unknown"}</dd>
            <dt>created</dt><dd>{formatAgo(v.created_at)}</dd>
          </dl>
        </div>
      ))}
    </section>
  );
}
