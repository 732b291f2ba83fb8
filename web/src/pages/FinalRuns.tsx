import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { StateBadge } from "../components";
import { errorText, usePoll } from "../hooks";
import { formatValue } from "../shape";
import type { Experiment, FinalRun, Me, Page } from "../types";

const POLL_MS = 3000;
const ACTIVE = new Set(["queued", "running", "cancelling"]);

function metricsText(metrics: Record<string, unknown> | null): string {
  if (!metrics) return "";
  return Object.entries(metrics).map(([k, v]) => `${k} ${formatValue(v as number)}`).join(" · ");
}

// The sweep's promoted trials, trained again with more workers; each ends as a model version.
export function FinalRuns({ experiment, me }: { experiment: Experiment; me: Me }) {
  const [runs, setRuns] = useState<FinalRun[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api<Page<FinalRun>>(`/experiments/${experiment.id}/final-runs`)
      .then((page) => { setRuns(page.items); setError(null); })
      .catch((caught) => setError(errorText(caught)));
  useEffect(() => { load(); }, [experiment.id, experiment.state]);
  usePoll(async () => { if (runs.some((r) => ACTIVE.has(r.state))) await load(); }, POLL_MS, [runs]);

  const cancel = async (run: FinalRun) => {
    if (!window.confirm(`Cancel final run ${run.id}? A running one is stopped; it registers no model.`)) return;
    try {
      const changed = await api<FinalRun>(`/final-runs/${run.id}/cancel`, { method: "POST" });
      setRuns((current) => current.map((r) => (r.id === changed.id ? changed : r)));
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  const promote = async () => {
    if (!window.confirm("Train the best trial again with the spec's promotion settings?")) return;
    try {
      const page = await api<Page<FinalRun>>(`/experiments/${experiment.id}/promote`, { method: "POST" });
      setRuns(page.items);
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  };

  const member = me.role !== "viewer";
  const mayPromote = member && experiment.state === "completed";
  if (!runs.length && !mayPromote) return null;
  return (
    <>
      <h2>Final runs</h2>
      {mayPromote && <p><button data-action="promote" onClick={promote}>promote</button></p>}
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
                <td><a href={`#/trials/${run.trial_id}`}>trial {run.trial_id}</a></td>
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
