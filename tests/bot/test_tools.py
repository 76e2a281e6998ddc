"""`python -m bot <verb>`: the maintenance commands are one family under the bot's own command,
with one --help that lists them all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import TOOLS, main
from bot.core.deck.seeded import seal_of
from bot.tools import EXIT_STATUSES


def test_the_help_lists_every_maintenance_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    said = capsys.readouterr().out
    assert set(TOOLS) == {"ratings", "compact", "verify", "copy", "health", "backup"}
    for verb, (_, line) in TOOLS.items():
        assert f"  {verb}" in said and line in said, verb


def test_a_verb_runs_its_command_under_the_bots_name(capsys: pytest.CaptureFixture[str]) -> None:
    seed = "ab" * 32
    assert main(["verify", seed, seal_of(seed)]) == 0
    assert "The seal matches" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["ratings"])
    assert stopped.value.code == 2
    assert "usage: python -m bot ratings" in capsys.readouterr().err


@pytest.mark.parametrize("verb", sorted(TOOLS))
def test_each_verb_has_its_own_help(verb: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([verb, "--help"])
    assert stopped.value.code == 0
    said = capsys.readouterr().out
    assert f"usage: python -m bot {verb}" in said
    # Plain words in a terminal: the docstring's ``markup`` dropped (health and backup showed
    # it raw); and every command's exit statuses, the same.
    assert "``" not in said and ":mod:" not in said and ":class:" not in said, said
    assert " ".join(EXIT_STATUSES.split()) in " ".join(said.split())


def test_the_exit_statuses_are_said_once_in_the_docs() -> None:
    running = (Path(__file__).parents[2] / "docs" / "running.md").read_text(encoding="utf-8")
    flat = " ".join(running.split())
    assert EXIT_STATUSES[:1].upper() + EXIT_STATUSES[1:] + "." in flat


def test_the_commands_count_with_the_plural_right() -> None:
    # Issue 68, item 19: "1 games" (backup), and copy's, ratings' and verify's counts alike.
    from bot.tools import counted

    assert counted(1, "game") == "1 game" and counted(0, "game") == "0 games"
    assert counted(2048, "row") == "2,048 rows"
    assert counted(1, "match", "matches") == "1 match" and counted(3, "match", "matches") == (
        "3 matches"
    )
    for tool in ("backup", "copy", "ratings", "verify", "health"):
        source = (Path(__file__).parents[2] / "bot" / "tools" / f"{tool}.py").read_text()
        assert not re.search(r"\{[^{}]+\} (games|rows|differences|hands|migrations)\b", source), (
            tool
        )
