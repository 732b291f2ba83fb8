import { useState } from "preact/hooks";
import { api } from "../api";
import { Pager, StateBadge } from "../components";
import { useAction, useLive, useTitle } from "../hooks";
import { formatAgo, formatUntil, mayChange } from "../shape";
import { everyValue, type Delivery, type Me, type Page, type Project, type Webhook, type WebhookCreated, type WebhookEvent } from "../types";

const POLL_MS = 1500; // while a delivery is not final: "send test" shows it land in a second or two
const DELIVERIES = 20;
const EVENTS = everyValue<WebhookEvent>({
  "sweep.completed": true, "sweep.failed": true, "sweep.cancelled": true, "sweep.budget_spent": true, "sweep.converged": true,
  "trial.failed": true, "final_run.completed": true, "final_run.failed": true, "model_version.created": true, "alias.moved": true,
  "schedule.firing_failed": true, "schedule.firing_skipped": true,
});
const DEFAULT_EVENTS: WebhookEvent[] = ["sweep.completed", "sweep.failed"];

const webhooksPath = (project: string) => `/projects/${encodeURIComponent(project)}/webhooks`;

/** A delivery's state as a person reads it: a pending one is queued (not tried yet) or
 *  retrying. */
function shownState(d: Delivery): string {
  if (d.state !== "pending") return d.state;
  return d.attempts ? "retrying" : "queued";
}

function DeliveryTime({ d }: { d: Delivery }) {
  const times = [`created ${d.created_at}`, d.last_attempt_at && `last attempt ${d.last_attempt_at}`,
    d.next_attempt_at && `next attempt ${d.next_attempt_at}`, d.delivered_at && `delivered ${d.delivered_at}`];
  const text = d.delivered_at ? `delivered ${formatAgo(d.delivered_at)}`
    : d.state === "failed" ? `failed ${formatAgo(d.last_attempt_at ?? d.created_at)}`
    : d.attempts && d.next_attempt_at ? `next try ${formatUntil(d.next_attempt_at)}`
    : `queued ${formatAgo(d.created_at)}`;
  return <span title={times.filter(Boolean).join("\n")}>{text}</span>;
}

/** One webhook: what it is told and where, its delivery log (newest first, polled while a
 *  delivery is not final) and, for a member, send test / enable / delete. */
function WebhookCard({ hook, member, onChanged, onDeleted }: {
  hook: Webhook; member: boolean; onChanged: (hook: Webhook) => void; onDeleted: (id: number) => void;
}) {
  const [offset, setOffset] = useState(0);
  const [version, setVersion] = useState(0); // a test sent: read the log again now
  const { busy, error: actionError, run: act } = useAction();
  const path = `${webhooksPath(hook.project)}/${hook.id}`;
  const { data: deliveries, error: readError } = useLive(
    () => api<Page<Delivery>>(`${path}/deliveries`, { query: { limit: DELIVERIES, offset } }), POLL_MS, [path, offset, version],
    (read) => read?.items.some((d) => d.state === "pending") ?? false,
  );
  const error = actionError ?? readError;

  const sendTest = () => act(async () => {
    await api<Delivery>(`${path}/test`, { method: "POST" });
    setOffset(0);
    setVersion((v) => v + 1);
  });
  const toggle = () => act(async () => {
    onChanged(await api<Webhook>(path, { method: "PATCH", body: { enabled: !hook.enabled } }));
  });
  const remove = () => {
    if (!window.confirm(`Delete the webhook to ${hook.url} and its delivery log?`)) return;
    void act(async () => {
      await api<void>(path, { method: "DELETE" });
      onDeleted(hook.id);
    });
  };

  return (
    <div class="card webhook" data-webhook={hook.id} data-testid="webhook">
      <p class="webhook-head">
        <code class="webhook-url" data-testid="webhook-url" title={hook.url}>{hook.url}</code>{" "}
        <span class={`badge ${hook.enabled ? "state-enabled" : "state-paused"}`} data-testid="webhook-enabled">
          {hook.enabled ? "enabled" : "disabled"}
        </span>
      </p>
      {hook.url_redacted && <p class="muted">Its URL's credentials, query values or Slack path are shown as *** (never shown again).</p>}
      <dl class="lineage">
        <dt>events</dt><dd data-testid="webhook-events">{hook.events.join(", ")}</dd>
        <dt>format</dt><dd>{hook.format}</dd>
        <dt>secret</dt><dd class="mono">{hook.secret_hint}</dd>
        <dt>created</dt><dd title={hook.created_at}>{formatAgo(hook.created_at)} by {hook.created_by ?? "?"}</dd>
      </dl>
      {member && (
        <p class="webhook-actions">
          <button data-action="send-test" disabled={busy} onClick={sendTest}>send test</button>
          <button data-action={hook.enabled ? "disable" : "enable"} disabled={busy} onClick={toggle}>{hook.enabled ? "disable" : "enable"}</button>
          <button class="danger" data-action="delete" disabled={busy} onClick={remove}>delete</button>
        </p>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <h3>Deliveries{deliveries ? ` (${deliveries.total})` : ""}</h3>
      {deliveries && !deliveries.total && <p class="muted">Nothing sent yet.</p>}
      {deliveries && deliveries.items.length > 0 && (
        <>
          <table class="grid deliveries" data-testid="deliveries">
            <thead><tr><th>Event</th><th>State</th><th>Attempts</th><th>Response</th><th>When</th><th>Error or answer</th></tr></thead>
            <tbody>
              {deliveries.items.map((d) => (
                <tr key={d.id} data-delivery={d.id} data-state={d.state}>
                  <td>{d.event}</td>
                  <td><StateBadge state={shownState(d)} /></td>
                  <td class="num">{d.attempts}</td>
                  <td class="num" data-testid="response-code">{d.response_code ?? "—"}</td>
                  <td><DeliveryTime d={d} /></td>
                  <td class="message">{d.error ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager total={deliveries.total} offset={offset} size={DELIVERIES} onChange={setOffset} />
        </>
      )}
    </div>
  );
}

/** A member's new webhook: the server makes its secret and shows it once. */
function NewWebhook({ project, onCreated, onCancel }: { project: string; onCreated: (hook: WebhookCreated) => void; onCancel: () => void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(DEFAULT_EVENTS);
  const [format, setFormat] = useState<"json" | "slack">("json");
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      onCreated(await api<WebhookCreated>(webhooksPath(project), { method: "POST", body: { url: url.trim(), events, format } }));
    });
  };
  const flip = (event: WebhookEvent) => setEvents(events.includes(event) ? events.filter((x) => x !== event) : [...events, event]);
  return (
    <form class="card webhook-form" data-testid="webhook-form" onSubmit={submit}>
      <h3>New webhook</h3>
      <label>URL <input name="webhook-url" type="url" required placeholder="https://ci.example/hook" value={url}
        onInput={(e) => setUrl((e.target as HTMLInputElement).value)} /></label>
      <fieldset>
        <legend>events</legend>
        {EVENTS.map((event) => (
          <label key={event} class="event-choice">
            <input type="checkbox" name="webhook-event" value={event} checked={events.includes(event)} onChange={() => flip(event)} /> {event}
          </label>
        ))}
      </fieldset>
      <label>format{" "}
        <select name="webhook-format" value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value as "json" | "slack")}>
          <option value="json">json</option>
          <option value="slack">slack</option>
        </select>
      </label>
      <p class="muted">It hears of project {project}'s events; the server makes its signing secret and shows it here once.</p>
      <p>
        <button type="submit" data-action="create-webhook" disabled={busy || !events.length}>create</button>
        <button type="button" class="link" onClick={onCancel}>cancel</button>
      </p>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}

/** One project's webhooks. */
function ProjectWebhooks({ project, me, heading }: { project: string; me: Me; heading: boolean }) {
  const { data: hooks, error, setData: setHooks } = useLive(() => api<Webhook[]>(webhooksPath(project)), 0, [project]);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const member = mayChange(me, project);

  return (
    <div class="webhook-project" data-project={project} data-testid="project-webhooks">
      {heading && <h2>{project}</h2>}
      {error && <p class="error" role="alert">{error}</p>}
      {!hooks && !error && <p class="muted">Loading…</p>}
      {hooks && !hooks.length && (
        <p class="muted" data-testid="no-webhooks">No webhook in project {project} yet{member ? "." : " (a member adds them)."}</p>
      )}
      {created?.secret && (
        <div class="banner" data-testid="new-secret">
          <p>The webhook's signing secret, shown this once: <code class="secret">{created.secret}</code>.
            Give it to the receiver now to check each delivery's Raysweep-Signature.</p>
          <button class="link" onClick={() => setCreated(null)}>done</button>
        </div>
      )}
      {hooks?.map((hook) => (
        <WebhookCard key={hook.id} hook={hook} member={member}
          onChanged={(changed) => setHooks((now) => now && now.map((h) => (h.id === changed.id ? changed : h)))}
          onDeleted={(id) => setHooks((now) => now && now.filter((h) => h.id !== id))} />
      ))}
      {member && hooks && (adding
        ? <NewWebhook project={project} onCancel={() => setAdding(false)} onCreated={(hook) => {
            setCreated(hook);
            setHooks((now) => [...(now ?? []), hook]);
            setAdding(false);
          }} />
        : <p><button data-action="add-webhook" onClick={() => setAdding(true)}>add a webhook</button></p>)}
    </div>
  );
}

/** A project's webhooks (the switcher's project), or every project's, each under its name. */
export function WebhooksPage({ me, project, projects }: { me: Me; project: string; projects: Project[] }) {
  useTitle("webhooks");
  const shown = project ? [project] : projects.map((p) => p.name);
  return (
    <section>
      <h1>Webhooks</h1>
      <p class="muted scope" data-testid="scope">
        {project
          ? `Project ${project}'s webhooks (the switcher above shows every project's).`
          : "Every project's webhooks, under its name: choose a project in the switcher above to see one."}
      </p>
      {!shown.length && <p class="muted">No project to show.</p>}
      {shown.map((name) => <ProjectWebhooks key={name} project={name} me={me} heading={!project} />)}
    </section>
  );
}
