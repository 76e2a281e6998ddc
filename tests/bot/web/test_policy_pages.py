"""The privacy policy and the terms of service as the game pages' server serves them (issue
50, item 4), in a real browser (Chromium, driven by Playwright: tests.helpers.browser): each
states the bot's own figures (the retention, the idle time, the grace period after the bot
leaves a server) and its contact, links to the other, fits a phone's width, and goes out with
the pages' security headers; the front page links to both. What the policy says is kept is
the inventory's, every kind of it (issue 54, item 7: it left out ranked play)."""

from __future__ import annotations

from datetime import timedelta

import aiohttp
import pytest
from playwright.async_api import ViewportSize

from bot.assembly import policy_facts
from bot.core.privacy.inventory import INVENTORY, Figures
from bot.core.services import Services
from bot.store import Store
from bot.web.links import PageLinks
from bot.web.policy import privacy_page
from bot.web.server import WebServer
from tests.helpers.browser import open_browser

LINKS = PageLinks("one secret that is long enough")
PHONE: ViewportSize = {"width": 360, "height": 740}
FIGURES = Figures(
    retention=timedelta(days=45), idle_expiry=timedelta(hours=12), grace=timedelta(days=14)
)
FACTS = policy_facts(FIGURES, "privacy@cribbage.example.org")

#: How far the page is wider than the screen (0: not at all).
_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_the_policy_and_the_terms_in_a_browser(service: Services, store: Store) -> None:
    server = WebServer(service.pages, service.feed, LINKS, policy=FACTS)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            for path in ("/privacy", "/terms"):
                async with session.get(server.address + path) as response:
                    assert response.status == 200
                    assert response.headers["Content-Security-Policy"].startswith("default-src")
                    assert "Server" not in response.headers
        async with open_browser() as browser:
            page = await browser.new_page(viewport=PHONE)
            await page.goto(server.address + "/")
            await page.click("text=Privacy policy")
            await page.wait_for_url("**/privacy")
            assert await page.title() == "Privacy policy · Cribbage bot"
            text = await page.inner_text("main")
            for said in (
                "kept whole for 45 days after the game ends",
                "A game nobody moves in for 12 hours is ended",
                "deleted 14 days later",
                "/cribbage privacy",
                "Send me my data",
                "former player",
                # Ranked play, kept apart from any server, and seen in every one.
                "Your ranked searches (and where you made them) and matches",
                "on the ladder, which every server sees",
            ):
                assert said in text, said
            # Every kind of thing kept, as the inventory says it (its markdown drawn: a
            # command's name in code, no backticks).
            for kept in INVENTORY:
                assert f"{kept.what}: {kept.detail}".replace("`", "") in text, kept.what
            mail = page.locator('a[href="mailto:privacy@cribbage.example.org"]')
            assert await mail.count() == 1
            assert await page.evaluate(_OVERFLOW) <= 0
            await page.click("text=terms of service")
            await page.wait_for_url("**/terms")
            terms = await page.inner_text("main")
            assert "Terms of service" in terms and "14 days later" in terms
            assert "12 hours is ended without a result" in terms
            assert await page.evaluate(_OVERFLOW) <= 0
            await page.click("text=privacy policy")
            await page.wait_for_url("**/privacy")
    finally:
        await server.stop()


def test_without_a_contact_the_policy_says_where_to_ask() -> None:
    figures = Figures(timedelta(days=30), timedelta(days=7), timedelta(days=30))
    page = privacy_page(policy_facts(figures, None))
    assert "has not published a contact" in page and "mailto:" not in page
    assert "30 days" in page and "7 days" in page


def test_without_a_policy_the_pages_serve_and_link_none() -> None:
    from bot.web.pages import home_page

    assert "/privacy" in home_page() and "/privacy" not in home_page(policy=False)


@pytest.mark.parametrize(
    ("idle", "words"),
    [
        (timedelta(days=7), "7 days"),
        (timedelta(hours=12), "12 hours"),
        (timedelta(hours=1), "1 hour"),
    ],
)
def test_an_expired_game_says_its_idle_time_as_the_policy_and_the_terms_do(
    idle: timedelta, words: str
) -> None:
    # The channel was told "Nobody moved in this game for 0.5 days" (0.0416667 days for an
    # hour) where the policy, the terms and /cribbage privacy said "12 hours": one writer of
    # a period (bot.core.base.text.period) says it everywhere.
    from bot.core.games.endings import expired_note
    from bot.web.policy import terms_page

    facts = policy_facts(Figures(timedelta(days=30), idle, timedelta(days=30)), None)
    assert f"A game nobody moves in for {words} is ended." in privacy_page(facts)
    assert f"A game nobody moves in for {words} is ended without" in terms_page(facts)
    assert expired_note(idle).startswith(f"Nobody moved in this game for {words}, so")
