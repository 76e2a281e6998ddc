"""Every setting the bot reads is the one ``.env.example`` and docs/running.md list, and what
they (and the rest of the docs) say its default is, is what the bot takes when it is unset:
one fact, :meth:`Settings.from_env`, read here by watching what it looks up."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from bot.__main__ import PLAYGROUND_CLOCKS
from bot.core.ranked.turns import TURN_SECONDS
from bot.settings import Settings
from tests.helpers.settings_read import example_comment, settings_read

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")
#: Where a setting's default may be said.
DOCS = {
    path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
    for path in [ROOT / "README.md", ROOT / ".env.example", *sorted((ROOT / "docs").glob("*.md"))]
}
#: How many seconds each unit a default may be written in holds.
UNITS = {"": 1, " s": 1, " seconds": 1, " minutes": 60, " hours": 3600, " days": 86400}


def _example() -> dict[str, str]:
    """``.env.example``'s settings, each with the value it writes (blank: left unset)."""
    return dict(re.findall(r"(?m)^([A-Z][A-Z_]+)=(.*)$", EXAMPLE))


def test_the_watch_sees_the_settingssettings_read() -> None:
    read = settings_read()
    assert {"DISCORD_TOKEN", "IDLE_EXPIRY_DAYS", "RANKED_TURN_SECONDS", "WEB_PORT"} <= set(read)
    assert len(read) == len(set(read)) >= 25


def test_env_example_lists_every_setting_read_and_no_other() -> None:
    assert sorted(settings_read()) == sorted(_example())


def test_the_operators_guide_lists_every_settingsettings_read() -> None:
    running = (ROOT / "docs" / "running.md").read_text(encoding="utf-8")
    section = running[running.index("## Settings") :]
    section = section[: section.index("\n## ")]
    assert [name for name in settings_read() if f"`{name}`" not in section] == []


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, v in _example().items() if v])
def test_each_value_env_example_writes_is_the_default(name: str, value: str) -> None:
    # Copying .env.example to .env changes nothing: each value it writes is the one the bot
    # takes when the setting is unset.
    assert Settings.from_env({name: value}) == Settings.from_env({}), name


#: "default N" (or, in .env.example, "empty: N") and the unit it may be written in.
_DEFAULT = (
    r"(?:default,?|empty:) (\d+(?:\.\d+)?)(?![.\d])((?: s| seconds| minutes| hours| days)?)\b"
)
#: Between a setting's name and the default said of it: neither the end of a sentence nor
#: another setting's name.
_BETWEEN = r"(?:(?!`[A-Z_]{4,}`|[A-Z_]{4,}=)[^.;])*?"


def _defaults_said() -> list[tuple[str, str, str, float]]:
    """Each default the docs say of a setting: where, the setting, the words, and the number
    they come to in the setting's own unit (a "default 10 minutes" of a setting in seconds is
    600). The setting is named before its default, or .env.example's comment above the
    setting's line says it of the setting without naming it."""
    found: list[tuple[str, str, re.Match[str]]] = []
    for where, text in DOCS.items():
        flat = " ".join(text.replace("#", " ").split())
        for name in settings_read():
            pattern = rf"`?{name}`?{_BETWEEN}{_DEFAULT}"
            found += [(where, name, match) for match in re.finditer(pattern, flat)]
    for name in settings_read():
        comment = " ".join(example_comment(EXAMPLE, name).replace("#", " ").split())
        if name not in comment:  # (one that names it is read as the docs are, above)
            found += [(".env.example", name, m) for m in re.finditer(_DEFAULT, comment)]
    said = []
    for where, name, match in found:
        unit, own = match.group(2), " " + name.rsplit("_", 1)[-1].lower()
        scale = UNITS[unit] / UNITS.get(own, 1) if unit else 1
        said.append((where, name, match.group(0)[-40:], float(match.group(1)) * scale))
    return said


def test_every_default_the_docs_say_is_the_one_taken() -> None:
    said = _defaults_said()
    named = {name for _, name, _, _ in said}
    assert {"RANKED_TURN_SECONDS", "MEMBER_CHECK_SECONDS", "RETENTION_DAYS"} <= named, named
    wrong = [
        (where, words)
        for where, name, words, value in said
        if Settings.from_env({name: f"{value:g}"}) != Settings.from_env({})
    ]
    assert wrong == []


def test_a_ranked_turns_default_is_the_turn_clocks() -> None:
    assert Settings.from_env({}).ranked_turn == timedelta(seconds=TURN_SECONDS)


def test_the_playgrounds_clocks_are_said_as_it_sets_them() -> None:
    running = " ".join(DOCS["docs/running.md"].split())
    readme = " ".join(DOCS["README.md"].split())
    example = " ".join(EXAMPLE.replace("#", " ").split())
    for name, value in PLAYGROUND_CLOCKS.items():
        assert f"{value} in the local playground" in running, name
        assert f"{value} in the local playground" in example, name
        assert re.search(rf"{value} s there unless `{name}`", readme), name
