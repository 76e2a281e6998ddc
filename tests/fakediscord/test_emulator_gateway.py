"""The gateway: identify, heartbeats, resume with replay, op 7, op 9, and world changes."""

from __future__ import annotations

import threading
import time

import aiohttp
import discord.gateway
import pytest

from fakediscord import FakeDiscord, gateway
from fakediscord.testing import BotLauncher, InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.tinybot import TinyBot, make_bot
from tests.helpers.wire import gateway_socket, receive


async def test_ready_points_resume_at_the_emulator_and_lists_guilds(
    fake_discord: FakeDiscord,
) -> None:
    guild = fake_discord.add_guild("TinyWorld")
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake_discord.gateway_url + "?v=10&encoding=json") as ws,
    ):
        hello = await receive(ws)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await receive(ws))["op"] == 11
        await ws.send_json({"op": 2, "d": {"token": fake_discord.bot_token, "intents": 0}})
        ready = await receive(ws)
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["resume_gateway_url"] == fake_discord.gateway_url
        assert ready["d"]["guilds"] == [{"id": str(guild.id), "unavailable": True}]
        created = await receive(ws)
        assert (created["t"], created["d"]["id"]) == ("GUILD_CREATE", str(guild.id))


async def test_member_request_op8_gets_a_members_chunk(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.add_guild("TinyWorld")
    al = fake_discord.add_user("Al")
    guild.add_member(al)
    async with gateway_socket(fake_discord.gateway_url) as ws:
        await ws.send_json({"op": 2, "d": {"token": fake_discord.bot_token, "intents": 2}})
        await receive(ws)  # READY
        await receive(ws)  # GUILD_CREATE
        request = {"guild_id": str(guild.id), "query": "", "limit": 0, "nonce": "n1"}
        await ws.send_json({"op": 8, "d": request})
        chunk = await receive(ws)
        assert (chunk["t"], chunk["d"]["nonce"]) == ("GUILD_MEMBERS_CHUNK", "n1")
        names = {m["user"]["username"] for m in chunk["d"]["members"]}
        assert names == {"Al", fake_discord.bot_user.name}


async def test_resume_beyond_the_replay_buffer_is_invalid_session(
    fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gateway, "REPLAY_BUFFER", 3)
    async with gateway_socket(fake_discord.gateway_url) as ws:
        await ws.send_json({"op": 2, "d": {"token": fake_discord.bot_token, "intents": 0}})
        ready = await receive(ws)
    for n in range(6):
        await fake_discord.gateway.dispatch("TEST_EVENT", {"n": n})
    resume = {"token": fake_discord.bot_token, "session_id": ready["d"]["session_id"]}
    async with gateway_socket(fake_discord.gateway_url) as ws:
        await ws.send_json({"op": 6, "d": resume | {"seq": 1}})
        assert (await receive(ws))["op"] == 9
    async with gateway_socket(fake_discord.gateway_url) as ws:
        await ws.send_json({"op": 6, "d": resume | {"seq": 5}})
        replayed = [await receive(ws) for _ in range(3)]
        assert [(f["t"], f["s"]) for f in replayed] == [
            ("TEST_EVENT", 6),
            ("TEST_EVENT", 7),
            ("RESUMED", 8),
        ]


async def test_identify_with_a_wrong_token_closes_4004(fake_discord: FakeDiscord) -> None:
    async with gateway_socket(fake_discord.gateway_url) as ws:
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0}})
        msg = await ws.receive(timeout=10)
        assert msg.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4004


async def test_resume_of_an_unknown_session_is_invalid_session(fake_discord: FakeDiscord) -> None:
    async with gateway_socket(fake_discord.gateway_url) as ws:
        resume = {"token": fake_discord.bot_token, "session_id": "nope", "seq": 3}
        await ws.send_json({"op": 6, "d": resume})
        assert await receive(ws) == {"op": 9, "d": False, "s": None, "t": None}


async def test_client_heartbeats_are_acknowledged(table: TinyWorld, bots: BotLauncher) -> None:
    table.fd.gateway.heartbeat_interval_ms = 50
    await bots.in_process(lambda: make_bot(table.guild.id))
    await table.fd.wait_for(lambda: table.fd.gateway.heartbeats >= 3, timeout=3)
    r = await table.fd.slash(table.al, table.general, "/tiny echo text:alive")
    assert r.content == "alive"


async def test_heartbeat_ack_arrives_after_the_client_recorded_its_heartbeat(
    table: TinyWorld, bots: BotLauncher, monkeypatch: pytest.MonkeyPatch
) -> None:
    # discord.py's keep-alive thread sends a heartbeat through the event loop and only then
    # notes when it sent it (``_last_send``); an ACK that the loop reads before that measures
    # the whole interval as latency ("Can't keep up, shard ID 0 websocket is 41.3s behind.").
    # Discord's answer crosses a network, so the client has noted its heartbeat by then, even
    # when its thread wakes late on a busy machine: here every note comes 50 ms late.
    late = 0.05
    notes: list[float] = []  # when the keep-alive thread noted each heartbeat it sent
    acks: list[tuple[int, int]] = []  # at each ACK: (the thread's heartbeats answered, noted)
    ack = discord.gateway.KeepAliveHandler.ack

    def last_send(self: discord.gateway.KeepAliveHandler) -> float:
        value: float = self.__dict__["_last_send"]
        return value

    def note_send(self: discord.gateway.KeepAliveHandler, value: float) -> None:
        if threading.current_thread() is self:  # the thread, noting a heartbeat it sent
            time.sleep(late)
            value = time.perf_counter()
            notes.append(value)
        self.__dict__["_last_send"] = value

    def recording_ack(self: discord.gateway.KeepAliveHandler) -> None:
        # The first heartbeat goes out on HELLO, from the loop; the thread sends the rest.
        acks.append((len(acks), len(notes)))
        ack(self)

    monkeypatch.setattr(
        discord.gateway.KeepAliveHandler,
        "_last_send",
        property(last_send, note_send),
        raising=False,
    )
    monkeypatch.setattr(discord.gateway.KeepAliveHandler, "ack", recording_ack)
    table.fd.gateway.heartbeat_interval_ms = 40
    await bots.in_process(lambda: make_bot(table.guild.id))
    await table.fd.wait_for(lambda: len(acks) >= 6, timeout=30)
    assert all(noted >= answered for answered, noted in acks), acks


async def test_dropped_connection_resumes_and_replays_missed_events(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    await fd.drop_gateway()
    # Delivered while the bot is disconnected: buffered, then replayed on RESUME.
    r = await fd.slash(table.al, table.general, "/tiny echo text:missed")
    assert r.content == "missed"
    assert (fd.gateway.identify_count, fd.gateway.resume_count) == (1, 1)


async def test_op7_reconnect_resumes(table: TinyWorld, tiny: InProcessBot) -> None:
    fd = table.fd
    await fd.request_reconnect()
    await fd.wait_for(lambda: fd.gateway.resume_count == 1, timeout=15)
    r = await fd.slash(table.al, table.general, "/tiny echo text:after-op7")
    assert r.content == "after-op7"
    assert fd.gateway.identify_count == 1


async def test_resumable_op9_makes_the_client_resume(table: TinyWorld, tiny: InProcessBot) -> None:
    fd = table.fd
    await fd.invalidate_session(resumable=True)
    await fd.wait_for(lambda: fd.gateway.resume_count == 1, timeout=15)
    r = await fd.slash(table.al, table.general, "/tiny echo text:resumed")
    assert r.content == "resumed" and fd.gateway.identify_count == 1


async def test_op9_invalid_session_makes_the_client_identify_again(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    await fd.invalidate_session()
    # The second IDENTIFY may come no sooner than 5 s after the first (max_concurrency 1).
    await fd.wait_for(lambda: fd.gateway.identify_count == 2, timeout=10)
    await fd.wait_until_connected()
    assert fd.gateway.identify_refused == 0
    r = await fd.slash(table.al, table.general, "/tiny echo text:after-op9")
    assert r.content == "after-op9"


async def test_channels_and_members_added_later_reach_the_bot(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    dee = fd.add_user("Dee")
    table.guild.add_member(dee)
    side = table.guild.add_text_channel("side")
    thread = side.add_thread("game")
    client = tiny.client
    await fd.wait_for(lambda: client.get_channel(thread.id) is not None, timeout=15)
    assert client.get_channel(side.id).name == "side"
    r = await fd.slash(dee, thread, "/tiny poke who:Al")
    assert r.content == f"poked Al ({table.al.id})"


async def test_second_guild_added_while_running(table: TinyWorld, tiny: InProcessBot) -> None:
    fd = table.fd
    other = fd.add_guild("Other")
    lobby = other.add_text_channel("lobby")
    other.add_member(table.al)
    await fd.wait_for(lambda: tiny.client.get_guild(other.id) is not None, timeout=15)
    r = await fd.slash(table.al, lobby, "/tiny echo text:global")  # only global commands here
    assert r.content == "global"


async def test_a_zombied_connection_is_closed_by_the_client_and_resumed(
    table: TinyWorld, bots: BotLauncher
) -> None:
    """Issue 46: a connection on which nothing comes back, not even a heartbeat's ACK, is a
    zombie the client must close and resume (Discord, Gateway, "Sending Heartbeats").
    discord.py closes a connection that said nothing for ``heartbeat_timeout`` seconds (60 by
    default, a second and a half here, with heartbeats every quarter second); the event sent
    meanwhile is replayed on RESUME."""
    fd = table.fd
    fd.gateway.heartbeat_interval_ms = 250

    def quick_to_give_up() -> TinyBot:
        bot = make_bot(table.guild.id)
        bot._connection.heartbeat_timeout = 1.5
        return bot

    await bots.in_process(quick_to_give_up)
    fd.zombie_gateway()
    beats = fd.gateway.heartbeats
    r = await fd.slash(table.al, table.general, "/tiny echo text:zombie", wait=False)
    await fd.wait_for(lambda: fd.gateway.resume_count == 1, timeout=15)
    assert fd.gateway.heartbeats > beats, "the client went on beating on the zombie"
    await r.wait_for(lambda i: i.response is not None, timeout=5)
    assert r.content == "zombie"
    assert fd.gateway.identify_count == 1 and not fd.gateway.zombies


async def test_events_while_the_gateway_is_out_of_reach_are_replayed_on_resume(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    """Issue 46: the connection drops and Discord stays out of reach a while (the client's
    new connection gets no HELLO): a command typed meanwhile reaches the bot on RESUME."""
    fd = table.fd
    async with fd.gateway_down():
        r = await fd.slash(table.al, table.general, "/tiny echo text:meanwhile", wait=False)
        await fd.wait_for(lambda: not fd.gateway.connected, timeout=5)
        assert r.response is None
    await r.wait_for(lambda i: i.response is not None, timeout=5)
    assert r.content == "meanwhile"
    assert (fd.gateway.identify_count, fd.gateway.resume_count) == (1, 1)


async def test_events_of_an_invalidated_session_are_lost(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    """Issue 46: once Discord invalidates a session (op 9, not resumable), what happens until
    the client identifies again never reaches it (Discord, Gateway, "Resuming": an app that
    cannot resume starts a new session)."""
    fd = table.fd
    fd.gateway.down()  # (the client's IDENTIFY waits until the lost command is made)
    await fd.invalidate_session()
    lost = await fd.slash(table.al, table.general, "/tiny echo text:lost", wait=False)
    fd.gateway.back()
    await fd.wait_for(lambda: fd.gateway.identify_count == 2, timeout=15)
    await fd.wait_until_connected()
    r = await fd.slash(table.al, table.general, "/tiny echo text:after")
    assert r.content == "after"
    assert lost.response is None and fd.gateway.resume_count == 0
