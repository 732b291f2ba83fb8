"""Every command line README.md shows in a shell block is one the code accepts: each
`raysweep …` parses with the CLI's own parser, each `python -m service …` with the service's,
each `curl` names a route (and method) the API has, with a JSON body that parses (a sweep's
spec validates), and each `make` target exists. Placeholders (`ID`, `<id>`, `NAME`, `DIR`) stand
for values a reader types. A new kind of command in a block fails here until this test knows it.

This checks what the docs say against the code, without a server; the examples test
(tests/api/test_examples.py) submits the example specs, and the Ray tests run the workflows."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from raysweep.cli_parser import parser as cli_parser
from raysweep.spec import ExperimentSpec
from service.__main__ import parse_args as service_parse_args
from service.api.app import create_app
from service.db.session import create_db_engine, session_factory
from service.settings import Settings

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md"]  # docs/deploy.md's podman and pip lines: `make deploy-test` runs them
# what a reader types in place of each placeholder
PLACEHOLDERS = {
    "ID": "3f9c2a1b7d4e",
    "FINAL_RUN_ID": "7",
    "NAME": "digits",
    "DIR": "my_training_code/",
    "rsw_...": "rsw_0123456789abcdef",
    "<id>": "3f9c2a1b7d4e",
}
SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Command:
    doc: str
    line: int
    words: list[str]

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: {shlex.join(self.words)}"


def commands_in(path: Path) -> list[Command]:
    """The commands of the file's shell blocks: continuation lines joined (and a quoted
    argument's lines), comments dropped, `;` and `&&` separating commands, variable
    assignments left out."""
    text = path.read_text()
    found = []
    for block in SHELL_BLOCK.finditer(text):
        line_number = text.count("\n", 0, block.start(1)) + 1
        pending, starts_at = "", line_number
        for number, line in enumerate(block.group(1).splitlines(), line_number):
            pending, starts_at = (pending + "\n" + line, starts_at) if pending else (line, number)
            if pending.endswith("\\"):
                pending = pending[:-1]
                continue
            try:
                words = split_words(pending)
            except ValueError:  # a quote still open: the argument goes on on the next line
                continue
            pending = ""
            found += [
                Command(path.name, starts_at, [PLACEHOLDERS.get(w, w) for w in command])
                for command in words
                if not re.fullmatch(r"[A-Z_]+=.*", command[0])
            ]
    return found


def split_words(line: str) -> list[list[str]]:
    """A shell line's commands, as words."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&")
    lexer.whitespace_split, lexer.commenters = True, "#"
    commands: list[list[str]] = [[]]
    for word in lexer:
        if word in {";", "&&"}:
            commands.append([])
        else:
            commands[-1].append(word)
    return [words for words in commands if words]


COMMANDS = [command for doc in DOCS for command in commands_in(doc)]


def by_head(*heads: str) -> list[Command]:
    return [c for c in COMMANDS if c.words[0] in heads]


def test_the_docs_show_only_commands_this_test_checks() -> None:
    known = {"raysweep", "curl", "make", ".venv/bin/python", "python"}
    assert COMMANDS, "no shell block found"
    assert [str(c) for c in COMMANDS if c.words[0] not in known] == []


@pytest.mark.parametrize("command", by_head("raysweep"), ids=str)
def test_each_raysweep_command_parses(command: Command) -> None:
    try:
        cli_parser().parse_args(command.words[1:])
    except SystemExit as exited:
        pytest.fail(f"{command}: the CLI refuses it (exit {exited.code})")


@pytest.mark.parametrize("command", by_head(".venv/bin/python", "python"), ids=str)
def test_each_service_command_parses(command: Command) -> None:
    assert command.words[1:3] == ["-m", "service"], command
    try:
        service_parse_args(command.words[3:])
    except SystemExit as exited:
        pytest.fail(f"{command}: `python -m service` refuses it (exit {exited.code})")


@pytest.mark.parametrize("command", by_head("make"), ids=str)
def test_each_make_target_exists(command: Command) -> None:
    makefile = (REPO / "Makefile").read_text()
    for target in command.words[1:]:
        assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE), command


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: str | None


def request_of(command: Command) -> Request:
    """What a `curl` line sends: its method (-X, else POST with -d, else GET), the URL's path
    and its -d body."""
    method, body, url = None, None, None
    words = iter(command.words[1:])
    for word in words:
        if word == "-X":
            method = next(words)
        elif word == "-d":
            body = next(words)
        elif word == "-H":
            next(words)
        elif word.startswith("http"):
            url = word
    assert url is not None, command
    path = re.sub(r"^https?://[^/]+", "", url).split("?")[0]
    return Request(method or ("POST" if body is not None else "GET"), path, body)


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[re.Pattern[str], set[str]]]:
    home = tmp_path_factory.mktemp("home")
    db = session_factory(create_db_engine(f"sqlite:///{home / 'unused.db'}"))
    app = create_app(Settings(home=home), db, {})  # its OpenAPI document reads no row
    return [
        (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), set(operations))
        for path, operations in app.openapi()["paths"].items()
    ]


@pytest.mark.parametrize("command", by_head("curl"), ids=str)
def test_each_curl_names_a_route_the_api_has_with_a_body_that_parses(
    command: Command, routes: list[tuple[re.Pattern[str], set[str]]]
) -> None:
    request = request_of(command)
    methods = set().union(*(ops for pattern, ops in routes if pattern.match(request.path)))
    assert request.method.lower() in methods, f"{command}: no {request.method} {request.path}"
    if request.body is not None:
        body = json.loads(request.body)
        if (request.method, request.path) == ("POST", "/api/v1/experiments"):
            ExperimentSpec.model_validate(body)
