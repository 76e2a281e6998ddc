"""The commands as a user install reaches them: declared for servers and people's accounts,
offered in DMs between people and group DMs, and there (where the bot is not a member) every
game command is answered without a single request on the bot's token (whole games there are
in test_private_tables.py), while the rules and the coach setting work as anywhere."""

from __future__ import annotations

import pytest

from bot.core.base.places import (
    DAILY_NEEDS_A_SERVER,
    NEEDS_THE_BOT,
    NO_HALL_OF_FAME_HERE,
    NO_LEADERBOARD_HERE,
    NO_PUBLIC_TABLE,
    TOURNAMENTS_NEED_A_CHANNEL,
)
from bot.core.base.refusals import no_game, nothing_to_look_up
from bot.discord.places import ONLY_YOU_SEE_THIS
from fakediscord import FakeDiscord
from fakediscord.counters import Counters
from fakediscord.model import USE_EXTERNAL_APPS, Channel, User
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.bot_db import latest_game_id
from tests.helpers.private_driver import uninvited_server
from tests.helpers.table_driver import World

GAME_COMMANDS = (
    "/cribbage join",
    "/cribbage start",
    "/cribbage hand",
    "/cribbage play card:5H",
    "/cribbage discard cards:5H JD",
    "/cribbage status show:True",
    "/cribbage resign",
    "/cribbage cancel",
    "/cribbage leave",
    "/cribbage count points:4",
)


#: Commands about what only servers have, and their answers in a DM or group DM.
SERVERS_ONLY = (
    ("/cribbage daily", DAILY_NEEDS_A_SERVER),
    ("/cribbage halloffame", NO_HALL_OF_FAME_HERE),
    ("/cribbage tournament new", TOURNAMENTS_NEED_A_CHANNEL),
)
TOURNAMENT_COMMANDS = (
    "/cribbage tournament new",
    "/cribbage tournament start",
    "/cribbage tournament join",
    "/cribbage tournament standings",
)


@pytest.fixture
async def everywhere(world: World, bots: BotLauncher) -> BotProcess:
    """The bot with its commands synced globally (no development server): only global
    commands reach DMs between people and group DMs."""
    return await bots.process(database=world.database)


async def test_the_commands_declare_guild_and_user_installs_and_every_context(
    world: World, everywhere: BotProcess
) -> None:
    command = world.fd.commands.find("cribbage", None)
    assert command is not None
    assert sorted(command["integration_types"]) == [0, 1]
    assert sorted(command["contexts"]) == [0, 1, 2]


async def test_where_the_bot_is_not_a_member_game_commands_are_answered_without_its_token(
    world: World, everywhere: BotProcess
) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    for user in (al, bea, cy):
        fd.install_app(user)
    dm = fd.private_channel(al, bea)
    group = fd.private_channel(al, bea, cy)
    fd.counters = Counters()
    for channel in (dm, group):
        # Named as the place it is (issue 54: "There's no game in this channel").
        for line in GAME_COMMANDS:
            answer = await fd.slash(bea, channel, line)
            said = no_game("this conversation")
            assert answer.ephemeral and answer.words() == said, (line, answer.words())
        assert await fd.autocomplete(al, channel, "/cribbage play card:5") == []
        board = await fd.slash(al, channel, "/cribbage leaderboard")
        assert board.ephemeral and board.words() == NO_LEADERBOARD_HERE, board.words()
        # What is a server's says so, and what works here is answered as in a server.
        nothing_here = nothing_to_look_up("this conversation")
        for line, said in (*SERVERS_ONLY, ("/cribbage review", nothing_here)):
            answer = await fd.slash(cy if channel is group else bea, channel, line)
            assert answer.ephemeral and answer.words() == said, (line, answer.words())
        checked = await fd.slash(al, channel, "/cribbage verify")
        assert checked.ephemeral and checked.words() == nothing_here, checked.words()
        # A record outside servers is a person's own: shown, though there is none yet.
        record = await fd.slash(al, channel, "/cribbage stats")
        assert not record.ephemeral, record.words()
        assert record.words() == "Al has not finished a game outside servers yet."
    # The rules and the coach setting are a person's own: they work here too.
    rules = await fd.slash(cy, group, "/cribbage rules")
    assert rules.ephemeral and "cribbage" in rules.words().lower()
    coach = await fd.slash(al, dm, "/cribbage coach setting:off")
    assert coach.ephemeral and "off" in coach.words()
    # Every answer went through the interactions themselves: nothing on the bot's token,
    # nothing posted that anyone but the one who asked can see but the records asked for.
    counters = fd.counters

    def answered_through_the_interactions_alone() -> None:
        assert counters.rest_total == 0, counters.rest
        assert counters.private_messages == {dm.id: 1, group.id: 1}

    answered_through_the_interactions_alone()
    fd.at_the_end(answered_through_the_interactions_alone)
    shown = [m for channel in (dm, group) for m in fd.messages(channel) if not m.ephemeral]
    assert [m.words() for m in shown] == ["Al has not finished a game outside servers yet."] * 2


async def test_the_bots_own_server_and_dms_still_play_as_before(
    world: World, everywhere: BotProcess
) -> None:
    fd = world.fd
    al = world.players[0]
    fd.install_app(al)  # a user install of their own changes nothing where the bot is a member
    opened = await fd.slash(al, world.general, "/cribbage new")
    assert opened.original is not None and not opened.ephemeral
    assert [b["label"] for b in opened.original.buttons()] == ["Join", "Leave", "Start", "Cancel"]
    in_dm = await fd.slash(al, fd.dm_channel(al), "/cribbage new")
    assert in_dm.ephemeral and "server channel" in in_dm.words()


async def test_a_server_that_did_not_invite_the_bot_answers_the_same_way(
    world: World, everywhere: BotProcess
) -> None:
    fd, al, bea, lounge = _in_the_lounge(world)
    fd.counters = Counters()
    for line in GAME_COMMANDS:
        answer = await fd.slash(al, lounge, line)
        assert answer.ephemeral and answer.words() == no_game("this channel"), (
            line,
            answer.words(),
        )
    assert await fd.autocomplete(bea, lounge, "/cribbage discard cards:5") == []
    # Tournaments make threads with the bot's own token: they need the bot in the server
    # (not the thread permissions a server that invited it may lack).
    for line in TOURNAMENT_COMMANDS:
        answer = await fd.slash(al, lounge, line)
        assert answer.ephemeral and answer.words() == NEEDS_THE_BOT, (line, answer.words())
    counters = fd.counters

    def answered_privately_and_through_the_interactions_alone() -> None:
        assert counters.rest_total == 0, counters.rest
        assert all(m.ephemeral for m in fd.messages(lounge))

    answered_privately_and_through_the_interactions_alone()
    fd.at_the_end(answered_privately_and_through_the_interactions_alone)


async def test_where_the_server_lets_apps_answer_only_privately_no_table_is_opened(
    world: World, everywhere: BotProcess
) -> None:
    fd, al, bea, lounge = _in_the_lounge(world)
    assert lounge.guild is not None
    opened = await fd.slash(al, lounge, "/cribbage new")  # allowed: a table for everyone
    assert not opened.ephemeral, opened.words()
    game = latest_game_id(world.database, lounge.id)
    shown = await fd.slash(bea, lounge, "/cribbage status show:True")
    assert not shown.ephemeral and not shown.words().startswith(ONLY_YOU_SEE_THIS)
    # A moderator turns Use External Apps off: Discord makes every answer private there.
    lounge.guild.deny(USE_EXTERNAL_APPS)
    # Answers meant for everyone come privately, saying so.
    for line in ("/cribbage status show:True", "/cribbage stats", "/cribbage leaderboard"):
        answer = await fd.slash(bea, lounge, line)
        assert answer.ephemeral and answer.words().startswith(ONLY_YOU_SEE_THIS), line
    # A new table would be its opener's alone: none is opened.
    await fd.slash(al, lounge, "/cribbage cancel")
    refused = await fd.slash(al, lounge, "/cribbage new vs_computer:True")
    assert refused.ephemeral and refused.words() == NO_PUBLIC_TABLE
    assert latest_game_id(world.database, lounge.id) == game, "no game was opened"


def _in_the_lounge(world: World) -> tuple[FakeDiscord, User, User, Channel]:
    """The emulator, Al and Bea, and a channel of a server of theirs that did not invite the
    bot (where they use their own install)."""
    fd = world.fd
    al, bea, _, _ = world.players
    return fd, al, bea, uninvited_server(fd, al, bea)
