"""What Discord's refusals mean for the keeper (issue 46): a 5xx discord.py gave up on (or does
not try again: a 503), Cloudflare's 429 and the network are Discord not taking requests for now,
said in one line whatever the body (Cloudflare's page is HTML); anything else is Discord's
answer about the request, and a fence that refused is never taken for the network."""

from __future__ import annotations

from types import SimpleNamespace

import aiohttp
import discord
import pytest

from bot.core.ledger.transport import NotSender
from bot.discord.courier import unavailable
from fakediscord.faults import CLOUDFLARE_PAGE


def _refused(status: int, reason: str, body: str | dict[str, object]) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason=reason)
    return discord.HTTPException(response, body)


@pytest.mark.parametrize(
    ("status", "reason", "body", "said"),
    [
        (
            500,
            "Internal Server Error",
            {"message": "500: Internal Server Error", "code": 0},
            "500 Internal Server Error",
        ),
        (
            502,
            "Bad Gateway",
            CLOUDFLARE_PAGE.format(status=502, reason="Bad Gateway"),
            "502 Bad Gateway",
        ),
        (503, "Service Unavailable", "upstream connect error", "503 Service Unavailable"),
        (429, "Too Many Requests", "error code: 1015", "429 Too Many Requests from Cloudflare"),
    ],
)
def test_discord_not_taking_requests_is_said_in_one_line(
    status: int, reason: str, body: str | dict[str, object], said: str
) -> None:
    found = unavailable(_refused(status, reason, body))
    assert found is not None and str(found) == said


def test_the_network_failing_is_discord_out_of_reach() -> None:
    found = unavailable(aiohttp.ServerDisconnectedError())
    assert found is not None and "out of reach" in str(found)
    assert unavailable(TimeoutError()) is not None


def test_discords_answers_about_the_request_are_not_an_outage() -> None:
    for status in (400, 401, 403, 404):
        assert unavailable(_refused(status, "", {"message": "no", "code": 10008})) is None
    fenced = aiohttp.ClientConnectionError("the fence refused")
    fenced.__cause__ = NotSender()
    assert unavailable(fenced) is None
