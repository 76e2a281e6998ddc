"""Discord not taking the bot's requests for a while (a 5xx, Cloudflare's 429, the network):
said once, nothing lost, and what waited sent as soon as Discord takes a request again
(issue 46)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.core.base.views import MessageView
from bot.core.ledger import lanes as lanes_module
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.transport import Attempt, Carried, Fence, Unavailable
from bot.core.services import Services
from tests.bot.core.ledger.test_keeper import FakeCourier, make_keeper
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import game_owner

OTHER_CHANNEL = CHANNEL + 1


class RefusingCourier(FakeCourier):
    """Discord answering ``refusals`` requests with a 503 before it takes them again."""

    def __init__(self, refusals: int) -> None:
        super().__init__()
        self.refusals = refusals
        self.refused = asyncio.Event()
        self.both_sent = asyncio.Event()

    async def carry(self, attempt: Attempt, view: MessageView, fence: Fence) -> Carried:
        if self.refusals:
            self.refusals -= 1
            if not self.refusals:
                self.refused.set()
            raise Unavailable("503 Service Unavailable")
        carried = await super().carry(attempt, view, fence)
        if len(self.sent) == 2:
            self.both_sent.set()
        return carried


async def test_discord_refusing_requests_is_said_once_and_what_waited_goes_when_it_answers(
    service: Services, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A failed send waits ten minutes before it is tried again: what brings the lobby of the
    # other channel back sooner is Discord taking a request again.
    monkeypatch.setattr(lanes_module, "RETRY_AFTER", 600.0)
    first = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    other = await service.lobbies.new_game(GUILD, OTHER_CHANNEL, BEA)
    courier = RefusingCourier(refusals=2)
    keeper = make_keeper(service, courier, Pacer())
    with caplog.at_level(logging.INFO):
        keeper.touch(game_owner(first.game_id), CHANNEL)
        keeper.touch(game_owner(other.game_id), OTHER_CHANNEL)
        await asyncio.wait_for(courier.refused.wait(), timeout=60)
        assert courier.sent == []
        # Discord answers again: a new change of the first game goes, and with it what waited.
        keeper.touch(game_owner(first.game_id), CHANNEL)
        await asyncio.wait_for(courier.both_sent.wait(), timeout=60)
    assert courier.sent == [("lobby", False), ("lobby", False)]
    said = [r for r in caplog.records if r.name == "bot.core.ledger.outage"]
    assert [r.levelno for r in said] == [logging.WARNING, logging.INFO]
    assert "503 Service Unavailable" in said[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    await keeper.flush(timeout=60)
