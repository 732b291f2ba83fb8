"""RAYSWEEP_API_WORKERS: API-only processes beside the server's own, each on a socket of its own
on the one port, with no controller, and gone with the server however it ends."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import httpx

from devkit.harness import ServerProcess


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # it ended meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def established(pid: int) -> list[tuple[int, int]]:
    """(local port, remote port) of each established TCP connection process ``pid`` holds."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    held = []
    for line in Path(f"/proc/{pid}/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "01" and fields[9] in inodes:  # 01: ESTABLISHED
            held.append((int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)))
    return held


def connections_from(pid: int, port: int, peers: set[int]) -> int:
    """The connections process ``pid`` holds on local port ``port`` from the ports ``peers``
    (a stray one, say a readiness probe's under load, is not counted)."""
    return sum(local == port and remote in peers for local, remote in established(pid))


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's exit is reaped by whoever adopted it, maybe never)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until_gone(pids: list[int], timeout_s: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout_s
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in alive if running(pid)]
    return alive


def test_api_workers_share_the_port_and_end_with_the_server(db_url: str, tmp_path: Path) -> None:
    env = {"RAYSWEEP_CONTROLLER": "false", "RAYSWEEP_API_WORKERS": "2"}
    server = ServerProcess(tmp_path / "home", db_url, env).start()
    try:
        server.wait_for_api_workers(2)
        assert server.process is not None
        workers = children(server.process.pid)
        assert len(workers) == 1
        command = Path(f"/proc/{workers[0]}/cmdline").read_bytes().split(b"\0")
        assert b"serve-api" in command
        assert b"RAYSWEEP_CONTROLLER=false" in Path(f"/proc/{workers[0]}/environ").read_bytes()
        # 30 clients connect at once and stay connected: the kernel spreads the connections
        # over the two sockets (all on one: 2 * (1/2)^30)
        before = {local for local, remote in established(os.getpid()) if remote == server.port}
        clients = [server.client() for _ in range(30)]
        answers: list[int] = []
        ready = threading.Barrier(len(clients))

        def ask(client: httpx.Client) -> None:
            ready.wait()
            answers.append(client.get("/api/v1/experiments").status_code)

        threads = [threading.Thread(target=ask, args=(client,)) for client in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # the 30 clients' own ports, as this process holds them
        peers = {local for local, remote in established(os.getpid()) if remote == server.port}
        peers -= before
        assert len(peers) == 30
        held = {
            pid: connections_from(pid, server.port, peers) for pid in [server.process.pid, *workers]
        }
        for client in clients:
            client.close()
        assert answers == [200] * 30
        assert all(held.values()), held
        assert sum(held.values()) == 30
        # however the server ends, even by SIGKILL (no code of its runs), its workers end too
        server.kill()
        assert wait_until_gone(workers) == []
    finally:
        server.stop()
