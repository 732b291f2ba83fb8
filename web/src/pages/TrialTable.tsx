import { useState } from "preact/hooks";
import { api } from "../api";
import { Pager, StateBadge, WaitingBadge } from "../components";
import { errorText, usePoll } from "../hooks";
import { formatValue, matchesFilter, sortBy, TRIAL_STATES } from "../shape";
import type { Experiment, Page, Trial } from "../types";

const PAGE_SIZE = 50;
// columns the API sorts over all trials; config columns sort the page shown
const SERVER_SORTS = ["best_metric", "last_metric", "iteration", "created_at"] as const;
type ServerSort = (typeof SERVER_SORTS)[number];

interface Props { experiment: Experiment; version: number; params: string[] }

export function TrialTable({ experiment, version, params }: Props) {
  const [page, setPage] = useState<Page<Trial> | null>(null);
  const [state, setState] = useState("");
  const [filter, setFilter] = useState("");
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<ServerSort>("best_metric");
  const [order, setOrder] = useState<"best" | "asc" | "desc">("best");
  const [localSort, setLocalSort] = useState<{ key: string; direction: "asc" | "desc" } | null>(null);
  const [error, setError] = useState<string | null>(null);

  usePoll(async () => {
    try {
      setPage(await api<Page<Trial>>(`/experiments/${experiment.id}/trials`, {
        query: { state: state || undefined, sort, order, limit: PAGE_SIZE, offset },
      }));
      setError(null);
    } catch (caught) {
      setError(errorText(caught));
    }
  }, 3000, [experiment.id, version, state, sort, order, offset]);

  const sortServer = (column: ServerSort) => {
    setLocalSort(null);
    if (column !== sort) {
      setSort(column);
      setOrder(column.endsWith("metric") ? "best" : "desc");
    } else {
      setOrder(order === "asc" ? "desc" : "asc");
    }
    setOffset(0);
  };
  const sortLocal = (key: string) =>
    setLocalSort(localSort?.key === key && localSort.direction === "asc" ? { key, direction: "desc" } : { key, direction: "asc" });

  const columns = params.length ? params : [...new Set(page?.items.flatMap((t) => Object.keys(t.config)) ?? [])].sort();
  let rows = (page?.items ?? []).filter((t) => matchesFilter(t.config, filter));
  if (localSort) rows = sortBy(rows, (t) => t.config[localSort.key], localSort.direction);
  const arrow = (column: ServerSort) => (!localSort && sort === column ? (order === "asc" ? " ▲" : order === "desc" ? " ▼" : " ★") : "");

  return (
    <div>
      <div class="filters">
        <label>State{" "}
          <select name="trial-state" value={state} onChange={(e) => { setState((e.target as HTMLSelectElement).value); setOffset(0); }}>
            <option value="">any</option>
            {TRIAL_STATES.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label>Config{" "}
          <input name="config-filter" placeholder="lr>0.01, optimizer=adam or any text" value={filter}
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
        </label>
        {filter && <span class="muted">filters the page shown</span>}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      <table class="grid" data-testid="trials">
        <thead>
          <tr>
            <th>Trial</th><th>State</th>
            {columns.map((c) => (
              <th key={c} class="sortable" title="sorts the page shown" onClick={() => sortLocal(c)}>
                {c}{localSort?.key === c ? (localSort.direction === "asc" ? " ▲" : " ▼") : ""}
              </th>
            ))}
            <th class="sortable" onClick={() => sortServer("iteration")}>Iteration{arrow("iteration")}</th>
            <th class="sortable" onClick={() => sortServer("last_metric")}>Last{arrow("last_metric")}</th>
            <th class="sortable" onClick={() => sortServer("best_metric")}>Best {experiment.metric}{arrow("best_metric")}</th>
            <th>Restarts</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} data-trial={t.id}>
              <td><a href={`#/trials/${t.id}`}>{t.id}</a></td>
              <td><StateBadge state={t.state} /> <WaitingBadge reason={t.waiting_for} />
                {t.feasible === false && <span class="badge infeasible" title="its latest result breaks a constraint: never best or promoted">infeasible</span>}</td>
              {columns.map((c) => <td key={c} class="num">{formatValue(t.config[c])}</td>)}
              <td class="num" data-col="iteration">{t.iteration}</td>
              <td class="num">{formatValue(t.last_metric)}</td>
              <td class="num">{formatValue(t.best_metric)}</td>
              <td class="num">{t.restarts || ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page && <Pager total={page.total} offset={offset} size={PAGE_SIZE} onChange={setOffset} />}
    </div>
  );
}
