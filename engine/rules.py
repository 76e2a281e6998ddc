"""The rules of one game of cribbage, as one frozen value the game is handed.

:class:`Rules` says everything a variant may change: how many cards each seat is dealt and
throws to the crib (the dealer's :class:`Share` may differ from the others', and each seat's
may depend on its place from the dealer's left), how many cards come from the pack to make
the crib up to its size, how many cards each keeps for the show (and so the flush rules),
the target and the scale of game points derived from it, the points for last at the start
of the game, how the play ends (:class:`PlayEnd`), who partners whom and in what order seats
lead and count, and what each combination scores (:class:`Points`). A game reads it as
``game.state.rules``, a seat's view as ``view.rules``; the deal, the play, the show, the computer
players and the bot read the rules from there and from nowhere else (a test keeps it so). It
is saved with a game only when it is not the standard game for the game's players, target
and options, so games saved before it existed load, and save back, unchanged. The named
variants a table may choose (:mod:`engine.variants`) are values of it too.

Today's games are values of it, made by :meth:`Rules.standard`; a variant is another value,
as pokerkit's games are values of its state's parameters and python-chess's variants are
boards with other class attributes. The standard game, as the rules documents give it: two
players 6 cards each, 2 to the crib; three players 5 each, 1 to the crib and 1 from the pack;
four players 5 each, 1 to the crib, partners sitting opposite.

>>> rules = Rules.standard(3, target=61)
>>> rules.dealt(seat=0, dealer=1), rules.to_crib(seat=0, dealer=1), rules.crib_from_pack
(5, 1, 1)
>>> rules.kept, rules.lurch_line, Rules.standard(4).sides
(4, 31, ((0, 2), (1, 3)))
>>> Rules.standard().game_points(60), Rules.standard(scoring=Scoring.SKUNK).game_points(60)
((2, <ResultKind.LURCH: 'lurch'>), (3, <ResultKind.DOUBLE_SKUNK: 'double_skunk'>))
>>> five_card = Rules(dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3,
...                   play_end=PlayEnd.FIRST_GO)
>>> five_card.kept, five_card.flush_points(crib=False, starter_matches=True)
(3, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar

from engine.counting import Counting
from engine.outcome import EndReason, GameResult, ResultKind, Scoring

__all__ = ["PlayEnd", "Points", "Rules", "Share"]


class PlayEnd(StrEnum):
    """How the play ends. Members equal their values, which is what saved rules hold.

    ``ALL_CARDS`` (the standard play): after a go or 31 the count starts again, until every
    card is played. ``FIRST_GO`` (one pass to 31, as two-handed five-card cribbage plays it):
    the play ends at the first go or 31; cards still held are not played.
    """

    ALL_CARDS = "all_cards"
    FIRST_GO = "first_go"


@dataclass(frozen=True, slots=True)
class Points:
    """What each combination scores, in the show and in the play (the same in every variant
    the books give; a value so that every part reads it from the rules).

    ``fifteen`` is the sum that scores ``fifteen_points``; the count may never pass
    ``max_count``, and reaching it scores ``thirty_one_points``; ``sets[n]`` is what n cards
    of one rank score (a pair 2, a pair royal 6, a double pair royal 12); a run of at least
    ``min_run`` cards scores a point a card; each card of a flush scores ``flush_card``; the
    jack of the starter's suit scores ``nobs`` (the starter a jack, ``heels`` to the dealer);
    the go and the last card of the play score ``go`` and ``last_card``.
    """

    fifteen: int = 15
    fifteen_points: int = 2
    max_count: int = 31
    thirty_one_points: int = 2
    sets: tuple[int, ...] = (0, 0, 2, 6, 12)
    min_run: int = 3
    flush_card: int = 1
    nobs: int = 1
    heels: int = 2
    go: int = 1
    last_card: int = 1
    #: The hash, worked out once: the fast players look their tables up by the points.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(_fields(self)))
        if len(self.sets) != 5 or self.sets[:2] != (0, 0):
            raise ValueError("Sets score by the number of cards of a rank, 0 to 4.")
        if not 2 <= self.min_run <= 13 or self.fifteen < 1 or self.max_count < 1:
            raise ValueError("A run, a fifteen and the count need sensible sizes.")

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled (to the computer's worker process) as a call of the constructor, so that
        # the hash, which strings and enums make differ from process to process, is worked
        # out again where the value lands.
        return self.__class__, _fields(self, init=True)


@dataclass(frozen=True, slots=True)
class Share:
    """What one seat is dealt (``dealt`` cards) and throws to the crib (``to_crib``)."""

    dealt: int
    to_crib: int

    def __post_init__(self) -> None:
        if not 0 <= self.to_crib <= self.dealt:
            raise ValueError("A seat throws to the crib at most the cards it is dealt.")

    @property
    def kept(self) -> int:
        """The cards the seat keeps for the play and the show."""
        return self.dealt - self.to_crib


def _fields(value: Any, *, init: bool = False) -> tuple[Any, ...]:
    """The compared fields of a dataclass value, in order (what its hash is made of); with
    ``init``, the constructor's."""
    return tuple(getattr(value, f.name) for f in fields(value) if (f.init if init else f.compare))


def _alone(seats: int) -> tuple[tuple[int, ...], ...]:
    return tuple((seat,) for seat in range(seats))


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one game (see the module). The defaults are the standard two-player game
    to 121 by the lurch, counted automatically; :meth:`standard` gives the others.

    ``seats`` players; ``dealer`` and ``others`` the :class:`Share` of the dealer and of every
    other seat (each keeps the same number of cards, :attr:`kept`), unless ``shares`` gives
    each seat's share by its place from the dealer's left (see :meth:`share`);
    ``crib_from_pack`` cards
    from the top of the pack join the crib, which then holds ``crib_size`` cards; ``sides``
    the seats of each side, which scores as one (every seat alone, the default, or partners);
    ``points_for_last`` the points the seat left of the first dealer pegs at the start of the
    game; ``play_end`` how the play ends; ``points`` what each combination scores; ``target``,
    ``scoring`` (the scale of game points) and ``counting`` (automatic, or claimed by hand
    with muggins) the table's options.

    Raises ``ValueError`` for rules no deck can deal or no table can score.
    """

    seats: int = 2
    target: int = 121
    scoring: Scoring = Scoring.LURCH
    counting: Counting = Counting.AUTO
    dealer: Share = Share(6, 2)
    others: Share = Share(6, 2)
    crib_from_pack: int = 0
    crib_size: int = 4
    sides: tuple[tuple[int, ...], ...] = ()
    points_for_last: int = 0
    play_end: PlayEnd = PlayEnd.ALL_CARDS
    points: Points = Points()
    shares: tuple[Share, ...] = ()
    #: The side of each seat, worked out once from ``sides``, and the hash.
    _side_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    #: The lengths the standard game is played to: twice round the board, and once ("61 up").
    STANDARD_TARGETS: ClassVar[tuple[int, ...]] = (121, 61)
    #: The tables the standard game seats: two, three, or four as partners.
    STANDARD_SEATS: ClassVar[tuple[int, ...]] = (2, 3, 4)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scoring", Scoring(self.scoring))
        object.__setattr__(self, "counting", Counting(self.counting))
        object.__setattr__(self, "play_end", PlayEnd(self.play_end))
        if self.seats < 2:
            raise ValueError("Cribbage is played by two players or more.")
        if self.target < 1:
            raise ValueError("A game is played to a target of at least 1 point.")
        round_the_table = self._round_the_table()
        if any(share.kept != self.dealer.kept for share in round_the_table) or self.kept < 1:
            raise ValueError("Every seat keeps the same number of cards, at least one.")
        thrown = sum(share.to_crib for share in round_the_table)
        if self.crib_from_pack < 0 or thrown + self.crib_from_pack != self.crib_size:
            raise ValueError(f"The throws and the pack must make a crib of {self.crib_size}.")
        dealt = sum(share.dealt for share in round_the_table)
        if self.crib_size < 1 or dealt + self.crib_from_pack + 1 > 52:
            raise ValueError("One deck cannot deal these hands, the crib and a starter.")
        if not self.sides:
            object.__setattr__(self, "sides", _alone(self.seats))
        seen = sorted(seat for side in self.sides for seat in side)
        if seen != list(range(self.seats)) or not all(self.sides):
            raise ValueError("Every seat sits on exactly one side.")
        if len(self.sides) < 2 or self.points_for_last < 0:
            raise ValueError("A game has two sides or more, and no negative points.")
        side_of = [0] * self.seats
        for side, members in enumerate(self.sides):
            for seat in members:
                side_of[seat] = side
        object.__setattr__(self, "_side_of", tuple(side_of))
        object.__setattr__(self, "_hash", hash(_fields(self)))

    def _round_the_table(self) -> tuple[Share, ...]:
        """Checks ``shares`` against the seats, the dealer's share and the others', makes
        shares that say no more than ``dealer`` and ``others`` () (one value, one saved
        text), and gives each seat's share by its place from the dealer's left."""
        if not self.shares:
            return (*(self.others,) * (self.seats - 1), self.dealer)
        if len(self.shares) != self.seats:
            raise ValueError("The shares by place at the table name every seat once.")
        if self.shares[-1] != self.dealer or self.shares[0] != self.others:
            raise ValueError(
                "The shares by place end with the dealer's and begin with the leader's (others)."
            )
        shares = tuple(self.shares)
        object.__setattr__(self, "shares", shares)
        if all(share == self.others for share in shares[:-1]):
            object.__setattr__(self, "shares", ())
        return shares

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled (to the computer's worker process) as a call of the constructor, so that
        # the hash, which strings and enums make differ from process to process, is worked
        # out again where the value lands.
        return self.__class__, _fields(self, init=True)

    @classmethod
    def standard(
        cls,
        players: int = 2,
        *,
        target: int = 121,
        scoring: Scoring = Scoring.LURCH,
        counting: Counting = Counting.AUTO,
    ) -> Rules:
        """The standard game for ``players`` (2, 3 or 4; four as partners sitting opposite)
        to ``target`` (121 or 61), with the table's options. Raises ``ValueError`` for
        anything else."""
        return _standard(players, target, Scoring(scoring), Counting(counting))

    @property
    def is_standard(self) -> bool:
        """Whether these are the standard game's rules for their seats, target and options
        (what a saved game that names no rules is played by)."""
        try:
            standard = _standard(self.seats, self.target, self.scoring, self.counting)
        except ValueError:
            return False
        return self == standard

    # ----------------------------------------------------------------- the deal

    @property
    def kept(self) -> int:
        """Cards each seat keeps for the play and the show (the starter makes one more)."""
        return self.others.kept

    def share(self, seat: int, dealer: int) -> Share:
        """What ``seat`` is dealt and throws when ``dealer`` deals: by its place from the
        dealer's left when the rules give ``shares`` (``shares[0]`` the leader's, ``shares[-1]``
        the dealer's: six-hand deals five to the four seats from the dealer's left and four to
        the seat on his right and to himself), else the dealer's share or the others'."""
        place = (seat - dealer) % self.seats
        if not place:
            return self.dealer
        return self.shares[place - 1] if self.shares else self.others

    def dealt(self, seat: int, dealer: int) -> int:
        """Cards dealt to ``seat`` when ``dealer`` deals."""
        return self.share(seat, dealer).dealt

    def to_crib(self, seat: int, dealer: int) -> int:
        """Cards ``seat`` throws to the crib when ``dealer`` deals."""
        return self.share(seat, dealer).to_crib

    def deal_order(self, dealer: int) -> tuple[int, ...]:
        """The seat each card goes to, in turn: one at a time from the dealer's left, a seat
        whose share is full passed over."""
        order = [(dealer + k) % self.seats for k in range(1, self.seats + 1)]
        given = dict.fromkeys(order, 0)
        seats = []
        for _ in range(max(self.dealt(seat, dealer) for seat in order)):
            for seat in order:
                if given[seat] < self.dealt(seat, dealer):
                    given[seat] += 1
                    seats.append(seat)
        return tuple(seats)

    def next_dealer(self, dealer: int) -> int:
        """The deal passes to the left."""
        return (dealer + 1) % self.seats

    # ----------------------------------------------------------------- sides and turns

    @property
    def num_sides(self) -> int:
        """How many scores are kept."""
        return len(self.sides)

    @property
    def partners(self) -> bool:
        """Whether some side is more than one seat."""
        return any(len(side) > 1 for side in self.sides)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` scores for."""
        return self._side_of[seat]

    def leader(self, dealer: int) -> int:
        """Who leads the play (and pegs the points for last): the dealer's left."""
        return (dealer + 1) % self.seats

    def show_order(self, dealer: int) -> tuple[tuple[int, bool], ...]:
        """Who counts, in order, as (seat, crib?): from the dealer's left round to the
        dealer, then the dealer's crib."""
        hands = tuple(((dealer + k) % self.seats, False) for k in range(1, self.seats + 1))
        return (*hands, (dealer, True))

    # ----------------------------------------------------------------- the show

    def show_size(self, *, crib: bool) -> int:
        """The cards shown with the starter: the kept hand, or the crib."""
        return self.crib_size if crib else self.kept

    def flush_points(self, *, crib: bool, starter_matches: bool) -> int:
        """What a hand (or the crib) all of one suit scores: a hand a point a card, one more
        with the starter of its suit; the crib only with the starter too."""
        size = self.show_size(crib=crib)
        if starter_matches:
            return (size + 1) * self.points.flush_card
        return 0 if crib else size * self.points.flush_card

    # ----------------------------------------------------------------- game points

    @property
    def lurch_line(self) -> int:
        """Half the board: a loser under it is lurched (61 in a 121 game, 31 in a 61)."""
        return (self.target + 1) // 2

    @property
    def skunk_lines(self) -> tuple[int, ...]:
        """On the skunk scale, a loser under the first line is skunked, under the second
        double skunked: the last 30 holes and half the board (91 and 61 in a 121 game; in a
        61 game the two are one line, 31)."""
        return tuple(sorted({self.target - 30, self.lurch_line}, reverse=True))

    @property
    def lines(self) -> tuple[tuple[int, ResultKind], ...]:
        """The lines of the game's scale, as (hole, what a loser short of it loses by), the
        first worth 2 game points and the next 3: by the lurch (61, lurch) in a 121 game; on
        the skunk scale (91, skunk) and (61, double skunk), in a 61 game (31, skunk)."""
        if self.scoring is Scoring.LURCH:
            return ((self.lurch_line, ResultKind.LURCH),)
        kinds = (ResultKind.SKUNK, ResultKind.DOUBLE_SKUNK)
        return tuple(zip(self.skunk_lines, kinds, strict=False))

    def game_points(self, loser_score: int) -> tuple[int, ResultKind]:
        """Game points and their name for a win over a loser who finished on
        ``loser_score``: 2 for a lurch by the lurch; by the skunk scale 2 for a skunk, 3 for
        a double skunk; else 1."""
        won: tuple[int, ResultKind] = (1, ResultKind.WIN)
        for points, (line, kind) in enumerate(self.lines, 2):
            if loser_score < line:
                won = (points, kind)
        return won

    def result(self, scores: Sequence[int], winner: int, reason: EndReason) -> GameResult:
        """The result of a game won by side ``winner``. With more than two sides the loser
        that decides a lurch or skunk is the best of the others (second place); a
        resignation is scored the same way, at the scores as they stand."""
        loser_score = max(score for side, score in enumerate(scores) if side != winner)
        points, kind = self.game_points(loser_score)
        return GameResult(winner, tuple(scores), points, reason, kind)

    # ----------------------------------------------------------------- JSON

    @classmethod
    def saved(
        cls, data: Mapping[str, Any], players: int, *, scoring: Scoring = Scoring.LURCH
    ) -> Rules:
        """The rules a saved game names: its ``"rules"`` whole, or (a game by the standard
        game's rules, as every game saved before the rules were a value) the standard
        game's for its ``players`` and its ``"target"``, ``"scoring"`` (``scoring`` when it
        names none) and ``"counting"`` (automatic when it names none)."""
        if "rules" in data:
            return cls.from_dict(data["rules"])
        return cls.standard(
            players,
            target=int(data["target"]),
            scoring=Scoring(data.get("scoring", scoring)),
            counting=Counting(data.get("counting", Counting.AUTO)),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (every field, so that a saved variant reads back whatever the
        defaults become)."""
        points = self.points
        return {
            "seats": self.seats,
            "target": self.target,
            "scoring": self.scoring.value,
            "counting": self.counting.value,
            "dealer": [self.dealer.dealt, self.dealer.to_crib],
            "others": [self.others.dealt, self.others.to_crib],
            "crib_from_pack": self.crib_from_pack,
            "crib_size": self.crib_size,
            "sides": [list(side) for side in self.sides],
            "points_for_last": self.points_for_last,
            "play_end": self.play_end.value,
            **self._shares_dict(),
            "points": {
                "fifteen": points.fifteen,
                "fifteen_points": points.fifteen_points,
                "max_count": points.max_count,
                "thirty_one_points": points.thirty_one_points,
                "sets": list(points.sets),
                "min_run": points.min_run,
                "flush_card": points.flush_card,
                "nobs": points.nobs,
                "heels": points.heels,
                "go": points.go,
                "last_card": points.last_card,
            },
        }

    def _shares_dict(self) -> dict[str, Any]:
        # Written only when the shares say more than the dealer's and the others', so every
        # rules value saved before they could keeps its text.
        if not self.shares:
            return {}
        return {"shares": [[share.dealt, share.to_crib] for share in self.shares]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules written by :meth:`to_dict`; ``ValueError`` (or the ``KeyError`` or
        ``TypeError`` malformed data meets) for anything else."""
        points = dict(data["points"])
        points["sets"] = tuple(int(n) for n in points["sets"])
        return cls(
            seats=int(data["seats"]),
            target=int(data["target"]),
            scoring=Scoring(data["scoring"]),
            counting=Counting(data["counting"]),
            dealer=Share(*(int(n) for n in data["dealer"])),
            others=Share(*(int(n) for n in data["others"])),
            crib_from_pack=int(data["crib_from_pack"]),
            crib_size=int(data["crib_size"]),
            sides=tuple(tuple(int(seat) for seat in side) for side in data["sides"]),
            points_for_last=int(data["points_for_last"]),
            play_end=PlayEnd(data["play_end"]),
            points=Points(**points),
            shares=tuple(Share(*(int(n) for n in share)) for share in data.get("shares", ())),
        )


@cache
def _standard(players: int, target: int, scoring: Scoring, counting: Counting) -> Rules:
    if players not in Rules.STANDARD_SEATS:
        raise ValueError("Cribbage is played by 2, 3 or 4 players.")
    if target not in Rules.STANDARD_TARGETS:
        raise ValueError("A game is played to 121 or to 61 points.")
    options: dict[str, Any] = {"target": target, "scoring": scoring, "counting": counting}
    if players == 2:
        return Rules(**options)
    five = Share(5, 1)
    sides = ((0, 2), (1, 3)) if players == 4 else _alone(3)
    return Rules(
        seats=players,
        dealer=five,
        others=five,
        crib_from_pack=1 if players == 3 else 0,
        sides=sides,
        **options,
    )
