"""Option choices and ranges drawn from the registered variants: those more than one slash
command offers (a game's and a tournament's), and the values `/cribbage count` takes."""

from __future__ import annotations

from discord import app_commands

from engine.registry import say_or
from engine.variants import Variant, listed

__all__ = [
    "CLAIMS_SAID",
    "HIGHEST_CLAIM",
    "TARGET_CHOICES",
    "VARIANT_CHOICES",
    "hands_said",
    "targets_said",
    "variant_choices",
    "variants_said",
]

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


def _short(variant: Variant) -> str:
    """A variant as an option's description names it: "five-card", "six-hand in pairs" (its
    title, less "cribbage")."""
    return variant.title.lower().replace(" cribbage", "")


def targets_said(variants: tuple[Variant, ...]) -> str:
    """What a ``target`` option's description says of ``variants``' lengths of game (the
    first, the default variant, first): "default 121; five-card 61, seven-card 181" (a
    variant offering the default's lengths goes unnamed)."""
    first, *others = variants
    own = [f"{_short(v)} {v.targets_text}" for v in others if v.targets != first.targets]
    return f"default {first.default_target}" + (f"; {', '.join(own)}" if own else "")


def variants_said(variants: tuple[Variant, ...]) -> str:
    """``variants`` as an option's description lists them, the first the default: "standard
    (default), five-card or seven-card cribbage"."""
    names = [_short(v) + (" (default)" if i == 0 else "") for i, v in enumerate(variants)]
    return f"{say_or(names)} cribbage"


def hands_said(variants: tuple[Variant, ...]) -> str:
    """What a hand option's description says of ``variants``' hands, where they are not the
    first's (the default's) size: "five-card hands are 3 cards, seven-card 5"."""
    first, *others = variants
    usual = first.rules().kept
    sizes = [f"{_short(v)} {v.rules().kept}" for v in others if v.rules().kept != usual]
    if not sizes:
        return f"hands are {usual} cards"
    head, *rest = sizes
    name, size = head.rsplit(" ", 1)
    return ", ".join([f"{name} hands are {size} cards", *rest])


#: Every registered variant (``/cribbage new variant:``).
VARIANT_CHOICES = variant_choices(listed())


#: The highest count ``/cribbage count points:`` takes: one command serves every variant, and
#: Discord's client refuses a number past the option's range before the bot hears of it, so it
#: is the highest any variant's hand or crib can score (seven-card cribbage's 46; the standard
#: game's 29). Written out, since working it out (``engine.scoring.claim_values``) takes a
#: third of a second for seven-card, too long for every start; a test holds it to the engine.
HIGHEST_CLAIM = 46
#: The range as the option's description says it.
CLAIMS_SAID = "0 to 29, 46 in seven-card cribbage"
