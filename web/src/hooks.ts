import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";

/** Calls `load` now and every `intervalMs` while mounted (skipping a tick while one is in flight). */
export function usePoll(load: () => Promise<void>, intervalMs: number, deps: unknown[]): void {
  const current = useRef(load);
  current.current = load;
  useEffect(() => {
    let stopped = false;
    let busy = false;
    const tick = async () => {
      if (busy || stopped) return;
      busy = true;
      try {
        await current.current();
      } finally {
        busy = false;
      }
    };
    void tick();
    const timer = setInterval(tick, intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, deps);
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
