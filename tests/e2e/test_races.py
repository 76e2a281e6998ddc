"""Two clicks for the same game at the same moment: one applies, the other gets a clear answer."""

from __future__ import annotations

import asyncio

from engine.phase import Phase
from fakediscord import Interaction
from fakediscord.testing import BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.table_driver import World

pytestmark = BOTH_DATABASES


def _one_applied(first: Interaction, second: Interaction) -> Interaction:
    """Exactly one click updated its DM (type 7); the other got a private sentence. Returns
    the refused one."""
    assert first.response is not None and second.response is not None
    types = sorted([first.response.type, second.response.type])
    assert types == [4, 7], (first, second)
    refused = first if first.response.type == 4 else second
    assert refused.ephemeral
    text = refused.words()
    assert text and "\n" not in text and len(text) < 200, text
    return refused


async def test_racing_clicks_apply_once(world: World, bot: BotProcess) -> None:
    fd, (al, bea), driver = await world.open_for_two(11, target=61)
    snap = driver.snapshot()
    assert snap.game is not None and snap.game.state.phase is Phase.DISCARD
    deal = snap.game.state.deal_number

    # Al picks two different pairs for the crib in the same instant.
    select_id = f"crib:{driver.game_id}:discard:{deal}"
    dm = await driver.prompt(snap, 0)
    hand = [c.code for c in snap.game.hand(0)]
    first, second = await asyncio.gather(
        fd.select(al, dm, select_id, hand[0:2]), fd.select(al, dm, select_id, hand[2:4])
    )
    _one_applied(first, second)
    after = driver.snapshot()
    assert after.actions == snap.actions + 1
    assert after.game is not None
    kept = {c.code for c in after.game.hand(0)}
    thrown = set(hand) - kept
    assert thrown in ({*hand[0:2]}, {*hand[2:4]})

    # Bea discards by the menu and by the command at the same moment.
    dm = await driver.prompt(snap, 1)
    bea_hand = [c.code for c in after.game.hand(1)]
    first, second = await asyncio.gather(
        fd.select(bea, dm, select_id, bea_hand[:2]),
        fd.slash(bea, world.general, f"/cribbage discard cards:{bea_hand[2]} {bea_hand[3]}"),
    )
    assert first.response is not None and second.response is not None
    after = driver.snapshot()
    assert after.actions == snap.actions + 2, "one of Bea's two discards applied"
    assert after.game is not None and after.game.state.phase is Phase.PLAY

    # In the play, whoever is on turn double-clicks a card button.
    snap = await driver.expect_current()
    assert snap.game is not None and snap.game.state.turn is not None
    player = [al, bea][snap.game.state.turn]
    dm = await driver.prompt(snap, snap.game.state.turn)
    button = next(b for b in dm.buttons() if not b.get("disabled"))
    first, second = await asyncio.gather(
        fd.click(player, dm, button["custom_id"]), fd.click(player, dm, button["custom_id"])
    )
    refused = _one_applied(first, second)
    assert "out of date" in refused.words() or "turn" in refused.words(), refused.words()
    after = driver.snapshot()
    assert after.actions == snap.actions + 1

    # The game is still sound: every message shows it, and the deal plays out with every check.
    await driver.expect_current()
    end = await driver.play_deal()
    assert end.game is not None and end.game.state.deal_number == deal + 1
