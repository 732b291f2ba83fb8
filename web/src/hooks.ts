import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";

/** Calls `load` now and whenever `deps` change and, while `active`, every `intervalMs` too: a
 *  page whose subject has ended (a finished sweep) or is gone (a 404) passes `active` false and
 *  asks nothing more until something it shows changes. A timer tick is skipped while a load is
 *  in flight; a change of `deps` then loads again once that one is done (its answer would be
 *  for what was asked before). */
export function usePoll(load: () => Promise<void>, intervalMs: number, deps: unknown[], active = true): () => void {
  const current = useRef(load);
  current.current = load;
  const run = useRef({ mounted: true, busy: false, again: false });
  const tick = async (changed: boolean) => {
    const state = run.current;
    if (!state.mounted) return;
    if (state.busy) {
      state.again ||= changed;
      return;
    }
    state.busy = true;
    try {
      do {
        state.again = false;
        await current.current();
      } while (state.again && state.mounted);
    } finally {
      state.busy = false;
    }
  };
  useEffect(() => {
    run.current.mounted = true;
    return () => { run.current.mounted = false; };
  }, []);
  useEffect(() => { void tick(true); }, deps);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void tick(false), intervalMs);
    return () => clearInterval(timer);
  }, [...deps, active]);
  return () => void tick(true);
}

/** A 404 from the API: what a page names is gone, and asking again will not bring it back. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** An error as text for the page, keeping the API's per-field details. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const details = error.details.map((d) => `${d.path}: ${d.message}`).join("; ");
    return details ? `${error.message} (${details})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export function useHashRoute(): string {
  const [hash, setHash] = useState(location.hash || "#/");
  useEffect(() => {
    const changed = () => setHash(location.hash || "#/");
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return hash;
}

/** The query of the hash route (`#/experiments/abc?sort=config.lr&offset=50`): what a view
 *  was showing, so its address can be shared or bookmarked. */
export function hashQuery(): URLSearchParams {
  const hash = location.hash;
  const at = hash.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
}

/** Puts ``values`` in the hash route's query (an empty one removed; other keys kept: each view
 *  keeps its own), replacing the current history entry: changing a filter is not a page to go
 *  back to. */
export function setHashQuery(values: Record<string, string>): void {
  const hash = location.hash || "#/";
  const at = hash.indexOf("?");
  const path = at < 0 ? hash : hash.slice(0, at);
  const query = hashQuery();
  for (const [key, value] of Object.entries(values)) {
    if (value === "") query.delete(key);
    else query.set(key, value);
  }
  const text = query.toString();
  const next = text ? `${path}?${text}` : path;
  if (next !== hash) history.replaceState(history.state, "", next);
}

/** The browser tab names what the page shows, then raysweep ("digits-asha · raysweep"). */
export function useTitle(subject: string | null): void {
  useEffect(() => {
    document.title = subject ? `${subject} · raysweep` : "raysweep";
  }, [subject]);
}

/** Calls `load` once now and again after each change of `version` (what the page's poll saw
 *  change): at most every `spacingMs`, but at once when `ended` (nothing changes after that, so
 *  the last change is never left unread). Loads run one at a time. Only a mounted view loads:
 *  a hidden tab is not mounted, and asks nothing. */
export function useChangedLoad(load: () => Promise<void>, version: number, ended: boolean, spacingMs: number): () => void {
  const current = useRef(load);
  current.current = load;
  const queue = useRef<Promise<void>>(Promise.resolve());
  const last = useRef(0);
  const seen = useRef(version);
  const due = useRef(false);
  const run = () => {
    due.current = false;
    last.current = Date.now();
    queue.current = queue.current.then(() => current.current()).catch(() => undefined);
  };
  useEffect(run, []);
  useEffect(() => {
    if (version !== seen.current) {
      seen.current = version;
      due.current = true;
    }
    if (!due.current) return;
    const timer = setTimeout(run, ended ? 0 : Math.max(0, last.current + spacingMs - Date.now()));
    return () => clearTimeout(timer);
  }, [version, ended]);
  return run;
}

/** One thing a view shows from the API (a resource, or a few read together) as it last read
 *  it: ``data`` the last answer (kept while a new one is asked for), ``error`` the last load's
 *  (null once one succeeds), ``loading`` until the first answer or error; ``reload`` asks again
 *  now, ``setData`` puts in what an action answered (a PATCH's read). */
export interface Live<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
  setData: (update: T | ((old: T | null) => T | null)) => void;
}

type Answer<T> = { data: T | null; error: string | null; gone: boolean };

/** A load of a view's resource: ``signal`` is aborted once its answer would be dropped. */
export type Load<T> = (signal: AbortSignal) => Promise<T>;

/** ``Live``'s state, and ``read`` to load into it: a load for what was asked before the last
 *  change of ``deps`` (or after the view left) is aborted and its answer dropped, never shown over
 *  the one for what is asked now; a 404 marks it ``gone`` (what it names will not come back)
 *  until an answer comes. */
function useAnswer<T>(load: Load<T>, deps: unknown[]) {
  const [answer, setAnswer] = useState<Answer<T>>({ data: null, error: null, gone: false });
  const current = useRef(load);
  current.current = load;
  const asked = useRef(new AbortController()); // one for each value of the deps
  useEffect(() => () => {
    asked.current.abort();
    asked.current = new AbortController();
  }, deps);
  const read = async () => {
    const { signal } = asked.current;
    try {
      const data = await current.current(signal);
      if (!signal.aborted) setAnswer({ data, error: null, gone: false });
    } catch (caught) {
      if (!signal.aborted) setAnswer((old) => ({ ...old, error: errorText(caught), gone: isNotFound(caught) }));
    }
  };
  const live = (reload: () => void): Live<T> => ({
    data: answer.data,
    error: answer.error,
    loading: answer.data === null && answer.error === null,
    reload,
    setData: (update) => setAnswer((old) => ({
      ...old, data: typeof update === "function" ? (update as (old: T | null) => T | null)(old.data) : update,
    })),
  });
  return { answer, read, live };
}

/** A view's live resource: ``load``'s answer, loaded now and whenever ``deps`` change and,
 *  while ``active`` (given the last answer, where it decides: a finished sweep is not), every
 *  ``intervalMs`` too (0: only when ``deps`` change). A 404 stops the polling: what it names is
 *  gone. ``usePoll`` says how loads are spaced. */
export function useLive<T>(
  load: Load<T>, intervalMs: number, deps: unknown[], active: boolean | ((data: T | null) => boolean) = true,
): Live<T> {
  const { answer, read, live } = useAnswer(load, deps);
  const polling = intervalMs > 0 && !answer.gone && (typeof active === "function" ? active(answer.data) : active);
  return live(usePoll(read, intervalMs, deps, polling));
}

/** A tab's resource read again as its page's poll sees the sweep change (``useChangedLoad``
 *  says when): ``load``'s answer, as ``useLive`` keeps it. */
export function useChangedLive<T>(load: Load<T>, version: number, ended: boolean, spacingMs: number): Live<T> {
  const { read, live } = useAnswer(load, []);
  return live(useChangedLoad(read, version, ended, spacingMs));
}

/** A person's action on the page (a form sent, a button's request): ``run`` does it while
 *  ``busy`` (its buttons disabled meanwhile), ``error`` its failure as text (null once one
 *  succeeds). */
export function useAction(): { busy: boolean; error: string | null; run: (action: () => Promise<void>) => Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
