"""Threads as Discord makes them: started from a message (the thread has the message's id,
and a message starts one thread at most) or without one, with the permissions each needs."""

from __future__ import annotations

import aiohttp
import pytest

from fakediscord.errors import EmulatorUsageError
from fakediscord.model import (
    ANNOUNCEMENT_THREAD,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


async def test_a_thread_from_a_message_has_its_id_and_is_made_once(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, post = await call(http, "POST", table.posts, {"content": "Round 1 · Al vs Bea"})
    assert status == 200
    route = f"{table.posts}/{post['id']}/threads"
    status, thread = await call(http, "POST", route, {"name": "Round 1 · Al vs Bea"})
    assert status == 200 and thread["id"] == post["id"] and thread["type"] == 11
    assert thread["parent_id"] == str(table.general.id)
    assert await refusal(http, "POST", route, {"name": "again"}) == (400, 160004)
    threads = [c for c in table.guild.channels.values() if c.is_thread]
    assert [t.name for t in threads] == ["Round 1 · Al vs Bea"]
    status, _ = await call(http, "POST", f"/channels/{thread['id']}/messages", {"content": "hi"})
    assert status == 200
    # A message that is not there starts nothing; nor does a thread start a thread.
    assert await refusal(http, "POST", f"{table.posts}/1/threads", {"name": "x"}) == (404, 10008)
    refused = await refusal(
        http, "POST", f"/channels/{thread['id']}/threads", {"name": "x", "type": 11}
    )
    assert refused == (400, 50024)


async def test_threads_need_their_permissions(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, post = await call(http, "POST", table.posts, {"content": "start"})
    table.general.deny(CREATE_PUBLIC_THREADS)
    refused = await refusal(http, "POST", f"{table.posts}/{post['id']}/threads", {"name": "t"})
    assert refused == (403, 50013)
    assert not [c for c in table.guild.channels.values() if c.is_thread]

    thread = table.general.add_thread("made by a member")
    table.general.deny(SEND_MESSAGES_IN_THREADS)
    refused = await refusal(http, "POST", f"/channels/{thread.id}/messages", {"content": "x"})
    assert refused == (403, 50013)
    # The channel itself still takes messages: Send Messages is another permission.
    status, _ = await call(http, "POST", table.posts, {"content": "still here"})
    assert status == 200


async def test_an_announcement_channels_thread_is_posted_in_as_any_thread(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    news = table.guild.add_announcement_channel("news")
    posts = f"/channels/{news.id}/messages"
    status, post = await call(http, "POST", posts, {"content": "Friday: cribbage night"})
    assert status == 200
    status, thread = await call(http, "POST", f"{posts}/{post['id']}/threads", {"name": "talk"})
    assert status == 200 and thread["type"] == ANNOUNCEMENT_THREAD
    # Its posts need Send Messages in Threads, not the channel's Send Messages.
    news.deny(SEND_MESSAGES)
    assert await refusal(http, "POST", posts, {"content": "x"}) == (403, 50013)
    status, _ = await call(http, "POST", f"/channels/{thread['id']}/messages", {"content": "hi"})
    assert status == 200
    news.allow(SEND_MESSAGES)
    news.deny(SEND_MESSAGES_IN_THREADS)
    refused = await refusal(http, "POST", f"/channels/{thread['id']}/messages", {"content": "x"})
    assert refused == (403, 50013)


async def _started_thread(table: TinyWorld, http: aiohttp.ClientSession) -> str:
    """A thread the bot starts from its own message in #general; its id."""
    status, post = await call(http, "POST", table.posts, {"content": "Round 1 · Al vs Bea"})
    assert status == 200
    route = f"{table.posts}/{post['id']}/threads"
    status, thread = await call(http, "POST", route, {"name": "Round 1 · Al vs Bea"})
    assert status == 200
    return str(thread["id"])


async def test_the_bot_adds_members_to_its_thread_and_archives_it(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    thread_id = await _started_thread(table, http)
    thread = table.fd.world.channels[int(thread_id)]
    assert thread.owner_id == table.fd.bot_user.id
    assert list(thread.thread_members) == [table.fd.bot_user.id]  # its creator
    members = f"/channels/{thread_id}/thread-members"
    for user in (table.al, table.bea, table.al):  # adding one twice is no error
        status, _ = await call(http, "PUT", f"{members}/{user.id}")
        assert status == 204
    assert set(thread.thread_members) == {table.fd.bot_user.id, table.al.id, table.bea.id}
    status, outsider = await call(http, "PUT", f"{members}/{table.cy.id}")
    assert (status, outsider["code"]) == (404, 10007)
    # Listing members needs the GUILD_MEMBERS intent.
    status, listed = await call(http, "GET", members)
    assert (status, listed["code"]) == (403, 50001)

    # Its creator archives it without Manage Threads.
    status, archived = await call(http, "PATCH", f"/channels/{thread_id}", {"archived": True})
    assert status == 200 and archived["thread_metadata"]["archived"] is True
    assert thread.archived
    # An archived thread takes no edit, no member, no change that does not reopen it.
    status, post = await call(http, "POST", f"/channels/{thread_id}/messages", {"content": "x"})
    assert status == 200 and not thread.archived  # a message reopens it
    status, _ = await call(http, "PATCH", f"/channels/{thread_id}", {"archived": True})
    edit = f"/channels/{thread_id}/messages/{post['id']}"
    for method, path, body in (
        ("PATCH", edit, {"content": "y"}),
        ("PUT", f"{members}/{table.al.id}", None),
        ("PATCH", f"/channels/{thread_id}", {"name": "renamed"}),
        ("PATCH", f"/channels/{thread_id}", {"archived": True}),
    ):
        status, refused = await call(http, method, path, body)
        assert (status, refused["code"]) == (400, 50083), (method, path)
    # Reopened by a member, it takes the edit again.
    status, _ = await call(http, "PATCH", f"/channels/{thread_id}", {"archived": False})
    assert status == 200 and not thread.archived
    status, _ = await call(http, "PATCH", edit, {"content": "y"})
    assert status == 200


async def test_others_threads_and_locked_threads_refuse_the_bot(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    thread = table.general.add_thread("made by a member")
    path = f"/channels/{thread.id}"
    # Not its creator, without Manage Threads: no archiving, no renaming, no locking.
    for body in ({"archived": True}, {"name": "mine"}, {"locked": True}):
        status, refused = await call(http, "PATCH", path, body)
        assert (status, refused["code"]) == (403, 50013), body
    # A moderator archives and locks it: the bot may neither post nor reopen it.
    thread.set_archived(True, locked=True)
    status, refused = await call(http, "POST", f"{path}/messages", {"content": "x"})
    assert (status, refused["code"]) == (403, 160005)
    status, refused = await call(http, "PATCH", path, {"archived": False})
    assert (status, refused["code"]) == (403, 50013)
    assert thread.archived and thread.locked


async def test_no_command_is_typed_in_an_archived_thread(table: TinyWorld) -> None:
    thread = table.general.add_thread("closed")
    thread.set_archived(True)
    with pytest.raises(EmulatorUsageError, match="archived"):
        await table.fd.slash(table.al, thread, "/ping")
