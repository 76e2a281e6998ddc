"""How a ranked game ended, end to end (issue 54, items 5 and 6): a game lost on the turn clock
and a match left during its next game, each said once, in its own words, on both places'
tables (every version of them), never as a resignation; the match left counts the game being
played as the leaver's loss (2–0, not 1–0), and the answer, the ladder and the block command
say it the same way. Each end of a search or a match offers the next search a tap away.

The bot runs in this process on a core whose clock the test moves on past a turn's time (a
minute) rather than wait for it: the referee is asked to look once it has."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

from bot.core.base.owners import Owner
from bot.core.base.places import OTHERS_RANKED
from bot.core.ranked.matching import SEARCH_AT_MOST
from bot.core.ranked.records import Unrated
from bot.core.ranked.turns import REACH_ALLOWANCE, TURN_SECONDS
from bot.core.ranked.words import BLOCK_SELF, both_late_game, match_not_rated, not_rated
from bot.core.services import Services
from fakediscord import Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import rows
from tests.helpers.core_build import build_core
from tests.helpers.in_process import everywhere
from tests.helpers.ranked_driver import (
    RankedDriver,
    entry_of,
    left_the_match,
    match_games,
    matched_across_servers,
)
from tests.helpers.table_driver import World, until


class _Clock:
    """The core's clock: the time now, moved on by the test when it says so."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


@asynccontextmanager
async def _on_a_clock(world: World, bots: BotLauncher) -> AsyncIterator[tuple[Services, _Clock]]:
    """The bot in this process, its commands global (``everywhere``), on a core whose clock
    the test moves on (and whose idle games wait a week: none expires while it does)."""
    clock = _Clock()
    clocked = functools.partial(build_core, idle_expiry=timedelta(days=7), clock=clock)
    async with everywhere(bots, world.database, clocked) as core:
        yield core, clock


def _table_saying(
    driver: RankedDriver, seat: int, game_id: int, words: str
) -> Callable[[], Message | None]:
    def found() -> Message | None:
        table = driver.table_now(seat, game_id)
        return table if table is not None and words in table.words() else None

    return found


def _card_saying(world: World, player: User, words: str) -> Message | None:
    """The player's latest ranked card, once it says ``words``."""
    entry, _, _ = entry_of(world.database, player)
    found = rows(
        world.database,
        "SELECT message_id FROM messages WHERE owner = ? AND key = 'card'",
        (str(Owner.ranked(entry)),),
    )
    card = world.fd.world.messages.get(int(found[0][0])) if found and found[0][0] else None
    return card if card is not None and words in card.words() else None


def _said_once(table: Message, line: str) -> None:
    """Every version of ``table`` says ``line`` at most once, never that anyone resigned; the
    latest says it."""
    for version in [*table.history, table.version()]:
        words = version.words()
        assert words.count(line) <= 1 and "resigned" not in words, words
    assert table.words().count(line) == 1, table.words()


async def _throws(driver: RankedDriver, seat: int) -> None:
    """The match's next game is dealt, and ``seat`` alone throws for the crib (with
    ``/cribbage discard`` at their place, which acts on their ranked game)."""
    snap = await driver.next_game()
    assert snap.game is not None
    place = driver.places[seat]
    cards = " ".join(c.code for c in snap.game.hand(seat)[:2])
    thrown = await driver.fd.slash(place.user, place.channel, f"/cribbage discard cards:{cards}")
    assert "crib" in thrown.words(), thrown.words()
    await until(driver.fd, lambda: driver.snapshot().version > snap.version or None)


def _time_runs_out(core: Services, clock: _Clock, driver: RankedDriver) -> int:
    """A turn's time passes in the game being played, and the referee is asked to look: the
    game's id."""
    clock.ahead += timedelta(seconds=TURN_SECONDS + REACH_ALLOWANCE + 1)
    core.ranked_play.referee.look(driver.match_id)
    return driver.game_id


async def test_a_game_lost_on_the_clock_and_a_match_left_say_so_once_each(
    world: World, bots: BotLauncher
) -> None:
    async with _on_a_clock(world, bots) as (core, clock):
        fd = world.fd
        al, bea = world.players[:2]
        # Bea waits first, so she sits first: the first owed move the clock finds is hers.
        driver = await matched_across_servers(world)
        match_id, lounge = driver.match_id, driver.places[0].channel

        # Game 1: Al throws, Bea does not; a turn's time passes; Bea's clock runs out.
        await _throws(driver, 1)
        first = _time_runs_out(core, clock, driver)
        ran_out = "Bea's clock ran out — 🏆 Al wins"
        for seat in (0, 1):
            table = await until(fd, _table_saying(driver, seat, first, "game 2 comes next"))
            _said_once(table, ran_out)
            assert "Match: Bea 0 · Al 1" in table.words(), table.words()
            # A game of a match is won or lost there: no game points, which count for nothing.
            assert f"{ran_out} (Al: 0, Bea: 0)" in table.words(), table.words()
            assert "game point" not in table.words(), table.words()

        # Game 2: Bea leaves the match while it is being played: she loses it with the match.
        await driver.next_game()
        second = driver.game_id
        left = await left_the_match(fd, bea, lounge, asks="and the game being played")
        assert left.startswith(
            "You left the match: Al wins it 2–0 (with the game being played). "
            "Your next ranked search can start <t:"
        ), left
        decided = "🏆 **Al wins the ranked match 2–0** (Bea left the match)."
        for seat in (0, 1):
            table = await until(fd, _table_saying(driver, seat, second, decided))
            _said_once(table, "Bea left the match — 🏆 Al wins")
            assert "Ranked ratings — Bea: " in table.words(), table.words()
        assert [(g[2], g[3]) for g in match_games(world.database, match_id)] == [
            (al.id, "clock"),
            (al.id, "left"),
        ]
        driver.check_now()

        # The ladder, posted in the channel, names whose place and matches it shows.
        ladder = await fd.slash(bea, lounge, "/cribbage ranked ladder")
        words = ladder.words()
        assert "**Bea's latest matches**" in words and "**You**" not in words, words
        assert "Lost 0–2 against **Al** (Bea left the match)" in words, words
        # A player typed by name is blocked; oneself is refused, saying why.
        mine = await fd.slash(al, world.general, "/cribbage ranked block player:Al")
        assert mine.ephemeral and mine.words() == BLOCK_SELF
        typed = await fd.slash(al, world.general, "/cribbage ranked block player:bea")
        assert typed.ephemeral and "won't be matched with **Bea** again" in typed.words()


async def test_both_clocks_run_out_at_the_crib_and_neither_player_is_the_loser(
    world: World, bots: BotLauncher
) -> None:
    # Neither throws for the crib: "Bea's clock ran out — 🏆 Al wins (Al: 0, Bea: 0)" (the
    # first seated lost, every time), twice, then "Al wins the ranked match 2–0" with ratings
    # moved, though Al never moved either. Now both are treated alike, said once: the game
    # counts for neither, the match ends there, not rated, and nobody waits to search again.
    async with _on_a_clock(world, bots) as (core, clock):
        fd = world.fd
        al, bea = world.players[:2]
        driver = await matched_across_servers(world)
        match_id, lounge = driver.match_id, driver.places[0].channel
        await driver.next_game()
        first = _time_runs_out(core, clock, driver)
        ended = both_late_game("Bea", "Al")
        why = match_not_rated(Unrated.BOTH_LATE)
        for seat in (0, 1):
            table = await until(fd, _table_saying(driver, seat, first, why))
            _said_once(table, ended)
            for version in [*table.history, table.version()]:
                words = version.words()
                assert "clock ran out —" not in words and "🏆" not in words, words
                assert words.count(why) <= 1, words
            assert "Resign" not in [b.get("label") for b in table.buttons()]
        assert [(g[2], g[3]) for g in match_games(world.database, match_id)] == [(None, "clock")]
        for player in (al, bea):
            await until(fd, functools.partial(_card_saying, world, player, why))
        ladder = (await fd.slash(al, world.general, "/cribbage ranked ladder")).words()
        assert "Not rated against **Bea** (both clocks ran out)" in ladder, ladder
        # Nobody abandoned it: each searches again at once, told why the match was not rated.
        searched = await fd.slash(bea, lounge, "/cribbage ranked play")
        assert not_rated("Al", Unrated.BOTH_LATE) in searched.words(), searched.words()
        driver.check_now()


async def test_a_decided_match_offers_another_search_a_tap_away(
    world: World, bots: BotLauncher
) -> None:
    # The match is decided (Bea left it): the last table at each place offers *Find a ranked
    # match* beside *Review*. Al's tap answers with his new card, public, where he pressed
    # it; Bea's, who left, with why she waits.
    await bots.process(database=world.database)
    fd = world.fd
    al, bea = world.players[:2]
    driver = await matched_across_servers(world)
    lounge = driver.places[0].channel
    await driver.next_game()
    await left_the_match(fd, bea, lounge)
    again = "🔎 Find a ranked match"
    tables = []
    for seat, player in enumerate((bea, al)):
        table = await until(fd, _table_saying(driver, seat, driver.game_id, "wins the ranked"))
        labels = [b["label"] for b in table.buttons()]
        assert labels == ["🔍 Review", again], labels
        # The ratings, each from what it was, and where this place's player stands now.
        words = table.words()
        assert "Ranked ratings — Bea: 1,000 → " in words and " · Al: 1,000 → " in words, words
        assert f"{player.name}: 4 more matches before a rank on the ladder." in words, words
        other = bea if player is al else al
        assert f"{other.name}: 4 more matches" not in words, words
        tables.append(table)
    # Each card says who won once, and points to the table below rather than say it twice.
    for player in (al, bea):
        decided = await until(fd, functools.partial(_card_saying, world, player, "Al won 1–0"))
        assert "Ranked rating" not in decided.words(), decided.words()
    card = await fd.click(al, tables[1], label=again)
    assert card.original is not None and not card.ephemeral, card.words()
    assert card.original.channel is world.general
    assert "Al is looking for a ranked opponent" in card.words(), card.words()
    assert "Stop searching" in [b["label"] for b in card.original.buttons()]
    waits = await fd.click(bea, tables[0], label=again)
    assert waits.ephemeral and "your next search waits until" in waits.words(), waits.words()


async def test_a_search_that_found_nobody_offers_another_a_tap_away(
    world: World, bots: BotLauncher
) -> None:
    # Cy searches from the bot's DM (no expert's offer there) and nobody comes: her card says
    # so and offers a new search, which a tap starts from the same DM.
    async with _on_a_clock(world, bots) as (core, clock):
        fd, cy = world.fd, world.players[2]
        dm = fd.dm_channel(cy)
        searching = await fd.slash(cy, dm, "/cribbage ranked play")
        card = searching.original
        assert card is not None and "looking for a ranked opponent" in card.words()
        assert "If nobody comes, the search ends <t:" in card.words(), card.words()
        clock.ahead += timedelta(seconds=SEARCH_AT_MOST + 1)
        await core.ranked_play.queue.sweep()
        await until(fd, lambda: "Nobody was found for Cy" in card.words() or None)
        assert [b["label"] for b in card.buttons()] == ["🔎 Find a ranked match"]
        again = await fd.click(cy, card, label="🔎 Find a ranked match")
        assert again.original is not None and again.original is not card
        assert again.original.channel is dm and not again.ephemeral
        assert "Cy is looking for a ranked opponent" in again.words(), again.words()


async def test_resigning_a_ranked_game_says_what_it_is_worth_in_the_match(
    world: World, bots: BotLauncher
) -> None:
    # Resign on a ranked table asked "Bea would win by a lurch, 2 game points": game points
    # count for nothing in a match, and the question never said that a game lost is one of
    # the best of three, not the match.
    await bots.process(database=world.database)
    fd, al = world.fd, world.players[0]
    driver = await matched_across_servers(world)
    await driver.next_game()
    table = driver.table_now(1)
    assert table is not None
    resign = await fd.click(al, table, label="Resign")
    assert resign.ephemeral and resign.original is not None
    assert (
        "Bea would win this game of your ranked match (the first to win two takes the match)"
        in resign.words()
    ), resign.words()
    assert "game point" not in resign.words(), resign.words()
    await fd.click(al, resign.original, label="No, play on")
    assert resign.original.words() == "You play on.", resign.original.words()


async def test_every_control_of_a_live_ranked_table_tells_a_non_player_whose_game_it_is(
    world: World, bots: BotLauncher
) -> None:
    # Di, at Bea's place, pressed Resign on Bea's live ranked table in deal 1 and was told
    # "That game is over." (the place's game was looked for, not the table's); Your hand
    # already said whose game it is. Every control of the table now says it the same way, at
    # either place, changing nothing.
    await bots.process(database=world.database)
    fd = world.fd
    driver = await matched_across_servers(world)
    snap = await driver.next_game()
    onlookers = {0: driver.places[0].watchers[0], 1: driver.places[1].watchers[0]}
    pressed = []
    for seat, onlooker in onlookers.items():
        table = driver.table_now(seat)
        assert table is not None
        for label in [b["label"] for b in table.buttons() if "custom_id" in b]:
            answer = await fd.click(onlooker, table, label=label)
            assert answer.ephemeral and answer.words() == OTHERS_RANKED, (label, answer.words())
            pressed.append(label)
    assert {"Your hand", "Resign"} <= set(pressed), pressed
    assert driver.snapshot().version == snap.version
