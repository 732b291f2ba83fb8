import { describe, expect, it } from "vitest";
import {
  hours,
  mayChange,
  alignSeries,
  contourCells,
  axisTicks,
  axisValue,
  brushFilter,
  axisPosition,
  formatAgo,
  formatConfig,
  formatInZone,
  formatParam,
  formatLogTick,
  formatTick,
  formatTicks,
  formatUntil,
  linearTicks,
  niceTicks,
  formatValue,
  mergeResults,
  metricAxis,
  metricSeries,
  paramAxes,
  plannedTrials,
  plural,
  progressCount,
  progressSegments,
  smooth,
  splitConditions,
} from "./shape";
import type { ConfigRow, CurveSeries } from "./types";

const series = (trial_id: number, points: [number, number][]): CurveSeries => ({ trial_id, trial_number: trial_id, state: "running", config: {}, points });

describe("alignSeries", () => {
  it("shares one sorted x axis and leaves gaps as null", () => {
    const { xs, ys } = alignSeries([series(1, [[1, 0.1], [3, 0.3]]), series(2, [[2, 0.5]])]);
    expect(xs).toEqual([1, 2, 3]);
    expect(ys).toEqual([[0.1, null, 0.3], [null, 0.5, null]]);
  });
});

describe("mergeResults", () => {
  it("appends, inserts in order, replaces a re-sent iteration and reports unknown trials", () => {
    const drawn = [series(1, [[1, 0.1], [3, 0.3]])];
    const { changed, unknown } = mergeResults(drawn, [
      { id: 10, trial_id: 1, iteration: 4, value: 0.4 },
      { id: 11, trial_id: 1, iteration: 2, value: 0.2 },
      { id: 12, trial_id: 1, iteration: 3, value: 0.35 },
      { id: 13, trial_id: 7, iteration: 1, value: 0.9 },
    ]);
    expect(changed).toBe(true);
    expect(unknown).toEqual([7]);
    expect(drawn[0].points).toEqual([[1, 0.1], [2, 0.2], [3, 0.35], [4, 0.4]]);
  });

  it("ignores results without a metric value", () => {
    const drawn = [series(1, [])];
    expect(mergeResults(drawn, [{ id: 1, trial_id: 1, iteration: 1, value: null }]).changed).toBe(false);
    expect(drawn[0].points).toEqual([]);
  });
});

describe("progressSegments", () => {
  it("orders states, drops empty ones and adds up to 100%", () => {
    const segments = progressSegments({ completed: 2, running: 1, pruned: 1, failed: 0 });
    expect(segments.map((s) => s.state)).toEqual(["running", "completed", "pruned"]);
    expect(segments.reduce((sum, s) => sum + s.percent, 0)).toBeCloseTo(100);
    expect(progressSegments({})).toEqual([]);
  });
  it("leaves the trials not started yet as the rest of the bar, and counts the ended ones", () => {
    const counts = { completed: 2, running: 1, pruned: 1 };
    const planned = plannedTrials(counts, { search: { num_samples: 8 } });
    expect(planned).toBe(8);
    expect(progressSegments(counts, planned).reduce((sum, s) => sum + s.percent, 0)).toBeCloseTo(50);
    expect(progressCount(counts, planned)).toBe("3/8");
    // more trials than planned (retried, or a spec without num_samples): the trials so far
    expect(plannedTrials(counts, { search: { num_samples: 2 } })).toBe(4);
    expect(plannedTrials(counts, {})).toBe(4);
    expect(progressCount({}, 0)).toBe("0/0");
  });
});

describe("parallel coordinates axes", () => {
  const rows: ConfigRow[] = [
    { trial_id: 1, trial_number: 1, state: "completed", metric: 0.9, values: [1e-4, 16, "adam"] },
    { trial_id: 2, trial_number: 2, state: "pruned", metric: 0.5, values: [1e-1, 256, "sgd"] },
    { trial_id: 3, trial_number: 3, state: "failed", metric: null, values: [1e-2, 64, null] },
  ];
  const axes = paramAxes(["lr", "hidden", "optimizer"], rows);

  it("uses a log scale for values spanning decades and categories for strings", () => {
    expect(axes[0]).toMatchObject({ kind: "numeric", log: true, min: 1e-4, max: 1e-1 });
    expect(axes[1]).toMatchObject({ kind: "numeric", log: false, min: 16, max: 256 });
    expect(axes[2]).toEqual({ kind: "categorical", name: "optimizer", categories: ["adam", "sgd"] });
  });

  it("spans the search space when it knows it, not the values drawn", () => {
    const space = {
      lr: { type: "loguniform", low: 1e-5, high: 1 },
      hidden: { type: "int", low: 8, high: 512, log: true },
      optimizer: { type: "choice", values: ["sgd", "adam", "adamw"] },
    };
    const spanned = paramAxes(["lr", "hidden", "optimizer"], rows, space);
    expect(spanned[0]).toMatchObject({ kind: "numeric", log: true, min: 1e-5, max: 1 });
    expect(spanned[1]).toMatchObject({ kind: "numeric", log: true, min: 8, max: 512 });
    expect(spanned[2]).toEqual({ kind: "categorical", name: "optimizer", categories: ["sgd", "adam", "adamw"] });
    expect(axisPosition(spanned[0], 1e-2)).toBeCloseTo(0.6);
  });

  it("places values between 0 and 1 and missing ones nowhere", () => {
    expect(axisPosition(axes[0], 1e-4)).toBeCloseTo(0);
    expect(axisPosition(axes[0], 1e-2)).toBeCloseTo(2 / 3);
    expect(axisPosition(axes[1], 136)).toBeCloseTo(0.5);
    expect(axisPosition(axes[2], "sgd")).toBe(1);
    expect(axisPosition(axes[2], null)).toBeNull();
  });

  it("puts the best metric at the top for either mode", () => {
    expect(metricAxis(rows, "max").position(0.9)).toBe(1);
    expect(metricAxis(rows, "min").position(0.5)).toBe(1);
  });
});

describe("metricSeries", () => {
  it("makes one series per numeric metric and drops counters that equal the x axis", () => {
    const result = (iteration: number, loss: number) => ({
      iteration,
      metrics: { epoch: iteration, loss, note: "text", bad: Number.NaN },
      reported_at: "",
    });
    const found = metricSeries([result(1, 0.9), result(2, 0.5)]);
    expect([...found.keys()]).toEqual(["loss"]);
    expect(found.get("loss")).toEqual([[1, 0.9], [2, 0.5]]);
  });
});

describe("splitConditions", () => {
  it("sends one where condition per comma, trimmed, none for an empty filter", () => {
    expect(splitConditions(" lr>0.01,optimizer = adam , ")).toEqual(["lr>0.01", "optimizer = adam"]);
    expect(splitConditions("")).toEqual([]);
  });
});

describe("formatting", () => {
  it("keeps numbers short and times relative", () => {
    expect(formatValue(0.123456)).toBe("0.1235");
    expect(formatValue(0.00001234)).toBe("1.23e-5");
    expect(formatValue(12)).toBe("12");
    expect(formatValue(null)).toBe("–");
    expect(formatAgo("2026-01-01T00:00:00Z", Date.parse("2026-01-01T00:02:00Z"))).toBe("2m ago");
  });

  it("writes a hyperparameter as it was set, without trailing zeros", () => {
    expect(formatParam(0.01)).toBe("0.01");
    expect(formatParam(0.0123456)).toBe("0.01235");
    expect(formatParam(0.5)).toBe("0.5");
    expect(formatParam(1e-4)).toBe("1e-4");
    expect(formatParam(1.5e-5)).toBe("1.5e-5");
    expect(formatParam(1.05e-4)).toBe("1.05e-4");
    expect(formatParam(250000.5)).toBe("2.5e+5");
    expect(formatParam(128)).toBe("128");
    expect(formatParam("adam")).toBe("adam");
    expect(formatConfig({ lr: 0.01, hidden: 64, optimizer: "sgd" })).toBe("lr=0.01, hidden=64, optimizer=sgd");
  });

  it("makes a count agree with its noun", () => {
    expect(plural(1, "trial")).toBe("1 trial");
    expect(plural(0, "trial")).toBe("0 trials");
    expect(plural(3, "final run")).toBe("3 final runs");
    expect(plural(2, "child", "children")).toBe("2 children");
  });
});

describe("schedule times", () => {
  it("says how long until a due time, and due once it has passed", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(formatUntil("2026-11-21T12:00:30Z", now)).toBe("in 30s");
    expect(formatUntil("2026-11-21T12:05:00Z", now)).toBe("in 5m");
    expect(formatUntil("2026-11-22T03:00:00Z", now)).toBe("in 15h");
    expect(formatUntil("2026-11-21T11:59:00Z", now)).toBe("due");
  });
  it("shows a UTC time as the wall clock of the schedule's zone, across a DST change", () => {
    expect(formatInZone("2026-11-22T02:00:00Z", "Europe/Berlin")).toBe("2026-11-22 03:00");
    expect(formatInZone("2026-07-01T01:00:00Z", "Europe/Berlin")).toBe("2026-07-01 03:00");
    expect(formatInZone("2026-11-22T02:00:00Z", "UTC")).toBe("2026-11-22 02:00");
  });
});

describe("formatTick", () => {
  it("keeps small learning rates and large throughputs readable", () => {
    expect([0.0025, 0.005, 0.0075].map(formatTick)).toEqual(["0.0025", "0.005", "0.0075"]);
    expect([0.00005, 0.0001].map(formatTick)).toEqual(["5.0e-5", "1.0e-4"]);
    expect([10000, 12000, 14000].map(formatTick)).toEqual(["10000", "12000", "14000"]);
    expect([0.1 + 0.2, 2500000, 0, -0.25].map(formatTick)).toEqual(["0.3", "2.5e+6", "0", "-0.25"]);
  });
});

describe("smooth", () => {
  it("is a debiased moving average that keeps gaps and leaves weight 0 alone", () => {
    const values = [1, null, 3, 3];
    expect(smooth(values, 0)).toBe(values);
    const smoothed = smooth(values, 0.5);
    expect(smoothed[0]).toBeCloseTo(1); // debiased: the first value is itself, not 0.5
    expect(smoothed[1]).toBeNull();
    expect(smoothed[2]).toBeCloseTo((0.25 * 1 + 0.5 * 3) / 0.75);
    expect(smoothed[3]).toBeGreaterThan(smoothed[2]!);
    expect(smoothed[3]).toBeLessThan(3);
  });
});

describe("parallel coordinates' axes", () => {
  const lr = { kind: "numeric" as const, name: "lr", min: 1e-4, max: 0.1, log: true };
  const hidden = { kind: "numeric" as const, name: "hidden", min: 16, max: 256, log: false };
  const optimizer = { kind: "categorical" as const, name: "optimizer", categories: ["adam", "sgd", "rmsprop"] };
  it("labels every axis: the ends, the decades of a log axis, steps of a linear one", () => {
    expect(axisTicks(lr).map((t) => t.label)).toEqual(["1e-4", "1e-3", "1e-2", "1e-1"]);
    expect(axisTicks(hidden).map((t) => t.label)).toEqual(["50", "100", "150", "200", "250"]);
    expect(axisTicks(hidden)[0].position).toBeCloseTo((50 - 16) / 240);
    expect(axisTicks(optimizer).map((t) => [t.label, t.position])).toEqual([["adam", 0], ["sgd", 0.5], ["rmsprop", 1]]);
  });
  it("inverts a position to its value, log or not", () => {
    expect(axisValue(lr, 0.5)).toBeCloseTo(Math.sqrt(1e-4 * 0.1));
    expect(axisValue(hidden, 0.25)).toBe(76);
  });
  it("says a brush as the API's conditions and keeps the same values", () => {
    const numeric = brushFilter(hidden, 0.25, 0.5);
    expect(numeric.conditions).toEqual(["hidden>=76", "hidden<=136"]);
    expect([75, 76, 100, 136, 137].map(numeric.keeps)).toEqual([false, true, true, true, false]);
    const choice = brushFilter(optimizer, 0.4, 1);
    expect(choice.conditions).toEqual(["optimizer!=adam"]);
    expect(["adam", "sgd", "rmsprop"].map(choice.keeps)).toEqual([false, true, true]);
  });
});

describe("contourCells", () => {
  const rows: ConfigRow[] = [
    { trial_id: 1, trial_number: 1, state: "completed", metric: 0.5, values: [0.002, "adam"] },
    { trial_id: 2, trial_number: 2, state: "completed", metric: 0.9, values: [0.0025, "adam"] },
    { trial_id: 3, trial_number: 3, state: "completed", metric: 0.7, values: [0.09, "sgd"] },
    { trial_id: 4, trial_number: 4, state: "failed", metric: null, values: [0.05, "sgd"] },
  ];
  const lr = { axis: { kind: "numeric" as const, name: "lr", min: 1e-4, max: 0.1, log: true }, column: 0 };
  const optimizer = { axis: { kind: "categorical" as const, name: "optimizer", categories: ["adam", "sgd"] }, column: 1 };
  it("keeps the best metric and the count of the trials in each cell", () => {
    const cells = contourCells(rows, lr, optimizer, 3, "max");
    expect(cells).toEqual([{ i: 1, j: 0, best: 0.9, count: 2 }, { i: 2, j: 1, best: 0.7, count: 1 }]);
    expect(contourCells(rows, lr, optimizer, 3, "min")[0].best).toBe(0.5);
  });
});

describe("hours", () => {
  it("shows small amounts to the thousandth and larger ones to the tenth", () => {
    expect(hours(18)).toBe("0.005");
    expect(hours(5400)).toBe("1.5");
  });
});

describe("mayChange", () => {
  it("lets an admin change anything and a token change only where it is a member", () => {
    expect(mayChange({ role: "admin", projects: {} }, "x")).toBe(true);
    const token = { role: "member", projects: { a: "member", b: "viewer" } };
    expect(mayChange(token, "a")).toBe(true);
    expect(mayChange(token, "b")).toBe(false);
    expect(mayChange(token, "c")).toBe(false);
  });
});

describe("axis ticks along the length, in one format", () => {
  it("puts round ticks inside the range, about as many as asked", () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(0.8213, 0.9671)).toEqual([0.85, 0.9, 0.95]);
    expect(niceTicks(16, 256)).toEqual([50, 100, 150, 200, 250]);
    expect(niceTicks(-3, 7, 3)).toEqual([-5, 0, 5].filter((v) => v >= -3));
    expect(niceTicks(2, 2)).toEqual([2]);
    expect(niceTicks(0.5, 0.50001, 5).length).toBeGreaterThanOrEqual(2);
  });
  it("labels ticks drawn together with the same decimals", () => {
    expect(formatTicks([0.85, 0.9, 0.95])).toEqual(["0.85", "0.90", "0.95"]);
    expect(formatTicks([0, 0.25, 0.5, 0.75, 1])).toEqual(["0.00", "0.25", "0.50", "0.75", "1.00"]);
    expect(formatTicks([50, 100, 150])).toEqual(["50", "100", "150"]);
    expect(formatTicks([0.0001, 0.0002])).toEqual(["1.0e-4", "2.0e-4"]);
    expect(linearTicks(0, 1, 3).map((t) => t.label)).toEqual(["0.0", "0.5", "1.0"]);
    expect(formatTicks([null, 0.5, 1])).toEqual(["", "0.5", "1.0"]); // uPlot's left-out tick
    expect(formatLogTick(null)).toEqual("");
  });
  it("marks a log axis's ticks in exponent form", () => {
    expect([1e-4, 3.2e-4, 0.01, 1, 1000].map(formatLogTick)).toEqual(["1e-4", "3.2e-4", "1e-2", "1e0", "1e3"]);
  });
});
