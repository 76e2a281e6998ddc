"""One discipline for every change (issue 66), kept by the code and the schema themselves, as the
doors and floors are (docs/architecture.md, "One discipline for every change"):

- no lock is taken for a change: no advisory lock anywhere in the bot's SQL but the one the
  migrations take, however a wrapper is named (the function names are PostgreSQL's own), and a
  transaction offers nothing but its statements (no ``serialize``-like method to hide one in);
- no row is locked for share, and a row is locked for update only by the ranked queue's
  pairing, which passes over what another pairing holds (``SKIP LOCKED``);
- every ``UPDATE`` of a game, a ranked match or a tournament's pairing names its version: the
  compare-and-set of a change decided on a read, or the version its own transaction moves on;
- every column that holds a person's id references the person (``people``), directly or
  through the row it was made from (a review its seat, a card's record its search), and every
  reference to a person is a column the privacy inventory names (one fact, one place).

Each check reads the source (Python's own parser: adjacent literals are one string, an
f-string's literal parts are read with its holes) or the schema (each database's catalogue), so
a new statement or a new column that breaks the discipline fails here before it can race."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.core.privacy.inventory import Holds, Request, columns_for, person_columns
from bot.store import Store
from bot.store.postgres import PostgresDatabase
from tests.helpers.parsed import parsed
from tests.helpers.schemas import Table, postgres_schema, sqlite_schema

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "bot"

#: Where an advisory lock may be taken: the migrations' own transaction (two processes starting
#: together apply them once), and nowhere else.
ADVISORY_ALLOWED = {"bot/store/postgres.py": "migrating"}
#: SQL that takes a lock of PostgreSQL's named by the caller (every advisory lock function is
#: pg_advisory_* or pg_try_advisory_*), or locks a table whole.
_ADVISORY = re.compile(r"pg_(try_)?advisory|\block\s+table\b", re.IGNORECASE)
#: A row lock for share (FOR SHARE, FOR KEY SHARE), and one for update (FOR UPDATE, FOR NO KEY
#: UPDATE).
_FOR_SHARE = re.compile(r"\bfor\s+(key\s+)?share\b", re.IGNORECASE)
_FOR_UPDATE = re.compile(r"\bfor\s+(no\s+key\s+)?update\b(?P<after>[^;]*)", re.IGNORECASE)
#: The one module that may lock rows for update: the ranked queue's pairing.
QUEUE = "bot/store/ranked_tables.py"
#: The aggregates a change names the version of.
VERSIONED = ("games", "ranked_matches", "tournament_pairings")
#: What a transaction offers: its statements (and, migrating, a whole script).
STATEMENTS = {"fetch", "execute", "executemany", "script"}


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(BOT.rglob("*.py")):
        yield str(path.relative_to(ROOT)), parsed(path.read_text(encoding="utf-8"))


def _text(node: ast.AST) -> str | None:
    """A string literal's text; an f-string's, its holes written ``{}``; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    return None


def _strings(tree: ast.Module) -> Iterator[tuple[int, str, str]]:
    """Every string of a module but its docstrings (an f-string whole, not its parts): its
    line, its text and the name of the function it is in ("" at the top)."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(tree):
        if isinstance(parents.get(node), ast.JoinedStr | ast.Expr):
            continue  # (a part of an f-string, read with it; a docstring, which is prose)
        text = _text(node)
        if text is None:
            continue
        where, up = "", parents.get(node)
        while up is not None:
            if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef):
                where = up.name
                break
            up = parents.get(up)
        yield getattr(node, "lineno", 0), text, where


def advisory_locks() -> list[str]:
    """Every advisory lock the bot's code takes where it may not: ``file:line``."""
    return [
        f"{path}:{line}"
        for path, tree in _sources()
        for line, text, where in _strings(tree)
        if _ADVISORY.search(text) and ADVISORY_ALLOWED.get(path) != where
    ]


def row_locks() -> list[str]:
    """Every row lock for share, and every one for update but the queue's own that passes
    over what another holds: ``file:line: what``."""
    found = []
    for path, tree in _sources():
        for line, text, _ in _strings(tree):
            if _FOR_SHARE.search(text):
                found.append(f"{path}:{line}: for share")
            for match in _FOR_UPDATE.finditer(text):
                skips = re.match(r"\s*skip\s+locked", match["after"], re.IGNORECASE)
                if path != QUEUE or not skips:
                    found.append(f"{path}:{line}: for update")
    return found


def _statement(text: str, start: int) -> str:
    """The statement of ``text`` that begins at ``start``: up to the next that begins there
    (a clause of one statement may be another statement: a CTE's)."""
    rest = text[start + 1 :]
    following = re.search(r"\b(update|insert\s+into|delete\s+from|select)\b", rest, re.I)
    return text[start:] if following is None else text[start : start + 1 + following.start()]


def versioned_updates() -> dict[str, bool]:
    """Every ``UPDATE`` of a game, a match or a pairing in the bot's code (``file:line:
    table``), and whether it names the aggregate's version."""
    found = {}
    pattern = re.compile(rf"\bupdate\s+({'|'.join(VERSIONED)})\b", re.IGNORECASE)
    for path, tree in _sources():
        for line, text, _ in _strings(tree):
            for match in pattern.finditer(text):
                named = bool(re.search(r"\bversion\b", _statement(text, match.start())))
                found[f"{path}:{line}: {match[1]}"] = named
    return found


def transaction_methods() -> dict[str, set[str]]:
    """The public methods of every class in the store that is a transaction (its name says
    so): what a unit of work on the database may do."""
    found: dict[str, set[str]] = {}
    for path, tree in _sources():
        if not path.startswith("bot/store/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and "Transaction" in node.name:
                found[node.name] = {
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                    and not item.name.startswith("_")
                }
    return found


def test_no_advisory_lock_is_taken_for_a_change() -> None:
    assert advisory_locks() == []


def test_a_transaction_offers_its_statements_and_nothing_else() -> None:
    """A lock renamed is the same lock: a unit of work has no method that could take one."""
    methods = transaction_methods()
    assert {"Transaction", "_SqliteTransaction", "_PostgresTransaction"} <= set(methods)
    assert {name: sorted(m - STATEMENTS) for name, m in methods.items() if m - STATEMENTS} == {}


def test_no_row_is_locked_but_by_the_queue_passing_over_what_another_holds() -> None:
    assert row_locks() == []


def test_every_update_of_a_game_a_match_or_a_pairing_names_its_version() -> None:
    updates = versioned_updates()
    assert {table.rsplit(" ", 1)[1] for table in updates} == set(VERSIONED)
    assert [where for where, named in updates.items() if not named] == []


def test_the_deletion_s_updates_by_the_inventory_touch_no_versioned_row() -> None:
    """The deletion's statements drawn from the inventory (the columns it clears or renames,
    table by table: no table name the check above can read) touch no game, match or pairing;
    what it changes there it writes itself, moving each one's version on."""
    drawn = {*columns_for(Request.CLEARED), *columns_for(Request.KEYED)}
    named = {
        table
        for table, columns in columns_for(Request.FORMER).items()
        if any(c.holds is Holds.NAME for c in columns)
    }
    assert (drawn | named) & set(VERSIONED) == set()


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('x = "SELECT pg_advisory_xact_lock(?)"', "advisory"),
        ('x = f"SELECT pg_try_advisory_lock({key})"', "advisory"),
        ('x = "SELECT 1 FROM t WHERE id = ? FOR SHARE"', "rows"),
        ('x = "SELECT 1 FROM t" " FOR UPDATE"', "rows"),
        ('x = "UPDATE ranked_matches SET winner = ? WHERE id = ?"', "version"),
        ('x = f"UPDATE tournament_pairings SET {column} = ?"', "version"),
        ('x = "UPDATE games SET version = version + 1 WHERE id = ?"', ""),
        ('x = "SELECT id FROM t FOR UPDATE SKIP LOCKED"', "rows"),  # (not the queue's module)
    ],
)
def test_the_checks_find_what_they_look_for(source: str, found: str) -> None:
    """Each check sees a statement that breaks the discipline (an f-string, literals side by
    side), and passes one that keeps it."""
    tree = parsed(source)
    strings = [text for _, text, _ in _strings(tree)]
    assert len(strings) == 1
    [text] = strings
    advisory = bool(_ADVISORY.search(text))
    rows = bool(_FOR_SHARE.search(text) or _FOR_UPDATE.search(text))
    version = any(
        not re.search(r"\bversion\b", _statement(text, m.start()))
        for m in re.finditer(rf"\bupdate\s+({'|'.join(VERSIONED)})\b", text, re.IGNORECASE)
    )
    assert {"advisory": advisory, "rows": rows, "version": version} == {
        kind: kind == found for kind in ("advisory", "rows", "version")
    }


# -- a person is a row, and what holds a person's id references it ----------------------------


async def _schema(store: Store) -> dict[str, Table]:
    if isinstance(store.db, PostgresDatabase):
        return await postgres_schema(store.db)
    return await sqlite_schema(store.db)  # type: ignore[arg-type]


def _references(schema: dict[str, Table]) -> dict[tuple[str, str], tuple[str, str]]:
    """Every column referencing another table's column: (table, column) -> (table, column)."""
    found = {}
    for name, table in schema.items():
        for columns, parent, parents in table.foreign_keys:
            for column, referenced in zip(columns, parents, strict=True):
                found[name, column] = (parent, referenced)
    return found


def _refers_to_a_person(
    column: tuple[str, str], references: dict[tuple[str, str], tuple[str, str]]
) -> bool:
    """Whether ``column`` references ``people``, itself or through the columns it references
    (a review's player, through its seat's)."""
    seen = set()
    while column in references and column not in seen:
        seen.add(column)
        column = references[column]
        if column == ("people", "id"):
            return True
    return False


async def test_every_column_holding_a_person_s_id_references_the_person(store: Store) -> None:
    schema = await _schema(store)
    references = _references(schema)
    ids = {
        (table, name)
        for table, columns in person_columns().items()
        for name, column in columns.items()
        if column.holds is Holds.ID and (table, name) != ("people", "id")
    }
    assert ids, "the inventory names no one's id"
    unreferenced = sorted(c for c in ids if not _refers_to_a_person(c, references))
    assert unreferenced == [], "reference the person (people) in a migration"
    # And what references a person is what the inventory says holds one: one fact, one place.
    naming = {c for c, parent in references.items() if parent == ("people", "id")}
    assert naming - ids == set(), "say what each holds in bot/core/privacy/inventory.py"
