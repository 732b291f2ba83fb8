import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { errorText, hashQuery, isNotFound, setHashQuery, useLive } from "../hooks";
import { appendLines, attemptQuery, droppedText, firstError, formatLogTime, gapText, logRows } from "../logs";
import { plural } from "../shape";
import type { LogLine, TrialLogs } from "../types";

const PAGE = 5000; // the most lines the API answers at once
const WAIT_S = 25; // a follow's long poll: the most the API waits for a line
const RETRY_MS = 5000; // after a failed read, while following
const TAIL = 20; // a failed trial's last lines, under its error

type Found = Pick<TrialLogs, "attempts" | "ranks" | "dropped">;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

function LineRow({ line, index, jumped }: { line: LogLine; index?: number; jumped?: boolean }) {
  const stderr = line.stream === "stderr";
  const when = new Date(line.time * 1000).toISOString();
  return (
    <div class={`log-line${stderr ? " stderr" : ""}${jumped ? " jumped" : ""}`} data-index={index}
      data-rank={line.rank} data-attempt={line.attempt} data-stream={line.stream}>
      <span class="log-meta" title={`${when} · attempt ${line.attempt} · rank ${line.rank} · ${line.stream}`}>
        {formatLogTime(line.time)} a{line.attempt} r{line.rank} {stderr ? "err" : "out"}
      </span>
      <span class="log-text">{line.text}</span>
    </div>
  );
}

/** Logs read from ``path`` (``/trials/{id}/logs``, ``/experiments/{id}/driver-logs``: the same
 *  answers), oldest first, by rank and attempt (kept in the address; ``ranks`` false: a sweep's
 *  drivers have rank 0 only, and no rank filter). While ``live`` (the page knows what wrote them
 *  has not ended) it follows: each answer's cursor is passed back with a long poll, and new
 *  lines are added at the end; leaving the page or the end stops it (no request after either). */
export function LogsView({ path, live, ranks: byRank = true }: { path: string; live: boolean; ranks?: boolean }) {
  const [shared] = useState(hashQuery);
  const [rank, setRank] = useState(byRank ? shared.get("rank") ?? "" : "");
  const [attempt, setAttempt] = useState(shared.get("attempt") ?? ""); // "": latest; "all"; a number
  const [lines, setLines] = useState<LogLine[]>([]);
  const [trimmed, setTrimmed] = useState(0);
  const [found, setFound] = useState<Found | null>(null);
  const [following, setFollowing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [jumped, setJumped] = useState<number | null>(null);
  const [wrap, setWrap] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true); // the box shows its end: keep it there as lines come
  // what has been read, for which filters (a change of filter starts over; of ``live`` not)
  const read = useRef<{ key: string; after?: string; lines: LogLine[] }>({ key: "", lines: [] });

  useEffect(() => setHashQuery({ rank, attempt }), [rank, attempt]);

  useEffect(() => {
    const key = `${path}|${rank}|${attempt}`;
    if (read.current.key !== key) {
      read.current = { key, lines: [] };
      setLines([]);
      setTrimmed(0);
      setFound(null);
      setJumped(null);
      stick.current = true;
    }
    const stop = new AbortController();
    const latestOnly = attempt === "";
    const follow = async () => {
      let caughtUp = false; // everything there was has been read: now wait for more
      while (!stop.signal.aborted) {
        try {
          const logs: TrialLogs = await api<TrialLogs>(path, {
            query: {
              rank: rank || undefined, attempt: attemptQuery(attempt), after: read.current.after, limit: PAGE,
              wait_s: live && caughtUp ? WAIT_S : undefined,
            },
            signal: stop.signal,
          });
          if (stop.signal.aborted) return;
          read.current.after = logs.cursor;
          if (logs.lines.length) {
            const next = appendLines(read.current.lines, logs.lines, latestOnly);
            read.current.lines = next.lines;
            setLines(next.lines);
            if (next.trimmed) setTrimmed((before) => before + next.trimmed);
          }
          setFound({ attempts: logs.attempts, ranks: logs.ranks, dropped: logs.dropped });
          setError(null);
          caughtUp = !logs.more;
          const more = logs.more || (live && logs.running);
          setFollowing(live && logs.running);
          if (!more) return;
        } catch (caught) {
          if (stop.signal.aborted) return;
          setError(errorText(caught));
          setFollowing(false);
          if (!live || isNotFound(caught)) return;
          await pause(RETRY_MS, stop.signal);
        }
      }
    };
    void follow();
    return () => stop.abort();
  }, [path, rank, attempt, live]);

  // new lines keep a box that showed its end at its end
  useLayoutEffect(() => {
    const shown = box.current;
    if (shown && stick.current) shown.scrollTop = shown.scrollHeight;
  }, [lines]);

  const errorAt = firstError(lines);
  const jump = () => {
    const shown = box.current;
    const line = shown?.querySelector<HTMLElement>(`[data-index="${errorAt}"]`);
    if (!shown || !line) return;
    stick.current = false;
    shown.scrollTop = line.offsetTop;
    shown.scrollIntoView({ block: "nearest" });
    setJumped(errorAt);
  };
  const ranks = found?.ranks ?? [];
  const attempts = found?.attempts ?? [];
  return (
    <div class="logs" data-testid="logs" data-following={String(following)}>
      <div class="filters log-tools">
        {byRank && (
          <label>rank{" "}
            <select name="log-rank" value={rank} onChange={(e) => setRank((e.target as HTMLSelectElement).value)}>
              <option value="">all</option>
              {[...new Set([...ranks, ...(rank ? [Number(rank)] : [])])].map((r) => <option key={r} value={String(r)}>{r}</option>)}
            </select>
          </label>
        )}
        <label>attempt{" "}
          <select name="log-attempt" value={attempt} onChange={(e) => setAttempt((e.target as HTMLSelectElement).value)}>
            <option value="">latest{attempts.length ? ` (${attempts.at(-1)})` : ""}</option>
            <option value="all">all</option>
            {[...new Set([...attempts, ...(Number(attempt) > 0 ? [Number(attempt)] : [])])].map((a) => (
              <option key={a} value={String(a)}>{a}</option>
            ))}
          </select>
        </label>
        <button data-action="jump-to-error" disabled={errorAt < 0} onClick={jump}
          title={errorAt < 0 ? "no traceback or stderr Error in these lines" : "the first traceback or stderr line naming an Error"}>
          jump to first error
        </button>
        <label><input type="checkbox" name="log-wrap" checked={wrap} onChange={() => setWrap(!wrap)} /> wrap lines</label>
        <span class="muted" data-testid="log-status">
          {plural(lines.length, "line")}{following ? " · following" : ""}
        </span>
      </div>
      {found !== null && found.dropped > 0 && <p class="banner" data-testid="log-dropped">{droppedText(found.dropped)}</p>}
      {trimmed > 0 && <p class="muted" data-testid="log-trimmed">The {plural(trimmed, "oldest line")} read here were let go to keep the page fast: choose a rank or an attempt to see fewer.</p>}
      {error && <p class="error" role="alert">{error}</p>}
      <div ref={box} class={`log-box${wrap ? " wrap" : ""}`} data-testid="log-box"
        onScroll={(e) => {
          const shown = e.currentTarget as HTMLDivElement;
          stick.current = shown.scrollTop + shown.clientHeight >= shown.scrollHeight - 8;
        }}>
        {logRows(lines).map((row) => row.kind === "gap"
          ? <div key={`gap-${row.attempt}.${row.rank}.${row.nextSeq}`} class="log-gap" data-testid="log-gap">
              {gapText(row)}
            </div>
          : <LineRow key={`${row.line.attempt}.${row.line.rank}.${row.line.seq}`} line={row.line} index={row.index} jumped={row.index === jumped} />)}
        {!lines.length && <p class="muted">{found === null && !error ? "Loading…" : live ? "No lines yet: they appear here as they are printed." : "No lines."}</p>}
      </div>
    </div>
  );
}

/** A failed trial's last lines (of its latest attempt, every rank), for under its error. The
 *  API has no tail: its pages are read to the end and the last kept. */
export function LogTail({ trialId, onOpen }: { trialId: number; onOpen: () => void }) {
  const { data: tail, error } = useLive(async (signal) => {
    let kept: LogLine[] = [];
    let after: string | undefined;
    for (;;) {
      const logs = await api<TrialLogs>(`/trials/${trialId}/logs`, { query: { attempt: -1, after, limit: PAGE }, signal });
      kept = kept.concat(logs.lines).slice(-TAIL);
      after = logs.cursor;
      if (!logs.more) return kept;
    }
  }, 0, [trialId]);
  if (error) return <p class="error">Its logs could not be read: {error}</p>;
  if (tail === null) return <p class="muted">Reading its logs…</p>;
  return (
    <div class="log-tail" data-testid="log-tail">
      <h3>{tail.length ? `Its last ${plural(tail.length, "log line")}` : "No log lines were kept"}{" "}
        <button class="link" data-action="open-logs" onClick={onOpen}>all logs ›</button></h3>
      {tail.length > 0 && (
        <div class="log-box tail">{tail.map((line) => <LineRow key={`${line.attempt}.${line.rank}.${line.seq}`} line={line} />)}</div>
      )}
    </div>
  );
}
