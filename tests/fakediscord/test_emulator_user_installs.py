"""Conversations the bot is not in (a DM between people, a group DM), reached through a user
install: which commands Discord offers there, what their interactions carry, and what the
bot's own token may not do there."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from fakediscord import Channel, FakeDiscord, User
from fakediscord.errors import EmulatorUsageError
from fakediscord.model import USE_EXTERNAL_APPS
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


def last_interaction(fd: FakeDiscord) -> dict[str, Any]:
    """The payload of the latest INTERACTION_CREATE the bot was sent."""
    return next(d for _, t, d in reversed(fd.gateway.shards[0].events) if t == "INTERACTION_CREATE")


def _installed(table: TinyWorld, *others: User) -> tuple[FakeDiscord, Channel]:
    """Al installs the app to his account; the emulator, and a conversation the bot is not in
    between Al and ``others`` (a DM with one, a group DM with more)."""
    table.fd.install_app(table.al)
    return table.fd, table.fd.private_channel(table.al, *others)


async def test_a_private_channel_is_seen_by_its_people_only(table: TinyWorld) -> None:
    fd = table.fd
    dm = fd.private_channel(table.al, table.bea)
    group = fd.private_channel(table.al, table.bea, table.cy)
    assert (dm.type, group.type) == (1, 3)
    assert dm.visible_to(table.al) and not dm.visible_to(table.cy)
    assert group.visible_to(table.cy) and not group.visible_to(fd.bot_user)
    with pytest.raises(ValueError):
        fd.private_channel(table.al)
    with pytest.raises(ValueError):
        fd.private_channel(table.al, fd.bot_user)


async def test_only_a_user_installed_command_that_allows_private_channels_is_offered(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    group = fd.private_channel(table.al, table.bea, table.cy)
    with pytest.raises(EmulatorUsageError, match="has not installed"):
        await fd.slash(table.al, group, "/anywhere")
    fd.install_app(table.al)
    # /tiny allows neither user installs nor private channels: Discord does not offer it.
    with pytest.raises(EmulatorUsageError, match="cannot be installed to a user"):
        await fd.slash(table.al, group, "/tiny echo text:hi")
    with pytest.raises(EmulatorUsageError, match="cannot use"):
        await fd.slash(fd.add_user("Stranger"), group, "/anywhere")
    r = await fd.slash(table.al, group, "/anywhere")
    assert r.content == "private by user install"
    assert r.original is not None and r.original.channel is group
    assert fd.counters.private_messages[group.id] == 1


async def test_the_synced_command_declares_its_installs_and_contexts(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    command = table.fd.commands.find("anywhere", None)
    assert command is not None
    declared = sorted(command["integration_types"]), sorted(command["contexts"])
    assert declared == ([0, 1], [0, 1, 2])  # guild and user installs; guild, bot DM, private


async def test_interactions_say_their_context_and_whose_install_they_run_on(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd, dm = _installed(table, table.bea)
    r = await fd.slash(table.al, dm, "/anywhere")
    assert r.content == "private by user install"
    payload = last_interaction(fd)
    assert payload["context"] == 2 and "guild_id" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(table.al.id)}
    assert payload["channel"]["type"] == 1
    assert {u["id"] for u in payload["channel"]["recipients"]} == {
        str(table.al.id),
        str(table.bea.id),
    }
    # Bea has no install of her own: a click on Al's message runs on Al's.
    assert r.original is not None
    await fd.click(table.bea, r.original, "tiny:plus")
    click = last_interaction(fd)
    assert click["context"] == 2 and click["user"]["id"] == str(table.bea.id)
    assert click["authorizing_integration_owners"] == {"1": str(table.al.id)}
    assert r.original.content == "count 1"
    # In the server, the guild install.
    r = await fd.slash(table.al, table.general, "/anywhere")
    assert r.content == "guild by guild install"
    payload = last_interaction(fd)
    assert payload["context"] == 0
    assert payload["authorizing_integration_owners"] == {"0": str(table.guild.id)}


async def test_the_bots_token_may_not_post_or_read_where_the_bot_is_not(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd, group = _installed(table, table.bea, table.cy)
    r = await fd.slash(table.al, group, "/anywhere post:True")
    assert r.content == "refused 403/50001; private by user install"
    base = f"/channels/{group.id}/messages"
    assert (await call(http, "POST", base, {"content": "hi"}))[0] == 403
    assert await refusal(http, "GET", base) == (403, 50001)
    assert r.original is not None
    assert await refusal(http, "PATCH", f"{base}/{r.original.id}", {"content": "x"}) == (403, 50001)
    assert [m.content for m in fd.messages(group)] == ["refused 403/50001; private by user install"]
    assert fd.counters.private_messages[group.id] == 1


async def test_a_clicks_token_edits_the_message_clicked_and_no_other(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd, dm = _installed(table, table.bea)
    first = await fd.slash(table.al, dm, "/anywhere")
    second = await fd.slash(table.al, dm, "/anywhere")
    assert first.original is not None and second.original is not None
    clicked = first.original
    click = await fd.click(table.bea, clicked, "tiny:quiet")  # a deferred update, then an edit
    await fd.wait_for(lambda: clicked.content == "quietly edited")
    hook = f"/webhooks/{fd.application_id}/{click.token}/messages"
    status, _ = await call(http, "PATCH", f"{hook}/@original", {"content": "through the click"})
    assert status == 200 and first.original.content == "through the click"
    refused = await refusal(http, "PATCH", f"{hook}/{second.original.id}", {"content": "no"})
    assert refused == (404, 10008)
    assert second.original.content == "private by user install"
    fd.clock.advance(15 * 60 + 1)
    refused = await refusal(http, "PATCH", f"{hook}/@original", {"content": "too late"})
    assert refused == (401, 50027)
    assert first.original.content == "through the click"


async def test_no_gateway_event_comes_from_a_conversation_the_bot_is_not_in(
    fake_discord: FakeDiscord, table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = fake_discord
    fd.install_app(table.al)
    dm = fd.private_channel(table.al, table.bea)
    before = len(fd.gateway.shards[0].events)
    await fd.slash(table.al, dm, "/anywhere")
    # (The emulator sends gateway events as it acts, not later: the list is complete.)
    kinds = [e[1] for e in fd.gateway.shards[0].events[before:]]
    assert kinds == ["INTERACTION_CREATE"]


async def test_a_server_that_did_not_invite_the_bot_is_reached_by_user_installs_only(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    elsewhere = fd.add_guild("Elsewhere", bot_member=False)
    lounge = elsewhere.add_text_channel("lounge")
    elsewhere.add_member(table.al)
    # (The emulator sends a GUILD_CREATE as it adds a server the bot is in, not later.)
    client = tiny.client
    assert client.get_guild(elsewhere.id) is None  # the bot never heard of it
    with pytest.raises(EmulatorUsageError, match="has not installed"):
        await fd.slash(table.al, lounge, "/anywhere")
    fd.install_app(table.al)
    with pytest.raises(EmulatorUsageError, match="cannot be installed to a user"):
        await fd.slash(table.al, lounge, "/tiny echo text:hi")
    r = await fd.slash(table.al, lounge, "/anywhere post:True")
    assert r.content == "refused 403/50001; guild by user install"
    payload = last_interaction(fd)
    assert payload["context"] == 0 and payload["guild_id"] == str(elsewhere.id)
    assert payload["authorizing_integration_owners"] == {"1": str(table.al.id)}
    for method, path in (
        ("GET", f"/guilds/{elsewhere.id}"),
        ("GET", f"/guilds/{elsewhere.id}/members/{table.al.id}"),
        ("GET", f"/channels/{lounge.id}/messages"),
    ):
        assert await refusal(http, method, path) == (403, 50001), path


async def test_a_clicks_follow_ups_take_their_own_flags_beside_its_deferred_update(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd, group = _installed(table, table.bea, table.cy)
    shown = await fd.slash(table.al, group, "/anywhere")
    assert shown.original is not None
    click = await fd.click(table.bea, shown.original, "tiny:quiet")  # a deferred update
    await fd.wait_for(lambda: shown.original is not None and "quietly" in shown.original.content)
    hook = f"/webhooks/{fd.application_id}/{click.token}"
    status, mine = await call(http, "POST", f"{hook}?wait=true", {"content": "yours", "flags": 64})
    assert status == 200
    status, everyone = await call(http, "POST", f"{hook}?wait=true", {"content": "all of you"})
    assert status == 200
    private = fd.world.messages[int(mine["id"])]
    public = fd.world.messages[int(everyone["id"])]
    assert private.ephemeral and private.visible_to(table.bea)
    assert not private.visible_to(table.al) and not private.visible_to(table.cy)
    assert not public.ephemeral and all(public.visible_to(u) for u in (table.al, table.cy))
    # The click's token edits the clicked message and its own follow-ups, for 15 minutes.
    status, _ = await call(http, "PATCH", f"{hook}/messages/{private.id}", {"content": "hand"})
    assert status == 200 and private.content == "hand"
    status, _ = await call(http, "PATCH", f"{hook}/messages/@original", {"content": "table"})
    assert status == 200 and shown.original.content == "table"
    fd.clock.advance(15 * 60 + 1)
    assert await refusal(http, "POST", hook, {"content": "too late"}) == (401, 50027)


async def test_an_interaction_only_a_user_install_authorised_takes_five_follow_ups(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd, dm = _installed(table, table.bea)
    where_installed = fd.dm_channel(table.al)
    for channel, limited in ((dm, True), (table.general, False), (where_installed, False)):
        r = await fd.slash(table.al, channel, "/anywhere")
        assert r.response is not None
        owners = last_interaction(fd)["authorizing_integration_owners"]
        assert (set(owners) == {"1"}) is limited, owners
        hook = f"/webhooks/{fd.application_id}/{r.token}?wait=true"
        for n in range(5):
            assert (await call(http, "POST", hook, {"content": f"follow-up {n}"}))[0] == 200
        sixth = await refusal(http, "POST", hook, {"content": "one too many"})
        assert sixth == ((400, 40094) if limited else (200, None)), channel.name
        # The token still edits what it sent.
        status, _ = await call(
            http,
            "PATCH",
            f"/webhooks/{fd.application_id}/{r.token}/messages/@original",
            {"content": "edited"},
        )
        assert status == 200
    # In the bot's own DM the guild install answers ("0": "0"), and Al's own install too.
    assert last_interaction(fd)["authorizing_integration_owners"] == {
        "0": "0",
        "1": str(table.al.id),
    }


async def test_without_use_external_apps_a_user_install_answers_only_privately(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.install_app(table.al)
    elsewhere = fd.add_guild("Elsewhere", bot_member=False)
    lounge = elsewhere.add_text_channel("lounge")
    elsewhere.add_member(table.al)
    elsewhere.add_member(table.bea)
    r = await fd.slash(table.al, lounge, "/anywhere")
    assert not r.ephemeral, "Use External Apps is on by default"
    perms = int(last_interaction(fd)["member"]["permissions"])
    assert perms & USE_EXTERNAL_APPS
    elsewhere.deny(USE_EXTERNAL_APPS)
    r = await fd.slash(table.al, lounge, "/anywhere")
    assert r.content == "guild by user install" and r.ephemeral, "asked public, made private"
    assert r.original is not None and not r.original.visible_to(table.bea)
    payload = last_interaction(fd)
    assert not int(payload["member"]["permissions"]) & USE_EXTERNAL_APPS
    assert not int(payload["channel"]["permissions"]) & USE_EXTERNAL_APPS
    # Its follow-ups too, whatever their flags.
    hook = f"/webhooks/{fd.application_id}/{r.token}?wait=true"
    status, sent = await call(http, "POST", hook, {"content": "for everyone?"})
    assert status == 200 and sent["flags"] & 64
    assert not fd.world.messages[int(sent["id"])].visible_to(table.bea)
    # Where the app is installed to the server, the permission does not matter.
    table.guild.deny(USE_EXTERNAL_APPS)
    r = await fd.slash(table.al, table.general, "/anywhere")
    assert r.content == "guild by guild install" and not r.ephemeral
