"""Club nights in the core and the store (both databases): the refusals that change nothing, a
night started once when two processes' directors look at it at its time, a night the bot was
down for called off, a late arrival, the league's points and its champion."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.core.base.replies import User
from bot.core.nights.league import NightPlace, league_points, league_table, night_places
from bot.core.nights.records import NightState
from bot.core.services import Services
from bot.core.tournaments.records import TournamentStatus
from bot.core.tournaments.threads import EventPlan, EventSeen, EventStatus
from bot.store import Store
from engine.tournament import Standing
from tests.helpers.service_driver import Clock, make_service

GUILD, CHANNEL = 5, 50
MO = User(1, "Mo")
PEOPLE = [User(10 + n, name) for n, name in enumerate(("Al", "Bea", "Cy", "Di", "Ed"))]


class Events:
    """The server's Events list as the director sees it: one event, its calls counted."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.status = EventStatus.SCHEDULED
        self.start = 0.0

    async def create(self, guild_id: int, plan: EventPlan) -> int:
        self.calls.append("create")
        self.start = plan.start
        return 99

    async def find(self, guild_id: int, name: str, start: float) -> int | None:
        return None

    async def read(self, guild_id: int, event_id: int) -> EventSeen:
        return EventSeen(event_id, self.status, self.start, (), None)

    async def edit(self, guild_id: int, event_id: int, **changes: Any) -> EventSeen:
        self.calls.append(f"edit {sorted(k for k, v in changes.items() if v is not None)}")
        if changes.get("status") is not None:
            self.status = changes["status"]
        return await self.read(guild_id, event_id)

    async def except_occurrence(
        self, guild_id: int, event_id: int, original: float, **_: Any
    ) -> None:
        self.calls.append("exception")

    async def interested(self, guild_id: int, event_id: int) -> list[tuple[int, str]]:
        return []


async def _schedule(service: Services, when: str = "2026-01-02 20:00", **options: Any) -> int:
    answer = await service.nights.schedule(
        GUILD, CHANNEL, MO, moderator=True, when=when, events_refusal=None, **options
    )
    assert answer.ok, answer.reply.text
    club = await service.nights._store.club_in_channel(CHANNEL)
    assert club is not None
    night = await service.nights._store.latest_night(club.id)
    assert night is not None
    return night.id


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"when": "2025-12-31 20:00"}, "That time has passed"),
        ({"when": "sometime"}, "I couldn't read that time"),
        ({"repeat": "daily"}, "`repeat` must be"),
        ({"repeat": "monthly", "when": "2026-01-29 20:00"}, "not every month has a fifth"),
        ({"round_minutes": 5}, "`round_minutes` must be from 15 to 180"),
        ({"format": "ladder"}, "`format` must be"),
        ({"target": 100}, "Standard cribbage is played to 121 or 61."),
    ],
)
async def test_a_night_it_cannot_schedule_is_refused_and_makes_nothing(
    service: Services, store: Store, options: dict[str, Any], said: str
) -> None:
    given: dict[str, Any] = {"when": "2026-01-02 20:00", **options}
    answer = await service.nights.schedule(
        GUILD, CHANNEL, MO, moderator=True, events_refusal=None, **given
    )
    assert not answer.ok and said in answer.reply.text, answer.reply.text
    assert await store.club_in_channel(CHANNEL) is None
    assert await store.tournament_in_channel(CHANNEL) is None


async def test_refusals_change_nothing(service: Services, store: Store) -> None:
    nights = service.nights
    not_mod = await nights.schedule(
        GUILD, CHANNEL, PEOPLE[0], moderator=False, when="Friday 20:00", events_refusal=None
    )
    assert not not_mod.ok and "moderator" in not_mod.reply.text
    assert not (await service.attendance.check_in(CHANNEL, PEOPLE[0])).ok  # no club here
    night_id = await _schedule(service)
    again = await nights.schedule(
        GUILD, CHANNEL, MO, moderator=True, when="2026-01-03 20:00", events_refusal=None
    )
    assert not again.ok and "club nights already" in again.reply.text
    skipped = await nights.skip(CHANNEL, MO, moderator=True)
    assert not skipped.ok and "held once" in skipped.reply.text
    league = await service.leagues.league(CHANNEL)
    assert not league.ok and "held once makes no league" in league.reply.text
    moved = await nights.move(CHANNEL, PEOPLE[0], moderator=False, when="2026-01-03 20:00")
    assert not moved.ok
    # A tournament of a night is not started by hand: it starts itself.
    started = await service.tournaments.start(CHANNEL, MO, moderator=True)
    assert not started.ok and "starts by itself" in started.reply.text
    # Before check-in opens, a press says when it does (and enters the person).
    early = await service.attendance.check_in(CHANNEL, PEOPLE[0])
    assert early.ok and "Check-in opens" in early.reply.text
    night = await store.night(night_id)
    assert night is not None and night.state is NightState.SCHEDULED
    assert [p.user_id for p in await store.night_people(night_id)] == []


async def _open_check_in(service: Services, store: Store, clock: Clock, night_id: int) -> None:
    night = await store.night(night_id)
    assert night is not None
    clock.now = clock.now.fromtimestamp(night.starts_at - 10 * 60, clock.now.tzinfo)
    claimed = await store.claim_night(night_id, NightState.SCHEDULED, NightState.CHECK_IN)
    assert claimed


async def test_a_night_is_started_once_when_two_processes_look_at_its_time(
    store: Store, clock: Clock
) -> None:
    one, two = make_service(store, clock), make_service(store, clock)
    night_id = await _schedule(one)
    await _open_check_in(one, store, clock, night_id)
    for user in PEOPLE[:4]:
        assert (await one.attendance.check_in(CHANNEL, user)).ok
    # Ed joins during the check-in but never checks in: he is not dealt in.
    assert (await one.tournaments.join(CHANNEL, PEOPLE[4])).ok
    begun: list[int] = []
    for service in (one, two):
        begin = service.tournaments.begin

        async def counted(record: Any, begin: Any = begin) -> int:
            rounds = int(await begin(record))  # (a second begin is refused: not counted)
            begun.append(record.id)
            return rounds

        service.tournaments.begin = counted  # type: ignore[method-assign]
    events = Events()
    await one.night_director.start(events)
    await two.night_director.start(events)
    # The night's event is made as they start (one of them claims it), before the clock
    # moves on: a claim lapses after a minute, and the clock jumping 11 minutes while the
    # first was still making it let the second make another (a lapse no start takes).
    await one.night_director.idle()
    await two.night_director.idle()
    night = await store.night(night_id)
    assert night is not None
    clock.now = clock.now.fromtimestamp(night.starts_at + 1, clock.now.tzinfo)
    for _ in range(3):
        one.night_director.look(night_id)
        two.night_director.look(night_id)
    await one.night_director.idle()
    await two.night_director.idle()
    night = await store.night(night_id)
    record = await store.tournament(night.tournament_id) if night else None
    assert night is not None and record is not None
    assert night.state is NightState.STARTED and record.status is TournamentStatus.RUNNING
    assert begun == [record.id]
    assert len(await store.entrants(record.id)) == 4
    # The event was made once, then told it started, once.
    assert events.calls.count("create") == 1
    assert events.status is EventStatus.ACTIVE
    one.night_director.stop()
    two.night_director.stop()


async def test_a_night_the_bot_was_down_for_is_called_off(
    service: Services, store: Store, clock: Clock
) -> None:
    night_id = await _schedule(service)
    await _open_check_in(service, store, clock, night_id)
    for user in PEOPLE[:3]:
        assert (await service.attendance.check_in(CHANNEL, user)).ok
    night = await store.night(night_id)
    assert night is not None
    clock.now = clock.now.fromtimestamp(night.starts_at, clock.now.tzinfo) + timedelta(hours=1)
    await service.night_director.start(Events())
    await service.night_director.idle()
    night = await store.night(night_id)
    assert night is not None and night.state is NightState.CALLED_OFF
    assert night.note == "Called off: I wasn't running at its start time."
    record = await store.tournament(night.tournament_id)
    assert record is not None and record.status is TournamentStatus.CANCELLED
    # A night held once: its club ends with it.
    club = await store.club_in_channel(CHANNEL)
    assert club is not None and club.ended
    service.night_director.stop()


async def test_a_late_arrival_is_taken_by_a_swiss_nights_next_round_only(
    service: Services, store: Store, clock: Clock
) -> None:
    night_id = await _schedule(service, rounds=1)
    await _open_check_in(service, store, clock, night_id)
    for user in PEOPLE[:3]:
        assert (await service.attendance.check_in(CHANNEL, user)).ok
    night = await store.night(night_id)
    assert night is not None
    clock.now = clock.now.fromtimestamp(night.starts_at, clock.now.tzinfo)
    await service.night_director.start(Events())
    await service.night_director.idle()
    record = await store.tournament(night.tournament_id)
    assert record is not None and record.status is TournamentStatus.RUNNING
    # One round only: once it is paired, a late arrival is too late.
    await store.pair_round(
        record.id, 1, [(PEOPLE[0].id, PEOPLE[1].id), (PEOPLE[2].id, None)], now=0
    )
    late = await service.attendance.check_in(CHANNEL, PEOPLE[3])
    assert late.ok and "too late" in late.reply.text and "last round" in late.reply.text
    assert PEOPLE[3].id not in [e.user_id for e in await store.entrants(record.id)]
    already = await service.attendance.check_in(CHANNEL, PEOPLE[0])
    assert "already" in already.reply.text
    service.night_director.stop()


def test_league_points_go_by_place_and_the_champion_has_most() -> None:
    assert [league_points(p, 4) for p in (1, 2, 3, 4)] == [4, 3, 2, 1]

    def night(*order: tuple[int, str, int]) -> list[NightPlace]:
        field = len(order)
        return [
            NightPlace(user, name, place, field, league_points(place, field), gp)
            for place, (user, name, gp) in enumerate(order, 1)
        ]

    first = night((1, "Al", 6), (2, "Bea", 4), (3, "Cy", 2), (4, "Di", 0))
    second = night((2, "Bea", 6), (1, "Al", 4), (3, "Cy", 2))
    table = league_table([first, second])
    assert [(line.name, line.points, line.nights, line.won) for line in table] == [
        ("Al", 4 + 2, 2, 1),
        ("Bea", 3 + 3, 2, 1),
        ("Cy", 2 + 1, 2, 0),
        ("Di", 1, 1, 0),
    ]
    # (Al and Bea level on points, nights won and game points: the name decides.)
    assert table[0].game_points == table[1].game_points == 10


async def test_taking_back_interested_after_checking_in_keeps_the_check_in(
    service: Services, store: Store, clock: Clock
) -> None:
    """Al and Bea marked the night's event Interested; Al checked in. Both then take the mark
    back: Bea is taken out of the night, Al stays in (the check-in decides who is dealt in),
    where before both were taken out."""
    night_id = await _schedule(service)
    club = await store.club_in_channel(CHANNEL)
    assert club is not None
    await store.set_event(club.id, 99)
    for user in PEOPLE[:2]:
        await service.attendance.interest(GUILD, 99, user.id, user.name, yes=True)
    await _open_check_in(service, store, clock, night_id)
    assert (await service.attendance.check_in(CHANNEL, PEOPLE[0])).ok
    for user in PEOPLE[:2]:
        await service.attendance.interest(GUILD, 99, user.id, user.name, yes=False)
    night = await store.night(night_id)
    assert night is not None
    assert [e.user_id for e in await store.entrants(night.tournament_id)] == [PEOPLE[0].id]


def test_players_level_on_a_nights_table_share_its_place_and_league_points() -> None:
    """League points go by the players one finished level with or ahead of (docs/players.md):
    two level on game points, games won and spread share second place and its points, and the
    next is fourth; where before each took the points of their row in the table."""
    table = [
        Standing(1, points=6, won=3, spread=40),
        Standing(2, points=4, won=2, spread=10),
        Standing(3, points=4, won=2, spread=10),
        Standing(4, points=4, won=2, spread=-5),
        Standing(5),
    ]
    places = night_places(table, {1: "Al", 2: "Bea", 3: "Cy", 4: "Di", 5: "Ed"})
    assert [(p.name, p.place, p.points) for p in places] == [
        ("Al", 1, 5),
        ("Bea", 2, 4),
        ("Cy", 2, 4),
        ("Di", 4, 2),
        ("Ed", 5, 1),
    ]


async def test_a_seasons_last_night_crowns_its_champion_once(
    service: Services, store: Store, clock: Clock
) -> None:
    """The last night of a season (the club's next falls in the next quarter) posts the
    league's champion in the channel, once."""
    from bot.core.base.owners import Owner
    from bot.core.nights.board import NightBoards
    from bot.core.nights.nights import tournament_of
    from bot.core.tournaments import records as tr
    from bot.core.tournaments.tournaments import TournamentMessages

    night_id = await _schedule(service, when="2026-03-27 20:00", repeat="weekly")
    night = await store.night(night_id)
    club = await store.club_in_channel(CHANNEL)
    assert night is not None and club is not None
    tid = night.tournament_id
    for user in PEOPLE[:3]:
        assert await store.enter(tid, user.id, user.name)
    assert await store.claim_night(night.id, NightState.SCHEDULED, NightState.STARTED)
    assert await store.start_tournament(tid, rounds=1)
    assert await store.pair_round(
        tid, 1, [(PEOPLE[1].id, PEOPLE[0].id), (PEOPLE[2].id, None)], now=0
    )
    assert await store.decide(tid, 1, 1, tr.Verdict(tr.Decided.GAME, PEOPLE[1].id, margin=9))
    assert await store.end_tournament(
        tid, tr.TournamentStatus.FINISHED, now=0, champion=PEOPLE[1].id
    )
    assert await store.claim_night(night.id, NightState.STARTED, NightState.PLAYED)
    boards = NightBoards(TournamentMessages(store, lambda: 0.0), store, service.leagues)

    async def owed() -> list[str]:
        drawn = await boards.draw(Owner.tournament(tid), 0.0, {})
        assert drawn is not None
        return [str(o.key) for o in drawn.owed]

    # Its next night not made yet: the season is not known to be over.
    assert not [k for k in await owed() if k.startswith("league")]
    following = await store.add_night(
        club.id, 2, night.starts_at + 7 * 86400, tournament_of(club), now=0
    )
    assert following is not None
    keys = [k for k in await owed() if k.startswith("league")]
    assert keys == ["league:2026-01-01"]
    drawn = await boards.draw(Owner.tournament(tid), 0.0, {})
    assert drawn is not None
    [crowned] = [o for o in drawn.owed if str(o.key).startswith("league")]
    assert crowned.once and crowned.view.mentions == (PEOPLE[1].id,)
    assert "Bea" in crowned.view.content and "January–March 2026" in crowned.view.content


async def _played(store: Store, night_id: int, winner: User, *, claim: bool = True) -> None:
    """Night ``night_id`` played by Al, Bea and Cy, ``winner`` beating the next; and marked
    played (``claim``), or left as its director finds it, its tournament over."""
    from bot.core.tournaments import records as tr

    night = await store.night(night_id)
    assert night is not None
    tid = night.tournament_id
    for user in PEOPLE[:3]:
        assert await store.enter(tid, user.id, user.name)
    assert await store.claim_night(night.id, NightState.SCHEDULED, NightState.STARTED)
    assert await store.start_tournament(tid, rounds=1)
    loser = next(u for u in PEOPLE[:2] if u != winner)
    assert await store.pair_round(tid, 1, [(winner.id, loser.id), (PEOPLE[2].id, None)], now=0)
    assert await store.decide(tid, 1, 1, tr.Verdict(tr.Decided.GAME, winner.id, margin=9))
    assert await store.end_tournament(tid, tr.TournamentStatus.FINISHED, now=0, champion=winner.id)
    if claim:
        assert await store.claim_night(night.id, NightState.STARTED, NightState.PLAYED)


async def test_the_league_counts_and_scores_the_same_nights_when_one_is_played_meanwhile(
    service: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/club league`` read the club's nights twice, once for its table and once for its count:
    a night marked played between the two reads was said played and not scored (seen as a
    league "2 nights played" with the first night's points alone)."""
    from bot.core.nights.nights import tournament_of

    first = await _schedule(service, when="2026-01-02 20:00", repeat="weekly")
    club = await store.club_in_channel(CHANNEL)
    night = await store.night(first)
    assert club is not None and night is not None
    await _played(store, first, PEOPLE[1])
    second = await store.add_night(
        club.id, 2, night.starts_at + 7 * 86400, tournament_of(club), now=0
    )
    assert second is not None
    await _played(store, second.id, PEOPLE[0], claim=False)
    # Its director marks the second night played just after the league's read of the nights.
    reads = store.club_nights

    async def read_then_played(club_id: int) -> Any:
        nights = await reads(club_id)
        await store.claim_night(second.id, NightState.STARTED, NightState.PLAYED)
        return nights

    monkeypatch.setattr(store, "club_nights", read_then_played)
    for played in ("1 night", "2 nights"):
        said = (await service.leagues.league(CHANNEL)).reply.text
        # The nights it counts are the nights it scores, each player's line says.
        rows = [line for line in said.splitlines() if line[:2] in ("1.", "2.", "3.")]
        assert f"({played} played;" in said and len(rows) == 3, said
        assert all(f" · {played}, " in row for row in rows), said
