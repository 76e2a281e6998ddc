"""Who a bot's message notifies: the mentions in its text, as its allowed_mentions lets them."""

from __future__ import annotations

import aiohttp
import pytest

from fakediscord.mentions import Pings, pings
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import refusal

ROLE = 4242


async def test_without_allowed_mentions_every_mention_notifies(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    line = f"/tiny echo text:hi <@{table.bea.id}> <@!{table.cy.id}> <@&{ROLE}> @here"
    said = (await table.fd.slash(table.al, table.general, line)).original
    assert said is not None
    assert said.pinged == Pings(frozenset({table.bea.id, table.cy.id}), frozenset({ROLE}), True)


async def test_allowed_mentions_none_notifies_no_one(table: TinyWorld, tiny: InProcessBot) -> None:
    line = f"/tiny echo text:hi <@{table.bea.id}> @everyone quiet:True"
    said = (await table.fd.slash(table.al, table.general, line)).original
    assert said is not None and said.content == f"hi <@{table.bea.id}> @everyone"
    assert said.pinged == Pings()


def test_listed_users_and_roles_notify_beyond_the_parsed_kinds() -> None:
    text = "<@1> <@2> <@&7> <@&8> @everyone"
    allowed = {"parse": ["roles"], "users": ["2"]}
    assert pings(text, allowed) == Pings(frozenset({2}), frozenset({7, 8}), False)
    assert pings(text, {"parse": ["users", "everyone"], "roles": [8]}) == Pings(
        frozenset({1, 2}), frozenset({8}), True
    )
    # A mention names an id: <@x> is text.
    assert pings("<@x> <@&> <@!>", None) == Pings()


@pytest.mark.parametrize(
    "allowed",
    [
        {"parse": ["users"], "users": ["1"]},
        {"parse": ["members"]},
        {"users": [str(n) for n in range(101)]},
        ["users"],
    ],
)
async def test_allowed_mentions_discord_refuses_are_refused(
    table: TinyWorld, http: aiohttp.ClientSession, allowed: object
) -> None:
    body = {"content": "hi <@1>", "allowed_mentions": allowed}
    assert await refusal(http, "POST", table.posts, body) == (400, 50035)
    assert table.fd.messages(table.general) == []
