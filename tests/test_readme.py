"""The README and the package's description say what the code does: the Python it needs, the
databases it runs on, and every command of the local playground."""

from __future__ import annotations

import re
import tomllib

from tests.helpers.readme import README, ROOT, playground_commands, section

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

#: The name a reader knows each store's migrations folder by.
DATABASES = {"sqlite": "SQLite", "postgres": "PostgreSQL"}


def test_the_readme_says_the_python_the_package_requires() -> None:
    # Issue 25: the quick start did not say which Python; pip refuses an older one.
    floor = PROJECT["requires-python"].removeprefix(">=")
    assert re.fullmatch(r"3\.\d+", floor), PROJECT["requires-python"]
    assert f"Python {floor} or later" in README


def test_the_description_names_every_database_the_store_runs_on() -> None:
    # Issue 25: the project's description named SQLite alone.
    folders = sorted(p.name for p in (ROOT / "bot/store/migrations").iterdir() if p.is_dir())
    assert folders, "the stores' migrations"
    for folder in folders:
        assert DATABASES[folder] in PROJECT["description"], (folder, PROJECT["description"])


def test_ci_runs_the_readmes_test_command_and_nothing_else() -> None:
    """The README's promise to a newcomer: the one command under *Testing* sets up and runs
    what CI runs (``.ci/run``, on a fresh machine)."""
    command = re.search(r"```sh\n(.+?)\n```", section("Testing"), re.S)
    assert command is not None, "the test command"
    steps = (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
    ran = [line for line in steps if line and not line.startswith(("#", "set ", "cd "))]
    assert ran == [command.group(1)], ran


def test_the_playground_guide_names_every_playground_command() -> None:
    # Issue 25: the playground needed its own guide (options as name:value, being a moderator,
    # where pictures are saved, a scratch database).
    guide = section("The local playground")
    commands = playground_commands()
    assert {"as", "mod on", "mod off", "users", "click", "choose", "quit"} <= set(commands)
    for command in commands:
        assert re.search(rf"`{re.escape(command)}[ `]", guide), command
    assert "`name:value`" in guide and "scratch database" in guide
    assert "removed when you quit" in guide


def test_the_emulators_guide_names_every_playground_command() -> None:
    # The emulator's README lists the playground's commands too: a third place, kept to the
    # playground's help as the README's guide is.
    guide = (ROOT / "fakediscord" / "README.md").read_text(encoding="utf-8")
    part = guide.split("\n## The terminal playground\n")[1].split("\n## ")[0]
    listing = part.split("```")[1]
    forms = []  # each line's usages ("click 3 / click m4 2"), and those its words quote
    for line in listing.splitlines():
        usage = re.split(r"\s{2,}", line)[0] if line and not line.startswith(" ") else ""
        forms += [form.strip() for form in re.split(r" / |, ", usage) if form.strip()]
        forms += re.findall(r"`([^`]+)`", line)
    for command in playground_commands():
        assert any(f == command or f.startswith(f"{command} ") for f in forms), (command, forms)


def test_the_readme_is_short_and_says_where_the_rest_is() -> None:
    # Issue 37: a server owner reads it in five minutes; the rest is in docs/, one page per
    # audience, each linked from it.
    assert len(README.splitlines()) <= 250
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name}" in README, page.name
    for title in ("Quick start", "Running the bot on Discord", "Commands", "Testing"):
        assert section(title)


def test_the_commands_table_names_every_subcommand() -> None:
    from discord import app_commands

    from tests.helpers.commands import the_club, the_commands

    table = section("Commands")

    def names(group: app_commands.Group, prefix: str) -> list[str]:
        found: list[str] = []
        for command in group.commands:
            path = f"{prefix} {command.name}"
            if isinstance(command, app_commands.Group):
                found += names(command, path)
            else:
                found.append(path)
        return found

    for name in [*names(the_commands(), "/cribbage"), *names(the_club(), "/club")]:
        assert f"`{name}`" in table, name


def test_the_commands_table_says_where_each_command_works_as_the_resolver_does() -> None:
    # Issue 54: where a command works is decided in one place (bot/core/base/places.py); the
    # table's Where column says it of every command in a row.
    from bot.core.base.places import Ask

    rows = [line for line in section("Commands").splitlines() if line.startswith(_COMMAND_ROW)]
    assert rows
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        for root, name in re.findall(r"`/(cribbage|club) ([^`]+)`", cells[0]):
            ask = Ask(name if root == "cribbage" else f"club {name}")
            assert cells[-1] == ask.scope.reach.where, (name, cells[-1])


#: A row of the commands' table: a ``/cribbage`` command's, or a ``/club`` one's.
_COMMAND_ROW = ("| `/cribbage", "| `/club")
#: An option as the Options column writes it: its name, then its value (an example, or the
#: choices split by escaped pipes), in brackets when it may be left out.
_WRITTEN_OPTION = re.compile(r"(\[)?([a-z_]+):([^\]\s`]*)")


def _options_written(cell: str) -> dict[str, tuple[bool, list[str]]]:
    """Each option a part of the Options column names: whether it is in brackets (optional),
    and the values written for it (``a\\|b\\|c`` split; an example is one value)."""
    spans = " ".join(re.findall(r"`([^`]*)`", cell))
    return {
        name: (bool(bracket), value.split("\\|") if value else [])
        for bracket, name, value in _WRITTEN_OPTION.findall(spans)
    }


def test_the_commands_table_gives_each_command_its_options_and_choices() -> None:
    # The table's `/cribbage new` row left out `hints`, an option of the command: each
    # command's options are drawn from the command itself (optional ones in brackets), and a
    # list of choices is the option's (or the first of them, ending in "…").
    from discord import app_commands

    from tests.helpers.commands import the_club, the_commands

    groups = {"cribbage": the_commands(), "club": the_club()}
    rows = [line for line in section("Commands").splitlines() if line.startswith(_COMMAND_ROW)]
    checked = 0
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        found = re.findall(r"`/(cribbage|club) ([^`]+)`", cells[0])
        names = [name for _, name in found]
        parts = cells[1].split(" · ")
        assert len(parts) in (1, len(names)), row
        for (root, name), part in zip(
            found, parts * len(names) if len(parts) == 1 else parts, strict=True
        ):
            command = groups[root].get_command(name.split()[0])
            for word in name.split()[1:]:
                assert isinstance(command, app_commands.Group), name
                command = command.get_command(word)
            assert isinstance(command, app_commands.Command), name
            written = _options_written(part)
            options = {p.name: p for p in command.parameters}
            assert sorted(written) == sorted(options), name
            for option, (optional, values) in written.items():
                parameter = options[option]
                assert optional == (not parameter.required), (name, option)
                choices = [str(choice.value) for choice in parameter.choices]
                if not choices:
                    continue
                if values[-1] == "…":
                    assert values[:-1] == choices[: len(values) - 1], (name, option, values)
                else:
                    assert sorted(values) == sorted(choices), (name, option, values)
            checked += 1
    assert checked >= 35, checked
