"""Resigning asks first: `/cribbage resign` puts a private question with Yes and No, which
changes nothing; Yes resigns (a loss), No plays on. With partners it is the player's alone."""

from __future__ import annotations

import random

import pytest

from bot.core.base.text import Names
from bot.core.base.views import ConfirmControls
from bot.core.games.rules_help import rules_text
from bot.core.messages.table import resign_question
from bot.core.services import Services
from bot.store import Store
from engine.game import Game
from engine.variants import listed, named
from tests.helpers.rigging import set_scores
from tests.helpers.service_driver import AL, BEA, CHANNEL, PLAYERS, open_table, state


async def test_resign_asks_first_and_changes_nothing_until_yes(
    store: Store, service: Services
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    before = await state(store, game_id)
    asked = await service.moves.ask_resign(CHANNEL, BEA)
    assert asked.ok and asked.reply.ephemeral
    view = asked.reply.view
    confirm = view.controls_of(ConfirmControls) if view is not None else None
    assert (
        view is not None
        and confirm is not None
        and confirm.subject == game_id
        and confirm.action == "resign"
    )
    assert "Resign this game?" in view.content and "Al: 0 · Bea: 0" in view.content
    # At 0-0 a resignation is a lurch: the question says what it gives (issue 37).
    assert "Al would win by a lurch, 2 game points" in view.content
    assert await state(store, game_id) == before
    stay = await service.moves.confirm_resign(game_id, BEA, False, guild_id=None)
    assert stay.ok and stay.update is not None and stay.update.content == "You play on."
    assert await state(store, game_id) == before
    # Someone else's click on the question changes nothing either.
    assert not (await service.moves.confirm_resign(game_id, PLAYERS[2], True, guild_id=None)).ok
    gone = await table.record(
        BEA.id, await service.moves.confirm_resign(game_id, BEA, True, guild_id=None)
    )
    assert gone.ok and gone.update is not None and gone.update.controls_of(ConfirmControls) is None
    assert "Bea resigned" in table.messages[(game_id, "result")].view.content
    # Asked again once the game is over: there is nothing to resign.
    assert not (await service.moves.ask_resign(CHANNEL, BEA)).ok


async def test_with_partners_resigning_is_the_player_s_alone(service: Services) -> None:
    await open_table(service, list(PLAYERS))
    asked = await service.moves.ask_resign(CHANNEL, BEA)
    assert asked.ok and "for Bea & Dee" in asked.reply.text
    assert "is the player's alone" in rules_text("scoring")
    # The commands topic says it too, and that resigning is confirmed first.
    commands = rules_text("commands")
    assert (
        "`/cribbage resign` concedes" in commands
        and "confirm" in commands
        and "Yes / No" in commands
    )
    assert "partners" in commands and "concedes for your side" in commands


@pytest.mark.parametrize(
    ("variant", "players"),
    [(v.name, n) for v in listed() for n in v.seats],
)
def test_the_question_names_the_winner_the_engine_gives(variant: str, players: int) -> None:
    # Who wins a resignation is the engine's (engine.outcome.conceded_to), written once: the
    # question draws on it, at every table, the others' best tied so the tie rule matters.
    rules = named(variant).rules(players)
    names = [f"P{seat}" for seat in range(players)]
    for seat in range(players):
        game, _ = Game.new(names, rules=rules, rng=random.Random(seat), dealer=0)
        scores = [30] * rules.num_sides
        scores[rules.side_of(seat)] = 10
        game = set_scores(game, scores, random.Random(0))
        view = game.public_view()
        asked = resign_question(Names.of(view), view, seat)
        game.resign(seat)
        assert game.state.result is not None
        winner = Names.of(view).side(game.state.result.winner)
        assert f"; {winner} would win" in asked, (seat, asked)
