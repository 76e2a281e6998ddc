"""What ``/cribbage new`` says the computer's level is when none is chosen is what the game
gets (``DEFAULT_LEVEL``): drawn from it, and said so by the rules and docs/computer.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord import app_commands

from bot.core.base.choices import DEFAULT_LEVEL
from bot.core.games.rules_help import RULES_TOPICS
from engine.variants import STANDARD, listed
from tests.helpers.commands import the_commands

ROOT = Path(__file__).resolve().parents[3]


def _described(*path: str) -> dict[str, str]:
    node: Any = the_commands()
    for name in path:
        node = node.get_command(name)
    assert isinstance(node, app_commands.Command)
    return {p.name: p.description for p in node.parameters}


def test_the_computers_level_when_none_is_chosen_is_said_as_it_is() -> None:
    assert f"(default {DEFAULT_LEVEL})" in _described("new")["difficulty"]
    assert f"{DEFAULT_LEVEL} — the default —" in RULES_TOPICS["commands"]
    computer = (ROOT / "docs" / "computer.md").read_text(encoding="utf-8")
    assert f"The default stays `{DEFAULT_LEVEL}`" in computer


def test_the_variant_options_name_every_variant_their_menus_offer() -> None:
    # `/cribbage new variant:`'s description was written by hand and left out six-hand in
    # pairs; both it and `/cribbage count-hand variant:` are drawn from the registry now.
    for command in ("new", "count-hand"):
        node: Any = the_commands().get_command(command)
        option = next(p for p in node.parameters if p.name == "variant")
        offered = [choice.value for choice in option.choices]
        assert offered == [variant.name for variant in listed()], command
    said = _described("new")["variant"]
    for variant in listed():
        assert variant.title.lower().replace(" cribbage", "") in said.lower(), variant.name
    counted = _described("count-hand")["variant"]
    for variant in listed():
        if variant.rules().kept != STANDARD.rules().kept:
            short = variant.title.lower().replace(" cribbage", "")
            assert f"{short} {variant.rules().kept}" in counted or (
                f"{short} hands are {variant.rules().kept} cards" in counted
            ), counted
