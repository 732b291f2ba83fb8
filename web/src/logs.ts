// A trial's log lines shaped for the logs view: no DOM, no fetch, so it is unit tested (logs.test.ts).
import type { LogLine } from "./types";

/** The most lines the view keeps: a trial followed for hours lets its oldest lines go rather
 *  than make the page ever slower (the API keeps them all). */
export const MAX_SHOWN = 20_000;

/** A line that starts an error: a Python traceback, or a line on stderr naming an Error. */
export function isErrorLine(line: Pick<LogLine, "stream" | "text">): boolean {
  return line.text.includes("Traceback (most recent call last)") || (line.stream === "stderr" && line.text.includes("Error"));
}

/** Where the first error starts, or -1. */
export function firstError(lines: Pick<LogLine, "stream" | "text">[]): number {
  return lines.findIndex(isErrorLine);
}

/** "12,345 lines dropped between the head and the latest lines". */
export function droppedText(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "line" : "lines"} dropped between the head and the latest lines`;
}

/** Where one worker's lines were dropped ("… 1,234 lines of attempt 1 rank 0 dropped here …"). */
export function gapText(gap: { attempt: number; rank: number; count: number }): string {
  return `… ${gap.count.toLocaleString("en-US")} ${gap.count === 1 ? "line" : "lines"} of attempt ${gap.attempt} rank ${gap.rank} dropped here …`;
}

/** When a worker wrote a line, as its wall-clock time here ("14:03:07.250"). */
export function formatLogTime(seconds: number): string {
  const at = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, "0")}`;
}

/** A line as the view draws it, or the place where a worker's lines were dropped. */
export type LogRow = { kind: "line"; line: LogLine; index: number } | { kind: "gap"; attempt: number; rank: number; count: number; nextSeq: number };

/** The lines with a gap row wherever a worker's numbering jumps (the lines the server did not
 *  keep between its head and its latest lines). */
export function logRows(lines: LogLine[]): LogRow[] {
  const last = new Map<string, number>();
  const rows: LogRow[] = [];
  lines.forEach((line, index) => {
    const stream = `${line.attempt}.${line.rank}`;
    const before = last.get(stream);
    if (before !== undefined && line.seq > before + 1) {
      rows.push({ kind: "gap", attempt: line.attempt, rank: line.rank, count: line.seq - before - 1, nextSeq: line.seq });
    }
    last.set(stream, line.seq);
    rows.push({ kind: "line", line, index });
  });
  return rows;
}

/** The lines shown with newer ones added: with ``latestOnly`` a new attempt replaces the older
 *  ones' lines; past ``max`` the oldest go. ``trimmed`` counts the lines let go. */
export function appendLines(shown: LogLine[], fresh: LogLine[], latestOnly: boolean, max = MAX_SHOWN): { lines: LogLine[]; trimmed: number } {
  let lines = shown.concat(fresh);
  if (latestOnly && lines.length) {
    const latest = Math.max(...fresh.map((l) => l.attempt), shown.length ? shown[shown.length - 1].attempt : 0);
    if (lines.some((l) => l.attempt < latest)) lines = lines.filter((l) => l.attempt === latest);
  }
  const trimmed = Math.max(0, lines.length - max);
  return { lines: trimmed ? lines.slice(trimmed) : lines, trimmed };
}

/** The attempt filter as the address keeps it ("" latest, "all", or a number) and as the API
 *  asks for it (-1 latest; none: every attempt). */
export function attemptQuery(chosen: string): number | undefined {
  if (chosen === "all") return undefined;
  const attempt = Number(chosen);
  return chosen !== "" && Number.isInteger(attempt) && attempt > 0 ? attempt : -1;
}
