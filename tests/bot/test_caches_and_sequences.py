"""One discipline for what changes (issue 66, docs/architecture.md "Versions, caches and one
sequence a game"): what the bot keeps of a read is kept by version and only moves forward, never
dropped because "something was heard" while it was on its way; and a game's changes take their
turn on the game's own sequence, never on a lock of the process.

Each rule is read from the source (parsed, never run), as the door and floor tests read it:

- no cache drops a read because anything at all changed meanwhile: no ``keep_read``, no
  ``changes_heard``, nor a twin of theirs by another name (a count taken from an object before
  an await, then compared with the same count, or handed back to that object, after it);
- every bounded cache of the bot that holds what it read is a :class:`Newest` (version, value);
  the few :class:`Recent` caches left are listed here with why they need no version: a memo whose
  key or value names the version it was drawn for, or what the process decided itself;
- every in-process lock or semaphore is listed here with what it orders, none of them a game's
  changes (the games' per-channel locks went: a game's changes take their turn on its sequence).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"

#: Names of the mechanism that dropped a read if anything was heard while it was on its way.
GONE = frozenset({"keep_read", "changes_heard"})

#: The Recent caches that need no version, by module and the name they are kept under.
RECENT = {
    # memos: their key, or a value compared on each use, names the version drawn for
    ("bot/core/messages/game_messages.py", "_settled"): "drawn messages by (version, facts)",
    ("bot/core/ranked/places.py", "_settled"): "drawn messages by (version, status, coach)",
    ("bot/web/server.py", "_pictures"): "a board's picture by (game, version and names)",
    ("bot/web/pages.py", "_PAGES"): "a replay's page by (game, version, path, review)",
    # what this process decided itself: nothing read from elsewhere
    ("bot/core/base/faults.py", "_said"): "which faults this process has logged",
    ("bot/core/ledger/tokens.py", "_written_until"): "when this process wrote a link down",
    ("bot/core/ranked/turns.py", "_began"): "when this process first saw each turn",
    (
        "bot/core/messages/game_messages.py",
        "_finals",
    ): "deals' final tables: never change once final",
    ("bot/core/messages/game_messages.py", "_through"): "the private looks this process drew",
    (
        "bot/core/messages/game_messages.py",
        "_floor",
    ): "the lowest of the private looks this process drew and forgot",
    # Newest itself: its values and the versions told, each by key
    ("bot/core/base/recent.py", "_kept"): "Newest's values, each with its version",
    ("bot/core/base/recent.py", "_told"): "Newest's versions told",
}

#: The in-process locks and semaphores, by module and name, and what each orders.
LOCKS = {
    ("bot/core/ledger/life.py", "reading"): "one read again of an owner's messages at a time",
    ("bot/core/ledger/takeover.py", "lock"): "one look for an owner's lost posts at a time",
    ("bot/core/ledger/writes.py", "_write_turn"): "one write-behind of messages at a time",
    ("bot/core/ranked/queue.py", "_joining"): "a few queue joins at once",
    ("bot/core/ranked/referee.py", "_at_once"): "a few matches looked at at once",
    ("bot/store/sqlite.py", "_lock"): "SQLite's one writing connection",
    ("bot/ops/metrics.py", "_refreshing"): "one scrape's reads at a time",
}
_LOCK_TYPES = frozenset({"Lock", "Semaphore", "BoundedSemaphore", "Condition"})


def _sources(root: Path = BOT) -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(root.rglob("*.py")):
        yield path.relative_to(root.parent).as_posix(), parsed(path.read_text("utf-8"))


def _target_name(node: ast.AST) -> str | None:
    """The name a value is kept under: ``x``, ``self.x``, or a dataclass field's ``x``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _made(tree: ast.Module, names: frozenset[str]) -> list[tuple[str | None, str]]:
    """Each ``(kept under, type)`` where ``tree`` makes one of the classes ``names`` (a call of
    it, or a dataclass field's ``default_factory`` of it), by the name it is kept under."""
    found: list[tuple[str | None, str]] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        if value is None:
            continue
        for made in ast.walk(value):
            if isinstance(made, ast.Call):
                callee = _called(made.func)
                factory = [_called(k.value) for k in made.keywords if k.arg == "default_factory"]
                for kind in [callee, *factory]:
                    if kind in names:
                        found += [(_target_name(t), kind) for t in targets]
    return found


def _called(node: ast.AST) -> str | None:
    """The class or function a call names: ``Recent``, ``asyncio.Lock`` -> ``Lock``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def heard_meanwhile(tree: ast.Module) -> list[str]:
    """The places in ``tree`` where an async function takes a count from an object (an
    attribute, or a call without arguments, of it) before an await, and after the await
    compares the same count with it or hands it back to that object: a read kept, or dropped,
    by whether *anything* was heard meanwhile (``keep_read``, ``changes_heard``), not by the
    version of what it read."""
    found: list[str] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.AsyncFunctionDef):
            continue
        taken: dict[str, tuple[ast.expr, int]] = {}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and _a_count(node.value)
            ):
                taken[node.targets[0].id] = (node.value, node.lineno)
        awaits = [n.lineno for n in ast.walk(function) if isinstance(n, ast.Await)]
        for node in ast.walk(function):
            for name, (count, line) in taken.items():
                if not any(line <= at < node_line(node) for at in awaits):
                    continue
                if _compares(node, name, count) or _hands_back(node, name, count):
                    found.append(f"{function.name}:{node_line(node)}: {name}")
    return sorted(set(found))


def node_line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)


def _a_count(value: ast.expr) -> bool:
    """An attribute of an object, or a call of its method without arguments."""
    if isinstance(value, ast.Attribute):
        return isinstance(value.value, (ast.Name, ast.Attribute))
    if isinstance(value, ast.Call) and not value.args and not value.keywords:
        return isinstance(value.func, ast.Attribute)
    return False


def _compares(node: ast.AST, name: str, count: ast.expr) -> bool:
    if not isinstance(node, ast.Compare):
        return False
    sides = [node.left, *node.comparators]
    named = any(isinstance(s, ast.Name) and s.id == name for s in sides)
    return named and any(ast.dump(s) == ast.dump(count) for s in sides)


def _hands_back(node: ast.AST, name: str, count: ast.expr) -> bool:
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    taken = count.func if isinstance(count, ast.Call) else count
    if not isinstance(taken, ast.Attribute):
        return False
    owner = taken.value
    given = [*node.args, *(k.value for k in node.keywords)]
    return ast.dump(node.func.value) == ast.dump(owner) and any(
        isinstance(a, ast.Name) and a.id == name for a in given
    )


def test_no_cache_drops_a_read_because_something_was_heard() -> None:
    named = [
        f"{module}:{node.lineno}"
        for module, tree in _sources()
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id in GONE)
        or (isinstance(node, ast.Attribute) and node.attr in GONE)
        or (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in GONE)
    ]
    assert named == []
    twins = {module: found for module, tree in _sources() if (found := heard_meanwhile(tree))}
    assert twins == {}


@pytest.mark.parametrize(
    "source",
    [
        # Recent.keep_read as the coach's settings, the refused DMs and the DM links used it
        """
async def off(self, users):
    began = self._cache.changes()
    read = await self._store.coach_off(users)
    self._cache.keep_read(users[0], read, began)
""",
        # the game page's and the Activity's own check of the same kind
        """
async def live(self, request):
    heard = self._patrol.changes_heard
    record = await self._record(request)
    if record.version != shown or self._patrol.changes_heard != heard:
        self._patrol.ask(record.id)
""",
        # the same, renamed
        """
async def read(self, key):
    seen = self.noise.count
    value = await self.store.read(key)
    if seen == self.noise.count:
        self.kept[key] = value
""",
    ],
)
def test_a_read_dropped_because_something_was_heard_is_found_by_any_name(source: str) -> None:
    assert heard_meanwhile(parsed(source)) != []


def test_a_read_kept_by_its_own_version_is_not_taken_for_one() -> None:
    source = """
async def read(self, key):
    version = self._kept.known(key) or 0
    value = await self.store.read(key)
    self._kept.keep(key, version, value)
    now = self._clock()
    await self.store.write(key, now)
    self._cache.keep(key, now, value)
"""
    assert heard_meanwhile(parsed(source)) == []


def test_what_is_read_is_cached_by_version() -> None:
    """A new cache of reads is a Newest; a Recent needs a reason here to need no version."""
    recent = {
        (module, name or "?")
        for module, tree in _sources()
        for name, _ in _made(tree, frozenset({"Recent"}))
        if module != "bot/core/base/recent.py" or name in ("_kept", "_told")
    }
    assert sorted(recent - set(RECENT)) == [], "a Recent of what was read: make it a Newest"
    assert sorted(set(RECENT) - recent) == [], "gone: strike it from the list"
    newest = {
        module for module, tree in _sources() for _, kind in _made(tree, frozenset({"Newest"}))
    }
    # (the coach setting, refused DMs and result lines, DM links, the loaded games, matches)
    assert {
        "bot/core/games/coach_settings.py",
        "bot/core/messages/game_messages.py",
        "bot/core/ledger/tokens.py",
        "bot/core/games/games.py",
        "bot/core/ranked/scoreboard.py",
    } <= newest


def test_no_lock_of_the_process_orders_a_games_changes() -> None:
    """Every lock and semaphore of the process is listed with what it orders; a game's changes
    take their turn on the game's sequence (``Sequences``), never on a lock."""
    locks = {
        (module, name or "?") for module, tree in _sources() for name, _ in _made(tree, _LOCK_TYPES)
    }
    assert sorted(locks - set(LOCKS)) == [], "a new lock: say what it orders, or use a sequence"
    assert sorted(set(LOCKS) - locks) == [], "gone: strike it from the list"
    games = parsed((BOT / "core" / "games" / "games.py").read_text("utf-8"))
    made = {kind for _, kind in _made(games, frozenset({"Sequences", *_LOCK_TYPES}))}
    assert made == {"Sequences"}, "the games change on their sequences"
