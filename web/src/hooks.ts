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

/** The browser tab names what the page shows, then raysweep ("digits-asha · raysweep"). */
export function useTitle(subject: string | null): void {
  useEffect(() => {
    document.title = subject ? `${subject} · raysweep` : "raysweep";
  }, [subject]);
}
