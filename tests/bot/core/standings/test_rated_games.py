"""The ratings as players meet them through the service: the result line's rating changes,
the leaderboard's pages by rating, stats with rating, rank, best hands and charts, and head
to head; one server never shows another's players."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.core.base.replies import User
from bot.core.base.text import RATINGS_WHY, shown
from bot.core.base.views import PageControls
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.pixels import read_png
from tests.helpers.results import finish_game, result_row
from tests.helpers.service_driver import game_owner, open_table

LIBRARY = PlackettLuce()
PLAYERS = [User(100 + n, f"P{n:02d}") for n in range(13)]


async def test_the_result_line_shows_each_persons_new_rating_and_change(
    store: Store, service: Services
) -> None:
    await open_table(service, [AL, BEA], channel=CHANNEL)
    outcome = await service.moves.resign(CHANNEL, AL)
    assert outcome.ok and outcome.game_id is not None
    owing = await service.ledger.owed(game_owner(outcome.game_id))
    assert owing is not None
    result = next(o for o in owing.owed if str(o.key) == "result").view.content
    [[al], [bea]] = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[2, 1])
    al_now, bea_now = shown(al.ordinal()), shown(bea.ordinal())
    assert result.splitlines()[-2:] == [
        f"Ratings — Al: {al_now:,} (−{1000 - al_now}) · Bea: {bea_now:,} (+{bea_now - 1000})",
        RATINGS_WHY,
    ]


async def _thirteen_players(store: Store) -> None:
    """P00 beats everyone once, P01 everyone after it, ...: a clear order by rating."""
    for i, winner in enumerate(PLAYERS):
        for loser in PLAYERS[i + 1 : i + 3]:
            await finish_game(
                store,
                [
                    result_row(0, winner, won=True, score=121),
                    result_row(1, loser, won=False, score=100),
                ],
            )


async def test_the_leaderboard_pages_by_rating_ten_at_a_time(
    store: Store, service: Services
) -> None:
    await _thirteen_players(store)
    first = await service.standings.leaderboard(GUILD)
    assert first.reply.view is not None and not first.reply.ephemeral
    assert first.reply.view.controls_of(PageControls) == PageControls("people", 0, 2)
    assert "page 1 of 2" in first.reply.text
    table = first.reply.text.split("```")[1].splitlines()[2:]
    assert [line.split()[0] for line in table] == [str(n) for n in range(1, 11)]
    second = await service.standings.leaderboard(GUILD, page=1)
    assert second.update is not None and second.update.controls_of(PageControls) == PageControls(
        "people", 1, 2
    )
    rows = second.update.content.split("```")[1].splitlines()[2:]
    assert [line.split()[0] for line in rows] == ["11", "12", "13"]
    named = {line.split()[1] for line in table + rows}
    assert named == {p.name for p in PLAYERS}
    # A page that no longer exists shows the last one; another server has nobody.
    assert (await service.standings.leaderboard(GUILD, page=7)).update == second.update
    other = await service.standings.leaderboard(GUILD + 1)
    assert "No games between people have finished" in other.reply.text


async def test_stats_show_rating_rank_best_hands_and_two_charts(
    store: Store, service: Services
) -> None:
    await _thirteen_players(store)
    outcome = await service.standings.stats(GUILD, PLAYERS[0])
    text = outcome.reply.text
    assert "Rating " in text and "#1 of 13" in text and "(provisional: 2 rated games)" in text
    assert "Best hands: 12 (hand 0)" in text
    assert outcome.reply.view is not None
    rating, points = outcome.reply.view.pictures
    assert rating.filename == "rating.png" and "P00's rating over 2 games" in rating.alt_text
    assert "1,000 at the start" in rating.alt_text, "their games from the first: the start too"
    assert points.filename == "points.png" and "Server average" in points.alt_text
    assert read_png(rating.png).size == read_png(points.png).size == (800, 420)
    # Another server: nothing of this one.
    elsewhere = await service.standings.stats(GUILD + 1, PLAYERS[0])
    assert "has not finished a game on this server" in elsewhere.reply.text
    assert elsewhere.reply.view is None


async def test_stats_outside_servers_compare_with_the_average_outside_servers(
    store: Store, service: Services
) -> None:
    """A DM's or group DM's stats count the games played outside servers: their picture's
    average is theirs, not a server's."""
    rows = [result_row(0, AL, won=True, score=121), result_row(1, BEA, won=False, score=90)]
    await finish_game(store, rows, guild=None, channel=901)
    outcome = await service.standings.stats(None, AL, here=901)
    assert outcome.reply.view is not None
    _, points = outcome.reply.view.pictures
    assert "Average outside servers: pegging" in points.alt_text
    assert "erver average" not in points.alt_text


async def test_head_to_head_wins_points_margin_and_the_last_five(
    store: Store, service: Services
) -> None:
    for game in range(6):
        al_won = game != 2
        await finish_game(
            store,
            [
                result_row(0, AL, won=al_won, score=121 if al_won else 110),
                result_row(1, BEA, won=not al_won, score=101 if al_won else 121),
            ],
            now=1_767_225_600.0 + game * 86_400,  # 1 January 2026 onwards
        )
    text = (await service.standings.stats(GUILD, BEA, against=AL)).reply.text
    assert text.startswith("**Bea** against **Al**: 6 games — Bea won 1, Al won 5.")
    assert "Game points: Bea: 1, Al: 5." in text
    margin = (5 * (101 - 121) + (121 - 110)) / 6
    assert f"Average margin: −{-margin:.1f} points a game for Bea." in text
    jan = [f"<t:{1_767_225_600 + (day - 1) * 86_400}:d>" for day in range(7)]  # jan[d]: d Jan
    assert (
        f"Last 5 games: L 101-121 ({jan[6]}) · L 101-121 ({jan[5]}) · L 101-121 ({jan[4]})" in text
    )
    assert f"W 121-110 ({jan[3]}) · L 101-121 ({jan[2]})" in text
    refused = await service.standings.stats(GUILD, BEA, against=BEA)
    assert not refused.ok and "someone else" in refused.reply.text
    never = await service.standings.stats(GUILD + 1, BEA, against=AL)
    assert "have not played each other on this server yet" in never.reply.text
