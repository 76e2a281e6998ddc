"""What a tournament format is, and the registry of formats by the name a tournament stores.

A format is a strategy: from an event's :class:`Progress` (its entrants in seeding order, who
withdrew, every round paired so far with the results decided) it pairs the next round, says
whether the event is over, who its champion is and the standings' order, and how many rounds
an event of so many entrants plays. It decides nothing else: who plays how many games a
match, deadlines, threads and messages belong to the bot, and the club's scoring (2 game
points a win, 3 with a lurch) to :func:`engine.tournament.standings`.

Each format is one module of :mod:`engine.formats` that registers its class with
:func:`register`; the package imports every module in it, so a new format is one new file.
The bot asks the registry (:func:`named`, :func:`find`, :func:`listed`) and never branches on
a format's name.

>>> from engine.formats import named
>>> named("round_robin").rounds(5)
5
>>> [pair for pair in named("knockout").pair(Progress(seeds=(1, 2, 3, 4)))]
[(1, 4), (2, 3)]
>>> from engine.formats import choices_text
>>> choices_text(default="swiss")
'swiss (default), round_robin or knockout'
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine.errors import RuleError
from engine.registry import Registry
from engine.tournament import MatchResult, Standing, standings

__all__ = [
    "Match",
    "Pairs",
    "Progress",
    "TournamentFormat",
    "UnknownFormat",
    "choices_text",
    "find",
    "listed",
    "named",
    "register",
    "unregister",
]

#: A round's tables, in table order: ``(a, b)``, or ``(a, None)`` for a bye for ``a``.
Pairs = tuple[tuple[int, int | None], ...]


@dataclass(frozen=True, slots=True)
class Match:
    """One table of a round: ``a`` against ``b`` (None: a bye for ``a``). Once ``decided``,
    ``winner`` is ``a``, ``b`` or None (both lost), ``lurch`` a win by a lurch or skunk and
    ``margin`` the winner's points over the loser's."""

    a: int
    b: int | None
    decided: bool = False
    winner: int | None = None
    lurch: bool = False
    margin: int = 0

    def result(self) -> MatchResult | None:
        """The match as a result for the standings (None while it is being played)."""
        if not self.decided:
            return None
        return MatchResult(self.a, self.b, self.winner, self.lurch, self.margin)


@dataclass(frozen=True, slots=True)
class Progress:
    """An event so far: everything a format decides from.

    ``seeds`` is every entrant, best seed first (withdrawn ones too: their results stand);
    ``played`` each round paired so far (round 1 first), its tables in table order;
    ``planned`` the rounds the event plays (0 until it starts); ``playoff`` how many of the
    top players go on to a knockout after the rounds of a format that takes one (0: none).
    """

    seeds: tuple[int, ...]
    withdrawn: frozenset[int] = frozenset()
    played: tuple[tuple[Match, ...], ...] = ()
    planned: int = 0
    playoff: int = 0

    @property
    def round(self) -> int:
        """The round being played, or last played (0: none yet)."""
        return len(self.played)

    @property
    def active(self) -> tuple[int, ...]:
        """The entrants still in (not withdrawn), in seeding order."""
        return tuple(p for p in self.seeds if p not in self.withdrawn)

    @property
    def last(self) -> tuple[Match, ...]:
        """The tables of the round being played (none before the first)."""
        return self.played[-1] if self.played else ()

    def matches(self) -> Iterator[Match]:
        """Every table of every round, in order."""
        for tables in self.played:
            yield from tables

    def results(self) -> list[MatchResult]:
        """The decided matches, as results for the standings."""
        return [r for m in self.matches() if (r := m.result()) is not None]


class UnknownFormat(RuleError):
    """A format name no registered format has."""


class TournamentFormat(ABC):
    """A tournament format (see the module): subclass it, fill in the class attributes and
    :meth:`rounds` and :meth:`pair`, and :func:`register` the class. The other methods have
    the club's defaults: over after the planned rounds, the standings by game points, games
    won, spread and head to head, the top of them the champion."""

    #: The name a tournament stores, and the value of the command's choice (lower case).
    name: ClassVar[str]
    #: The name people read: "Round robin".
    title: ClassVar[str]
    #: The name within a sentence ("wins the round robin tournament"): the title in lower
    #: case, unless it is a proper name ("Swiss").
    in_sentence: ClassVar[str] = ""
    #: What it does, in a few words after the title in the command's choices.
    summary: ClassVar[str]

    @classmethod
    def named(cls) -> str:
        """The format named within a sentence: :attr:`in_sentence`, or the title in lower
        case."""
        return cls.in_sentence or cls.title.lower()

    #: Where it comes in lists and choices (lowest first).
    rank: ClassVar[int]
    #: Whether its top players may go on to a knockout playoff after its rounds.
    takes_playoff: ClassVar[bool] = False
    #: Whether it is seeded by rating when it starts (else by the order players joined).
    seeded_by_rating: ClassVar[bool] = False

    @abstractmethod
    def rounds(self, entrants: int, *, asked: int = 0, playoff: int = 0) -> int:
        """How many rounds an event of ``entrants`` plays: ``asked`` is the organiser's
        number (0: none asked), ``playoff`` the size of its playoff (0: none)."""

    @abstractmethod
    def pair(self, progress: Progress) -> Pairs:
        """The next round's tables, when every table of the round before is decided (empty:
        nobody is left to pair, and the event is over)."""

    def is_over(self, progress: Progress) -> bool:
        """Whether the event has played its last round (once that round is decided)."""
        return progress.round > 0 and progress.round >= progress.planned

    def standings(self, progress: Progress) -> list[Standing]:
        """Every entrant's line, best first."""
        return standings(progress.seeds, progress.results())

    def champion(self, progress: Progress) -> int:
        """The winner of an event that is over."""
        return self.standings(progress)[0].player

    @classmethod
    def from_name(cls, name: str) -> TournamentFormat:
        """The registered format stored as ``name`` (see :func:`named`)."""
        return named(name)

    def __repr__(self) -> str:
        return f"<format {self.name}>"


F = TypeVar("F", bound=type[TournamentFormat])

#: The registered formats by name (each one instance: formats hold no state).
_FORMATS = Registry[TournamentFormat](
    "format", UnknownFormat, name=lambda f: f.name, order=lambda f: (f.rank, f.name)
)


def register(kind: F) -> F:
    """Register a format (use it as the class's decorator); its name must be new."""
    _FORMATS.register(kind(), same=lambda held, new: type(held) is type(new))
    return kind


# The registry's own methods are the module's (as :mod:`random` offers its hidden instance's):
# ``unregister(name)`` (a test's own format, once the test is done), ``listed()`` (in the
# order lists and choices show them), ``find(name)`` (or None), ``named(name)`` (or
# :class:`UnknownFormat`, naming the formats there are) and ``choices_text(default=...)``.
unregister = _FORMATS.unregister
listed = _FORMATS.listed
find = _FORMATS.find
named = _FORMATS.named
choices_text = _FORMATS.choices_text
