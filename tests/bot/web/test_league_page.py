"""A club's league on the game pages (issue 70): its page (this season's table, the last's,
the champions) at an unguessable address, and a night's game's page naming its night with the
league's link; in a real browser at a phone's width, nothing wider than the screen."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.nights.records import NightState
from bot.core.services import Services
from bot.core.tournaments import records as tr
from bot.store import Store
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.helpers.browser import open_browser
from tests.helpers.service_driver import AL, BEA, CY, GUILD, Clock, open_table

LINKS = PageLinks("one secret that is long enough")
CHANNEL, THREAD = 4200, 4201
MO_ID = 9


async def _two_nights(service: Services, store: Store, clock: Clock) -> tuple[int, int]:
    """A weekly club whose first two nights were played (Al won both, Bea second, Cy third;
    night 1's game between Al and Bea played in its thread): the club and that game."""
    from bot.core.base.replies import User

    scheduled = await service.nights.schedule(
        GUILD,
        CHANNEL,
        User(MO_ID, "Mo"),
        moderator=True,
        when="tomorrow 20:00",
        repeat="weekly",
        name="Bartholomew_the_Magnificent_Crib night",
        events_refusal=None,
    )
    assert scheduled.ok, scheduled.reply.text
    club = await store.club_in_channel(CHANNEL)
    assert club is not None
    game_id = 0
    for number in (1, 2):
        night = await store.latest_night(club.id)
        assert night is not None and night.number == number
        tid = night.tournament_id
        for user in (AL, BEA, CY):
            assert await store.enter(tid, user.id, user.name)
        assert await store.claim_night(night.id, NightState.SCHEDULED, NightState.STARTED)
        assert await store.start_tournament(tid, rounds=1)
        assert await store.pair_round(tid, 1, [(AL.id, BEA.id), (CY.id, None)], now=0)
        assert await store.decide(tid, 1, 1, tr.Verdict(tr.Decided.GAME, AL.id, margin=20))
        if number == 1:
            await store.set_post(tid, 1, 1, THREAD)
            await store.set_thread(tid, 1, 1, THREAD)
            await open_table(service, (AL, BEA), channel=THREAD)
            opened = await store.last_game_in_channel(THREAD)
            assert opened is not None
            game_id = opened.id
        assert await store.end_tournament(tid, tr.TournamentStatus.FINISHED, now=0, champion=AL.id)
        assert await store.claim_night(night.id, NightState.STARTED, NightState.PLAYED)
        if number == 1:
            made = await store.add_night(
                club.id, 2, night.starts_at + 7 * 86400, _plan(club), now=0
            )
            assert made is not None
    return club.id, game_id


def _plan(club: object) -> tr.TournamentPlan:
    from bot.core.nights.nights import tournament_of

    return tournament_of(club)  # type: ignore[arg-type]


async def test_the_league_page_and_a_nights_game_page_link_to_it(
    service: Services, store: Store, clock: Clock
) -> None:
    club_id, game_id = await _two_nights(service, store, clock)
    server = WebServer(service.pages, service.feed, LINKS)
    async with TestClient(TestServer(server.app())) as client:
        response = await client.get(LINKS.league_path(club_id))
        page = await response.text()
        assert response.status == 200, page
        # Al won both nights of three players: 3 + 3; Cy, whose bye counts as a win, second:
        # 2 + 2; Bea, beaten by Al, last: 1 + 1.
        assert "<h1>Bartholomew_the_Magnificent_Crib night league</h1>" in page
        for name, points in (("Al", 6), ("Cy", 4), ("Bea", 2)):
            assert f'<th scope="row">{name}</th><td>{points}</td>' in page, name
        assert "2 nights played" in page
        # Another club's number, or a signature of a game's page, finds nothing.
        assert (
            await client.get(f"/l/{club_id + 1}/{LINKS.signature(club_id, kind='league')}")
        ).status == 404
        assert (await client.get(f"/l/{club_id}/{LINKS.signature(club_id)}")).status == 404
        game = await (await client.get(LINKS.path(game_id))).text()
        assert "Played for Bartholomew_the_Magnificent_Crib night, night 1" in game
        assert LINKS.league_path(club_id) in game


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_the_league_page_fits_a_phone(service: Services, store: Store, clock: Clock) -> None:
    club_id, _ = await _two_nights(service, store, clock)
    server = WebServer(
        service.pages, service.feed, LINKS, limits=Capacity(connections=50, live_pages=50)
    )
    await server.start()
    try:
        async with open_browser() as browser:
            page = await browser.new_page(viewport={"width": 360, "height": 740})
            await page.goto(server.address + LINKS.league_path(club_id))
            # This season's table (the last had no night).
            assert await page.locator("table").count() == 1
            overflow = await page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            wide = await page.evaluate(
                "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect()"
                ".right > document.documentElement.clientWidth).map(e => e.tagName)"
            )
            assert overflow <= 0, wide
    finally:
        await server.stop()
