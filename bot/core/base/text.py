"""What every message uses: players' and sides' names, markdown escaping, message splitting."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta

import wcwidth

from bot.core.base.views import MARKDOWN_SPECIAL, MAX_MESSAGE
from engine.cards import Card
from engine.rules import Rules
from engine.views import PublicView

__all__ = [
    "RATINGS_WHY",
    "Names",
    "and_list",
    "card_labels",
    "change_text",
    "chunk",
    "code_cell",
    "code_safe",
    "code_width",
    "escape",
    "fitted",
    "more_left",
    "period",
    "plural",
    "rating_text",
    "ratings_text",
    "shown",
    "signed_tenths",
    "signed_text",
    "tagged",
]


#: What Discord reads only at a line's start, where a name may stand: a list's marker ("- Al",
#: "+ Al", "1. Al"), escaped at the start of a name.
_LIST_MARKER = re.compile(r"\A(?:[-+]|(?P<number>\d+)\.)(?=\s)")
_MARKDOWN = str.maketrans({ch: "\\" + ch for ch in MARKDOWN_SPECIAL})


def _unlisted(marker: re.Match[str]) -> str:
    number = marker.group("number")
    return f"{number}\\." if number is not None else "\\" + marker.group()


def escape(name: str) -> str:
    r"""A display name made safe for Discord markdown: shown as typed, wherever in a line it
    stands, never as formatting, a mention, a link or a list (a name like ``**Al**``,
    ``<@123>``, ``@everyone``, ``https://x.example`` or ``- Al`` stays as typed).

    >>> print(escape("**Al** <@123> @everyone"))
    \*\*Al\*\* <\@123\> \@everyone
    >>> print(escape("- Al"), escape("1. Bea"), escape("Cy-Di 2.0"), escape("https://x.example"))
    \- Al 1\. Bea Cy-Di 2.0 https\://x.example
    """
    return _LIST_MARKER.sub(_unlisted, name.translate(_MARKDOWN))


def code_safe(name: str) -> str:
    """A name for inside a code block: backticks would end the block."""
    return name.replace("`", "'")


def code_width(text: str) -> int:
    """How many columns ``text`` takes in a code block's monospace font: most emoji and East
    Asian characters take two, an accent typed as a combining mark none (wcwidth's reading of
    Unicode's tables), where ``len`` counts characters."""
    return int(wcwidth.width(text))


def code_cell(name: str, width: int) -> str:
    """``name`` in a column ``width`` wide of a code block's table: cut with "…" where it is
    wider, then padded, both by :func:`code_width`, so that the columns after it line up
    whatever characters a name is made of (a name is made :func:`code_safe` first).

    >>> code_cell("Al", 4) + "|", code_cell("漢字さん", 4) + "|", code_cell("Bea 🎲", 6) + "|"
    ('Al  |', '漢… |', 'Bea 🎲|')
    """
    name = code_safe(name)
    if code_width(name) > width:
        # A wide character cut in half is filled with a space, which goes before the "…".
        name = str(wcwidth.clip(name, 0, width - 1)).rstrip(" ") + "…"
    return str(wcwidth.ljust(name, width))


def tagged(name: str, value: object) -> str:
    """A name and the score (or card, or chance) that belongs to it, set apart so that the
    one never runs into the other, whatever the name: "Bea: 14", "Hard bot 2: 0", and a
    player called "Bea 2" reads "Bea 2: 14".

    >>> tagged("Hard bot 2", 0)
    'Hard bot 2: 0'
    """
    return f"{name}: {value}"


def plural(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def period(length: timedelta) -> str:
    """A period in days, or hours below one: how every message and page says a setting's
    length (a game's idle expiry, how long things are kept).

    >>> period(timedelta(days=30)), period(timedelta(days=1)), period(timedelta(hours=12))
    ('30 days', '1 day', '12 hours')
    >>> period(timedelta(days=0.5)), period(timedelta(days=1.5))
    ('12 hours', '1.5 days')
    """
    days = length.total_seconds() / 86_400
    if days < 1:
        hours = max(1, round(length.total_seconds() / 3600))
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{days:g} day{'s' if days != 1 else ''}"


def shown_at(at: float, style: str = "f") -> str:
    """A moment as Discord shows it to each reader, in the reader's own time zone (a Discord
    timestamp, ``style`` ``d`` the day, ``t`` the time, ``R`` how long ago or until, ``f`` day
    and time): how every message says when something happened or will, never a date in UTC,
    which is another day for half the world.

    >>> shown_at(1767225600.7, "d"), shown_at(1767225600, "R")
    ('<t:1767225600:d>', '<t:1767225600:R>')
    """
    return f"<t:{int(at)}:{style}>"


def shown_day(at: float) -> str:
    """The day of a moment as each reader's calendar has it (a result's, a record's)."""
    return shown_at(at, "d")


def shown_until(at: float, style: str = "t") -> str:
    """A moment to come, its time (``style`` ``f``: its day and time) and how long until it:
    ``<t:…:t> (<t:…:R>)``."""
    return f"{shown_at(at, style)} ({shown_at(at, 'R')})"


class Names:
    """The names at a table: players by seat, and sides (partners are "Al & Cy"), as the
    game's rules make the sides."""

    def __init__(self, players: Sequence[str], rules: Rules) -> None:
        self.raw = tuple(players)
        self.players = tuple(escape(name) for name in players)
        self.rules = rules
        self.sides = rules.sides
        self.num_sides = len(self.sides)

    @classmethod
    def of(cls, view: PublicView) -> Names:
        """The names of a game's public view."""
        return cls(view.players, view.rules)

    @property
    def partners(self) -> bool:
        """Whether sides are teams of partners (four players in the standard game): as the
        rules say."""
        return self.rules.partners

    def seat(self, seat: int) -> str:
        """A player's name."""
        return self.players[seat]

    def side(self, side: int) -> str:
        """A side's name: the player, or the partners ("Al & Cy")."""
        return " & ".join(self.players[s] for s in self.sides[side])

    def typed_side(self, side: int) -> str:
        """A side's name as its players typed theirs, for where nothing reads markdown: a
        picture, its alt text, the Activity's page (its script sets names as text)."""
        return " & ".join(self.raw[s] for s in self.sides[side])

    def verb(self, singular: str, plural: str) -> str:
        """``wins`` for one player, ``win`` for partners."""
        return plural if self.partners else singular


def chunk(lines: Iterable[str], limit: int = MAX_MESSAGE) -> list[str]:
    """Join lines into messages of at most ``limit`` characters (a longer line is cut)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


def more_left(left: int) -> str:
    """The line that counts what a message left out: "… and 3 more: too many for one
    message."."""
    return f"… and {left} more: too many for one message."


def fitted(
    groups: Sequence[Sequence[str]],
    *,
    left: Sequence[int] = (),
    limit: int = MAX_MESSAGE,
    more: Callable[[int], str] = more_left,
) -> str:
    """Groups of lines (each a heading, then its rows) as one message of at most ``limit``
    characters, every line whole: while it is too long the group with the most rows shown
    loses its last one, and a group that lost rows ends with a line counting them
    (``more``), with the rows ``left`` says it had left out already. Headings always stay
    (a line that must stay is a group of its own); if they alone are too long the message is
    cut.

    >>> fitted([["**Top**", "1. Al", "2. Bea", "3. Cy"]], limit=25, more=lambda n: f"+{n}")
    '**Top**\\n1. Al\\n2. Bea\\n+1'
    """
    shown = [list(group) for group in groups]
    dropped = [*left, *[0] * (len(shown) - len(left))]

    def text() -> str:
        lines: list[str] = []
        for rows, out in zip(shown, dropped, strict=True):
            lines += rows
            if out:
                lines.append(more(out))
        return "\n".join(lines)

    while len(message := text()) > limit:
        longest = max(range(len(shown)), key=lambda i: len(shown[i]))
        if len(shown[longest]) <= 1:
            return chunk(message.splitlines(), limit)[0]
        shown[longest].pop()
        dropped[longest] += 1
    return message


def and_list(words: Iterable[str]) -> str:
    """Words for a sentence: "Al", "Al and Bea", "Al, Bea and Cy"."""
    said = list(words)
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + " and " + said[-1]


def card_labels(cards: Iterable[Card]) -> str:
    """Cards for a sentence: "5♥ and J♦"."""
    return and_list(str(c) for c in cards)


#: The minus sign players see before a number (U+2212, as in "Bea 963 (−37)"), never a hyphen.
MINUS = "−"


def rating_text(ordinal: float) -> str:
    """A rating as players see it: ``1,512``."""
    return f"{shown(ordinal):,}".replace("-", MINUS)


def signed_text(n: int) -> str:
    """A whole number with its sign as players read it: ``+18``, ``−22`` (a minus sign, never
    a hyphen), ``±0``."""
    return f"+{n}" if n > 0 else f"{MINUS}{-n}" if n < 0 else "±0"


def signed_tenths(x: float) -> str:
    """``+8.0``, ``−8.0``; ``0.0`` when it rounds to nothing."""
    text = f"{abs(x):.1f}"
    if text.strip("0.") == "":
        return text
    return f"+{text}" if x > 0 else f"{MINUS}{text}"


def change_text(before: float, after: float, *, from_: bool = False) -> str:
    """A rating and its change: ``1,512 (+18)``; ``from_``: with the rating it moved from,
    ``1,494 → 1,512 (+18)``."""
    moved = f"{rating_text(before)} → " if from_ else ""
    return f"{moved}{rating_text(after)} ({signed_text(shown(after) - shown(before))})"


#: Why the changes under a result are what they are, said under them (a loss that costs less
#: than the win gains, a runner-up who gains): docs/players.md says it at length.
RATINGS_WHY = (
    "*A rating rises as the bot grows surer of a player: a win gains more than a loss costs, "
    "and a runner-up can gain too.*"
)


def ratings_text(
    label: str, changes: Iterable[tuple[str, float, float]], *, from_: bool = False
) -> str:
    """The one way a line of rating changes is written (after a game's result, a ranked
    match's, and docs/players.md quotes it): each person's new rating and its change, set
    apart from their name as a score is, ``changes`` giving each name (escaped) with its
    conservative rating (ordinal) before and after, then :data:`RATINGS_WHY`; empty when
    there is none. ``from_``: each with the rating it moved from (a ranked match's, rated once
    per match).

    >>> ratings_text("Ratings", [("Al", 3.45, 3.0), ("Bea", 0.0, 3.25)]).splitlines()[0]
    'Ratings — Al: 1,060 (−9) · Bea: 1,065 (+65)'
    >>> ratings_text("Ranked ratings", [("Al", 0.0, 3.25)], from_=True).splitlines()[0]
    'Ranked ratings — Al: 1,000 → 1,065 (+65)'
    """
    said = [
        tagged(name, change_text(before, after, from_=from_)) for name, before, after in changes
    ]
    return f"{label} — {' · '.join(said)}\n{RATINGS_WHY}" if said else ""


#: How the ordinal is shown: a newcomer (ordinal 0) is 1,000.
SHOWN_BASE, SHOWN_SCALE = 1000, 20


def shown(ordinal: float) -> int:
    """The friendly number for an ordinal (``mu - 3 sigma``).

    >>> shown(0.0), shown(15.62)
    (1000, 1312)
    """
    return round(SHOWN_BASE + SHOWN_SCALE * ordinal)
