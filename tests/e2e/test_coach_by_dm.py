"""The coach through Discord: its setting, no line when it is off, and closed DMs.

The coach's line itself (after every show, checked against the engine's review) is checked
over a whole game in test_vs_computer.py.
"""

from __future__ import annotations

from fakediscord import User
from fakediscord.testing import BotProcess
from tests.e2e.test_vs_computer import against_computer
from tests.helpers.table_driver import COACH, DM_NOTICE, World, latest_game_id, read_game, until


async def test_coach_off_means_no_line(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al = world.players[0]
    asked = await fd.slash(al, world.general, "/cribbage coach")
    assert asked.ephemeral and "The coach is on" in asked.content
    off = await fd.slash(al, world.general, "/cribbage coach setting:off")
    assert off.ephemeral and "Coach off" in off.content
    player = against_computer(world, 3, coach=False)
    snap = await player.open_against_computer("hard")
    # Two shows at least, each followed by silence from the coach.
    while snap.status == "active" and snap.game is not None and snap.game.deal_number < 3:
        await player.step(snap)
        snap = player.snapshot()
    await fd.quiet(0.1)
    assert not any(COACH in m.content for m in fd.dms(al))
    on = await fd.slash(al, world.general, "/cribbage coach setting:on")
    assert "Coach on" in on.content


async def _act(world: World, user: User, game_id: int) -> bool:
    """One move by slash command for a player without DMs; False when the game is over."""
    snap = read_game(world.db_path, game_id)
    if snap.status != "active" or snap.game is None:
        return False
    game = snap.game
    if game.pending_discards():
        codes = " ".join(c.code for c in game.hand(0)[: game.discard_count])
        line = f"/cribbage discard cards:{codes}"
    else:
        line = f"/cribbage play card:{game.playable_cards(0)[0].code}"
    reply = await world.fd.slash(user, world.general, line)
    assert reply.ephemeral and reply.content.startswith("You "), reply.content
    await until(world.fd, lambda: read_game(world.db_path, game_id).version > snap.version)
    return True


async def test_closed_dms_get_one_notice_per_deal_and_no_coach_in_the_channel(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al = world.players[0]
    fd.close_dms(al)
    await fd.slash(al, world.general, "/cribbage new vs_computer:True difficulty:easy target:61")
    game_id = latest_game_id(world.db_path, world.general.id)
    while await _act(world, al, game_id):
        game = read_game(world.db_path, game_id).game
        if game is not None and game.deal_number >= 4:
            break
    await fd.quiet(0.1)
    deals = read_game(world.db_path, game_id).game
    assert deals is not None
    notices = [m for m in fd.messages(world.general) if DM_NOTICE in m.content]
    # Every prompt and coach line was refused; the channel heard once per deal at most.
    assert 1 <= len(notices) <= deals.deal_number
    assert all(f"<@{al.id}>" in m.content for m in notices)
    assert not any("coach" in m.content for m in fd.messages(world.general) if not m.ephemeral)
    refused = [r for r in fd.requests if r.status == 403 and r.code == 50007]
    assert len(refused) > len(notices), "the bot did try to DM Al, more than once a deal"
