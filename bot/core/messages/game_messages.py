"""The messages a game keeps, drawn from the stored game for the ledger (a game's projector).

The drawing itself is :mod:`bot.core.messages.projection` (pure functions of the game and a
few facts); this gathers those facts (the seats whose DMs were refused, the players' coach settings,
who has left the server, the rating changes of a finished game) and keeps what it drew once per
version, since the keeper looks at a game several times for each move. Time only decides which turn
reminders are due; before a reminder goes out, the player it is for is checked to still be a member
of the game's server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import timedelta
from typing import NamedTuple

from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.faults import UnreadableGame
from bot.core.base.keys import AWAY, HAND, REMIND, TABLE_OF_DEAL, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.recent import Newest, Recent
from bot.core.base.text import escape, ratings_text
from bot.core.base.timing import TOKEN_USABLE
from bot.core.base.views import MessageRecord, MessageView, laid_out
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games, Loaded
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.series import continued_text, series_text
from bot.core.games.storage import DmRefusals, GameRecords
from bot.core.messages.finals import behind, finishing, told_again, unseen
from bot.core.messages.hand import ended_text
from bot.core.messages.hinting import hints_line
from bot.core.messages.private_table import (
    TABLE,
    hand_carrier,
    private_owed,
    shown_through,
    table_calls,
    turn_mentions,
    unreadable_table,
    wake_calls,
)
from bot.core.messages.projection import (
    TableFacts,
    final_tables,
    hand_message,
    in_order,
    noticed,
    owes_move,
    project,
    settled,
)
from engine.variants import named, title_unless_standard

__all__ = [
    "RECONCILE_ENDED",
    "REMIND_AFTER",
    "SETTLED_KEPT",
    "GameMessages",
    "ResultLines",
    "ratings_line",
    "result_lines",
]

#: How long the table waits on a person before reminding them (a setting overrides it).
REMIND_AFTER = timedelta(seconds=60)
#: Games that ended this recently are brought up to date at start-up too.
RECONCILE_ENDED = timedelta(days=1)
#: Games whose messages are kept drawn (per version), for the keeper's repeated looks.
SETTLED_KEPT = 512
#: A private table's looks remembered per game (what each shows the end of).
LOOKS_KEPT = 8


class GameMessages(Projector):
    """Draws each game's messages (the ledger's projector for games)."""

    def __init__(
        self,
        games: Games,
        store: DmRefusals,
        coach: CoachSettings,
        *,
        remind_after: timedelta = REMIND_AFTER,
        retention: timedelta | None = None,
        page_link: Callable[[int], str | None] | None = None,
        launch: bool = False,
        asked: Callable[[Owner], Collection[MessageKey]] = lambda _: (),
    ) -> None:
        """``retention``: an ended game older than that has no messages any more (it is, or is
        about to be, pruned). ``page_link``: a game's page in the browser (its table messages
        carry it), if the pages have a public address. ``launch``: the Activity is on (the
        lobby and the live table offer *Play at the table*). ``asked``: the keys of a game's
        hands its players just asked for, their answers still on their way (the ledger's
        :meth:`Copies.asked <bot.core.ledger.copies.Copies.asked>`)."""
        self._games = games
        self._store = store
        self._coach = coach
        self._remind_after = remind_after.total_seconds()
        self._retention = None if retention is None else retention.total_seconds()
        self._page_link = page_link
        self._launch = launch
        self._asked = asked
        # game id -> seat -> the deal its DMs were first refused in, at its version: how many
        # seats were refused (a refusal is only ever added, its first deal kept).
        self._refused: Newest[int, dict[int, int]] = Newest(SETTLED_KEPT)
        # game id -> (whether it was read while the game was played, the lines beside its play:
        # a finished game's ratings, the series of its result and the one it continues), at
        # the game's version.
        self._lines: Newest[int, tuple[bool, ResultLines]] = Newest(SETTLED_KEPT)
        # game id -> (the version and facts it was drawn for, what it owes then).
        self._settled: Recent[int, tuple[object, tuple[Owed, ...]]] = Recent(SETTLED_KEPT)
        # game id -> deal -> its final table, drawn from the game told again (a deal the log
        # dropped before its table showed its end: see bot.core.messages.finals).
        self._finals: Recent[int, dict[int, Owed]] = Recent(SETTLED_KEPT)
        # game id -> a private table's looks drawn lately, by digest -> the last deal whose
        # end each shows (the next look shows the deals after it).
        self._through: Recent[int, dict[str, int]] = Recent(SETTLED_KEPT)
        # game id -> the lowest of those a look forgotten since the table last showed a look
        # remembered said (such a look may be the one shown next: the deals after it are shown
        # again, rather than missed).
        self._floor: Recent[int, int] = Recent(SETTLED_KEPT)

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """What every message of the game should show at ``now``, given what was last sent
        (``sent``, by key) (None for a game that does not exist, or was pruned)."""
        record = await self._games.record(owner.id)
        if record is None or record.pruned(now, self._retention) or not record.seating.shared:
            # (A game played apart has no messages of its own: its places draw them.)
            return None
        try:
            loaded = self._games.loaded.drawable(record)
        except UnreadableGame:
            # Nothing of it can be drawn while it is open (every pass would fail the same
            # way), and once a moderator has ended it, what needs no snapshot.
            return None if record.is_open else _ended_unread(record, sent)
        people = [s.user_id for s in record.seats if s.user_id is not None]
        facts = TableFacts(
            refused=await self._refusals(record.id),
            coach_off=await self._coach.off(people),
            now=now,
            remind_after=self._remind_after,
            departed=self._games.departures.of(record.id),
            noticed=() if loaded is None else noticed(sent, loaded.game.state.deal_number),
        )
        lines = await self._lines_of(record)
        if record.seating.tokens_only:
            return await self._private(record, loaded, facts, lines, sent, self._asked(owner))
        found = project(record, loaded, facts, self._settled_for(record, loaded, facts, lines))
        if await self._reminded_gone(record, found.owed, sent):
            # Someone the table waits on has left the server: no reminder for them, and the
            # channel is told how the game can end instead.
            facts = dataclasses.replace(facts, departed=self._games.departures.of(record.id))
            found = project(record, loaded, facts, self._settled_for(record, loaded, facts, lines))
        owed = found.owed
        if loaded is not None:
            self._keep_finals(record.id, owed, finishing(loaded.log, sent))
            late = behind(loaded.log, sent)
            if late:
                # Tables the log dropped before their end was sent: each in its deal's place.
                owed = in_order((*owed, *await self._final_tables(record, loaded, late)))
        return Drawing(record.channel_id, record.version, owed, found.check_at)

    def _keep_finals(self, game_id: int, owed: Sequence[Owed], deals: list[int]) -> None:
        """Keep the final tables of ``deals`` as just drawn from the deal log (their end not
        sent yet): should the log drop them first, they are sent as kept, the game not told
        again."""
        if not deals:
            return
        kept = self._finals.get(game_id) or {}
        for table in owed:
            deal = table.key.deal
            if table.key.name == TABLE_OF_DEAL and deal in deals and deal not in kept:
                kept[deal] = table
        self._finals.keep(game_id, kept)

    async def _final_tables(
        self, record: GameRecord, loaded: Loaded, deals: list[int]
    ) -> list[Owed]:
        """The final tables of ``deals`` (the log dropped them): drawn once, from the game
        told again (:func:`~bot.core.messages.finals.told_again`), and kept (a deal's final
        table never changes)."""
        kept = self._finals.get(record.id) or {}
        missing = [deal for deal in deals if deal not in kept]
        if missing:
            told = await told_again(loaded)
            if told is not None:
                link = None if self._page_link is None else self._page_link(record.id)
                for owed in final_tables(record, loaded, told, missing, link=link):
                    kept[owed.key.deal or 0] = owed
                self._finals.keep(record.id, kept)
        return [kept[deal] for deal in deals if deal in kept]

    async def _private(
        self,
        record: GameRecord,
        loaded: Loaded | None,
        facts: TableFacts,
        lines: ResultLines,
        sent: Mapping[MessageKey, MessageRecord],
        asked: Collection[MessageKey],
    ) -> Drawing:
        """The messages of a game where the bot is not a member
        (:mod:`bot.core.messages.private_table`): the table, mentioning whoever it waits on
        whose hand no live token reaches (nor is on its way to them: ``asked``), that call
        posted on its own once it has waited on them a while (:func:`wake_calls`), and each
        hand of the current deal; looked at again when a waiting player's token lapses, or
        that call falls due."""
        settled_owed = self._settled_for(record, loaded, facts, lines)
        hands: dict[int, MessageView] = {}
        check_at = None
        again = False
        earlier: list[int] = []
        if loaded is not None:
            deal = loaded.game.state.deal_number
            # Deals the table shown may have missed the end of: shown above this one.
            earlier = self._unseen(record, loaded, sent.get(TABLE))
            dropped = [d for d in earlier if d not in loaded.log.deals]
            if dropped:
                finals = await self._final_tables(record, loaded, dropped)
                settled_owed = (*settled_owed, *finals)
            for seat in record.seats:
                if seat.is_computer or seat.user_id is None:
                    continue
                coach = seat.user_id not in facts.coach_off
                hands[seat.seat] = hand_message(loaded, seat.seat, deal, coach=coach)
                known = hand_carrier(sent, deal, seat.seat, facts.now)
                if known is not None and owes_move(loaded.game, seat.seat):
                    assert known.token_at is not None
                    lapse = known.token_at + TOKEN_USABLE
                    check_at = lapse if check_at is None else min(check_at, lapse)
        owed = list(
            private_owed(record, loaded, settled_owed, hands, launch=self._launch, earlier=earlier)
        )
        if loaded is not None:
            mentions = turn_mentions(record, loaded, sent, facts.now, asked)
            # The table's own message calls whom it names when it is a new one this turn
            # (posted again: a new message notifies whom it mentions), those no call of its
            # own named yet; each is then called by it alone (one message, one ping each).
            table, pinged = table_calls(record, loaded, sent, owed[0].view, mentions, facts.now)
            owed[0] = dataclasses.replace(owed[0], view=table)
            through = shown_through(settled_owed, earlier)
            # A look that shows only some of the deals missed owes the next, which shows the
            # deals after the last it showed (a look that shows them all is read by the
            # version it was drawn at: see _unseen).
            again = through < deal - 1
            self._shows(record.id, table, through)
            unpinged = tuple(u for u in mentions if u not in pinged)
            calls, due = wake_calls(record, loaded, unpinged, facts.now, facts.remind_after)
            owed += calls
            check_at = min((t for t in (check_at, due) if t is not None), default=None)
        return Drawing(record.channel_id, record.version, tuple(owed), check_at, again)

    def _unseen(self, record: GameRecord, loaded: Loaded, shown: MessageRecord | None) -> list[int]:
        """The deals before the current one whose end the private table's look ``shown`` may
        not have shown: those after the last it did, for a look this process drew showing
        some of the deals missed; else every deal from the one it was drawn in
        (:func:`~bot.core.messages.finals.unseen`: its deal before's end it showed, or the
        look before it did)."""
        deal = loaded.game.state.deal_number
        if shown is None:
            return []
        through = (self._through.get(record.id) or {}).get(shown.digest)
        if through is not None:
            # (A look drawn before it, forgotten, will not be shown after it.)
            self._floor.forget(record.id)
            return list(range(through + 1, deal))
        missed = unseen(loaded.log, deal, shown)
        floor = self._floor.get(record.id)
        if floor is None:
            return missed
        # The look shown may be one drawn here and forgotten since (looks drawn faster than
        # the table could be edited): the deals after the lowest such look's are shown again.
        return list(range(min(floor + 1, missed[0] if missed else deal), deal))

    def _shows(self, game_id: int, table: MessageView, through: int) -> None:
        """The private table's look ``table`` shows the end of every deal up to ``through``,
        and not of the deals after it, before the current one: kept for the next draw, should
        it be the look shown then (the last few looks of a game; one forgotten leaves its
        deal as the floor the next look not remembered is shown from)."""
        looks = self._through.get(game_id) or {}
        looks[table.digest()] = through
        while len(looks) > LOOKS_KEPT:
            forgotten = looks.pop(next(iter(looks)))
            floor = self._floor.get(game_id)
            self._floor.keep(game_id, forgotten if floor is None else min(floor, forgotten))
        self._through.keep(game_id, looks)

    def moving(self, owner: Owner) -> bool:
        """Whether a move of the game is being applied and saved in this process now."""
        return self._games.moving(owner.id)

    async def _reminded_gone(
        self, record: GameRecord, owed: Sequence[Owed], sent: Mapping[MessageKey, MessageRecord]
    ) -> bool:
        """Before a turn reminder goes out, whether the player it is for has left the game's
        server (then they are noted as departed): the moment the table has waited on them long
        enough to ask, and the one time a player who left silently is found out. Only a
        reminder never sent counts (one sent is never sent again)."""
        if (
            record.guild_id is None
            or record.status is not GameStatus.ACTIVE
            or record.seating.tokens_only
        ):
            return False
        reminders = [
            o for o in owed if o.key.name in (REMIND, AWAY) and not o.existing
        ]  # (not one brought up to date once its turn is over)
        if not reminders:
            return False
        found = False
        for item in reminders:
            if not item.due(sent.get(item.key)):
                continue
            seat = item.key.seat
            user = None if seat is None else record.seats[seat].user_id
            if seat is None or user is None:
                continue
            if not await self._games.departures.still_member(
                record.id, record.guild_id, seat, user
            ):
                found = True
        return found

    async def _refusals(self, game_id: int) -> dict[int, int]:
        """Seat -> the deal its DMs were first refused in, read once and kept until a refusal
        comes (only the process that sends learns of one; one that sends again after another
        did reads them again, :meth:`sending_again`)."""
        refused = self._refused.get(game_id)
        if refused is None:
            refused = await self._store.dm_refusals(game_id)
            # (A read that a refusal overtook on its way holds fewer: it is not kept over the
            # refusals read since.)
            self._refused.keep(game_id, len(refused), refused)
        return refused

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM to this player: no more DMs to them in this game; the channel
        is told, once a deal (the game's projection says so from now on,
        :class:`~bot.core.messages.projection.TableFacts`)."""
        record = await self._games.store.get_game(owner.id)
        seat = None if record is None else record.seat_of(user_id)
        if record is None or seat is None or record.snapshot is None:
            return
        try:
            deal = self._games.loaded.load(record).game.state.deal_number
        except UnreadableGame:
            return  # nothing more is sent to it but its closing (see draw)
        await self._store.refuse_dms(owner.id, seat, deal)
        # Read again as they are now (the store keeps the deal of the first refusal, for a DM
        # already on its way when it came), a version on from any read before the refusal.
        refused = await self._store.dm_refusals(owner.id)
        self._refused.keep(owner.id, len(refused), refused)

    async def _lines_of(self, record: GameRecord) -> ResultLines:
        """:func:`result_lines`, read once for a lobby's version (its people may change the
        series it continues), once for a finished game (drawn again whenever a sweep or a
        click on its result brings it up; its ratings and its series' games do not change),
        and once while a game is played (the series it continues does not change with its
        moves)."""
        if record.rematch_of is None and record.status is not GameStatus.FINISHED:
            return ResultLines()
        moves = record.status not in (GameStatus.LOBBY, GameStatus.FINISHED)
        kept = self._lines.at(record.id)
        if kept is not None:
            version, (kept_moving, lines) = kept
            if version == record.version or (moves and kept_moving and version < record.version):
                return lines
        lines = await result_lines(self._games.store, record)
        self._lines.keep(record.id, record.version, (moves, lines))
        return lines

    def _settled_for(
        self,
        record: GameRecord,
        loaded: Loaded | None,
        facts: TableFacts,
        lines: ResultLines | None = None,
    ) -> tuple[Owed, ...]:
        """The game's messages but the reminders, drawn once per version (and refusals, coach
        settings and departures)."""
        key = (
            record.version,
            record.status,
            tuple(sorted(facts.refused.items())),
            facts.coach_off,
            facts.departed,
        )
        kept = self._settled.get(record.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        link = None if self._page_link is None else self._page_link(record.id)
        lines = lines or ResultLines()
        drawn = settled(
            record,
            loaded,
            facts.refused,
            facts.coach_off,
            lines.ratings,
            departed=facts.departed,
            link=link,
            launch=self._launch,
            series=lines.series,
            continues=lines.continues,
        )
        self._settled.keep(record.id, (key, drawn))
        return drawn

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """Every lobby and active game, and every game that ended in the last day (its last
        messages may be owed): what start-up brings up to date."""
        since = now - RECONCILE_ENDED.total_seconds()
        return [
            (Owner.game(g.id), g.channel_id) for g in await self._games.store.recent_games(since)
        ]

    def sending_again(self) -> None:
        """This process sends again after another did: read the refused DMs again."""
        self._refused.clear()

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a pruned game."""
        self._refused.forget(game_id)
        self._settled.forget(game_id)
        self._lines.forget(game_id)
        self._finals.forget(game_id)
        self._through.forget(game_id)
        self._floor.forget(game_id)


class ResultLines(NamedTuple):
    """What a game's messages say beside its play, read from the store: a finished game's
    ratings (:func:`ratings_line`) and the series its result says, with it
    (:func:`~bot.core.games.series.series_text`); and the series the game continues, as it
    stood at its opening, on its lobby and tables (``continues``:
    :func:`~bot.core.games.series.continued_text`)."""

    ratings: str = ""
    series: str = ""
    continues: str = ""


async def result_lines(store: GameRecords, record: GameRecord) -> ResultLines:
    """:class:`ResultLines` of ``record``: the channel's messages and the game's page draw
    them from here alike. A ranked match's game says no ratings: its players' places show
    none for it (their ranked ratings move with the match, on its card and table), so its
    page shows none either."""
    continues = await continued_text(store, record)
    if record.status is not GameStatus.FINISHED:
        return ResultLines(continues=continues)
    ratings = "" if record.in_match else await ratings_line(store, record)
    return ResultLines(ratings, await series_text(store, record), continues)


async def ratings_line(store: GameRecords, record: GameRecord) -> str:
    """For a finished game, the lines its result ends with: who played with hints, if anyone
    did or they were allowed (:func:`~bot.core.messages.hinting.hints_line`), then each
    person's new rating and its change, set apart from the name: "Ratings — Al: 1,512 (+18)
    · Bea: 988 (−18)" (empty for any other game). A variant's ratings are its own, and say
    so: "Five-card cribbage ratings — …"."""
    if record.status is not GameStatus.FINISHED:
        return ""
    title = title_unless_standard(named(record.options.variant))
    label = f"{title} ratings" if title else "Ratings"
    names = {s.seat: s.name for s in record.seats if not s.is_computer}
    changes = [
        (escape(names[c.seat]), c.ordinal_before, c.ordinal_after)
        for c in await store.game_rating_changes(record.id)
        if c.seat in names
    ]
    hinted = hints_line(record, await store.hints_taken(record.id))
    return "\n".join(line for line in (hinted, ratings_text(label, changes)) if line)


def _ended_unread(record: GameRecord, sent: Mapping[MessageKey, MessageRecord]) -> Drawing:
    """The messages of an ended game whose snapshot cannot be read: the lobby and the line
    that says how it ended, and every hand message sent, closed (no live controls stay in a
    DM for a game that is over). At a private table, the table in place of the lobby, and
    every message through interactions' tokens."""
    private = record.seating.tokens_only
    owed = list(unreadable_table(record) if private else settled(record, None, {}, frozenset()))
    for key in sent:
        seat = key.seat
        if key.name != HAND or seat is None:
            continue
        user = record.seats[seat].user_id if seat < len(record.seats) else None
        if user is not None:
            view = laid_out(((ended_text(record.channel_id, record.end_note),),))
            way = record.seating.place(seat).way
            owed.append(Owed(key, view, user, existing=True, way=way))
    return Drawing(record.channel_id, record.version, tuple(owed))
