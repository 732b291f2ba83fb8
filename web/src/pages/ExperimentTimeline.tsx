import { api } from "../api";
import { TimelineChart } from "../charts/TimelineChart";
import { ViewGuard } from "../components";
import { useChangedLive } from "../hooks";
import { plural } from "../shape";
import type { TimelineData } from "../types";

const REFRESH_MS = 5000;

/** The timeline tab: when the latest trials ran and waited, read again (at most every few
 *  seconds) as the page's poll sees the sweep change. */
export function ExperimentTimeline({ experimentId, version, ended, width }: {
  experimentId: string; version: number; ended: boolean; width: number;
}) {
  const { data, error } = useChangedLive(() => api<TimelineData>(`/experiments/${experimentId}/timeline`), version, ended, REFRESH_MS);
  if (!data) return error ? <p class="error" role="alert">{error}</p> : <p class="muted">Loading…</p>;
  return (
    <>
      {error && <p class="error" role="alert">{error}</p>}
      <p class="muted" data-testid="timeline-count">
        {data.truncated
          ? `The latest ${data.trials.length.toLocaleString()} of ${plural(data.total_trials, "trial")}.`
          : `${plural(data.total_trials, "trial")}.`}{" "}
        A bar runs from a trial's start to its end; its hatched parts it waited for the cluster to place it.
      </p>
      <ViewGuard view="timeline" label="timeline"><TimelineChart data={data} width={width} /></ViewGuard>
    </>
  );
}
