"""The house in floors, each importing only its own and those below it: no arrow back up (issue
55). The composition root is on top: ``bot/__main__`` starts the bot (``bot/launch.py``), which
has the composition root (``bot/assembly.py``) make the client and put the bot together; below
them the outer layers, then the core, then the rules. The emulator and the maintenance commands
stand apart: only ``bot/__main__`` reaches them (the playground, a maintenance command by
name), and they may use any floor."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.imports import imported_modules

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[2]

#: The floors, lowest first: each path a package (a folder) or a module (a file).
FLOORS: tuple[tuple[str, ...], ...] = (
    ("engine",),
    ("bot/core", "bot/__init__.py"),
    ("bot/store", "bot/web", "bot/discord", "bot/ops", "bot/settings.py", "bot/early_stop.py"),
    ("bot/assembly.py",),
    ("bot/launch.py",),
    ("bot/__main__.py",),
)
#: Beside the floors: the emulator, the maintenance commands (and ``python -m bot.verify``).
APART = ("fakediscord", "bot/tools", "bot/verify.py")
#: What may reach what stands apart.
REACHES_APART = "bot/__main__.py"


def _place(path: str) -> str:
    """The floor's entry (or apart entry) a module's path belongs to; "" for none."""
    for entry in (*(e for floor in FLOORS for e in floor), *APART):
        if path == entry or path.startswith(entry + "/") or path == entry + ".py":
            return entry
    return ""


def _floor(entry: str) -> int | None:
    return next((n for n, floor in enumerate(FLOORS) if entry in floor), None)


def _path_of(module: str) -> str:
    """A module's path from the root, without ``.py`` for a package's folder."""
    base = ROOT.joinpath(*module.split("."))
    if base.is_dir():
        return str(base.relative_to(ROOT))
    return str(base.with_suffix(".py").relative_to(ROOT))


def arrows_up(root: Path = ROOT) -> list[str]:
    """Every import from a module to one of a floor above its own, or to one apart from a
    module that may not reach it: ``file:line: module``."""
    found: list[str] = []
    for folder in ("engine", "bot", "fakediscord"):
        for path in sorted(root.joinpath(folder).rglob("*.py")):
            here = _place(str(path.relative_to(root)))
            floor = _floor(here)
            for line, module in imported_modules(path.read_text(encoding="utf-8"), str(path)):
                if module.split(".")[0] not in ("engine", "bot", "fakediscord"):
                    continue
                there = _place(_path_of(module))
                if there in APART and here not in APART and here != REACHES_APART:
                    found.append(f"{path.relative_to(root)}:{line}: {module} (apart)")
                reached = _floor(there)
                if floor is not None and reached is not None and reached > floor:
                    found.append(f"{path.relative_to(root)}:{line}: {module}")
    return found


def test_every_module_of_the_bot_has_its_floor() -> None:
    unplaced = [
        str(path.relative_to(ROOT))
        for folder in ("engine", "bot", "fakediscord")
        for path in ROOT.joinpath(folder).rglob("*.py")
        if not _place(str(path.relative_to(ROOT)))
    ]
    assert unplaced == []


def test_no_module_imports_one_of_a_floor_above_its_own() -> None:
    assert arrows_up() == []


@pytest.mark.parametrize(
    ("module", "imports", "up"),
    [
        ("bot/discord/app.py", "from bot.assembly import assemble", True),
        ("bot/web/server.py", "import bot.__main__", True),
        ("bot/core/games/games.py", "from bot.store import Store", True),
        ("bot/discord/app.py", "def f():\n    from bot.launch import run_bot", True),
        ("bot/discord/app.py", "from fakediscord import FakeDiscord", True),
        ("bot/assembly.py", "from bot.discord.app import CribbageBot", False),
        ("bot/discord/app.py", "from bot.store import Store", False),
        ("bot/__main__.py", "from fakediscord.playground import run_playground", False),
        ("bot/tools/copy.py", "from bot.store import Store", False),
    ],
)
def test_an_arrow_back_up_is_found(tmp_path: Path, module: str, imports: str, up: bool) -> None:
    for folder in ("engine", "bot/store", "fakediscord"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    path = tmp_path / module
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(imports + "\n", encoding="utf-8")
    assert bool(arrows_up(tmp_path)) is up
