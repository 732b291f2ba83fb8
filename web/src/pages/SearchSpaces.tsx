import { useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { errorText } from "../hooks";
import { addedSampled, parseEarlier, parseSpace, versionChanges } from "../spaces";
import type { Experiment, Problem, SpaceVersion } from "../types";

interface ExtendSpec {
  search?: { num_samples?: number };
  early_stopping?: { max_t?: number };
  stop?: { time_budget_s?: number | null };
  search_space?: unknown;
}

const TOTALS = [
  { name: "num_samples", label: "configurations in all", now: (s: ExtendSpec) => s.search?.num_samples },
  { name: "max_t", label: "max_t of every trial", now: (s: ExtendSpec) => s.early_stopping?.max_t },
  { name: "time_budget_s", label: "time budget (s)", now: (s: ExtendSpec) => s.stop?.time_budget_s ?? "none" },
] as const;
const EARLIER = "earlier_values.";

/** POST .../extend's choices: new totals (an empty field keeps the spec's value, shown as the
 *  placeholder) and, ticked, a new search space edited from the current one, with the value the
 *  earlier trials had for each sampled parameter it adds. The server names every problem at its
 *  path (``search_space.lr``, ``earlier_values.dropout``); the form stays open with them. */
export function ExtendForm({ experiment, onExtended, onClose }: {
  experiment: Experiment; onExtended: (extended: Experiment) => void; onClose: () => void;
}) {
  const spec = experiment.spec as ExtendSpec;
  const [totals, setTotals] = useState<Record<string, string>>({ num_samples: "", max_t: "", time_budget_s: "" });
  const [changing, setChanging] = useState(false);
  const [spaceText, setSpaceText] = useState(() => JSON.stringify(spec.search_space ?? {}, null, 2));
  // typed values are kept by name while the space is edited (a parameter removed and added back)
  const [earlier, setEarlier] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Problem[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // a named space's parameters are the server's: the earlier values its 422 asked for
  const [asked, setAsked] = useState<string[]>([]);
  const parsed = changing ? parseSpace(spaceText) : null;
  const added = !parsed || !("space" in parsed) ? []
    : typeof parsed.space === "string" ? asked : addedSampled(spec.search_space, parsed.space);

  const refuse = (message: string, found: Problem[]) => {
    setFailure(message);
    setProblems(found);
    const names = found.filter((p) => p.path.startsWith(EARLIER)).map((p) => p.path.slice(EARLIER.length));
    if (parsed && "space" in parsed && typeof parsed.space === "string") setAsked([...new Set([...asked, ...names])]);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    const local: Problem[] = [];
    for (const { name } of TOTALS) {
      const text = totals[name].trim();
      if (!text) continue;
      const value = Number(text);
      if (Number.isFinite(value)) body[name] = value;
      else local.push({ path: name, message: `${JSON.stringify(text)} is not a number` });
    }
    if (parsed && "error" in parsed) local.push({ path: "search_space", message: parsed.error });
    if (parsed && "space" in parsed) {
      body.search_space = parsed.space;
      // an empty one is left out: the server names it as missing
      body.earlier_values = Object.fromEntries(
        added.filter((name) => (earlier[name] ?? "").trim()).map((name) => [name, parseEarlier(earlier[name])]),
      );
    }
    if (local.length) return refuse("the extension is not valid", local);
    setBusy(true);
    try {
      onExtended(await api<Experiment>(`/experiments/${experiment.id}/extend`, { method: "POST", body }));
    } catch (caught) {
      if (caught instanceof ApiError) refuse(caught.message, caught.details);
      else refuse(errorText(caught), []);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card extend-form" data-testid="extend-form" onSubmit={submit}>
      <h3>Extend</h3>
      <div class="filters">
        {TOTALS.map(({ name, label, now }) => (
          <label key={name}>{label}{" "}
            <input name={name} type="text" inputMode="decimal" value={totals[name]} placeholder={String(now(spec) ?? "")}
              onInput={(e) => setTotals({ ...totals, [name]: (e.target as HTMLInputElement).value })} />
          </label>
        ))}
      </div>
      <label>
        <input type="checkbox" name="change-space" checked={changing} onChange={() => setChanging(!changing)} />
        {" "}change the search space
      </label>
      {changing && (
        <div class="space-edit">
          <p class="muted">The search space as a spec's (JSON), or a server-side space's name in quotes. The new
            configurations are sampled from it; the earlier trials that lie in it are what the searcher is told.</p>
          <textarea name="search-space" class="mono" rows={Math.min(24, spaceText.split("\n").length + 1)} value={spaceText}
            spellcheck={false} onInput={(e) => { setSpaceText((e.target as HTMLTextAreaElement).value); setAsked([]); }} />
          {parsed && "error" in parsed && <p class="muted" data-testid="space-unparsed">{parsed.error}</p>}
          {added.length > 0 && (
            <fieldset data-testid="earlier-values">
              <legend>the earlier trials ran without these: the value they had</legend>
              {added.map((name) => (
                <label key={name}>{name}{" "}
                  <input name={`earlier-${name}`} value={earlier[name] ?? ""} placeholder="e.g. 0.0, true, adam"
                    onInput={(e) => setEarlier({ ...earlier, [name]: (e.target as HTMLInputElement).value })} />
                </label>
              ))}
            </fieldset>
          )}
        </div>
      )}
      {failure && (
        <div class="error" role="alert" data-testid="extend-problems">
          <p>{failure}</p>
          {problems.length > 0 && (
            <ul>{problems.map((p) => <li key={`${p.path}:${p.message}`} data-path={p.path}><code>{p.path || "extension"}</code> {p.message}</li>)}</ul>
          )}
        </div>
      )}
      <p>
        <button type="submit" data-action="extend-now" disabled={busy}>extend</button>
        <button type="button" class="link" onClick={onClose}>cancel</button>
      </p>
    </form>
  );
}

/** The sweep's search-space versions, oldest first: what each changed from the one before,
 *  its whole space a click away. Shown only once an extension changed the space. */
export function SpaceVersions({ versions }: { versions: SpaceVersion[] }) {
  return (
    <div class="card space-versions" data-testid="space-versions">
      <h3>Search space</h3>
      <ol>
        {versions.map((v) => (
          <li key={v.version} data-version={v.version}>
            <details>
              <summary>
                <b>v{v.version}</b> {v.extension === 0 ? "submitted" : `from extension ${v.extension}: ${versionChanges(v)}`}
              </summary>
              <pre data-testid="space-json">{JSON.stringify(v.search_space, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
