"""Message nonces: with ``enforce_nonce`` a post sent again gives back the message made the
first time (what a bot relies on to post exactly once across a crash)."""

from __future__ import annotations

import aiohttp

from fakediscord.nonces import NONCE_WINDOW
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


async def test_an_enforced_nonce_posts_once_within_the_window(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    base = table.posts
    body = {"content": "the table", "nonce": "deal-3-table", "enforce_nonce": True}
    status, first = await call(http, "POST", base, body)
    assert status == 200 and first["nonce"] == "deal-3-table"
    status, again = await call(http, "POST", base, {**body, "content": "the table, later"})
    assert status == 200 and again["id"] == first["id"] and again["content"] == "the table"
    assert [m.content for m in fd.messages(table.general)] == ["the table"]
    # Without enforce_nonce, or once the window has passed, the same nonce makes a new message.
    status, loose = await call(http, "POST", base, {"content": "loose", "nonce": "deal-3-table"})
    assert status == 200 and loose["id"] != first["id"]
    fd.clock.advance(NONCE_WINDOW + 1)
    status, late = await call(http, "POST", base, {**body, "content": "late"})
    assert status == 200 and late["id"] not in (first["id"], loose["id"])


async def test_a_nonce_longer_than_25_characters_is_refused(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    refused = await refusal(http, "POST", table.posts, {"content": "x", "nonce": "n" * 26})
    assert refused == (400, 50035)
    assert table.fd.messages(table.general) == []
