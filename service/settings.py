"""Settings: one ``Settings`` object, read from ``RAYSWEEP_*`` environment variables."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGE_ROOT = Path(__file__).resolve().parent


def bundled(packaged: str, checkout: str) -> Path:
    """Data the server reads: the copy an installed wheel carries inside the package
    (setup.py puts it there), else the checkout's directory."""
    inside = PACKAGE_ROOT / packaged
    return inside if inside.is_dir() else REPO_ROOT / checkout


ClusterRole = Literal["sweep", "final", "both"]
# the record of this server's own Ray when RAYSWEEP_CLUSTERS gives no cluster a role
LOCAL_CLUSTER = "local"


class ClusterConfig(BaseModel):
    """A Ray cluster raysweep submits jobs to: sweeps go to a sweep cluster, final runs and
    model deployments to a final one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    address: str | None = Field(
        default=None,
        description="Ray Jobs (dashboard) address, e.g. http://head:8265; unset: this server's "
        "own Ray (RAYSWEEP_RAY_ADDRESS, or the embedded head).",
    )
    role: ClusterRole = "both"
    max_concurrent_jobs: int = Field(default=1, ge=1, description="Final runs at once on it.")
    token: SecretStr | None = Field(default=None, description="Bearer token for its Jobs API.")
    autoscaling: bool = Field(
        default=False,
        description="The cluster grows on demand (Ray autoscaler, KubeRay): a run it cannot place "
        "yet waits up to RAYSWEEP_TRIAL_RESOURCE_WAIT_S for it to grow. On a fixed-size cluster "
        "(the default) such a sweep is refused at submit and such a run fails at once.",
    )
    projects: tuple[str, ...] = Field(
        default=(),
        description="A cluster of these projects' own: as a sweep cluster their sweeps run "
        "here and nowhere else, as a final cluster their final runs and model deployments may "
        "go here (and to no shared one), and no other project's run here. Empty (the default): "
        "shared, by every project that has no cluster of its own in that role.",
    )

    def serves(self, role: Literal["sweep", "final"]) -> bool:
        return self.role in (role, "both")

    @property
    def shared_sweep_cluster(self) -> bool:
        return self.serves("sweep") and not self.projects

    def final_for(self, project: str) -> bool:
        """Whether the project's final runs and deployments may use it: one of its own, or a
        shared one (``Settings.final_clusters_for`` prefers its own)."""
        return self.serves("final") and (not self.projects or project in self.projects)


# a project's schedules each fire sweeps or retrains on their own: without a bound, one member's
# script could queue work for every minute many times over
MAX_SCHEDULES_PER_PROJECT = 100
# Ray's own token file (``ray get-auth-token``); the embedded head makes it its owner's alone
RAY_AUTH_TOKEN_PATH = Path.home() / ".ray" / "auth_token"
# what one worker's output of one attempt keeps in its run's logs: the head and the latest lines
TRIAL_LOG_MAX_BYTES = 8 << 20


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAYSWEEP_", extra="ignore")

    home: Path = Field(default=Path("./var"), description="State directory.")
    host: str = Field(default="127.0.0.1", description="Address the API listens on.")
    port: int = Field(default=8000, ge=1, le=65535, description="Port the API listens on.")
    api_url: str | None = Field(
        default=None,
        pattern=r"^https?://[^\s]+$",
        description="Where sweep drivers and final runs (Ray jobs, on every Ray node) reach this "
        "API to store what they report: they hold no database credentials. Default: "
        "http://HOST:PORT (127.0.0.1 when HOST is every address), right for Ray on this host.",
    )
    database_url: SecretStr | None = Field(
        default=None, description="SQLAlchemy URL; default: SQLite file $RAYSWEEP_HOME/raysweep.db."
    )
    ray_address: str | None = Field(
        default=None,
        description="Ray Jobs address (http://head:8265) of an existing cluster; unset = the "
        "server starts and owns a local Ray head.",
    )
    storage_uri: str | None = Field(
        default=None,
        description="Checkpoint and Tune state root (local path or pyarrow URI); "
        "default: $RAYSWEEP_HOME/storage.",
    )
    search_spaces_dir: Path = Field(
        default=bundled("search_spaces", "search_spaces"),
        description="Where named search-space files live.",
    )
    controller: bool = Field(
        default=True,
        description="Run the controller loops (dispatch, reconcile) in this process. An API-only "
        "replica sets this to false; it then starts no Ray.",
    )
    max_concurrent_sweeps: int = Field(
        default=2, ge=1, description="Sweeps running at once on each sweep cluster."
    )
    clusters: list[ClusterConfig] = Field(
        default_factory=list,
        description='Cluster records as JSON, e.g. [{"name": "big", "address": '
        '"http://big-head:8265", "role": "final", "max_concurrent_jobs": 4}]; '
        "default: one cluster named local (this server's Ray) with both roles.",
    )
    misfire_grace_s: float = Field(
        default=60.0,
        gt=0,
        description="A schedule's due time older than this when a controller sees it was missed "
        "(no server ran): the schedule's misfire policy applies.",
    )
    serve_port: int = Field(
        default=8100, ge=1, le=65535, description="HTTP port of Ray Serve on the final cluster."
    )
    api_statement_timeout_s: float = Field(
        default=5.0,
        gt=0,
        le=300,
        description="No database statement of an API request runs longer: it is cut off and "
        "the request answered 503 (PostgreSQL statement_timeout; SQLite, a progress handler).",
    )
    api_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="Processes answering API requests on the one port. Past 1, `serve` starts "
        "that many less one API-only processes beside its own (which also runs the controller); "
        "they stop with it. One process uses about one core, whatever the threads.",
    )
    api_threads: int = Field(
        default=4,
        ge=1,
        le=64,
        description="Threads serving API requests at once (the others wait their turn): a few "
        "threads contend less for the interpreter and the database than many do.",
    )
    token_cache_s: float = Field(
        default=1.0,
        ge=0,
        le=60,
        description="A token the database admitted is admitted again without a lookup for this "
        "many seconds: a revoked token is refused at most this long after `token revoke`. 0 "
        "looks every request's token up.",
    )
    controller_interval_s: float = Field(
        default=2.0, gt=0, description="Seconds between controller passes."
    )
    webhook_interval_s: float = Field(
        default=1.0, gt=0, description="Seconds between passes of the webhook sender's thread."
    )
    webhook_timeout_s: float = Field(
        default=5.0,
        gt=0,
        le=60,
        description="How long one webhook delivery attempt may take (connect, send, answer).",
    )
    webhook_retry_s: float = Field(
        default=10.0,
        gt=0,
        description="Wait before a failed delivery's first retry; it doubles each retry, to at "
        "most an hour.",
    )
    webhook_max_attempts: int = Field(
        default=8, ge=1, le=50, description="Attempts of one delivery before it is marked failed."
    )
    webhook_delivery_retention_days: int = Field(
        default=30,
        ge=1,
        le=3650,
        description="Days a delivered or failed delivery stays in its webhook's delivery log "
        "after its last attempt; the webhook sender's thread then deletes it (pending ones, "
        "however old, are kept).",
    )
    max_driver_restarts: int = Field(
        default=3, ge=0, description="Driver resubmissions before a sweep fails."
    )
    trial_resource_wait_s: float = Field(
        default=600.0,
        ge=0,
        description="On a cluster marked autoscaling: how long a trial or final run waits for "
        "the cluster to grow to its worker group before it fails with what it asked for and "
        "what the cluster has. Runs that fit the cluster wait their turn, without limit.",
    )
    train_poll_interval_s: float = Field(
        default=0.5,
        gt=0,
        le=2.0,
        description="Seconds between a Train run's polls of its workers (Ray Train's "
        "RAY_TRAIN_HEALTH_CHECK_INTERVAL_S, 2 s by default). A worker's report waits for the "
        "next poll, so an epoch shorter than this takes this long.",
    )
    cancel_grace_s: float = Field(
        default=30.0,
        gt=0,
        description="Seconds a driver gets to honour cancel/pause before its Ray job is stopped.",
    )
    web_dir: Path = Field(
        default=bundled("web", "web/dist"),
        description="The built web UI (`make web`), served at `/`.",
    )
    max_schedules_per_project: int = Field(
        default=MAX_SCHEDULES_PER_PROJECT,
        ge=1,
        description="Most schedules one project may hold (each fires sweeps or retrains on its "
        "own): creating one more is a 409 naming the limit.",
    )
    trial_log_max_bytes: int = Field(
        default=TRIAL_LOG_MAX_BYTES,
        ge=4096,
        le=1 << 30,
        description="What each worker of a trial or final run keeps of its output per attempt "
        "(its first quarter and its latest lines; the lines between are dropped and counted).",
    )
    warm_groups: bool = Field(
        default=True,
        description="Run a sweep's trials one after another on Ray Train worker groups that "
        "stay up (warm groups), instead of starting a group per trial. Off, every trial is a "
        "Train run of its own: for code that cannot share a process with the trials before it "
        "(see the README). Sweeps of elastic workers or Ray Data datasets always start a group "
        "per trial.",
    )
    warm_group_trials: int = Field(
        default=20,
        ge=1,
        description="Trials a warm worker group runs before it is replaced by a new one.",
    )
    warm_group_max_rss_mb: int = Field(
        default=4096,
        ge=0,
        description="A warm worker group whose worker uses more memory than this after a trial "
        "is replaced by a new one (0: no bound).",
    )
    warm_group_idle_s: float = Field(
        default=30.0,
        gt=0,
        description="A warm worker group without a trial for this long gives its resources "
        "back (at once when a run of another sweep or a final run waits for them).",
    )
    views_at_once: int = Field(
        default=2,
        ge=1,
        le=64,
        description="Expensive views (curves, history, rungs, configs, importance, Pareto) one "
        "API process computes at once; more wait for a slot (see RAYSWEEP_VIEW_WAIT_S).",
    )
    view_wait_s: float = Field(
        default=30.0,
        gt=0,
        le=600,
        description="How long a view waits for a slot before it is answered 503 with Retry-After.",
    )
    max_body_bytes: int = Field(default=1 << 20, ge=1024, description="Largest request body.")
    max_code_bytes: int = Field(
        default=20 << 20,
        ge=1024,
        description="Largest code package upload (POST /api/v1/code); an archive may unpack to "
        "at most 20 times its own size.",
    )
    local_ray_cpus: int | None = Field(
        default=None, ge=1, description="CPUs the embedded Ray head offers (default: all)."
    )
    secrets_dir: Path | None = Field(
        default=None,
        description="A directory of secret files named like the variables in lower case (e.g. "
        "/run/secrets/raysweep_database_url, raysweep_clusters), read where the variable is not "
        "set. Only the server reads it: Ray nodes need none of these files.",
    )

    @model_validator(mode="after")
    def _cluster_roles(self) -> Settings:
        configured = self.clusters or []
        if len({c.name for c in configured}) != len(configured):
            raise ValueError("cluster names must be unique")
        if sum(c.shared_sweep_cluster for c in configured) > 1:
            raise ValueError(
                "exactly one cluster may have the sweep role without projects (the shared one); "
                "give the others the projects whose sweeps they run"
            )
        bound = [p for c in configured if c.serves("sweep") for p in c.projects]
        if twice := sorted({p for p in bound if bound.count(p) > 1}):
            raise ValueError(f"a project has one sweep cluster: {', '.join(twice)} named twice")
        missing = self._roles_missing(configured)
        if missing and any(c.name == LOCAL_CLUSTER for c in configured):
            raise ValueError(
                f"no cluster has the {' or '.join(missing)} role: it would go to this server's "
                f"own Ray as the implicit record {LOCAL_CLUSTER!r}, but a record of that name is "
                f"configured; give one record the role {missing[0]} (or both)"
            )
        return self

    @staticmethod
    def _roles_missing(records: list[ClusterConfig]) -> list[Literal["sweep", "final"]]:
        """The roles no record has (for sweeps: no shared sweep cluster)."""
        missing: list[Literal["sweep", "final"]] = []
        if not any(c.shared_sweep_cluster for c in records):
            missing.append("sweep")
        if not any(c.serves("final") and not c.projects for c in records):
            missing.append("final")
        return missing

    @property
    def cluster_records(self) -> list[ClusterConfig]:
        """The configured records, with this server's own Ray as the implicit record ``local``
        for the roles none of them has (all roles when none is configured): naming only a big
        final cluster keeps sweeps here."""
        configured = list(self.clusters or [])
        missing = self._roles_missing(configured)
        if not missing:
            return configured
        role: ClusterRole = missing[0] if len(missing) == 1 else "both"
        return [ClusterConfig(name=LOCAL_CLUSTER, role=role), *configured]

    @property
    def sweep_cluster(self) -> ClusterConfig:
        """The shared sweep cluster: every project's that no other sweep cluster names."""
        return next(c for c in self.cluster_records if c.shared_sweep_cluster)

    @property
    def sweep_clusters(self) -> list[ClusterConfig]:
        return [c for c in self.cluster_records if c.serves("sweep")]

    def sweep_cluster_for(self, project: str) -> ClusterConfig:
        """Where the project's sweeps run: its own sweep cluster, else the shared one."""
        own = [c for c in self.cluster_records if c.serves("sweep") and project in c.projects]
        return own[0] if own else self.sweep_cluster

    def fixed_sweep_cluster(self, project: str) -> str | None:
        """The name of the project's sweep cluster when it does not autoscale: a trial that
        cannot be placed on it now never will be."""
        sweep = self.sweep_cluster_for(project)
        return None if sweep.autoscaling else sweep.name

    @property
    def fixed_final_clusters(self) -> list[str]:
        """The final clusters that do not autoscale: a final run they cannot hold never runs."""
        return [c.name for c in self.cluster_records if c.serves("final") and not c.autoscaling]

    @property
    def final_cluster_names(self) -> list[str]:
        """Every final cluster, shared and projects' own (where deployments are kept)."""
        return [c.name for c in self.cluster_records if c.serves("final")]

    def final_clusters_for(self, project: str) -> list[str]:
        """The final clusters the project's final runs and deployments may use, the default
        first: its own final clusters when it has some, else the shared ones."""
        records = [c for c in self.cluster_records if c.final_for(project)]
        own = [c.name for c in records if c.projects]
        return own or [c.name for c in records]

    @property
    def database_url_value(self) -> str:
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{(self.home / 'raysweep.db').resolve()}"

    @property
    def api_url_for_jobs(self) -> str:
        if self.api_url is not None:
            return self.api_url.rstrip("/")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}"

    @property
    def storage_root(self) -> str:
        return self.storage_uri or str((self.home / "storage").resolve())

    @property
    def admin_token_path(self) -> Path:
        return self.home / "admin-token"


def settings_from_environment() -> Settings:
    """Settings from ``RAYSWEEP_*`` variables and, when ``RAYSWEEP_SECRETS_DIR`` names one, the
    secret files there."""
    secrets_dir = os.environ.get("RAYSWEEP_SECRETS_DIR")
    # pydantic-settings' init-only option, invisible to the model's typed fields
    return Settings(_secrets_dir=secrets_dir) if secrets_dir else Settings()  # type: ignore[call-arg]


@lru_cache
def get_settings() -> Settings:
    return settings_from_environment()
