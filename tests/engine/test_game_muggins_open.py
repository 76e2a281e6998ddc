"""Muggins that gives nothing away: with ``open_window`` every claim, right or short, is open
to muggins; a call on a right claim costs the caller the chance and nothing else; claims
logged before (without ``"open"``) replay as they were played."""

from __future__ import annotations

import random

import pytest

from engine.counting import Counting, MugginsWindow
from engine.errors import BadMuggins, WrongPhase
from engine.events import Shown
from engine.game import Game
from engine.phase import Phase
from tests.engine.test_game_counting import DEALER, PONE, manual_show, to_the_show
from tests.helpers.rigging import four_player_game


def test_a_right_claim_opens_the_window_too_and_is_logged_as_open() -> None:
    game, _ = manual_show()
    assert len(game.claim(PONE, 4, open_window=True)) == 1  # worth 4: no breakdown yet
    window = MugginsWindow(seat=PONE, side=PONE, crib=False, claimed=4, blind=True)
    assert game.state.muggins_window == window
    assert game.state.muggins_window == game.public_view().muggins
    assert game.actions[-1] == {"type": "claim", "seat": PONE, "points": 4, "open": True}
    assert game.muggins_missed() == 0


def test_a_wrong_call_costs_only_the_chance_and_closes_when_no_opponent_is_left() -> None:
    game, _ = manual_show()
    game.claim(PONE, 4, open_window=True)
    scores = game.state.scores
    # The dealer, the only opponent, calls wrongly: no points move, the window closes and the
    # breakdown follows, right as claimed.
    [shown] = game.muggins(DEALER)
    assert isinstance(shown, Shown) and shown.claimed == 4 and shown.missed == 0
    assert (
        game.state.scores == scores
        and game.state.muggins_window is None
        and game.state.turn == DEALER
    )


def _four_at_the_show() -> Game:
    game, _ = four_player_game(counting=Counting.MANUAL)
    while game.state.phase is Phase.PLAY:
        assert game.state.turn is not None
        game.play(game.state.turn, game.playable_cards(game.state.turn)[0])
    return game


def test_a_wrong_caller_may_not_call_again_while_the_other_opponent_still_may() -> None:
    probe = _four_at_the_show()
    probe.claim(0, 0, open_window=True)
    value = probe.muggins_missed()  # what seat 0's hand is worth
    game = _four_at_the_show()
    game.claim(0, value, open_window=True)
    scores = game.state.scores
    assert game.muggins(1) == []  # seats 1 and 3 are the opponents
    window = game.state.muggins_window
    assert window is not None and window.passed == (1,)
    with pytest.raises(BadMuggins, match="already"):
        game.muggins(1)
    # Seat 3 may still call; saved and read back, the window remembers who has called.
    again = Game.from_dict(game.to_dict(), rng=random.Random(0))
    assert again.state.muggins_window == window
    [shown] = again.muggins(3)
    assert isinstance(shown, Shown) and again.state.scores == scores
    assert again.state.muggins_window is None


def test_claims_logged_before_replay_as_they_were_played() -> None:
    game, _ = manual_show()
    events = game.claim(PONE, 4)  # no "open" in the log: the breakdown follows at once
    assert len(events) == 2 and game.state.muggins_window is None
    assert game.actions[-1] == {"type": "claim", "seat": PONE, "points": 4}


def test_claims_logged_before_waits_let_the_dealer_count_the_crib_at_once() -> None:
    """Without ``waits`` (games logged before it) the next claim closed a window still open,
    the dealer's crib claim their own hand's: such games replay as they were played."""
    game, _ = manual_show()
    game.claim(PONE, 4, open_window=True)
    game.claim(DEALER, 4, open_window=True)  # closes the pone's window; the dealer's opens
    window = game.state.muggins_window
    assert window is not None and window.seat == DEALER and not window.holds(DEALER, (0, 1))
    turn = game.count_turn
    assert turn is not None and turn.crib and turn.seat == DEALER
    # The crib is claimed at once: the claim closes the window on the dealer's hand.
    game.claim(DEALER, 0, open_window=True)
    window = game.state.muggins_window
    assert window is not None and window.crib


def test_no_muggins_from_every_opponent_closes_the_window() -> None:
    game = _four_at_the_show()
    game.claim(0, 0, open_window=True)
    scores = game.state.scores
    assert game.pass_muggins(1) == []
    with pytest.raises(BadMuggins, match="already"):
        game.muggins(1)
    [shown] = game.pass_muggins(3)
    assert isinstance(shown, Shown) and shown.claimed == 0 and game.state.scores == scores
    assert game.state.muggins_window is None
    replayed = Game.from_dict(game.to_dict(), rng=random.Random(0))
    assert replayed.actions[-2:] == [
        {"type": "pass_muggins", "seat": 1},
        {"type": "pass_muggins", "seat": 3},
    ]


def test_the_dealer_counts_the_crib_once_muggins_on_their_hand_is_settled() -> None:
    """A window that waits keeps its owner from counting the crib while the opponent may
    still call it: the crib's claim cannot close it and take the opponent's chance away. The
    dealer's own claim of their hand, after the pone's, is the only opponent's pass."""
    game, _ = manual_show()
    game.claim(PONE, 4, open_window=True, waits=True)
    assert game.actions[-1] == {
        "type": "claim",
        "seat": PONE,
        "points": 4,
        "open": True,
        "waits": True,
    }
    game.claim(DEALER, 4, open_window=True, waits=True)  # closes the pone's: its side's pass
    window = game.state.muggins_window
    assert window is not None and window.seat == DEALER and window.holds(DEALER, (0, 1))
    with pytest.raises(WrongPhase, match="may still call muggins on your count"):
        game.claim(DEALER, 0, open_window=True, waits=True)
    again = Game.from_dict(game.to_dict(), rng=random.Random(0))
    assert again.state.muggins_window == window  # kept with the game
    [shown] = game.pass_muggins(PONE)
    assert isinstance(shown, Shown) and shown.seat == DEALER and not shown.crib
    turn = game.count_turn
    assert turn is not None and turn.crib and game.state.muggins_window is None
    game.claim(DEALER, 0, open_window=True, waits=True)


def test_with_three_the_next_hand_waits_for_the_other_opponent() -> None:
    """With three players the next owner's claim cannot close the window on the claim before
    while the third player may still call it (it took the dealer's chance away)."""
    game, _ = Game.new(["Al", "Bea", "Cy"], rng=random.Random(7), counting=Counting.MANUAL)
    to_the_show(game)
    first = game.count_turn
    assert first is not None
    second, third = (first.seat + 1) % 3, (first.seat + 2) % 3
    game.claim(first.seat, 0, open_window=True, waits=True)
    with pytest.raises(WrongPhase, match=f"on {game.state.players[first.seat]}'s"):
        game.claim(second, 0, open_window=True, waits=True)
    game.pass_muggins(third)
    window = game.state.muggins_window
    assert window is not None and not window.holds(second, (0, 1, 2))
    game.claim(second, 0, open_window=True, waits=True)  # its own pass, and its claim
    window = game.state.muggins_window
    assert window is not None and window.seat == second
