"""Where the SDK and CLI find the server and the token.

Order: explicit arguments, then ``RAYSWEEP_URL`` / ``RAYSWEEP_TOKEN``, then the config file
(``$XDG_CONFIG_HOME/raysweep/config.toml``, by default ``~/.config/raysweep/config.toml``), then
the local server's defaults: ``http://127.0.0.1:$RAYSWEEP_PORT`` (8000 when unset, as the
server's own default) and the admin token it wrote to ``$RAYSWEEP_HOME/admin-token``
(``./var/admin-token``).

A token found on its own never travels to a server it was not meant for: the config file's
goes only to the config file's ``url``, the local admin token only to a server on this machine
(a loopback address); another ``--url`` gets an explicit token or none.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_PORT = "8000"


def local_url() -> str:
    """The local server's address: the port it listens on (``RAYSWEEP_PORT``, read as the server
    reads it) on this machine's loopback, whatever address it binds (``RAYSWEEP_HOST`` may be
    0.0.0.0, which no client can dial)."""
    port = os.environ.get("RAYSWEEP_PORT", "").strip() or DEFAULT_PORT
    if not port.isdigit():
        raise ValueError(f"RAYSWEEP_PORT must be a port number, not {port!r}")
    return f"http://127.0.0.1:{int(port)}"


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "raysweep" / "config.toml"


def read_config(path: Path | None = None) -> dict[str, str]:
    path = path or config_path()
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    return {key: value for key, value in data.items() if isinstance(value, str)}


def write_config(values: dict[str, str], path: Path | None = None) -> Path:
    """Write the file readable by its owner only: it holds a secret."""
    path = path or config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{key} = {toml_string(value)}\n" for key, value in sorted(values.items())]
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.writelines(lines)
    path.chmod(0o600)
    return path


def toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def local_admin_token() -> str | None:
    path = Path(os.environ.get("RAYSWEEP_HOME", "./var")) / "admin-token"
    try:
        return path.read_text().strip() or None
    except OSError:
        return None


@dataclass(frozen=True)
class Connection:
    url: str
    token: str | None
    source: str  # where the token came from, for error messages (never the token itself)


def is_local(url: str) -> bool:
    """Whether the URL names a server on this machine (a loopback address)."""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve(url: str | None = None, token: str | None = None) -> Connection:
    file = read_config()
    resolved_url = url or os.environ.get("RAYSWEEP_URL") or file.get("url") or local_url()
    same_server = file.get("url", resolved_url).rstrip("/") == resolved_url.rstrip("/")
    for candidate, source in (
        (token, "the token argument"),
        (os.environ.get("RAYSWEEP_TOKEN"), "RAYSWEEP_TOKEN"),
        (file.get("token") if same_server else None, str(config_path())),
        (
            local_admin_token() if is_local(resolved_url) else None,
            "$RAYSWEEP_HOME/admin-token",
        ),
    ):
        if candidate:
            return Connection(resolved_url.rstrip("/"), candidate, source)
    return Connection(resolved_url.rstrip("/"), None, "nowhere")
