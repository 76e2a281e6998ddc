"""Seasons and the hall of fame, from the results finished games write (both databases)."""

from __future__ import annotations

import doctest
from datetime import UTC, datetime, timedelta, timezone

from bot.core.base.audience import OpenChannels
from bot.core.base.faults import Faults
from bot.core.ranked.rating import season_of
from bot.core.seasons import seasons as seasons_module
from bot.core.seasons.records import Period
from bot.core.seasons.seasons import Seasons, champions, month_bounds, month_of
from bot.store import Store
from bot.store.database import Transaction
from bot.store.queries import people_acting

GUILD = 7
NOW = datetime(2026, 3, 15, 12, tzinfo=UTC)


async def _people(tx: Transaction, *people: int | None) -> None:
    """The people of a game written as the bot writes it (each one's first act made their
    row)."""
    acting = people_acting(people)
    if acting is not None:
        await acting.run(tx)


async def _result(
    store: Store,
    game: int,
    at: datetime,
    winner: tuple[int, str],
    loser: tuple[int, str],
    *,
    points: int = 2,
    best: tuple[int, str] = (8, "5H 5C JD 8S + 2C"),
) -> None:
    """A finished game between two people with its two result rows, as the bot writes them:
    each row holds the game's points, the loser's too."""
    stamp = at.timestamp()
    async with store.db.transaction() as tx:
        await _people(tx, winner[0], loser[0])
        await tx.execute(
            "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
            " target, vs_computer, version, created_at, updated_at)"
            " VALUES (?, ?, ?, 'finished', ?, 2, 121, 0, 9, ?, ?)",
            (game, GUILD, 1000 + game, winner[0], stamp, stamp),
        )
        for seat, (user, name), won, gp, hand in (
            (0, winner, 1, points, best),
            (1, loser, 0, points, (4, "AH 3C 7D 9S + QS")),
        ):
            await tx.execute(
                "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, won,"
                " game_points, score, final_scores, reason, best_hand, best_hand_cards,"
                " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '121-80', 'target', ?, ?, ?)",
                (game, GUILD, seat, user, name, won, gp, 121 if won else 80, *hand, stamp),
            )


def test_month_bounds_cross_the_year() -> None:
    assert month_bounds(datetime(2026, 1, 3, tzinfo=UTC)) == (
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2026, 2, 1, tzinfo=UTC),
    )
    assert month_bounds(datetime(2026, 1, 3, tzinfo=UTC), 13)[0] == datetime(
        2024, 12, 1, tzinfo=UTC
    )


def test_a_months_champion_has_the_most_game_points_then_wins() -> None:
    feb = datetime(2026, 2, 10, tzinfo=UTC).timestamp()
    results = [(1, "Al", 1, 2, feb), (2, "Bea", 1, 3, feb), (1, "Al", 1, 2, feb)]
    assert champions(results) == [(datetime(2026, 2, 1, tzinfo=UTC), 1, "Al", 4)]


def test_a_champion_counts_the_game_points_of_games_won_alone() -> None:
    """Every result row holds its game's points, the loser's too: Bea lost two skunks (3
    each) and won one game (2): 2 points, not 8; Al won the skunks: 6."""
    feb = datetime(2026, 2, 10, tzinfo=UTC).timestamp()
    results = [
        (1, "Al", 1, 3, feb),
        (2, "Bea", 0, 3, feb),
        (1, "Al", 1, 3, feb),
        (2, "Bea", 0, 3, feb),
        (2, "Bea", 1, 2, feb),
        (1, "Al", 0, 2, feb),
    ]
    assert champions(results) == [(datetime(2026, 2, 1, tzinfo=UTC), 1, "Al", 6)]
    # A month where Bea lost every game: she is never its champion on game points.
    mar = datetime(2026, 3, 10, tzinfo=UTC).timestamp()
    lost = [(2, "Bea", 0, 3, mar), (2, "Bea", 0, 3, mar), (3, "Cy", 1, 2, mar)]
    assert champions(lost) == [(datetime(2026, 3, 1, tzinfo=UTC), 3, "Cy", 2)]


async def test_this_month_last_month_and_the_hall_of_fame(store: Store) -> None:
    al, bea, cy = (1, "Al"), (2, "Bea"), (3, "Cy")
    await _result(store, 1, datetime(2026, 2, 3, tzinfo=UTC), al, bea, points=3)
    await _result(
        store, 2, datetime(2026, 2, 20, tzinfo=UTC), bea, al, best=(29, "5H 5C 5D JS + 5S")
    )
    await _result(
        store, 3, datetime(2026, 2, 28, 23, tzinfo=UTC), cy, bea, best=(24, "3H 3C 3D 3S + 9S")
    )
    await _result(
        store, 4, datetime(2026, 3, 2, tzinfo=UTC), bea, cy, best=(28, "5H 5C 5D 5S + JS")
    )
    seasons = Seasons(store, lambda: NOW, Faults(), OpenChannels())

    now = await seasons.leaderboard(GUILD, "this_month")
    assert now.ok and not now.reply.ephemeral
    # This month's table says when it closes, in each reader's own time (the month is UTC's:
    # 1 April 00:00 UTC is still 31 March in the Americas).
    april = int(datetime(2026, 4, 1, tzinfo=UTC).timestamp())
    assert now.reply.text.splitlines()[1:] == [
        f"The month's table closes <t:{april}:f> (<t:{april}:R>).",
        "1. Bea — 2 game points, 1 of 1 won",
        "2. Cy — 0 game points, 0 of 1 won",
    ]
    last = await seasons.leaderboard(GUILD, "last_month")
    assert "February 2026" in last.reply.text
    assert last.reply.text.splitlines()[1].startswith("1. Al — 3 game points, 1 of 2 won")
    other = await seasons.leaderboard(GUILD + 1, "last_month")
    assert "No games finished" in other.reply.text
    refused = await seasons.leaderboard(GUILD, "next_year")
    assert not refused.ok

    fame = (await seasons.hall_of_fame(GUILD)).reply.text
    lines = fame.splitlines()
    perfect = lines[lines.index("**28s and 29s**") + 1 : lines.index("**Hands of 24 or more**")]
    assert [line.split(" — ")[0] for line in perfect] == ["29", "28"]
    # Its day as each reader's calendar has it (midnight UTC is the 19th in the Americas).
    held = int(datetime(2026, 2, 20, tzinfo=UTC).timestamp())
    assert f"Bea (5H 5C 5D JS + 5S), <t:{held}:d>" in perfect[0]
    assert any(line.startswith("24 — Cy") for line in lines)
    # February's champion; March is not over, so it has none yet.
    crowned = lines.index("**Tournament champions**")
    assert lines[crowned - 1] == "February 2026: Al (3 game points)"
    assert lines[crowned + 1].startswith("None yet")


async def _game(
    store: Store,
    game: int,
    rows: list[tuple[int | None, str, int]],
    *,
    points: int,
    vs_computer: bool = False,
) -> None:
    """A finished game of ``rows`` (user, or None for a computer seat; name; won), each row
    holding the game's ``points`` as the bot writes them, the losers' too."""
    stamp = datetime(2026, 3, 5, tzinfo=UTC).timestamp()
    async with store.db.transaction() as tx:
        await _people(tx, rows[0][0] or 1, *(user for user, _, _ in rows))
        await tx.execute(
            "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
            " target, vs_computer, version, created_at, updated_at)"
            " VALUES (?, ?, ?, 'finished', ?, ?, 121, ?, 9, ?, ?)",
            (game, GUILD, 1000 + game, rows[0][0] or 1, len(rows), int(vs_computer), stamp, stamp),
        )
        for seat, (user, name, won) in enumerate(rows):
            await tx.execute(
                "INSERT INTO results (game_id, guild_id, seat, user_id, display_name,"
                " is_computer, vs_computer, won, game_points, score, final_scores, reason,"
                " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '121-84', 'target', ?)",
                (
                    game,
                    GUILD,
                    seat,
                    user,
                    name,
                    int(user is None),
                    int(vs_computer),
                    won,
                    points,
                    121 if won else 84,
                    stamp,
                ),
            )


async def test_a_months_table_gives_game_points_to_winners_alone(store: Store) -> None:
    """Losers, lurches and skunks, partners and three players: each result row holds its
    game's points, and the month's tables and champion count them for the winners alone."""
    al, bea, cy, dee = (1, "Al"), (2, "Bea"), (3, "Cy"), (4, "Dee")
    # A lurch (2) won by Al over Bea; a skunk (3) won by Bea over Al.
    await _game(store, 1, [(*al, 1), (*bea, 0)], points=2)
    await _game(store, 2, [(*bea, 1), (*al, 0)], points=3)
    # Three players, Cy wins a plain game (1).
    await _game(store, 3, [(*cy, 1), (*al, 0), (*bea, 0)], points=1)
    # Partners: Al and Cy win a lurch against Bea and Dee (2 each to the winners).
    await _game(store, 4, [(*al, 1), (*bea, 0), (*cy, 1), (*dee, 0)], points=2)
    # Against the computer: Dee loses a lurch, Bea wins one.
    await _game(store, 5, [(*dee, 0), (None, "Hard bot", 1)], points=2, vs_computer=True)
    await _game(store, 6, [(*bea, 1), (None, "Easy bot", 0)], points=2, vs_computer=True)
    seasons = Seasons(store, lambda: NOW, Faults(), OpenChannels())

    people = await seasons.leaderboard(GUILD, "this_month")
    assert people.reply.text.splitlines()[2:] == [
        "1. Al — 4 game points, 2 of 4 won",
        "2. Cy — 3 game points, 2 of 2 won",
        "3. Bea — 3 game points, 1 of 4 won",
        "4. Dee — 0 game points, 0 of 1 won",
    ]
    computer = await seasons.leaderboard(GUILD, "this_month", table="computer")
    assert computer.reply.text.splitlines()[2:] == [
        "1. Bea — 2 game points, 1 of 1 won",
        "2. Dee — 0 game points, 0 of 1 won",
    ]
    start, end = month_bounds(NOW)
    month = await store.season_results(Period(GUILD, start.timestamp(), end.timestamp()))
    assert champions(month) == [(datetime(2026, 3, 1, tzinfo=UTC), 1, "Al", 4)]


async def test_a_crowded_month_and_a_long_hall_of_fame_each_fit_one_message(store: Store) -> None:
    """Twenty people with names as long as Discord's, most of them Markdown, in one month, and
    fifty 28s and 29s: the month's table and the hall of fame each fit one message, every
    line whole, with what was left out counted, and every section of the hall of fame there.
    (Both were cut at 2,000 characters mid-line: the hall of fame lost its last sections.)"""
    people = [(100 + n, f"{n:02d}" + "*_" * 15) for n in range(21)]
    for n in range(200):
        # Each of twenty wins ten games this month against the last, for 20 to 30 points.
        at = datetime(2026, 3, 1 + n % 14, tzinfo=UTC)
        await _result(store, 10 + n, at, people[n % 20], people[20], points=2 + n % 2)
    for n in range(50):
        await _result(
            store,
            1000 + n,
            datetime(2026, 2, 1 + n % 27, tzinfo=UTC),
            people[n % 20],
            people[20],
            best=(28 + n % 2, "5H 5C 5D JS + 5S"),
        )
    seasons = Seasons(store, lambda: NOW, Faults(), OpenChannels())

    month = (await seasons.leaderboard(GUILD, "this_month")).reply.text
    lines = month.splitlines()
    assert len(month) <= 2000 and lines[0].startswith("**Leaderboard — March 2026**")
    rows = lines[2:-1]
    assert [row.split(". ", 1)[0] for row in rows] == [str(n) for n in range(1, len(rows) + 1)]
    assert all(row.endswith(" won") for row in rows), "every row whole"
    assert lines[-1] == f"… and {20 - len(rows)} more: too many for one message."

    fame = (await seasons.hall_of_fame(GUILD)).reply.text
    lines = fame.splitlines()
    assert len(fame) <= 2000
    for heading in (
        "**🏛️ Hall of fame**",
        "**28s and 29s**",
        "**Hands of 24 or more**",
        "**Season champions** (most game points in a month: standard cribbage, between people)",
        "**Tournament champions**",
    ):
        assert heading in lines, heading
    perfect = lines[lines.index("**28s and 29s**") + 1 : lines.index("**Hands of 24 or more**")]
    assert perfect[-1].startswith("… and ") and perfect[-1].endswith("too many for one message.")
    assert all(line.split(" — ")[0] in ("28", "29") for line in perfect[:-1])
    assert lines[lines.index("**Tournament champions**") + 1].startswith("None yet")


async def test_every_feature_puts_a_moment_in_the_same_month(store: Store) -> None:
    """The seasons' tables, their champions and the ranked ladder's seasons ask one function
    which month (UTC) a moment is in: 23:30 on 31 March (UTC) is March for each, whatever time
    zone the clock that reads it gives, where a clock two hours ahead made this month April."""
    moment = datetime(2026, 3, 31, 23, 30, tzinfo=UTC)
    march = datetime(2026, 3, 1, tzinfo=UTC)
    ahead = moment.astimezone(timezone(timedelta(hours=2)))
    assert month_bounds(ahead)[0] == month_of(moment.timestamp()) == march
    assert season_of(moment.timestamp()) == "2026-03"
    assert champions([(1, "Al", 1, 2, moment.timestamp())])[0][0] == march
    await _result(store, 1, moment, (1, "Al"), (2, "Bea"))
    board = await Seasons(store, lambda: ahead, Faults(), OpenChannels()).leaderboard(
        GUILD, "this_month"
    )
    assert "March 2026" in board.reply.text and "1. Al — 2 game points" in board.reply.text
    assert doctest.testmod(seasons_module).failed == 0


async def test_last_months_table_and_its_champion_name_the_same_person_alike(
    store: Store,
) -> None:
    """A player who changed their name during the month is named by their latest game in it
    on the month's table as in the hall of fame's champion, where the table took the name
    that came last in the alphabet ("Zed" on the table, "Al" its champion)."""
    await _result(store, 1, datetime(2026, 2, 3, tzinfo=UTC), (1, "Zed"), (2, "Bea"))
    await _result(store, 2, datetime(2026, 2, 9, tzinfo=UTC), (1, "Al"), (2, "Bea"))
    seasons = Seasons(store, lambda: NOW, Faults(), OpenChannels())
    table = (await seasons.leaderboard(GUILD, "last_month")).reply.text.splitlines()
    assert table[1].startswith("1. Al — 4 game points, 2 of 2 won"), table
    fame = (await seasons.hall_of_fame(GUILD)).reply.text.splitlines()
    assert "February 2026: Al (4 game points)" in fame
