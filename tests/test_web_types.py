"""The web UI's API types are generated, and the committed ones are current: the OpenAPI document
(web/openapi.json, devkit.openapi_document) and the TypeScript made from it by openapi-typescript
(web/src/api-schema.ts, web/scripts/api-schema.mjs) are made again here and must be the committed
files byte for byte. A schema changed without `make web` (which writes both) fails here, not in a
browser reading a field the API no longer sends."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from devkit.openapi_document import document_text
from service.settings import REPO_ROOT

WEB = REPO_ROOT / "web"
DOCUMENT = WEB / "openapi.json"
GENERATED = WEB / "src" / "api-schema.ts"
STALE = "stale: `make web` writes web/openapi.json and web/src/api-schema.ts again; commit both"


@pytest.fixture(scope="module")
def document() -> str:
    return document_text()


def test_the_committed_document_is_the_apis(document: str) -> None:
    assert DOCUMENT.read_text(encoding="utf-8") == document, STALE


def test_the_committed_typescript_is_made_from_the_document(document: str, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules" / "openapi-typescript").is_dir():
        pytest.skip("openapi-typescript is not installed: `make web` installs it (make test does)")
    source, made = tmp_path / "openapi.json", tmp_path / "api-schema.ts"
    source.write_text(document, encoding="utf-8")
    command = [node, "scripts/api-schema.mjs", str(source), str(made)]
    subprocess.run(command, cwd=WEB, check=True, timeout=120)
    assert GENERATED.read_text(encoding="utf-8") == made.read_text(encoding="utf-8"), STALE


def test_every_page_differs_from_the_others_only_in_its_items(document: str) -> None:
    """The UI's ``Page<T>`` (web/src/types.ts) is one page schema with its items swapped."""
    schemas = json.loads(document)["components"]["schemas"]
    pages = {name: schema for name, schema in schemas.items() if name.startswith("Page_")}
    assert "Page_ExperimentRead_" in pages and len(pages) > 5, sorted(pages)

    def rest(schema: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        properties = {key: value for key, value in schema["properties"].items() if key != "items"}
        return properties, sorted(schema["required"])

    model = rest(pages["Page_ExperimentRead_"])
    assert {name: rest(schema) for name, schema in pages.items()} == dict.fromkeys(pages, model)
