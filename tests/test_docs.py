"""The docs' links and references reach what they name, and a fact the docs share with the
code is said in the code once.

Every link between the repository's Markdown files reaches its file and, with an anchor, a
heading there (as GitHub makes the anchor); every reference written as a file and a section's
title in quotes, ``(docs/running.md, "Backups")``, in any file of the repository (the settings'
``.env.example``, docstrings, comments), names a file and a section of it that are there: a
heading, or a paragraph's bold lead (``**Title.**``). ``.env.example`` sent readers to "Running
at scale" in the README, which is in docs/running.md.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

from bot.core.games.rules_help import FOLLOWING_DEAL, WHO_MAY_CANCEL, rules_text

ROOT = Path(__file__).parents[1]

#: A Markdown link to a file of the repository: [text](path), [text](path#anchor), [text](#anchor).
_LINK = re.compile(r"\[[^\]]*\]\((?!https?:|mailto:)([^)\s]*)\)")
#: A reference to a section of a file: its path (or the README of the package the reference is
#: in), a comma, and the section's title in quotes.
_REFERENCE = re.compile(
    r"(?:(?<=\()|(?<=its )|(?<=see ))((?:\.\./)*(?:[\w-]+/)*[\w-]+\.md|README),\s*\"([^\"]+)\""
)
#: The other way round: "Title" in the README / in docs/x.md.
_REFERENCE_AFTER = re.compile(r"\"([^\"]+)\" in (?:the (README)|(docs/[\w-]+\.md))\b")


def _tracked() -> list[Path]:
    """The repository's text files that may hold a link or a reference."""
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    wanted = (".md", ".py", ".js", ".mjs", ".sh", ".toml", ".example")
    return [ROOT / name for name in names if name.endswith(wanted) and "saved_games" not in name]


@cache
def _sections(path: Path) -> tuple[set[str], set[str]]:
    """The titles of ``path``'s headings and bold leads, and its headings' anchors."""
    titles: set[str] = set()
    anchors: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            title = heading.group(1).strip()
            titles.add(title)
            anchors.add(_anchor(title))
        titles.update(re.findall(r"\*\*([^*]+?)\.?\*\*", line))
    return titles, anchors


def _anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.

    >>> _anchor("Ranked play (issue 49, `benchmarks/ranked_queue.py`, 26 November 2026)")
    'ranked-play-issue-49-benchmarksranked_queuepy-26-november-2026'
    """
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _flat(path: Path) -> str:
    """``path``'s text with its lines joined (comment marks and the joins of adjacent string
    literals dropped), so that a reference wrapped onto two lines reads as one."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\n\s*(?:#:?|//)?\s*", " ", text)
    if path.suffix == ".py":
        text = re.sub(r"(?<=[^\\])([\"'])\s+\1", "", text)
    return text


def _target(source: Path, name: str) -> Path:
    """The file a reference in ``source`` names: a path from the repository's root or from
    ``source``'s folder; "README" alone is the README of ``source``'s package."""
    if name == "README":
        package = source.relative_to(ROOT).parts[0]
        own = ROOT / package / "README.md"
        return own if own.is_file() and source.parent != ROOT else ROOT / "README.md"
    beside = (source.parent / name).resolve()
    return beside if beside.is_file() else ROOT / name


def test_every_link_between_the_docs_reaches_its_file_and_heading() -> None:
    broken = []
    for source in _tracked():
        if source.suffix != ".md":
            continue
        for link in _LINK.findall(source.read_text(encoding="utf-8")):
            name, _, anchor = link.partition("#")
            target = (source.parent / name).resolve() if name else source
            if not target.exists():
                broken.append(f"{source.relative_to(ROOT)}: {link} (no such file)")
            elif anchor and anchor not in _sections(target)[1]:
                broken.append(f"{source.relative_to(ROOT)}: {link} (no such heading)")
    assert not broken, "\n".join(broken)


def test_every_section_a_file_names_is_there() -> None:
    found = 0
    broken = []
    for source in _tracked():
        if source.resolve() == Path(__file__).resolve():
            continue
        text = _flat(source)
        after = [(a or b, t) for t, a, b in _REFERENCE_AFTER.findall(text)]
        pairs = _REFERENCE.findall(text) + after
        for name, title in pairs:
            target = _target(source, name)
            found += 1
            if not target.is_file():
                broken.append(f"{source.relative_to(ROOT)}: {name} (no such file)")
            elif title not in _sections(target)[0]:
                where = target.relative_to(ROOT)
                broken.append(f'{source.relative_to(ROOT)}: "{title}" is not a section of {where}')
    assert found > 5, "the references were read"
    assert not broken, "\n".join(broken)


def _said(text: str) -> str:
    """Text as it reads: Markdown's emphasis dropped, lines joined."""
    return " ".join(text.replace("*", "").split())


def test_who_may_cancel_is_said_as_the_lobby_lets_them() -> None:
    """The README's table said "the creator, in the lobby" where the lobby also lets a
    moderator cancel, as its refusal says: one sentence, the rules' help's, everywhere."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [row] = [line for line in readme.splitlines() if line.startswith("| `/cribbage cancel` |")]
    assert row.split("|")[3].strip() == WHO_MAY_CANCEL
    players = _said((ROOT / "docs/players.md").read_text(encoding="utf-8"))
    assert WHO_MAY_CANCEL in players


def test_who_deals_first_in_a_rematch_is_said_as_the_rules_help_says() -> None:
    """The rule for a following game (bot.core.games.series.following_dealer), with its
    source: one sentence, the rules' help's, in docs/players.md and ``/cribbage rules``."""
    players = _said((ROOT / "docs/players.md").read_text(encoding="utf-8"))
    assert FOLLOWING_DEAL in players
    assert FOLLOWING_DEAL in rules_text("deal")


#: docs/performance.md holds today's figures and how to take them; the dated history is
#: docs/performance-history.md (issue 55).
PERFORMANCE_LINES = 300
#: A benchmark named in the docs: its file, or its module as run (``benchmarks.NAME``).
_BENCHMARK = re.compile(r"\bbenchmarks[/.](\w+)(?:\.py)?\b")


def _benchmarks() -> set[str]:
    """The modules under benchmarks/ (its package's ``__init__`` aside)."""
    return {path.stem for path in (ROOT / "benchmarks").glob("*.py")} - {"__init__"}


def test_the_performance_page_is_short_enough_to_find_todays_figures() -> None:
    lines = (ROOT / "docs/performance.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= PERFORMANCE_LINES, (
        f"docs/performance.md has {len(lines)} lines (at most {PERFORMANCE_LINES}): move the"
        " older figures to docs/performance-history.md"
    )


def test_the_performance_page_names_every_benchmark_and_no_other() -> None:
    named = set(_BENCHMARK.findall((ROOT / "docs/performance.md").read_text(encoding="utf-8")))
    named.discard("NAME")  # the pattern of the command, `benchmarks.NAME`
    assert sorted(_benchmarks() - named) == [], "benchmarks not in docs/performance.md"
    assert sorted(named - _benchmarks()) == [], "docs/performance.md names no such benchmark"


#: The checklist of what a new command or feature touches (issue 69), and the paths it names:
#: anything in backquotes with a slash or a file's ending (``<wing>`` stands for any folder).
_CHECKLIST = ("docs/architecture.md", "### What a new command or feature touches")
_PATH = re.compile(r"`([\w./<>-]*(?:/|\.(?:py|md))[\w./<>-]*)`")


def checklist_paths(text: str) -> list[str]:
    """The paths the checklist section of ``text`` names (see :data:`_CHECKLIST`)."""
    start = text.index(_CHECKLIST[1])
    end = text.find("\n#", start + len(_CHECKLIST[1]))
    return _PATH.findall(text[start : end if end >= 0 else len(text)])


def _missing(paths: list[str], root: Path, folder: Path) -> list[str]:
    missing = []
    for path in paths:
        pattern = re.sub(r"<[^>]+>", "*", path).rstrip("/")
        # (A name alone is a file of the folder named before it.)
        named = "/" in path
        if not list((root if named else folder).glob(pattern)):
            missing.append(path)
        elif named:
            found = next(iter(root.glob(pattern)))
            folder = found if found.is_dir() else found.parent
    return missing


def test_the_new_feature_checklist_names_only_paths_that_exist() -> None:
    text = (ROOT / _CHECKLIST[0]).read_text(encoding="utf-8")
    paths = checklist_paths(text)
    assert len(paths) >= 20, "the checklist names the files a new feature touches"
    assert _missing(paths, ROOT, ROOT) == []


def test_the_checklist_check_finds_a_path_that_is_gone(tmp_path: Path) -> None:
    (tmp_path / "bot" / "core" / "games").mkdir(parents=True)
    (tmp_path / "bot" / "core" / "games" / "wing.py").write_text("")
    text = (
        "### What a new command or feature touches\n"
        "1. `bot/core/<wing>/wing.py`, `bot/core/old.py`, `bot/core/games/` (`wing.py`,"
        " `gone.py`)\n## After\n`bot/after.py`\n"
    )
    paths = checklist_paths(text)
    assert "bot/after.py" not in paths
    assert _missing(paths, tmp_path, tmp_path) == ["bot/core/old.py", "gone.py"]
