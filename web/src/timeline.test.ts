import { describe, expect, it } from "vitest";
import { timelineRows, timeTicks } from "./timeline";
import type { TimelineData } from "./types";

const T0 = Date.parse("2024-05-01T10:00:00Z");
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

describe("timelineRows", () => {
  const data: TimelineData = {
    total_trials: 3, limit: 500, truncated: false,
    trials: [
      { trial_id: 13, trial_number: 3, state: "running", started_at: iso(60), finished_at: null,
        waits: [{ since: iso(60), until: null, ongoing: true }] },
      { trial_id: 12, trial_number: 2, state: "pending", started_at: null, finished_at: null, waits: [] },
      { trial_id: 11, trial_number: 1, state: "completed", started_at: iso(0), finished_at: iso(50),
        waits: [{ since: iso(5), until: iso(15), ongoing: false }, { since: iso(40), until: null, ongoing: false }] },
    ],
  };

  it("draws started trials oldest first, running ones and ongoing waits up to now", () => {
    const { rows, start, end } = timelineRows(data, T0 + 90_000);
    expect(rows.map((r) => r.number)).toEqual([1, 3]);
    expect(rows[1].run).toEqual({ from: T0 + 60_000, to: T0 + 90_000 });
    expect(rows[1].waits[0]).toEqual({ from: T0 + 60_000, to: T0 + 90_000, ongoing: true });
    // a wait whose end was not recorded ends with its trial
    expect(rows[0].waits.map((w) => [w.from - T0, w.to - T0])).toEqual([[5000, 15000], [40000, 50000]]);
    expect([start - T0, end - T0]).toEqual([0, 90_000]);
  });

  it("spans nothing without a started trial", () => {
    const { rows, start, end } = timelineRows({ ...data, trials: [data.trials[1]] }, T0);
    expect(rows).toEqual([]);
    expect(end - start).toBe(0);
  });
});

describe("timeTicks", () => {
  it("steps by round seconds, minutes and hours", () => {
    expect(timeTicks(50_000).map((t) => t.label)).toEqual(["0", "+10 s", "+20 s", "+30 s", "+40 s", "+50 s"]);
    expect(timeTicks(25 * 60_000).map((t) => t.label)).toEqual(["0", "+5 min", "+10 min", "+15 min", "+20 min", "+25 min"]);
    expect(timeTicks(3 * 3600_000).map((t) => t.label)).toEqual(["0", "+30 min", "+1 h", "+1 h 30", "+2 h", "+2 h 30", "+3 h"]);
  });
});
