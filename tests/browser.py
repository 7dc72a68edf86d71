"""A real headless browser for the tests: Debian's ``chromium`` (never a browser of
Playwright's own), run with ``--dump-dom`` for a page's DOM or driven by Playwright for
Python for keys, clicks and sizes. The tests that need it are skipped only when no chromium
binary is installed (``.ci/run`` installs one)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary installed")
# Headless, and nothing that reaches out on its own (updates, sync, background requests).
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
ARGS += ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def chromium_args(profile: Path) -> list[str]:
    """The command line of a headless chromium with its own profile and a 1200 x 900 window."""
    return [str(CHROMIUM), *ARGS, f"--user-data-dir={profile}", "--window-size=1200,900"]


@contextmanager
def launched() -> Iterator[Any]:
    """Debian's chromium under Playwright, closed after the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


class Tab:
    """One page in a browser of its own, opened at ``url`` and waited on until the
    JavaScript ``ready`` is true: the JavaScript it evaluates, real key presses and clicks,
    and the URL of every request it made. Every wait ends ``seconds`` after it began."""

    def __init__(self, url: str, ready: str = "true", seconds: float = 20, size: tuple[int, int] = (1200, 900)) -> None:
        self._browsing = launched()
        browser = self._browsing.__enter__()
        try:
            self.page = browser.new_page(viewport={"width": size[0], "height": size[1]})
            self.page.set_default_timeout(seconds * 1000)
            self.urls: list[str] = []
            self.page.on("request", lambda request: self.urls.append(request.url))
            self.page.goto(url)
            self.wait_for(ready)
        except BaseException:
            self.close()
            raise

    def js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def wait_for(self, condition: str) -> None:
        self.page.wait_for_function(f"() => !!({condition})")

    def key(self, key: str) -> None:
        self.page.keyboard.press(key)

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element, scrolled into view first."""
        self.page.click(selector)

    def resize(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def close(self) -> None:
        self._browsing.__exit__(None, None, None)
