"""The messages of a private table: a game played where the bot is not a member.

In a DM between people, a group DM, or a server that did not invite the bot (reached through
someone's user install), the bot's own token may neither post nor edit: a game there lives on
interactions alone. It keeps one message in the channel, the answer to ``/cribbage new``
(key ``lobby``): the lobby while seats are taken, then the table of the current deal (with
the show of the deal before while the crib is being made, so nobody misses it, and, played
faster than the table is edited, every deal the look shown before missed the end of, a few at
a time: :mod:`bot.core.messages.finals`), and at the end
the result. Once dealt it carries one button, *Your hand*, whose answer is the clicker's hand
as an ephemeral message (key ``hand:N:S``) with its controls, and at the end the result's
*Review*; the keeper edits each of these only through the token of an interaction on it, while
that token lives (15 minutes).

A player whose turn it is and who holds no live token for their hand is mentioned on the
table, so everyone sees who is awaited; nothing is ever sent by DM. The mention comes by an
edit of the table, and Discord documents notifications for the mentions of a message it is sent
with, of an edit only that its mentions are worked out again: so once the table has waited on
such a player for the reminder's delay, the same call is posted as a message of its own (key
``away:<turn>:<seat>``, once a turn), through whichever interaction's token still reaches the
conversation (another player's move, a watcher's click): their own have lapsed, and it is the
one way left to notify them. A copy of the table posted again (no token reached it: the next
interaction posts it) is a new message too: it is then the call, notifying whom it names that
no call named yet this turn, and no call of its own is posted for them (one message, each
person notified once: :func:`table_calls`). An edit of the table's line notifies no one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.core.base.delivery import Owed, live
from bot.core.base.keys import AWAY, LOBBY, RESULT, TABLE_OF_DEAL, MessageKey
from bot.core.base.seating import Through
from bot.core.base.views import (
    HAND_BUTTON,
    MAX_LAID_OUT,
    MAX_LAID_OUT_PARTS,
    MAX_MESSAGE,
    RESIGN_BUTTON,
    TABLE_BUTTON,
    LobbyAction,
    LobbyControls,
    MessageRecord,
    MessageView,
    ResultControls,
    ReviewPages,
    Style,
    laid_out,
    layout_tail,
    relaid,
    text_tail,
)
from bot.core.games.games import Loaded
from bot.core.games.lobby import lobby_view
from bot.core.games.records import GameRecord, GameStatus, SeatRecord
from bot.core.messages.projection import owes_move, turn_name
from engine.phase import Phase

__all__ = [
    "MOVED_ON",
    "TABLE",
    "hand_carrier",
    "private_owed",
    "shown_through",
    "table_calls",
    "turn_mentions",
    "unreadable_table",
    "wake_calls",
    "with_mentions",
]

#: The key of a private table's one channel message (the answer to ``/cribbage new``).
TABLE = LOBBY
#: What an older copy of the table says once a token reaches it (the table was posted again
#: below it, after a pause longer than any token's life).
MOVED_ON = "↓ This table moved: the game carries on in a newer message below."
#: Between the deal before's text and the current deal's.
_RULE = "— — —"
#: Components a table's look keeps for its board's gallery, its controls' row and buttons,
#: and the line that calls whom it waits on (see :data:`MAX_LAID_OUT_PARTS`).
_PARTS_KEPT = 10


def _hand_keys(deal: int, seat: int) -> tuple[MessageKey, ...]:
    """The keys of ``seat``'s hand messages, this deal's first, then the deals' before."""
    return tuple(MessageKey.hand(d, seat) for d in range(deal, 0, -1))


def hand_carrier(
    sent: Mapping[MessageKey, MessageRecord], deal: int, seat: int, now: float
) -> MessageRecord | None:
    """The freshest of ``seat``'s hand messages (this deal's, or one of a deal before, which
    the hand of a new deal takes over) that an interaction's live token reaches: how its
    hand is reached now (None: it is not)."""
    reached = [r for k in _hand_keys(deal, seat) if live(r := sent.get(k), now) and r is not None]
    return max(reached, key=lambda r: r.token_at or 0.0, default=None)


def _people(record: GameRecord) -> list[SeatRecord]:
    return [s for s in record.seats if not s.is_computer and s.user_id is not None]


def _size(groups: Sequence[Sequence[str]]) -> int:
    return sum(len(text) for group in groups for text in group)


def _unsaid(
    groups: Sequence[Sequence[str]], more: Sequence[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """The groups of ``more`` whose lines ``groups`` do not say already. How a game ended is
    said on its deal's table, where it ended (a server's channel says it again below it, in the
    result or a message of its own): a private table, the deal's table and those in one
    message, says it once."""
    said = {line for group in groups for text in group for line in text.split("\n")}
    return [g for g in more if not all(t in said for t in g)]


@dataclass(frozen=True, slots=True)
class _Look:
    """What the table shows of a started game's deals: the current deal's table (and the
    result, once there is one), and the tables shown above it (``before``, oldest first: the
    last of them cut to its tail where it does not fit whole)."""

    tables: dict[int, MessageView]
    current: MessageView
    deal: int
    result: Owed | None
    groups: list[tuple[str, ...]]
    before: list[int]
    rule: tuple[tuple[str, ...], ...]

    @property
    def playing_on(self) -> bool:
        """Whether the current deal is being played (its show not yet made, no result)."""
        return self.current.board is None and self.result is None


def _look(settled: Sequence[Owed], earlier: Collection[int]) -> _Look:
    """The deals' tables a started game's table shows (see :func:`_table_view`): above the
    current deal's, the deals of ``earlier`` (those the table may have missed the end of)
    oldest first, each whole, as many as fit, and the deal before's while the current deal is
    played (its tail, if it does not fit whole)."""
    ordered = sorted(
        (o for o in settled if o.key.name == TABLE_OF_DEAL), key=lambda o: o.key.deal or 0
    )
    tables = {o.key.deal or 0: o.view for o in ordered}
    result = next((o for o in settled if o.key == RESULT), None)
    current = ordered[-1].view if ordered else laid_out(())
    deal = (ordered[-1].key.deal or 0) if ordered else 0
    groups = list(current.layout)
    if result is not None:
        groups += _unsaid(groups, result.view.layout)
    # (Framed, the deals are set apart by their frames; else by a rule of their own.)
    rule: tuple[tuple[str, ...], ...] = () if current.style is Style.FRAMED else ((_RULE,),)
    look = _Look(tables, current, deal, result, groups, [], rule)
    wanted = sorted({d for d in earlier if d < deal and d in tables})
    if look.playing_on and deal - 1 in tables and deal - 1 not in wanted:
        wanted.append(deal - 1)  # the deal before's show, while the crib is being made
    room = MAX_LAID_OUT - _size(groups)
    parts = MAX_LAID_OUT_PARTS - _PARTS_KEPT - _parts(groups)
    for number in wanted:
        size = _size(tables[number].layout) + _size(rule)
        more = _parts(tables[number].layout) + _parts(rule)
        if look.before and (size > room or more > parts):
            break  # (shown by a later look, once these are)
        if not look.before and (room - _size(rule) <= 200 or more > parts):
            break
        look.before.append(number)
        room -= size
        parts -= more
        if room < 0:
            break  # (its tail alone fits)
    return look


def _parts(groups: Sequence[Sequence[str]]) -> int:
    """The components ``groups`` take laid out: a container or a separator each, and a text
    display for each of its texts."""
    return sum(1 + len(group) for group in groups)


def shown_through(settled: Sequence[Owed], earlier: Collection[int]) -> int:
    """The last deal whose end the table drawn from ``settled`` and ``earlier`` shows (every
    deal before it was shown by a look before): the last of those it shows above the current
    deal, or the deal before the current one when it shows none."""
    look = _look(settled, earlier)
    return look.before[-1] if look.before else look.deal - 1


def _table_view(
    record: GameRecord, settled: tuple[Owed, ...], launch: bool, earlier: Collection[int] = ()
) -> MessageView:
    """The one message of a started game, from what a server's channel would be shown (its
    deals' tables and result), laid out as they are: the current deal's table (after the deal
    before's, while the crib is being made, and after the deals of ``earlier`` the look shown
    before may have missed the end of: :func:`_look`), the result once there is one (with its
    *Review*), the board, and *Your hand* and *Resign* while the game is being played (with
    *Play at the table* while the Activity is on: ``launch``)."""
    look = _look(settled, earlier)
    current, result, groups = look.current, look.result, look.groups
    board = result.view.board if result is not None else current.board
    if look.before:
        before = [g for d in look.before for g in (*look.tables[d].layout, *look.rule)]
        room = MAX_LAID_OUT - _size(groups)
        groups = [*layout_tail(before, room), *groups]
        if look.playing_on:
            board = look.tables[look.before[-1]].board
    if record.end_note:
        groups += _unsaid(groups, ((record.end_note,),))
    playing = record.status is GameStatus.ACTIVE
    buttons: tuple[LobbyAction, ...] = (HAND_BUTTON, RESIGN_BUTTON)
    buttons += (TABLE_BUTTON,) if launch else ()
    controls = LobbyControls(record.id, buttons if playing else ())
    # The result's Review button, as in a server: its answer is the clicker's own review,
    # privately, and its pages turn through their clicks' answers alone; and its Rematch.
    review = result.view.controls if result is not None else None
    return laid_out(
        layout_tail(groups, MAX_LAID_OUT),
        controls=review if isinstance(review, ReviewPages | ResultControls) else controls,
        board=board,
        framed=current.style is Style.FRAMED,
    )


def unreadable_table(record: GameRecord) -> tuple[Owed, ...]:
    """The table of an ended game whose snapshot cannot be read. One that ended without a
    result (``end_note``: expired, cancelled) says how it was set up and how it ended, with no
    controls, laid out as the dealt table was (Discord edits a laid-out message only into
    another); one that ended with its result on the table is left as it was sent."""
    if record.end_note is None:
        return ()
    closed = LobbyControls(record.id, ())
    view = laid_out([(lobby_view(record).content,), (record.end_note,)], controls=closed)
    return (Owed(TABLE, view, way=Through.TOKENS),)


def private_owed(
    record: GameRecord,
    loaded: Loaded | None,
    settled: tuple[Owed, ...],
    hands: Mapping[int, MessageView],
    *,
    launch: bool = False,
    earlier: Collection[int] = (),
) -> tuple[Owed, ...]:
    """What a private table's messages should show: the table (the lobby until the deal) and
    each person's hand of the current deal (``hands``, by seat), edited only where a live
    token reaches it. ``settled``: the messages a server's channel would get of the game (and
    the final tables of ``earlier``: the deals the table shown may have missed the end of,
    shown above the current one); ``launch``: the Activity is on (*Play at the table* on the
    lobby and the table)."""
    if loaded is None:
        # (The lobby as a server's channel would show it: a rematch's says its series.)
        view = next(o.view for o in settled if o.key == TABLE)
        if record.end_note:
            view = MessageView(f"{view.content}\n\n{record.end_note}", controls=view.controls)
        return (Owed(TABLE, view, order=0, way=Through.TOKENS),)
    table = _table_view(record, settled, launch, earlier)
    owed = [Owed(TABLE, table, order=0, way=Through.TOKENS, closed=moved_on(record, table))]
    deal = loaded.game.state.deal_number
    for seat in _people(record):
        hand = hands.get(seat.seat)
        if hand is not None:
            key, *before = _hand_keys(deal, seat.seat)
            owed.append(
                Owed(
                    key,
                    hand,
                    seat.user_id,
                    order=1,
                    way=Through.TOKENS,
                    fallbacks=tuple(before),
                )
            )
    return tuple(owed)


def moved_on(record: GameRecord, table: MessageView) -> MessageView:
    """What an older copy of the table shows once a token reaches it: the table as it is,
    without its controls, saying that it moved (a copy posted again below it carries on)."""
    closed = LobbyControls(record.id, ())
    if table.layout:
        groups = (*layout_tail(table.layout, MAX_LAID_OUT - len(MOVED_ON)), (MOVED_ON,))
        return relaid(table, groups, controls=closed, mentions=())
    text = text_tail(table.content, MAX_MESSAGE - len(MOVED_ON) - 2)
    return MessageView(f"{text}\n\n{MOVED_ON}", controls=closed, board=table.board)


def turn_mentions(
    record: GameRecord,
    loaded: Loaded,
    sent: Mapping[MessageKey, MessageRecord],
    now: float,
    asked: Collection[MessageKey] = (),
) -> tuple[int, ...]:
    """The people the table waits on whose hand no live token reaches (they never opened it,
    this deal or one before, or their last interaction with it is too old): the table
    mentions them. A hand of a deal before whose token lives carries the new deal's hand, so
    its player is not awaited at the table. Nor is a player whose hand they just asked for
    (``asked``, by key): its answer is on its way, and may be in front of them already (the
    bot hears that it went a moment after Discord shows it), so the mention is drawn from
    what is certain, never from what has not been heard back yet."""
    game = loaded.game
    if record.status is not GameStatus.ACTIVE or game.state.phase is Phase.OVER:
        return ()
    deal = game.state.deal_number
    waiting: list[int] = []
    for seat in _people(record):
        if not owes_move(game, seat.seat):
            continue
        if hand_carrier(sent, deal, seat.seat, now) is not None:
            continue  # (their hand of this deal, or of one before, which carries it)
        if any(key in asked for key in _hand_keys(deal, seat.seat)):
            continue  # (on its way to them)
        assert seat.user_id is not None
        waiting.append(seat.user_id)
    return tuple(waiting)


def _call(users: tuple[int, ...]) -> str:
    """The line that calls ``users`` to the table (it waits on them)."""
    who = " ".join(f"<@{u}>" for u in users)
    return f"{who} — your turn: press **Your hand**."


def wake_calls(
    record: GameRecord, loaded: Loaded, called: tuple[int, ...], now: float, remind_after: float
) -> tuple[list[Owed], float | None]:
    """The table's call to each of ``called`` (:func:`turn_mentions`) posted as a message of
    its own, once a turn, once the table has waited on them ``remind_after`` seconds (see the
    module: an edit's mention may notify nobody); and when that falls due, if later."""
    if not called:
        return [], None
    due = record.updated_at + remind_after
    if now < due:
        return [], due
    turn = turn_name(record, loaded.game)
    return [
        Owed(
            MessageKey.of(AWAY, turn, seat.seat),
            MessageView(_call((seat.user_id,)), mentions=(seat.user_id,)),
            once=True,
            order=2,
            way=Through.TOKENS,
        )
        for seat in _people(record)
        if seat.user_id in called and seat.user_id is not None
    ], None


def table_calls(
    record: GameRecord,
    loaded: Loaded,
    sent: Mapping[MessageKey, MessageRecord],
    table: MessageView,
    called: tuple[int, ...],
    now: float,
) -> tuple[MessageView, tuple[int, ...]]:
    """The table ``table`` with its line naming ``called`` (:func:`turn_mentions`), and whom
    the table's own message notifies: when it goes as a new message (no live token reaches the
    one shown, so the next interaction posts it again), or is the one so posted, each named
    whom no call of their own named yet this turn (``away:<turn>:<seat>``). A new message
    notifies whom it mentions, an edit may notify no one (see the module): posted again, the
    table is the call, and no other message is posted for them this turn (each person
    notified once, by one message)."""
    quiet = with_mentions(table, called, notify=False)
    if not called:
        return quiet, ()
    turn = turn_name(record, loaded.game)
    seats = {s.user_id: s.seat for s in _people(record)}
    unsaid = tuple(
        user
        for user in called
        if user in seats and MessageKey.of(AWAY, turn, seats[user]) not in sent
    )
    calling = with_mentions(table, called, notify=unsaid)
    shown = sent.get(TABLE)
    anew = shown is None or not live(shown, now)
    if unsaid and (anew or (shown is not None and shown.digest == calling.digest())):
        return calling, unsaid
    return quiet, ()


def with_mentions(
    view: MessageView, users: tuple[int, ...], *, notify: bool | tuple[int, ...] = True
) -> MessageView:
    """The table with a line that mentions each of ``users`` (the table waits on them), which
    notifies them (``notify``: all, none, or those given: :func:`table_calls`; an edit
    notifies none of them anyway, and :func:`wake_calls` calls them once a turn)."""
    if not users:
        return view
    line = _call(users)
    pinged = users if notify is True else () if notify is False else notify
    if view.layout:
        groups = (*layout_tail(view.layout, MAX_LAID_OUT - len(line)), (line,))
        return relaid(view, groups, mentions=pinged)
    text = view.content
    if len(text) + len(line) + 2 > MAX_MESSAGE:
        text = text_tail(text, MAX_MESSAGE - len(line) - 2)
    return MessageView(
        f"{text}\n\n{line}", controls=view.controls, board=view.board, mentions=pinged
    )
