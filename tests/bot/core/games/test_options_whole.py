"""A table's options travel whole (issue 69): from what a person asks (``/cribbage new``, the
Activity's new game: a :class:`~bot.core.base.replies.TableAsked`) through the one check that
makes them the table's :class:`~bot.core.games.records.Options`, to the store and back, as that
one value. The options are spelled out one by one in those few places alone: the value, what is
asked, the one check, the command's own parameters and the page's body read into what is
asked, the store's one reader and one writer of their columns, and the page's one drawing.

A place spells them out where one definition, call, literal or SQL statement names most of
them (fields, parameters, keywords, a dict's keys, the attributes a tuple reads, columns). The
files are parsed, not imported, so a place added later is checked too."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.games.records import Options
from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[4]
#: The option names, and the one a person asks under another name.
OPTIONS = frozenset(field.name for field in dataclasses.fields(Options))
ASKED_AS = {"players": "num_players"}
#: More than this many of the seven in one place is spelling them out.
MOST = 4
#: The places that may, by file: the top-level names (``Class.method``) they are in.
PLACES = {
    # The value, what a person asks, and the one check from one to the other.
    "bot/core/games/records.py": {"Options"},
    "bot/core/base/replies.py": {"TableAsked"},
    "bot/core/games/lobby.py": {"options_of"},
    # Discord's command, its parameters as Discord shows them, made what is asked.
    "bot/discord/game_commands.py": {"GameCommands.new"},
    # The Activity's new game: the page's body read into what is asked.
    "bot/web/activity/acts.py": {"asked_of"},
    # The store's one reader and one writer of the options' columns.
    "bot/store/game_options.py": {"options_of", "options_params"},
    # The page's one drawing of a table's options.
    "bot/core/messages/activity.py": {"options_json"},
}


def _named(names: Iterator[str]) -> set[str]:
    return {ASKED_AS.get(name, name) for name in names} & OPTIONS


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _spelled(node: ast.AST, docstrings: set[int]) -> set[str]:
    """The options ``node`` names itself (not those of the nodes inside it)."""
    if isinstance(node, ast.Call):
        return _named(k.arg for k in node.keywords if k.arg)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        a = node.args
        return _named(arg.arg for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs))
    if isinstance(node, ast.ClassDef):
        return _named(
            s.target.id
            for s in node.body
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
        )
    if isinstance(node, ast.Dict):
        return _named(
            k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
        )
    if isinstance(node, ast.Tuple | ast.List):
        return _named(
            sub.attr for e in node.elts for sub in ast.walk(e) if isinstance(sub, ast.Attribute)
        )
    text = node.value if isinstance(node, ast.Constant) and id(node) not in docstrings else None
    if isinstance(text, str) and re.search(r"\b(SELECT|INSERT|UPDATE)\b", text):
        # An SQL statement, naming the columns.
        return _named(iter(re.findall(r"\w+", text)))
    return set()


def spelled_out(source: str) -> set[str]:
    """The top-level names (``Class.method``; a constant's name) of ``source`` where more than
    :data:`MOST` of the options are spelled out in one place."""
    tree = parsed(source)
    docstrings = _docstrings(tree)
    found: set[str] = set()

    def visit(node: ast.AST, within: str) -> None:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            within = f"{within}.{node.name}" if within else node.name
        elif isinstance(node, ast.Assign | ast.AnnAssign) and not within:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            within = ",".join(t.id for t in targets if isinstance(t, ast.Name))
        if len(_spelled(node, docstrings)) > MOST:
            found.add(within)
        for child in ast.iter_child_nodes(node):
            visit(child, within)

    visit(tree, "")
    return found


def test_the_options_are_spelled_out_in_their_few_places_alone() -> None:
    found = {
        path.relative_to(ROOT).as_posix(): names
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if (names := spelled_out(path.read_text(encoding="utf-8")))
    }
    assert found == PLACES


def test_a_place_that_takes_them_apart_is_found() -> None:
    # A record keeping the options as fields of its own, a call handing them over one by one,
    # and a statement writing them column by column: each is a place of its own.
    source = """
class Record:
    num_players: int
    target: int
    scoring: str
    counting: str
    variant: str

def open_game(players, target, vs_computer, scoring, counting, variant, hints):
    return make(players=players, target=target, vs_computer=vs_computer, scoring=scoring,
                counting=counting)

_SET = "UPDATE games SET num_players = ?, target = ?, scoring = ?, counting = ?, hints = ?"
"""
    assert spelled_out(source) == {"Record", "open_game", "_SET"}
