"""Deleting messages (bot token and interaction token), and what an interaction token reaches."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld, client_of
from tests.helpers.wire import call, refusal


async def test_the_bot_deletes_its_own_messages_in_channels_and_dms(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    dm = fd.dm_channel(table.al)
    for channel in (table.general, dm):
        base = f"/channels/{channel.id}/messages"
        status, posted = await call(http, "POST", base, {"content": "soon gone"})
        assert status == 200
        assert (await call(http, "DELETE", f"{base}/{posted['id']}"))[0] == 204
        assert fd.visible_to(table.al, channel) == []
    assert fd.counters.deletes == {"rest": 2}


async def test_other_peoples_messages_need_manage_messages_and_never_in_dms(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    said = await fd.say(table.al, table.general, "mine")
    refused = await refusal(http, "DELETE", f"{table.posts}/{said.id}")
    assert refused == (403, 50013)
    dm = fd.dm_channel(table.al)
    said_in_dm = await fd.say(table.al, dm, "private")
    refused = await refusal(http, "DELETE", f"/channels/{dm.id}/messages/{said_in_dm.id}")
    assert refused == (403, 50003)
    assert not said.deleted and not said_in_dm.deleted


async def test_a_token_reaches_only_its_own_response_and_follow_ups(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    first = await fd.slash(table.al, table.general, "/tiny think")
    await first.wait_followups(1)
    second = await fd.slash(table.al, table.general, "/tiny echo text:other")
    assert first.original is not None and second.original is not None
    app = fd.application_id
    theirs = f"/webhooks/{app}/{second.token}/messages"
    for message in (first.original, first.followups[0]):
        for method in ("GET", "PATCH", "DELETE"):
            body = {"content": "x"} if method == "PATCH" else None
            assert await refusal(http, method, f"{theirs}/{message.id}", body) == (404, 10008)
    own = f"/webhooks/{app}/{first.token}/messages"
    assert (await call(http, "DELETE", f"{own}/{first.followups[0].id}"))[0] == 204
    assert (await call(http, "DELETE", f"{own}/@original"))[0] == 204
    assert first.messages() == [] and second.content == "other"
    assert fd.counters.deletes == {"webhook": 2}


async def test_ephemeral_messages_are_out_of_reach_of_channel_routes(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny secret")
    assert r.original is not None
    path = f"{table.posts}/{r.original.id}"
    for method in ("GET", "PATCH", "DELETE"):
        body = {"content": "x"} if method == "PATCH" else None
        assert await refusal(http, method, path, body) == (404, 10008)
    path = f"/webhooks/{table.fd.application_id}/{r.token}/messages/@original"
    assert (await call(http, "DELETE", path))[0] == 204


async def test_the_bot_token_edits_a_public_response_after_its_token_expired(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    """A server game's table, posted through a click's token, is edited with the bot's own
    token once that token has lapsed (discord-api-docs issue 3090)."""
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny echo text:hi")
    assert r.original is not None and not r.original.ephemeral
    fd.clock.advance(15 * 60 + 1)
    path = f"{table.posts}/{r.original.id}"
    assert (await call(http, "PATCH", path, {"content": "much later"}))[0] == 200
    assert r.original.content == "much later"


async def test_an_expired_token_is_refused_everywhere_50027(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny echo text:hi")
    fd.clock.advance(15 * 60 - 1)
    assert not r.token_lapsed, "good for 15 minutes"
    fd.clock.advance(2)
    assert r.token_lapsed
    base = f"/webhooks/{fd.application_id}/{r.token}"
    for method, path, body in (
        ("POST", "", {"content": "late"}),
        ("GET", "/messages/@original", None),
        ("DELETE", "/messages/@original", None),
    ):
        assert await refusal(http, method, base + path, body) == (401, 50027)
    assert fd.invalid_requests.count == 3


async def test_without_token_expiry_tokens_keep_working(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.limits.token_expiry = False
    r = await fd.slash(table.al, table.general, "/tiny echo text:hi")
    fd.clock.advance(24 * 3600)
    assert not r.token_lapsed
    path = f"/webhooks/{fd.application_id}/{r.token}/messages/@original"
    assert (await call(http, "PATCH", path, {"content": "much later"}))[0] == 200
    assert r.content == "much later"


async def test_the_client_using_a_token_after_15_minutes_gets_50027(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny remember")
    remembered = client_of(tiny).remembered
    assert remembered is not None
    await remembered.edit_original_response(content="still in time")
    fd.clock.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as refused:
        await remembered.edit_original_response(content="too late")
    assert (refused.value.status, refused.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException):
        await remembered.followup.send("too late as well")
    assert r.content == "still in time" and r.followups == []
