"""Debian's Chromium driven by Playwright: no browser download, flags for this closed network."""

from __future__ import annotations

from service.settings import REPO_ROOT

CHROMIUM = "/usr/bin/chromium"
WEB_INDEX = REPO_ROOT / "web" / "dist" / "index.html"
CHROMIUM_ARGS = [
    "--no-sandbox",  # root in a container has no user namespace for Chromium's sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # the machine's closed network refuses Chromium's background connections
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
