"""A club night's messages in its channel, drawn for the ledger: its tournament's message with
the night's own lines above (when, who is in, the check-in and its **Check in** button, why it
was called off), the one reminder when check-in opens (naming everyone entered), and, after a
season's last night, its league champion.

:class:`NightBoards` draws every tournament's messages (it is the ledger's projector for
tournaments): a night's as this module says, any other as the tournaments' own projector does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.text import escape, shown_at
from bot.core.base.views import MAX_MESSAGE, EntryControls, MessageRecord, MessageView
from bot.core.games.records import is_former
from bot.core.nights.leagues import Leagues
from bot.core.nights.nights import NightStore, check_in_opens
from bot.core.nights.records import ClubRecord, NightPerson, NightRecord, NightState
from bot.core.nights.when import Repeat, season_of, zone_named
from bot.core.tournaments.tournaments import BOARD, TournamentMessages, read_event
from bot.core.tournaments.view import Event, board_text, mention, settings_line

__all__ = ["MENTIONS_A_MESSAGE", "REMINDER", "NightBoards", "night_lines"]

#: The reminder's messages (``reminder:<n>``), each naming at most this many people.
REMINDER = "reminder"
MENTIONS_A_MESSAGE = 80
#: A season's champion's announcement, after its last night (``league:<season>``).
LEAGUE = "league"


def _names(people: Sequence[str], shown: int = 30) -> str:
    listed = ", ".join(escape(n) for n in people[:shown]) or "nobody yet"
    more = len(people) - shown
    return listed + (f" and {more} more" if more > 0 else "")


def night_lines(
    club: ClubRecord, night: NightRecord, event: Event, people: Sequence[NightPerson]
) -> list[str]:
    """The night's own lines, above its tournament's message (all of it, before it starts)."""
    start = night.starts_at
    often = "" if club.repeat is Repeat.ONCE else f" · {club.repeat.said}"
    head = [f"**🃏 {escape(club.name)}** — night {night.number}{often} · {shown_at(start, 'F')}"]
    state = night.state
    if state.ahead:
        record = event.record
        head.append(f"{settings_line(record)}. Organised by {mention(record.organiser_id)}.")
        entrants = [e.name for e in event.entrants]
        checked = {p.user_id for p in people if p.checked_in is not None}
        if state is NightState.SCHEDULED:
            head.append(f"**Entrants ({len(entrants)}):** {_names(entrants)}")
            enter = (
                "Mark it **Interested** in the server's Events or press **Join**"
                if club.events and club.event_refused is None
                else "Press **Join** to enter"
            )
            head.append(
                f"It starts {shown_at(start, 'R')}. {enter}; then check in here in its last 15"
                f" minutes (from {shown_at(check_in_opens(night), 't')}): only those checked in"
                " are dealt in."
            )
        else:
            here = [e.name for e in event.entrants if e.user_id in checked]
            away = [e.name for e in event.entrants if e.user_id not in checked]
            head.append(
                f"**Check-in is open** until {shown_at(start, 't')} ({shown_at(start, 'R')}):"
                " press **Check in** to be dealt in."
            )
            head.append(f"**Checked in ({len(here)}):** {_names(here)}")
            if away:
                head.append(f"Not yet: {_names(away)}")
        return head
    if state is NightState.STARTED:
        head.append(
            "Late? Press **Check in**: a Swiss night's next round takes you while one is to come."
        )
    elif state in (NightState.CALLED_OFF, NightState.SKIPPED, NightState.CANCELLED):
        head.append(f"**{night.note or 'Called off.'}**")
    return head


class NightBoards(Projector):
    """Every tournament's messages: a club night's with its own lines and controls, its
    reminder and its season's champion (see the module); any other tournament's as
    ``tournaments`` draws them."""

    def __init__(
        self, tournaments: TournamentMessages, store: NightStore, leagues: Leagues
    ) -> None:
        self._tournaments = tournaments
        self._store = store
        self._leagues = leagues

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """The tournament's messages now (a night's as the module says)."""
        drawn = await self._tournaments.draw(owner, now, sent)
        if drawn is None:
            return None
        night = await self._store.night_of_tournament(owner.id)
        club = None if night is None else await self._store.club(night.club_id)
        record = await self._store.tournament(owner.id)
        if night is None or club is None or record is None:
            return drawn
        event = await read_event(self._store, record)
        people = await self._store.night_people(night.id)
        lines = night_lines(club, night, event, people)
        head = "\n".join(lines)
        if night.state.ahead or not record.round:
            text = head
        else:
            text = head + "\n" + board_text(event, room=MAX_MESSAGE - len(head) - 1)
        controls: EntryControls | None = None
        if night.state.ahead:
            controls = EntryControls(record.id, check_in=night.state is NightState.CHECK_IN)
        elif night.state is NightState.STARTED and record.format.name == "swiss":
            controls = EntryControls(record.id, join=False, check_in=True)
        owed = [
            replace(o, view=MessageView(text[:MAX_MESSAGE], controls=controls))
            if o.key == BOARD
            else o
            for o in drawn.owed
        ]
        if night.state is NightState.CHECK_IN:
            owed += _reminders(club, night, event, people)
        champion = await self._season_over(club, night)
        if champion is not None:
            owed.append(champion)
        return Drawing(drawn.channel_id, drawn.version, tuple(owed), drawn.check_at)

    async def _season_over(self, club: ClubRecord, night: NightRecord) -> Owed | None:
        """After a season's last night (the club's next night falls in another season, or the
        club has ended), its champion's announcement, posted once."""
        if night.state is not NightState.PLAYED or not club.recurs:
            return None
        zone = zone_named(club.zone)
        season = season_of(datetime.fromtimestamp(night.starts_at, UTC), zone)
        latest = await self._store.latest_night(club.id)
        if latest is None:
            return None
        later = latest.number > night.number and not season.holds(latest.starts_at)
        if not later and not (club.ended and latest.number == night.number):
            return None
        crowned = await self._leagues.champion_line(club, season)
        if crowned is None:
            return None
        user_id, line = crowned
        pinged = () if is_former(user_id) else (user_id,)
        key = MessageKey.of(LEAGUE, f"{season.start.date().isoformat()}")
        return Owed(key, MessageView(line, mentions=pinged), once=True)

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """Every tournament open, running, or ended in the last day (nights are tournaments)."""
        return await self._tournaments.to_reconcile(now)


def _reminders(
    club: ClubRecord, night: NightRecord, event: Event, people: Sequence[NightPerson]
) -> list[Owed]:
    """The one reminder when check-in opens: everyone entered and not checked in yet, by
    mention, a message for every :data:`MENTIONS_A_MESSAGE` of them, each with **Check in**."""
    checked = {p.user_id for p in people if p.checked_in is not None}
    due = [
        e.user_id for e in event.entrants if e.user_id not in checked and not is_former(e.user_id)
    ]
    start = night.starts_at
    owed: list[Owed] = []
    for n in range(0, max(len(due), 1), MENTIONS_A_MESSAGE):
        batch = tuple(due[n : n + MENTIONS_A_MESSAGE])
        called = " ".join(f"<@{user}>" for user in batch)
        text = (
            f"🔔 **{escape(club.name)}** starts {shown_at(start, 'R')} ({shown_at(start, 't')})."
            f" {called} — check in with one press, or you won't be dealt in."
            if batch
            else f"🔔 **{escape(club.name)}** starts {shown_at(start, 'R')}: check in with one"
            " press."
        )
        controls = EntryControls(event.record.id, join=False, check_in=True)
        view = MessageView(text, controls=controls, mentions=batch)
        owed.append(Owed(MessageKey.of(REMINDER, n // MENTIONS_A_MESSAGE), view, once=True))
    return owed
