"""Option choices that more than one slash command offers (a game's and a tournament's)."""

from __future__ import annotations

from discord import app_commands

from engine.variants import Variant, listed

__all__ = ["TARGET_CHOICES", "VARIANT_CHOICES", "variant_choices"]

#: What each length of game is called in the menus.
_TARGET_NAMES = {
    121: "121 points (full game)",
    61: "61 points (short game; five-card cribbage)",
    181: "181 points (seven-card cribbage)",
}
#: The points a game is played to: every length a registered variant offers, the standard
#: game's first.
TARGET_CHOICES = [
    app_commands.Choice(name=_TARGET_NAMES.get(target, f"{target} points"), value=target)
    for target in dict.fromkeys(t for variant in listed() for t in variant.targets)
]


def variant_choices(variants: tuple[Variant, ...]) -> list[app_commands.Choice[str]]:
    """A menu of ``variants``: each named by its title, its players and its lengths of game
    ("Five-card cribbage (2 players, to 61)"; Discord shows at most 100 characters)."""
    return [
        app_commands.Choice(
            name=f"{v.title} ({v.seats_text} players, to {v.targets_text})"[:100], value=v.name
        )
        for v in variants
    ]


#: Every registered variant (``/cribbage new variant:``).
VARIANT_CHOICES = variant_choices(listed())
