"""A real browser for the game pages' tests: Debian's Chromium, driven by Playwright.

Playwright's own browser download is out of reach where the tests run, so the browser is the
system's (``tests/install_chromium.sh`` installs it; ``CHROMIUM`` names another): Debian's
Chromium headless shell where it is installed, as Playwright itself runs headless Chromium (its
``chromium-headless-shell``: the same Blink, V8 and network code, without the windowed
browser's), else the whole browser in its headless mode. A launch, a page and two idle seconds
cost 0.3 s of CPU in the shell against 1.5 s in the whole browser, and the suite opens a
browser in some 25 tests.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

__all__ = ["chromium_path", "open_browser"]

#: The system's Chromium by the names it is installed under, the lightest first.
_NAMES = ("chromium-headless-shell", "chromium", "chromium-browser")


def chromium_path() -> str:
    """The system Chromium's path (an AssertionError that says how to install it)."""
    named = os.environ.get("CHROMIUM")
    found = named or next(filter(None, map(shutil.which, _NAMES)), None)
    assert found, "Chromium is needed by the game pages' tests: bash tests/install_chromium.sh"
    return found


@asynccontextmanager
async def open_browser() -> AsyncIterator[Browser]:
    """A headless Chromium for the length of the block."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_path(), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            await browser.close()
