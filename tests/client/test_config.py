"""Where the SDK and CLI find their server and token, and that a token found on its own never
travels to another server (a `--url` elsewhere got the local admin token)."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import ANY

import pytest

from raysweep.config import Connection, resolve, write_config


@pytest.fixture
def local_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "admin-token").write_text("local-admin\n")
    monkeypatch.setenv("RAYSWEEP_HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("RAYSWEEP_URL", raising=False)
    monkeypatch.delenv("RAYSWEEP_TOKEN", raising=False)
    return home


def test_the_local_admin_token_goes_to_a_server_on_this_machine_only(local_home: Path) -> None:
    for url in (None, "http://127.0.0.1:8000", "http://localhost:9000", "http://[::1]:8000"):
        assert resolve(url).token == "local-admin", url
    for url in ("http://api.example.com", "http://10.0.0.5:8000", "https://127.0.0.1.evil.io"):
        connection = resolve(url)
        assert connection.token is None and connection.source == "nowhere", url
    # an explicit token goes wherever it is sent
    assert resolve("http://api.example.com", "mine").token == "mine"


def test_the_config_files_token_goes_to_the_config_files_server_only(
    local_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config({"url": "https://raysweep.team.net", "token": "team"})
    assert resolve().token == "team" and resolve().url == "https://raysweep.team.net"
    assert resolve("https://raysweep.team.net/").token == "team"
    assert resolve("https://elsewhere.net").token is None
    monkeypatch.setenv("RAYSWEEP_TOKEN", "from-env")
    assert resolve("https://elsewhere.net").token == "from-env"


def test_the_local_server_is_found_on_the_port_it_listens_on(
    local_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert resolve().url == "http://127.0.0.1:8000"
    # the server listens on RAYSWEEP_PORT: the client dials it there, with the local token
    monkeypatch.setenv("RAYSWEEP_PORT", "8123")
    assert resolve() == Connection("http://127.0.0.1:8123", "local-admin", ANY)
    # a bound address is not one to dial: the local server is reached on loopback
    monkeypatch.setenv("RAYSWEEP_HOST", "0.0.0.0")
    assert resolve().url == "http://127.0.0.1:8123"
    monkeypatch.setenv("RAYSWEEP_URL", "http://127.0.0.1:9000")
    assert resolve().url == "http://127.0.0.1:9000"  # an explicit URL wins
    monkeypatch.delenv("RAYSWEEP_URL")
    monkeypatch.setenv("RAYSWEEP_PORT", "eighty")
    with pytest.raises(ValueError, match="RAYSWEEP_PORT must be a port number, not 'eighty'"):
        resolve()
