"""Who may ask the expert for a hint, at which tables: one decision.

A hint (:mod:`engine.hint`, asked for with a hand's *Hint*: :mod:`bot.core.play.hints`) is
offered against the computer alone (one person, every other seat a computer), in a lesson,
and at a table whose opener allowed hints (``/cribbage new hints:True``, shown on its lobby
and its result); never in ranked play or a tournament's game, whatever else is true. The
discard of the day is no game, and offers none. The hand's controls offer *Hint* where
:func:`offers_hints` says so, and a click elsewhere (an old message, a forged id) is refused
with :func:`hint_refusal`'s sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.base import refusals
from bot.core.base.text import and_list, escape, plural
from bot.core.games.records import GameRecord, Round

__all__ = [
    "against_computer_alone",
    "hint_refusal",
    "hints_line",
    "offers_hints",
]


def against_computer_alone(record: GameRecord) -> bool:
    """Whether one person plays ``record``'s game, every other seat a computer."""
    people = [s for s in record.seats if not s.is_computer]
    return len(people) == 1 and len(record.seats) > 1


def hint_refusal(record: GameRecord) -> str | None:
    """Why no hint is given at ``record``'s table, in one sentence (None: hints are on)."""
    if record.in_match:
        return refusals.HINTS_RANKED
    if isinstance(record.occasion, Round):
        return refusals.HINTS_TOURNAMENT
    if record.options.hints or record.in_lesson or against_computer_alone(record):
        return None
    return refusals.HINTS_OFF


def offers_hints(record: GameRecord) -> bool:
    """Whether ``record``'s hands offer *Hint*."""
    return hint_refusal(record) is None


def hints_line(record: GameRecord, taken: Mapping[int, int]) -> str:
    """What a game's result (and its review) says of hints: who asked for how many
    (``taken``, by seat), or that they were allowed and nobody did; empty for a game played
    without hints at a table that offered none but against the computer."""
    asked = [(seat, count) for seat, count in sorted(taken.items()) if count]
    if asked:
        said = [
            f"{escape(record.seats[seat].name)} {'asked for ' if i == 0 else ''}"
            f"{plural(count, 'hint') if i == 0 else count}"
            for i, (seat, count) in enumerate(asked)
            if seat < len(record.seats)
        ]
        return f"💡 Played with hints: {and_list(said)}."
    if record.options.hints:
        return "💡 Hints were allowed at this table; nobody asked for one."
    return ""
