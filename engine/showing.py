"""The show: every hand and the crib counted in order, by the engine or, with manual counting,
claimed by each owner with muggins for the others.

A part of :class:`~engine.game.Game` (see :mod:`engine.state`). The show counts in the
rules' order (from the dealer's left round to the dealer, then the crib), each hand by the
rules, and stops the moment a side reaches the target; then the next deal
(:class:`~engine.dealing.Dealing`) is dealt. With manual counting it waits for each owner's
claim instead, one claim a hand: a claim is pegged, and a short one is open to muggins until
the window closes; a claim over the hand's value is pegged back to the value and each
opposing side pegs the points over, as the old laws of the game have it for a player who
scores more than they are entitled to (docs/players.md, "A claim too high").
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypedDict

from engine.cards import Card
from engine.counting import Counting, CountTurn, MugginsWindow
from engine.dealing import Dealing
from engine.errors import BadClaim, BadMuggins, NotYourTurn, WrongPhase
from engine.events import Claimed, Event, Mugginsed, Overclaimed, Shown
from engine.outcome import EndReason
from engine.phase import Phase
from engine.scoring import Score, claim_values, score_hand
from engine.state import GameState

__all__ = ["Showing"]


class _HandShown(TypedDict):
    """The facts of a hand shown, common to its claim and its breakdown."""

    seat: int
    side: int
    crib: bool
    cards: tuple[Card, ...]
    starter: Card


class Showing:
    """The show of one game's ``state``; the next deal follows it (``dealing``)."""

    def __init__(self, state: GameState, dealing: Dealing) -> None:
        self.state = state
        self.dealing = dealing

    # ----------------------------------------------------------------- reading

    @property
    def count_turn(self) -> CountTurn | None:
        """At a manual show, the hand whose claim the table waits for, with its cards."""
        state = self.state
        if state.phase is not Phase.SHOW or not state.to_count:
            return None
        seat, crib = state.to_count[0]
        return CountTurn(seat=seat, crib=crib, cards=tuple(state.show_cards(seat, crib)))

    def muggins_missed(self) -> int:
        """The points the claim open to muggins left out (0 when it was right, or none is
        open)."""
        window = self.state.muggins_window
        if window is None:
            return 0
        return self._show_score(window.seat, window.crib).total - window.claimed

    # ----------------------------------------------------------------- verifying

    def _check_count_turn(self, seat: int) -> tuple[int, bool]:
        """The hand ``seat`` may count now (manual show, its turn), or the error why not."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        if state.phase is not Phase.SHOW:
            raise WrongPhase("There is no hand to count now.")
        if not state.to_count:
            raise WrongPhase("Every hand is counted; the others may still call muggins.")
        if state.turn != seat:
            assert state.turn is not None  # a hand to count always has its owner's turn
            raise NotYourTurn(f"It's {state.players[state.turn]}'s turn to count.")
        return state.to_count[0]

    def verify_claim(self, seat: int, points: int) -> None:
        """Raise the :class:`RuleError` that :meth:`claim` would raise, or nothing."""
        seat, _ = self._check_count_turn(seat)
        state = self.state
        window = state.muggins_window
        sides = [state.side_of(other) for other in range(state.num_players)]
        if window is not None and window.holds(seat, sides):
            whose = "your count" if window.seat == seat else f"{state.players[window.seat]}'s"
            raise WrongPhase(f"Wait a moment: the others may still call muggins on {whose}.")
        values = claim_values(self.state.rules)
        if isinstance(points, bool) or not isinstance(points, int) or points not in values:
            raise BadClaim(_claim_range(values))

    def verify_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`muggins` would raise, or nothing."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        window = state.muggins_window
        if window is None:
            raise BadMuggins("There is no count open to muggins now.")
        if state.side_of(seat) == window.side:
            raise BadMuggins("You can't call muggins on your own side.")
        if seat in window.passed:
            raise BadMuggins("You called muggins on this count already.")

    def verify_close_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`close_muggins` would raise, or nothing."""
        state = self.state
        state.check_not_over()
        state.check_seat(seat)
        if state.muggins_window is None or state.muggins_window.seat != seat:
            raise BadMuggins("There is no short count of yours open to muggins.")

    def verify_auto_count(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`auto_count` would raise, or nothing."""
        self._check_count_turn(seat)

    # ----------------------------------------------------------------- the show

    def start(self) -> list[Event]:
        """Count every hand from the dealer's left round to the dealer, then the crib; then
        deal again (unless the game ended part-way, which it may before the dealer counts).

        With manual counting nothing is counted here: the show waits for each owner's claim.
        """
        state = self.state
        state.turn = None
        state.last_show = ()
        state.last_show_data = []
        order = list(state.rules.show_order(state.dealer))
        if state.rules.counting is Counting.MANUAL:
            state.to_count = order
            state.phase = Phase.SHOW
            state.turn = order[0][0]
            return []
        events: list[Event] = []
        for seat, crib in order:
            shown = self._score_show(seat, crib)
            events.append(shown)
            if state.reached_target(shown.side):
                events.append(state.finish(shown.side, EndReason.TARGET))
                return events
        events.extend(self.dealing.deal_next())
        return events

    # ----------------------------------------------------------------- manual counting

    def claim(self, seat: int, points: int, *, open_window: bool, waits: bool) -> list[Event]:
        """``seat`` claims ``points`` (verified) for the hand it must count (see
        :meth:`engine.game.Game.claim`)."""
        state = self.state
        action: dict[str, Any] = {"type": "claim", "seat": seat, "points": points}
        if open_window:
            action["open"] = True
        if waits:
            action["waits"] = True
        state.log(action)
        events = self._shut_window()
        _, crib = state.to_count.pop(0)
        score = self._show_score(seat, crib)
        side = state.side_of(seat)
        over = max(0, points - score.total)
        total = state.peg(side, points - over)
        events.append(
            Claimed(**self._hand_shown(seat, crib), points=points, score=total, over=over)
        )
        if over:
            return events + self._overclaimed(seat, crib, score, points)
        if state.reached_target(side):
            events.append(self._breakdown(seat, crib, score, claimed=points))
            events.append(state.finish(side, EndReason.TARGET))
            return events
        if points < score.total or open_window:
            state.muggins_window = MugginsWindow(
                seat=seat, side=side, crib=crib, claimed=points, blind=open_window, waits=waits
            )
            state.turn = state.to_count[0][0] if state.to_count else None
            return events
        events.append(self._breakdown(seat, crib, score, claimed=points))
        events.extend(self._next_count())
        return events

    def _overclaimed(self, seat: int, crib: bool, score: Score, claimed: int) -> list[Event]:
        """A claim over its hand's value, pegged back to the value already: each opposing side
        pegs the points over (the first seat of each after the owner's, round the table), the
        breakdown follows and the show goes on. The claim settles the hand: no window opens.
        The owner's side, then each opposing side in that order, may reach the target."""
        state = self.state
        over = claimed - score.total
        owner_side = state.side_of(seat)
        events: list[Event] = []
        winner = owner_side if state.reached_target(owner_side) else None
        takers: dict[int, int] = {}
        for step in range(1, state.num_players):
            other = (seat + step) % state.num_players
            takers.setdefault(state.side_of(other), other)
        takers.pop(owner_side, None)
        for side, taker in takers.items():
            if winner is not None:
                break
            total = state.peg(side, over)
            events.append(Overclaimed(seat=taker, side=side, owner=seat, points=over, score=total))
            if state.reached_target(side):
                winner = side
        events.append(self._breakdown(seat, crib, score, claimed=claimed))
        if winner is not None:
            events.append(state.finish(winner, EndReason.TARGET))
            return events
        events.extend(self._next_count())
        return events

    def muggins(self, seat: int) -> list[Event]:
        """``seat`` calls muggins (verified) on the claim open to it (see
        :meth:`engine.game.Game.muggins`)."""
        state = self.state
        state.log({"type": "muggins", "seat": seat})
        window = state.muggins_window
        assert window is not None
        score = self._show_score(window.seat, window.crib)
        if score.total == window.claimed:
            return self._passed(seat)
        state.muggins_window = None
        side = state.side_of(seat)
        taken = score.total - window.claimed
        total = state.peg(side, taken)
        events: list[Event] = [
            Mugginsed(seat=seat, side=side, owner=window.seat, points=taken, score=total),
            self._breakdown(window.seat, window.crib, score, claimed=window.claimed),
        ]
        if state.reached_target(side):
            events.append(state.finish(side, EndReason.TARGET))
            return events
        if not state.to_count:
            events.extend(self._next_count())
        return events

    def pass_muggins(self, seat: int) -> list[Event]:
        """``seat`` lets the claim open to it stand (verified as for muggins)."""
        self.state.log({"type": "pass_muggins", "seat": seat})
        return self._passed(seat)

    def _passed(self, seat: int) -> list[Event]:
        """``seat`` has had its chance at the open window: noted, and the window closed once
        no opponent is left to call it."""
        state = self.state
        window = state.muggins_window
        assert window is not None
        passed = (*window.passed, seat)
        state.muggins_window = dataclasses.replace(window, passed=passed)
        opponents = [s for s in range(state.num_players) if state.side_of(s) != window.side]
        if any(s not in passed for s in opponents):
            return []
        return self._window_closed()

    def close_muggins(self, seat: int) -> list[Event]:
        """The muggins window on ``seat``'s claim (verified) closes with nobody calling it."""
        self.state.log({"type": "close_muggins", "seat": seat})
        return self._window_closed()

    def auto_count(self, seat: int) -> list[Event]:
        """``seat`` did not claim in time (verified): the engine counts its hand."""
        state = self.state
        state.log({"type": "auto_count", "seat": seat})
        events = self._shut_window()
        _, crib = state.to_count.pop(0)
        shown = self._score_show(seat, crib)
        events.append(shown)
        if state.reached_target(shown.side):
            events.append(state.finish(shown.side, EndReason.TARGET))
            return events
        events.extend(self._next_count())
        return events

    # ----------------------------------------------------------------- counting a hand

    def _show_score(self, seat: int, crib: bool) -> Score:
        state = self.state
        cards = state.show_cards(seat, crib)
        return score_hand(cards, state.the_starter(), crib=crib, rules=state.rules)

    def _score_show(self, seat: int, crib: bool) -> Shown:
        """Count one hand (or the crib) and peg its whole value to its side."""
        score = self._show_score(seat, crib)
        state = self.state
        state.peg(state.side_of(seat), score.total)
        return self._breakdown(seat, crib, score, claimed=None)

    def _breakdown(self, seat: int, crib: bool, score: Score, *, claimed: int | None) -> Shown:
        """The :class:`Shown` of one hand, kept as part of the show (``claimed`` when its
        owner claimed it: the claim was pegged already)."""
        state = self.state
        facts = self._hand_shown(seat, crib)
        shown = Shown(**facts, score=score, total=state.scores[facts["side"]], claimed=claimed)
        state.add_to_last_show(shown)
        return shown

    def _hand_shown(self, seat: int, crib: bool) -> _HandShown:
        """What a claim and a hand's breakdown both say of the hand shown: whose, which side,
        whether the crib, its cards and the starter."""
        state = self.state
        return _HandShown(
            seat=seat,
            side=state.side_of(seat),
            crib=crib,
            cards=tuple(state.show_cards(seat, crib)),
            starter=state.the_starter(),
        )

    def _window_closed(self) -> list[Event]:
        """The open window shut with nobody calling it (:meth:`_shut_window`), and, when every
        hand has been claimed (the last claim's window was all the show waited on), what
        comes next."""
        events = self._shut_window()
        if not self.state.to_count:
            events.extend(self._next_count())
        return events

    def _shut_window(self) -> list[Event]:
        """Close an open muggins window with nobody calling it: the breakdown of its hand."""
        state = self.state
        window = state.muggins_window
        if window is None:
            return []
        state.muggins_window = None
        score = self._show_score(window.seat, window.crib)
        return [self._breakdown(window.seat, window.crib, score, claimed=window.claimed)]

    def _next_count(self) -> list[Event]:
        """After a hand is settled: the next hand's owner counts, or the next deal."""
        state = self.state
        if state.to_count:
            state.turn = state.to_count[0][0]
            return []
        return self.dealing.deal_next()


def _claim_range(values: tuple[int, ...]) -> str:
    """What a claim may be: "Claim from 0 to 29 points (no hand scores 19, 25, 26 or 27)."."""
    missing = [str(v) for v in range(values[-1]) if v not in values]
    said = f"Claim from 0 to {values[-1]} points"
    if not missing:
        return said + "."
    listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " or " + missing[-1]
    return f"{said} (no hand scores {listed})."
