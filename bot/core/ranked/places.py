"""Each seat's place at a ranked game: the table and that player's hand, where they queued from.

A ranked game is played apart (:mod:`bot.core.base.seating`): the game itself keeps no message.
Each seat's place (owner ``place:<id>``, :meth:`Owner.place
<bot.core.base.owners.Owner.place>`) keeps what its player sees, as a private table's are kept
(:mod:`bot.core.messages.private_table`): one table message, posted as a follow-up of the
player's own interaction there (their card's, at first: the referee gives it as the place's
carrier) and edited through the tokens of their clicks on it; and their hand, opened from its
*Your hand* button. Nothing of the other seat is drawn there: not its hand, not a mention of its
player, not where they play from. The table says the match's score and, while a move is owed,
when its clock runs out; the decided match's last table offers *Find a ranked match*.

:class:`PlaceFeed` makes every change of a game played apart a change of each of its places
too (a click's answer kept with a move goes to the place whose hand it is), in every process,
whether the change was made here or heard from another process.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.faults import UnreadableGame
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.recent import Recent
from bot.core.base.seating import APART_SEATS
from bot.core.base.timing import TOKEN_USABLE
from bot.core.base.views import (
    MAX_LAID_OUT,
    MessageRecord,
    MessageView,
    RankedControls,
    ReviewPages,
    layout_tail,
    relaid,
)
from bot.core.games.coach_settings import CoachSettings
from bot.core.games.games import Games, Loaded
from bot.core.games.records import GameRecord
from bot.core.messages.private_table import (
    hand_carrier,
    moved_on,
    private_owed,
    turn_mentions,
    with_mentions,
)
from bot.core.messages.projection import hand_message, owes_move, settled
from bot.core.ranked.scoreboard import MatchView
from bot.core.ranked.storage import RankedReads
from bot.core.ranked.turns import TurnClock

__all__ = ["PlaceFeed", "PlaceMessages"]

#: Games whose table text is kept drawn (per version), for the keeper's repeated looks.
SETTLED_KEPT = 256
#: Ranked games that ended this recently are brought up to date at start-up too.
RECONCILE_ENDED = 24 * 3600.0


class PlaceFeed:
    """Publishes each change of a game played apart as a change of each of its seats' places
    too (those its publisher named: :attr:`Change.places <bot.core.base.feed.Change.places>`).
    (A click's answer kept with it the games wing tells the ledger of for the place of the
    seat whose hand it is: :meth:`~bot.core.base.seating.Seating.message_owner`.)"""

    def __init__(self, feed: ChangeFeed) -> None:
        self._feed = feed
        feed.subscribe(self._heard)

    def _heard(self, change: Change) -> None:
        # (None but a game played apart's change names places.)
        for owner in change.places:
            self._feed.publish(dataclasses.replace(change, owner=owner, places=()))

    def look_again(self, game_id: int, channel_id: int) -> None:
        """Have each place of the game drawn again (its match changed, not the game)."""
        for owner in (Owner.place(game_id, seat) for seat in APART_SEATS):
            version = self._feed.latest(owner) or self._feed.latest(Owner.game(game_id)) or 0
            self._feed.publish(Change(owner, version, channel_id))


class PlaceMessages(Projector):
    """Draws each seat's place at a ranked game (the ledger's projector for ``place:<id>``)."""

    def __init__(
        self,
        games: Games,
        store: RankedReads,
        coach: CoachSettings,
        turns: TurnClock,
        matches: MatchView,
        *,
        page_link: Callable[[int], str | None] | None = None,
        launch: bool = False,
        retention: float | None = None,
    ) -> None:
        """``matches``: the matches as read for drawing (the referee says when one changed);
        ``page_link``: a game's page in the browser; ``launch``: the Activity is on (the
        table offers *Play at the table*); ``retention``: seconds after which an ended game
        has no messages any more (it is, or is about to be, pruned)."""
        self._games = games
        self._store = store
        self._coach = coach
        self._turns = turns
        self._page_link = page_link
        self._launch = launch
        self._retention = retention
        self._matches = matches
        # game id -> (the version and coach settings it was drawn for, what it owes then).
        self._settled: Recent[int, tuple[object, tuple[Owed, ...]]] = Recent(SETTLED_KEPT)

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """What the seat's place shows at ``now`` (None for a game that does not exist, or
        was pruned)."""
        game_id, seat = owner.game_id, owner.seat
        assert game_id is not None and seat is not None
        record = await self._games.record(game_id)
        if record is None or record.seating.shared or seat >= len(record.seats):
            return None
        if record.pruned(now, self._retention):
            return None
        try:
            loaded = self._games.loaded.drawable(record)
        except UnreadableGame:
            return None
        if loaded is None:
            return None  # (a game played apart is dealt as it opens)
        user = record.seats[seat].user_id
        coach_off = await self._coach.off([user] if user is not None else [])
        drawn = self._settled_for(record, loaded, coach_off)
        hand = hand_message(
            loaded, seat, loaded.game.state.deal_number, coach=user not in coach_off
        )
        owed = list(private_owed(record, loaded, drawn, {seat: hand}, launch=self._launch))
        mentions = tuple(u for u in turn_mentions(record, loaded, sent, now) if u == user)
        lines = await self._matches.lines(record, loaded, self._turns, user)
        table = _with_lines(with_mentions(owed[0].view, mentions), lines)
        decided = await self._matches.decided_by(record)
        if decided is not None:
            table = dataclasses.replace(table, controls=_search_again(decided, table))
        owed[0] = dataclasses.replace(owed[0], view=table, closed=moved_on(record, table))
        check_at = None
        known = hand_carrier(sent, loaded.game.state.deal_number, seat, now)
        if known is not None and known.token_at is not None and owes_move(loaded.game, seat):
            check_at = known.token_at + TOKEN_USABLE  # (then the table mentions them)
        return Drawing(record.channel_id, record.version, tuple(owed), check_at)

    def _settled_for(
        self, record: GameRecord, loaded: Loaded, coach_off: frozenset[int]
    ) -> tuple[Owed, ...]:
        """The game's table and result as a channel would be shown them, drawn once per
        version (and coach settings)."""
        key = (record.version, record.status, coach_off)
        kept = self._settled.get(record.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        link = None if self._page_link is None else self._page_link(record.id)
        drawn = settled(record, loaded, {}, coach_off, link=link, launch=self._launch)
        self._settled.keep(record.id, (key, drawn))
        return drawn

    def moving(self, owner: Owner) -> bool:
        """Whether a move of the place's game is being applied and saved here now."""
        return owner.game_id is not None and self._games.moving(owner.game_id)

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """The places of every ranked game of a match being played or ended in the last
        day."""
        found: list[tuple[Owner, int]] = []
        for match in await self._store.matches_since(now - RECONCILE_ENDED):
            for game in await self._store.match_games(match.id):
                record = await self._games.record(game.game_id)
                if record is None:
                    continue
                found += [(Owner.place(game.game_id, s), record.channel_id) for s in APART_SEATS]
        return found

    def sending_again(self) -> None:
        """This process sends again after another did: what it kept of the matches is read
        again."""
        self._matches.forget()

    def forget(self, game_id: int) -> None:
        """Drop what is kept of a pruned game."""
        self._settled.forget(game_id)


def _search_again(match_id: int, table: MessageView) -> RankedControls:
    """A decided match's last table's buttons: its *Review*, if it had one, and a search for
    another match from this place, a tap away."""
    review = table.controls_of(ReviewPages)
    game = None if review is None else review.game_id
    return RankedControls(match_id, ("again",), review=game)


def _with_lines(view: MessageView, lines: tuple[Sequence[str], Sequence[str]]) -> MessageView:
    """The table with the match's lines: ``lines[0]`` above everything, ``lines[1]`` below
    (the clock, the match's score after a game), the rest cut from the top to fit."""
    top, bottom = tuple(t for t in lines[0] if t), tuple(t for t in lines[1] if t)
    if not top and not bottom:
        return view
    room = MAX_LAID_OUT - sum(len(t) for t in (*top, *bottom))
    body = layout_tail(view.layout or ((view.content,),), room)
    groups = [g for g in (top, *body, bottom) if g]
    return relaid(view, groups)
