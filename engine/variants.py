"""The named variants a table may choose, as values, and the registry of them by the name a
game stores.

A :class:`Variant` names one way to play (the standard game, five-card or seven-card
cribbage, five players, six players as two teams of three or three teams of two) and makes
its :class:`~engine.rules.Rules` for the players, target and table options chosen, refusing a
combination the variant does not offer with a sentence for the player. It holds no rule of
its own: every rule is in the rules value it makes, and :meth:`Variant.of` finds the variant
a game's rules are (so a stored game, which stores its rules, says its variant).

The rules of each variant, with their sources (the short names are those of
``docs/variants.md``, which gives each source in full and says where sources disagree;
:data:`SOURCES` gives them in full too):

* **Standard** (:data:`STANDARD`): two players dealt six, throwing two; three dealt five,
  throwing one, one card from the pack to the crib; four dealt five, throwing one, partners
  sitting opposite; to 121 or 61, by the lurch or the skunk scale (the rules documents of the
  house, as the American Cribbage Congress plays two to four).
* **Five-card cribbage** (:data:`FIVE_CARD`): two players dealt five, throwing two, three kept
  (Hoyle p. 249; Bicycle); the non-dealer pegs three for last at the start of the game, once
  (Hoyle p. 249; Enquire §81 x); one pass to 31, the play ending at the first go or 31
  (Hoyle p. 250; EB9 p. 576; Bicycle); a three-card hand flush 3, 4 with the starter, a crib
  flush only of five (Cassell p. 165; Bicycle); to 61, lurched under 31 (Hoyle p. 249;
  Enquire §82 xvii; Dawson).
* **Seven-card cribbage** (:data:`SEVEN_CARD`): two players dealt seven, throwing two, five
  kept (EB11; Dawson); every card played (EB9 p. 576); a hand flush a point a card, one more
  with the starter, a crib flush only with the starter (EB11); to 181, lurched under 91
  (Dawson); no skunk scale, none being published for 181.
* **Five-hand** (:data:`FIVE_HAND`): five players each for themselves; the dealer dealt four,
  throwing none, each other player five, throwing one (Peggers; Wikipedia); to 121 (Peggers),
  or 61 as for two to four.
* **Six-hand** (:data:`SIX_HAND`): six players, two teams of three sitting alternately
  (Pastimes); the four players from the dealer's left dealt five, throwing one, the player on
  the dealer's right and the dealer four, throwing none (Pastimes); to 121 (Pastimes) or 61.
* **Six-hand in pairs** (:data:`SIX_HAND_PAIRS`): the same deal, three teams of two sitting
  opposite (Peggers; Lehr).

>>> named("seven_card").rules(2).target
181
>>> Variant.of(FIVE_HAND.rules(5, 61)) is FIVE_HAND
True
>>> named("five_card").rules(2, 121)
Traceback (most recent call last):
...
ValueError: Five-card cribbage is played to 61.
>>> choices_text(default="standard")[:40]
'standard (default), five_card, seven_car'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.counting import Counting
from engine.errors import RuleError
from engine.outcome import Scoring
from engine.registry import Registry, say_or
from engine.rules import PlayEnd, Rules, Share

__all__ = [
    "FEWEST_AT_A_TABLE",
    "FIVE_CARD",
    "FIVE_HAND",
    "MOST_AT_A_TABLE",
    "SEVEN_CARD",
    "SIX_HAND",
    "SIX_HAND_PAIRS",
    "SOURCES",
    "STANDARD",
    "UnknownVariant",
    "Variant",
    "choices_text",
    "find",
    "listed",
    "named",
    "register",
    "title_unless_standard",
    "unregister",
]

#: Every source the variants cite, by the short name they cite it by (as in
#: ``docs/variants.md``), in full.
SOURCES: dict[str, str] = {
    "ACC": "the American Cribbage Congress's rules of play (two to four players)",
    "Hoyle": 'Hoyle\'s Games, Improved and Enlarged, "Cribbage", pp. 249-256',
    "EB9": 'Encyclopaedia Britannica, 9th edition, vol. 6 (1877), "Cribbage", pp. 576-577',
    "EB11": 'Encyclopaedia Britannica, 11th edition, vol. 7 (1910), "Cribbage", p. 433 ff.',
    "Cassell": "Cassell's Book of In-door Amusements, Card Games and Fireside Fun, "
    '"Cribbage", p. 165',
    "Enquire": "Enquire Within Upon Everything, §81-§83 (terms, laws, five-card cribbage)",
    "Dawson": 'Lawrence H. Dawson\'s Hoyle (Routledge), chapter "Cribbage"',
    "Bicycle": 'Bicycle Cards, "Five-Card Cribbage" and "Four-Hand Cribbage" (bicyclecards.com)',
    "Peggers": 'the Germantown Peggers (a cribbage club), "Five Hand Cribbage" and '
    '"Six Hand Cribbage"',
    "Wikipedia": 'Wikipedia, "Rules of cribbage", section Variations',
    "Pastimes": '"How to Deal a Six Handed Cribbage Game" (ourpastimes.com)',
    "Lehr": '"6-Player Cribbage, as played by the Lehr family" (emeraldimp.com)',
}


class UnknownVariant(RuleError):
    """A variant name no registered variant has."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One named way to play (see the module).

    ``name`` is what a game, a command's choice and a rating store (lower case, never
    changed once used); ``title`` what players read ("Five-card cribbage"); ``seats`` the
    numbers of players it seats (the first the usual); ``targets`` the lengths of game it
    offers (the default first); ``skunk`` whether the skunk scale may be chosen (else only
    the lurch); ``description`` one line for menus and the rules topic; ``sources`` the short
    citations of its rules (each begins with a key of :data:`SOURCES`, followed by the page
    or section where the source has one). ``build(players)`` gives the rules' fields other
    than the target and the table's options; :meth:`rules` is what callers use.
    """

    name: str
    title: str
    seats: tuple[int, ...]
    targets: tuple[int, ...]
    skunk: bool
    description: str
    sources: tuple[str, ...]
    build: Callable[[int], dict[str, Any]] = field(repr=False, compare=False)

    @property
    def default_target(self) -> int:
        """The length of game a table gets unless it asks for another."""
        return self.targets[0]

    @property
    def default_players(self) -> int:
        """The number of players a table gets unless it asks for another."""
        return self.seats[0]

    @property
    def seats_text(self) -> str:
        """The numbers of players it seats, as a player reads them: ``2, 3 or 4``."""
        return say_or([str(n) for n in self.seats])

    @property
    def targets_text(self) -> str:
        """Its lengths of game, as a player reads them: ``121 or 61``."""
        return say_or([str(n) for n in self.targets])

    def check(
        self,
        players: int | None = None,
        target: int | None = None,
        scoring: Scoring | str = Scoring.LURCH,
    ) -> None:
        """Raise ``ValueError`` with a sentence for the player when the variant does not
        offer ``players``, ``target`` or ``scoring`` (None: the variant's default)."""
        if players is not None and players not in self.seats:
            raise ValueError(f"{self.title} is for {self.seats_text} players.")
        if target is not None and target not in self.targets:
            raise ValueError(f"{self.title} is played to {self.targets_text}.")
        if Scoring(scoring) is Scoring.SKUNK and not self.skunk:
            raise ValueError(
                f"{self.title} has no skunk scale: a loser under half the board is lurched."
            )

    def rules(
        self,
        players: int | None = None,
        target: int | None = None,
        scoring: Scoring | str = Scoring.LURCH,
        counting: Counting | str = Counting.AUTO,
    ) -> Rules:
        """The rules for a table of ``players`` (None: the usual number) playing to
        ``target`` (None: the default) with the table's options. Raises ``ValueError`` with
        a sentence for the player for a combination the variant does not offer (``"Seven-card
        cribbage is played to 181."``)."""
        self.check(players, target, scoring)
        seats = self.default_players if players is None else players
        return Rules(
            seats=seats,
            target=self.default_target if target is None else target,
            scoring=Scoring(scoring),
            counting=Counting(counting),
            **self.build(seats),
        )

    def offers(self, rules: Rules) -> bool:
        """Whether ``rules`` are this variant's for their seats, target and options."""
        if rules.seats not in self.seats or rules.target not in self.targets:
            return False
        if rules.scoring is Scoring.SKUNK and not self.skunk:
            return False
        return self.rules(rules.seats, rules.target, rules.scoring, rules.counting) == rules

    @staticmethod
    def of(rules: Rules) -> Variant | None:
        """The registered variant whose rules ``rules`` are, or None (rules of no variant: a
        test's, say). A stored game's variant is read from its rules this way."""
        return next((variant for variant in listed() if variant.offers(rules)), None)


#: The registered variants by name, in the order lists and choices show them.
_VARIANTS = Registry[Variant]("variant", UnknownVariant, name=lambda v: v.name)


def register(variant: Variant) -> Variant:
    """Register ``variant`` under its name, which must be new (or the same variant's)."""
    return _VARIANTS.register(variant)


# The registry's own methods are the module's (as :mod:`random` offers its hidden instance's):
# ``unregister(name)``, ``listed()`` (standard first), ``find(name)`` (or None),
# ``named(name)`` (or :class:`UnknownVariant`, naming the variants there are) and
# ``choices_text(default=...)``.
unregister = _VARIANTS.unregister
listed = _VARIANTS.listed
find = _VARIANTS.find
named = _VARIANTS.named
choices_text = _VARIANTS.choices_text


def title_unless_standard(variant: Variant | None) -> str | None:
    """The title a game, a table or a list names its variant by, or None where it names none:
    for the standard game, which goes unnamed everywhere, and for no variant (a stored name
    no longer registered).

    >>> title_unless_standard(FIVE_CARD), title_unless_standard(STANDARD)
    ('Five-card cribbage', None)
    """
    return None if variant is None or variant.name == STANDARD.name else variant.title


# ------------------------------------------------------------------ the variants


def _standard(players: int) -> dict[str, Any]:
    # The house's standard game (engine.rules), without its target and options.
    rules = Rules.standard(players)
    return {
        "dealer": rules.dealer,
        "others": rules.others,
        "crib_from_pack": rules.crib_from_pack,
        "sides": rules.sides,
    }


def _five_card(_players: int) -> dict[str, Any]:
    # Five each, two to the crib (Hoyle p. 249; Bicycle); three for last to the non-dealer
    # at the start (Hoyle p. 249; Enquire §81 x); the play ends at the first go or 31
    # (Hoyle p. 250; EB9 p. 576; Bicycle). The three-card flush (Cassell p. 165) is the
    # rules' flush of the kept cards.
    return {
        "dealer": Share(5, 2),
        "others": Share(5, 2),
        "points_for_last": 3,
        "play_end": PlayEnd.FIRST_GO,
    }


def _seven_card(_players: int) -> dict[str, Any]:
    # Seven each, two to the crib, five kept (EB11; Dawson); every card played (EB9 p. 576).
    return {"dealer": Share(7, 2), "others": Share(7, 2)}


def _five_hand(_players: int) -> dict[str, Any]:
    # The dealer four and none to the crib, the others five and one (Peggers; Wikipedia).
    return {"dealer": Share(4, 0), "others": Share(5, 1)}


#: Six-hand's deal by place from the dealer's left: five and one to the crib to the first
#: four, four and none to the player on the dealer's right and to the dealer (Pastimes).
_SIX_DEAL = (Share(5, 1),) * 4 + (Share(4, 0),) * 2


def _six_hand(_players: int) -> dict[str, Any]:
    # Two teams of three, every other seat (Pastimes).
    return {
        "dealer": _SIX_DEAL[-1],
        "others": _SIX_DEAL[0],
        "shares": _SIX_DEAL,
        "sides": ((0, 2, 4), (1, 3, 5)),
    }


def _six_hand_pairs(players: int) -> dict[str, Any]:
    # Three teams of two, partners opposite (Peggers; Lehr), dealt as six-hand.
    return {**_six_hand(players), "sides": ((0, 3), (1, 4), (2, 5))}


STANDARD = register(
    Variant(
        name="standard",
        title="Standard cribbage",
        seats=Rules.STANDARD_SEATS,
        targets=Rules.STANDARD_TARGETS,
        skunk=True,
        description="Six cards each for two, five for three or four (four as partners).",
        sources=("ACC",),
        build=_standard,
    )
)
FIVE_CARD = register(
    Variant(
        name="five_card",
        title="Five-card cribbage",
        seats=(2,),
        targets=(61,),
        skunk=True,
        description=(
            "The original game: five cards, three kept, three for last to the non-dealer, "
            "one pass to 31, game 61."
        ),
        sources=(
            "Hoyle pp. 249-250",
            "EB9 p. 576",
            "Cassell p. 165",
            "Enquire §81-§83",
            "Bicycle",
            "Dawson",
        ),
        build=_five_card,
    )
)
SEVEN_CARD = register(
    Variant(
        name="seven_card",
        title="Seven-card cribbage",
        seats=(2,),
        targets=(181,),
        skunk=False,
        description="Seven cards, five kept: hands of six with the starter, game 181.",
        sources=("EB11", "EB9 p. 576", "Dawson"),
        build=_seven_card,
    )
)
FIVE_HAND = register(
    Variant(
        name="five_hand",
        title="Five-hand cribbage",
        seats=(5,),
        targets=Rules.STANDARD_TARGETS,
        skunk=True,
        description=(
            "Five players each for themselves: the dealer gets four, the others five and "
            "throw one to his crib."
        ),
        sources=("Peggers", "Wikipedia"),
        build=_five_hand,
    )
)
SIX_HAND = register(
    Variant(
        name="six_hand",
        title="Six-hand cribbage",
        seats=(6,),
        targets=Rules.STANDARD_TARGETS,
        skunk=True,
        description=(
            "Six players, two teams of three in alternate seats: four players get five and "
            "throw one, the dealer and his right four."
        ),
        sources=("Pastimes", "Peggers"),
        build=_six_hand,
    )
)
SIX_HAND_PAIRS = register(
    Variant(
        name="six_hand_pairs",
        title="Six-hand cribbage in pairs",
        seats=(6,),
        targets=Rules.STANDARD_TARGETS,
        skunk=True,
        description=("Six players, three teams of two sitting opposite, dealt as six-hand."),
        sources=("Peggers", "Lehr", "Pastimes"),
        build=_six_hand_pairs,
    )
)

#: The most players a variant registered here seats (six-hand).
MOST_AT_A_TABLE = max(n for variant in listed() for n in variant.seats)
#: The fewest players a variant registered here seats: fewer people have no game to play
#: (*Deal everyone in* with fewer at the table refuses).
FEWEST_AT_A_TABLE = min(n for variant in listed() for n in variant.seats)
