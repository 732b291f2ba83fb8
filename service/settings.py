"""Settings: one ``Settings`` object, read from ``RAYSWEEP_*`` environment variables."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[1]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAYSWEEP_", extra="ignore")

    home: Path = Field(default=Path("./var"), description="State directory.")
    host: str = Field(default="127.0.0.1", description="Address the API listens on.")
    port: int = Field(default=8000, ge=1, le=65535, description="Port the API listens on.")
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
        default=REPO_ROOT / "search_spaces", description="Where named search-space files live."
    )
    controller: bool = Field(
        default=True,
        description="Run the controller loops (dispatch, reconcile) in this process. An API-only "
        "replica sets this to false; it then starts no Ray.",
    )
    max_concurrent_sweeps: int = Field(
        default=2, ge=1, description="Sweeps running at once on the sweep cluster."
    )
    controller_interval_s: float = Field(
        default=2.0, gt=0, description="Seconds between controller passes."
    )
    max_driver_restarts: int = Field(
        default=3, ge=0, description="Driver resubmissions before a sweep fails."
    )
    cancel_grace_s: float = Field(
        default=30.0,
        gt=0,
        description="Seconds a driver gets to honour cancel/pause before its Ray job is stopped.",
    )
    web_dir: Path = Field(
        default=REPO_ROOT / "web" / "dist",
        description="The built web UI (`make web`), served at `/`.",
    )
    max_body_bytes: int = Field(default=1 << 20, ge=1024, description="Largest request body.")
    max_code_bytes: int = Field(
        default=20 << 20,
        ge=1024,
        description="Largest code package upload (POST /api/v1/code); it unpacks to at most 20 "
        "times this.",
    )
    local_ray_cpus: int | None = Field(
        default=None, description="CPUs the embedded Ray head offers (default: all)."
    )

    @property
    def database_url_value(self) -> str:
        if self.database_url is not None:
            return self.database_url.get_secret_value()
        return f"sqlite:///{(self.home / 'raysweep.db').resolve()}"

    @property
    def storage_root(self) -> str:
        return self.storage_uri or str((self.home / "storage").resolve())

    @property
    def admin_token_path(self) -> Path:
        return self.home / "admin-token"


@lru_cache
def get_settings() -> Settings:
    return Settings()
