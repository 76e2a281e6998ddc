"""A finished game's page in a real browser at a phone's width (Chromium, driven by
Playwright: tests.helpers.browser), served as the bot serves it: the replay's tables keep
their words whole (a heading read "Play" over "er", a score "10" over "2"), and nothing is
wider than the screen, a name of 32 letters without a space included; the call a replay is
stepped to stands below the board stuck over the calls, not under it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import pytest
from playwright.async_api import Browser, ViewportSize

from bot.core.base.replies import User
from bot.core.services import Services
from bot.store import Store
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.helpers.browser import open_browser
from tests.helpers.service_driver import AL, BEA, CY, DEE, EVE, finished_game

LINKS = PageLinks("one secret that is long enough")
#: Discord's longest display name, with nowhere to break it.
LONG = User(7, "Bartholomew_the_Magnificent_Crib")
#: The narrowest phones the pages are made for, and a common one.
PHONES: tuple[ViewportSize, ...] = ({"width": 360, "height": 740}, {"width": 390, "height": 844})
DESKTOP: ViewportSize = {"width": 1280, "height": 900}

#: Each word on the page (split at spaces and hyphens) that the browser drew across two lines.
_BROKEN = """() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const word of node.textContent.matchAll(/[^\\s\\-]+/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0)
        .map(r => Math.round(r.top)));
      if (lines.size > 1) { broken.push(word[0] + " (" + node.parentElement.tagName + ")"); }
    }
  }
  return broken;
}"""


@asynccontextmanager
async def _finished(
    service: Services, store: Store, users: Sequence[User], *, target: int, variant: str
) -> AsyncIterator[tuple[str, Browser]]:
    """A whole game of ``variant`` between ``users``, its page's address as the bot serves
    it, and a browser to open it in."""
    _, game_id = await finished_game(service, users, target=target, variant=variant)
    server = WebServer(
        service.pages, service.feed, LINKS, limits=Capacity(connections=50, live_pages=50)
    )
    await server.start()
    try:
        async with open_browser() as browser:
            yield server.address + LINKS.path(game_id), browser
    finally:
        await server.stop()


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_a_replay_on_a_phone_keeps_its_words_whole(service: Services, store: Store) -> None:
    # Seven-card: the widest hands (seven cards dealt, five shown).
    async with _finished(service, store, [AL, LONG], target=181, variant="seven_card") as (
        address,
        browser,
    ):
        for phone in PHONES:
            page = await browser.new_page(viewport=phone)
            await page.goto(address)
            assert await page.locator("caption", has_text="The show").count() > 0
            overflow = await page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{overflow}px wider than a {phone['width']}px screen"
            broken = [w for w in await page.evaluate(_BROKEN) if LONG.name not in w]
            assert not broken, f"at {phone['width']}px: {sorted(set(broken))}"
            await page.close()


#: Where the current call of a replay stands against the board stuck above the calls.
_UNDER = """() => {
  const step = document.querySelector('ol.steps a[aria-current="step"]').getBoundingClientRect();
  const viewer = document.querySelector('.viewer').getBoundingClientRect();
  return {top: step.top, bottom: step.bottom, viewer: viewer.bottom, window: innerHeight};
}"""


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_the_call_stepped_to_is_not_under_the_board(service: Services, store: Store) -> None:
    # Five players: the board is nearly square, the tallest there is; stuck over the calls at
    # its full width it filled a desktop's window, and a call's link scrolled it under it.
    users = [AL, BEA, CY, DEE, EVE]
    async with _finished(service, store, users, target=121, variant="five_hand") as (
        address,
        browser,
    ):
        for screen in (PHONES[1], DESKTOP):
            page = await browser.new_page(viewport=screen)
            await page.goto(f"{address}?step=60#s60")
            await page.wait_for_function("() => [...document.images].every(i => i.complete)")
            for key in ("", "ArrowUp", "ArrowUp", "ArrowUp", "ArrowDown"):
                if key:
                    await page.keyboard.press(key)
                seen = await page.evaluate(_UNDER)
                assert seen["viewer"] <= 0.6 * seen["window"], (screen, seen)
                assert seen["viewer"] <= seen["top"] < seen["bottom"] <= seen["window"], (
                    screen,
                    key,
                    seen,
                )
            await page.close()
