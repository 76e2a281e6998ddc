"""The courier's fence at the HTTP boundary (issue 32, item 1): a send is checked right before
its bytes go to the socket, not only as it starts, so a process that lost its lease between
its connection being ready and aiohttp's task writing the body (a turn of the event loop, or a
freeze) writes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.core.ledger.transport import NotSender
from bot.discord.courier import fence_trace, fenced


class Lease:
    """A lease that lapses when told to; its fence refuses from then on."""

    def __init__(self) -> None:
        self.lapsed = False
        self.checked = 0

    def fence(self) -> None:
        self.checked += 1
        if self.lapsed:
            raise NotSender


@pytest.fixture
async def server() -> AsyncIterator[tuple[TestServer, list[str]]]:
    received: list[str] = []

    async def edit(request: web.Request) -> web.Response:
        received.append(f"{request.method} {request.path} {await request.text()}")
        return web.json_response({"id": "1"})

    app = web.Application()
    app.router.add_route("*", "/messages/{id}", edit)
    running = TestServer(app)  # (entered as itself: its __aenter__ is typed as the base's)
    async with running:
        yield running, received


def _lapsing_once_connected(lease: Lease) -> aiohttp.TraceConfig:
    """Hooks that run after the fence's own, once the connection is ready: the lease lapses
    there, after every check made before the body is written."""

    async def lapse(*_: Any) -> None:
        lease.lapsed = True

    trace = aiohttp.TraceConfig()
    trace.on_connection_create_end.append(lapse)
    trace.on_connection_reuseconn.append(lapse)
    return trace


async def test_an_edit_whose_lease_lapsed_after_its_connection_was_ready_is_not_written(
    server: tuple[TestServer, list[str]],
) -> None:
    running, received = server
    lease = Lease()
    traces = [fence_trace(), _lapsing_once_connected(lease)]
    async with aiohttp.ClientSession(trace_configs=traces) as session:
        with pytest.raises(NotSender), fenced(lease.fence):
            await session.patch(running.make_url("/messages/1"), json={"content": "deal 12"})
    assert received == [], "the edit reached Discord after the lease had lapsed"
    assert lease.checked >= 3  # as it started, once connected, and as the body went


async def test_an_edit_under_a_held_lease_is_written_once_and_each_chunk_checked(
    server: tuple[TestServer, list[str]],
) -> None:
    running, received = server
    lease = Lease()
    async with aiohttp.ClientSession(trace_configs=[fence_trace()]) as session:
        with fenced(lease.fence):
            async with session.patch(
                running.make_url("/messages/1"), json={"content": "deal 12"}
            ) as answer:
                assert answer.status == 200
        # A request made outside any fence (not a send) is not checked at all.
        async with session.get(running.make_url("/messages/1")) as answer:
            assert answer.status == 200
    assert received == ['PATCH /messages/1 {"content": "deal 12"}', "GET /messages/1 "]
    assert lease.checked >= 3


async def test_a_refusal_that_is_not_the_fences_comes_back_as_aiohttps_own() -> None:
    """Only what the fence raised is unwrapped: a connection that fails stays a connection
    error, for discord.py and the courier to handle as before."""
    error = aiohttp.ClientConnectionError("reset")
    error.__cause__ = ConnectionResetError()
    with pytest.raises(aiohttp.ClientConnectionError), fenced(lambda: None):
        raise error
    wrapped = aiohttp.ClientConnectionError("refused as written")
    wrapped.__cause__ = NotSender()
    with pytest.raises(NotSender), fenced(lambda: None):
        raise wrapped
