"""Manual counting through the service: the count menus and the Muggins! button on the hand
messages, /cribbage count, a claim over the value (made once, costing the points over),
refusals that reveal nothing, the clock closing a muggins window and
counting for an idle player, the computer's claims and muggins, and the stats it all leaves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.core.base.replies import Click, TableAsked, User
from bot.core.games.records import GameRecord
from bot.core.review.report import page_view
from bot.core.services import Services
from bot.store import Store
from engine.game import Game
from engine.phase import Phase
from engine.rules import Rules
from engine.scoring import Score, claim_values, score_hand
from engine.speech import say_score
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    first_choice,
    game_owner,
    load,
    make_service,
)

#: What a claim may name in the standard game.
CLAIM_VALUES = claim_values(Rules())

Claim = Callable[[int], int]


def worth(game: Game) -> int:
    """What the hand the table waits on is worth."""
    return score(game).total


def score(game: Game) -> Score:
    """The count of the hand the table waits on, item by item."""
    turn = game.count_turn
    assert turn is not None and game.state.starter is not None
    return score_hand(turn.cards, game.state.starter, crib=turn.crib, rules=game.state.rules)


class Table(Transcript):
    """The transcript, with the store the tests read the game from."""

    store: Store


async def manual_table(
    service: Services,
    store: Store,
    *,
    vs_computer: bool = False,
    level: str = "hard",
    variant: str | None = None,
) -> tuple[Table, int]:
    table = Table(service)
    table.store = store
    if vs_computer:
        opened = await service.lobbies.new_game(
            GUILD,
            CHANNEL,
            AL,
            TableAsked(vs_computer=True, level=level, counting="manual", variant=variant),
        )
        await table.record(AL.id, opened)
    else:
        await table.record(
            AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(counting="manual"))
        )
        await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
        await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    return table, game_id


async def to_the_show(service: Services, table: Table, users: list[User], game_id: int) -> Game:
    """Play with the hand messages' controls until the table waits on a count."""
    by_id = {u.id: u for u in users}
    for _ in range(40):
        game = await load(table.store, game_id)
        if game.state.phase in (Phase.SHOW, Phase.OVER):
            return game
        live = sorted(
            ((uid, c) for uid, c in table.latest.items() if uid in by_id),
            key=lambda item: item[1].kind != "discard",
        )
        uid, controls = live[0]
        outcome = await service.moves.click(first_choice(controls), by_id[uid], guild_id=None)
        assert outcome.ok, outcome.reply.text
        await table.record(uid, outcome)
    raise AssertionError("the show never came")


async def first_count(store: Store, clock: Clock, seed: int = 1) -> tuple[Table, int, Game, User]:
    """Al and Bea's manual game, dealt from ``seed``, played to its first count: the table (its
    ``service`` is the core), the game's id, the game and who must count."""
    table, game_id = await manual_table(make_service(store, clock, seed), store)
    game = await to_the_show(table.service, table, [AL, BEA], game_id)
    turn = game.count_turn
    assert turn is not None
    return table, game_id, game, (AL, BEA)[turn.seat]


async def a_count_worth_something(
    table: Table, people: list[User], game_id: int
) -> tuple[Game, User]:
    """Play on, claiming 0 for hands worth nothing, until the hand to count is worth a point
    or more: the game, and who must count it."""
    for _ in range(12):
        game = await to_the_show(table.service, table, people, game_id)
        turn = game.count_turn
        assert turn is not None
        if worth(game) > 0:
            return game, people[turn.seat]
        await table.record(None, await table.service.moves.count(CHANNEL, people[turn.seat], 0))
    raise AssertionError("no hand worth a point in twelve counts")


async def test_manual_counting_the_hand_message_offers_26_values_in_two_menus(
    store: Store, clock: Clock
) -> None:
    table, game_id, game, counter = await first_count(store, clock)
    controls = table.latest[counter.id]
    assert controls.kind == "count" and controls.claims == CLAIM_VALUES
    assert len(controls.claims) == 26 and not controls.muggins
    view = table.hand(game_id, counter.id)
    assert view is not None and "Count your hand" in view.content
    other = BEA if counter is AL else AL
    assert other.id not in table.latest  # nothing to do for the other player yet
    assert "Waiting for" in table.table(game_id, game.state.deal_number)


async def test_manual_counting_a_claim_over_the_value_is_made_once_and_costs_the_points_over(
    store: Store, clock: Clock
) -> None:
    """A claim over the hand's value is not refused (counting down from 29 found the value
    every time): its owner pegs the value, the opponent the points over, and the next claim of
    the same hand is refused as out of turn."""
    table, game_id, game, counter = await first_count(store, clock)
    service = table.service
    value = worth(game)
    other = BEA if counter is AL else AL
    seat, opponent = (AL, BEA).index(counter), (AL, BEA).index(other)
    before = game.state.scores
    claimed = max(CLAIM_VALUES)
    made = await table.record(counter.id, await service.moves.count(CHANNEL, counter, claimed))
    over = claimed - value
    assert made.ok and made.reply.text == (
        f"You claimed {claimed}, {over} points more than the hand is worth: you peg {value},"
        f" and {other.name} pegs the {over} points over. Its count: {say_score(score(game))}."
    )
    after = await load(store, game_id)
    assert after.state.scores[seat] == before[seat] + value
    assert after.state.scores[opponent] == before[opponent] + over
    said = table.table(game_id, game.state.deal_number)
    assert f"{counter.name} claims {claimed} and pegs the {value} it is worth" in said
    assert f"Too many! {other.name} pegs the {over} points {counter.name} claimed over" in said
    assert f"claimed {over} points over" in said
    again = await service.moves.count(CHANNEL, counter, value)
    assert not again.ok and again.reply.text == f"It's {other.name}'s turn to count."
    assert (await load(store, game_id)).state.scores == after.state.scores


async def test_manual_counting_a_short_claim_is_mugginsed_by_the_opponent(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=3)
    table, game_id = await manual_table(service, store)
    game, owner = await a_count_worth_something(table, [AL, BEA], game_id)
    opponent = BEA if owner is AL else AL
    seat = (AL, BEA).index(owner)
    value = worth(game)
    scores = game.state.scores
    controls = table.latest[owner.id]
    claimed = await service.moves.click(
        Click(game_id, "count", controls.stamp, ("0",)), owner, guild_id=None
    )
    assert claimed.ok, claimed.reply.text
    await table.record(owner.id, claimed)
    muggins = table.latest[opponent.id]
    assert muggins.kind in ("count", "muggins") and (muggins.kind == "muggins" or muggins.muggins)
    hand = table.hand(game_id, opponent.id)
    assert hand is not None and "Muggins!" in hand.content
    took = await service.moves.click(
        Click(game_id, "muggins", muggins.stamp), opponent, guild_id=None
    )
    assert took.ok and took.reply.text == f"Muggins! You take {value} point" + (
        "s." if value != 1 else "."
    )
    await table.record(opponent.id, took)
    game = await load(store, game_id)
    assert game.state.scores[1 - seat] == scores[1 - seat] + value
    assert game.state.scores[seat] == scores[seat]
    text = table.table(game_id, game.state.deal_number)
    assert f"{owner.name} claims 0" in text
    assert f"Muggins! {opponent.name} takes" in text and "missed" in text
    # Pressing again is answered, not applied: the count is settled.
    again = await service.moves.click(
        Click(game_id, "muggins", muggins.stamp), opponent, guild_id=None
    )
    assert not again.ok


async def test_manual_counting_with_three_players_the_first_opponent_to_call_muggins_takes_it(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=5)
    table = Table(service)
    table.store = store
    people = [AL, BEA, CY]
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(players=3, counting="manual")
    )
    await table.record(AL.id, opened)
    for user in people[1:]:
        await table.record(user.id, await service.lobbies.join(CHANNEL, user))
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    game, owner = await a_count_worth_something(table, people, game_id)
    first, second = [p for p in people if p is not owner]
    value, scores = worth(game), game.state.scores
    await table.record(owner.id, await service.moves.count(CHANNEL, owner, 0))
    # Both opponents are offered the call; the first to press it takes the points.
    offered = {p.id: table.latest[p.id] for p in (first, second)}
    for controls in offered.values():
        assert controls.kind == "muggins" or controls.muggins
    took = await service.moves.click(
        Click(game_id, "muggins", offered[second.id].stamp), second, guild_id=None
    )
    assert took.ok, took.reply.text
    await table.record(second.id, took)
    late = await service.moves.click(
        Click(game_id, "muggins", offered[first.id].stamp), first, guild_id=None
    )
    assert not late.ok
    game = await load(store, game_id)
    expected = list(scores)
    expected[people.index(second)] += value
    assert list(game.state.scores) == expected


async def test_manual_counting_the_clock_closes_the_muggins_window(
    store: Store, clock: Clock
) -> None:
    table, game_id, game, owner = await first_count(store, clock, seed=3)
    service = table.service
    value = worth(game)
    await table.record(owner.id, await service.moves.count(CHANNEL, owner, 0))
    game = await load(store, game_id)
    assert (game.state.muggins_window is not None) == (value > 0)
    # The clock's next move: the window closes in 30 s, or (none open) the next hand is
    # counted for its owner after 180 s; the table reminds them after 60.
    due = await service.moves.catch_up(game_id)
    assert due == clock().timestamp() + (30 if value else 180)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    assert value or owing.check_at == clock().timestamp() + 60
    clock.advance(seconds=29)
    await table.settle(game_id)
    assert (await load(store, game_id)).state.muggins_window == game.state.muggins_window
    clock.advance(seconds=2)
    await table.settle(game_id)
    after = await load(store, game_id)
    assert after.state.muggins_window is None
    # The short claim stands: nobody took the points it missed.
    assert after.state.scores == game.state.scores
    if value:
        assert after.actions[-1] == {"type": "close_muggins", "seat": (AL, BEA).index(owner)}
        missed = f"{value} point{'s' if value != 1 else ''} missed"
        assert missed in table.table(game_id, game.state.deal_number)


async def test_manual_counting_an_idle_player_is_counted_for_them(
    store: Store, clock: Clock
) -> None:
    table, game_id, game, owner = await first_count(store, clock)
    seat = (AL, BEA).index(owner)
    value = worth(game)
    scores = game.state.scores
    actions = len(game.actions)
    clock.advance(seconds=179)
    await table.settle(game_id)
    assert len((await load(store, game_id)).actions) == actions
    clock.advance(seconds=2)
    await table.settle(game_id)
    game = await load(store, game_id)
    assert game.actions[actions] == {"type": "auto_count", "seat": seat}
    side = game.side_of(seat)
    assert game.state.scores[side] >= scores[side] + value


async def test_count_is_refused_in_a_game_the_bot_counts(service: Services) -> None:
    table = Transcript(service)
    await table.record(AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL))
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    refused = await service.moves.count(CHANNEL, AL, 4)
    assert not refused.ok and "counting:manual" in refused.reply.text


async def _claim_through(
    service: Services, table: Table, game_id: int, clock: Clock, claim: Claim
) -> Game:
    """Play a game against the computer to the end, Al claiming ``claim(value)``."""
    for _ in range(400):
        game = await to_the_show(service, table, [AL], game_id)
        if game.state.phase is Phase.OVER:
            return game
        turn = game.count_turn
        if turn is None or game.state.muggins_window is not None:
            # Al's own claim is open to muggins (the computer chose not to call it).
            clock.advance(seconds=31)
            await table.settle(game_id)
            continue
        assert turn.seat == 0, "the computer never leaves its count to the clock"
        outcome = await service.moves.count(CHANNEL, AL, claim(worth(game)))
        assert outcome.ok, outcome.reply.text
        await table.record(AL.id, outcome)
    raise AssertionError("the game did not end")


async def test_manual_counting_a_hard_computer_claims_exactly_and_calls_muggins(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=5, computer=True)
    table, game_id = await manual_table(service, store, vs_computer=True, level="hard")
    game = await _claim_through(service, table, game_id, clock, lambda value: value // 2)
    claims = [a for a in game.actions if a["type"] == "claim"]
    muggins = [a for a in game.actions if a["type"] == "muggins"]
    assert claims and muggins and all(a["seat"] == 1 for a in muggins)
    results = {r.seat: r for r in await store.results(game_id)}
    assert results[0].points_missed > 0
    assert results[0].muggins_given == results[1].muggins_taken > 0
    assert results[1].points_missed == 0  # hard counts exactly
    stats = (await service.standings.stats(GUILD, AL)).reply.text
    assert f"{results[0].points_missed} points missed" in stats
    assert f"(muggins, claims over) 0, given away {results[0].muggins_given}" in stats


async def test_a_manual_games_review_says_what_the_claims_came_to(
    store: Store, clock: Clock
) -> None:
    """A claim is no decision the expert judges, but the review's summary says what the
    player's claims missed and gave away, as their stats do (it said nothing of them)."""
    service = make_service(store, clock, seed=5, computer=True)
    table, game_id = await manual_table(service, store, vs_computer=True, level="hard")
    await _claim_through(service, table, game_id, clock, lambda value: value // 2)
    results = {r.seat: r for r in await store.results(game_id)}
    record = await store.get_game(game_id)
    assert record is not None
    summary = page_view(await service.reviews.report(record, 0, AL), 0).content
    assert (
        f"Counting by hand: {results[0].points_missed} points missed; taken from wrong"
        f" counts (muggins, claims over) 0, given away {results[0].muggins_given}."
    ) in summary


async def test_manual_counting_an_easy_computer_misses_points_and_never_calls_muggins(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, seed=8, computer=True)
    table, game_id = await manual_table(service, store, vs_computer=True, level="easy")
    game = await _claim_through(service, table, game_id, clock, lambda value: value)
    assert not [a for a in game.actions if a["type"] == "muggins" and a["seat"] == 1]
    results = {r.seat: r for r in await store.results(game_id)}
    assert results[0].points_missed == 0
    assert results[1].points_missed > 0  # the beginner forgot a fifteen or a nobs


async def test_manual_counting_in_a_variant_is_in_its_line_of_stats(
    store: Store, clock: Clock
) -> None:
    """A variant's games are rated in tables of their own, one line each in /cribbage stats:
    what a player's claims came to there is said in that line, as it is under the standard
    game's totals (it was said nowhere, for a player who counted by hand in variants alone)."""
    service = make_service(store, clock, seed=5, computer=True)
    table, game_id = await manual_table(
        service, store, vs_computer=True, level="hard", variant="five_card"
    )
    await _claim_through(service, table, game_id, clock, lambda value: value // 2)
    results = {r.seat: r for r in await store.results(game_id)}
    assert results[0].points_missed > 0 and results[0].muggins_given > 0
    stats = (await service.standings.stats(GUILD, AL)).reply.text
    [line] = [line for line in stats.splitlines() if "Five-card cribbage" in line]
    assert f"{results[0].points_missed} points missed" in line
    assert f"(muggins, claims over) 0, given away {results[0].muggins_given}." in line


async def test_manual_counting_the_next_hand_waits_while_another_opponent_may_call_muggins(
    store: Store, clock: Clock
) -> None:
    """With three players the next owner's claim closed the window on the claim before, so
    the third player's chance to call muggins went with it. The next hand now waits: its
    owner is offered Muggins! and No muggins, not the count menus, and a typed count is
    refused, until the third player has had their chance (or the window closes)."""
    service = make_service(store, clock, seed=5)
    table = Table(service)
    table.store = store
    people = [AL, BEA, CY]
    await table.record(
        AL.id,
        await service.lobbies.new_game(
            GUILD, CHANNEL, AL, TableAsked(players=3, counting="manual")
        ),
    )
    for user in people[1:]:
        await table.record(user.id, await service.lobbies.join(CHANNEL, user))
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    game = await to_the_show(service, table, people, game_id)
    turn = game.count_turn
    assert turn is not None and game.state.muggins_window is None
    owner, after, last = (people[(turn.seat + k) % 3] for k in range(3))
    await table.record(owner.id, await service.moves.count(CHANNEL, owner, worth(game)))
    waiting = table.latest[after.id]
    assert waiting.kind == "muggins" and not waiting.claims
    hand = table.hand(game_id, after.id)
    assert hand is not None and "(once muggins is settled)" in hand.content
    refused = await service.moves.count(CHANNEL, after, 0)
    assert not refused.ok
    assert refused.reply.text == (
        f"Wait a moment: the others may still call muggins on {owner.name}'s."
    )
    # Its own No muggins is not enough: the third player has not had their chance.
    stamp = table.latest[last.id].stamp
    await table.record(
        after.id, await service.moves.click(Click(game_id, "pass", stamp), after, guild_id=None)
    )
    assert after.id not in table.latest or table.latest[after.id].kind != "count"
    stamp = table.latest[last.id].stamp
    let = await service.moves.click(Click(game_id, "pass", stamp), last, guild_id=None)
    await table.record(last.id, let)
    controls = table.latest[after.id]
    assert controls.kind == "count" and controls.claims == CLAIM_VALUES


async def test_the_clock_and_a_click_take_turns_on_the_games_sequence_reading_nothing(
    store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner's time to count is up as they press a count: the clock's move, asked first,
    is made first, and the press after it, on the game as the clock left it (its control out
    of date); neither reads the game from the store (the clock read it again twice a move,
    under the channel's lock, the game kept in memory all along)."""
    table, game_id, game, owner = await first_count(store, clock)
    service = table.service
    control = table.latest[owner.id]
    reads = store.get_game
    read: list[int] = []

    async def reading(wanted: int) -> GameRecord | None:
        read.append(wanted)
        return await reads(wanted)

    monkeypatch.setattr(store, "get_game", reading)
    clock.advance(seconds=181)
    _, pressed = await asyncio.gather(
        service.moves.catch_up(game_id),
        service.moves.click(Click(game_id, "count", control.stamp, ("0",)), owner, guild_id=None),
    )
    assert read == [], "the game as the move before left it, from memory"
    assert not pressed.ok and "earlier moment of the game" in pressed.reply.text
    after = await load(store, game_id)
    seat = (AL, BEA).index(owner)
    assert after.actions[len(game.actions)] == {"type": "auto_count", "seat": seat}
    assert len(after.actions) == len(game.actions) + 1, "the press made no move"
