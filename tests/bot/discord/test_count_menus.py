"""The count menus of a manual show fit Discord's limits for every variant's claims: no menu
holds more than 25 options (seven-card cribbage's hands of six make 41 values), and every
value a hand or crib can score is offered once, lowest first; ``/cribbage count`` takes every
claim of every variant."""

from __future__ import annotations

import pytest

from bot.core.base.views import ControlsKind, HandControls, MessageView
from bot.discord.components import controls_view
from bot.discord.options import CLAIMS_SAID, HIGHEST_CLAIM
from engine.scoring import claim_values
from engine.variants import Variant, listed
from fakediscord.limits import MAX_SELECT_OPTIONS, check_message


@pytest.mark.parametrize("kind", ["count", "muggins"])
@pytest.mark.parametrize("variant", listed(), ids=lambda v: v.name)
def test_every_claim_is_offered_and_no_menu_passes_25(variant: Variant, kind: ControlsKind) -> None:
    claims = claim_values(variant.rules())
    controls = HandControls(7, kind, (), 0, 3, claims=claims, muggins=True)
    made = controls_view(MessageView("Count your hand.", controls=controls))
    assert made is not None
    rows = made.to_components()
    check_message({"content": "Count your hand.", "components": rows})
    menus = [c for row in rows for c in row["components"] if c["type"] == 3]
    assert all(len(menu["options"]) <= MAX_SELECT_OPTIONS for menu in menus)
    offered = [int(o["value"]) for menu in menus for o in menu["options"]]
    assert offered == list(claims)


def test_the_count_command_takes_every_claim_of_every_variant() -> None:
    """``/cribbage count points:`` is one option for every variant: its range reaches the
    highest claim any variant allows (seven-card's 46: a range of 0 to 29 had Discord refuse
    a seven-card hand of 30 or more typed), and its description names each variant's top."""
    highest = {variant.title: claim_values(variant.rules())[-1] for variant in listed()}
    assert max(highest.values()) == HIGHEST_CLAIM
    usual = highest["Standard cribbage"]
    assert CLAIMS_SAID.startswith(f"0 to {usual}")
    for title, top in highest.items():
        if top != usual:
            assert f"{top} in {title.lower()}" in CLAIMS_SAID.lower()
