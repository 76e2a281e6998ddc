"""The whole game of cribbage as a state machine, played by a rules value (2, 3 and 4
players, 4 as partners, in the standard game).

A game waits for one of a few actions (:meth:`Game.discard`, :meth:`Game.play`,
:meth:`Game.resign`, and with manual counting :meth:`Game.claim`, :meth:`Game.muggins`,
:meth:`Game.close_muggins` and :meth:`Game.auto_count`). Each is verified before anything
changes, raising a :class:`~engine.errors.RuleError` whose message is a sentence for the
player, and returns the events it caused. Everything that needs no decision happens inside the
action: the starter and his heels once the crib is complete, every "go" in the play, the show
(when counting is automatic), and the next deal.

The rules are handed to the game when it is made (:class:`~engine.rules.Rules`: the deal,
the crib, the show, the play, the sides, the target and its scale, the counting) and every
part reads them from it (``game.state.rules``, ``view.rules``). For the standard game the table's
options are enough: the ``target`` (121 or 61), ``scoring`` (game points by the lurch, the
default, or the skunk scale) and ``counting`` (automatic, the default, or manual with
muggins).

:class:`Game` is the one door; behind it the game's state (:mod:`engine.state`) is run by
collaborating parts, one per stage of a deal: :class:`~engine.dealing.Dealing` (the cut, the
deal, the discards and the starter), :class:`~engine.playing.Playing` (the play) and
:class:`~engine.showing.Showing` (the show, automatic or claimed with muggins), and saved and
restored by :mod:`engine.saving`. The state is read from outside as :attr:`Game.state`, read-only
and without a hidden card (:class:`~engine.state.TableState`); what is computed from it (whose
claim a manual show waits for, the seats still to throw, the cards a seat may play) is asked of
the game.

>>> import random
>>> game, events = Game.new(["Al", "Bea"], rng=random.Random(7))
>>> [event.kind for event in events]
['cut_for_deal', 'dealt']
>>> game.state.phase, len(game.hand(0)), game.state.rules.others.to_crib
(<Phase.DISCARD: 'discard'>, 6, 2)
>>> for seat in (0, 1):
...     _ = game.discard(seat, game.hand(seat)[:2])
>>> state = game.state
>>> state.phase, state.turn == (state.dealer + 1) % 2, state.starter is not None
(<Phase.PLAY: 'play'>, True, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import saving
from engine.cards import Card
from engine.counting import Counting, CountTurn
from engine.dealing import Dealing
from engine.errors import (
    CardNotHeld,
    GameFinished,
    IllegalPlay,
    NotAPlayer,
    NotYourTurn,
    WrongPhase,
)
from engine.events import Event
from engine.outcome import GameResult, Scoring
from engine.phase import Phase
from engine.playing import Playing
from engine.rules import Rules
from engine.saving import FORMAT_VERSION, SAVED_SCORING
from engine.showing import Showing
from engine.state import GameState, TableState
from engine.views import PublicView, SeatView, public_fields, seat_fields

__all__ = [
    "FORMAT_VERSION",
    "SAVED_SCORING",
    "Counting",
    "Event",
    "Game",
    "GameResult",
    "Phase",
    "Scoring",
]


class Game:
    """One game of cribbage. Create it with :meth:`new`, restore it with :meth:`from_dict`.

    Seats are numbered from 0 in the order the players were given; the deal passes to the left
    (seat + 1). Scores are kept per side, as the rules make the sides: in the standard game
    with four players seats 0 and 2 are one side and seats 1 and 3 the other (see
    :meth:`side_of`); otherwise every seat is its own side.
    The random source is kept on the object and never serialised: every shuffle uses it, and
    the shuffled deck is part of the state, so a restored game continues exactly.
    """

    def __init__(self, state: GameState) -> None:
        """A game running ``state`` with a fresh set of parts; use :meth:`new` (or
        :meth:`from_dict`) rather than this."""
        self._state = state
        self._dealing = Dealing(state)
        self._showing = Showing(state, self._dealing)
        self._playing = Playing(state, self._showing)

    # ----------------------------------------------------------------- creating a game

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random,
        rules: Rules | None = None,
        target: int | None = None,
        scoring: Scoring | None = None,
        counting: Counting | None = None,
        dealer: int | None = None,
    ) -> tuple[Game, list[Event]]:
        """Seat ``players`` (display names), cut for first deal, peg any points for last,
        and deal. ``dealer``: the seat that deals first without a cut (a following game's:
        the loser of the game before deals first), announced as a cut of no rounds.

        The game is played by ``rules``; or, without them, by the standard game's for the
        players (2 to 4) with the table's options: ``target`` (121, the default, or 61),
        ``scoring`` (the rule for game points) and ``counting`` (who counts the show).
        Raises ``ValueError`` for rules that seat another number of players, for both rules
        and options, or (the standard game) for a wrong number of players or a target other
        than 121 or 61.
        """
        names = tuple(str(p) for p in players)
        game = cls(
            GameState(names, rules=_rules(len(names), rules, target, scoring, counting), rng=rng)
        )
        dealing = game._dealing
        first = dealing.cut_for_deal() if dealer is None else dealing.given_deal(dealer)
        events: list[Event] = [first]
        events.extend(game._dealing.for_last())
        events.extend(game._dealing.deal())
        return game, events

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        *,
        rng: random.Random,
        actions: Sequence[Mapping[str, Any]],
        rules: Rules | None = None,
        target: int | None = None,
        scoring: Scoring | None = None,
        counting: Counting | None = None,
        dealer: int | None = None,
    ) -> Game:
        """A new game with ``rng`` and every action of ``actions`` applied in order.

        Given an rng seeded as the original was (and the same rules, or options, and the
        same first ``dealer`` when the table gave it: ``state.given_dealer``), this
        reproduces the original state exactly (and each :meth:`apply` returns the same events
        the original action did).
        """
        game, _ = cls.new(
            players,
            rng=rng,
            rules=rules,
            target=target,
            scoring=scoring,
            counting=counting,
            dealer=dealer,
        )
        for action in actions:
            game.apply(action)
        return game

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Apply one logged action (an entry of :attr:`actions`) and return its events."""
        kind = action.get("type")
        seat = action.get("seat")
        if not isinstance(seat, int):
            raise ValueError(f"An action needs a seat number, not {seat!r}.")
        if kind == "discard":
            return self.discard(seat, saving.cards(action["cards"]))
        if kind == "play":
            return self.play(seat, Card.parse(action["card"]))
        if kind == "resign":
            return self.resign(seat)
        if kind == "claim":
            return self.claim(
                seat,
                action["points"],
                open_window=bool(action.get("open")),
                waits=bool(action.get("waits")),
            )
        if kind == "muggins":
            return self.muggins(seat)
        if kind == "pass_muggins":
            return self.pass_muggins(seat)
        if kind == "close_muggins":
            return self.close_muggins(seat)
        if kind == "auto_count":
            return self.auto_count(seat)
        raise ValueError(f"Unknown action type {kind!r}.")

    # ----------------------------------------------------------------- reading the game

    @property
    def state(self) -> TableState:
        """The game's state as the whole table may know it, read-only: the seats
        (``players``), the rules (``rules``: the target, the table's options, the sides and
        the deal), ``phase``, ``dealer``, ``turn``, ``scores`` (per side), the play
        (``count``, ``series``, ``played``), ``starter``, ``deal_number``, ``result`` and
        the rest :class:`~engine.state.TableState` lists. No hidden card is there: a seat's
        own are :meth:`hand` and :meth:`view`'s."""
        return self._state

    @property
    def count_turn(self) -> CountTurn | None:
        """At a manual show, the hand whose claim the table waits for, with its cards."""
        return self._showing.count_turn

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (the rules'; ``seat % 2`` with four players in the
        standard game, else the seat itself). Raises :class:`NotAPlayer` for a seat that
        is not at the table."""
        self._state.check_seat(seat)
        return self._state.side_of(seat)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """A copy of the action log, JSON-ready.

        Entries look like ``{"type": "discard", "seat": 0, "cards": ["5H", "JD"]}``,
        ``{"type": "play", "seat": 1, "card": "7C"}``, ``{"type": "resign", "seat": 0}``, and
        with manual counting ``{"type": "claim", "seat": 1, "points": 8, "open": True,
        "waits": True}`` (a claim open to muggins whatever it is worth, whose window the next
        claim waits for; logged without ``"waits"``, or ``"open"``, before those),
        ``{"type": "muggins", "seat": 0}``, ``{"type": "pass_muggins", "seat": 0}`` (seat 0
        lets the claim stand), ``{"type": "close_muggins", "seat": 1}`` (the
        window on seat 1's claim closed) and ``{"type": "auto_count", "seat": 1}`` (seat 1
        did not claim in time and was counted by the engine).
        """
        return saving.copy_actions(self._state.actions)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds. Hidden from the other players!"""
        self._state.check_seat(seat)
        return tuple(self._state.hands[seat])

    def pending_discards(self) -> tuple[int, ...]:
        """Seats that still have to put cards in the crib."""
        return self._dealing.pending_discards()

    def playable_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may legally play now (empty unless it is the seat's turn)."""
        return self._playing.playable_cards(seat)

    def can_play(self, seat: int, card: Card) -> bool:
        """Whether :meth:`play` would accept ``card`` from ``seat`` now."""
        try:
            self.verify_play(seat, card)
        except (GameFinished, NotAPlayer, WrongPhase, NotYourTurn, CardNotHeld, IllegalPlay):
            return False
        return True

    # ----------------------------------------------------------------- views

    def public_view(self) -> PublicView:
        """What everyone at the table may know."""
        return PublicView(**public_fields(self._state, self.pending_discards(), self.count_turn))

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: the public view plus its own cards."""
        self._state.check_seat(seat)
        fields = public_fields(self._state, self.pending_discards(), self.count_turn)
        fields["discard_count"] = self._dealing.discard_count(seat)
        return SeatView(**fields, **seat_fields(self._state, seat, self.playable_cards(seat)))

    # ----------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data: every hand, the crib, the remaining deck in
        order, the scores, the last show and the action log (not the random source)."""
        return saving.save(self._state, share=False)

    def card_places(self) -> dict[str, Any]:
        """Where every card is, as :meth:`to_dict` writes it (``deck``, ``hands``, ``kept``,
        ``discards``, ``played``, ``crib`` and ``starter``, as card codes), without the cost of
        copying the action log."""
        return saving.card_places(self._state)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, rng: random.Random) -> Game:
        """Restore a game written by :meth:`to_dict`; ``rng`` serves the deals still to come.

        Raises ``ValueError`` if the data is not a game this version wrote (an unknown version,
        a missing or malformed field, or cards that are not exactly the 52 of one deck).
        """
        try:
            state = saving.restore(data, rng)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"The saved game is damaged ({error!r}).") from error
        return cls(state)

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text (the same state always gives the same text)."""
        data = saving.save(self._state, share=True)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, *, rng: random.Random) -> Game:
        """Restore a game written by :meth:`to_json`."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("A saved game is a JSON object.")
        return cls.from_dict(data, rng=rng)

    # ----------------------------------------------------------------- verifying actions

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        """Raise the :class:`RuleError` that :meth:`discard` would raise, or nothing."""
        self._dealing.verify_discard(seat, cards)

    def verify_play(self, seat: int, card: Card) -> None:
        """Raise the :class:`RuleError` that :meth:`play` would raise, or nothing."""
        self._playing.verify_play(seat, card)

    def verify_resign(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`resign` would raise, or nothing."""
        self._state.check_not_over()
        self._state.check_seat(seat)

    def verify_claim(self, seat: int, points: int) -> None:
        """Raise the :class:`RuleError` that :meth:`claim` would raise, or nothing.

        Only a value no hand scores is refused (or a claim out of turn): whether a claim is
        over the hand's value is settled by making it, once, so nothing here tells the
        player what the hand is worth.
        """
        self._showing.verify_claim(seat, points)

    def verify_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`muggins` would raise, or nothing."""
        self._showing.verify_muggins(seat)

    def muggins_missed(self) -> int:
        """The points the claim open to muggins left out (0 when it was right, or none is
        open): what a computer opponent weighs before calling. Never for display: the window
        is open to every claim so that the table cannot tell a short one."""
        return self._showing.muggins_missed()

    def verify_close_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`close_muggins` would raise, or nothing."""
        self._showing.verify_close_muggins(seat)

    def verify_auto_count(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`auto_count` would raise, or nothing."""
        self._showing.verify_auto_count(seat)

    # ----------------------------------------------------------------- actions

    def discard(self, seat: int, cards: Sequence[Card]) -> list[Event]:
        """Put ``cards`` from ``seat``'s hand in the crib (as many as the rules say: 2 with two
        players, else 1, in the standard game).

        When the crib is complete the starter is cut (his heels scored) and the play begins.
        """
        cards = tuple(cards)
        self.verify_discard(seat, cards)
        return self._dealing.discard(seat, cards)

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` from ``seat``'s hand; score it, then run every automatic step that
        follows (go, the point for the go or the last card, resets, the show, the next deal)."""
        self.verify_play(seat, card)
        return self._playing.play(seat, card)

    def resign(self, seat: int) -> list[Event]:
        """``seat`` concedes: its side loses, and the best of the other sides wins."""
        self.verify_resign(seat)
        self._state.log({"type": "resign", "seat": seat})
        return [self._state.concede(seat)]

    def claim(
        self, seat: int, points: int, *, open_window: bool = False, waits: bool = False
    ) -> list[Event]:
        """Manual counting: ``seat`` claims ``points`` for the hand (or crib) it must count,
        once: whatever it names, the hand is settled by it.

        A claim over the true value is pegged back to the value and each opposing side pegs
        the points over (:class:`~engine.events.Overclaimed`), the breakdown following at
        once, with no muggins window: the old laws' penalty for scoring more than one is
        entitled to. Any other claim is pegged and stays open to muggins (:meth:`muggins`)
        until the window closes (:meth:`close_muggins`, or every opponent passing) or the
        next hand is claimed: with ``open_window`` whatever was claimed (so the window says
        nothing of the claim), else only when short. With ``waits`` the next hand may be
        claimed only once no opponent of another side than its owner's may still call it
        (:meth:`~engine.counting.MugginsWindow.holds`): that claim is its side's pass. (Games
        logged before either flag replay by the rule they were played by: without ``waits``
        the next claim, whoever's, closes a window still open.)
        """
        self.verify_claim(seat, points)
        return self._showing.claim(seat, points, open_window=open_window, waits=waits)

    def muggins(self, seat: int) -> list[Event]:
        """``seat`` calls muggins on the claim open to it. On a short claim its side takes the
        points the claim left out, and the breakdown of that hand follows. On a right claim
        the call costs nothing but the chance: ``seat`` may not call it again (no event; the
        caller alone is told), and once every opponent has called wrongly the window closes."""
        self.verify_muggins(seat)
        return self._showing.muggins(seat)

    def pass_muggins(self, seat: int) -> list[Event]:
        """``seat`` lets the claim open to it stand (no muggins): it may not call it any more,
        and once every opponent has passed (or called wrongly) the window closes and the
        breakdown follows, so the table need not wait out the window."""
        self.verify_muggins(seat)
        return self._showing.pass_muggins(seat)

    def close_muggins(self, seat: int) -> list[Event]:
        """The muggins window on ``seat``'s short claim closes with nobody calling it (the
        bot's timer): the breakdown follows, and the show goes on."""
        self.verify_close_muggins(seat)
        return self._showing.close_muggins(seat)

    def auto_count(self, seat: int) -> list[Event]:
        """``seat`` did not claim in time: the engine counts its hand (or crib) and pegs the
        full value, with no muggins (a window still open closes first)."""
        self.verify_auto_count(seat)
        return self._showing.auto_count(seat)


def _rules(
    players: int,
    rules: Rules | None,
    target: int | None,
    scoring: Scoring | None,
    counting: Counting | None,
) -> Rules:
    """The rules a new game is played by: ``rules``, or the standard game's for ``players``
    with the table's options."""
    if rules is None:
        return Rules.standard(
            players,
            target=121 if target is None else target,
            scoring=Scoring.LURCH if scoring is None else scoring,
            counting=Counting.AUTO if counting is None else counting,
        )
    if target is not None or scoring is not None or counting is not None:
        raise ValueError("A game takes its rules or the table's options, not both.")
    return rules
