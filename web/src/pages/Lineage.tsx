// Population-based training on the pages: the sweep's lineage (which trial copied which, when,
// and what changed) on the experiment's overview, and a trial's schedule and where its weights
// came from on its page.
import { api } from "../api";
import { useChangedLive } from "../hooks";
import { changes, schedule } from "../lineage";
import { formatConfig, formatValue } from "../shape";
import type { Exploit, Experiment, Trial } from "../types";

const REFRESH_MS = 5000;

/** Whether the sweep runs population-based training. */
export function isPbt(spec: Record<string, unknown>): boolean {
  const early = spec.early_stopping as { scheduler?: string } | undefined;
  return early?.scheduler === "pbt";
}

/** The sweep's exploits, oldest first, with each one's trials linked. */
export function Lineage({ experiment, version, ended }: { experiment: Experiment; version: number; ended: boolean }) {
  const { data: exploits, error } = useChangedLive(
    () => api<Exploit[]>(`/experiments/${experiment.id}/exploits`, { query: { limit: 10000 } }),
    version, ended, REFRESH_MS,
  );
  return (
    <>
      <h2>Lineage</h2>
      {error && <p class="error" role="alert">{error}</p>}
      {exploits && exploits.length === 0 && <p class="muted">No exploit yet: every trial trains from its own weights.</p>}
      {exploits && exploits.length > 0 && (
        <table class="grid" data-testid="lineage">
          <thead><tr><th>Epoch</th><th>Trial</th><th>Copied</th><th>{experiment.metric}</th><th>Changed</th></tr></thead>
          <tbody>
            {exploits.map((e) => (
              <tr key={`${e.trial_id}@${e.epoch}`}>
                <td class="num">{e.epoch}</td>
                <td><a href={`#/trials/${e.trial_id}`}>trial #{e.trial_number ?? e.trial_id}</a></td>
                <td>← <a href={`#/trials/${e.source_trial_id}`}>trial #{e.source_trial_number ?? e.source_trial_id}</a></td>
                <td class="num">{formatValue(e.value)} → {formatValue(e.source_value)}</td>
                <td class="mono">{changes(e).join(", ") || "nothing"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** A trial's schedule: its config over epochs, each exploit's stretch saying whose weights it
 *  went on from. Nothing for a trial that never exploited. */
export function TrialSchedule({ trial, version, ended }: { trial: Trial; version: number; ended: boolean }) {
  const { data: exploits } = useChangedLive(
    () => api<Exploit[]>(`/experiments/${trial.experiment_id}/exploits`, { query: { trial_id: trial.id } }),
    version, ended, REFRESH_MS,
  );
  if (!exploits || exploits.length === 0) return null;
  const last = [...exploits].sort((a, b) => b.epoch - a.epoch)[0];
  return (
    <>
      <h2>Schedule</h2>
      <p data-testid="weights-from">
        Weights from <a href={`#/trials/${last.source_trial_id}`}>trial #{last.source_trial_number ?? last.source_trial_id}</a>,
        copied at epoch {last.epoch} ({exploits.length} exploit{exploits.length === 1 ? "" : "s"} in all).
      </p>
      <table class="grid" data-testid="schedule">
        <thead><tr><th>From epoch</th><th>Config</th><th>Weights</th></tr></thead>
        <tbody>
          {schedule(trial.config, exploits).map((stretch) => (
            <tr key={stretch.from}>
              <td class="num">{stretch.from}</td>
              <td class="mono">{formatConfig(stretch.config)}</td>
              <td>{stretch.source === null ? "its own" : `copied from trial #${stretch.source}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
