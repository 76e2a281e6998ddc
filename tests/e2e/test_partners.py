"""Choosing partners in a four-player lobby through Discord: the creator's Change partners
button seats another pairing opposite, and the game deals with the partners chosen."""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.bot_db import latest_game_id, read_game
from tests.helpers.table_driver import World, until


async def test_the_creator_changes_partners_before_the_deal(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, cy, dee = world.players[:4]
    opened = await fd.slash(al, world.general, "/cribbage new players:4")
    lobby = opened.original
    assert lobby is not None
    game_id = latest_game_id(world.database, world.general.id)
    for user in (bea, cy, dee):
        await fd.click(user, lobby, f"crib:{game_id}:lobby:join")
    await until(
        fd, lambda: any("Seated (4/4)" in m.words() for m in fd.messages(world.general)) or None
    )
    # Only the creator may; the others are told so, privately.
    button = f"crib:{game_id}:lobby:partners"
    refused = await fd.click(bea, lobby, button)
    assert refused.ephemeral and "opened this game" in refused.words()
    changed = await fd.click(al, lobby, button)
    assert changed.response is not None and changed.response.type == 7
    names = [al.name, cy.name, dee.name, bea.name]  # A B C D -> A C D B
    said = f"Partners: {names[0]} & {names[2]} against {names[1]} & {names[3]}."
    assert changed.original is not None and said in changed.original.words()
    await fd.click(al, lobby, f"crib:{game_id}:lobby:start")
    snap = await until(
        fd, lambda: s if (s := read_game(world.database, game_id)).game is not None else None
    )
    assert snap.game is not None and snap.game.state.players == tuple(names)
