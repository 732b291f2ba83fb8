import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { FilterMenu, Pager, SilentBadge, StateBadge, WaitingBadge, Waited } from "../components";
import { duration } from "../clocks";
import { hashQuery, setHashQuery, useLive } from "../hooks";
import { formatAgo, formatParam, formatValue, plural, splitConditions, TRIAL_STATES } from "../shape";
import { MAX_COMPARED } from "./ComparePage";
import type { Experiment, Page, Trial } from "../types";

const PAGE_SIZE = 50;
// the API filters and sorts over all of the experiment's trials: a column or `config.<key>`
type Sort = "best_metric" | "last_metric" | "iteration" | "created_at" | `config.${string}`;

interface Props {
  experiment: Experiment; version: number; params: string[]; brushed?: string[];
  /** the sweep may still change: poll (else load only when asked for something else) */
  live?: boolean;
}

type Order = "best" | "asc" | "desc";

export function TrialTable({ experiment, version, params, brushed = [], live = true }: Props) {
  // what the table shows starts from the address (a shared link) and is kept in it
  const [shared] = useState(hashQuery);
  const [state, setState] = useState(shared.get("state") ?? "");
  const [typed, setTyped] = useState(shared.get("where") ?? "");
  const [filter, setFilter] = useState(shared.get("where") ?? ""); // applied on Enter or blur
  // a sweep whose search space changed: the version its trials were sampled from (1, 2, …)
  const versions = experiment.search_spaces?.length ?? 0;
  const [spaceVersion, setSpaceVersion] = useState(shared.get("space") ?? "");
  const spaceFilter = versions > 1 && spaceVersion ? [`space_version=${spaceVersion}`] : [];
  const [offset, setOffset] = useState(Math.max(0, Number(shared.get("offset")) || 0));
  const [sort, setSort] = useState<Sort>((shared.get("sort") as Sort | null) ?? "best_metric");
  const [order, setOrder] = useState<Order>((shared.get("order") as Order | null) ?? "best");
  const [compared, setCompared] = useState<number[]>([]);  // trial ids, in the order ticked
  const toggleCompared = (id: number) =>
    setCompared((now) => (now.includes(id) ? now.filter((x) => x !== id) : now.length < MAX_COMPARED ? [...now, id] : now));

  useEffect(() => {
    setHashQuery({
      state, where: filter, offset: offset ? String(offset) : "", space: spaceFilter.length ? spaceVersion : "",
      sort: sort === "best_metric" ? "" : sort, order: order === "best" ? "" : order,
    });
  }, [state, filter, sort, order, offset, spaceFilter.join()]);

  const { data: page, error } = useLive(() => api<Page<Trial>>(`/experiments/${experiment.id}/trials`, {
    // the parallel chart's brushes hold too
    query: { state: state || undefined, where: [...splitConditions(filter), ...spaceFilter, ...brushed], sort, order, limit: PAGE_SIZE, offset },
  }), 3000, [experiment.id, version, state, filter, spaceFilter.join(), sort, order, offset, brushed.join(",")], live);
  // a new brush shows its first page (but the page a shared address names stays)
  const brushKey = brushed.join(",");
  const lastBrush = useRef(brushKey);
  useEffect(() => {
    if (lastBrush.current === brushKey) return;
    lastBrush.current = brushKey;
    setOffset(0);
  }, [brushKey]);

  const sortBy = (column: Sort) => {
    if (column !== sort) {
      setSort(column);
      setOrder(column.endsWith("metric") ? "best" : column.startsWith("config.") ? "asc" : "desc");
    } else {
      setOrder(order === "asc" ? "desc" : "asc");
    }
    setOffset(0);
  };
  const apply = () => { setFilter(typed); setOffset(0); };

  const columns = params.length ? params : [...new Set(page?.items.flatMap((t) => Object.keys(t.config)) ?? [])].sort();
  const rows = page?.items ?? [];
  const arrow = (column: Sort) => (sort === column ? (order === "asc" ? " ▲" : order === "desc" ? " ▼" : " ★") : "");
  const header = (column: Sort, label: string) => (
    <th class="sortable" tabIndex={0} aria-sort={sort === column ? (order === "desc" ? "descending" : "ascending") : "none"}
      onClick={() => sortBy(column)} onKeyDown={(e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(column); } }}>
      {label}{arrow(column)}
    </th>
  );

  return (
    <div>
      <div class="filters">
        <FilterMenu label="State" name="trial-state" value={state} choices={TRIAL_STATES} onChange={(chosen) => { setState(chosen); setOffset(0); }} />
        {versions > 1 && (
          <FilterMenu label="Space" name="space-version" value={spaceVersion}
            choices={experiment.search_spaces!.map((v) => [String(v.version), `v${v.version}`])}
            onChange={(chosen) => { setSpaceVersion(chosen); setOffset(0); }} />
        )}
        <label>Where{" "}
          <input name="config-filter" placeholder="lr>0.01, optimizer=adam, best_metric>=0.9" value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
            onKeyDown={(e) => { if (e.key === "Enter") apply(); }} onBlur={apply} />
        </label>
        {(filter || spaceFilter.length > 0 || brushed.length > 0) && page && <span class="muted" data-testid="matching">{plural(page.total, "trial")} {page.total === 1 ? "matches" : "match"}{brushed.length > 0 ? " (with the chart's brushes)" : ""}</span>}
        {compared.length > 0 && (compared.length >= 2
          ? <a class="button" data-testid="compare-link" href={`#/compare?trials=${compared.join(",")}`}>compare {compared.length} trials</a>
          : <span class="muted">tick another trial to compare</span>)}
      </div>
      {error && <p class="error" role="alert">{error}</p>}
      {/* however many hyperparameters, the table scrolls in its own box: never the page */}
      <div class="table-scroll">
      <table class="grid" data-testid="trials">
        <thead>
          <tr>
            <th title={`tick 2 to ${MAX_COMPARED} trials to compare them`}>Compare</th><th>Trial</th><th>State</th>
            {versions > 1 && <th title="the version of the search space it was sampled from">Space</th>}
            {columns.map((c) => header(`config.${c}`, c))}
            {header("iteration", "Iteration")}
            {header("last_metric", "Last")}
            {header("best_metric", `Best ${experiment.metric}`)}
            <th>Started</th><th title="when its latest result came">Last report</th><th>Duration</th>
            <th>Restarts</th><th>Notes</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} data-trial={t.id}>
              <td><input type="checkbox" name="compare" value={t.id} checked={compared.includes(t.id)}
                disabled={!compared.includes(t.id) && compared.length >= MAX_COMPARED}
                onChange={() => toggleCompared(t.id)} aria-label={`compare trial #${t.number}`} /></td>
              <td><a href={`#/trials/${t.id}`} title={`trial id ${t.id}`}>#{t.number}</a></td>
              <td class="state-cell"><StateBadge state={t.state} /> <WaitingBadge reason={t.waiting_for} /><Waited trial={t} />
                {t.state === "running" && <SilentBadge trial={t} />}
                {t.feasible === false && <span class="badge infeasible" title="its latest result breaks a constraint: never best or promoted">infeasible</span>}</td>
              {versions > 1 && <td data-col="space">v{t.space_version}</td>}
              {columns.map((c) => <td key={c} class="num">{formatParam(t.config[c])}</td>)}
              <td class="num" data-col="iteration">{t.iteration}</td>
              <td class="num">{formatValue(t.last_metric)}</td>
              <td class="num">{formatValue(t.best_metric)}</td>
              <td data-col="started" title={t.started_at ?? ""}>{t.started_at ? formatAgo(t.started_at) : ""}</td>
              <td data-col="last-report" title={t.last_reported_at ?? ""}>{t.last_reported_at ? formatAgo(t.last_reported_at) : ""}</td>
              <td class="num" data-col="duration">{duration(t)}</td>
              <td class="num">{t.restarts || ""}</td>
              <td class="notes-cell" title={t.notes ?? ""}>{t.notes ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {page && !rows.length && <p class="muted" data-testid="no-trials">{filter || state || spaceFilter.length || brushed.length ? "No trial matches." : "No trials yet."}</p>}
      {page && <Pager total={page.total} offset={offset} size={PAGE_SIZE} onChange={setOffset} />}
    </div>
  );
}
