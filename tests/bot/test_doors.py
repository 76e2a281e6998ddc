"""The outer layers reach the core through a few doors (issues 48 and 55): what ``bot/discord``
and ``bot/web`` import of the core is *defined* in at most a few core modules, counted where
each name is defined (a name imported from a module that only imports it in turn is followed
to its definition, as often as it is passed on), and no door imports a wing above it (neither
a module defining what they import nor one passing it on; nor is a door at the core's root but
the core's face): the doors are the core's faces (:mod:`bot.core.faces`: ``DiscordFace``,
``WebFace``, whose verbs are counted below) and the values,
protocols and words defined low in the core for the outside."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pytest

from tests.helpers.imports import imported_modules
from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

ROOT = Path(__file__).resolve().parents[2]
#: The most core modules one outer package may import names defined in.
MOST = 10
#: The core's face: its module may import every wing (it puts them together).
FACE = "bot.core.faces"


@dataclass
class Sources:
    """Python modules under ``root``, read by name (parsed, never run)."""

    root: Path
    _bindings: dict[str, dict[str, str | None]] = field(default_factory=dict)

    def path(self, module: str) -> Path | None:
        """The file of ``module`` (a package's ``__init__``), None for one not here."""
        base = self.root.joinpath(*module.split("."))
        for candidate in (base / "__init__.py", base.with_suffix(".py")):
            if candidate.is_file():
                return candidate
        return None

    def bindings(self, module: str) -> dict[str, str | None]:
        """Each top-level name of ``module``: the module it was imported from (``"*"`` stands
        for its star imports, by module), or None where ``module`` defines it."""
        if module not in self._bindings:
            found: dict[str, str | None] = {}
            path = self.path(module)
            tree = parsed(path.read_text(encoding="utf-8")) if path else ast.Module([], [])
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    for alias in node.names:
                        name = alias.asname or alias.name
                        if alias.name == "*":
                            found[f"*{node.module}"] = node.module
                        elif self.path(f"{node.module}.{alias.name}") is not None:
                            found[name] = f"{node.module}.{alias.name}:"  # (a module itself)
                        else:
                            found[name] = f"{node.module}:{alias.name}"
                else:
                    found.update(dict.fromkeys(_defined(node)))
            self._bindings[module] = found
        return self._bindings[module]

    def defining(self, module: str, name: str) -> str:
        """The module that defines ``name`` as ``module`` has it, following each import."""
        seen: set[tuple[str, str]] = set()
        while (module, name) not in seen:
            seen.add((module, name))
            found = self.bindings(module)
            source = found.get(name, _starred(found, name, self))
            if source is None:
                return module
            where, _, passed = source.partition(":")
            if not passed or self.path(where) is None:
                return where  # (a module imported whole, or a name from outside this tree)
            module, name = where, passed
        return module

    def core_names(self, package: str) -> set[tuple[str, str]]:
        """``(module, name)`` for each name the files of ``package`` import from the core (a
        core module imported whole is its own name)."""
        found: set[tuple[str, str]] = set()
        for path in sorted(self.root.joinpath(*package.split(".")).rglob("*.py")):
            for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.core"):
                    found.update((node.module or "", alias.name) for alias in node.names)
                elif isinstance(node, ast.Import):
                    found.update(
                        (alias.name, "")
                        for alias in node.names
                        if alias.name.startswith("bot.core")
                    )
        return found

    def doors(self, package: str) -> set[str]:
        """The core modules defining what ``package`` imports of the core."""
        found = (
            self.defining(module, name) if name else module
            for module, name in self.core_names(package)
        )
        return {module for module in found if module.startswith("bot.core")}

    def passages(self, package: str) -> set[str]:
        """The core modules ``package`` imports from, and those that define what it imports
        (a module that passes a name on is a door the name goes through)."""
        return {module for module, _ in self.core_names(package)} | self.doors(package)

    @cached_property
    def core(self) -> dict[str, set[str]]:
        """Each core module: the core modules it imports (parsed: any import, at any depth)."""
        graph: dict[str, set[str]] = {}
        for path in sorted(self.root.joinpath("bot", "core").rglob("*.py")):
            module = ".".join(path.relative_to(self.root).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            text = path.read_text(encoding="utf-8")
            found = {m for _, m in imported_modules(text) if m.startswith("bot.core.")}
            # (``from bot.core.base import refusals`` imports the module refusals too.)
            for node in ast.walk(parsed(text)):
                if isinstance(node, ast.ImportFrom) and node.module in found:
                    named = (f"{node.module}.{alias.name}" for alias in node.names)
                    found.update(m for m in named if self.path(m) is not None)
            graph[module] = found
        return graph

    def reached(self, module: str) -> set[str]:
        """The core modules ``module`` imports, and those they import, and on."""
        return _closure(module, self.core)

    def at_root(self, module: str) -> bool:
        """Whether ``module`` is a module at the core's root (not a wing's folder)."""
        path = self.path(module)
        return len(module.split(".")) == 3 and path is not None and path.name != "__init__.py"

    def wing(self, module: str) -> str:
        """A core module's wing: its folder under ``bot/core`` (a module at the core's root is
        a wing of its own)."""
        return ".".join(module.split(".")[:3])

    def wings(self, leaving_out: set[str]) -> dict[str, set[str]]:
        """Each wing: the wings it imports, and those they import, and on (the imports of
        the modules ``leaving_out`` left out)."""
        direct: dict[str, set[str]] = {}
        for module, imported in self.core.items():
            mine = direct.setdefault(self.wing(module), set())
            if module not in leaving_out:
                mine.update(self.wing(m) for m in imported)
        return {wing: _closure(wing, direct) - {wing} for wing in direct}

    def above(self, door: str) -> set[str]:
        """The wings above ``door``'s: each imports it (without the door, and what the door
        imports of its own wing), and it imports none of them."""
        mine = self.wing(door)
        own = {door} | {m for m in self.reached(door) if self.wing(m) == mine}
        wings = self.wings(own)
        return {w for w, below in wings.items() if mine in below} - wings[mine]

    def too_high(self, door: str) -> list[str]:
        """What ``door`` imports of the wings above its own (its own wing, at the core's
        root: a door there other than the face stands above every wing it gathers)."""
        if door == FACE:
            return []
        if self.at_root(door) and self.core.get(door):
            return [f"{door} is at the core's root: {sorted(self.core[door])}"]
        above = self.above(door)
        return sorted(m for m in self.reached(door) if self.wing(m) in above)


def _closure(start: str, edges: dict[str, set[str]]) -> set[str]:
    """What ``start`` reaches along ``edges``, one step or more."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for found in edges.get(todo.pop(), ()):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return seen


def _defined(node: ast.stmt) -> Iterable[str]:
    """The names a top-level statement defines (not an import)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield node.name
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            yield from (n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    elif isinstance(node, ast.Import):
        yield from ((alias.asname or alias.name).split(".")[0] for alias in node.names)
    elif isinstance(node, ast.If | ast.Try):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                yield from _defined(child)


def _starred(found: dict[str, str | None], name: str, sources: Sources) -> str | None:
    """Where ``name`` comes from through a star import of ``found``'s module (as
    ``module:name``), or None: defined there, or nowhere."""
    for key, module in found.items():
        if key.startswith("*") and module is not None and name in sources.bindings(module):
            return f"{module}:{name}"
    return None


@pytest.fixture(scope="module")
def tree() -> Sources:
    return Sources(ROOT)


@pytest.mark.parametrize("package", ["bot.discord", "bot.web"])
def test_an_outer_layer_reads_the_core_from_a_few_doors(tree: Sources, package: str) -> None:
    doors = tree.doors(package)
    assert len(doors) <= MOST, sorted(doors)


@pytest.mark.parametrize("package", ["bot.discord", "bot.web"])
def test_no_door_imports_a_wing_above_it(tree: Sources, package: str) -> None:
    doors = sorted(tree.passages(package))
    assert {door: high for door in doors if (high := tree.too_high(door))} == {}


def _write(root: Path, files: dict[str, str]) -> Sources:
    """A tree of ``files`` under ``root``, each folder of it a package (an empty ``__init__``
    where ``files`` writes none), as the project's are."""
    for name, text in files.items():
        path = root.joinpath(*name.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for path in list(root.rglob("*.py")):
        for folder in path.relative_to(root).parents[:-1]:
            (root / folder / "__init__.py").touch()
    return Sources(root)


def test_a_name_passed_on_is_counted_where_it_is_defined(tmp_path: Path) -> None:
    tree = _write(
        tmp_path,
        {
            "bot/core/base/owners.py": "class Owner: ...\nKINDS = 2\n",
            "bot/core/base/list.py": "from bot.core.base.owners import *  # noqa\n",
            "bot/core/gathered.py": (
                "from bot.core.base.list import Owner as Owner\nfrom bot.core.base import owners\n"
            ),
            "bot/outer/a.py": (
                "from bot.core.gathered import Owner, owners\n"
                "from bot.core.base.list import KINDS\n"
                "import bot.core.base.list\nfrom bot.web import pages\n"
            ),
        },
    )
    assert tree.defining("bot.core.gathered", "Owner") == "bot.core.base.owners"
    assert tree.doors("bot.outer") == {
        "bot.core.base.owners",  # Owner and KINDS, through two lists, and the module itself
        "bot.core.base.list",  # imported whole
    }


def test_a_door_that_imports_a_wing_above_it_is_found(tmp_path: Path) -> None:
    tree = _write(
        tmp_path,
        {
            "bot/core/faces.py": "from bot.core.high import deal\nfrom bot.core.base import v\n",
            "bot/core/base/v.py": "from bot.core.high.deal import Refused\nclass View: ...\n",
            "bot/core/base/w.py": "class Word: ...\n",
            "bot/core/high/deal.py": "from bot.core.base.w import Word\nclass Refused: ...\n",
            "bot/core/mid/m.py": "from bot.core.base.w import Word\nclass M: ...\n",
            "bot/core/ports.py": "from bot.core.base.w import Word\nclass Port: ...\n",
        },
    )
    assert tree.too_high("bot.core.base.v") == ["bot.core.high.deal"]
    assert tree.too_high("bot.core.base.w") == []
    assert tree.too_high("bot.core.mid.m") == []  # (base is below it)
    assert tree.too_high("bot.core.faces") == []
    assert tree.too_high("bot.core.ports") != []  # a door at the core's root


# -- the verbs: what each outer layer calls on its face's parts (issue 69) -----------------------

#: Each outer layer, its face in :mod:`bot.core.faces`, and the most verbs it may call there:
#: a verb is a method of one of the face's parts (``moves.click``) or of the face itself
#: (``stats``). A feature that adds one raises its ceiling on purpose.
FACES = {"bot.discord": ("DiscordFace", 88), "bot.web": ("WebFace", 16)}
#: The names a face goes by where it is held.
FACE_NAMES = frozenset({"services", "_services", "core", "_core", "face", "_face"})


def face_parts(source: str, face: str) -> tuple[dict[str, str], set[str]]:
    """The parts ``face`` (a Protocol in ``source``) offers, each to the name of its class, and
    its own methods."""
    classes = {n.name: n for n in parsed(source).body if isinstance(n, ast.ClassDef)}
    parts: dict[str, str] = {}
    own: set[str] = set()
    node = classes[face]
    # (A face may stand on narrower ones of the same module.)
    bases = [classes[b.id] for b in node.bases if isinstance(b, ast.Name) and b.id in classes]
    for item in [i for c in (node, *bases) for i in c.body]:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            decorated = {ast.unparse(d) for d in item.decorator_list}
            if "property" in decorated and item.returns is not None:
                parts[item.name] = ast.unparse(item.returns)
            else:
                own.add(item.name)
    return parts, own


def _held(node: ast.expr) -> str | None:
    """The name ``node`` is held under: a local name, or ``self.<name>``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}" if node.value.id == "self" else None
    return None


def _is_face(node: ast.expr, faces: set[str]) -> bool:
    name = _held(node)
    if name is not None and (name in faces or name.removeprefix("self.") in FACE_NAMES):
        return True
    return isinstance(node, ast.Attribute) and node.attr in FACE_NAMES


def _assigned(function: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """Each ``target = value`` in ``function``, a tuple's assigned element by element."""
    found: list[tuple[ast.expr, ast.expr]] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                found += zip(target.elts, value.elts, strict=False)
            else:
                found.append((target, value))
    return found


def layer_verbs(sources: dict[str, str], parts: dict[str, str], own: set[str]) -> set[str]:
    """The verbs the modules ``sources`` (path: text) call on a face offering ``parts`` and
    ``own`` methods: ``part.method`` or ``(face).method``. A part is followed where it is held
    under another name (``moves = self._core.moves``, ``self._lobbies = services.lobbies``) or
    handed in by its class (a parameter ``lobbies: Lobbies``)."""
    classes = {cls: part for part, cls in parts.items()}
    verbs: set[str] = set()
    for text in sources.values():
        tree = parsed(text)
        for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)] + [tree]:
            body = cls.body
            functions = [f for f in body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
            # (What ``self`` holds is the class's; a local name is its function's.)
            kept: dict[str, str] = {}
            faces: set[str] = set()
            local: dict[ast.AST, dict[str, str]] = {}
            for function in functions:
                held = local.setdefault(function, {})
                for arg in function.args.args + function.args.kwonlyargs:
                    typed = ast.unparse(arg.annotation) if arg.annotation else ""
                    if typed in classes:
                        held[arg.arg] = classes[typed]
                    elif typed.endswith("Face"):
                        faces.add(arg.arg)
                for target, value in _assigned(function):
                    name = _held(target)
                    if name is None:
                        continue
                    into = kept if name.startswith("self.") else held
                    if isinstance(value, ast.Attribute) and value.attr in parts:
                        if _is_face(value.value, faces):
                            into[name] = value.attr
                    elif (alias := _held(value)) in held or alias in kept:
                        # (A part held again under another name: ``tours = self._acts``.)
                        into[name] = held.get(alias) or kept[alias]
                    elif isinstance(value, ast.Name) and value.id in faces:
                        faces.add(name)
            for function in functions:
                held = kept | local[function]
                for node in ast.walk(function):
                    if not isinstance(node, ast.Attribute):
                        continue
                    value = node.value
                    name = _held(value)
                    if name in held:
                        verbs.add(f"{held[name]}.{node.attr}")
                    elif isinstance(value, ast.Attribute) and value.attr in parts:
                        if _is_face(value.value, faces):
                            verbs.add(f"{value.attr}.{node.attr}")
                    elif node.attr in own and _is_face(value, faces):
                        verbs.add(f"(face).{node.attr}")
    return verbs


def _layer(package: str) -> dict[str, str]:
    folder = ROOT.joinpath(*package.split("."))
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py"))}


@pytest.mark.parametrize("package", sorted(FACES))
def test_an_outer_layer_calls_no_more_verbs_of_its_face_than_its_ceiling(package: str) -> None:
    face, ceiling = FACES[package]
    parts, own = face_parts((ROOT / "bot" / "core" / "faces.py").read_text(), face)
    verbs = layer_verbs(_layer(package), parts, own)
    assert len(verbs) <= ceiling, f"{package}: {len(verbs)} verbs:\n" + "\n".join(sorted(verbs))


@pytest.mark.parametrize("package", sorted(FACES))
def test_every_part_of_a_face_is_used_by_its_layer(package: str) -> None:
    face, _ = FACES[package]
    parts, own = face_parts((ROOT / "bot" / "core" / "faces.py").read_text(), face)
    verbs = layer_verbs(_layer(package), parts, own)
    used = {verb.split(".")[0] for verb in verbs} | {
        verb.split(".")[1] for verb in verbs if verb.startswith("(face)")
    }
    assert sorted((set(parts) | own) - used) == []


@pytest.mark.parametrize("package", sorted(FACES))
def test_the_core_is_reached_through_a_face_never_by_services(package: str) -> None:
    names = Sources(ROOT).core_names(package)
    assert not [name for module, name in names if module == "bot.core.services"]


def test_the_verbs_are_counted_through_aliases_and_parameters() -> None:
    faces = (
        "class G(Protocol):\n"
        "    @property\n    def moves(self) -> Moves: ...\n"
        "class F(G, Protocol):\n"
        "    @property\n    def lobbies(self) -> Lobbies: ...\n"
        "    async def stats(self) -> None: ...\n"
    )
    layer = {
        "a.py": (
            "class A:\n"
            "    def __init__(self, services: F, lobbies: Lobbies) -> None:\n"
            "        self._core = services\n"
            "        self._moves = services.moves\n"
            "        self._lobbies = lobbies\n"
            "    async def go(self) -> None:\n"
            "        await self._moves.click()\n"
            "        await self._core.moves.play()\n"
            "        await self._lobbies.join()\n"
            "        await self._core.stats()\n"
            "        user, moves = None, self._core.moves\n"
            "        await moves.discard()\n"
            "        lobbies = self._lobbies\n"
            "        await lobbies.leave()\n"
        )
    }
    parts, own = face_parts(faces, "F")
    assert parts == {"moves": "Moves", "lobbies": "Lobbies"} and own == {"stats"}
    assert layer_verbs(layer, parts, own) == {
        "moves.click",
        "moves.play",
        "moves.discard",
        "lobbies.join",
        "lobbies.leave",
        "(face).stats",
    }
