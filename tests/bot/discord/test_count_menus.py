"""The count menus of a manual show fit Discord's limits for every variant's claims: no menu
holds more than 25 options (seven-card cribbage's hands of six make 41 values), and every
value a hand or crib can score is offered once, lowest first."""

from __future__ import annotations

import pytest

from bot.core.base.views import ControlsKind, HandControls, MessageView
from bot.discord.components import controls_view
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
