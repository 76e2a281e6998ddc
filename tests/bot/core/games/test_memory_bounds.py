"""What the games keep in memory stays bounded however many games and players come and go
(issue 33, item 7): an entry per move or per player, never freed, grows without end."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from bot.core.base.feed import ChangeFeed
from bot.core.games import coach_settings
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.membership import Departures, EveryoneStays


class _Gone(EveryoneStays):
    """Membership where the users in ``gone`` have left."""

    def __init__(self, gone: set[int]) -> None:
        self.gone = gone

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return user_id not in self.gone


async def test_departures_keep_nothing_of_games_whose_players_stay() -> None:
    membership = _Gone({99})
    departures = Departures(membership)
    for game in range(2_000):
        assert await departures.still_member(game, 1, game % 2, 5)
    assert departures._seats == {}
    # Someone gone is kept (their moves by DM are refused), and forgotten once back.
    assert not await departures.still_member(7, 1, 1, 99)
    assert departures.of(7) == {1}
    membership.gone.clear()
    assert await departures.still_member(7, 1, 1, 99)
    assert departures.of(7) == frozenset() and departures._seats == {}


class _Settings:
    """A store of coach settings where every player has it on."""

    async def coach_settings(self, user_ids: Iterable[int]) -> dict[int, tuple[int, bool]]:
        return {user: (0, False) for user in user_ids}

    async def set_coach(self, user_id: int, on: bool, *, now: float) -> int:
        return 1

    async def offer_learn(self, user_id: int, *, now: float) -> bool:
        return False


async def test_the_coach_settings_kept_are_bounded() -> None:
    settings = CoachSettings(_Settings(), lambda: datetime(2026, 1, 1, tzinfo=UTC), ChangeFeed())
    for player in range(coach_settings.SETTINGS_KEPT + 500):
        assert await settings.off([player]) == frozenset()
    assert len(settings._cache) == coach_settings.SETTINGS_KEPT
