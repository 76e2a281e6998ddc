"""The whole game of cribbage as a state machine, for 2, 3 and 4 players (4 as partners).

A game waits for one of a few actions (:meth:`Game.discard`, :meth:`Game.play`,
:meth:`Game.resign`, and with manual counting :meth:`Game.claim`, :meth:`Game.muggins`,
:meth:`Game.close_muggins` and :meth:`Game.auto_count`). Each is verified before anything
changes, raising a :class:`~engine.errors.RuleError` whose message is a sentence for the
player, and returns the events it caused. Everything that needs no decision happens inside the
action: the starter and his heels once the crib is complete, every "go" in the play, the show
(when counting is automatic), and the next deal.

The table's options are chosen when the game is made: ``scoring`` (game points by the lurch,
the default, or the skunk scale) and ``counting`` (automatic, the default, or manual with
muggins).

>>> import random
>>> game, events = Game.new(["Al", "Bea"], rng=random.Random(7))
>>> [event.kind for event in events]
['cut_for_deal', 'dealt']
>>> game.phase, len(game.hand(0)), game.discard_count
(<Phase.DISCARD: 'discard'>, 6, 2)
>>> for seat in (0, 1):
...     _ = game.discard(seat, game.hand(seat)[:2])
>>> game.phase, game.turn == (game.dealer + 1) % 2, game.starter is not None
(<Phase.PLAY: 'play'>, True, True)
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import rules
from engine.cards import Card, full_deck
from engine.counting import CLAIM_VALUES, Counting, CountTurn, MugginsWindow
from engine.errors import (
    BadClaim,
    BadDiscard,
    BadMuggins,
    CardNotHeld,
    GameFinished,
    IllegalPlay,
    NotAPlayer,
    NotYourTurn,
    WrongPhase,
)
from engine.events import (
    Claimed,
    CountReset,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    GoPoint,
    Heels,
    Mugginsed,
    Played,
    Shown,
    StarterCut,
    event_from_dict,
)
from engine.outcome import TARGETS, EndReason, GameResult, Scoring, make_result
from engine.pegging import score_pegging
from engine.phase import Phase
from engine.rules import GO_POINTS, HEELS_POINTS, JACK, LAST_CARD_POINTS, MAX_COUNT
from engine.scoring import Score, score_hand
from engine.views import PublicView, SeatView

__all__ = ["FORMAT_VERSION", "Counting", "Event", "Game", "GameResult", "Phase", "Scoring"]

#: Version of the dictionary written by :meth:`Game.to_dict`.
FORMAT_VERSION = 1

#: The game-points rule of a saved game that names none: every game saved before the rule
#: became an option was scored on the skunk scale, and keeps it.
SAVED_SCORING = Scoring.SKUNK


# Restoring reads many card codes; a table lookup is much cheaper than Card.parse for each.
_BY_CODE = {card.code: card for card in full_deck()}


def _card(code: str) -> Card:
    card = _BY_CODE.get(code)
    return Card.parse(code) if card is None else card


def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


def _cut_codes(cut: Sequence[Card | None]) -> list[str | None]:
    return [None if card is None else card.code for card in cut]


def _cards(codes: Sequence[str]) -> list[Card]:
    return [_card(code) for code in codes]


def _copy_actions(actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A copy of an action log (entries hold only strings, ints and lists of card codes),
    far cheaper than ``copy.deepcopy``, which serialising after every action would pay for.

    The bot copies the whole log twice per action (the snapshot and the entry it logs), so
    this is on the hot path: a shallow ``dict`` copy, then only list values copied again, is
    1.6x faster than a comprehension testing every value (measured on a 110-entry log).
    """
    copied = []
    for action in actions:
        entry = dict(action)
        for key, value in entry.items():
            if value.__class__ is list:
                entry[key] = value[:]
        copied.append(entry)
    return copied


class Game:
    """One game of cribbage. Create it with :meth:`new`, restore it with :meth:`from_dict`.

    Seats are numbered from 0 in the order the players were given; the deal passes to the left
    (seat + 1). Scores are kept per side: with four players seats 0 and 2 are one side and
    seats 1 and 3 the other (see :meth:`side_of`); otherwise every seat is its own side.
    The random source is kept on the object and never serialised: every shuffle uses it, and
    the shuffled deck is part of the state, so a restored game continues exactly.
    """

    def __init__(
        self,
        players: Sequence[str],
        *,
        target: int,
        rng: random.Random,
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
    ) -> None:
        """An empty table; use :meth:`new` (or :meth:`from_dict`) rather than this."""
        names = tuple(str(p) for p in players)
        if not 2 <= len(names) <= 4:
            raise ValueError("Cribbage is played by 2, 3 or 4 players.")
        if target not in TARGETS:
            raise ValueError("A game is played to 121 or to 61 points.")
        self._players = names
        self._target = target
        self._scoring = Scoring(scoring)
        self._counting = Counting(counting)
        self._rng = rng
        n = len(names)
        self._phase = Phase.DISCARD
        self._dealer = 0
        self._deal_number = 0
        self._scores = [0] * (2 if n == 4 else n)
        self._cut_rounds: list[list[Card | None]] = []
        self._deck: list[Card] = []
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._kept: list[list[Card]] = [[] for _ in range(n)]
        self._discards: list[list[Card]] = [[] for _ in range(n)]
        self._played: list[list[Card]] = [[] for _ in range(n)]
        self._crib: list[Card] = []
        self._starter: Card | None = None
        self._series: list[Card] = []
        self._count = 0
        self._turn: int | None = None
        self._gone: set[int] = set()
        self._result: GameResult | None = None
        self._last_show: list[Shown] = []
        self._last_show_data: list[dict[str, Any]] = []  # the same, as JSON-ready dicts
        # Manual counting: the hands still to claim in show order (seat, crib?), the first
        # being the one the table waits for, and a short claim open to muggins.
        self._to_count: list[tuple[int, bool]] = []
        self._window: MugginsWindow | None = None
        self._actions: list[dict[str, Any]] = []

    # ----------------------------------------------------------------- creating a game

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        target: int = 121,
        rng: random.Random,
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
    ) -> tuple[Game, list[Event]]:
        """Seat ``players`` (display names, 2 to 4), cut for first deal, and deal.

        ``scoring`` is the rule for game points and ``counting`` who counts the show.
        Raises ``ValueError`` for a wrong number of players or a target other than 121 or 61.
        """
        game = cls(players, target=target, rng=rng, scoring=scoring, counting=counting)
        events: list[Event] = [game._cut_for_deal()]
        events.extend(game._deal())
        return game, events

    @classmethod
    def replay(
        cls,
        players: Sequence[str],
        *,
        target: int,
        rng: random.Random,
        actions: Sequence[Mapping[str, Any]],
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
    ) -> Game:
        """A new game with ``rng`` and every action of ``actions`` applied in order.

        Given an rng seeded as the original was (and the same options), this reproduces the
        original state exactly (and each :meth:`apply` returns the same events the original
        action did).
        """
        game, _ = cls.new(players, target=target, rng=rng, scoring=scoring, counting=counting)
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
            return self.discard(seat, _cards(action["cards"]))
        if kind == "play":
            return self.play(seat, _card(action["card"]))
        if kind == "resign":
            return self.resign(seat)
        if kind == "claim":
            return self.claim(seat, action["points"], open_window=bool(action.get("open")))
        if kind == "muggins":
            return self.muggins(seat)
        if kind == "pass_muggins":
            return self.pass_muggins(seat)
        if kind == "close_muggins":
            return self.close_muggins(seat)
        if kind == "auto_count":
            return self.auto_count(seat)
        raise ValueError(f"Unknown action type {kind!r}.")

    # ----------------------------------------------------------------- read-only state

    @property
    def players(self) -> tuple[str, ...]:
        """Display names in seat order."""
        return self._players

    @property
    def target(self) -> int:
        """Points needed to win: 121 or 61."""
        return self._target

    @property
    def scoring(self) -> Scoring:
        """The rule for game points: the lurch or the skunk scale."""
        return self._scoring

    @property
    def counting(self) -> Counting:
        """Who counts the show: the engine, or each hand's owner (with muggins)."""
        return self._counting

    @property
    def phase(self) -> Phase:
        """What the game waits for: discards, a card in the play, a count claimed at the
        show (manual counting), or nothing (over)."""
        return self._phase

    @property
    def dealer(self) -> int:
        """The seat dealing this deal (its crib)."""
        return self._dealer

    @property
    def turn(self) -> int | None:
        """The seat that must play now (or, at a manual show, claim the count of the hand
        in :attr:`count_turn`), or ``None`` when nobody's move is awaited."""
        return self._turn

    @property
    def count_turn(self) -> CountTurn | None:
        """At a manual show, the hand whose claim the table waits for, with its cards."""
        if self._phase is not Phase.SHOW or not self._to_count:
            return None
        seat, crib = self._to_count[0]
        return CountTurn(seat=seat, crib=crib, cards=tuple(self._show_cards(seat, crib)))

    @property
    def muggins_window(self) -> MugginsWindow | None:
        """The claim opponents may still call muggins on, if any (every claim opens one;
        in games logged before that rule, only a short one)."""
        return self._window

    @property
    def num_players(self) -> int:
        """How many seats: 2, 3 or 4."""
        return len(self._players)

    @property
    def num_sides(self) -> int:
        """How many scores are kept: 2 with 2 or 4 players, 3 with 3."""
        return len(self._scores)

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: ``seat % 2`` with four players, else the seat itself."""
        self._check_seat(seat)
        return seat % 2 if self.num_players == 4 else seat

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score."""
        return tuple(self._scores)

    @property
    def count(self) -> int:
        """The running count of the play (0 after a reset)."""
        return self._count

    @property
    def series(self) -> tuple[Card, ...]:
        """The cards played since the count was last reset, in order."""
        return tuple(self._series)

    @property
    def starter(self) -> Card | None:
        """The starter, once cut (``None`` while the crib is being formed)."""
        return self._starter

    @property
    def deal_number(self) -> int:
        """1 for the first deal, then 2, 3, ..."""
        return self._deal_number

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 6 with two players, else 5."""
        return rules.hand_size(self.num_players)

    @property
    def discard_count(self) -> int:
        """Cards each seat puts in the crib: 2 with two players, else 1."""
        return rules.discard_count(self.num_players)

    @property
    def result(self) -> GameResult | None:
        """How the game ended, once it has."""
        return self._result

    @property
    def cut_rounds(self) -> tuple[tuple[Card | None, ...], ...]:
        """The cut for first deal: per round, the card each seat cut (``None`` for a seat
        that did not cut again: only the players tied for lowest re-cut)."""
        return tuple(tuple(r) for r in self._cut_rounds)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """A copy of the action log, JSON-ready.

        Entries look like ``{"type": "discard", "seat": 0, "cards": ["5H", "JD"]}``,
        ``{"type": "play", "seat": 1, "card": "7C"}``, ``{"type": "resign", "seat": 0}``, and
        with manual counting ``{"type": "claim", "seat": 1, "points": 8, "open": True}`` (a
        claim open to muggins whatever it is worth; logged without ``"open"`` before that),
        ``{"type": "muggins", "seat": 0}``, ``{"type": "pass_muggins", "seat": 0}`` (seat 0
        lets the claim stand), ``{"type": "close_muggins", "seat": 1}`` (the
        window on seat 1's claim closed) and ``{"type": "auto_count", "seat": 1}`` (seat 1
        did not claim in time and was counted by the engine).
        """
        return _copy_actions(self._actions)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds. Hidden from the other players!"""
        self._check_seat(seat)
        return tuple(self._hands[seat])

    def pending_discards(self) -> tuple[int, ...]:
        """Seats that still have to put cards in the crib."""
        if self._phase is not Phase.DISCARD:
            return ()
        return tuple(s for s in range(self.num_players) if not self._kept[s])

    def playable_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may legally play now (empty unless it is the seat's turn)."""
        self._check_seat(seat)
        if self._phase is not Phase.PLAY or self._turn != seat:
            return ()
        return tuple(c for c in self._hands[seat] if self._count + c.value <= MAX_COUNT)

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
        return PublicView(**self._public_fields())

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: the public view plus its own cards."""
        self._check_seat(seat)
        return SeatView(
            **self._public_fields(),
            seat=seat,
            hand=tuple(self._hands[seat]),
            kept=tuple(self._kept[seat]),
            discards=tuple(self._discards[seat]),
            playable=self.playable_cards(seat),
        )

    def _public_fields(self) -> dict[str, Any]:
        n = self.num_players
        return {
            "players": self._players,
            "target": self._target,
            "num_sides": self.num_sides,
            "sides": tuple(self.side_of(s) for s in range(n)),
            "scores": tuple(self._scores),
            "dealer": self._dealer,
            "phase": self._phase,
            "turn": self._turn,
            "count": self._count,
            "series": tuple(self._series),
            "played": tuple(tuple(p) for p in self._played),
            "starter": self._starter,
            "hand_sizes": tuple(len(h) for h in self._hands),
            "crib_size": len(self._crib),
            "pending_discards": self.pending_discards(),
            "deal_number": self._deal_number,
            "discard_count": self.discard_count,
            "result": self._result,
            "last_show": tuple(self._last_show),
            "scoring": self._scoring,
            "counting": self._counting,
            "count_turn": self.count_turn,
            "muggins": self._window,
        }

    # ----------------------------------------------------------------- JSON

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data: every hand, the crib, the remaining deck in
        order, the scores, the last show and the action log (not the random source)."""
        return self._state(share=False)

    def card_places(self) -> dict[str, Any]:
        """Where every card is, as :meth:`to_dict` writes it (``deck``, ``hands``, ``kept``,
        ``discards``, ``played``, ``crib`` and ``starter``, as card codes), without the cost of
        copying the action log."""
        return {
            "deck": _codes(self._deck),
            "hands": [_codes(h) for h in self._hands],
            "kept": [_codes(k) for k in self._kept],
            "discards": [_codes(d) for d in self._discards],
            "played": [_codes(p) for p in self._played],
            "crib": _codes(self._crib),
            "starter": None if self._starter is None else self._starter.code,
        }

    def _state(self, *, share: bool) -> dict[str, Any]:
        # With share=True the action log and the last show are the game's own lists: only for
        # to_json, which reads them at once and never hands them out.
        actions = self._actions if share else _copy_actions(self._actions)
        last_show = (
            self._last_show_data if share else [shown.to_dict() for shown in self._last_show]
        )
        data: dict[str, Any] = {
            "version": FORMAT_VERSION,
            "players": list(self._players),
            "target": self._target,
        }
        # The options are written only when they differ from what a game saved before they
        # existed was played with, so those games save back byte for byte.
        if self._scoring != SAVED_SCORING:
            data["scoring"] = self._scoring.value
        if self._counting is Counting.MANUAL:
            data["counting"] = self._counting.value
            data["to_count"] = [[seat, crib] for seat, crib in self._to_count]
            data["muggins"] = None if self._window is None else self._window.to_dict()
        data.update(
            {
                "phase": self._phase.value,
                "dealer": self._dealer,
                "deal_number": self._deal_number,
                "scores": list(self._scores),
                "cut_rounds": [_cut_codes(r) for r in self._cut_rounds],
                **self.card_places(),
                "series": _codes(self._series),
                "count": self._count,
                "turn": self._turn,
                "gone": sorted(self._gone),
                "result": None if self._result is None else self._result.to_dict(),
                "last_show": last_show,
                "actions": actions,
            }
        )
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, rng: random.Random) -> Game:
        """Restore a game written by :meth:`to_dict`; ``rng`` serves the deals still to come.

        Raises ``ValueError`` if the data is not a game this version wrote (an unknown version,
        a missing or malformed field, or cards that are not exactly the 52 of one deck).
        """
        try:
            return cls._restore(data, rng)
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"The saved game is damaged ({error!r}).") from error

    @classmethod
    def _restore(cls, data: Mapping[str, Any], rng: random.Random) -> Game:
        if data.get("version") != FORMAT_VERSION:
            raise ValueError(f"Unknown game format version {data.get('version')!r}.")
        game = cls(
            data["players"],
            target=int(data["target"]),
            rng=rng,
            scoring=Scoring(data.get("scoring", SAVED_SCORING)),
            counting=Counting(data.get("counting", Counting.AUTO)),
        )
        game._phase = Phase(data["phase"])
        game._dealer = int(data["dealer"])
        game._deal_number = int(data["deal_number"])
        game._scores = [int(s) for s in data["scores"]]
        game._cut_rounds = [
            [None if code is None else _card(code) for code in r] for r in data["cut_rounds"]
        ]
        game._deck = _cards(data["deck"])
        game._hands = [_cards(h) for h in data["hands"]]
        game._kept = [_cards(k) for k in data["kept"]]
        game._discards = [_cards(d) for d in data["discards"]]
        game._played = [_cards(p) for p in data["played"]]
        game._crib = _cards(data["crib"])
        game._starter = None if data["starter"] is None else _card(data["starter"])
        game._series = _cards(data["series"])
        game._count = int(data["count"])
        game._turn = None if data["turn"] is None else int(data["turn"])
        game._gone = {int(s) for s in data["gone"]}
        game._result = None if data["result"] is None else GameResult.from_dict(data["result"])
        for item in data["last_show"]:
            shown = event_from_dict(item)
            if not isinstance(shown, Shown):
                raise ValueError("The last show holds something other than shows.")
            game._add_to_last_show(shown)
        if game._counting is Counting.MANUAL:
            game._to_count = [(int(seat), bool(crib)) for seat, crib in data["to_count"]]
            window = data["muggins"]
            game._window = None if window is None else MugginsWindow.from_dict(window)
        game._actions = _copy_actions(data["actions"])
        game._check_cards()
        return game

    def to_json(self) -> str:
        """:meth:`to_dict` as compact JSON text (the same state always gives the same text)."""
        return json.dumps(self._state(share=True), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, *, rng: random.Random) -> Game:
        """Restore a game written by :meth:`to_json`."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("A saved game is a JSON object.")
        return cls.from_dict(data, rng=rng)

    def _check_cards(self) -> None:
        n = self.num_players
        lists = (self._hands, self._kept, self._discards, self._played)
        if any(len(x) != n for x in lists) or len(self._scores) != (2 if n == 4 else n):
            raise ValueError("The saved game does not match its number of players.")
        cards = [*self._deck, *self._crib]
        for seat in range(n):
            cards += self._hands[seat] + self._played[seat]
        if self._starter is not None:
            cards.append(self._starter)
        if len(cards) != 52 or len(set(cards)) != 52:
            raise ValueError("The saved game does not hold exactly the 52 cards of one deck.")

    # ----------------------------------------------------------------- verifying actions

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise NotAPlayer("You are not playing in this game.")

    def _check_not_over(self) -> None:
        if self._phase is Phase.OVER:
            raise GameFinished("The game is over.")

    def verify_discard(self, seat: int, cards: Sequence[Card]) -> None:
        """Raise the :class:`RuleError` that :meth:`discard` would raise, or nothing."""
        self._check_not_over()
        self._check_seat(seat)
        if self._kept[seat] or self._phase is not Phase.DISCARD:
            raise WrongPhase("You have already discarded.")
        seen: set[Card] = set()
        for card in cards:
            if not isinstance(card, Card):
                raise BadDiscard("Name the cards to put in the crib, like 5H JD.")
            if card in seen:
                raise BadDiscard(f"You named {card} twice.")
            seen.add(card)
        need = self.discard_count
        if len(seen) != need:
            noun = "card" if need == 1 else "cards"
            raise BadDiscard(f"You must put {need} {noun} in the crib.")
        for card in cards:
            if card not in self._hands[seat]:
                raise CardNotHeld(f"You don't hold {card}.")

    def verify_play(self, seat: int, card: Card) -> None:
        """Raise the :class:`RuleError` that :meth:`play` would raise, or nothing."""
        self._check_not_over()
        self._check_seat(seat)
        if self._phase is Phase.DISCARD:
            raise WrongPhase("Everyone must discard before the play starts.")
        if self._turn != seat:
            assert self._turn is not None  # the play always has a seat to move
            raise NotYourTurn(f"It's {self._players[self._turn]}'s turn.")
        if not isinstance(card, Card):
            raise CardNotHeld("Name the card to play, like 5H.")
        if card not in self._hands[seat]:
            raise CardNotHeld(f"You don't hold {card}.")
        if self._count + card.value > MAX_COUNT:
            raise IllegalPlay(f"{card} would make the count {self._count + card.value}.")

    def verify_resign(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`resign` would raise, or nothing."""
        self._check_not_over()
        self._check_seat(seat)

    def _check_count_turn(self, seat: int) -> tuple[int, bool]:
        """The hand ``seat`` may count now (manual show, its turn), or the error why not."""
        self._check_not_over()
        self._check_seat(seat)
        if self._phase is not Phase.SHOW:
            raise WrongPhase("There is no hand to count now.")
        if not self._to_count:
            raise WrongPhase("Every hand is counted; the others may still call muggins.")
        if self._turn != seat:
            assert self._turn is not None  # a hand to count always has its owner's turn
            raise NotYourTurn(f"It's {self._players[self._turn]}'s turn to count.")
        return self._to_count[0]

    def verify_claim(self, seat: int, points: int) -> None:
        """Raise the :class:`RuleError` that :meth:`claim` would raise, or nothing.

        A claim over the hand's value is refused with the same sentence whatever the value,
        so a refusal tells the player nothing about what the hand is worth.
        """
        seat, crib = self._check_count_turn(seat)
        if self._window is not None and self._window.holds(seat):
            raise WrongPhase("Wait a moment: the others may still call muggins on your count.")
        if isinstance(points, bool) or not isinstance(points, int) or points not in CLAIM_VALUES:
            raise BadClaim("Claim from 0 to 29 points (no hand scores 19, 25, 26 or 27).")
        if points > self._show_score(seat, crib).total:
            raise BadClaim("That's more than this hand is worth.")

    def verify_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`muggins` would raise, or nothing."""
        self._check_not_over()
        self._check_seat(seat)
        window = self._window
        if window is None:
            raise BadMuggins("There is no count open to muggins now.")
        if self.side_of(seat) == window.side:
            raise BadMuggins("You can't call muggins on your own side.")
        if seat in window.passed:
            raise BadMuggins("You called muggins on this count already.")

    def muggins_missed(self) -> int:
        """The points the claim open to muggins left out (0 when it was right, or none is
        open): what a computer opponent weighs before calling. Never for display: the window
        is open to every claim so that the table cannot tell a short one."""
        window = self._window
        if window is None:
            return 0
        return self._show_score(window.seat, window.crib).total - window.claimed

    def verify_close_muggins(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`close_muggins` would raise, or nothing."""
        self._check_not_over()
        self._check_seat(seat)
        if self._window is None or self._window.seat != seat:
            raise BadMuggins("There is no short count of yours open to muggins.")

    def verify_auto_count(self, seat: int) -> None:
        """Raise the :class:`RuleError` that :meth:`auto_count` would raise, or nothing."""
        self._check_count_turn(seat)

    # ----------------------------------------------------------------- actions

    def discard(self, seat: int, cards: Sequence[Card]) -> list[Event]:
        """Put ``cards`` from ``seat``'s hand in the crib (2 with two players, else 1).

        When the crib is complete the starter is cut (his heels scored) and the play begins.
        """
        cards = tuple(cards)
        self.verify_discard(seat, cards)
        self._actions.append({"type": "discard", "seat": seat, "cards": _codes(cards)})
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
            self._crib.append(card)
            self._discards[seat].append(card)
        self._kept[seat] = list(hand)
        events: list[Event] = [Discarded(seat=seat, count=len(cards))]
        if not self.pending_discards():
            events.extend(self._start_play())
        return events

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` from ``seat``'s hand; score it, then run every automatic step that
        follows (go, the point for the go or the last card, resets, the show, the next deal)."""
        self.verify_play(seat, card)
        self._actions.append({"type": "play", "seat": seat, "card": card.code})
        self._hands[seat].remove(card)
        self._played[seat].append(card)
        self._series.append(card)
        self._count += card.value
        score = score_pegging(self._series)
        side = self.side_of(seat)
        self._scores[side] += score.total
        events: list[Event] = [
            Played(
                seat=seat,
                side=side,
                card=card,
                count=self._count,
                items=score.items,
                points=score.total,
                score=self._scores[side],
            )
        ]
        if self._reached_target(side):
            events.append(self._finish(side, EndReason.TARGET))
            return events
        events.extend(self._after_card(seat))
        return events

    def resign(self, seat: int) -> list[Event]:
        """``seat`` concedes: its side loses, and the best of the other sides wins."""
        self.verify_resign(seat)
        self._actions.append({"type": "resign", "seat": seat})
        loser = self.side_of(seat)
        sides = self.num_sides
        # The leader among the others wins; on a tie, the side nearest the resigner's left.
        others = [(loser + k) % sides for k in range(1, sides)]
        winner = max(others, key=lambda side: (self._scores[side], -others.index(side)))
        return [self._finish(winner, EndReason.RESIGNED)]

    def claim(self, seat: int, points: int, *, open_window: bool = False) -> list[Event]:
        """Manual counting: ``seat`` claims ``points`` for the hand (or crib) it must count.

        A claim over the true value is refused (:class:`BadClaim`, without the value). The
        claim is pegged and stays open to muggins (:meth:`muggins`) until the window closes
        (:meth:`close_muggins`) or the next hand is claimed: with ``open_window`` whatever
        was claimed (so an open window says nothing about the claim), else only when it is
        short (the rule games logged before kept: their claims replay as they were; the
        breakdown of an exact claim then follows at once). A claim from another seat closes
        a window still open, as counting the next hand does at the table.
        """
        self.verify_claim(seat, points)
        action: dict[str, Any] = {"type": "claim", "seat": seat, "points": points}
        if open_window:
            action["open"] = True
        self._actions.append(action)
        events = self._shut_window()
        _, crib = self._to_count.pop(0)
        score = self._show_score(seat, crib)
        side = self.side_of(seat)
        self._scores[side] += points
        events.append(
            Claimed(
                seat=seat,
                side=side,
                crib=crib,
                cards=tuple(self._show_cards(seat, crib)),
                starter=self._the_starter(),
                points=points,
                score=self._scores[side],
            )
        )
        if self._reached_target(side):
            events.append(self._breakdown(seat, crib, score, claimed=points))
            events.append(self._finish(side, EndReason.TARGET))
            return events
        if points < score.total or open_window:
            self._window = MugginsWindow(
                seat=seat, side=side, crib=crib, claimed=points, blind=open_window
            )
            self._turn = self._to_count[0][0] if self._to_count else None
            return events
        events.append(self._breakdown(seat, crib, score, claimed=points))
        events.extend(self._next_count())
        return events

    def muggins(self, seat: int) -> list[Event]:
        """``seat`` calls muggins on the claim open to it. On a short claim its side takes the
        points the claim left out, and the breakdown of that hand follows. On a right claim
        the call costs nothing but the chance: ``seat`` may not call it again (no event; the
        caller alone is told), and once every opponent has called wrongly the window closes."""
        self.verify_muggins(seat)
        self._actions.append({"type": "muggins", "seat": seat})
        window = self._window
        assert window is not None
        score = self._show_score(window.seat, window.crib)
        if score.total == window.claimed:
            return self._passed(seat)
        self._window = None
        side = self.side_of(seat)
        taken = score.total - window.claimed
        self._scores[side] += taken
        events: list[Event] = [
            Mugginsed(
                seat=seat, side=side, owner=window.seat, points=taken, score=self._scores[side]
            ),
            self._breakdown(window.seat, window.crib, score, claimed=window.claimed),
        ]
        if self._reached_target(side):
            events.append(self._finish(side, EndReason.TARGET))
            return events
        if not self._to_count:
            events.extend(self._next_count())
        return events

    def pass_muggins(self, seat: int) -> list[Event]:
        """``seat`` lets the claim open to it stand (no muggins): it may not call it any more,
        and once every opponent has passed (or called wrongly) the window closes and the
        breakdown follows, so the table need not wait out the window."""
        self.verify_muggins(seat)
        self._actions.append({"type": "pass_muggins", "seat": seat})
        return self._passed(seat)

    def _passed(self, seat: int) -> list[Event]:
        """``seat`` has had its chance at the open window: noted, and the window closed once
        no opponent is left to call it."""
        window = self._window
        assert window is not None
        passed = (*window.passed, seat)
        self._window = dataclasses.replace(window, passed=passed)
        opponents = [s for s in range(self.num_players) if self.side_of(s) != window.side]
        if any(s not in passed for s in opponents):
            return []
        closed = self._shut_window()
        if not self._to_count:
            closed.extend(self._next_count())
        return closed

    def close_muggins(self, seat: int) -> list[Event]:
        """The muggins window on ``seat``'s short claim closes with nobody calling it (the
        bot's timer): the breakdown follows, and the show goes on."""
        self.verify_close_muggins(seat)
        self._actions.append({"type": "close_muggins", "seat": seat})
        events = self._shut_window()
        if not self._to_count:
            events.extend(self._next_count())
        return events

    def auto_count(self, seat: int) -> list[Event]:
        """``seat`` did not claim in time: the engine counts its hand (or crib) and pegs the
        full value, with no muggins (a window still open closes first)."""
        self.verify_auto_count(seat)
        self._actions.append({"type": "auto_count", "seat": seat})
        events = self._shut_window()
        _, crib = self._to_count.pop(0)
        shown = self._score_show(seat, crib)
        events.append(shown)
        if self._reached_target(shown.side):
            events.append(self._finish(shown.side, EndReason.TARGET))
            return events
        events.extend(self._next_count())
        return events

    # ----------------------------------------------------------------- what actions set off

    def _cut_for_deal(self) -> CutForDeal:
        """Each seat cuts a card; the lowest rank deals, and on a tie for lowest only the
        tied players cut again (the others sit the round out: ``None`` in its entry)."""
        cutting = list(range(self.num_players))
        while True:
            deck = full_deck()
            self._rng.shuffle(deck)
            cut: list[Card | None] = [None] * self.num_players
            for seat, card in zip(cutting, deck, strict=False):
                cut[seat] = card
            self._cut_rounds.append(cut)
            ranks = {seat: card.rank for seat, card in enumerate(cut) if card is not None}
            low = min(ranks.values())
            cutting = [seat for seat in cutting if ranks[seat] == low]
            if len(cutting) == 1:
                self._dealer = cutting[0]
                return CutForDeal(rounds=self.cut_rounds, dealer=self._dealer)

    def _deal(self) -> list[Event]:
        """Shuffle and deal one card at a time, starting left of the dealer."""
        n = self.num_players
        deck = full_deck()
        self._rng.shuffle(deck)
        size = self.hand_size
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(size * n):
            hands[(self._dealer + 1 + i) % n].append(deck[i])
        self._deck = deck[size * n :]
        self._crib = []
        # Three players: the crib gets the top card of the deck to make four.
        crib_from_deck = n == 3
        if crib_from_deck:
            self._crib.append(self._deck.pop(0))
        self._hands = [sorted(h, key=Card.sort_key) for h in hands]
        self._kept = [[] for _ in range(n)]
        self._discards = [[] for _ in range(n)]
        self._played = [[] for _ in range(n)]
        self._starter = None
        self._series = []
        self._count = 0
        self._turn = None
        self._gone = set()
        self._to_count = []
        self._window = None
        self._deal_number += 1
        self._phase = Phase.DISCARD
        return [
            Dealt(
                dealer=self._dealer,
                deal_number=self._deal_number,
                hand_size=size,
                crib_from_deck=crib_from_deck,
            )
        ]

    def _start_play(self) -> list[Event]:
        """The crib is complete: cut the starter (the top of the shuffled remaining deck)."""
        starter = self._deck.pop(0)
        self._starter = starter
        dealer = self._dealer
        events: list[Event] = [StarterCut(card=starter, dealer=dealer)]
        if starter.rank == JACK:
            side = self.side_of(dealer)
            self._scores[side] += HEELS_POINTS
            events.append(
                Heels(seat=dealer, side=side, points=HEELS_POINTS, score=self._scores[side])
            )
            if self._reached_target(side):
                events.append(self._finish(side, EndReason.TARGET))
                return events
        self._phase = Phase.PLAY
        self._turn = (dealer + 1) % self.num_players
        return events

    def _after_card(self, last: int) -> list[Event]:
        """Decide who moves after ``last`` played: go, go points, resets, or the show."""
        n = self.num_players
        events: list[Event] = []
        if self._count == MAX_COUNT:
            # 31 scored 2 in the play itself; there is no go point after it.
            leader = self._next_holder(last)
            if leader is None:
                return self._show()
            self._reset(leader)
            return [CountReset(next_seat=leader)]
        if not any(self._hands):
            events.extend(self._go_point(last, last_card=True))
            if self._phase is Phase.OVER:
                return events
            return events + self._show()
        for k in range(1, n):
            seat = (last + k) % n
            if not self._hands[seat]:
                continue  # out of cards: skipped without a word
            if self._can_move(seat):
                self._turn = seat
                return events
            if seat not in self._gone:
                self._gone.add(seat)
                events.append(Go(seat=seat))
        if self._can_move(last):
            # Everyone else said go: the last player keeps playing while they can.
            self._turn = last
            return events
        events.extend(self._go_point(last, last_card=False))
        if self._phase is Phase.OVER:
            return events
        leader = self._next_holder(last)
        assert leader is not None  # someone holds cards, or this was the last card
        self._reset(leader)
        events.append(CountReset(next_seat=leader))
        return events

    def _can_move(self, seat: int) -> bool:
        return any(self._count + c.value <= MAX_COUNT for c in self._hands[seat])

    def _next_holder(self, last: int) -> int | None:
        """The first seat after ``last`` (ending with ``last`` itself) still holding cards."""
        n = self.num_players
        for k in range(1, n + 1):
            seat = (last + k) % n
            if self._hands[seat]:
                return seat
        return None

    def _reset(self, leader: int) -> None:
        self._count = 0
        self._series = []
        self._gone = set()
        self._turn = leader

    def _go_point(self, seat: int, *, last_card: bool) -> list[Event]:
        """1 to ``seat`` for the go or the last card, and the end if that reaches the target."""
        side = self.side_of(seat)
        points = LAST_CARD_POINTS if last_card else GO_POINTS
        self._scores[side] += points
        events: list[Event] = [
            GoPoint(
                seat=seat,
                side=side,
                points=points,
                score=self._scores[side],
                last_card=last_card,
            )
        ]
        if self._reached_target(side):
            events.append(self._finish(side, EndReason.TARGET))
        return events

    def _show(self) -> list[Event]:
        """Count every hand from the dealer's left round to the dealer, then the crib; then
        deal again (unless the game ended part-way, which it may before the dealer counts).

        With manual counting nothing is counted here: the show waits for each owner's claim.
        """
        n = self.num_players
        self._turn = None
        self._last_show = []
        self._last_show_data = []
        order = [((self._dealer + k) % n, False) for k in range(1, n + 1)]
        order.append((self._dealer, True))
        if self._counting is Counting.MANUAL:
            self._to_count = order
            self._phase = Phase.SHOW
            self._turn = order[0][0]
            return []
        events: list[Event] = []
        for seat, crib in order:
            shown = self._score_show(seat, crib)
            events.append(shown)
            if self._reached_target(shown.side):
                events.append(self._finish(shown.side, EndReason.TARGET))
                return events
        events.extend(self._deal_next())
        return events

    def _deal_next(self) -> list[Event]:
        self._dealer = (self._dealer + 1) % self.num_players
        return self._deal()

    def _the_starter(self) -> Card:
        assert self._starter is not None  # the show comes after the starter is cut
        return self._starter

    def _show_cards(self, seat: int, crib: bool) -> list[Card]:
        return sorted(self._crib, key=Card.sort_key) if crib else self._kept[seat]

    def _show_score(self, seat: int, crib: bool) -> Score:
        return score_hand(self._show_cards(seat, crib), self._the_starter(), crib=crib)

    def _score_show(self, seat: int, crib: bool) -> Shown:
        """Count one hand (or the crib) and peg its whole value to its side."""
        score = self._show_score(seat, crib)
        self._scores[self.side_of(seat)] += score.total
        return self._breakdown(seat, crib, score, claimed=None)

    def _breakdown(self, seat: int, crib: bool, score: Score, *, claimed: int | None) -> Shown:
        """The :class:`Shown` of one hand, kept as part of the show (``claimed`` when its
        owner claimed it: the claim was pegged already)."""
        side = self.side_of(seat)
        shown = Shown(
            seat=seat,
            side=side,
            crib=crib,
            cards=tuple(self._show_cards(seat, crib)),
            starter=self._the_starter(),
            score=score,
            total=self._scores[side],
            claimed=claimed,
        )
        self._add_to_last_show(shown)
        return shown

    def _shut_window(self) -> list[Event]:
        """Close an open muggins window with nobody calling it: the breakdown of its hand."""
        window = self._window
        if window is None:
            return []
        self._window = None
        score = self._show_score(window.seat, window.crib)
        return [self._breakdown(window.seat, window.crib, score, claimed=window.claimed)]

    def _next_count(self) -> list[Event]:
        """After a hand is settled: the next hand's owner counts, or the next deal."""
        if self._to_count:
            self._turn = self._to_count[0][0]
            return []
        return self._deal_next()

    def _add_to_last_show(self, shown: Shown) -> None:
        self._last_show.append(shown)
        self._last_show_data.append(shown.to_dict())

    def _reached_target(self, side: int) -> bool:
        return self._scores[side] >= self._target

    def _finish(self, winner: int, reason: EndReason) -> GameOver:
        self._result = make_result(self._target, self._scores, winner, reason, self._scoring)
        self._phase = Phase.OVER
        self._turn = None
        return GameOver(result=self._result)
