"""Messages that fit Discord's 2,000 characters with every line whole (``fitted``): the
longest group gives up its last rows, counted on a line of its own; headings always stay. And
a line of ratings, written one way (``ratings_text``). And a name in Discord's markdown
(``escape``): shown as typed wherever it stands, never as formatting, a link or a list."""

from __future__ import annotations

import re
from pathlib import Path

from bot.core.base.text import (
    RATINGS_WHY,
    SHOWN_BASE,
    SHOWN_SCALE,
    escape,
    fitted,
    more_left,
    ratings_text,
)
from bot.core.base.views import MAX_MESSAGE

ROOT = Path(__file__).resolve().parents[4]


def test_what_fits_is_left_as_it_is() -> None:
    assert fitted([["**Top**", "1. Al", "2. Bea"], ["Notes"]]) == "**Top**\n1. Al\n2. Bea\nNotes"


def test_the_longest_group_gives_up_its_last_rows_counted() -> None:
    short = ["**Champions**", *(f"{n}. Champion" for n in range(5))]
    long = ["**Hands**", *(f"{n}. {'x' * 90}" for n in range(40))]
    text = fitted([long, short])
    lines = text.splitlines()
    assert len(text) <= MAX_MESSAGE
    assert lines[0] == "**Hands**" and short == lines[-len(short) :], "the short group whole"
    kept = [line for line in lines if line.endswith("x" * 90)]
    assert kept == long[1 : len(kept) + 1], "the first rows, whole, in order"
    assert lines[len(kept) + 1] == more_left(40 - len(kept))
    # No more was left out than needed: one more row would not have fitted.
    assert len(text) + len(long[len(kept) + 1]) + 1 > MAX_MESSAGE


def test_rows_left_out_already_are_counted_with_those_that_did_not_fit() -> None:
    more = "… and {} more".format
    assert fitted([["Board", "1. Al"]], left=[3], more=more) == "Board\n1. Al\n… and 3 more"
    rows = ["Board", *(f"{n}. {'y' * 150}" for n in range(15))]
    text = fitted([["**Keep me**"], rows], left=[0, 5], more=more)
    shown = len(text.splitlines()) - 3
    assert text.startswith("**Keep me**\nBoard\n") and len(text) <= MAX_MESSAGE
    assert text.endswith(f"… and {15 - shown + 5} more")


def test_headings_stay_and_a_message_of_headings_alone_is_cut_to_fit() -> None:
    groups = [[f"{n} {'z' * 300}"] for n in range(10)]
    text = fitted(groups)
    assert len(text) <= MAX_MESSAGE and text.startswith("0 zzz")


def _ordinal(shown_as: int) -> float:
    """The conservative rating players see as ``shown_as``."""
    return (shown_as - SHOWN_BASE) / SHOWN_SCALE


def test_a_line_of_ratings_is_written_one_way_and_the_docs_quote_it() -> None:
    # Issue 54, item 15: a game's result and a ranked match's wrote their ratings two ways,
    # and docs/players.md a third. One function writes them; the docs' examples are its words.
    game = ratings_text(
        "Ratings", [("Al", _ordinal(1000), _ordinal(1069)), ("Bea", _ordinal(1000), _ordinal(963))]
    )
    line, why = game.split("\n")
    assert line == "Ratings — Al: 1,069 (+69) · Bea: 963 (−37)"
    # Issue 68, item 20: the table never said why a loss costs less than the win gains (or
    # why a 3-player runner-up gains): one short line under the changes says it.
    assert why == RATINGS_WHY and len(why) < 130
    assert "win gains more than a loss costs" in why and "runner-up can gain" in why
    game = line
    # A ranked match's, rated once per match, says each rating it moved from too.
    ranked = ratings_text(
        "Ranked ratings",
        [("Cy", _ordinal(1000), _ordinal(1075)), ("Al", _ordinal(1069), _ordinal(1028))],
        from_=True,
    )
    assert ranked == (
        f"Ranked ratings — Cy: 1,000 → 1,075 (+75) · Al: 1,069 → 1,028 (−41)\n{RATINGS_WHY}"
    )
    ranked = ranked.split("\n")[0]
    assert ratings_text("Ratings", []) == ""
    players = " ".join((ROOT / "docs" / "players.md").read_text(encoding="utf-8").split())
    for line in (game, ranked):
        assert f'"{line}"' in players, line
    # No other way of writing them is left in the docs.
    assert "Ratings: " not in players and "Ranked ratings: " not in players


#: How Discord shows a backslash before a punctuation mark: the mark alone (its markdown's
#: escape rule, as the playground shows it too).
_DISCORD_ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
#: What Discord reads at a line's start as a list (``- ``, ``* ``, ``+ ``, ``1. ``) or a quote
#: or heading, and a link anywhere (which it also previews under the message).
_LINE_START = re.compile(r"\A(?:[-*+]|\d+\.|>|#{1,3})\s")
_LINK = re.compile(r"https?://")
#: What Discord shows highlighted as a call to everyone (pinged or not), unless escaped.
_EVERYONE = re.compile(r"(?<!\\)@(?:everyone|here)")

NAMES = (
    "- Dash",
    "+ Plus",
    "* Star",
    "1. One",
    "2024. Bo",
    "> Quote",
    "# Big",
    "-# Small",
    "https://x.example",
    "Al http://x.example/a_b",
    "Jean-Luc",
    "Dr. No",
    "2.0",
    "Cy:",
    "@everyone",
    "Al @here",
)


def test_a_name_shows_as_typed_at_a_lines_start_never_as_a_link_or_a_call() -> None:
    # (A player called "- Dash" was a bullet at the head of "- Dash resigned — …", "1. One" a
    # numbered list, "https://x.example" a link Discord previewed under the table, and
    # "@everyone" shown highlighted as a call to the whole server.)
    for name in NAMES:
        line = f"{escape(name)} resigned — 🏆 {escape(name)} wins"
        assert not _LINE_START.match(line), line
        assert not _LINK.search(line), line
        assert not _EVERYONE.search(line), line
        assert _DISCORD_ESCAPE.sub(r"\1", line) == f"{name} resigned — 🏆 {name} wins", line
