"""Discord's rules, enforced with Discord's error codes, seen by the real client and on the wire."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

import fakediscord.server
from fakediscord import BotStalled, FakeDiscord
from fakediscord.errors import errors_at
from fakediscord.model import SUPPRESS_EMBEDS, links_previewed
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld, client_of
from tests.helpers.wire import call, refusal


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id[:10], "custom_id": custom_id}


def select(custom_id: str, options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": str(i), "value": str(i)} for i in range(options)],
    }


async def test_first_response_later_than_the_deadline_is_unknown_interaction_10062(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    table.fd.response_deadline = 0.1
    r = await table.fd.slash(table.al, table.general, "/tiny slow seconds:0.3", wait=False)
    await table.fd.wait_for(lambda: client_of(tiny).late_codes)
    assert client_of(tiny).late_codes == [10062]
    assert r.late and r.response is None
    assert table.fd.visible_to(table.al, table.general) == []


async def test_second_initial_response_is_already_acknowledged_40060(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny twice")
    await table.fd.wait_for(lambda: client_of(tiny).twice_codes)
    assert client_of(tiny).twice_codes == [40060]
    assert [m.content for m in r.messages()] == ["first", "second ok"]


async def test_interaction_token_expires_after_15_minutes_50027(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny echo text:hi")
    path = f"/webhooks/{table.fd.application_id}/{r.token}/messages/@original"
    assert (await call(http, "PATCH", path, {"content": "edited"}))[0] == 200
    table.fd.clock.advance(15 * 60 + 1)
    assert await refusal(http, "PATCH", path, {"content": "too late"}) == (401, 50027)
    assert r.content == "edited"


async def test_message_of_2001_characters_is_refused_50035(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny long length:2001")
    # The first follow-up after a "thinking" defer becomes the response itself.
    await r.wait_settled()
    assert r.content == "refused 400 50035" and r.followups == []
    r = await table.fd.slash(table.al, table.general, "/tiny long length:2000")
    await r.wait_settled()
    assert r.content == "sent"
    assert len(table.fd.visible_to(table.bea, table.general)[-1].content) == 2000


@pytest.mark.parametrize(
    ("components", "field"),
    [
        ([row(button(f"b{i}")) for i in range(6)], "components"),
        ([row(*(button(f"b{i}") for i in range(6)))], "components.0.components"),
        ([row(select("s", 26))], "components.0.components.0.options"),
        ([row(button("x" * 101))], "components.0.components.0.custom_id"),
        ([row(button("same"), button("same"))], "components.0.components.1.custom_id"),
        ([row(select("s", 3), button("b"))], "components.0.components"),
    ],
    ids=["6-rows", "6-buttons", "26-options", "101-char-id", "duplicate-id", "select-not-alone"],
)
async def test_component_limits_are_invalid_form_body_50035(
    table: TinyWorld, http: aiohttp.ClientSession, components: list[Any], field: str
) -> None:
    status, body = await call(
        http,
        "POST",
        table.posts,
        {"content": "x", "components": components},
    )
    assert (status, body["code"]) == (400, 50035)
    assert errors_at(body["errors"], field), body["errors"]
    assert table.fd.messages(table.general) == []


async def test_limits_at_the_edge_are_accepted(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    rows = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(4)]
    rows.append(row(select("s", 25)))
    status, _ = await call(
        http,
        "POST",
        table.posts,
        {"content": "y" * 2000, "components": rows},
    )
    assert status == 200


async def test_empty_message_is_refused_50006(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    assert await refusal(http, "POST", table.posts, {}) == (400, 50006)


async def test_unknown_and_deleted_messages_are_10008(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, created = await call(http, "POST", table.posts, {"content": "soon gone"})
    assert status == 200
    assert (await call(http, "DELETE", f"{table.posts}/{created['id']}"))[0] == 204
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        assert await refusal(http, method, f"{table.posts}/{created['id']}", body) == (404, 10008)
    assert await refusal(http, "GET", f"{table.posts}/12345") == (404, 10008)
    assert table.fd.visible_to(table.al, table.general) == []
    assert table.fd.messages(table.general)[0].deleted


async def test_ephemeral_message_is_reachable_only_through_its_token(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny secret")
    assert r.original is not None
    refused = await refusal(http, "PATCH", f"{table.posts}/{r.original.id}", {"content": "x"})
    assert refused == (404, 10008)
    path = f"/webhooks/{table.fd.application_id}/{r.token}/messages/@original"
    status, body = await call(http, "PATCH", path, {"content": "still only you"})
    assert status == 200 and body["flags"] & 64
    assert r.content == "still only you" and r.original.history[0].content == "only you"


async def test_original_of_unanswered_interaction_and_unknown_token(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    refused = await refusal(
        http, "GET", f"/webhooks/{table.fd.application_id}/nope/messages/@original"
    )
    assert refused == (404, 10015)
    refused = await refusal(
        http, "POST", "/interactions/1/nope/callback", {"type": 4, "data": {"content": "x"}}
    )
    assert refused == (404, 10062)


async def test_callback_type_must_fit_the_interaction(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny slow seconds:0.3", wait=False)
    path = f"/interactions/{r.id}/{r.token}/callback?with_response=1"
    for wrong in (6, 7, 8):
        refused = await refusal(http, "POST", path, {"type": wrong, "data": {"choices": []}})
        assert refused == (400, 50035)
    await r.wait_for(lambda i: i.response is not None)
    assert r.content == "late"


async def test_wrong_bot_token_is_401(fake_discord: FakeDiscord) -> None:
    headers = {"Authorization": "Bot wrong"}
    async with (
        aiohttp.ClientSession(headers=headers) as session,
        session.get(fake_discord.api_base + "/users/@me") as response,
    ):
        assert response.status == 401
        assert response.headers["Content-Type"] == "application/json"


async def test_unserved_routes_are_recorded(table: TinyWorld, http: aiohttp.ClientSession) -> None:
    status, _ = await call(http, "PUT", f"/channels/{table.general.id}/pins/1")
    assert status in (404, 405)
    assert table.fd.unhandled == [f"PUT /channels/{table.general.id}/pins/1"]


async def test_file_and_embed_arrive_with_the_message(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny file")
    assert r.original is not None
    [attachment] = r.original.attachments
    assert (attachment.filename, attachment.data) == ("board.png", b"\x89PNG fake")
    assert attachment.description == "the board"
    assert r.original.embeds[0]["title"] == "Board"
    assert "121 to go" in r.original.text()
    async with aiohttp.ClientSession() as session, session.get(attachment.url) as response:
        assert await response.read() == b"\x89PNG fake"


async def test_channel_message_create_edit_fetch(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny post")
    await r.wait_followups(1)
    assert r.followups[0].content == "fetched post v2"
    post = [m for m in table.fd.visible_to(table.bea, table.general) if m.content == "post v2"]
    assert len(post) == 1 and [v.content for v in post[0].history] == ["post v1"]


async def test_channel_history_is_newest_first_without_ephemerals(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    await table.fd.slash(table.al, table.general, "/tiny echo text:one")
    await table.fd.slash(table.al, table.general, "/tiny secret")
    await table.fd.slash(table.al, table.general, "/tiny echo text:two")
    status, history = await call(http, "GET", f"{table.posts}?limit=10")
    assert status == 200
    assert [m["content"] for m in history] == ["two", "one"]


async def test_dm_with_a_button_that_edits_it(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny dm")
    assert r.ephemeral and r.content == "sent you a DM"
    [dm] = table.fd.dms(table.al)
    assert dm.content == "hello in private" and dm.channel.recipient is table.al
    assert table.fd.dms(table.bea) == []
    await table.fd.click(table.al, dm, "tiny:plus")
    assert dm.content == "count 1"


async def test_closed_dms_are_forbidden_50007(table: TinyWorld, tiny: InProcessBot) -> None:
    table.fd.close_dms(table.al)
    r = await table.fd.slash(table.al, table.general, "/tiny dm")
    assert r.content == "closed dms 50007"
    assert table.fd.dms(table.al) == []
    table.fd.open_dms(table.al)
    r = await table.fd.slash(table.al, table.general, "/tiny dm")
    assert r.content == "sent you a DM"


async def test_slash_command_typed_in_a_dm(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.fd.dm_channel(table.al), "/tiny echo text:private")
    assert r.content == "private"
    assert [m.content for m in table.fd.dms(table.al)] == ["private"]


async def test_commands_synced_globally_and_to_the_guild(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    app = table.fd.application_id
    status, global_commands = await call(http, "GET", f"/applications/{app}/commands")
    assert status == 200 and [c["name"] for c in global_commands] == [
        "tiny",
        "tinymod",
        "anywhere",
        "order",
        "tinyplay",
    ]
    status, guild_commands = await call(
        http, "GET", f"/applications/{app}/guilds/{table.guild.id}/commands"
    )
    assert [c["name"] for c in guild_commands] == [
        "tiny",
        "tinymod",
        "anywhere",
        "order",
        "tinyplay",
    ]
    assert guild_commands[0]["guild_id"] == str(table.guild.id)
    await tiny.restart()
    status, again = await call(http, "GET", f"/applications/{app}/commands")
    assert again[0]["id"] == global_commands[0]["id"]  # re-sync keeps ids, as Discord does


async def test_wait_for_times_out(table: TinyWorld) -> None:
    with pytest.raises(TimeoutError):
        await table.fd.wait_for(lambda: False, timeout=0.05)
    await asyncio.sleep(0)


async def test_a_wait_left_at_its_default_ends_once_the_bot_stops_asking(
    table: TinyWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not after a fixed time: a wait given no bound lasts while the bot keeps making requests
    # and ends as stalled once it has made none for STALL seconds (shortened here); an
    # interaction's waits are made of it.
    monkeypatch.setattr(fakediscord.server, "STALL", 0.05)
    with pytest.raises(BotStalled):
        await table.fd.wait_for(lambda: False)


def test_names_are_as_long_as_discord_lets_them_be(fake_discord: FakeDiscord) -> None:
    # A display name or a nickname is 1 to 32 characters, trimmed (User Resource, "Usernames
    # and Nicknames"): a test cannot hand the bot a name no Discord user could have.
    longest = fake_discord.add_user("W" * 32)
    for name in ("W" * 33, "", " Al", "Al "):
        with pytest.raises(ValueError, match="1 to 32 characters"):
            fake_discord.add_user(name)
    guild = fake_discord.add_guild("Names")
    member = guild.add_member(longest)
    member.nick = "🂡" * 32
    with pytest.raises(ValueError, match="nickname"):
        member.nick = "N" * 33
    member.nick = None


def test_a_link_in_a_messages_content_is_previewed_unless_kept_from_it() -> None:
    # Discord previews a link it finds in a message's content; not one in angle brackets, in
    # code or broken by a backslash, and none with SUPPRESS_EMBEDS.
    content = (
        "Bare https://a.example/x, masked [m](https://m.example), kept <https://b.example>,"
        " `https://c.example`, escaped https\\://d.example"
    )
    assert links_previewed(content, 0) == ["https://a.example/x", "https://m.example"]
    assert links_previewed(content, SUPPRESS_EMBEDS) == []
