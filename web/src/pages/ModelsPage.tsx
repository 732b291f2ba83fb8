import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { errorText, useTitle } from "../hooks";
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
export function ModelsPage({ name }: { name: string | null }) {
  const [models, setModels] = useState<ModelSummary[] | null>(null);
  const [versions, setVersions] = useState<ModelVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useTitle(name ? `model ${name}` : "models");
  useEffect(() => {
    setError(null);
    if (name) {
      api<Page<ModelVersion>>(`/models/${encodeURIComponent(name)}/versions`)
        .then((page) => setVersions(page.items)).catch((caught) => setError(errorText(caught)));
    } else {
      api<ModelSummary[]>("/models").then(setModels).catch((caught) => setError(errorText(caught)));
    }
  }, [name]);

  if (error) return <p class="error" role="alert">{error}</p>;
  if (!name) {
    if (!models) return <p class="muted">Loading…</p>;
    return (
      <section>
        <h1>Models</h1>
        {!models.length && <p class="muted">No model yet: promote a completed sweep.</p>}
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
  if (!versions) return <p class="muted">Loading…</p>;
  return (
    <section>
      <p><a href="#/models">‹ models</a></p>
      <h1>{name}</h1>
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
