import { describe, expect, it } from "vitest";
import { attention, duration, formatSpan, SILENT_FLOOR_MS, silentBound, silentFor, waitedFor, waitingWhat } from "./clocks";
import type { TrialClock } from "./types";

const NOW = Date.parse("2026-11-20T12:00:00Z");
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const REASON = "waiting for resources: needs 2 worker(s) x {CPU: 0.5} plus 0.01 CPU; free {CPU: 0.49} of {CPU: 2}";

function clock(changes: Partial<TrialClock>): TrialClock {
  return {
    trial_id: 1, trial_number: 1, iteration: 0, started_at: ago(1), last_reported_at: null,
    waiting_for: null, waiting_since: null, ...changes,
  };
}

describe("clocks", () => {
  it("formats spans as a person reads them", () => {
    expect(formatSpan(45_000)).toBe("45 s");
    expect(formatSpan(31 * 60_000)).toBe("31 min");
    expect(formatSpan(125 * 60_000)).toBe("2 h 5 min");
    expect(formatSpan(120 * 60_000)).toBe("2 h");
    expect(formatSpan((3 * 24 + 4) * 3600_000)).toBe("3 d 4 h");
  });

  it("names what a wait is for in a few words", () => {
    expect(waitingWhat(REASON)).toBe("CPU");
    expect(waitingWhat("waiting for resources: needs 1 worker(s) x {CPU: 1, GPU: 1}; free {CPU: 4} of {CPU: 4}")).toBe("CPU and GPU");
    expect(waitingWhat("project vision's quota of 2 GPUs is in use")).toBe("its project's quota");
    expect(waitingWhat("waiting for the cluster to grow: the cluster cannot place ...")).toBe("the cluster to grow");
    expect(waitingWhat("something else")).toBe("resources");
  });

  it("bounds silence by three of the trial's own iterations, never under ten minutes", () => {
    const fast = clock({ iteration: 10, started_at: ago(10), last_reported_at: ago(0) });
    expect(silentBound(fast)).toBe(SILENT_FLOOR_MS);
    const slow = clock({ iteration: 2, started_at: ago(60), last_reported_at: ago(20) }); // 20 min an epoch
    expect(silentBound(slow)).toBe(60 * 60_000);
    expect(silentFor(slow, NOW)).toBeNull(); // 20 min without a report: one slow epoch
    // 10 min an epoch: 70 min without a report is past its 30
    expect(silentFor(clock({ iteration: 2, started_at: ago(90), last_reported_at: ago(70) }), NOW)).toBe(70 * 60_000);
    expect(silentFor(clock({ iteration: 3, started_at: ago(63), last_reported_at: ago(60) }), NOW)).toBe(60 * 60_000);
    // before any report, from its start; a waiting trial is not silent, its wait says why
    expect(silentFor(clock({ started_at: ago(11) }), NOW)).toBe(11 * 60_000);
    expect(silentFor(clock({ started_at: ago(9) }), NOW)).toBeNull();
    expect(silentFor(clock({ started_at: ago(40), waiting_for: REASON, waiting_since: ago(31) }), NOW)).toBeNull();
    expect(waitedFor(clock({ waiting_for: REASON, waiting_since: ago(31) }), NOW)).toBe(31 * 60_000);
    expect(waitedFor(clock({ waiting_for: null, waiting_since: ago(31) }), NOW)).toBeNull();
  });

  it("says what a stuck sweep does in a line each", () => {
    const running = [
      clock({ trial_id: 5, trial_number: 5, waiting_for: REASON, waiting_since: ago(31) }),
      clock({ trial_id: 2, trial_number: 2, iteration: 4, started_at: ago(62), last_reported_at: ago(58) }),
      clock({ trial_id: 3, trial_number: 3, iteration: 4, started_at: ago(5), last_reported_at: ago(0) }),
    ];
    expect(attention(running, NOW)).toEqual({ waiting: "1 trial waiting 31 min for CPU", silent: "trial #2 silent for 58 min" });
    const more = [...running, clock({ trial_id: 7, trial_number: 7, waiting_for: REASON, waiting_since: ago(40) }),
      clock({ trial_id: 8, trial_number: 8, started_at: ago(20) })];
    expect(attention(more, NOW)).toEqual({
      waiting: "2 trials waiting for CPU, the longest 40 min (#7)",
      silent: "2 trials silent, the longest #2 for 58 min",
    });
    expect(attention([clock({ waiting_for: REASON })], NOW).waiting).toBe("1 trial waiting for CPU");
    expect(attention([running[2]], NOW)).toEqual({ waiting: null, silent: null });
  });

  it("measures a trial's run from its start to its end or now", () => {
    expect(duration({ started_at: ago(90), finished_at: ago(30) }, NOW)).toBe("1 h");
    expect(duration({ started_at: ago(12), finished_at: null }, NOW)).toBe("12 min");
    expect(duration({ started_at: null, finished_at: null }, NOW)).toBe("");
  });
});
