"""``/cribbage tournament``'s options are drawn from the variants a tournament plays
(:func:`bot.core.base.choices.tournament_variants`): the variant menu, its description and the
refusal of another name list the same ones, the target's description says each one's lengths,
and a moderator's ``result margin:`` takes every margin of the longest game among them (Discord's
client refuses a number past an option's range before the bot hears of it). The rounds, a
round's hours and the game points are the core's and the engine's, said as they are by the
options, the refusals and docs/players.md."""

from __future__ import annotations

import re
from pathlib import Path

from discord import app_commands

from bot.core.base.choices import (
    DEFAULT_ROUND_HOURS,
    ROUND_HOURS,
    ROUND_HOURS_SAID,
    TOURNAMENT_SEATS,
    tournament_variants,
)
from bot.core.tournaments.tournaments import BAD_HOURS, BAD_ROUNDS, TWO_PLAYER_VARIANTS
from engine.tournament import LURCH_POINTS, MAX_SWISS_ROUNDS, WIN_POINTS
from tests.helpers.commands import the_commands

PLAYERS = Path(__file__).resolve().parents[3] / "docs" / "players.md"


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


def _tournament_paragraph() -> str:
    """docs/players.md's item on ``/cribbage tournament new``, its lines joined."""
    text = PLAYERS.read_text(encoding="utf-8")
    start = text.index("- `/cribbage tournament new")
    return " ".join(text[start : text.index("\n- ", start)].split())


def test_rounds_and_a_rounds_hours_are_offered_within_the_cores_bounds() -> None:
    rounds, hours = _option("new", "rounds"), _option("new", "round_hours")
    assert (rounds.min_value, rounds.max_value) == (1, MAX_SWISS_ROUNDS)
    assert f"at most {MAX_SWISS_ROUNDS}" in str(rounds.description)
    assert BAD_ROUNDS.endswith(f"from 1 to {MAX_SWISS_ROUNDS}.")
    assert (hours.min_value, hours.max_value) == ROUND_HOURS
    assert ROUND_HOURS_SAID in str(hours.description) and ROUND_HOURS_SAID in BAD_HOURS
    assert str(hours.description).endswith(f"default {DEFAULT_ROUND_HOURS:g}")
    assert ROUND_HOURS_SAID == "0.25 (15 minutes) to 336 (14 days)"


def test_the_scoring_choices_say_the_game_points_of_a_win_by_a_lurch() -> None:
    names = [choice.name for choice in _option("new", "scoring").choices]
    assert names == [
        f"{kind}: {LURCH_POINTS} game points for a win by a {kind}" for kind in ("lurch", "skunk")
    ]


def test_the_players_guide_says_the_tournaments_options_and_bounds() -> None:
    # docs/players.md left out `variant` and said "games to 121 or 61" once tournaments could
    # play seven-card cribbage to 181.
    said = _tournament_paragraph()
    usage = re.match(r"- `/cribbage tournament new ([^`]*)`", said)
    assert usage is not None
    group = the_commands().get_command("tournament")
    assert isinstance(group, app_commands.Group)
    new = group.get_command("new")
    assert isinstance(new, app_commands.Command)
    assert re.findall(r"\[(\w+)\]", usage.group(1)) == [p.name for p in new.parameters]
    low, high = ROUND_HOURS
    assert f"{low * 60:g} minutes to {high / 24:g} days" in said
    assert f"(`round_hours`, default {DEFAULT_ROUND_HOURS:g})" in said
    assert f"at most {MAX_SWISS_ROUNDS}" in said
    for variant in tournament_variants():
        for target in variant.targets:
            assert f"{target}" in said, (variant.name, target)
    assert f"{WIN_POINTS} game points for a win, {LURCH_POINTS} for a win by a lurch" in said
