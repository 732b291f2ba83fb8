import { describe, expect, it } from "vitest";
import { appendLines, attemptQuery, droppedText, firstError, formatLogTime, gapText, logRows } from "./logs";
import type { LogLine } from "./types";

function line(changes: Partial<LogLine>): LogLine {
  return { attempt: 1, rank: 0, stream: "stdout", time: 1_700_000_000, seq: 1, text: "epoch 1", ...changes };
}

describe("logs", () => {
  it("finds the first traceback or stderr line naming an Error", () => {
    const lines = [
      line({ text: "ValueError is a word here, on stdout" }),
      line({ stream: "stderr", text: "a warning" }),
      line({ stream: "stderr", text: "RuntimeError: CUDA out of memory", seq: 3 }),
      line({ text: "Traceback (most recent call last):", seq: 4 }),
    ];
    expect(firstError(lines)).toBe(2);
    expect(firstError([line({ text: "Traceback (most recent call last):" })])).toBe(0);
    expect(firstError(lines.slice(0, 2))).toBe(-1);
  });

  it("says how many lines were dropped, with thousands marked", () => {
    expect(droppedText(12345)).toBe("12,345 lines dropped between the head and the latest lines");
    expect(droppedText(1)).toBe("1 line dropped between the head and the latest lines");
    expect(gapText({ attempt: 2, rank: 1, count: 1234 })).toBe("… 1,234 lines of attempt 2 rank 1 dropped here …");
  });

  it("marks where a worker's numbering jumps, each worker on its own", () => {
    const rows = logRows([
      line({ seq: 1 }), line({ rank: 1, seq: 1 }), line({ seq: 2 }), line({ seq: 40 }), line({ rank: 1, seq: 2 }),
      line({ attempt: 2, seq: 1 }),
    ]);
    expect(rows.map((r) => (r.kind === "gap" ? `gap ${r.rank}:${r.count}` : `${r.line.rank}:${r.line.seq}`)))
      .toEqual(["0:1", "1:1", "0:2", "gap 0:37", "0:40", "1:2", "0:1"]);
  });

  it("keeps the latest attempt alone when asked and lets the oldest lines go past the most", () => {
    const first = [line({ seq: 1 }), line({ seq: 2 })];
    expect(appendLines(first, [line({ seq: 3 })], true)).toEqual({ lines: [...first, line({ seq: 3 })], trimmed: 0 });
    const restarted = appendLines(first, [line({ attempt: 2, seq: 1 })], true);
    expect(restarted.lines.map((l) => l.attempt)).toEqual([2]);
    expect(appendLines(first, [line({ attempt: 2, seq: 1 })], false).lines).toHaveLength(3);
    const capped = appendLines(first, [line({ seq: 3 }), line({ seq: 4 })], false, 3);
    expect(capped.lines.map((l) => l.seq)).toEqual([2, 3, 4]);
    expect(capped.trimmed).toBe(1);
  });

  it("asks for the attempt the address names", () => {
    expect(attemptQuery("")).toBe(-1);
    expect(attemptQuery("all")).toBeUndefined();
    expect(attemptQuery("2")).toBe(2);
    expect(attemptQuery("x")).toBe(-1);
  });

  it("shows a line's time to the millisecond", () => {
    expect(formatLogTime(1_700_000_000.25)).toMatch(/^\d\d:\d\d:\d\d\.250$/);
  });
});
