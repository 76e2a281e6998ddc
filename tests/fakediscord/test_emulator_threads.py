"""Threads as Discord makes them: started from a message (the thread has the message's id,
and a message starts one thread at most) or without one, with the permissions each needs."""

from __future__ import annotations

import aiohttp

from fakediscord.model import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
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
