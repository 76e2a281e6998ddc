"""The discard of the day through Discord: `/cribbage daily` privately, the same six cards for
everyone in the server, one choice each, the answer with all fifteen splits and the board,
and the streak in `/cribbage stats`."""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World


async def test_the_discard_of_the_day(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, _, _ = world.players
    dealt = await fd.slash(al, world.general, "/cribbage daily")
    assert dealt.ephemeral and "Discard of the day" in dealt.words(), dealt.words()
    assert "Today's board" not in dealt.words(), "the board only after answering"
    message = dealt.original
    assert message is not None
    [row] = message.components
    [menu] = row["components"]
    custom_id = menu["custom_id"]
    assert custom_id.startswith("crib:daily:") and menu["min_values"] == 2
    codes = [option["value"] for option in menu["options"]]
    assert len(codes) == 6

    other = await fd.slash(bea, world.general, "/cribbage daily")
    assert other.original is not None
    [other_row] = other.original.components
    assert [o["value"] for o in other_row["components"][0]["options"]] == codes

    chosen = await fd.select(al, message, custom_id, codes[:2])
    assert chosen.response is not None and chosen.response.type == 7
    assert "◀ yours" in message.words() and "Today's board** (1 answered)" in message.words()
    assert not message.components, "one answer a day: the menu is gone"

    again = await fd.slash(al, world.general, "/cribbage daily")
    assert again.ephemeral and "◀ yours" in again.words()
    assert again.original is not None and not again.original.components

    stats = await fd.slash(al, world.general, "/cribbage stats")
    assert "**Discard of the day** 1 answered" in stats.words() and "streak 1" in stats.words()
