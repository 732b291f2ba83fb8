// Small pieces shared by the pages.
import { useState } from "preact/hooks";
import { errorText } from "./hooks";
import { progressCount, progressSegments, STATE_COLOURS } from "./shape";
import type { TrialState } from "./types";

export function StateBadge({ state }: { state: string }) {
  return <span class={`badge state-${state}`} data-state={state}>{state}</span>;
}

/** A running trial whose worker group waits for cluster resources; the reason on hover. */
export function WaitingBadge({ reason }: { reason: string | null }) {
  return reason ? <span class="badge waiting" data-waiting title={reason}>waiting for resources</span> : null;
}

/** Trials by state as a bar of the sweep's planned trials, with "ended/planned" beside it. */
export function Progress({ counts, planned = 0 }: { counts: Partial<Record<TrialState, number>>; planned?: number }) {
  const segments = progressSegments(counts, planned);
  const count = progressCount(counts, planned);
  const [ended, whole] = count.split("/");
  const states = segments.map((s) => `${s.count} ${s.state}`).join(", ");
  const title = states ? `${ended} of ${whole} trials ended: ${states}` : "no trials yet";
  return (
    <span class="progress-line" title={title} aria-label={title}>
      <span class="progress">
        {segments.map((s) => (
          <span key={s.state} style={{ width: `${s.percent}%`, background: STATE_COLOURS[s.state] }} />
        ))}
      </span>
      <span class="progress-count">{count}</span>
    </span>
  );
}

export function Labels({ labels }: { labels: Record<string, string> }) {
  return (
    <span class="labels">
      {Object.entries(labels).map(([key, value]) => <span key={key} class="chip">{key}:{value}</span>)}
    </span>
  );
}

export function Pager({ total, offset, size, onChange }: { total: number; offset: number; size: number; onChange: (o: number) => void }) {
  if (total <= size) return <p class="muted">{total} in all</p>;
  return (
    <p class="pager">
      <button disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - size))}>‹ previous</button>
      <span>{offset + 1}–{Math.min(total, offset + size)} of {total}</span>
      <button disabled={offset + size >= total} onClick={() => onChange(offset + size)}>next ›</button>
    </p>
  );
}

/** A member's notes on a sweep or a trial: shown to everyone, written by members (``save``
 *  stores them; an empty text removes them). */
export function Notes({ notes, editable, save }: { notes: string | null; editable: boolean; save: (text: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    try {
      await save(text.trim());
      setEditing(false);
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card" data-testid="notes">
      <h3>Notes</h3>
      {editing ? (
        <>
          <textarea name="notes" rows={4} maxLength={10000} value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          <p>
            <button data-action="save-notes" disabled={busy} onClick={submit}>save</button>
            <button class="link" onClick={() => setEditing(false)}>cancel</button>
          </p>
        </>
      ) : (
        <>
          {notes ? <p class="notes-text" data-testid="notes-text">{notes}</p> : <p class="muted">No notes.</p>}
          {editable && (
            <button data-action="edit-notes" onClick={() => { setText(notes ?? ""); setEditing(true); }}>
              {notes ? "edit" : "add notes"}
            </button>
          )}
        </>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
