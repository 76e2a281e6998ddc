"""Who may end a game, and from where a move may come, through Discord (issue 10, items 7, 9
and 10): once the cards are dealt only a moderator cancels (a player resigns, and that is a
loss), against the computer too; a component naming a game of another server, or a game id no
database holds, gets a clear private refusal and changes nothing; a member who left the server
cannot move by DM, and the table is told how to end the game."""

from __future__ import annotations

from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.table_driver import World, confirmed, dealt, hand_of, resign, until


def _results(world: World, game_id: int) -> list[tuple[int | None, int]]:
    found = rows(
        world.database,
        "SELECT user_id, won FROM results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return [(row[0], row[1]) for row in found]


async def test_after_the_deal_only_a_moderator_cancels(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea = world.players[:2]
    game_id = await _two_player_game(world)
    before = read_game(world.database, game_id).version
    for user in (al, bea):
        refused = await fd.slash(user, world.general, "/cribbage cancel")
        assert refused.ephemeral and "only a moderator" in refused.words()
        assert "/cribbage resign" in refused.words()
    assert read_game(world.database, game_id).version == before, "nothing changed"
    # A moderator is asked first (Yes / No, privately); No changes nothing.
    asked = await fd.slash(world.moderator, world.general, "/cribbage cancel")
    assert asked.ephemeral and asked.original is not None
    assert "Cancel this game?" in asked.words() and "no change to anyone's rating" in asked.words()
    kept = await fd.click(world.moderator, asked.original, label="No, let it go on")
    assert kept.original is not None and kept.original.words() == "The game goes on."
    assert read_game(world.database, game_id).version == before, "nothing changed"
    cancelled = await confirmed(fd, world.moderator, world.general, "/cribbage cancel")
    assert cancelled.original is not None and cancelled.original.words() == "Game cancelled."
    await until(fd, lambda: read_game(world.database, game_id).status == "cancelled")
    said = await until(
        fd, lambda: [m for m in fd.messages(world.general) if "A moderator cancelled" in m.words()]
    )
    assert not said[0].ephemeral and "No result" in said[0].words()
    assert _results(world, game_id) == []


async def test_against_the_computer_the_creator_resigns(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al = world.players[0]
    await fd.slash(al, world.general, "/cribbage new vs_computer:True difficulty:easy")
    game_id = latest_game_id(world.database, world.general.id)
    await until(fd, lambda: read_game(world.database, game_id).status == "active")
    refused = await fd.slash(al, world.general, "/cribbage cancel")
    assert refused.ephemeral and "/cribbage resign" in refused.words()
    resigned = await resign(fd, al, world.general)
    assert resigned.original is not None and "You resigned" in resigned.original.words()
    await until(fd, lambda: read_game(world.database, game_id).status == "finished")
    assert _results(world, game_id) == [(al.id, 0), (None, 1)], "the loss is recorded"


async def _two_player_game(world: World) -> int:
    al, bea = world.players[:2]
    await dealt(world.fd, world.general, al, bea)
    return latest_game_id(world.database, world.general.id)


async def test_forged_component_ids_get_a_clear_refusal(world: World, bots: BotLauncher) -> None:
    # Commands synced globally (as in production), so that the other server has them too.
    await bots.process(database=world.database)
    fd = world.fd
    al = world.players[0]
    game_id = await _two_player_game(world)
    hand = hand_of(world.fd, al)
    assert hand is not None
    before = read_game(world.database, game_id).version
    for custom_id in (
        "crib:99999999999999999999999:play:1:5H",
        f"crib:{2**63}:discard:1",
        "crib:123456789:muggins:3",
    ):
        values = ["5H", "6H"] if ":discard:" in custom_id else None
        answer = await fd.forged_click(al, hand, custom_id, values=values)
        assert answer.ephemeral and answer.words() == "I can't find that game.", custom_id
    assert read_game(world.database, game_id).version == before

    # Another server's moderator, on a message of the bot's there, names this game.
    other = fd.add_guild("Elsewhere")
    lounge = other.add_text_channel("lounge")
    other.add_member(world.moderator, moderator=True)
    elsewhere = await fd.slash(world.moderator, lounge, "/cribbage new")
    assert elsewhere.original is not None
    forged = await fd.forged_click(
        world.moderator, elsewhere.original, f"crib:{game_id}:lobby:cancel"
    )
    assert forged.ephemeral and "another server" in forged.words()
    assert read_game(world.database, game_id).status == "active"
    assert read_game(world.database, game_id).version == before


async def test_a_member_who_left_cannot_play_by_dm(world: World, bots: BotLauncher) -> None:
    fd = world.fd
    # Membership asked of Discord before every move by DM (MEMBER_CHECK_SECONDS 0; how long
    # what the bot saw counts otherwise is checked in tests/bot/discord/test_members.py).
    await bots.process(
        database=world.database, dev_guild=world.guild.id, env={"MEMBER_CHECK_SECONDS": "0"}
    )
    al, bea = world.players[:2]
    game_id = await _two_player_game(world)
    world.guild.remove_member(bea)
    hand = hand_of(world.fd, bea)
    assert hand is not None
    select = next(iter(hand.selects()))
    options = [o["value"] for o in select["options"]][:2]
    before = read_game(world.database, game_id).version
    refused = await fd.select(bea, hand, select["custom_id"], options)
    assert refused.ephemeral and "no longer a member" in refused.words()
    assert read_game(world.database, game_id).version == before
    assert any(
        r.template == "GET /guilds/{id}/members/{id}" and r.code == 10007 for r in fd.requests
    )
    # The table is told how the game can end, and a moderator ends it.
    notice = await until(
        fd,
        lambda: [m for m in fd.messages(world.general) if "no longer a member" in m.words()],
    )
    assert len(notice) == 1 and not notice[0].ephemeral and "**Bea**" in notice[0].words()
    assert "/cribbage cancel" in notice[0].words()
    # Al, still a member, plays on meanwhile.
    mine = hand_of(world.fd, al)
    assert mine is not None
    al_select = next(iter(mine.selects()))
    al_options = [o["value"] for o in al_select["options"]][:2]
    played = await fd.select(al, mine, al_select["custom_id"], al_options)
    assert played.response is not None and played.response.type == 7
    cancelled = await confirmed(fd, world.moderator, world.general, "/cribbage cancel")
    assert cancelled.original is not None and cancelled.original.words() == "Game cancelled."
    await until(fd, lambda: read_game(world.database, game_id).status == "cancelled")
    assert _results(world, game_id) == []
