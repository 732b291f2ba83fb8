import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, tokenStore } from "./api";
import { ViewGuard } from "./components";
import { useHashRoute } from "./hooks";
import { ComparePage } from "./pages/ComparePage";
import { ExperimentPage } from "./pages/ExperimentPage";
import { ExperimentsPage } from "./pages/ExperimentsPage";
import { ModelsPage } from "./pages/ModelsPage";
import { SchedulesPage } from "./pages/SchedulesPage";
import { SignInPage } from "./pages/SignInPage";
import { TrialPage } from "./pages/TrialPage";
import { WebhooksPage } from "./pages/WebhooksPage";
import type { Me, Project } from "./types";

const PROJECT_KEY = "raysweep.project";
import "uplot/dist/uPlot.min.css";
import "./style.css";

function App() {
  const route = useHashRoute();
  const [me, setMe] = useState<Me | null>(null);
  const [signInMessage, setSignInMessage] = useState<string | null>(null);
  const [projects, setProjects] = useState<Project[] | null>(null);
  // the project the lists show ("": every project of the token's); kept across visits
  const [project, setProject] = useState<string>(localStorage.getItem(PROJECT_KEY) ?? "");

  useEffect(() => {
    if (me) api<Project[]>("/projects").then(setProjects).catch(() => setProjects([]));
  }, [me]);
  const chooseProject = (name: string) => {
    localStorage.setItem(PROJECT_KEY, name);
    setProject(name);
  };

  useEffect(() => {
    const expired = () => {
      tokenStore.clear();
      setMe(null);
      setSignInMessage("Your token was refused (revoked or unknown): sign in again.");
    };
    window.addEventListener("raysweep:unauthorized", expired);
    if (tokenStore.get()) api<Me>("/me").then(setMe).catch(() => undefined);
    return () => window.removeEventListener("raysweep:unauthorized", expired);
  }, []);

  if (!tokenStore.get() || (!me && signInMessage)) {
    return <SignInPage message={signInMessage} onSignedIn={(who) => { setSignInMessage(null); setMe(who); }} />;
  }
  // a project kept from the last visit is known to exist only once the projects have come: the
  // lists wait for them rather than show (and ask the server for) every project's meanwhile
  if (!me || (project && projects === null)) return <p class="muted">Loading…</p>;
  const known = projects ?? [];

  // compare's trials are its subject: they stay in the path
  const path = route.startsWith("#/compare") ? route : route.split("?")[0];
  const experiment = /^#\/experiments\/([\w-]+)/.exec(route);
  const trial = /^#\/trials\/(\d+)/.exec(route);
  const compare = /^#\/compare\?trials=([\d,]*)/.exec(route);
  const models = /^#\/models(?:\/([^/]+))?/.exec(route);
  const schedules = /^#\/schedules(?:\/([\w-]+))?/.exec(route);
  const webhooks = /^#\/webhooks(?:$|\?)/.exec(route);
  // the switcher scopes every list (experiments, models, schedules, webhooks) and the usage it shows
  const scope = known.some((p) => p.name === project) ? project : "";
  return (
    <>
      <header class="top">
        <a href="#/" class="brand">raysweep</a>
        <nav><a href="#/">experiments</a> <a href="#/models">models</a> <a href="#/schedules">schedules</a> <a href="#/webhooks">webhooks</a></nav>
        <label class="project-switch">project{" "}
          <select name="project" data-testid="project" value={project}
            onChange={(e) => chooseProject((e.target as HTMLSelectElement).value)}>
            <option value="">all</option>
            {known.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
          </select>
        </label>
        <span class="who" data-testid="who">
          {me.name} · {me.role}
          <button class="link" onClick={() => { tokenStore.clear(); setMe(null); setProjects(null); setSignInMessage(null); location.hash = "#/"; }}>
            sign out
          </button>
        </span>
      </header>
      <main>
        {/* keyed by the route's path: another sweep (trial, model…) is a new page, nothing of
            the last one's brushes, forms or charts kept; an error drawing it stays in it */}
        <ViewGuard key={path} view="page" label="page">
          {experiment ? <ExperimentPage id={experiment[1]} me={me} />
            : trial ? <TrialPage id={Number(trial[1])} me={me} />
            : compare ? <ComparePage ids={compare[1].split(",").filter(Boolean).map(Number)} />
            : models ? <ModelsPage name={models[1] ? decodeURIComponent(models[1]) : null} project={scope} />
            : schedules ? <SchedulesPage id={schedules[1] ?? null} me={me} project={scope} />
            : webhooks ? <WebhooksPage me={me} project={scope} projects={known} />
            : <ExperimentsPage project={scope} projects={known} />}
        </ViewGuard>
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
