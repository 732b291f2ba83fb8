"""The API's OpenAPI document as the web UI's types are generated from it (web/openapi.json,
then web/src/api-schema.ts by openapi-typescript; the Makefile's ``web`` rule runs both). The
app is built without a server, on an empty in-memory database: the document depends on the
code only, so it is the same file wherever it is written (tests/test_web_types.py checks that
the committed one is current).

Example::

    python -m devkit.openapi_document web/openapi.json
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from service.api.app import create_app
from service.db.session import create_db_engine, session_factory
from service.settings import Settings


def openapi_document() -> dict[str, Any]:
    """The document the app serves at ``/openapi.json``."""
    with tempfile.TemporaryDirectory() as home:
        db = session_factory(create_db_engine("sqlite://"))
        app = create_app(Settings(home=Path(home)), db, {})
        document: dict[str, Any] = app.openapi()
    return document


def document_text() -> str:
    """The document as it is committed: indented, in the app's order, a newline at the end."""
    return json.dumps(openapi_document(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> None:
    """Writes the document to the path given (whole or not at all), or to stdout."""
    text = document_text()
    if not argv:
        sys.stdout.write(text)
        return
    target = Path(argv[0])
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(target)


if __name__ == "__main__":
    main(sys.argv[1:])
