"""README.md's step-by-step shell blocks, run in the order the README gives them, as a reader at
`make run`'s server would: the REST sweep's lifecycle with curl, uploading code, webhooks, the
token commands with the project they need, and creating a project. One bash script, `set -e`:
the first command that fails (curl with `--fail-with-body`: a 4xx is a failure too) fails the
test, naming the command.

Only what stands for the reader's machine is replaced: the server's address and admin token file
(`make run` serves on 127.0.0.1:8000 from var/), the sweep id the first POST answers with (the
reader copies it from the answer into `<id>`), `DIR` (the README's example package) and
`.venv/bin/python` (the suite's Python). The CLI finds the local server as the README says: by
`RAYSWEEP_PORT` and the admin token in `RAYSWEEP_HOME`.

The cheat-sheet blocks (`raysweep …` one-liners for sweeps in every state, and `make run`/`make
test`) are not a sequence: tests/test_readme_commands.py parses each against the CLI, and
tests/client/test_cli.py runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker

from raysweep.webhooks import SIGNATURE_HEADER, verify_signature
from service.controller.webhooks import WebhookSender
from service.settings import REPO_ROOT, Settings
from tests.conftest import ServerProcess
from tests.test_readme_commands import SHELL_BLOCK
from tests.webhook_receiver import Receiver

README = REPO_ROOT / "README.md"
# a block whose commands all start with one of these is a step-by-step block this test runs
RUN = ("curl", "TOKEN=", ".venv/bin/python -m service token", "raysweep code upload",
       "raysweep webhooks", "# a token's projects")  # fmt: skip
SUBMIT = re.compile(r"curl -s -X POST http://127\.0\.0\.1:8000/api/v1/experiments \\$")


def step_blocks() -> list[tuple[int, str]]:
    """The README's step-by-step shell blocks, in order: (first line, text)."""
    text = README.read_text()
    blocks = []
    for block in SHELL_BLOCK.finditer(text):
        lines = [line for line in block.group(1).splitlines() if line.strip()]
        starts = [line for line in lines if not line.startswith((" ", "#"))]
        if all(line.startswith(RUN) for line in starts):
            blocks.append((text.count("\n", 0, block.start(1)) + 1, block.group(1)))
    return blocks


def as_script(blocks: list[tuple[int, str]], server: ServerProcess, hook_url: str) -> str:
    """The blocks as one bash script, with the reader's values in place (``hook_url`` for the
    README's webhook receiver, ``https://ci.example/hook``)."""
    script = [
        "set -e -o pipefail",
        """trap 'echo "README command failed (exit $?): $BASH_COMMAND" >&2' ERR""",
    ]
    for first_line, text in blocks:
        script.append(f": README.md line {first_line}")
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if SUBMIT.search(line):
                # the reader reads the new sweep's id in the answer and types it for <id>
                line = "ANSWER=$(" + line
                end = next(i for i in range(index, len(lines)) if lines[i].endswith("}'"))
                read_id = "import json, sys; print(json.load(sys.stdin)['id'])"
                lines[end] += f')\necho "$ANSWER"\nSWEEP_ID=$({sys.executable} -c "{read_id}"'
                lines[end] += ' <<< "$ANSWER")'
            line = line.replace("http://127.0.0.1:8000", server.url)
            line = line.replace("var/admin-token", str(server.home / "admin-token"))
            line = line.replace("curl -s ", "curl -sS --fail-with-body ")
            line = line.replace("<id>", "$SWEEP_ID")
            line = re.sub(r"^\.venv/bin/python ", f"{sys.executable} ", line)
            line = line.replace("https://ci.example/hook", hook_url)
            line = re.sub(r"\bDIR\b|my_training_code/", "examples/user_code", line)
            lines[index] = line
        script += lines
    return "\n".join(script) + "\n"


@contextmanager
def sending_webhooks(db: sessionmaker[Session], home: Path) -> Iterator[None]:
    """The controller's webhook sender, passing every 0.2 s (the API-only server runs no
    controller, whose other loops would start Ray): ``webhooks test`` waits for its delivery."""
    sender, stop = WebhookSender(db, Settings(home=home)), threading.Event()

    def send() -> None:
        while not stop.wait(0.2):
            sender.run_once()

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)
        sender.close()


def test_the_readmes_step_by_step_blocks_run_in_order(
    server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    blocks = step_blocks()
    assert len(blocks) >= 4, blocks  # the REST sweep, code upload, webhooks, tokens, projects
    receiver = Receiver()
    script = as_script(blocks, server, receiver.url)
    assert "$SWEEP_ID" in script and "token create" in script and "/api/v1/projects" in script
    env = {
        **server.env,
        "RAYSWEEP_PORT": str(server.port),  # the CLI's local server (README: Command line)
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    for name in ("RAYSWEEP_URL", "RAYSWEEP_TOKEN", "RAYSWEEP_PROJECT"):
        env.pop(name, None)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    with receiver, sending_webhooks(db, server.home):
        run = subprocess.run(
            ["bash", "-c", script],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert run.returncode == 0, f"{run.stderr[-4000:]}\n--- stdout:\n{run.stdout[-4000:]}"
    # each block did what it says: the sweep was deleted, the projects made, ci-bot granted
    # and revoked
    with server.client() as client:
        assert client.get("/api/v1/experiments").json()["total"] == 0
        names = {p["name"] for p in client.get("/api/v1/projects").json()}
    assert {"nlp", "vision"} <= names, names
    # the webhook's test delivery landed, signed with the secret `webhooks add` printed once
    secret = re.search(r"whsec_[\w-]+", run.stdout)
    assert secret is not None, run.stdout[-2000:]
    [delivery] = receiver.received
    assert verify_signature(secret.group(), delivery.body, delivery.headers[SIGNATURE_HEADER])
    assert delivery.document["event"] == "webhook.test", delivery.document
    listed = [json.loads(line) for line in server.manage("token", "list").stdout.splitlines()]
    [bot] = [token for token in listed if token["name"] == "ci-bot"]
    assert bot["revoked_at"] is not None and bot["projects"] == {
        "default": "viewer",
        "nlp": "member",
    }
