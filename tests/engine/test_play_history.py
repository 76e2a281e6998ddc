"""What a seat works out from the play: the order of the cards and the floors its goes set,
checked at every turn of real games against the cards the other seats really hold."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card
from engine.game import Game
from engine.phase import Phase
from engine.players import ClubPlayer
from engine.players.play_history import view_history
from tests.helpers.rigging import NAMES


@pytest.mark.parametrize("players", [2, 3, 4])
def test_floors_never_exclude_a_card_really_held_and_plays_follow_the_log(players: int) -> None:
    club = ClubPlayer()
    rng = random.Random(players)
    checked = 0
    for seed in range(6):
        game, _ = Game.new(NAMES[:players], target=61, rng=random.Random(seed))
        deal_start = 0
        while game.state.phase is not Phase.OVER:
            if game.state.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                game.discard(seat, club.choose_discard(game.view(seat), rng))
                deal_start = len(game.actions)
                continue
            turn = game.state.turn
            assert turn is not None
            seat = turn
            view = game.view(seat)
            history = view_history(view)
            for other in range(players):
                if other != seat:
                    held = game.view(other).hand
                    assert all(card.value >= history.floors[other] for card in held)
            logged = [
                (action["seat"], Card.parse(action["card"]).rank)
                for action in game.actions[deal_start:]
                if action["type"] == "play"
            ]
            assert [(who, rank) for who, rank, _, _ in history.plays] == logged
            checked += 1
            game.play(seat, club.choose_play(view, rng))
    assert checked > 100
