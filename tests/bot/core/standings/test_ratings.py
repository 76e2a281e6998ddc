"""Ratings: each finished game moves its players' openskill (Plackett–Luce) ratings exactly as
the library does when called directly, in the transaction that records the result; computer
levels are rated apart; cancelled and expired games are not rated; a rebuild from the results
reproduces every stored number; one server never sees another's."""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from bot.core.base.replies import User
from bot.core.base.text import shown
from bot.core.games.records import ResultRecord
from bot.core.services import Services
from bot.core.standings.ratings import COMPUTER_IDS
from bot.core.standings.records import TREND_GAMES
from bot.store import Dialect, Store
from bot.tools import ratings as ratings_cli
from engine.outcome import Scoring
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, GUILD
from tests.helpers.results import finish_game, result_row
from tests.helpers.service_driver import Clock, drive, make_service, open_table

LIBRARY = PlackettLuce()


def _library(
    teams: list[list[tuple[float, float]]], ranks: list[float]
) -> list[list[PlackettLuceRating]]:
    return LIBRARY.rate(
        [[LIBRARY.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams],
        ranks=ranks,
    )


async def _rating(store: Store, user_id: int, *, vs_computer: bool = False) -> tuple[float, float]:
    found = (await store.standing(GUILD, user_id))[vs_computer].standing
    return found.mu, found.sigma


NEW = (LIBRARY.mu, LIBRARY.sigma)


def _scored(*seats: tuple[User, int]) -> list[ResultRecord]:
    """Result rows for people in seat order, with their final scores: 121 won."""
    return [
        result_row(seat, user, won=score == 121, score=score)
        for seat, (user, score) in enumerate(seats)
    ]


async def test_a_two_player_game_rates_both_as_the_library_does(store: Store) -> None:
    await finish_game(store, _scored((AL, 100), (BEA, 121)))
    [[al], [bea]] = _library([[NEW], [NEW]], [2, 1])
    assert await _rating(store, AL.id) == (al.mu, al.sigma)
    assert await _rating(store, BEA.id) == (bea.mu, bea.sigma)
    # The next game starts from those ratings.
    await finish_game(store, _scored((AL, 121), (BEA, 90)))
    [[al2], [bea2]] = _library([[(al.mu, al.sigma)], [(bea.mu, bea.sigma)]], [1, 2])
    assert await _rating(store, AL.id) == (al2.mu, al2.sigma)
    assert await _rating(store, BEA.id) == (bea2.mu, bea2.sigma)
    total, page = await store.ranking(GUILD)
    assert total == 2 and [r.rank for r in page] == [1, 2]
    assert page[0].standing.ordinal >= page[1].standing.ordinal
    # Each player's trend starts from a newcomer's ordinal (fewer than 10 games).
    assert [r.trend_from for r in page] == [0.0, 0.0]


async def test_three_players_are_ranked_winner_first_then_by_score(store: Store) -> None:
    await finish_game(store, _scored((AL, 88), (BEA, 104), (CY, 121)))
    [[al], [bea], [cy]] = _library([[NEW], [NEW], [NEW]], [3, 2, 1])
    assert await _rating(store, AL.id) == (al.mu, al.sigma)
    assert await _rating(store, BEA.id) == (bea.mu, bea.sigma)
    assert await _rating(store, CY.id) == (cy.mu, cy.sigma)
    assert al.mu < bea.mu < cy.mu


async def test_partners_are_rated_as_two_teams(store: Store) -> None:
    # Seats 0 and 2 against 1 and 3; Bea and Dee win.
    await finish_game(store, _scored((AL, 97), (BEA, 121), (CY, 97), (DEE, 121)))
    [[al, cy], [bea, dee]] = _library([[NEW, NEW], [NEW, NEW]], [2, 1])
    for user, expected in ((AL, al), (CY, cy), (BEA, bea), (DEE, dee)):
        assert await _rating(store, user.id) == (expected.mu, expected.sigma)
    rival = await store.rival(GUILD, AL.id, BEA.id)
    assert rival is not None and (rival.games, rival.wins, rival.losses) == (1, 0, 1)
    assert rival.margin == 97 - 121 and rival.points_lost == 1
    # Partners are not each other's opponents.
    assert await store.rival(GUILD, AL.id, CY.id) is None


async def test_computer_levels_are_rated_apart_as_players_of_their_own(store: Store) -> None:
    await finish_game(
        store,
        [
            result_row(0, AL, won=True, score=121),
            result_row(1, None, won=False, score=80, level="hard"),
        ],
    )
    await finish_game(
        store,
        [
            result_row(0, AL, won=False, score=70),
            result_row(1, None, won=True, score=121, level="easy"),
            result_row(2, None, won=False, score=99, level="easy"),
        ],
    )
    found = await store.standing(GUILD, AL.id)
    assert list(found) == [True]  # no row in the people's table
    assert await store.ranking(GUILD) == (0, [])
    total, page = await store.ranking(GUILD, vs_computer=True)
    assert total == 3
    hard = next(r.standing for r in page if r.standing.player_id == COMPUTER_IDS["hard"])
    [[_], [expected]] = _library([[NEW], [NEW]], [1, 2])
    assert (hard.mu, hard.sigma) == (expected.mu, expected.sigma)
    assert hard.name == "Computer (hard)" and hard.games == 1 and hard.is_computer
    easy = next(r.standing for r in page if r.standing.player_id == COMPUTER_IDS["easy"])
    # Seated twice in one game: one game for the level, moved by the mean of its two seats.
    [[al], [_]] = _library([[NEW], [NEW]], [1, 2])
    [[_], [first], [second]] = _library([[(al.mu, al.sigma)], [NEW], [NEW]], [3, 1, 2])
    assert easy.games == 1 and easy.wins == 1
    assert easy.mu == pytest.approx((first.mu + second.mu) / 2)


async def test_resignations_count_and_cancelled_or_expired_games_do_not(
    store: Store, clock: Clock, service: Services
) -> None:
    await open_table(service, [AL, BEA], channel=CHANNEL)
    resigned = await service.moves.resign(CHANNEL, AL)
    assert resigned.ok
    await open_table(service, [AL, CY], channel=CHANNEL + 1)
    assert (await service.lobbies.cancel(CHANNEL + 1, AL, moderator=True)).ok
    await open_table(service, [BEA, CY], channel=CHANNEL + 2)
    clock.advance(days=8)
    assert len(await service.housekeeping.expire_idle()) == 1
    total, page = await store.ranking(GUILD)
    assert total == 2
    assert {r.standing.player_id: (r.standing.games, r.standing.wins) for r in page} == {
        AL.id: (1, 0),
        BEA.id: (1, 1),
    }
    [[al], [_]] = _library([[NEW], [NEW]], [2, 1])
    assert await _rating(store, AL.id) == (al.mu, al.sigma)


async def test_the_rebuild_reproduces_the_stored_numbers(
    store: Store, clock: Clock, tmp_path: Path
) -> None:
    for seed, users in enumerate(
        [(AL, BEA), (BEA, CY), (CY, AL, BEA), (AL, BEA, CY, DEE)], start=40
    ):
        service = make_service(store, clock, seed=seed)
        table = await open_table(service, list(users), channel=CHANNEL + seed)
        await drive(service, table, list(users))
        clock.advance(minutes=30)
    await finish_game(
        store,
        [
            result_row(0, AL, won=True, score=121),
            result_row(1, None, won=False, score=80, level="medium"),
        ],
    )
    stored = await store.stored_ratings()
    assert len(stored.changes) == 2 + 2 + 3 + 4 + 2
    assert stored == await store.replay_ratings()
    # The command agrees, and puts right a number that was changed behind its back.
    where = store.db.location
    assert await ratings_cli.run(where, write=False) == 0
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE standings SET mu = mu + 1 WHERE player_id = ?", (AL.id,))
    assert await ratings_cli.run(where, write=False) == 1
    assert await ratings_cli.run(where, write=True) == 0
    assert await store.stored_ratings() == stored


async def test_results_kept_before_the_ratings_are_rated_when_the_database_is_upgraded(
    tmp_path: Path,
) -> None:
    source = Dialect.SQLITE.migrations_dir
    old = tmp_path / "old"
    old.mkdir()
    for name in ("001_base.sql", "002_user_settings.sql", "003_computer_level.sql"):
        shutil.copy(source / name, old / name)
    path = tmp_path / "upgrade.db"
    await (await Store.open(path, migrations_dir=old)).close()
    with sqlite3.connect(path) as db:
        for game, (finished, winner) in enumerate([(300.0, 2), (200.0, 1)], start=1):
            db.execute(
                "INSERT INTO games (id, guild_id, channel_id, status, creator_id, num_players,"
                " target, created_at, updated_at) VALUES (?, ?, ?, 'finished', 1, 2, 121, 0, 0)",
                (game, GUILD, game),
            )
            for seat, user in enumerate((1, 2)):
                db.execute(
                    "INSERT INTO results (game_id, guild_id, seat, user_id, display_name, won,"
                    " game_points, score, final_scores, reason, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, 1, ?, '121-90', 'target', ?)",
                    (
                        game,
                        GUILD,
                        seat,
                        user,
                        f"P{user}",
                        int(user == winner),
                        121 if user == winner else 90,
                        finished,
                    ),
                )
    store = await Store.open(path)
    try:
        # Game 2 finished first, so it was rated first: P1 won it, then lost game 1.
        [[p1], [p2]] = _library([[NEW], [NEW]], [1, 2])
        [[p1], [p2]] = _library([[(p1.mu, p1.sigma)], [(p2.mu, p2.sigma)]], [2, 1])
        assert await _rating(store, 1) == (p1.mu, p1.sigma)
        assert [at for _, at in await store.rating_history(GUILD, 1)] == [200.0, 300.0]
    finally:
        await store.close()


async def test_one_server_never_sees_another(store: Store) -> None:
    other = GUILD + 1
    await finish_game(store, _scored((AL, 121), (BEA, 60)))
    for _ in range(3):
        await finish_game(store, _scored((AL, 60), (BEA, 121)), guild=other)
    mine = (await store.standing(GUILD, AL.id))[False]
    assert (mine.standing.games, mine.standing.wins, mine.of) == (1, 1, 2)
    theirs = (await store.standing(other, AL.id))[False]
    assert (theirs.standing.games, theirs.standing.wins) == (3, 0)
    rival = await store.rival(GUILD, AL.id, BEA.id)
    assert rival is not None and (rival.games, rival.wins) == (1, 1) and len(rival.recent) == 1
    assert len(await store.rating_history(GUILD, AL.id)) == 1
    assert len(await store.rating_history(other, AL.id)) == 3
    assert await store.ranking(GUILD + 2) == (0, [])
    assert await store.standing(GUILD + 2, AL.id) == {}
    assert await store.rival(GUILD + 2, AL.id, BEA.id) is None
    assert await store.best_hands(GUILD + 2, AL.id) == []


async def test_head_to_head_keeps_the_last_five_newest_first(store: Store) -> None:
    for game in range(7):
        al_won = game % 3 == 0
        lost = 100 + game
        played = _scored((AL, 121), (BEA, lost)) if al_won else _scored((AL, lost), (BEA, 121))
        await finish_game(store, played, now=1000.0 + game)
    rival = await store.rival(GUILD, AL.id, BEA.id)
    assert rival is not None
    assert (rival.games, rival.wins, rival.losses) == (7, 3, 4)
    assert [g.finished_at for g in rival.recent] == [1006.0, 1005.0, 1004.0, 1003.0, 1002.0]
    assert [g.outcome for g in rival.recent] == ["W", "L", "L", "W", "L"]
    back = await store.rival(GUILD, BEA.id, AL.id)
    assert back is not None and (back.wins, back.losses, back.margin) == (4, 3, -rival.margin)


def test_the_shown_rating_is_a_friendly_number_for_the_ordinal() -> None:
    newcomer = LIBRARY.rating()
    assert shown(newcomer.ordinal()) == 1000
    # Twenty a point of ordinal, rounded: 1,000 + 20 x 15.62.
    assert shown(15.62) == 1312


async def test_best_hands_are_the_highest_first(store: Store) -> None:
    rows = _scored((AL, 121), (BEA, 80))
    await finish_game(store, rows)
    await finish_game(store, [replace(rows[0], best_hand=24, best_hand_cards="big"), rows[1]])
    found = await store.best_hands(GUILD, AL.id)
    assert [(points, cards) for points, cards, _ in found] == [(24, "big"), (12, "hand 0")]


async def test_the_trend_is_the_change_over_the_last_trend_games(store: Store) -> None:
    # Three games more than the trend spans: it starts from Al's ordinal after his third.
    al, bea = NEW, NEW
    after: list[tuple[float, float]] = []
    for game in range(TREND_GAMES + 3):
        al_wins = game % 3 != 0
        await finish_game(
            store, _scored((AL, 121), (BEA, 100)) if al_wins else _scored((AL, 95), (BEA, 121))
        )
        [[al_r], [bea_r]] = _library([[al], [bea]], [1, 2] if al_wins else [2, 1])
        al, bea = (al_r.mu, al_r.sigma), (bea_r.mu, bea_r.sigma)
        after.append(al)
    _, page = await store.ranking(GUILD)
    [al_row] = [r for r in page if r.standing.player_id == AL.id]
    mu3, sigma3 = after[2]
    assert al_row.trend_from == pytest.approx(mu3 - 3 * sigma3)
    assert al_row.standing.ordinal == pytest.approx(al[0] - 3 * al[1])


async def test_lurches_and_skunks_are_counted_apart_and_migration_010_splits_old_counts(
    store: Store,
) -> None:
    lurch, skunk = Scoring.LURCH, Scoring.SKUNK
    await finish_game(
        store,
        [
            result_row(0, AL, won=True, score=121, beyond=lurch),
            result_row(1, BEA, won=False, score=50, beyond=lurch),
        ],
    )
    await finish_game(
        store,
        [
            result_row(0, AL, won=False, score=80, beyond=skunk),
            result_row(1, BEA, won=True, score=121, beyond=skunk),
        ],
    )
    await finish_game(
        store,
        [
            result_row(0, AL, won=True, score=121, beyond=lurch),
            result_row(1, None, won=False, score=20, level="medium", beyond=lurch),
        ],
    )
    people = (await store.standing(GUILD, AL.id))[False].standing
    assert (people.lurches_given, people.lurches_taken) == (1, 0)
    assert (people.skunks_given, people.skunks_taken) == (0, 1)
    medium = (await store.standing(GUILD, COMPUTER_IDS["medium"]))[True].standing
    assert (medium.lurches_taken, medium.skunks_taken) == (1, 0)
    stored = await store.stored_ratings()

    # As a database from before 010 kept them: one count for both, no rule on the results.
    async with store.db.transaction() as tx:
        await tx.execute(
            "UPDATE standings SET skunks_given = skunks_given + lurches_given,"
            " skunks_taken = skunks_taken + lurches_taken, lurches_given = 0, lurches_taken = 0"
        )
        await tx.execute("UPDATE results SET scoring = 'skunk'")
    assert await store.stored_ratings() != stored
    # The migration's updates (its columns exist already) give back what the game kept.
    text = (store.db.dialect.migrations_dir / "010_lurches.sql").read_text()
    code = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
    statements = [s.strip() for s in code.split(";") if s.strip()]
    async with store.db.transaction() as tx:
        for statement in statements:
            if not statement.startswith("ALTER"):
                await tx.execute(statement)
    assert await store.stored_ratings() == stored
