"""The rules live in one value (issue 34): ``engine.rules`` holds the value and nothing else,
and no part of the engine, the bot or the benchmarks keeps a rule of its own: the names the
rules were once kept under are defined nowhere, nothing reads a private name of the rules
module, and no part counts the players to know a rule (it asks the game's rules).

The files are parsed, not imported, so a module added later is checked too."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.rules
from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "engine" / "rules.py"
#: Where the code that plays by the rules lives.
CODE = ("engine", "bot", "benchmarks")
#: What the rules module offers: the value and its parts.
VALUE = {"PlayEnd", "Points", "Rules", "Share"}
#: Names rules were kept under before they were a value (in the rules module and beside it):
#: defining one again, anywhere, would be a second home for a rule.
FORMER = {
    "SHOW_SIZE", "HAND_SIZE", "HAND_CARDS", "hand_size", "discard_count", "FIFTEEN",
    "FIFTEEN_POINTS", "MAX_COUNT", "THIRTY_ONE_POINTS", "SET_POINTS", "MIN_RUN",
    "FOUR_CARD_FLUSH_POINTS", "FIVE_CARD_FLUSH_POINTS", "flush_points", "NOBS_POINTS",
    "HEELS_POINTS", "GO_POINTS", "LAST_CARD_POINTS", "TARGETS", "LURCH_LINE", "SKUNK_LINE_121",
    "CLAIM_VALUES", "MAX_HAND_VALUE", "IMPOSSIBLE_HAND_VALUES", "game_points", "make_result",
    "pip_value",
}  # fmt: skip
#: Facts of the cards, not rules: a card's pip value and the jack's rank, in engine.cards only.
CARD_FACTS = {"PIP_VALUES", "JACK"}
#: Files about something else that has players: tournaments count their entrants.
NOT_GAMES = {"engine/tournament.py", "engine/formats"}


def sources() -> Iterator[tuple[str, ast.Module]]:
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            yield name, parsed(path.read_text(encoding="utf-8"), name)


def defined(tree: ast.Module) -> set[str]:
    """Names a module defines at its top level (assignments, functions, classes)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_rules_module_holds_the_value_and_nothing_else() -> None:
    tree = parsed(RULES.read_text(encoding="utf-8"))
    public = {name for name in defined(tree) if not name.startswith("_")}
    assert public == VALUE
    assert set(engine.rules.__all__) == VALUE


def test_no_module_defines_a_rule_under_a_former_name() -> None:
    found = {
        f"{name}: {clash}"
        for name, tree in sources()
        for clash in defined(tree) & (FORMER | CARD_FACTS)
        if not (name == "engine/cards.py" and clash in CARD_FACTS)
    }
    assert found == set()


def test_nothing_reads_a_private_name_of_the_rules_module() -> None:
    found = set()
    for name, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "engine.rules":
                found |= {f"{name}: {a.name}" for a in node.names if a.name not in VALUE}
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "rules"
                and node.attr.startswith("_")
            ):
                found.add(f"{name}:{node.lineno}: rules.{node.attr}")
    assert found == set()


def counts_players(node: ast.expr) -> bool:
    """Whether ``node`` is a number of players: ``len(x.players)``, ``x.num_players``,
    ``players`` or ``num_players``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        arg = node.args[0] if node.args else None
        return isinstance(arg, ast.Attribute) and arg.attr == "players"
    if isinstance(node, ast.Attribute):
        return node.attr == "num_players"
    return isinstance(node, ast.Name) and node.id in ("players", "num_players")


def player_counts(tree: ast.Module) -> Iterator[ast.Compare]:
    """Comparisons of a number of players with a literal number of players, two or more (or
    several: a table of numbers)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        parts = [node.left, *node.comparators]
        literal = [
            part
            for part in parts
            if (isinstance(part, ast.Constant) and type(part.value) is int and part.value >= 2)
            or (
                isinstance(part, ast.Tuple | ast.List | ast.Set)
                and part.elts
                and all(isinstance(e, ast.Constant) for e in part.elts)
            )
        ]
        if literal and any(counts_players(part) for part in parts):
            yield node


def test_no_part_counts_the_players_to_know_a_rule() -> None:
    found = {
        f"{name}:{node.lineno}: {ast.unparse(node)}"
        for name, tree in sources()
        if name != "engine/rules.py" and not any(name.startswith(n) for n in NOT_GAMES)
        for node in player_counts(tree)
    }
    assert found == set()


@pytest.mark.parametrize(
    "source",
    [
        "if len(view.players) == 4: pass",
        "size = 6 if players == 2 else 5",
        "ok = record.num_players in (2, 3, 4)",
        "SHOW_SIZE = 4",
        "from engine.rules import _standard",
    ],
)
def test_the_checks_catch_what_they_look_for(source: str) -> None:
    tree = parsed(source)
    caught = (
        bool(list(player_counts(tree)))
        or bool(defined(tree) & FORMER)
        or any(
            isinstance(n, ast.ImportFrom) and any(a.name not in VALUE for a in n.names)
            for n in ast.walk(tree)
        )
    )
    assert caught
