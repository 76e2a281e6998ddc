"""Voice and stage channels as Discord has them (issue 46): their text chat, who may read and
write it (View Channel and Connect, then Send Messages), no threads in them, commands and
interactions there as anywhere, and an Activity launched in a voice channel (its instance's
location is that channel) but never on a stage."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from fakediscord.errors import EmulatorUsageError
from fakediscord.model import CONNECT, SEND_MESSAGES, USE_EMBEDDED_ACTIVITIES
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld, client_of
from tests.helpers.wire import call, refusal


def _interaction_payload(table: TinyWorld, interaction_id: int) -> dict[str, Any]:
    """The INTERACTION_CREATE the bot was sent for ``interaction_id``."""
    for _, event, payload in table.fd.gateway.shards[0].events:
        if event == "INTERACTION_CREATE" and payload["id"] == str(interaction_id):
            return payload
    raise AssertionError(f"no INTERACTION_CREATE {interaction_id}")


async def test_voice_and_stage_channels_reach_discord_py_with_their_chat(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    # One made before the bot started would be in GUILD_CREATE; these come as CHANNEL_CREATE.
    voice = table.guild.add_voice_channel("Game night")
    stage = table.guild.add_stage_channel("Finals")
    client = client_of(tiny)
    await fd.wait_for(lambda: client.get_channel(stage.id), timeout=10)
    made_voice, made_stage = client.get_channel(voice.id), client.get_channel(stage.id)
    assert isinstance(made_voice, discord.VoiceChannel) and made_voice.bitrate == 64000
    assert isinstance(made_stage, discord.StageChannel)
    for channel, kind in ((voice, 2), (stage, 13)):
        # A command typed in the chat, answered in it; the bot posts, edits and reads there
        # with its own token.
        r = await fd.slash(table.al, channel, "/tiny echo text:hello")
        assert r.original is not None and r.original.channel is channel
        sent = _interaction_payload(table, r.id)
        assert sent["channel"]["type"] == kind and sent["channel_id"] == str(channel.id)
        assert int(sent["app_permissions"]) & CONNECT
        posted = await fd.slash(table.al, channel, "/tiny post")
        await posted.wait_followups(1)
        assert posted.followups[0].content == "fetched post v2"
        assert [m.content for m in fd.visible_to(table.bea, channel)] == ["hello", "post v2"]
        # Buttons work there as anywhere.
        panel = await fd.slash(table.al, channel, "/tiny buttons")
        assert panel.original is not None
        clicked = await fd.click(table.bea, panel.original, "tiny:plus")
        assert clicked.response is not None


async def test_the_chat_of_a_voice_channel_needs_connect_and_a_post_send_messages(
    table: TinyWorld, http: aiohttp.ClientSession, tiny: InProcessBot
) -> None:
    voice = table.guild.add_voice_channel("Game night")
    stage = table.guild.add_stage_channel("Finals")
    posts = f"/channels/{voice.id}/messages"
    status, _ = await call(http, "POST", posts, {"content": "the table"})
    assert status == 200
    # Without Connect the chat is out of reach (Get Channel Messages: "If the channel is a
    # voice channel, they must also have the CONNECT permission"): reading and posting alike.
    voice.deny(CONNECT)
    assert await refusal(http, "GET", posts) == (403, 50001)
    assert await refusal(http, "POST", posts, {"content": "again"}) == (403, 50001)
    assert not table.fd.visible_to(table.al, voice)
    with pytest.raises(EmulatorUsageError):
        await table.fd.slash(table.al, voice, "/tiny echo text:hi")
    # With Connect but not Send Messages the chat is read, not written (as in a text channel).
    stage.deny(SEND_MESSAGES)
    stage_posts = f"/channels/{stage.id}/messages"
    assert await refusal(http, "POST", stage_posts, {"content": "x"}) == (403, 50013)
    status, read = await call(http, "GET", stage_posts)
    assert status == 200 and read == []
    table.general.deny(SEND_MESSAGES)
    assert await refusal(http, "POST", table.posts, {"content": "x"}) == (403, 50013)


async def test_no_thread_is_started_in_a_voice_or_stage_channel(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    for channel in (table.guild.add_voice_channel("v"), table.guild.add_stage_channel("s")):
        posts = f"/channels/{channel.id}/messages"
        status, post = await call(http, "POST", posts, {"content": "Round 1"})
        assert status == 200
        # "Cannot execute action on this channel type": threads live in text channels.
        started = await refusal(http, "POST", f"{posts}/{post['id']}/threads", {"name": "r1"})
        assert started == (400, 50024)
        alone = {"name": "r1", "type": 11}
        assert await refusal(http, "POST", f"/channels/{channel.id}/threads", alone) == (
            400,
            50024,
        )
    assert not [c for c in table.guild.channels.values() if c.is_thread]


async def test_an_activity_runs_in_a_voice_channel_and_never_on_a_stage(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    voice = table.guild.add_voice_channel("Game night")
    stage = table.guild.add_stage_channel("Finals")
    fd.activities.enable("127.0.0.1:9/activity")
    r = await fd.slash(table.al, voice, "/tinyplay")
    instance = r.activity_instance
    assert instance is not None and instance.channel is voice
    assert fd.activities.join(table.bea, voice) is instance
    path = f"applications/{fd.application_id}/activity-instances/{instance.id}"
    status, found = await call(http, "GET", path)
    assert status == 200 and found["location"] == {
        "id": f"gc-{table.guild.id}-{voice.id}",
        "kind": "gc",
        "channel_id": str(voice.id),
        "guild_id": str(table.guild.id),
    }
    assert instance.id.endswith(f"-gc-{table.guild.id}-{voice.id}")
    # A stage has no Activities: the answer is refused, and nothing opens there.
    refused = await fd.slash(table.al, stage, "/tinyplay")
    assert refused.content == "refused 400/50035" and refused.activity_instance is None
    with pytest.raises(EmulatorUsageError, match="stage"):
        fd.activities.launch(table.al, stage)
    # Use Activities is needed to open one (in a voice channel as in a text channel).
    voice.deny(USE_EMBEDDED_ACTIVITIES)
    with pytest.raises(EmulatorUsageError, match="Activities"):
        fd.activities.launch(table.al, voice)
