"""A second, deliberately plain implementation of cribbage's scoring, to check the engine against.

Written from the rules (docs/variants.md and the rules documents in ../shared/rules/), not from
the engine's code, and slow on purpose: every rule is the sentence a rules book says, counted
the long way, so that each line can be checked by reading it.

- :func:`show` scores a hand of any size with its starter: every subset of two or more cards
  that adds up to fifteen, every pair of cards of one rank, every maximal run (each distinct
  set of cards in sequence that no longer run contains, so a double run counts twice), the
  flush by the size of the hand (all of a hand's cards of one suit score one each, the starter
  one more; a crib's only with the starter, all of them), and nobs.
- :class:`PlayReferee` referees the play for 2 to 6 seats with sides: it is told each seat's
  kept cards, who leads and whether the play goes on until every card is played (the six-card
  game) or stops at the first go or 31 (the two-handed five-card game), then takes the plays
  one by one, refusing those the rules forbid, and says what each scored: fifteen, 31, pairs,
  runs, and the go or last card that ends a series.

The cards are anything with an int ``rank`` (1 ace to 13 king) and a hashable ``suit``: the
engine's :class:`engine.cards.Card`, or this module's :class:`RefCard` for enumerations.
Nothing here reads the engine's pip values or scoring; a card's value is worked out below.

>>> five, jack = RefCard(5, "H"), RefCard(11, "H")
>>> show([RefCard(5, "D"), RefCard(5, "S"), jack, RefCard(5, "C")], five).total
29
>>> show([RefCard(3, "H"), RefCard(4, "H"), RefCard(5, "H")], RefCard(5, "S"))
Show(fifteens=0, pairs=1, runs=(3, 3), flush=3, nobs=0)
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import NamedTuple, Protocol

__all__ = [
    "JACK",
    "RANKS",
    "SUITS",
    "CardLike",
    "IllegalPlay",
    "Peg",
    "PlayMode",
    "PlayOutcome",
    "PlayReferee",
    "RefCard",
    "Show",
    "deck",
    "fifteens",
    "flush_points",
    "maximal_runs",
    "nobs_points",
    "pairs",
    "pip",
    "play_points",
    "rank_points",
    "show",
    "show_score",
]

RANKS = range(1, 14)
SUITS = ("C", "D", "H", "S")
JACK = 11


class CardLike(Protocol):
    """What the reference needs of a card: its rank (1 ace ... 13 king) and its suit."""

    @property
    def rank(self) -> int: ...

    @property
    def suit(self) -> Hashable: ...


class RefCard(NamedTuple):
    """A plain card for enumerations: rank 1 (ace) to 13 (king), suit one of :data:`SUITS`."""

    rank: int
    suit: str


def deck() -> list[RefCard]:
    """The 52 cards."""
    return [RefCard(rank, suit) for suit in SUITS for rank in RANKS]


def pip(rank: int) -> int:
    """A card's value for counts and fifteens: ace 1, two to ten their number, J Q K ten."""
    return min(rank, 10)


# --- the show ---------------------------------------------------------------------------------


def fifteens(ranks: Sequence[int]) -> int:
    """How many different sets of two or more of these cards add up to fifteen (2 points each)."""
    return sum(
        1
        for size in range(2, len(ranks) + 1)
        for chosen in combinations(ranks, size)
        if sum(pip(rank) for rank in chosen) == 15
    )


def pairs(ranks: Sequence[int]) -> int:
    """How many pairs of cards share a rank (2 points each: three of a kind holds 3, four 6)."""
    return sum(1 for a, b in combinations(ranks, 2) if a == b)


def _is_run(ranks: Sequence[int]) -> bool:
    ordered = sorted(ranks)
    return len(ordered) >= 3 and all(b == a + 1 for a, b in pairwise(ordered))


def maximal_runs(ranks: Sequence[int]) -> list[int]:
    """The length of each run that counts: every set of three or more cards in sequence that no
    longer set of cards in sequence contains. 3-4-5-5 holds two (3, 3); 3-4-5-6 one (4), not
    also its runs of three; A-2-3 with 5-6-7 two (3, 3)."""
    positions = range(len(ranks))
    runs = [
        frozenset(chosen)
        for size in range(3, len(ranks) + 1)
        for chosen in combinations(positions, size)
        if _is_run([ranks[i] for i in chosen])
    ]
    return sorted(len(run) for run in runs if not any(run < other for other in runs))


def rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of a hand with its starter: all that ranks alone decide."""
    return 2 * fifteens(ranks) + 2 * pairs(ranks) + sum(maximal_runs(ranks))


def flush_points(hand: Sequence[CardLike], starter: CardLike, *, crib: bool) -> int:
    """A hand all of one suit scores one a card, and one more if the starter matches; a crib
    scores a flush only when the starter matches too (then one a card, starter included)."""
    suits = {card.suit for card in hand}
    if len(suits) != 1:
        return 0
    if starter.suit in suits:
        return len(hand) + 1
    return 0 if crib else len(hand)


def nobs_points(hand: Sequence[CardLike], starter: CardLike) -> int:
    """One for the jack of the starter's suit in the hand (the starter itself is never it)."""
    return 1 if any(card.rank == JACK and card.suit == starter.suit for card in hand) else 0


@dataclass(frozen=True)
class Show:
    """What a hand (or crib) and its starter are worth, item by item."""

    fifteens: int
    pairs: int
    runs: tuple[int, ...]
    flush: int
    nobs: int

    @property
    def total(self) -> int:
        """All the points: 2 a fifteen, 2 a pair, a run its length, the flush and nobs."""
        return 2 * self.fifteens + 2 * self.pairs + sum(self.runs) + self.flush + self.nobs


def show(hand: Sequence[CardLike], starter: CardLike, *, crib: bool = False) -> Show:
    """Score ``hand`` (any number of cards) with ``starter``; ``crib`` for the crib's flush rule."""
    ranks = [card.rank for card in hand] + [starter.rank]
    return Show(
        fifteens=fifteens(ranks),
        pairs=pairs(ranks),
        runs=tuple(maximal_runs(ranks)),
        flush=flush_points(hand, starter, crib=crib),
        nobs=nobs_points(hand, starter),
    )


def show_score(hand: Sequence[CardLike], starter: CardLike, *, crib: bool = False) -> int:
    """The total of :func:`show`."""
    return show(hand, starter, crib=crib).total


# --- the play ---------------------------------------------------------------------------------


def play_points(pile: Sequence[CardLike]) -> list[tuple[str, int]]:
    """What the last card of ``pile`` (the cards played since the count was last reset, in
    order) scores: fifteen 2, thirty-one 2, the same rank as the cards just before it (a pair
    2, three 6, four 12), and the longest run among the latest cards, in any order, with no
    other card among them (its length). The go and the last card are the referee's."""
    count = sum(pip(card.rank) for card in pile)
    points: list[tuple[str, int]] = []
    if count == 15:
        points.append(("fifteen", 2))
    if count == 31:
        points.append(("thirty-one", 2))
    same = 1
    while same < len(pile) and pile[-1 - same].rank == pile[-1].rank:
        same += 1
    if same >= 2:
        # Every pair among the matching cards: 1, 3 or 6 pairs.
        points.append((("pair", "pair royal", "double pair royal")[same - 2], same * (same - 1)))
    for length in range(len(pile), 2, -1):
        latest = [card.rank for card in pile[-length:]]
        if len(set(latest)) == length and _is_run(latest):
            points.append(("run", length))
            break
    return points


class PlayMode(enum.Enum):
    """How long the play lasts."""

    #: Every card is played: after a go or 31 the count starts again (the six-card game and
    #: every game of three or more players).
    ALL_PASSES = "all passes"
    #: One series only: at the first go (nobody can play) or 31 the play ends and the cards
    #: still held are not played (the two-handed five-card game).
    ONE_PASS = "one pass"


class IllegalPlay(Exception):
    """A play the rules forbid; the message says why."""


@dataclass(frozen=True)
class Peg:
    """Points pegged in the play: who, why (fifteen, thirty-one, pair, pair royal, double pair
    royal, run, go, last card) and how many."""

    seat: int
    reason: str
    points: int


@dataclass(frozen=True)
class PlayOutcome:
    """What one accepted card did.

    ``pegs``: the card's own points, then the go or last card if the series ended on it.
    ``passed``: the seats holding cards that could not follow and were passed over (they said
    "go") before ``next_seat`` played, in turn order. ``reset``: the count went back to 0.
    ``next_seat``: whose turn it is now (None when the play is over).
    """

    seat: int
    card: CardLike
    count: int
    pegs: tuple[Peg, ...]
    passed: tuple[int, ...]
    reset: bool
    next_seat: int | None

    @property
    def points(self) -> int:
        """All the points of ``pegs``."""
        return sum(peg.points for peg in self.pegs)


class PlayReferee:
    """The play of one deal, refereed from the rules.

    ``hands``: each seat's kept cards, seats in turn order (the next seat is the one to the
    left). ``leader``: the seat that plays first (left of the dealer). ``sides``: each seat's
    side (partners share one), by default each seat its own. Points go to seats in
    :attr:`points` and to sides in :meth:`side_points`.

    Rules as DESIGN.md section 2 states them: a seat that can play must (the referee refuses a
    card from anyone else); a seat that cannot follow is passed over; when nobody can play, the
    last to have played pegs 1 for the go, or nothing more when the count is exactly 31 (the
    card scored 2 for it). Then, in :attr:`PlayMode.ALL_PASSES`, the count starts again and
    the next seat after the last player who still holds cards leads; the very last card of the
    play pegs 1 (``last card``) unless it made 31. In :attr:`PlayMode.ONE_PASS` the play ends
    there.

    >>> h = lambda *codes: [RefCard(int(c[:-1]), c[-1]) for c in codes]
    >>> ref = PlayReferee([h("10H", "5S"), h("5D", "6C")], leader=0, mode=PlayMode.ALL_PASSES)
    >>> ref.play(0, RefCard(10, "H")).pegs, ref.play(1, RefCard(5, "D")).pegs
    ((), (Peg(seat=1, reason='fifteen', points=2),))
    """

    def __init__(
        self,
        hands: Sequence[Iterable[CardLike]],
        *,
        leader: int,
        mode: PlayMode,
        sides: Sequence[Hashable] | None = None,
    ) -> None:
        if not 2 <= len(hands) <= 6:
            raise ValueError("The play takes 2 to 6 seats.")
        self.hands: list[list[CardLike]] = [list(hand) for hand in hands]
        self.mode = mode
        self.sides: list[Hashable] = list(range(len(hands))) if sides is None else list(sides)
        if len(self.sides) != len(hands):
            raise ValueError("Every seat needs a side.")
        if not 0 <= leader < len(hands):
            raise ValueError("The leader must be one of the seats.")
        self.pile: list[CardLike] = []
        self.played: list[tuple[int, CardLike]] = []
        self.points: list[int] = [0] * len(hands)
        self.turn: int | None = leader if self.hands[leader] else self._next_holding(leader - 1)

    @property
    def count(self) -> int:
        """The count of the series under way."""
        return sum(pip(card.rank) for card in self.pile)

    @property
    def finished(self) -> bool:
        """Whether the play is over."""
        return self.turn is None

    def side_points(self) -> dict[Hashable, int]:
        """The points pegged so far by each side."""
        totals: dict[Hashable, int] = {side: 0 for side in self.sides}
        for seat, points in enumerate(self.points):
            totals[self.sides[seat]] += points
        return totals

    def _fits(self, card: CardLike) -> bool:
        return self.count + pip(card.rank) <= 31

    def _can_play(self, seat: int) -> bool:
        return any(self._fits(card) for card in self.hands[seat])

    def _after(self, seat: int) -> list[int]:
        """Every seat once, in turn order, starting with the one after ``seat``."""
        seats = len(self.hands)
        return [(seat + step) % seats for step in range(1, seats + 1)]

    def _next_holding(self, seat: int) -> int | None:
        return next((s for s in self._after(seat) if self.hands[s]), None)

    def playable(self) -> list[CardLike]:
        """The cards the seat to play may play now (none when the play is over)."""
        if self.turn is None:
            return []
        return [card for card in self.hands[self.turn] if self._fits(card)]

    def why_illegal(self, seat: int, card: CardLike) -> str | None:
        """Why ``seat`` may not play ``card`` now, or None if it may."""
        if self.turn is None:
            return "The play is over."
        if seat != self.turn:
            return f"It is seat {self.turn}'s turn, not seat {seat}'s."
        if card not in self.hands[seat]:
            return f"Seat {seat} does not hold that card."
        if not self._fits(card):
            return f"That card would make the count {self.count + pip(card.rank)}."
        return None

    def play(self, seat: int, card: CardLike) -> PlayOutcome:
        """Play ``card`` from ``seat``; raises :class:`IllegalPlay` if the rules forbid it."""
        reason = self.why_illegal(seat, card)
        if reason is not None:
            raise IllegalPlay(reason)
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.played.append((seat, card))
        count = self.count
        pegs = [Peg(seat, why, points) for why, points in play_points(self.pile)]
        passed: list[int] = []
        next_seat: int | None = None
        if count < 31:
            for other in self._after(seat):
                if self._can_play(other):
                    next_seat = other
                    break
                if self.hands[other] and other != seat:
                    passed.append(other)
        reset = False
        if next_seat is None:
            # Nobody can play: the series ends on this card.
            if count < 31:
                anyone_holds = any(self.hands)
                pegs.append(Peg(seat, "go" if anyone_holds else "last card", 1))
            if self.mode is PlayMode.ALL_PASSES:
                reset = True
                self.pile = []
                next_seat = self._next_holding(seat)
        for peg in pegs:
            self.points[peg.seat] += peg.points
        self.turn = next_seat
        return PlayOutcome(
            seat=seat,
            card=card,
            count=count,
            pegs=tuple(pegs),
            passed=tuple(passed),
            reset=reset,
            next_seat=next_seat,
        )
