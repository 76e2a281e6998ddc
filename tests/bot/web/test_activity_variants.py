"""The Activity's table for the variants: hands of three to seven cards, up to six seats, the
crib select only for a seat dealt cards for it, and nothing hidden sent to anyone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core.base.replies import TableAsked, User
from bot.core.messages.boards import board_lines
from bot.core.services import Services
from engine.phase import Phase
from engine.variants import named
from tests.helpers.activity_states import activity_state
from tests.helpers.card_leaks import cards_named, revealed_by
from tests.helpers.service_driver import AL, CHANNEL, GUILD


@pytest.mark.parametrize(
    ("variant", "seats", "dealt"),
    [("five_card", 2, 5), ("seven_card", 2, 7), ("five_hand", 5, 4), ("six_hand", 6, 4)],
)
async def test_the_activity_draws_each_variants_hands_and_seats(
    service: Services, variant: str, seats: int, dealt: int
) -> None:
    # Al deals first (seat 0 cuts low or not: either way Al's share is read from his view).
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(variant=variant, vs_computer=True, level="easy")
    )
    assert opened.ok, opened.reply.text
    record = await service.games.record(opened.game_id or 0)
    assert record is not None
    loaded = service.games.loaded.load(record)
    game, view = loaded.game, loaded.game.view(0)
    state = activity_state(record, loaded, AL.id)
    assert len(state["seats"]) == seats
    # The table names what it plays, as the chat's lobby does.
    kind = named(variant)
    assert state["options"]["title"] == kind.title and state["options"]["variant"] == variant
    assert state["options"]["kind"].startswith(f"{kind.title}, {seats} players")
    teams = {"six_hand": "two teams of three"}.get(variant)
    assert state["options"]["teams"] == teams
    assert (teams or "") in state["options"]["kind"]
    assert len(state["sides"]) == len(named(variant).rules(seats).sides)
    assert len(state["hand"]) == len(view.hand) == game.state.rules.dealt(0, game.state.dealer)
    assert len(view.hand) in (dealt, dealt + 1)
    if view.discard_count:
        assert game.state.phase is Phase.DISCARD
        assert state["act"] == {
            "kind": "discard",
            "stamp": state["act"]["stamp"],
            "pick": 2 if seats == 2 else 1,
            "hint": True,  # (Al alone against the computer)
        }
    else:
        # Dealt short (the dealer at five, the dealer or his right at six): no crib to choose.
        assert state.get("act") is None or state["act"]["kind"] == "play"
    # Only Al's own cards and what the table made public (the cut for deal, the starter, the
    # cards played) are named to him: no other hand, nothing of the crib.
    public = game.public_view()
    known = set(view.hand) | set(view.discards) | {c for p in public.played for c in p}
    known |= revealed_by(loaded.log.events(0)) | revealed_by(loaded.log.events(1))
    if public.starter is not None:
        known.add(public.starter)
    named_cards = cards_named(json.dumps(state))
    assert named_cards and named_cards <= known, named_cards - known
    # Chances to win only where their tables hold (the standard two-player game).
    assert state.get("chances") is None


@pytest.mark.parametrize(
    ("variant", "target", "scoring", "lines"),
    [
        ("standard", 121, "lurch", [[61, "lurch"]]),
        ("standard", 121, "skunk", [[91, "skunk"], [61, "double skunk"]]),
        ("five_card", 61, "lurch", [[31, "lurch"]]),
        ("seven_card", 181, "lurch", [[91, "lurch"]]),
        ("five_hand", 61, "skunk", [[31, "skunk"]]),
    ],
)
async def test_the_activitys_board_draws_the_lines_the_games_rules_give(
    service: Services, variant: str, target: int, scoring: str, lines: list[list[Any]]
) -> None:
    """The Activity's board marks the lines the game's rules give, as the chat's board picture
    draws them (:func:`bot.core.messages.boards.board_lines`): a loser short of the hole is
    caught. It worked them out for itself, a lurch's at half the target rounded down (60,
    30, 90: seven-card's loser is lurched under 91) and the skunk scale's at 91 and 61."""
    opened = await service.lobbies.new_game(
        GUILD,
        CHANNEL,
        AL,
        TableAsked(variant=variant, target=target, scoring=scoring, vs_computer=True, level="easy"),
    )
    assert opened.ok, opened.reply.text
    record = await service.games.record(opened.game_id or 0)
    assert record is not None
    state = activity_state(record, service.games.loaded.load(record), AL.id)
    assert state["options"]["lines"] == lines
    assert lines == [[hole, name] for hole, name in board_lines(record.options.rules)]


async def test_the_activity_names_each_side_as_typed(service: Services) -> None:
    # The page sets a side's name as text: a name with backticks is shown as typed (it was
    # given the status board's code-block stand-in, "Al 'the' Great").
    typed = User(AL.id, "Al `the` Great")
    opened = await service.lobbies.new_game(GUILD, CHANNEL, typed, TableAsked(vs_computer=True))
    record = await service.games.record(opened.game_id or 0)
    assert record is not None
    state = activity_state(record, service.games.loaded.load(record), AL.id)
    assert state["sides"][0]["name"] == typed.name, state["sides"]
