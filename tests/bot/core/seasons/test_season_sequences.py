"""A server's seasons and hall of fame asked for in random ways (property-based: Hypothesis
writes the requests) over a few months of finished games of every variant and table
(tests.helpers.results.a_league), while the calendar moves on: ``/cribbage leaderboard``
with a ``season`` (this month, last month, and seasons the command does not send), of each
table and variant (and of tables and variants there are not), on this server and on one with
no games; and ``/cribbage halloffame``, read in a channel or another.

After every request: nothing raised; the answer is ok, or a refusal in one sentence; nothing
stored changed; the answer fits Discord; a season's table lists at most its twenty."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import event, note
from hypothesis import strategies as st

from bot.core.base.replies import Answer
from bot.core.seasons.seasons import SEASON_SHOWN, SEASONS
from bot.core.services import Services
from bot.store import Store
from engine.variants import listed
from tests.helpers.answer_checks import check_fits, one_sentence
from tests.helpers.cast import AL, BEA, GUILD
from tests.helpers.results import a_league
from tests.helpers.sequences import over_sequences
from tests.helpers.service_driver import Clock, make_service

#: The variants asked for: each registered one, and names no variant has.
VARIANTS = (*(v.name for v in listed()), "nine_card", "")


@dataclass(frozen=True, slots=True)
class Season:
    """``/cribbage leaderboard season:…`` of ``table`` and ``variant``."""

    guild: int
    season: str
    table: str
    variant: str


@dataclass(frozen=True, slots=True)
class Fame:
    """``/cribbage halloffame``, read in channel ``here``."""

    guild: int
    here: int | None


@dataclass(frozen=True, slots=True)
class Later:
    """The calendar moves on ``days``."""

    days: int


Request = Season | Fame | Later

requests = st.one_of(
    st.builds(
        Season,
        guild=st.sampled_from([GUILD, GUILD + 1]),
        season=st.sampled_from([*SEASONS, "next_month", ""]),
        table=st.sampled_from(["people", "computer", "bots"]),
        variant=st.sampled_from(VARIANTS),
    ),
    st.builds(Fame, guild=st.sampled_from([GUILD, GUILD + 1]), here=st.none() | st.just(1000)),
    st.builds(Later, days=st.sampled_from([1, 31, 400])),
)


async def _ask(service: Services, request: Season | Fame) -> Answer:
    seasons = service.seasons
    if isinstance(request, Fame):
        return await seasons.hall_of_fame(request.guild, here=request.here)
    return await seasons.leaderboard(
        request.guild,
        request.season,
        table=request.table,  # type: ignore[arg-type]  # (as any text may be asked)
        variant=request.variant,
    )


async def _stored(store: Store) -> tuple[object, ...]:
    """The server's standings (both tables), a head to head and its champions."""
    return (
        await store.ranking(GUILD, limit=100),
        await store.ranking(GUILD, vs_computer=True, limit=100),
        await store.rival(GUILD, AL.id, BEA.id),
        await store.tournament_champions(GUILD, limit=20),
    )


#: Every season of every table and variant this month (1 January: games that day) and last
#: (December: most of the league's), the hall of fame; a month on, again.
EVERYTHING: list[Request] = [
    *(
        Season(GUILD, season, table, variant.name)
        for season in ("this_month", "last_month")
        for table in ("people", "computer")
        for variant in listed()
    ),
    Fame(GUILD, 1000),
    Fame(GUILD + 1, None),
    Later(31),
    Season(GUILD, "last_month", "people", "standard"),
    Season(GUILD, "this_month", "people", "standard"),
    Fame(GUILD, None),
]


@over_sequences(requests, most=12, examples=40, always=EVERYTHING)
async def test_any_request_for_seasons_or_the_hall_of_fame_is_answered_within_discords_limits(
    store: Store, sequence: list[Request]
) -> None:
    """Over a league of finished games, each request of ``sequence`` raises nothing, is
    answered ok or refused in one sentence, changes nothing stored and fits Discord; a
    season's table lists no more than its twenty."""
    await a_league(store)
    clock = Clock()
    service = make_service(store, clock)
    for request in sequence:
        if isinstance(request, Later):
            clock.advance(days=request.days)
            continue
        before = await _stored(store)
        answer = await _ask(service, request)
        event(f"{type(request).__name__.lower()}: {'ok' if answer.ok else 'no'}")
        note(f"{request}: {answer.reply.text[:200]!r}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        await check_fits(answer)
        assert await _stored(store) == before, f"{request} changed the standings"
        if isinstance(request, Season) and answer.ok:
            places = [line for line in answer.reply.text.splitlines()[1:] if line[:1].isdigit()]
            assert len(places) <= SEASON_SHOWN, answer.reply.text
