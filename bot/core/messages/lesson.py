"""The rules a lesson explains (``/cribbage learn``), and which of them an event shows.

A first game explains each rule the first time it happens: the deal and the crib with what
scores (in one line, before the first discard), the shuffle's seal (the table's 🔒 and 🔓
lines), the starter and his heels, the play (as it begins), fifteens, pairs,
runs, go, 31 and the last card, the show in order, flushes, his nobs, and at the end the
lurch. :func:`rules_met` says which rules one event shows; the
game's log notes the deal each kind of event and score first came up in (:attr:`DealLog.firsts
<bot.core.games.deal_log.DealLog.firsts>`, kept however many deals the log drops), and a
lesson's table of the deal a rule first came up in says the rule beside it
(:func:`lesson_notes`); the result says each rule the game never showed, then where to go
next (:func:`lesson_end`), so a lesson teaches every rule once. Each rule is said in one
place, :data:`RULES`; ``/cribbage rules`` says them at length. A learner's table (a lesson, or
one person against the easy computer alone: :func:`learning`) says under a hint and under the
coach's line what their figures mean.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.core.base.choices import DEFAULT_LEVEL
from bot.core.games.deal_log import LAST_CARD, kinds_of
from bot.core.games.records import GameRecord
from bot.core.messages.hinting import against_computer_alone
from engine import events as ev
from engine.outcome import ResultKind
from engine.players.levels import Level
from engine.scoring import ScoreKind

__all__ = [
    "COACH_FIGURES",
    "HINT_FIGURES",
    "LESSON_END",
    "LESSON_LEVEL",
    "LESSON_TARGET",
    "RULES",
    "LessonNotes",
    "coach_for",
    "first_deal",
    "first_sentence",
    "hint_figures",
    "learning",
    "lesson_end",
    "lesson_notes",
    "rules_met",
]

#: How long a lesson is (its computer's level is :data:`LESSON_LEVEL`).
LESSON_TARGET = 61

#: Each rule a lesson explains, by name, in the order a game first meets them: its title and
#: what it says, for someone who has never played.
RULES: Mapping[str, tuple[str, str]] = {
    "deal": (
        "The deal and the crib",
        "each player gets six cards and lays two of them face down in the **crib**, a third "
        "hand that belongs to the dealer and is counted after the hands. Throw the dealer good "
        "cards when the crib is yours, poor ones when it is not. The deal changes hands each "
        "time.",
    ),
    "scores": (
        "What scores",
        "cards making 15 (2 points), a pair (2), a run of three or more in sequence (1 a "
        "card), a flush, and the jack of the starter's suit: as the cards go down in the play, "
        f"and in each hand at the show. The first to {LESSON_TARGET} wins.",
    ),
    "seal": (
        "The seal",
        "the 🔒 line is a fingerprint of this deal's shuffle, posted before anyone saw a "
        "card; after the show the 🔓 line gives the shuffle itself, so anyone can check that "
        "no card was changed. You can ignore both.",
    ),
    "starter": (
        "The starter",
        "once the crib is made, a card is cut from the deck and turned up: nobody plays it, "
        "but it counts as a fifth card in every hand, and in the crib, at the show.",
    ),
    "heels": (
        "His heels",
        "a jack turned up as the starter gives the dealer 2 points at once.",
    ),
    "play": (
        "The play",
        "the players take turns laying a card face up, the dealer's opponent first, calling "
        "the running total of the cards played (face cards count 10, an ace 1). The total "
        "may never pass 31. Points scored as the cards go down are *pegged*: moved along the "
        "board at once.",
    ),
    "fifteen": (
        "Fifteen",
        "in the play, whoever brings the count to exactly 15 pegs 2. At the show every "
        "different set of cards adding up to 15 is 2 points too.",
    ),
    "pair": (
        "Pairs",
        "playing a card of the same rank as the one just played pegs 2; a third in a row "
        "(three of a kind) 6, a fourth 12. At the show each pair in a hand is 2.",
    ),
    "run": (
        "Runs",
        "three or more cards in sequence (4-5-6, in any order) are a run, 1 point a card: in "
        "the play when the last cards played make one, at the show for each run in the hand. "
        "A card that makes two runs counts in both: a *double run*.",
    ),
    "go": (
        "Go",
        "a player who cannot lay a card without passing 31 says *go*. The other plays on "
        "while they can, and whoever laid the last card pegs 1 for the go; the count starts "
        "again from zero.",
    ),
    "thirty_one": (
        "31",
        "bringing the count to exactly 31 pegs 2 (instead of the go's 1), and the count starts "
        "again from zero.",
    ),
    "last_card": (
        "The last card",
        "whoever lays the last card of the play pegs 1 for it (when it does not make 31).",
    ),
    "show": (
        "The show, in order",
        "after the play each hand is counted with the starter: the dealer's opponent first, "
        "then the dealer, then the dealer's crib. Near the end that order decides games: the "
        "first to count may reach the winning score before the dealer counts at all. Each "
        "count is said as players say it, the fifteens first: *fifteen two, fifteen four, and "
        "a pair is six*.",
    ),
    "flush": (
        "A flush",
        "four cards of one suit in a hand are 4 points, 5 with the starter too. The crib "
        "counts a flush only when all five match.",
    ),
    "nobs": (
        "His nobs",
        "the jack of the starter's suit in a hand or the crib is 1 point.",
    ),
    "lurch": (
        "The lurch",
        "a player who finishes under half the target (under 31 in a game to 61) is *lurched*, "
        "and the winner scores a double game.",
    ),
}

#: How well a lesson's computer plays; the game its end suggests is against the same level.
LESSON_LEVEL = Level.EASY

#: Where a lesson points once it is over: a whole game against the same gentle computer
#: (the default level, :data:`~bot.core.base.choices.DEFAULT_LEVEL`, is far stronger).
LESSON_END = (
    "🎓 That was your first game. Next, a whole game to 121 against the same gentle "
    f"computer: `/cribbage new vs_computer:True difficulty:{LESSON_LEVEL}` (without "
    f"`difficulty:` you get the {DEFAULT_LEVEL} one). Open a table for friends with "
    "`/cribbage new`; `/cribbage help` has the commands you need first."
)

#: What a hint's figures mean (:mod:`engine.hint`), said under a lesson's hint by its kind
#: ("discard" or "play") for someone who has never weighed a hand.
HINT_FIGURES: Mapping[str, str] = {
    "discard": (
        "📘 The figures are points on average, over every starter that could be cut: what "
        "the cards you keep score at the show, what the two you throw add to your crib (or "
        "give the dealer's: −), and what the kept cards peg in the play."
    ),
    "play": (
        "📘 The figures are points on average: what you peg in the rest of this play, less "
        "what the computer pegs."
    ),
}

#: What the coach's figures mean, said under its line at a learner's table.
COACH_FIGURES = (
    "📘 The coach's figures are points on average, over every starter that could be cut: the "
    "hand you kept at the show, what your throw added to your crib (or gave the dealer's: −), "
    "and what the kept cards peg in the play; near the end, your chance to win the game."
)


def learning(record: GameRecord) -> bool:
    """Whether ``record``'s table is a learner's, whose hints and coach say what their figures
    mean: a lesson, or one person against the easy computer alone (the game a lesson's end
    suggests). Other players chose their table and know the figures, or can ask a lesson."""
    computers = [seat.level for seat in record.seats if seat.is_computer]
    easy = against_computer_alone(record) and set(computers) == {LESSON_LEVEL}
    return record.in_lesson or easy


def coach_for(record: GameRecord, said: str) -> str:
    """The coach's line ``said`` as ``record``'s table shows it (a hand message, the table
    inside Discord): at a learner's table, with what its figures mean under it."""
    return f"{said}\n{COACH_FIGURES}" if learning(record) else said


#: A figure of the expert's, as a hint shows it (one decimal: "11.9").
_FIGURE = re.compile(r"\d\.\d")


def hint_figures(kind: str, line: str) -> str:
    """The line a lesson says under a hint of ``kind`` (its ``line``): what its figures
    mean, or nothing when it has none ("the only card you can play", "as good")."""
    return HINT_FIGURES[kind] if _FIGURE.search(line) else ""


#: The kinds of event and score (:func:`~bot.core.games.deal_log.kinds_of`) that show each
#: rule happening, in the order a table says them.
_KINDS: Mapping[str, tuple[str, ...]] = {
    "deal": ("dealt",),
    # Said with the deal, before the first discard: what a throw to the crib is weighed by.
    "scores": ("dealt",),
    # (Said where the table shows the deal's seal: lesson_notes' ``sealed``.)
    "seal": ("dealt",),
    "starter": ("starter_cut",),
    "heels": ("heels",),
    # Said as the play begins (the starter turned up), with the first "Your turn", not after
    # the first card.
    "play": ("starter_cut", "played"),
    "fifteen": (ScoreKind.FIFTEEN,),
    "pair": (ScoreKind.PAIR, ScoreKind.PAIR_ROYAL, ScoreKind.DOUBLE_PAIR_ROYAL),
    "run": (ScoreKind.RUN,),
    "go": ("go", "go_point"),
    "thirty_one": (ScoreKind.THIRTY_ONE,),
    "last_card": (LAST_CARD,),
    "show": ("shown",),
    "flush": (ScoreKind.FLUSH,),
    "nobs": (ScoreKind.NOBS,),
    "lurch": ("game_over",),
}


def rules_met(event: ev.Event) -> tuple[str, ...]:
    """The rules of :data:`RULES` that ``event`` shows happening, in the order to say them."""
    kinds = set(kinds_of(event))
    return tuple(rule for rule, shown in _KINDS.items() if kinds.intersection(shown))


def first_deal(rule: str, firsts: Mapping[str, int]) -> int | None:
    """The deal ``rule`` first came up in, from the deal each kind first did (``firsts``)."""
    return min((firsts[k] for k in _KINDS[rule] if k in firsts), default=None)


@dataclass(frozen=True)
class _Noted:
    """One rule a deal's table explains: beside its play or its show, whole or in short."""

    rule: str
    #: How the game ended (the lurch says whether this game's loser was lurched).
    over: ev.GameOver | None
    at_show: bool
    short: bool = False

    @property
    def text(self) -> str:
        return _note(self.rule, self.over, short=self.short)


class LessonNotes:
    """What a lesson's table of one deal explains: the rules first met in it, those of its play
    (the deal, the starter, the play's scores) and those of its show (the show, its scores, the
    end), each once, in the order they happened; each whole, or in short where the table has
    no room for it (:meth:`shorter`)."""

    def __init__(self, notes: Sequence[_Noted]) -> None:
        self._notes = tuple(notes)
        self.play = tuple(n.text for n in self._notes if not n.at_show)
        self.show = tuple(n.text for n in self._notes if n.at_show)

    @property
    def size(self) -> int:
        """The characters the notes take on the table: the play's, then the show's, a line
        each."""
        return len("\n".join(self.play)) + len("\n".join(self.show))

    def shorter(self) -> LessonNotes | None:
        """The same notes with the longest said whole now said in its first sentence (the rule
        itself), for a table with no room for them all (a first deal meets most rules at
        once); None when none can be shorter."""
        whole = [
            (len(n.text), i)
            for i, n in enumerate(self._notes)
            if not n.short and first_sentence(RULES[n.rule][1]) != RULES[n.rule][1]
        ]
        if not whole:
            return None
        _, at = max(whole)
        notes = list(self._notes)
        notes[at] = replace(notes[at], short=True)
        return LessonNotes(notes)


def _note(rule: str, result: ev.GameOver | None, *, short: bool = False) -> str:
    title, said = RULES[rule]
    if short:
        said = first_sentence(said)
    line = f"📘 **{title}**: {said}"
    if rule == "lurch" and result is not None:
        lurched = result.result.kind is ResultKind.LURCH
        line += " This game's loser was lurched." if lurched else " Nobody was lurched this time."
    return line


#: Where a rule's first sentence ends: a full stop before the next sentence's capital (or its
#: emphasis).
_SENTENCE_END = re.compile(r"(?<=\.) (?=[A-Z*])")


def first_sentence(said: str) -> str:
    """The first sentence of what a rule says (:data:`RULES`), which says the rule itself;
    the sentences after it say more of it."""
    return _SENTENCE_END.split(said, maxsplit=1)[0]


def lesson_end(firsts: Mapping[str, int]) -> tuple[str, ...]:
    """What a lesson's result says after it: each rule the game never showed (from the deal
    each kind first did, ``firsts``), so the lesson has taught them all, then
    :data:`LESSON_END`."""
    unmet = [rule for rule in RULES if first_deal(rule, firsts) is None]
    if not unmet:
        return (LESSON_END,)
    said = [_note(rule, None) for rule in unmet]
    return ("📘 Not met in this game, but good to know:", *said, LESSON_END)


def lesson_notes(
    events: Sequence[ev.Event], deal: int, firsts: Mapping[str, int], *, sealed: bool
) -> LessonNotes:
    """The notes of ``deal``'s table (its ``events``), from the deal each rule first came up
    in (``firsts``); the seal's only where the table shows one (``sealed``)."""
    notes: list[_Noted] = []
    said: set[str] = set()
    for event in events:
        for rule in rules_met(event):
            if (
                first_deal(rule, firsts) != deal
                or rule in said
                or (rule, sealed) == ("seal", False)
            ):
                continue
            said.add(rule)
            at_show = isinstance(event, ev.Shown | ev.GameOver)
            over = event if isinstance(event, ev.GameOver) else None
            notes.append(_Noted(rule, over, at_show))
    return LessonNotes(notes)
