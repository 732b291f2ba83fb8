// Small pieces shared by the pages.
import { Component, type ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { attention, formatSpan, silentBound, silentFor, waitedFor, waitingWhat } from "./clocks";
import { useAction } from "./hooks";
import { progressCount, progressSegments, STATE_COLOURS } from "./shape";
import type { Trial, TrialClock, TrialState } from "./types";

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

/** A trial waiting for resources: how long and for what, the whole reason on hover. */
export function Waited({ trial }: { trial: Pick<Trial, "iteration" | "started_at" | "last_reported_at" | "waiting_for" | "waiting_since"> }) {
  const waited = waitedFor(trial);
  if (trial.waiting_for === null) return null;
  return (
    <span class="waited" data-testid="waited" title={trial.waiting_for}>
      {waited === null ? "" : `${formatSpan(waited)} `}for {waitingWhat(trial.waiting_for)}
    </span>
  );
}

/** A running trial that has reported nothing for longer than its bound (clocks.ts says which
 *  and why): flagged, with the silence and the bound on hover. */
export function SilentBadge({ trial }: { trial: Pick<Trial, "iteration" | "started_at" | "last_reported_at" | "waiting_for" | "waiting_since"> }) {
  const silent = silentFor(trial);
  if (silent === null) return null;
  const what = trial.last_reported_at ? "no result" : "no result since it started";
  return (
    <span class="badge silent" data-silent
      title={`${what} for ${formatSpan(silent)}; a trial is flagged past ${formatSpan(silentBound(trial))} (three of its iterations, at least 10 min)`}>
      silent {formatSpan(silent)}
    </span>
  );
}

/** A sweep's stuck work in a line or two: trials waiting for resources, trials gone silent. */
export function Attention({ running, compact = false }: { running: TrialClock[]; compact?: boolean }) {
  const { waiting, silent } = attention(running);
  if (!waiting && !silent) return null;
  const reasons = [...new Set(running.map((t) => t.waiting_for).filter((r): r is string => r !== null))].join("\n");
  const Tag = compact ? "span" : "p";
  return (
    <Tag class="attention" data-testid="attention">
      {waiting && <span class="badge waiting" data-testid="waiting-line" title={reasons}>{waiting}</span>}
      {silent && <span class="badge silent" data-testid="silent-line"
        title="no result for longer than three of the trial's own iterations, and at least 10 min">{silent}</span>}
    </Tag>
  );
}

/** Text cut to its box with an ellipsis, the whole of it on hover. */
export function Clip({ text, class: extra = "" }: { text: string; class?: string }) {
  return <span class={`clip ${extra}`} title={text}>{text}</span>;
}

export function Labels({ labels }: { labels: Record<string, string> }) {
  return (
    <span class="labels">
      {Object.entries(labels).map(([key, value]) => (
        <span key={key} class="chip" title={`${key}:${value}`}>{key}:{value}</span>
      ))}
    </span>
  );
}

/** A list's filter menu: "any" (the empty value), then each choice (a value, or a value and its
 *  label). */
export function FilterMenu({ label, name, value, choices, onChange }: {
  label: string; name: string; value: string; choices: (string | [string, string])[]; onChange: (value: string) => void;
}) {
  return (
    <label>{label}{" "}
      <select name={name} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
        <option value="">any</option>
        {choices.map((choice) => {
          const [shown, text] = typeof choice === "string" ? [choice, choice] : choice;
          return <option key={shown} value={shown}>{text}</option>;
        })}
      </select>
    </label>
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
  const { busy, error, run } = useAction();
  const submit = () => run(async () => {
    await save(text.trim());
    setEditing(false);
  });
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

/** A page that cannot be shown (its sweep, trial, model or schedule not found, or refused): the
 *  API's words and a way back to the list it belongs to. */
export function PageError({ error, back = "#/", backLabel = "experiments" }: { error: string; back?: string; backLabel?: string }) {
  return (
    <section data-testid="page-error">
      <p><a href={back}>‹ {backLabel}</a></p>
      <p class="error" role="alert">{error}</p>
    </section>
  );
}

interface GuardProps { view: string; label: string; children: ComponentChildren }

/** Keeps an error thrown while drawing a view to that view: an error box in its place, the rest
 *  of the page (and every later page) drawn as ever. Give it a ``key`` of what it shows so a
 *  new subject starts clean. */
export class ViewGuard extends Component<GuardProps, { error: string | null }> {
  state = { error: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : String(error) };
  }

  componentDidCatch(error: unknown) {
    console.error(`raysweep: the ${this.props.label} could not be drawn`, error);
  }

  render() {
    if (this.state.error === null) return <>{this.props.children}</>;
    return (
      <div class="view-error error" role="alert" data-testid="view-error" data-view={this.props.view}>
        The {this.props.label} could not be drawn: {this.state.error}{" "}
        <button class="link" onClick={() => this.setState({ error: null })}>try again</button>
      </div>
    );
  }
}

/** A number and its unit ("0.5 CPU-h"), never parted across lines. */
export function Quantity({ value, unit }: { value: string | number; unit: string }) {
  return <span class="quantity">{`${value} ${unit}`}</span>;
}
