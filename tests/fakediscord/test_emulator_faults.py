"""Faults on demand (429, 500, 403) and the fixtures failing tests when the bot misbehaves."""

from __future__ import annotations

import asyncio
import sys
from datetime import datetime, timedelta
from pathlib import Path

import aiohttp
import pytest

from fakediscord import BotFailure
from fakediscord.runner import RunningBot
from fakediscord.testing import BotLauncher, InProcessBot
from tests.helpers.emulator_world import TinyWorld

TINYBOT = str(Path(__file__).parents[1] / "helpers" / "tinybot.py")


async def test_rate_limited_callback_is_retried_after_retry_after(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    fd.rate_limit(r"POST /interactions/\d+/.+/callback", times=1, retry_after=0.05)
    r = await fd.slash(table.al, table.general, "/tiny echo text:patient")
    assert r.content == "patient"
    statuses = [q.status for q in fd.requests if "/callback" in q.route]
    assert statuses == [429, 200]


async def test_server_errors_are_retried_by_the_client(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    fd.fail(r"POST /channels/\d+/messages", status=500, times=1)
    r = await fd.slash(table.al, table.general, "/tiny post")
    await r.wait_followups(1)
    assert r.followups[0].content == "fetched post v2"
    posts = [q.status for q in fd.requests if q.route.startswith("POST /channels")]
    assert posts == [500, 200]


async def test_injected_forbidden_reaches_the_bot_with_its_code(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    table.fd.fail(
        r"POST /channels/\d+/messages", status=403, code=50013, message="Missing Permissions"
    )
    r = await table.fd.slash(table.al, table.general, "/tiny long length:5")
    await r.wait_settled()
    assert r.content == "refused 403 50013"


async def test_error_in_a_handler_fails_the_next_emulator_call(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    await table.fd.slash(table.al, table.general, "/tiny crash", wait=False)
    with pytest.raises(BotFailure, match="crash"):
        await table.fd.wait_for(lambda: False, timeout=15)
    assert any("crash" in e for e in tiny.take_errors())


async def test_allowed_errors_do_not_fail(table: TinyWorld, tiny: InProcessBot) -> None:
    tiny.allow_errors("crash")
    await table.fd.slash(table.al, table.general, "/tiny crash", wait=False)
    await table.fd.wait_for(lambda: tiny.allowed)
    assert "crash" in tiny.allowed[0] and tiny.errors == []


async def test_dead_client_task_fails_the_test(table: TinyWorld, tiny: InProcessBot) -> None:
    # A payload missing fields kills discord.py's gateway reader, and with it Client.start().
    await table.fd.gateway.dispatch("INTERACTION_CREATE", {"id": "1", "type": 2})
    with pytest.raises(BotFailure, match=r"ended on its own|error"):
        await table.fd.wait_for(lambda: False, timeout=15)
    await tiny.stop()
    tiny.take_errors()


async def test_unanswered_interaction_raises_no_response(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    from fakediscord import NoResponse

    fd = table.fd
    with pytest.raises(NoResponse):
        await fd.slash(table.al, table.general, "/tiny slow seconds:0.5", timeout=0.1)
    # Its late answer lands before the bot stops (within the 3 s Discord allows).
    await fd.wait_for(lambda: any(q.route.endswith("/callback") for q in fd.requests))


async def _reported(bot: RunningBot, text: str, timeout: float = 10.0) -> None:
    """Wait until the bot's reported errors hold ``text`` (a traceback arrives line by line;
    the emulator's own waits stop at the first error)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in "\n".join(bot.errors):
        assert loop.time() < deadline, f"no {text!r} in {bot.errors}"
        await asyncio.sleep(0.02)


async def test_bot_process_answers_restarts_and_reports_errors(
    table: TinyWorld, bots: BotLauncher
) -> None:
    fd = table.fd
    bot = await bots.process([TINYBOT], dev_guild=table.guild.id, ready_text="tinybot ready")
    r = await fd.slash(table.al, table.general, "/tiny echo text:from-a-process")
    assert r.content == "from-a-process"
    await bot.restart()
    assert fd.gateway.identify_count == 2
    r = await fd.slash(table.al, table.general, "/tiny echo text:again")
    assert r.content == "again"
    await fd.slash(table.al, table.general, "/tiny crash", wait=False)
    with pytest.raises(BotFailure):
        await fd.wait_for(lambda: False, timeout=5)
    await _reported(bot, "tinybot crashed on purpose")  # the traceback's last line
    bot.take_errors()
    # A plain ERROR line (coloured by discord.py) counts too, traceback or not.
    await fd.slash(table.al, table.general, "/tiny complain", wait=False)
    with pytest.raises(BotFailure, match="complains on purpose"):
        await fd.wait_for(lambda: False, timeout=5)
    bot.take_errors()
    assert sys.executable


async def test_bot_process_that_exits_fails_the_test(table: TinyWorld, bots: BotLauncher) -> None:
    bot = await bots.process([TINYBOT], dev_guild=table.guild.id)
    assert bot.proc is not None
    bot.proc.terminate()
    with pytest.raises(BotFailure, match="exited"):
        await table.fd.wait_for(lambda: False, timeout=5)
    await bot.stop()


@pytest.mark.parametrize(
    ("status", "kind", "says"),
    [
        (500, "application/json", '"500: Internal Server Error"'),
        (502, "text/html", "<center>cloudflare</center>"),
        (503, "text/plain", "upstream connect error or disconnect/reset before headers"),
        (504, "text/html", "504 Gateway Time-out"),
    ],
)
async def test_server_errors_come_as_the_internet_answers_them(
    table: TinyWorld, http: aiohttp.ClientSession, status: int, kind: str, says: str
) -> None:
    """Issue 46: a 500 is Discord's own JSON; a 502 or 504 is Cloudflare's page (Discord out
    of its reach); a 503 the text of the proxy in front of Discord's API."""
    table.fd.fail(r"GET /users/@me", status=status)
    async with http.get("users/@me") as response:
        assert response.status == status
        assert response.headers["Content-Type"] == kind
        assert says in await response.text()


async def test_a_cloudflare_429_is_raised_at_once_and_counts_for_nothing(
    table: TinyWorld, tiny: InProcessBot, http: aiohttp.ClientSession
) -> None:
    """Issue 46: Cloudflare's 429 has neither `Via` nor rate-limit headers, and a text body:
    discord.py takes it for a ban and raises instead of waiting and trying again."""
    fd = table.fd
    fd.fail(r"GET /users/@me", status=429)
    async with http.get("users/@me") as response:
        assert response.status == 429 and await response.text() == "error code: 1015"
        assert "Via" not in response.headers
        assert not any(h.lower().startswith("x-ratelimit") for h in response.headers)
    fd.fail(r"POST /channels/\d+/messages", status=429)
    r = await fd.slash(table.al, table.general, "/tiny long length:5")
    await r.wait_settled()
    assert r.content == "refused 429 0"
    posts = [q.status for q in fd.requests if q.route.startswith("POST /channels")]
    assert posts == [429], "not tried again"
    assert fd.invalid_requests.total == 0 and not fd.counters.rate_limited


@pytest.mark.parametrize(("status", "tries"), [(502, [502, 200]), (503, [503])])
async def test_discord_py_tries_a_502_again_and_raises_a_503(
    table: TinyWorld, tiny: InProcessBot, status: int, tries: list[int]
) -> None:
    """Issue 46: with the bot's token discord.py 2.7 tries a 500, 502, 504 (and 524) again, up
    to five times a second and more apart, and raises any other 5xx at once."""
    fd = table.fd
    fd.fail(r"POST /channels/\d+/messages", status=status)
    r = await fd.slash(table.al, table.general, "/tiny long length:5")
    await r.wait_settled(timeout=10)
    assert r.content == ("sent" if tries[-1] == 200 else f"refused {status} 0")
    posts = [q.status for q in fd.requests if q.route.startswith("POST /channels")]
    assert posts == tries


async def test_an_answer_reaching_discord_after_three_seconds_is_unknown(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    """Issue 46: what counts is when the answer reaches Discord: one the bot made at once but
    the network held back past the window is refused (404 / 10062) and the interaction failed
    (here with a window of half a second)."""
    fd = table.fd
    fd.response_deadline = 0.5
    tiny.allow_errors("10062|Unknown interaction")
    fd.delay(r"/callback$", 1.0)
    r = await fd.slash(table.al, table.general, "/tiny echo text:late", wait=False)
    await fd.wait_for(lambda: any(q.code == 10062 for q in fd.requests), timeout=10)
    assert r.late and r.response is None


async def test_a_message_held_on_a_slow_network_says_when_it_was_sent(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    """A request a slow network holds on its way makes its message when it arrives (``at``),
    and the message says when the bot sent it (``requested``): what the bot knew then is what
    a test holds that version to. A message sent over a quick network was made as sent."""
    fd = table.fd
    for held in (0.5, 0.0):
        if held:
            fd.delay(r"POST /channels/\d+/messages", held)
        r = await fd.slash(table.al, table.general, f"/tiny long length:{3 + int(held * 10)}")
        await r.wait_settled(timeout=10)
        assert r.words() == "sent"
        [posted] = [m for m in table.general.messages if m.content == "x" * (3 + int(held * 10))]
        version = posted.version()
        late = datetime.fromisoformat(version.at) - datetime.fromisoformat(version.requested)
        assert late >= timedelta(seconds=held), version
