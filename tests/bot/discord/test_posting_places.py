"""Where a game may be posted, from what an interaction says of the place (issue 46), or, for
a game's table pressed for from elsewhere (a rematch by DM), from what the gateway told of
its channel: the bot's permissions there (View Channel, Send Messages or, in a thread, Send
Messages in Threads, and in a voice or stage channel's chat Connect), and where Discord runs
no Activity (a stage). The README's invite asks for each permission the bot's refusals
name."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.places import activity_runs_in, cannot_post, cannot_post_in

POSTS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True)
Kind = discord.ChannelType


def _made(kind: Kind, perms: discord.Permissions, *, guild: int | None = 5) -> Any:
    """An interaction from a channel of ``kind`` where the bot has ``perms`` (in a server that
    installed the app, unless ``guild`` is None: a DM)."""
    return SimpleNamespace(
        guild_id=guild,
        app_permissions=perms,
        channel=SimpleNamespace(type=kind),
        context=SimpleNamespace(private_channel=False),
        is_guild_integration=lambda: True,
    )


def test_a_voice_or_stage_channels_chat_needs_connect_to_post_a_game() -> None:
    with_connect = POSTS | discord.Permissions(connect=True)
    for kind in (Kind.voice, Kind.stage_voice):
        said = cannot_post(_made(kind, POSTS))
        assert said is not None and "**Connect**" in said and "text channel" in said, said
        assert cannot_post(_made(kind, with_connect)) is None
    # Connect means nothing elsewhere.
    assert cannot_post(_made(Kind.text, POSTS)) is None
    assert cannot_post(_made(Kind.public_thread, POSTS)) is None


def test_the_permissions_to_post_are_named_and_a_dm_needs_none() -> None:
    mute = discord.Permissions(view_channel=True)
    said = cannot_post(_made(Kind.text, mute))
    assert said is not None and "**Send Messages**" in said and "Threads" not in said
    said = cannot_post(_made(Kind.public_thread, mute))
    assert said is not None and "**Send Messages in Threads**" in said
    said = cannot_post(_made(Kind.voice, discord.Permissions.none()))
    assert said is not None
    assert "**View Channel**, **Connect** and **Send Messages**" in said, said
    assert cannot_post(_made(Kind.voice, discord.Permissions(administrator=True))) is None
    assert cannot_post(_made(Kind.private, discord.Permissions.none(), guild=None)) is None


def test_every_kind_of_thread_needs_send_messages_in_threads_not_send_messages() -> None:
    # An announcement channel's thread (the kind a tournament's game thread is there) is a
    # thread like the others: Send Messages in Threads is what lets the bot post in it.
    in_threads = discord.Permissions(view_channel=True, send_messages_in_threads=True)
    in_channels = discord.Permissions(view_channel=True, send_messages=True)
    for kind in (Kind.public_thread, Kind.private_thread, Kind.news_thread):
        assert cannot_post(_made(kind, in_threads)) is None, kind
        said = cannot_post(_made(kind, in_channels))
        assert said is not None and "**Send Messages in Threads**" in said, (kind, said)
    # An announcement channel itself is posted in with Send Messages.
    assert cannot_post(_made(Kind.news, in_channels)) is None
    said = cannot_post(_made(Kind.news, in_threads))
    assert said is not None and "**Send Messages**" in said and "Threads" not in said


def test_an_activity_runs_anywhere_but_on_a_stage() -> None:
    assert not activity_runs_in(SimpleNamespace(type=Kind.stage_voice))
    for kind in (Kind.text, Kind.voice, Kind.public_thread, Kind.private, Kind.group):
        assert activity_runs_in(SimpleNamespace(type=kind))
    assert activity_runs_in(None)


def _permission(name: str) -> str:
    """A permission as Discord's client names it ("View Channel(s)") as discord.py's flag."""
    flag = name.lower().replace(" ", "_")
    return flag if flag in discord.Permissions.VALID_FLAGS else flag.removesuffix("s")


def test_the_readmes_invite_asks_for_every_permission_the_bot_asks_moderators_for() -> None:
    # The README's step 3 names the bot's permissions and writes them as a number in the
    # link: both say the same permissions, among them every one the bot's refusals name.
    from bot.discord.tournament_commands import THREADS_NEEDED

    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    step = " ".join(
        readme[readme.index("3. **Invite the bot.**") : readme.index("4. **Run")].split()
    )
    named = {_permission(n) for n in re.findall(r"\*([A-Z][A-Za-z ]+)\*", step)}
    assert len(named) >= 7, named
    [number] = re.findall(r"permissions=(\d+)", step)
    assert discord.Permissions(**dict.fromkeys(named, True)).value == int(number)
    refusals = [
        cannot_post(_made(kind, discord.Permissions.none()))
        for kind in (Kind.text, Kind.voice, Kind.public_thread)
    ] + [THREADS_NEEDED]
    asked = {
        _permission(n)
        for said in refusals
        for n in re.findall(r"\*\*([A-Z][A-Za-z ]+)\*\*", said or "")
    }
    assert {"view_channel", "connect", "create_public_threads"} <= asked
    assert asked <= named, asked - named


def _client(perms: discord.Permissions | None, kind: Kind = Kind.text) -> Any:
    """A client that knows server 5 and its channel 7, where the bot has ``perms`` (None: it
    knows no server)."""
    channel = SimpleNamespace(type=kind, permissions_for=lambda member: perms)
    guild = SimpleNamespace(
        me=object(), get_channel_or_thread=lambda i: channel if i == 7 else None
    )
    return SimpleNamespace(get_guild=lambda i: guild if perms is not None and i == 5 else None)


def test_a_tables_channel_pressed_for_from_elsewhere_is_judged_by_the_cache() -> None:
    assert cannot_post_in(_client(POSTS), 5, 7) is None
    assert cannot_post_in(_client(None), None, 7) is None, "outside servers: not the bot's token"
    mute = discord.Permissions(view_channel=True)
    said = cannot_post_in(_client(mute), 5, 7)
    assert said is not None and said.startswith("I can't post in <#7> any more"), said
    assert "**Send Messages**" in said
    said = cannot_post_in(_client(mute, Kind.public_thread), 5, 7)
    assert said is not None and "**Send Messages in Threads**" in said
    for gone in (cannot_post_in(_client(None), 5, 7), cannot_post_in(_client(POSTS), 5, 8)):
        assert gone is not None and gone.startswith("I can't reach <#"), gone
