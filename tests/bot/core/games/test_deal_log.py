"""The deal log kept with a game: the events of the current deal and the one before, where the
pegs stand, and the coach's lines; and the snapshot that stores it."""

from __future__ import annotations

import json
import random

import pytest

from bot.core.games import snapshot
from bot.core.games.deal_log import DealLog
from bot.core.games.tally import Tally
from engine.events import Dealt, GoPoint, Heels, Played, StarterCut
from engine.game import Game


def _game() -> Game:
    return Game.new(["Al", "Bea"], rng=random.Random(8))[0]


def test_a_new_deal_starts_a_new_list_and_only_three_deals_are_kept() -> None:
    log = DealLog.start(2)
    for deal in (1, 2, 3, 4):
        log.add([Dealt(0, deal, 6, False), GoPoint(0, 0, 1, deal, True)])
    assert sorted(log.deals) == [2, 3, 4] and log.deal == 4
    assert isinstance(log.events(4)[0], Dealt) and log.events(1) == []


def test_the_cut_for_deal_is_kept_as_long_as_the_first_deal() -> None:
    # The first deal's table starts with the cut: it must not lose that line when deal 2 comes.
    _, events = Game.new(["Al", "Bea"], rng=random.Random(8))
    log = DealLog.start(2)
    log.add(events)
    log.add([Dealt(1, 2, 6, False)])
    assert sorted(log.deals) == [0, 1, 2] and log.cut() is not None
    log.add([Dealt(0, 3, 6, False)])
    assert sorted(log.deals) == [0, 1, 2, 3] and log.cut() is not None
    log.add([Dealt(1, 4, 6, False)])
    assert sorted(log.deals) == [2, 3, 4] and log.cut() is None
    assert sorted(DealLog.from_dict(log.to_dict()).deals) == [2, 3, 4]


def test_the_pegs_keep_the_score_before_the_last_one() -> None:
    log = DealLog.start(2)
    log.add([Heels(0, 0, 2, 2)])
    card = _game().hand(0)[0]
    log.add([Played(1, 1, card, 15, (), 2, 2), GoPoint(0, 0, 1, 3, False)])
    assert log.pegs == [(3, 2), (2, 0)]
    log.add([StarterCut(card, 0)])  # scores nothing: the pegs stay
    assert log.pegs == [(3, 2), (2, 0)]


def test_the_log_round_trips_through_json() -> None:
    game = _game()
    log = DealLog.start(2)
    log.add([Dealt(0, 1, 6, False), Heels(0, 0, 2, 2)])
    log.set_coach(1, {0: "You kept 5♥ 5♣ J♦ Q♠ — 12.5 expected."})
    again = DealLog.from_dict(json.loads(json.dumps(log.to_dict())))
    assert again == log
    text = snapshot.encode(game, Tally.empty(2), log)
    decoded = snapshot.decode(text, random.Random(0))
    assert decoded.log == log and decoded.game.to_dict() == game.to_dict()


def test_a_snapshot_from_before_the_log_still_loads() -> None:
    game = _game()
    old = json.dumps({"format": 1, "game": game.to_dict(), "tally": Tally.empty(2).to_list()})
    decoded = snapshot.decode(old, random.Random(0))
    assert decoded.log.deals == {} and decoded.log.pegs == [(0, 0), (0, 0)]
    assert decoded.game.to_dict() == game.to_dict()


@pytest.mark.parametrize("text", ['{"format": 99}', "[]", '{"game": {}}'])
def test_a_snapshot_of_another_format_is_refused(text: str) -> None:
    with pytest.raises(snapshot.SnapshotError, match="format"):
        snapshot.decode(text, random.Random(0))
