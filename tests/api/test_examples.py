"""The example specs in examples/ (which the README and the CLI help point at) are accepted as
they are, through a real server; each user-code one after uploading the directory of its name
(examples/user_code is trainers/README.md's complete example, examples/fashion_mnist the port of
Ray Train's Fashion-MNIST example)."""

from __future__ import annotations

from pathlib import Path

import pytest

from raysweep.client import pack_directory
from raysweep.spec_reader import read_mapping
from service.settings import REPO_ROOT
from tests.conftest import ServerProcess
from tests.packages import readme_example

EXAMPLES = REPO_ROOT / "examples"
SPECS = sorted(EXAMPLES.glob("*.yaml"))
BUNDLED = [p for p in SPECS if "code" not in read_mapping(p)]
CODE = [p for p in SPECS if "code" in read_mapping(p)]


def test_there_is_one_example_per_bundled_trainer() -> None:
    trainers = {read_mapping(path)["trainer"] for path in BUNDLED}
    assert trainers == {"digits_mlp", "digits_cnn", "tiny_lm", "diabetes_regression"}


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_bundled_trainer_example_is_accepted(server: ServerProcess, path: Path) -> None:
    with server.client() as client:
        submitted = client.post("/api/v1/experiments", json=read_mapping(path))
    assert submitted.status_code == 201, submitted.text


def test_the_user_code_example_is_the_documented_one() -> None:
    assert (EXAMPLES / "user_code" / "train.py").read_text() == readme_example()
    assert [p.stem for p in CODE] == ["fashion_mnist", "user_code"]


@pytest.mark.parametrize("path", CODE, ids=lambda p: p.stem)
def test_a_user_code_example_is_accepted_after_its_upload(
    server: ServerProcess, path: Path
) -> None:
    spec = read_mapping(path)
    with server.client() as client:
        uploaded = client.post(
            "/api/v1/code",
            content=pack_directory(EXAMPLES / path.stem),
            headers={"Content-Type": "application/zip"},
        )
        assert uploaded.status_code == 201, uploaded.text
        spec["code"]["package"] = uploaded.json()["sha256"]
        submitted = client.post("/api/v1/experiments", json=spec)
    assert submitted.status_code == 201, submitted.text
