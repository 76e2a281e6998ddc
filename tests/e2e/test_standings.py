"""Leaderboard and stats after several finished games, one played through Discord, others
(a skunk and a double skunk among them) seeded through the store for speed."""

from __future__ import annotations

import random
import re
import time

from bot.core.base.replies import User
from bot.store import Store
from engine.outcome import Scoring
from fakediscord import User as Member
from fakediscord.testing import BotProcess
from tests.helpers.results import finish_game, result_row
from tests.helpers.table_driver import World, resign


async def _seed_finished_game(
    world: World,
    channel_id: int,
    winner: Member,
    loser: Member,
    loser_score: int,
) -> None:
    """One finished 121 game between two people (on the skunk scale: a skunk below 91, a
    double skunk below 61), written as the service would write it."""
    points = 3 if loser_score < 61 else 2 if loser_score < 91 else 1
    beyond = Scoring.SKUNK if points > 1 else None
    final = f"121-{loser_score}"
    seats = [(User(winner.id, winner.name), 121), (User(loser.id, loser.name), loser_score)]
    results = [
        result_row(
            seat, user, won=seat == 0, score=score, beyond=beyond, game_points=points, final=final
        )
        for seat, (user, score) in enumerate(seats)
    ]
    async with await Store.open(world.database) as store:
        await finish_game(
            store,
            results,
            guild=world.guild.id,
            channel=channel_id,
            now=time.time(),
        )


def _board_row(text: str, name: str) -> tuple[int, int]:
    """(games, win %) from a leaderboard line for `name`."""
    for line in text.splitlines():
        match = re.search(rf"\b{name}\s+[\d,]+\??\s+(\d+)\s+(\d+)%", line)
        if match:
            games, rate = match.groups()
            return int(games), int(rate)
    raise AssertionError(f"{name} is not on the leaderboard:\n{text}")


async def test_leaderboard_and_stats_after_finished_games(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players

    # Before any game: a clear answer, not an error.
    empty = await fd.slash(cy, world.general, "/cribbage leaderboard")
    assert "No games" in empty.words()

    # One game through Discord, Al against Bea: a deal played, then one of them resigns (a
    # whole game to the target is played in test_whole_games.py).
    rng = random.Random(21)
    driver = world.driver([al, bea], rng)
    await driver.open(target=61)
    await driver.play_deal()
    quitter = rng.choice([al, bea])
    resigned = await resign(fd, quitter, world.general)
    assert resigned.original is not None and resigned.original.words() == "You resigned."
    final = await driver.expect_current()
    assert final.status == "finished"
    assert final.game is not None and final.game.state.result is not None
    played_winner = [al, bea][final.game.state.result.winner]
    played_loser = bea if played_winner is al else al
    # Deals are random, so the played game may itself be a lurch (a skunk in a 61 game).
    assert played_loser is quitter
    lurch = int(final.game.state.result.kind != "win")

    # Three more, seeded: Al skunks Bea, Cy beats Al, Bea double-skunks Cy.
    other = world.guild.add_text_channel("other")
    await _seed_finished_game(world, other.id, al, bea, 80)
    await _seed_finished_game(world, other.id, cy, al, 112)
    await _seed_finished_game(world, other.id, bea, cy, 50)

    board = await fd.slash(cy, world.general, "/cribbage leaderboard")
    assert not board.ephemeral, "the leaderboard is for everyone"
    text = board.words()
    wins = {al.id: 1, bea.id: 1, cy.id: 1}
    losses = {al.id: 1, bea.id: 1, cy.id: 1}
    # Skunks given and taken in the seeded games (skunk scale): Al +1, Bea +1 -1, Cy -1; the
    # game played through Discord is by the lurch, /cribbage new's default.
    given = {al.id: 1, bea.id: 1, cy.id: 0}
    taken = {al.id: 0, bea.id: 1, cy.id: 1}
    lurches_given = {played_winner.id: lurch, played_loser.id: 0}
    lurches_taken = {played_winner.id: 0, played_loser.id: lurch}
    wins[played_winner.id] += 1
    losses[played_loser.id] += 1
    for user in (al, bea, cy):
        games = wins[user.id] + losses[user.id]
        row = _board_row(text, user.name)
        assert row == (games, round(100 * wins[user.id] / games)), (user.name, text)
    # Ranked by rating: the ranks read 1, 2, 3 down the table, each rating no higher than
    # the one above it.
    table = text.split("```")[1].splitlines()[2:]
    assert [line.split()[0] for line in table] == ["1", "2", "3"], text
    ratings = [int(line.split()[2].rstrip("?").replace(",", "")) for line in table]
    assert ratings == sorted(ratings, reverse=True), text

    stats = await fd.slash(al, world.general, f"/cribbage stats user:{bea.name}")
    assert not stats.ephemeral
    assert bea.name in stats.words()
    games = wins[bea.id] + losses[bea.id]
    assert f"{games} games, {wins[bea.id]} win" in stats.words(), stats.words()
    skunks = f"skunks given {given[bea.id]}, taken {taken[bea.id]}"
    if lurch:
        lurches = f"lurches given {lurches_given[bea.id]}, taken {lurches_taken[bea.id]}"
        assert f"{lurches}; {skunks}." in stats.words(), stats.words()
    else:
        assert f"%); {skunks}." in stats.words(), stats.words()
    mine = await fd.slash(cy, world.general, "/cribbage stats")
    assert cy.name in mine.words() and "2 games, 1 win" in mine.words(), mine.words()
    nobody = await fd.slash(al, world.general, f"/cribbage stats user:{world.spectator.name}")
    assert "has not finished a game" in nobody.words()
