"""``/cribbage tournament``'s options are drawn from the variants a tournament plays
(:func:`bot.core.base.choices.tournament_variants`): the variant menu, its description and the
refusal of another name list the same ones, the target's description says each one's lengths,
and a moderator's ``result margin:`` takes every margin of the longest game among them (Discord's
client refuses a number past an option's range before the bot hears of it)."""

from __future__ import annotations

from discord import app_commands

from bot.core.base.choices import TOURNAMENT_SEATS, tournament_variants
from bot.core.tournaments.tournaments import TWO_PLAYER_VARIANTS
from tests.helpers.commands import the_commands


def _option(command: str, name: str) -> app_commands.Parameter:
    group = the_commands().get_command("tournament")
    assert isinstance(group, app_commands.Group)
    found = group.get_command(command)
    assert isinstance(found, app_commands.Command)
    return next(p for p in found.parameters if p.name == name)


def _described(command: str, name: str) -> str:
    return str(_option(command, name).description)


def test_the_tournament_variants_are_those_for_two() -> None:
    played = tournament_variants()
    assert played and all(TOURNAMENT_SEATS in v.seats for v in played)
    assert [v.name for v in played][:3] == ["standard", "five_card", "seven_card"]


def test_a_moderator_may_type_the_margin_of_a_game_to_181() -> None:
    """A seven-card tournament's games are to 181: a margin of 122 to 181 must reach the bot
    (the option took 0 to 121, so Discord's client refused `margin:150` outright)."""
    margin = _option("result", "margin")
    longest = max(t for v in tournament_variants() for t in v.targets)
    assert longest == 181
    assert (margin.min_value, margin.max_value) == (0, longest)
    assert str(longest) in _described("result", "margin")


def test_the_variant_menu_its_description_and_refusal_name_the_same_variants() -> None:
    option = _option("new", "variant")
    played = tournament_variants()
    assert [c.value for c in option.choices] == [v.name for v in played]
    for variant in played:
        assert f"`{variant.name}`" in TWO_PLAYER_VARIANTS
        short = variant.title.lower().removesuffix(" cribbage")
        assert short in _described("new", "variant").lower()


def test_the_target_description_says_each_variants_lengths() -> None:
    """The default's length, and each variant's own where they differ from the default's."""
    described = _described("new", "target")
    first, *others = tournament_variants()
    assert f"default {first.default_target}" in described
    for variant in others:
        assert variant.targets == first.targets or variant.targets_text in described
