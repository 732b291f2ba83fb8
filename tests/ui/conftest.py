"""The browser tests share one headless Chromium and a signed-in page helper (on SQLite alone,
as tests/conftest.py runs every test of this directory)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from devkit.harness import CHROMIUM, CHROMIUM_ARGS, WEB_INDEX
from tests.conftest import ServerProcess

# how long an expectation waits to come true (Playwright's default: 5 s). A page that is right
# passes as soon as it is; on CI's loaded 2 cores the server's threads and the page's next poll
# once took over 5 s, and a wrong page still fails, only later
expect.set_options(timeout=15_000)


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
