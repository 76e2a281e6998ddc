"""Discord's rate limits: the global 50 per second, the per-channel buckets, their headers and
429s on the wire, and the real discord.py client pacing itself by them."""

from __future__ import annotations

import time

import aiohttp
import pytest

from fakediscord import FakeDiscord, Limits
from fakediscord.model import EPSILON
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, call_with_headers


def rate_limit_headers(headers: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in headers.items() if k.lower().startswith("x-ratelimit")}


async def test_every_answer_carries_its_bucket_headers(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    before = time.time()
    status, _, headers = await call_with_headers(http, "POST", table.posts, {"content": "one"})
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "5"
    assert headers["X-RateLimit-Remaining"] == "4"
    assert headers["X-RateLimit-Bucket"] == "messages"
    assert 4.9 <= float(headers["X-RateLimit-Reset-After"]) <= 5.0
    # (The header is in milliseconds, rounded up: allow for that last millisecond.)
    assert before + 4.9 <= float(headers["X-RateLimit-Reset"]) <= time.time() + 5.001
    # Another route has its own bucket (Discord's names are opaque hashes).
    status, _, headers = await call_with_headers(http, "GET", "/users/@me")
    assert status == 200
    assert headers["X-RateLimit-Limit"] == "50" and headers["X-RateLimit-Remaining"] == "49"
    assert headers["X-RateLimit-Bucket"] not in ("messages", "")
    # Errors carry them too.
    status, _, headers = await call_with_headers(http, "GET", f"{table.posts}/12345")
    assert status == 404 and "X-RateLimit-Remaining" in headers


async def test_sixth_message_in_a_channel_within_5s_is_refused_with_retry_after(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.clock.freeze()
    for n in range(5):
        assert (await call(http, "POST", table.posts, {"content": f"m{n}"}))[0] == 200
    status, body, headers = await call_with_headers(http, "POST", table.posts, {"content": "m5"})
    assert status == 429
    assert body["global"] is False and 4.9 <= body["retry_after"] <= 5.0
    assert isinstance(body["retry_after"], float)
    assert headers["Via"] and headers["Retry-After"] == "5"
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert (headers["X-RateLimit-Remaining"], headers["X-RateLimit-Bucket"]) == ("0", "messages")
    # Another channel (a DM counts as one) is a bucket of its own.
    dm = fd.dm_channel(table.al)
    assert (await call(http, "POST", f"/channels/{dm.id}/messages", {"content": "hi"}))[0] == 200
    fd.clock.advance(5)
    assert (await call(http, "POST", table.posts, {"content": "m5"}))[0] == 200
    assert [m.content for m in fd.messages(table.general)] == [f"m{n}" for n in range(6)]
    assert fd.counters.rate_limited == {"user": 1}
    assert fd.counters.channel_messages[table.general.id] == 6


async def test_edits_count_apart_from_new_messages_under_the_same_bucket_name(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    table.fd.clock.freeze()
    ids = [(await call(http, "POST", table.posts, {"content": f"m{n}"}))[1]["id"] for n in range(5)]
    assert (await call(http, "POST", table.posts, {"content": "too many"}))[0] == 429
    for n in range(5):
        status, _, headers = await call_with_headers(
            http, "PATCH", f"{table.posts}/{ids[n]}", {"content": f"e{n}"}
        )
        assert (status, headers["X-RateLimit-Bucket"]) == (200, "messages")
        assert headers["X-RateLimit-Remaining"] == str(4 - n)
    assert (await call(http, "PATCH", f"{table.posts}/{ids[0]}", {"content": "again"}))[0] == 429
    # Deletes have their own, faster bucket: 5 per second.
    for message_id in ids:
        status, _, headers = await call_with_headers(http, "DELETE", f"{table.posts}/{message_id}")
        assert (status, headers["X-RateLimit-Bucket"]) == (204, "message-deletes")
        assert float(headers["X-RateLimit-Reset-After"]) <= 1.0
    assert table.fd.counters.edits == {"rest": 5} and table.fd.counters.deletes == {"rest": 5}


async def test_sixth_delete_within_a_second_is_refused(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.clock.freeze()
    ids = []
    for n in range(6):
        ids.append((await call(http, "POST", table.posts, {"content": f"m{n}"}))[1]["id"])
        fd.clock.advance(1)  # keep within the 5-per-5-s limit on new messages
    for message_id in ids[:5]:
        assert (await call(http, "DELETE", f"{table.posts}/{message_id}"))[0] == 204
    assert (await call(http, "DELETE", f"{table.posts}/{ids[5]}"))[0] == 429
    fd.clock.advance(1)
    assert (await call(http, "DELETE", f"{table.posts}/{ids[5]}"))[0] == 204


async def test_51st_request_in_a_second_is_a_global_429(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny echo text:hi")
    fd.clock.freeze()
    fd.clock.advance(1)  # a fresh global window for what follows
    for _ in range(50):
        assert (await call(http, "GET", "/users/@me"))[0] == 200
    status, body, headers = await call_with_headers(http, "GET", "/users/@me")
    assert status == 429
    assert body["global"] is True and 0 < body["retry_after"] <= 1.0
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] and headers["Retry-After"] == "1"
    assert "X-RateLimit-Bucket" not in headers
    # Every route with the bot token shares it ...
    assert (await call(http, "POST", table.posts, {"content": "x"}))[0] == 429
    # ... but an interaction's webhook does not: no token, no global limit.
    webhook = f"/webhooks/{fd.application_id}/{r.token}/messages/@original"
    assert (await call(http, "PATCH", webhook, {"content": "edited"}))[0] == 200
    # Nor does an interaction's callback: the bot still answers a command while the token's
    # global window is spent (the bot's own request is the callback, with no token).
    answered = await fd.slash(table.al, table.general, "/tiny echo text:still")
    assert answered.response is not None and not answered.late
    assert (await call(http, "GET", "/users/@me"))[0] == 429
    fd.clock.advance(1)
    assert (await call(http, "GET", "/users/@me"))[0] == 200
    assert fd.counters.rate_limited == {"global": 3}
    assert fd.counters.webhooks["edit"] == 1


async def test_limits_switched_off_are_neither_enforced_nor_advertised() -> None:
    limits = Limits(global_requests=False, channel_messages=False)
    async with (
        FakeDiscord(limits=limits) as fd,
        aiohttp.ClientSession(
            fd.api_base + "/", headers={"Authorization": f"Bot {fd.bot_token}"}
        ) as http,
    ):
        general = fd.add_guild("Quiet").add_text_channel("general")
        posts = f"/channels/{general.id}/messages"
        for n in range(8):
            status, _, headers = await call_with_headers(http, "POST", posts, {"content": str(n)})
            assert status == 200 and headers["X-RateLimit-Bucket"] != "messages"
        # 60 requests with the bot token in a second (30 on each of two routes): all served.
        for path in [f"/channels/{general.id}", "/users/@me"] * 30:
            assert (await call(http, "GET", path))[0] == 200
        assert fd.counters.rate_limited == {} and fd.counters.rest_total == 68
        fd.limits.route_buckets = False
        _, _, headers = await call_with_headers(http, "GET", "/users/@me")
        assert rate_limit_headers(headers) == {}


async def test_discord_py_paces_six_posts_in_a_channel_by_the_headers(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny flood count:6")
    await r.wait_settled(timeout=15)
    assert r.content == "flooded 6"
    posts = [q for q in fd.requests if q.template == "POST /channels/{id}/messages"]
    # The client waited out the bucket's Reset-After instead of being refused.
    assert [q.status for q in posts] == [200] * 6
    # (The sixth was let through 5 s after the first was counted: between the first's arrival
    # and the sixth's answer, whatever the machine's delays in between.)
    assert posts[5].at - posts[0].arrived >= 5.0 - EPSILON
    assert [m.content for m in fd.visible_to(table.bea, table.general)] == [
        f"flood {n}" for n in range(1, 7)
    ]


@pytest.mark.parametrize("scope", ["user", "shared"])
async def test_injected_429s_carry_their_scope(
    table: TinyWorld, http: aiohttp.ClientSession, scope: str
) -> None:
    table.fd.rate_limit(r"GET /users/@me", scope=scope)
    status, body, headers = await call_with_headers(http, "GET", "/users/@me")
    assert (status, headers["X-RateLimit-Scope"], body["global"]) == (429, scope, False)
    assert table.fd.counters.rate_limited == {scope: 1}
