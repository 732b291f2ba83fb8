"""The web UI: the built single-page app at `/` and its hashed assets. It holds no secrets (the
token stays in the browser) and every call it makes goes through the token-checked API."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles


def mount(app: FastAPI, web_dir: Path) -> None:
    index = web_dir / "index.html"

    @app.get("/", include_in_schema=False)
    def ui() -> Response:
        if not index.is_file():
            return PlainTextResponse(
                f"The web UI is not built ({index} is missing): run `make web`.", status_code=503
            )
        # index.html names the hashed assets of the current build: never serve a stale one
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    # check_dir=False: a UI built after the server started is served without a restart
    app.mount("/assets", StaticFiles(directory=web_dir / "assets", check_dir=False), name="assets")
