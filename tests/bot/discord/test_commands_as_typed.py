"""Every command the README, the docs, `/cribbage help`, `/cribbage rules` and the bot's own
messages name is written the way it is typed (issue 37): `/cribbage` then an existing
subcommand, then options by their real names (never a bare word: `/cribbage coach on` is
refused), and for options with fixed choices one of those choices."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.core.games.rules_help import HELP, RULES_TOPICS
from tests.helpers.commands import the_commands

ROOT = Path(__file__).resolve().parents[3]
#: A command in code spans: `/cribbage ...`.
WRITTEN = re.compile(r"`(/cribbage[^`]*)`")
#: A usage's optional part, written as players read it in the README: `[game]`.
OPTIONAL = re.compile(r"\[(\w+)\]")
#: An option and its value (which may hold spaces: `cards:5H JD`, `season:this month`).
OPTION = re.compile(r"([\w-]+):(.*?)(?=\s+[\w-]+:|$)")


def _texts() -> Iterator[tuple[str, str]]:
    yield "/cribbage help", HELP
    for topic, text in RULES_TOPICS.items():
        yield f"/cribbage rules topic:{topic}", text
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")
    # What the bot says: every message is a string in its code (a command in one is written
    # in code spans there too).
    for path in sorted((ROOT / "bot").rglob("*.py")):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def _problem(line: str, group: app_commands.Group) -> str | None:
    """What is wrong with one written command, or None."""
    words = line.split()[1:]
    node: app_commands.Group | app_commands.Command[Any, Any, Any] = group
    while words and isinstance(node, app_commands.Group):
        if words[0] in ("...", "…"):
            return None  # (a family named as such: `/cribbage tournament ...`)
        found = node.get_command(words[0])
        if found is None:
            return f"no subcommand {words[0]!r}"
        node, words = found, words[1:]
    if isinstance(node, app_commands.Group):
        return None  # (a group named as such: `/cribbage tournament`)
    options = {p.name: p for p in node.parameters}
    rest = " ".join(words)
    for optional in OPTIONAL.findall(rest):
        if optional not in options:
            return f"no option {optional!r} of {node.qualified_name}"
    rest = OPTIONAL.sub("", rest).strip()
    first = OPTION.search(rest)
    bare = rest[: first.start()] if first else rest
    if bare.strip() and bare.strip() not in ("…", "..."):
        return f"{bare.strip()!r} is not typed as name:value"
    for name, value in OPTION.findall(rest):
        if name not in options:
            return f"no option {name!r} of {node.qualified_name}"
        choices = options[name].choices
        typed = value.strip().lower()
        if (
            choices
            and typed not in ("?", "")  # (an option named, its value left to the reader)
            and not typed.startswith("{")  # (a value the code fills in)
            and typed
            not in {str(c.value).lower() for c in choices} | {c.name.lower() for c in choices}
        ):
            return f"{value!r} is not a choice of {name} ({', '.join(c.name for c in choices)})"
    return None


def test_every_command_written_is_one_that_can_be_typed() -> None:
    group = the_commands()
    problems = [
        f"{where}: `{line}`: {problem}"
        for where, text in _texts()
        for line in WRITTEN.findall(text)
        if (problem := _problem(line, group))
    ]
    assert problems == []


def test_the_help_names_the_commands_a_player_needs_first() -> None:
    first = [line.split()[:2] for line in WRITTEN.findall(HELP)]
    assert first[0] == ["/cribbage", "new"]
    assert WRITTEN.findall(HELP)[1].split() == ["/cribbage", "new", "vs_computer:True"]
    named = {" ".join(words) for words in first}
    for needed in ("hand", "status", "resign", "review", "rules", "count-hand"):
        assert f"/cribbage {needed}" in named, needed
