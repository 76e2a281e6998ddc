"""A public answer names a game only to those who can see where it was played (issue 33): the
stats' best hands, the head to head's last games and the hall of fame's hands and tournaments
leave out the games of a private thread or channel, unless asked there; totals and ratings
count every game. Games outside servers are each their conversation's."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.core.base.faults import Faults
from bot.core.seasons.seasons import Seasons
from bot.core.standings.standings import Standings
from bot.store import Store
from tests.helpers.cast import AL, BEA, GUILD
from tests.helpers.results import finish_game, result_row

OPEN, PRIVATE, ELSEWHERE = 10, 77, 11
DM_ONE, DM_TWO = 901, 902


class Sight:
    """Every channel of the server is open to all but ``PRIVATE``; it counts what it is asked."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    async def open_to_all(self, guild_id: int, channel_id: int) -> bool:
        self.asked.append(channel_id)
        return guild_id == GUILD and channel_id != PRIVATE


async def _two_games(store: Store, guild: int | None, first: int, second: int) -> None:
    """Al beats Bea in ``first`` holding a 24 and in ``second`` holding a 29."""
    for channel, points, cards, day in ((first, 24, "open hand", 1), (second, 29, "quiet hand", 2)):
        rows = [
            result_row(0, AL, won=True, score=121),
            result_row(1, BEA, won=False, score=100 + day),
        ]
        rows[0] = replace(rows[0], best_hand=points, best_hand_cards=cards)
        when = datetime(2026, 11, day, tzinfo=UTC).timestamp()
        await finish_game(store, rows, guild=guild, channel=channel, now=when)


def _nov(day: int) -> str:
    """A game's day as the answer shows it, in each reader's own time zone (a game over at
    midnight UTC ended the day before in the Americas)."""
    return f"<t:{int(datetime(2026, 11, day, tzinfo=UTC).timestamp())}:d>"


async def test_stats_name_the_hands_of_games_everyone_reading_can_see(store: Store) -> None:
    await _two_games(store, GUILD, OPEN, PRIVATE)
    sight = Sight()
    standings = Standings(store, Faults(), sight=sight)
    public = (await standings.stats(GUILD, AL, here=ELSEWHERE)).reply.text
    assert "Best hands: 24 (open hand)." in public and "quiet hand" not in public
    assert "2 games, 2 wins" in public, "the totals count every game"
    inside = (await standings.stats(GUILD, AL, here=PRIVATE)).reply.text
    assert "Best hands: 29 (quiet hand) · 24 (open hand)." in inside
    assert sight.asked.count(PRIVATE) == 1 and sight.asked.count(OPEN) == 2, "once an answer"


async def test_head_to_head_lists_the_last_games_everyone_reading_can_see(store: Store) -> None:
    await _two_games(store, GUILD, OPEN, PRIVATE)
    standings = Standings(store, Faults(), sight=Sight())
    public = (await standings.stats(GUILD, BEA, against=AL, here=OPEN)).reply.text
    assert public.startswith("**Bea** against **Al**: 2 games — Bea won 0, Al won 2.")
    assert f"Last 1 game: L 101-121 ({_nov(1)})" in public and "102" not in public
    inside = (await standings.stats(GUILD, BEA, against=AL, here=PRIVATE)).reply.text
    assert f"Last 2 games: L 102-121 ({_nov(2)}) · L 101-121 ({_nov(1)})" in inside


async def test_head_to_head_with_no_game_to_name_says_the_totals_alone(store: Store) -> None:
    await _two_games(store, GUILD, PRIVATE, PRIVATE)
    standings = Standings(store, Faults(), sight=Sight())
    text = (await standings.stats(GUILD, BEA, against=AL, here=OPEN)).reply.text
    assert text.startswith("**Bea** against **Al**: 2 games") and "Last" not in text


async def test_the_hall_of_fame_names_the_hands_everyone_reading_can_see(store: Store) -> None:
    await _two_games(store, GUILD, OPEN, PRIVATE)
    seasons = Seasons(store, lambda: datetime(2026, 11, 20, tzinfo=UTC), Faults(), sight=Sight())
    public = (await seasons.hall_of_fame(GUILD, here=OPEN)).reply.text
    assert "open hand" in public and "quiet hand" not in public
    assert "None yet: the odds" in public, "the only 29 was held in the private thread"
    inside = (await seasons.hall_of_fame(GUILD, here=PRIVATE)).reply.text
    assert "open hand" in inside and "quiet hand" in inside


async def test_outside_servers_a_game_is_its_conversations_alone(store: Store) -> None:
    await _two_games(store, None, DM_ONE, DM_TWO)
    standings = Standings(store, Faults(), sight=Sight())
    one = (await standings.stats(None, AL, here=DM_ONE)).reply.text
    assert "Best hands: 24 (open hand)." in one and "quiet hand" not in one
    two = (await standings.stats(None, BEA, against=AL, here=DM_TWO)).reply.text
    assert f"Last 1 game: L 102-121 ({_nov(2)})" in two


async def test_head_to_head_says_a_win_at_the_game_hole(store: Store) -> None:
    """Issue 68, item 12: a win pegged past the target was said with the points past it
    ("W 62-47"): the head to head's last games say it at the game hole, as the result does."""
    rows = [result_row(0, AL, won=True, score=63), result_row(1, BEA, won=False, score=47)]
    await finish_game(store, rows, guild=GUILD, channel=OPEN, target=61)
    standings = Standings(store, Faults(), sight=Sight())
    al = (await standings.stats(GUILD, AL, against=BEA, here=OPEN)).reply.text
    bea = (await standings.stats(GUILD, BEA, against=AL, here=OPEN)).reply.text
    assert "Last 1 game: W 61-47 (" in al and "63" not in al, al
    assert "Last 1 game: L 47-61 (" in bea and "63" not in bea, bea
