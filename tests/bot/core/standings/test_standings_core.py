"""Leaderboard and stats after several finished games, including a skunk, checked against
what the games themselves said in the channel."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from bot.core.base.replies import User
from bot.core.base.text import shown
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card, parse_cards
from engine.scoring import score_hand
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD
from tests.helpers.service_driver import Clock, drive, load, make_service, open_table

SHOW = re.compile(r"^(\w+)'s (hand|crib): (.+?) \+ starter (\S+) — ", re.M)


async def _play_games(store: Store, clock: Clock) -> tuple[dict[str, Counter[str]], list[str]]:
    """Four games: three played out between pairs of players, one resigned at once."""
    expected: dict[str, Counter[str]] = defaultdict(Counter)
    channel: list[str] = []
    pairings: list[tuple[User, User]] = [(AL, BEA), (BEA, CY), (AL, CY), (CY, AL)]
    for seed, users in enumerate(pairings, start=30):
        service = make_service(store, clock, seed=seed)
        table = await open_table(service, list(users), channel=CHANNEL + seed)
        if seed == 33:
            # Resigning before a card is played is a loss at 0-0: a lurch (the default rule).
            outcome = await table.record(
                users[0].id, await service.moves.resign(CHANNEL + seed, users[0])
            )
            assert outcome.ok and "a lurch, 2 game points" in table.channel()[-1]
        else:
            await drive(service, table, list(users))
        channel.extend(table.channel())
        game = await load(store, table.outcomes[0].game_id or 0)
        result = game.state.result
        assert result is not None
        loser_score = max(s for i, s in enumerate(result.scores) if i != result.winner)
        for seat, user in enumerate(users):
            won = seat == result.winner
            expected[user.name]["games"] += 1
            expected[user.name]["wins" if won else "losses"] += 1
            if result.kind != "win":
                expected[user.name]["given" if won else "taken"] += 1
            assert loser_score == result.scores[1 - result.winner]
    return expected, channel


async def test_leaderboard_ranks_by_rating(store: Store, clock: Clock) -> None:
    expected, _ = await _play_games(store, clock)
    total, ranked = await store.ranking(GUILD, limit=100)
    rows = [r.standing for r in ranked]
    got = {
        r.name: Counter(
            games=r.games,
            wins=r.wins,
            losses=r.losses,
            given=r.lurches_given,
            taken=r.lurches_taken,
        )
        for r in rows
    }
    # Counters compare missing keys as zero.
    assert got == dict(expected)
    # Every game was by the lurch (the default): none of them counts as a skunk.
    assert sum(r.lurches_given for r in rows) >= 1
    assert sum(r.skunks_given + r.skunks_taken for r in rows) == 0

    service = make_service(store, clock)
    text = (await service.standings.leaderboard(GUILD)).reply.text
    assert total == len(rows)
    ordinals = [r.standing.ordinal for r in ranked]
    assert ordinals == sorted(ordinals, reverse=True)
    table = text.split("```")[1].splitlines()[2:]
    assert [line.split()[1] for line in table] == [r.standing.name for r in ranked]
    for line, r in zip(table, ranked, strict=True):
        s = r.standing
        assert f"{shown(s.ordinal):,}" in line and f" {s.games} " in line
        assert f"{round(100 * s.wins / s.games)}%" in line


async def test_stats_match_the_shows(store: Store, clock: Clock) -> None:
    _, channel = await _play_games(store, clock)
    hand: Counter[str] = Counter()
    crib: Counter[str] = Counter()
    deals: Counter[str] = Counter()
    best: dict[str, int] = defaultdict(int)
    for name, kind, cards, starter in SHOW.findall("\n".join(channel)):
        points = score_hand(parse_cards(cards), Card.parse(starter), crib=kind == "crib")
        if kind == "hand":
            hand[name] += points.total
            deals[name] += 1
            best[name] = max(best[name], points.total)
        else:
            crib[name] += points.total
    found = await store.standing(GUILD, AL.id)
    people = found[False].standing
    assert True not in found  # no games against the computer yet
    assert people.games == 3
    assert (people.hand_points, people.crib_points, people.deals) == (
        hand["Al"],
        crib["Al"],
        deals["Al"],
    )
    assert people.best_hand == best["Al"]
    assert people.best_hand_cards is not None and "+" in people.best_hand_cards

    service = make_service(store, clock)
    text = (await service.standings.stats(GUILD, AL)).reply.text
    assert "Against people: 3 games" in text
    assert f"hand {hand['Al'] / deals['Al']:.1f}" in text
    assert f"Best hands: {best['Al']} (" in text
    assert "Against the computer" not in text


async def test_empty_standings_say_so(service: Services) -> None:
    assert "No games" in (await service.standings.leaderboard(GUILD)).reply.text
    assert "has not finished a game" in (await service.standings.stats(GUILD, AL)).reply.text


async def test_standings_are_per_server(store: Store, clock: Clock) -> None:
    await _play_games(store, clock)
    assert await store.ranking(GUILD + 1) == (0, [])
    assert await store.standing(GUILD + 1, AL.id) == {}
