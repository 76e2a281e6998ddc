"""The coach through Discord: its setting, no line when it is off, and closed DMs.

The coach's line itself (after every show, on the player's hand messages, checked against the
engine's review) is checked over a whole game in test_vs_computer.py.
"""

from __future__ import annotations

from bot.core.messages.lesson import COACH_FIGURES
from fakediscord.testing import BotProcess
from tests.e2e.test_vs_computer import against_computer
from tests.helpers.table_driver import World, refused_dms


async def test_coach_off_means_no_line(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al = world.players[0]
    asked = await fd.slash(al, world.general, "/cribbage coach")
    assert asked.ephemeral and "The coach is on" in asked.words()
    off = await fd.slash(al, world.general, "/cribbage coach setting:off")
    assert off.ephemeral and "Coach off" in off.words()
    player = against_computer(world, 3)
    player.coach_off = {al.id}
    snap = await player.open_against_computer("hard")
    # Two shows at least: the driver finds every hand message exactly as it must read, with
    # no coach's line on any of them.
    while snap.status == "active" and snap.game is not None and snap.game.state.deal_number < 3:
        snap = await player.step(snap)
    assert player.replay is not None and (1, 0) in player.replay.coach_lines
    versions = [v.words() for m in fd.dms(al) for v in m.history] + [m.words() for m in fd.dms(al)]
    assert versions and not any("Coach" in text for text in versions)
    on = await fd.slash(al, world.general, "/cribbage coach setting:on")
    assert "Coach on" in on.words()


async def test_closed_dms_get_one_notice_per_deal_and_no_coach_in_the_channel(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    al = world.players[0]
    fd.close_dms(al)
    player = world.driver(
        [al], 6, spectators=[world.spectator], dm_closed={al.id}, command_rate=0.5
    )
    # To 121: the test needs the game still on after deal 3, and a game to 61 can end in it.
    snap = await player.open_against_computer("easy", target=121)
    while snap.status == "active" and snap.game is not None and snap.game.state.deal_number < 4:
        snap = await player.step(snap)
    # The channel takes 5 new messages per 5 s: the notice may trail the deal; wait for it.
    snap = await player.expect_current()
    assert snap.game is not None
    deals = snap.game.state.deal_number
    notices = player.dm_notices()
    # One DM tried in the game, refused, and no more; told by mention at most once per deal, and
    # in this deal for sure. (Here the driver plays far faster than people: a deal can end
    # before the channel's 5 messages per 5 s let its notice through, and a notice about a
    # finished deal is dropped, not posted late.)
    assert 1 <= len(notices) <= deals
    assert f"dm-closed:{deals}:0" in player.owned()
    assert all(f"<@{al.id}>" in m.words() for m in notices)
    assert refused_dms(fd) == 1
    assert fd.dms(al) == []
    public = [m for m in fd.messages(world.general) if not m.ephemeral]
    assert not any("Coach" in m.words() or "coach" in m.words() for m in public)
    # The coach's line was not lost: it rides on Al's private /cribbage hand answer.
    hand = await fd.slash(al, world.general, "/cribbage hand")
    assert hand.ephemeral and f"Coach, deal {deals - 1}:" in hand.words()
    # Against the easy computer alone (a learner's table), what its figures mean, under it.
    assert COACH_FIGURES in hand.words(), hand.words()
