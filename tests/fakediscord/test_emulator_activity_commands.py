"""The Embedded App SDK's commands past the sign-in, as the stand-in client answers them (issue
57): the rich presence (the scope it needs, what Discord takes, its rate, cleared when the
person leaves), the invite dialog (in a server's channel, with Create Invite), sharing the
Activity's link, the people connected and their event, a person who refuses a scope, and a
client that lacks a command. The client page relays these to fakediscord
(``/.fakediscord/command``), whose answers are checked here on the wire; the end-to-end tests
drive them from the real SDK in Chromium."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.activities import Instance, OAuthError
from fakediscord.activity_rpc import (
    INVALID_CHANNEL,
    INVALID_COMMAND,
    INVALID_EVENT,
    INVALID_PAYLOAD,
    INVALID_PERMISSIONS,
    PARTICIPANTS_UPDATE,
    PRESENCE_UPDATES,
    PRESENCE_WINDOW,
    RATELIMITED,
)
from fakediscord.model import CREATE_INSTANT_INVITE, User
from tests.helpers.emulator_world import TinyWorld

PRESENCE = {
    "type": 0,
    "details": "Cribbage · deal 4 · 63–58",
    "state": "Playing",
    "party": {"id": "cribbage-7", "size": [2, 2]},
    "timestamps": {"start": 1_700_000_000_000},
}


class Client:
    """One person's stand-in client, on the wire: its session and the token it authenticated
    with (None: not yet)."""

    def __init__(self, fd: FakeDiscord, user: User, instance: Instance, **options: Any) -> None:
        self.fd = fd
        self.session = fd.activities.client_session(user, instance, **options)
        self.token: str | None = None
        self.user = user

    def sign_in(self, *scopes: str) -> None:
        """Authorize the app for ``scopes`` and authenticate with the token they give."""
        code = self.fd.activities.authorize(self.user, str(self.fd.application_id), list(scopes))
        form = {
            "client_id": str(self.fd.application_id),
            "client_secret": self.fd.activities.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        self.token = self.fd.activities.exchange(form, "")["access_token"]

    async def command(self, cmd: str, args: Any = None) -> dict[str, Any]:
        body = {"session": self.session, "cmd": cmd, "args": args, "token": self.token}
        url = f"{self.fd.activity_host.origin}/.fakediscord/command"
        async with aiohttp.ClientSession() as http, http.post(url, json=body) as response:
            assert response.status == 200
            answer: dict[str, Any] = await response.json()
            return answer


def _code(answer: dict[str, Any]) -> int | None:
    error = answer.get("error")
    return None if error is None else int(error["code"])


@pytest.fixture
async def instance(table: TinyWorld) -> Instance:
    await table.fd.enable_activity("127.0.0.1:9/activity")
    return table.fd.activities.launch(table.al, table.general)


async def test_the_presence_needs_the_scope_and_is_what_discord_takes(
    table: TinyWorld, instance: Instance
) -> None:
    fd = table.fd
    al = Client(fd, table.al, instance)
    # Before authenticate, and with identify alone: 4006, "Not authenticated or invalid scope".
    assert _code(await al.command("SET_ACTIVITY", {"activity": PRESENCE})) == INVALID_PERMISSIONS
    al.sign_in("identify")
    assert _code(await al.command("SET_ACTIVITY", {"activity": PRESENCE})) == INVALID_PERMISSIONS
    assert fd.activities.commands.presence(table.al) is None
    al.sign_in("identify", "rpc.activities.write")
    shown = await al.command("SET_ACTIVITY", {"activity": PRESENCE})
    assert shown["data"]["details"] == PRESENCE["details"] and shown["data"]["name"]
    assert fd.activities.commands.presence(table.al) == PRESENCE
    for wrong in (
        {**PRESENCE, "type": 1},  # Streaming: not for SET_ACTIVITY
        {**PRESENCE, "buttons": []},  # not a field the SDK's setActivity sends
        {**PRESENCE, "details": "x" * 129},
        {**PRESENCE, "party": {"id": "p", "size": [3, 2]}},
        {**PRESENCE, "timestamps": {"start": "now"}},
    ):
        fd.clock.advance(PRESENCE_WINDOW)
        assert _code(await al.command("SET_ACTIVITY", {"activity": wrong})) == INVALID_PAYLOAD
    assert _code(await al.command("SET_ACTIVITY", {})) == INVALID_PAYLOAD
    # Cleared with null; and when the person closes the Activity.
    fd.clock.advance(PRESENCE_WINDOW)
    assert (await al.command("SET_ACTIVITY", {"activity": None}))["data"]["type"] == 0
    assert fd.activities.commands.presence(table.al) is None
    await al.command("SET_ACTIVITY", {"activity": PRESENCE})
    fd.activities.leave(table.al, instance)
    assert fd.activities.commands.presence(table.al) is None


async def test_presence_updates_past_five_in_twenty_seconds_close_the_connection(
    table: TinyWorld, instance: Instance
) -> None:
    fd = table.fd
    fd.clock.freeze()
    al = Client(fd, table.al, instance)
    al.sign_in("identify", "rpc.activities.write")
    for n in range(PRESENCE_UPDATES):
        details = f"Cribbage · deal 1 · {n}–0"
        answer = await al.command("SET_ACTIVITY", {"activity": {**PRESENCE, "details": details}})
        assert "data" in answer
    too_soon = await al.command("SET_ACTIVITY", {"activity": PRESENCE})
    assert too_soon == {"close": {"code": RATELIMITED, "message": "Rate limited"}}
    assert fd.activities.commands.rate_limited == [table.al]
    assert fd.activities.commands.presence(table.al)["details"] == "Cribbage · deal 1 · 4–0"  # type: ignore[index]
    fd.clock.advance(PRESENCE_WINDOW)
    assert "data" in await al.command("SET_ACTIVITY", {"activity": PRESENCE})


async def test_the_invite_dialog_opens_in_a_servers_channel_for_who_may_invite(
    table: TinyWorld, instance: Instance
) -> None:
    fd = table.fd
    al = Client(fd, table.al, instance)
    al.sign_in("identify")
    opened = await al.command("OPEN_INVITE_DIALOG")
    assert opened["data"] is None
    # What the client shows (the playground's stand-in), beside the SDK's answer.
    assert opened["shown"].startswith("Discord's invite dialog, opened for Al: invite friends")
    assert fd.activities.commands.invites == [(table.al, instance)]
    table.general.deny(CREATE_INSTANT_INVITE)
    assert _code(await al.command("OPEN_INVITE_DIALOG")) == INVALID_PERMISSIONS
    # A DM: the SDK's own words, "Does not work in (G)DM contexts (throws INVALID_CHANNEL)".
    dm = fd.private_channel(table.al, table.bea)
    in_dm = fd.activities.launch(table.al, dm)
    alone = Client(fd, table.al, in_dm)
    alone.sign_in("identify")
    assert _code(await alone.command("OPEN_INVITE_DIALOG")) == INVALID_CHANNEL
    assert len(fd.activities.commands.invites) == 1


async def test_a_link_is_shared_as_the_person_chooses(table: TinyWorld, instance: Instance) -> None:
    fd = table.fd
    al = Client(fd, table.al, instance)
    al.sign_in("identify")
    sent = await al.command("SHARE_LINK", {"message": "🏆 Al wins 121-98 — 1 game point"})
    assert sent["data"] == {"success": True, "didCopyLink": False, "didSendMessage": True}
    assert "Al sent to the chat they chose: “🏆 Al wins 121-98" in sent["shown"]
    fd.activities.commands.will_share(table.al, "copy")
    copied = await al.command("SHARE_LINK", {"message": "hi", "custom_id": "g"})
    assert copied["data"] == {"success": True, "didCopyLink": True, "didSendMessage": False}
    fd.activities.commands.will_share(table.al, "cancel")
    assert not (await al.command("SHARE_LINK", {"message": "hi"}))["data"]["success"]
    shares = fd.activities.commands.shares
    assert [s.outcome for s in shares] == ["sent", "copied", "cancelled"]
    assert shares[1].link.endswith(f"/activities/{fd.application_id}?custom_id=g")
    for wrong in ({}, {"message": "x" * 1001}, {"message": "x", "custom_id": "y" * 65}):
        assert _code(await al.command("SHARE_LINK", wrong)) == INVALID_PAYLOAD
    assert len(shares) == 3


async def test_the_people_connected_and_their_event(table: TinyWorld, instance: Instance) -> None:
    fd = table.fd
    table.guild.member(table.bea).nick = "Bea B."  # type: ignore[union-attr]
    al = Client(fd, table.al, instance)
    al.sign_in("identify")
    people = (await al.command("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS"))["data"]
    assert [p["username"] for p in people["participants"]] == ["Al"]
    for person in people["participants"]:
        assert {"id", "username", "discriminator", "flags", "bot"} <= set(person)
    subscribed = await al.command("SUBSCRIBE", {"evt": PARTICIPANTS_UPDATE})
    assert subscribed == {"data": {"evt": PARTICIPANTS_UPDATE}}
    url = f"{fd.activity_host.origin}/.fakediscord/events?session={al.session}"
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as events:
        await asyncio.sleep(0)  # (the socket is taken before anyone joins)
        await fd.wait_for(lambda: fd.activity_host.listening(instance))
        fd.activities.join(table.bea, table.general)
        event = await events.receive_json(timeout=5)
        assert event["evt"] == PARTICIPANTS_UPDATE
        names = [(p["username"], p.get("nickname")) for p in event["data"]["participants"]]
        assert names == [("Al", None), ("Bea", "Bea B.")]
        fd.activities.leave(table.bea, instance)
        event = await events.receive_json(timeout=5)
        assert [p["username"] for p in event["data"]["participants"]] == ["Al"]


async def test_a_client_without_a_command_and_a_person_who_refuses_a_scope(
    table: TinyWorld, instance: Instance
) -> None:
    fd = table.fd
    fd.activities.join(table.bea, table.general)
    lacking = ("SET_ACTIVITY", "OPEN_INVITE_DIALOG", PARTICIPANTS_UPDATE)
    bea = Client(fd, table.bea, instance, unsupported=frozenset(lacking))
    bea.sign_in("identify", "rpc.activities.write")
    for cmd in ("SET_ACTIVITY", "OPEN_INVITE_DIALOG"):
        assert _code(await bea.command(cmd, {"activity": None})) == INVALID_COMMAND
    assert _code(await bea.command("SUBSCRIBE", {"evt": PARTICIPANTS_UPDATE})) == INVALID_EVENT
    assert "data" in await bea.command("GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS")
    assert _code(await bea.command("MADE_UP")) == INVALID_COMMAND
    # Asked for the presence's scope, Al refuses (the dialog cancelled); without it, he agrees.
    fd.activities.decline(table.al, "rpc.activities.write")
    with pytest.raises(OAuthError) as refused:
        fd.activities.authorize(
            table.al, str(fd.application_id), ["identify", "rpc.activities.write"]
        )
    assert refused.value.error == "access_denied"
    assert fd.activities.authorize(table.al, str(fd.application_id), ["identify"])
