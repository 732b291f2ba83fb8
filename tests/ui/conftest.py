"""The browser tests share one headless Chromium, a signed-in page helper, seeded sweeps and
chart helpers (on SQLite alone, as tests/conftest.py runs every test of this directory)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect, sync_playwright
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from devkit.harness import CHROMIUM, CHROMIUM_ARGS, WEB_INDEX
from raysweep.lifecycle import ExperimentState
from service.usecases.clusters import shared_final_clusters
from tests.conftest import ServerProcess

# how long an expectation waits to come true (Playwright's default: 5 s). A page that is right
# passes as soon as it is; on CI's loaded 2 cores the server's threads and the page's next poll
# once took over 5 s, and a wrong page still fails, only later
expect.set_options(timeout=15_000)
LOCAL_ONLY = shared_final_clusters(["local"])


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not WEB_INDEX.is_file():
        pytest.fail(f"{WEB_INDEX} is missing: `make web` builds the UI (`make test` does it first)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: ServerProcess) -> Iterator[Page]:
    """A 1400x1000 page on the test's server; the test fails if a script error escaped."""
    context = browser.new_context(base_url=server.url, viewport={"width": 1400, "height": 1000})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def sign_in(page: Page, token: str) -> None:
    page.goto("/")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    expect(page.get_by_test_id("who")).to_be_visible()


def open_tab(page: Page, tab: str) -> None:
    """Choose one of a sweep page's tabs (overview, trials, analysis, timeline, driver-log,
    final-runs): only the chosen one is drawn."""
    page.click(f"[data-testid=experiment-tabs] button[data-tab={tab}]")
    expect(page.get_by_test_id("tab-panel")).to_have_attribute("data-tab", tab)


@dataclass
class Seeded:
    running: str
    finished: str


@pytest.fixture
def seeded(db: sessionmaker[Session]) -> Seeded:
    running = seed_sweep(db, trials=24, max_t=9, name="live-sweep", running=2)
    finished = seed_sweep(
        db, trials=5, max_t=3, name="done-sweep", running=0, state=ExperimentState.completed
    )
    return Seeded(running=running, finished=finished)


def matches(total: int) -> str:
    """The trial table's count of the trials its filter keeps."""
    return "1 trial matches" if total == 1 else f"{total} trials match"


def box_of(element: Locator, timeout_s: float = 10) -> FloatRect:
    """Its bounding box once it is drawn: a live chart is drawn again (new trials, new states)
    at any moment, and between the old plot's removal and the new one's there is no box."""
    deadline = time.monotonic() + timeout_s
    while (box := element.bounding_box()) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert box is not None, f"{element} was not drawn within {timeout_s} s"
    return box


def canvas_ink(page: Page, selector: str) -> int:
    """Pixels of the chart's canvas that are not transparent: the curves were really drawn.
    A live chart is drawn again at any moment and has no canvas in between (CI once looked
    then), so this waits for the canvas as a locator does rather than looking once."""
    return page.locator(f"{selector} canvas").first.evaluate(
        # counted after the next frame: uPlot draws a new canvas in a microtask after creating it
        """canvas => new Promise(resolve => requestAnimationFrame(() => {
            const context = canvas.getContext('2d');
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            let ink = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
            resolve(ink);
        }))""",
    )
