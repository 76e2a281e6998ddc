"""Each control's custom id, written once: one format builds the id and reads it back.

A format is the id's text with ``{name}`` fields and the pattern each field's value matches;
its ``build`` writes an id, its ``read`` gives back the fields of one, and a component's
template (what discord.py matches a click's custom id against) is drawn from the same formats,
so the id a control is sent with and the pattern that reads its click cannot drift apart.

Discord keeps the messages the bot sent long ago, with the ids of their day: a format's text
never changes (``tests/bot/discord/test_id_formats.py`` holds a sample of each). An id is
at most 100 characters (Discord's limit).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

__all__ = [
    "BOARD",
    "BOARD_VARIANT",
    "CALL",
    "COMPUTER",
    "COUNT",
    "DAILY",
    "DISCARD",
    "ENTRY",
    "FORGET",
    "GAME_QUESTION",
    "HINT",
    "LEAVE_MATCH",
    "LOBBY",
    "PLAY",
    "PRIVACY",
    "RANKED",
    "REMATCH",
    "REMATCH_HAND",
    "REVIEW",
    "REVIEW_PAGE",
    "TOURNAMENT_QUESTION",
    "IdFormat",
    "game_prefix",
    "read",
    "template",
]

#: How every control of a game begins (the courier finds a game's lost posts by it).
_GAME = "crib:{game}:"
_GAME_ID = r"\d+"
_SNOWFLAKE = r"\d{1,19}"
_STAMP = r"\d+"
_CHOICE = "yes|no"
_CARD_CODE = r"(?:10|[2-9AJQK])[CDHS]"


@dataclass(frozen=True, eq=False)
class IdFormat:
    """A custom id's ``text`` with ``{name}`` fields, and the pattern each field matches.
    (Equal only to itself: a component tells its formats apart by identity.)"""

    text: str
    fields: Mapping[str, str]

    def pattern(self, *, named: bool = True) -> str:
        """The regular expression of the ids this format writes (its fields as named groups,
        or unnamed ones to stand beside other formats in one template)."""
        parts: list[str] = []
        for literal, name, _spec, _conversion in string.Formatter().parse(self.text):
            parts.append(re.escape(literal))
            if name is not None:
                parts.append(f"({f'?P<{name}>' if named else '?:'}{self.fields[name]})")
        return "".join(parts)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern. ASCII: ``\\d`` is 0-9 alone, so an id forged with other digits
        ("١٢") names nothing, rather than the game its digits would read as."""
        return re.compile(self.pattern(), re.ASCII)

    def build(self, **values: object) -> str:
        """The custom id with these values in its fields."""
        return self.text.format(**values)

    def read(self, custom_id: str) -> dict[str, str] | None:
        """The fields of ``custom_id``, or None when this format did not write it."""
        found = self.regex.fullmatch(custom_id)
        return None if found is None else found.groupdict()


def template(*formats: IdFormat) -> str:
    """One pattern matching the ids of any of ``formats`` (a component's template)."""
    return "|".join(f"(?:{f.pattern(named=False)})" for f in formats)


def read(custom_id: str, *formats: IdFormat) -> tuple[IdFormat, dict[str, str]]:
    """The first of ``formats`` that reads ``custom_id``, and its fields (the component's
    template matched already, so one of them does)."""
    for made in formats:
        fields = made.read(custom_id)
        if fields is not None:
            return made, fields
    raise ValueError(f"no format reads the custom id {custom_id!r}")


def game_prefix(game_id: int) -> str:
    """How every custom id of a game's controls begins."""
    return _GAME.format(game=game_id)


_LOBBY_ACTIONS = "join|leave|start|cancel|remove_computer|add_seat|partners|hand|resign|table"

#: ``crib:<game>:lobby:<action>``: the lobby's buttons, a private table's *Your hand* and
#: *Resign*, and
#: *Play at the table* (the Activity) on the lobby and the table.
LOBBY = IdFormat(_GAME + "lobby:{action}", {"game": _GAME_ID, "action": _LOBBY_ACTIONS})
#: ``crib:<game>:lobby:computer``: the lobby's "Add computer" menu.
COMPUTER = IdFormat(_GAME + "lobby:computer", {"game": _GAME_ID})
#: ``crib:<game>:play:<stamp>:<card code>``: one button per card on your turn.
PLAY = IdFormat(
    _GAME + "play:{stamp}:{card}", {"game": _GAME_ID, "stamp": _STAMP, "card": _CARD_CODE}
)
#: ``crib:<game>:<muggins|pass>:<stamp>``: Muggins! and No muggins.
CALL = IdFormat(
    _GAME + "{call}:{stamp}", {"game": _GAME_ID, "call": "muggins|pass", "stamp": _STAMP}
)
#: ``crib:<game>:hint:<stamp>``: *Hint* on a hand's discard or play (the expert's choice,
#: said to the clicker alone).
HINT = IdFormat(_GAME + "hint:{stamp}", {"game": _GAME_ID, "stamp": _STAMP})
#: ``crib:<game>:discard:<stamp>``: the crib select menu.
DISCARD = IdFormat(_GAME + "discard:{stamp}", {"game": _GAME_ID, "stamp": _STAMP})
#: ``crib:<game>:count:<stamp>:<0|1>``: the two menus of values to claim for a hand (manual
#: counting: more values than one select menu holds).
COUNT = IdFormat(
    _GAME + "count:{stamp}:{half}", {"game": _GAME_ID, "stamp": _STAMP, "half": "[01]"}
)


def _question(head: str, subject: str, questions: str) -> IdFormat:
    """The format of Yes and No under a question: every question's has the same fields, so
    that one table builds and reads them all."""
    fields = {"subject": subject, "question": questions, "choice": _CHOICE}
    return IdFormat(head + "{subject}:{question}:{choice}", fields)


#: ``crib:<game>:<resign|cancel>:<yes|no>``: Yes and No under a game's question.
GAME_QUESTION = _question("crib:", _GAME_ID, "resign|cancel")
#: ``crib:tournament:<id>:<withdraw|cancel>:<yes|no>``: under a tournament's question.
TOURNAMENT_QUESTION = _question("crib:tournament:", _GAME_ID, "withdraw|cancel")
#: ``crib:privacy:<person>:forget:<yes|no>``: under *Delete my data*'s question.
FORGET = _question("crib:privacy:", _SNOWFLAKE, "forget")
#: ``crib:ranked:<match>:leave:<yes|no>``: under a ranked match's question.
LEAVE_MATCH = _question("crib:ranked:", _SNOWFLAKE, "leave")
#: ``crib:privacy:<person>:<data|delete>``: ``/cribbage privacy``'s buttons.
PRIVACY = IdFormat(
    "crib:privacy:{person}:{action}", {"person": _SNOWFLAKE, "action": "data|delete"}
)
_BOARD_FIELDS = {"table": "people|computer", "page": r"\d{1,6}"}
#: ``crib:board:<people|computer>:<page>``: a standard game's leaderboard buttons (the server
#: is the click's own, never the id's).
BOARD = IdFormat("crib:board:{table}:{page}", _BOARD_FIELDS)
#: ``crib:board:<people|computer>:<page>:<variant>``: another variant's.
BOARD_VARIANT = IdFormat(
    "crib:board:{table}:{page}:{variant}", {**_BOARD_FIELDS, "variant": "[a-z_]{1,32}"}
)
#: ``crib:tournament:<id>:<join|leave|checkin>``: a tournament message's Join and Leave, and
#: a club night's Check in.
ENTRY = IdFormat(
    "crib:tournament:{tournament}:{action}",
    {"tournament": _GAME_ID, "action": "join|leave|checkin"},
)
#: ``crib:<game>:rematch``: *Rematch* (or *Play again*) on a game's result: the game opened
#: again at its table (each of its players takes their seat with it).
REMATCH = IdFormat(_GAME + "rematch", {"game": _GAME_ID})
#: ``crib:<game>:rematch:hand``: the same, on a player's last hand message of the game (by
#: DM): the rematch opens at the game's table, and the presser is answered privately.
REMATCH_HAND = IdFormat(_GAME + "rematch:hand", {"game": _GAME_ID})
#: ``crib:review:<game>``: the *Review* button on a game's result (each person who clicks
#: gets their own review, privately).
REVIEW = IdFormat("crib:review:{game}", {"game": _SNOWFLAKE})
#: ``crib:review:<game>:<seat>:<page>``: a review page's Previous and Next.
REVIEW_PAGE = IdFormat(
    "crib:review:{game}:{seat}:{page}", {"game": _SNOWFLAKE, "seat": "[0-5]", "page": r"\d{1,4}"}
)
#: ``crib:daily:<YYYYMMDD>``: the discard of the day's menu (the server is the click's own).
DAILY = IdFormat("crib:daily:{stamp}", {"stamp": r"\d{8}"})
#: ``crib:ranked:<entry>:<stop|expert>``: a ranked card's buttons (the entry's player alone
#: may use them); ``crib:ranked:<match>:again``: a decided match's *Find a ranked match*
#: (anyone there may).
RANKED = IdFormat(
    "crib:ranked:{entry}:{action}", {"entry": _SNOWFLAKE, "action": "stop|expert|again"}
)
