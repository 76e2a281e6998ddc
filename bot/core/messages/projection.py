"""Every message a game owns, drawn from the stored game: what each should show right now.

The Discord layer calls :func:`project` whenever a game may have changed (after a move, on a
timer, at start-up) and makes Discord match: it posts what was never sent, edits what shows
something else, posts ``once`` messages a single time. Nothing here sends or stores; the same
stored game always projects the same messages (``now`` only decides which turn reminders are
due), so a message lost to a crash is simply found missing and sent again.

The channel gets the lobby, one table message per deal (kept for the current deal and the one
before, whose end may still have to be drawn; a deal too long for one message leaves out its
plays that scored nothing, never moves its show to another), and the result; each person gets
one hand message per deal by DM.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.core.base.delivery import Owed
from bot.core.base.keys import AWAY, DM_CLOSED, ENDED, LEFT, LOBBY, REMIND, RESULT, MessageKey
from bot.core.base.text import Names, escape
from bot.core.base.views import (
    MAX_LAID_OUT,
    TABLE_BUTTON,
    BoardPicture,
    Controls,
    LobbyControls,
    MessageView,
    ResultControls,
    ReviewPages,
    laid_out,
)
from bot.core.deck.seeded import UNSEALED, Seal, seal_of
from bot.core.games.chances import chances
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Loaded
from bot.core.games.lobby import lobby_view
from bot.core.games.records import GameRecord, GameStatus, SeatRecord
from bot.core.games.series import again_of
from bot.core.messages.hand import (
    GAME_ENDED,
    closed_hand_text,
    coach_text,
    dms_closed_notice,
    ended_text,
    hand_text,
    moved_on_text,
    reminder_done,
    turn_reminder,
)
from bot.core.messages.lesson import LessonNotes, coach_for, lesson_end, lesson_notes
from bot.core.messages.prompts import hand_controls
from bot.core.messages.table import (
    DealText,
    deal_layout,
    deal_text,
    fits_whole,
    result_line,
)
from engine.cards import Card
from engine.events import Dealt, Shown
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.players.win_chance import holds
from engine.seen import crib_shown
from engine.views import PublicView

__all__ = [
    "Projection",
    "TableFacts",
    "board_at",
    "board_of",
    "deal_chances",
    "deal_seal",
    "final_tables",
    "hand_message",
    "hand_view",
    "in_order",
    "noticed",
    "owes_move",
    "page_line",
    "project",
    "settled",
    "turn_name",
]

#: Where each kind of channel message goes among the others (lower first).
_LOBBY, _TABLE, _NOTICE, _RESULT, _ENDED = 0, 10, 1000, 2000, 2100


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What, besides the game, decides the messages: ``refused`` maps a seat to the deal in
    which its DMs were first refused (no more DMs to it for the rest of the game: its hands
    and reminders are the channel's and ``/cribbage hand``'s), ``coach_off`` the users who
    turned the coach off, ``now`` and ``remind_after`` (seconds a person may take before being
    reminded that the table waits for them), ``departed``: the seats whose player has left
    the game's server (the channel is told once; they get no reminders), and ``noticed``: the
    seats each of the channel's notices of the current deal sent already named
    (:func:`noticed`)."""

    # A refusal holds for the whole game, not a deal: each DM tried again would be one more
    # 403, and Discord counts every 401, 403 and 429 toward its invalid-request limit (10,000
    # in 10 minutes from one IP address, past which Cloudflare bars the address from the API
    # for a while: Rate Limits, "Invalid Request Limit"), which all of a bot's games share.
    # DMs opened again count from the player's next game (its refusals start afresh).
    refused: Mapping[int, int]
    coach_off: frozenset[int]
    now: float
    remind_after: float
    departed: frozenset[int] = frozenset()
    noticed: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Projection:
    """The messages a game owes, and when to look again (a reminder falls due), if ever."""

    owed: tuple[Owed, ...]
    check_at: float | None


def board_at(
    view: PublicView,
    pegs: Sequence[tuple[int, int]],
    dealer: int,
    winner: int | None,
    said: tuple[str, ...] | None = None,
    *,
    next_deal: bool = False,
) -> BoardPicture:
    """The board with ``pegs`` (per side: front and back) as they stand, ``dealer`` the
    dealer's seat (with ``next_deal``, the seat that deals next), ``winner`` the winning
    side, if any, and ``said`` the chances to win."""
    names = Names.of(view)
    return BoardPicture(
        tuple(names.typed_side(side) for side in range(len(pegs))),
        tuple(pegs),
        view.target,
        # The game's own rule: a game saved before it was an option is on the skunk scale.
        "lurch" if view.scoring == Scoring.LURCH else "skunk",
        dealer=view.sides[dealer],
        winner=winner,
        partners=names.partners,
        chances=said,
        next_deal=next_deal,
    )


def board_of(log: DealLog, view: PublicView) -> BoardPicture:
    """The board as the pegs stand now."""
    winner = view.result.winner if view.result is not None else None
    return board_at(view, log.pegs, view.dealer, winner)


def _deal_board(
    log: DealLog, view: PublicView, deal: int, said: tuple[str, ...] | None = None
) -> BoardPicture | None:
    """The board as ``deal``'s show left it (None when that moment is not kept): the table of
    a deal keeps it while the next deal moves the pegs on (``said``: the chances then, which
    are worked out for the next deal, so the board names its dealer as the one who deals
    next, in the picture and in its words)."""
    if deal == log.deal:
        return board_of(log, view)
    pegs = log.pegs_after(deal)
    following = _dealt(log, deal + 1)
    if pegs is None or following is None:
        return None
    return board_at(view, pegs, following.dealer, None, said, next_deal=True)


def _dealt(log: DealLog, deal: int) -> Dealt | None:
    return next((e for e in log.events(deal) if isinstance(e, Dealt)), None)


def deal_chances(log: DealLog, view: PublicView, deal: int) -> tuple[str, ...] | None:
    """Each side's chance to win as ``deal``'s show left the scores, with the next deal's
    dealer to deal (:mod:`bot.core.games.chances`): only once the next deal has begun (so the show
    is over, and the game too was not), and only where the tables hold for the game's rules
    (two players)."""
    if deal >= log.deal or not holds(view.rules):
        return None
    pegs, dealt = log.pegs_after(deal), _dealt(log, deal + 1)
    if pegs is None or dealt is None:
        return None
    return chances([front for front, _back in pegs], view.target, view.sides[dealt.dealer])


def _coach(log: DealLog, deal: int, seat: int, record: GameRecord) -> str | None:
    line = log.coach.get(seat) if log.coach_deal == deal else None
    if line is None:
        return None
    return coach_for(record, coach_text(deal, line))


def hand_view(loaded: Loaded, seat: int, *, coach: bool = True) -> MessageView:
    """A person's hand message for the current deal, with the controls for what they may do
    (the coach's line about the deal before on top, unless ``coach`` is off)."""
    game, record, log = loaded.game, loaded.record, loaded.log
    view = game.view(seat)
    if record.status in (GameStatus.CANCELLED, GameStatus.EXPIRED):
        return laid_out(((ended_text(record.channel_id, record.end_note),),))
    if game.state.phase is Phase.OVER:
        # The last word on the game: the coach's line on its last show, or (the game ended
        # before that show) the line on the deal before, which this message carried already.
        deal = view.deal_number
        said = (
            (_coach(log, deal, seat, record) or _coach(log, deal - 1, seat, record))
            if coach
            else None
        )
        kept = _kept(log, view.deal_number, seat)
        result = game.state.result
        ending = None
        if result is not None:
            ending = result_line(Names.of(game.public_view()), result, record.ended(game))
        closed = closed_hand_text(
            record.channel_id,
            view.deal_number,
            kept,
            said,
            ending,
            private=record.seating.hands_beside_table,
        )
        return laid_out(((closed,),), controls=_hand_rematch(record))
    said = _coach(log, view.deal_number - 1, seat, record) if coach else None
    return laid_out(
        ((hand_text(view, record.channel_id, said, private=record.seating.hands_beside_table),),),
        controls=hand_controls(view, record),
    )


def _kept(log: DealLog, deal: int, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` kept in ``deal``, as its show said (empty if it never showed)."""
    for event in log.events(deal):
        if isinstance(event, Shown) and event.seat == seat and not event.crib:
            return event.cards
    return ()


def _tables(
    record: GameRecord,
    game: Game,
    log: DealLog,
    ratings: str = "",
    seeds: Sequence[str] | None = None,
    reviewable: bool = False,
    link: str | None = None,
    launch: bool = False,
    series: str = "",
    continues: str = "",
    *,
    deals: Collection[int] | None = None,
) -> list[Owed]:
    """Each deal's table the log keeps (``deals``: only these), and the result once there is
    one."""
    names = Names.of(game.public_view())
    view = game.public_view()
    # A game ended without being played out (cancelled, expired, a tournament's forfeit):
    # its last deal's table says so instead of what it was waiting for.
    stopped = record.status in (GameStatus.CANCELLED, GameStatus.EXPIRED)
    closing = (record.end_note or GAME_ENDED.capitalize()) if stopped else None
    over = game.state.phase is Phase.OVER or stopped
    ended = record.ended(game)
    owed: list[Owed] = []
    for deal in sorted(d for d in log.deals if d >= 1 and (deals is None or d in deals)):
        live = deal == game.state.deal_number and not over
        odds = deal_chances(log, view, deal)
        seal = deal_seal(game, log, seeds, deal)
        text = deal_text(
            names,
            log.events(deal),
            view,
            live=live,
            opening=log.events(0) if deal == 1 else (),
            ended=ended,
            chances=odds,
            seal=seal,
            closing=closing if deal == game.state.deal_number else None,
        )
        # The deal the game ended in leaves the board to the result, below it: one picture.
        board = _deal_board(log, view, deal, odds) if text.show and not text.result else None
        order = _TABLE + 2 * deal
        # One message per deal, whatever its length: the show never moves to another. The
        # game's page is its last line, a part of its own (angle brackets: a link without
        # Discord's preview under it).
        ending = () if link is None else ((page_line(link),),)
        # A game of a series says it on each deal's table, as its lobby does (as it stood
        # when the game was opened: the same on every table, from the first deal to the last).
        if continues:
            ending = ((continues,), *ending)
        room = MAX_LAID_OUT - sum(len(t) + 1 for group in ending for t in group)
        # While the Activity is on, the live deal's table opens it (*Play at the table*).
        table = LobbyControls(record.id, (TABLE_BUTTON,)) if launch and live else None
        sealed = seal is not None and seal.seal is not None
        notes = (
            lesson_notes(log.events(deal), deal, log.firsts, sealed=sealed)
            if record.in_lesson
            else None
        )
        view_now = laid_out(
            (*_noted(text, room, notes), *ending), board=board, framed=True, controls=table
        )
        owed.append(Owed(MessageKey.table(deal), view_now, order=order))
        if text.result and deals is None:
            # A lesson's result says the rules it never met, and points at what to play next.
            after = (lesson_end(log.firsts),) if record.in_lesson else ()
            final = laid_out(
                ((text.result,), (series,), (ratings,), *after),
                board=board_of(log, view),
                controls=_result_controls(record, reviewable),
            )
            owed.append(Owed(RESULT, final, order=_RESULT))
    return owed


def final_tables(
    record: GameRecord,
    loaded: Loaded,
    told: DealLog,
    deals: Collection[int],
    *,
    link: str | None = None,
) -> list[Owed]:
    """The final tables of ``deals``, drawn as the game's log ``told`` them (the game told
    again, every deal kept: :mod:`bot.core.messages.finals`): each as it was drawn once the
    next deal was dealt, and has been since."""
    return _tables(record, loaded.game, told, seeds=loaded.seeds, link=link, deals=deals)


def _noted(text: DealText, room: int, notes: LessonNotes | None) -> tuple[tuple[str, ...], ...]:
    """A deal's table laid out within ``room``, with a lesson's ``notes`` (None: not a
    lesson) after its play and after its show: the rules first met in the deal, beside it.
    The notes give way before the calls: while the deal and the notes do not fit, the longest
    note whole is said in short (a first deal meets most rules, and a long play, a tie in the
    cut or his heels can leave too little room for them all)."""
    if notes is None:
        return deal_layout(text, room)
    while not fits_whole(text, room - notes.size):
        shorter = notes.shorter()
        if shorter is None:
            break
        notes = shorter
    play, show = ("\n".join(notes.play),), ("\n".join(notes.show),)
    first, *rest = deal_layout(text, room - notes.size)
    return tuple(g for g in (first, play, *rest, show) if any(g))


def _result_controls(record: GameRecord, reviewable: bool) -> Controls | None:
    """A result's buttons: *Review* where the game can be dealt again (its shuffles kept), and
    *Rematch* (or *Play again*) where it offers one (:func:`~bot.core.games.series.again_of`)."""
    again = again_of(record)
    if again is not None:
        return ResultControls(record.id, again, review=reviewable)
    return ReviewPages(record.id, 0, 0, 0) if reviewable else None


def _hand_rematch(record: GameRecord) -> Controls | None:
    """A finished game's last hand message's button: the *Rematch* (or *Play again*) its
    result offers (:func:`~bot.core.games.series.again_of`), pressed from the DM the player
    played in; none where the hands are beside the table (a private table's, whose table
    offers it, or a lesson's)."""
    again = again_of(record)
    if again is None or record.seating.hands_beside_table:
        return None
    return ResultControls(record.id, again, review=False, hand=True)


def page_line(link: str) -> str:
    """The table's line that links to the game's page in the browser."""
    return f"Watch or replay in the browser: <{link}>"


def deal_seal(game: Game, log: DealLog, seeds: Sequence[str] | None, deal: int) -> Seal | None:
    """What the table shows of ``deal``'s shuffle: its seal, and its seed once every hand and
    the crib of the deal have been shown (the next deal was dealt, or the game ended after
    the crib's show); :data:`~bot.core.deck.seeded.UNSEALED` for a game begun before shuffles were
    sealed."""
    if deal < 1:
        return None
    if seeds is None:
        return UNSEALED
    at = len(game.state.cut_rounds) + deal - 1
    if at >= len(seeds):
        return None
    seed = seeds[at]
    # (A deal before the current one was shown through: the next is dealt after its crib.)
    shown = deal < game.state.deal_number or crib_shown(log.events(deal))
    return Seal(seal_of(seed), seed if shown else None)


def owes_move(game: Game, seat: int) -> bool:
    """Whether the table waits on ``seat`` to move (discard, play, or count)."""
    if game.state.phase is Phase.DISCARD:
        return seat in game.pending_discards()
    if game.state.phase is Phase.SHOW:
        turn, window = game.count_turn, game.state.muggins_window
        if turn is None or turn.seat != seat:
            return False
        sides = [game.side_of(other) for other in range(game.state.num_players)]
        return window is None or not window.holds(seat, sides)
    return game.state.phase is Phase.PLAY and game.state.turn == seat


def hand_message(loaded: Loaded, seat: int, deal: int, *, coach: bool = True) -> MessageView:
    """What the hand message of ``seat`` for ``deal`` shows now: the current deal's hand (see
    :func:`hand_view`), or, for a deal before (one the log keeps), what the seat kept. (The
    coach's line on that deal rides on the next deal's hand message alone, so it is said
    once.)"""
    if deal == loaded.game.state.deal_number:
        return hand_view(loaded, seat, coach=coach)
    kept = _kept(loaded.log, deal, seat)
    record = loaded.record
    return laid_out(
        (
            (
                closed_hand_text(
                    record.channel_id, deal, kept, private=record.seating.hands_beside_table
                ),
            ),
        )
    )


def _hands(record: GameRecord, loaded: Loaded, facts: TableFacts) -> list[Owed]:
    """Each person's hand message for this deal (once the game is over, brought up to date
    only if it was sent, unless it offers the rematch; only its private copies, once their
    DMs were refused in the game) and for each deal before it that the log keeps (closed,
    only if it was sent)."""
    game, log = loaded.game, loaded.log
    deal = game.state.deal_number
    over = game.state.phase is Phase.OVER or record.status is not GameStatus.ACTIVE
    # A game over owes a hand that never went out (resigned before the deal's DMs did) only
    # where it offers the rematch: the player was told their hand was on its way, and it is
    # their last word on the game and their way to the next from their DMs.
    existing = over and _hand_rematch(record) is None
    owed: list[Owed] = []
    for seat in _people_seats(record):
        user = seat.user_id
        assert user is not None
        coach = user not in facts.coach_off
        # (The deal before's hand's private copies follow the player into this deal's.)
        before = (MessageKey.hand(deal - 1, seat.seat),) if deal > 1 else ()
        hand = hand_message(loaded, seat.seat, deal, coach=coach)
        refused = seat.seat in facts.refused
        # An older private copy of the hand (the player answered again since) is closed
        # saying that it moved on, with no controls: it is not kept up to date after that.
        closed = laid_out(((moved_on_text(record.channel_id, deal),),))
        owed.append(
            Owed(
                MessageKey.hand(deal, seat.seat),
                hand,
                user,
                existing=existing,
                fallbacks=before,
                superseded=closed,
                mirrors_only=refused,
            )
        )
        for finished in range(deal - 1, 0, -1):
            if finished not in log.deals:
                break
            # Owed while the game goes on and once it is over, for as long as the deal is
            # kept: a resignation or pegging out soon after the deal may come before the
            # sender closed the deal before, and a closing held up by the DM's pacing while
            # quick players finish the next deal is still sent after it.
            closed = hand_message(loaded, seat.seat, finished, coach=coach)
            key = MessageKey.hand(finished, seat.seat)
            owed.append(Owed(key, closed, user, existing=True, last=True))
    return owed


def _reminders(
    record: GameRecord, game: Game, facts: TableFacts
) -> tuple[list[Owed], float | None]:
    """A short reminder for each person the table has waited on for ``remind_after`` (by DM: one
    message a deal, brought up to date for each turn it reminds of; or a mention in the channel
    once their DMs were refused in the game, once per turn); and when the next one falls due."""
    owed: list[Owed] = []
    due = record.updated_at + facts.remind_after
    waiting = [
        s for s in _people_seats(record) if owes_move(game, s.seat) and s.seat not in facts.departed
    ]
    if not waiting:
        return owed, None
    if facts.now < due:
        return owed, due
    deal = game.state.deal_number
    turn = turn_name(record, game)
    for seat in waiting:
        user = seat.user_id
        assert user is not None
        if seat.seat in facts.refused:
            text = f"<@{user}>, the table is waiting for you — use `/cribbage hand`."
            view = MessageView(text, mentions=(user,))
            owed.append(
                Owed(MessageKey.of(AWAY, turn, seat.seat), view, once=True, order=_NOTICE + 1)
            )
        else:
            # One reminder a deal: the first is posted (a DM the player is told of), any
            # later one in the deal edits it to what the table waits for now, so reminders
            # never pile up as DMs saying the same.
            text = turn_reminder(game.view(seat.seat), record.channel_id)
            owed.append(Owed(MessageKey.of(REMIND, deal, seat.seat), MessageView(text), user))
    return owed, None


def turn_name(record: GameRecord, game: Game) -> str:
    """What names the turn ``record``'s game waits on now, for a call that is made once a turn:
    the deal's crib (everyone's one turn), a count (one turn however often the version moves
    meanwhile: a muggins window closing), else the version."""
    deal = game.state.deal_number
    if game.count_turn is not None:
        return f"c{deal}{'c' if game.count_turn.crib else 'h'}"
    return f"d{deal}" if game.state.phase is Phase.DISCARD else f"v{record.version}"


def _reminders_done(record: GameRecord, game: Game, facts: TableFacts) -> list[Owed]:
    """Every turn reminder sent this deal or the one before whose turn is over (the player moved,
    the clock moved for them, or the game ended), brought up to date by an edit: never posted."""
    owed: list[Owed] = []
    deal = game.state.deal_number
    active = record.status is GameStatus.ACTIVE
    view = MessageView(reminder_done(record.channel_id))
    for seat in _people_seats(record):
        if seat.seat in facts.refused:
            continue  # their DMs are closed: the channel's notices stand in for reminders
        waiting = active and owes_move(game, seat.seat) and seat.seat not in facts.departed
        for reminded in (deal - 1, deal):
            if reminded >= 1 and not (waiting and reminded == deal):
                key = MessageKey.of(REMIND, reminded, seat.seat)
                owed.append(Owed(key, view, seat.user_id, existing=True))
    return owed


def _dm_notices(record: GameRecord, game: Game, facts: TableFacts) -> list[Owed]:
    """The channel's notice of this deal to the players whose DMs were refused in the game and
    are still at the table: one post naming them all, its mentions pinging each (a deal's
    hands are behind ``/cribbage hand`` for them). A refusal learnt after the deal's notice
    went (the deal's first DMs are refused one by one) gets a notice of its own: a mention
    added by an edit pings no one, so a notice is posted once and never edited. (The notices
    already sent are owed as they were, drawn again from the seats their keys name.)"""
    if record.status is not GameStatus.ACTIVE or game.state.phase is Phase.OVER:
        return []
    users = {s.seat: s.user_id for s in _people_seats(record)}
    named = {seat for group in facts.noticed for seat in group}
    waiting = tuple(
        seat
        for seat in sorted(users)
        if seat in facts.refused and seat not in named | facts.departed
    )
    owed = []
    for seats in (*facts.noticed, *((waiting,) if waiting else ())):
        mentions = tuple(u for u in (users.get(seat) for seat in seats) if u is not None)
        view = MessageView(dms_closed_notice(mentions), mentions=mentions)
        key = MessageKey.of(DM_CLOSED, game.state.deal_number, *seats)
        owed.append(Owed(key, view, once=True, order=_NOTICE))
    return owed


def noticed(sent: Collection[MessageKey], deal: int) -> tuple[tuple[int, ...], ...]:
    """The seats that each of the channel's notices of ``deal`` to players with closed DMs
    named, as the keys of what was ``sent`` say (:data:`~bot.core.base.keys.DM_CLOSED`)."""
    return tuple(
        sorted(
            tuple(seat for seat in key.parts[1:] if isinstance(seat, int))
            for key in sent
            if key.name == DM_CLOSED and key.parts[:1] == (deal,) and key.copy is None
        )
    )


def _departures(record: GameRecord, departed: frozenset[int]) -> list[Owed]:
    """The channel's notice, once, for each player who has left the server: the table cannot
    finish without them, and a moderator can end the game."""
    owed = []
    for seat in sorted(departed):
        name = escape(record.seats[seat].name)
        text = (
            f"**{name}** is no longer a member of this server, so this game can't go on. "
            "A moderator can end it with `/cribbage cancel` (no result is recorded)."
        )
        owed.append(
            Owed(MessageKey.of(LEFT, seat), MessageView(text), once=True, order=_NOTICE + 2)
        )
    return owed


def _people_seats(record: GameRecord) -> list[SeatRecord]:
    return [s for s in record.seats if not s.is_computer and s.user_id is not None]


def project(
    record: GameRecord,
    loaded: Loaded | None,
    facts: TableFacts,
    drawn: tuple[Owed, ...] | None = None,
) -> Projection:
    """Every message ``record``'s game owes now (``loaded``: the game, once it has started;
    ``drawn``: :func:`settled` for it, if already at hand)."""
    owed = list(
        drawn
        if drawn is not None
        else settled(record, loaded, facts.refused, facts.coach_off, departed=facts.departed)
    )
    check_at = None
    if loaded is not None and record.status is GameStatus.ACTIVE:
        owed += _dm_notices(record, loaded.game, facts)
        reminders, check_at = _reminders(record, loaded.game, facts)
        owed += reminders
    if loaded is not None and record.status is not GameStatus.LOBBY:
        owed += _reminders_done(record, loaded.game, facts)
    return Projection(in_order(owed), check_at)


def in_order(owed: Sequence[Owed]) -> tuple[Owed, ...]:
    """``owed`` in sending order: the channel's messages first, each in its place (a deal's
    table in its deal's), then the DMs."""
    return tuple(sorted(owed, key=lambda o: (o.user_id is not None, o.order)))


def settled(
    record: GameRecord,
    loaded: Loaded | None,
    refused: Mapping[int, int],
    coach_off: frozenset[int],
    ratings: str = "",
    *,
    departed: frozenset[int] = frozenset(),
    link: str | None = None,
    launch: bool = False,
    series: str = "",
    continues: str = "",
) -> tuple[Owed, ...]:
    """The messages that depend on the stored game alone, not on the time: the same for one
    version of the game (and the same refusals, coach settings and departures), so they can
    be kept. ``ratings`` is the line of rating changes a finished game's result ends with;
    ``link``, the game's page, is on each table message when there is one; ``launch``: the
    Activity is on, so the lobby and the live deal's table offer *Play at the table*;
    ``series``: the line of the series a result says, with its game; ``continues``: the line
    of the series the game continues, as it stood at its opening, on its lobby and every
    deal's table (unchanged from the lobby to the end: no message is edited for it)."""
    facts = TableFacts(refused, coach_off, 0.0, 0.0, departed)
    owed = [Owed(LOBBY, lobby_view(record, launch=launch, series=continues), order=_LOBBY)]
    if loaded is not None:
        reviewable = loaded.shuffles is not None and bool(_people_seats(record))
        owed += _tables(
            record,
            loaded.game,
            loaded.log,
            ratings,
            loaded.seeds,
            reviewable,
            link,
            launch,
            series,
            continues,
        )
        owed += _hands(record, loaded, facts)
    if record.is_open:
        owed += _departures(record, departed)
    if record.end_note:
        owed.append(Owed(ENDED, MessageView(record.end_note), once=True, order=_ENDED))
    return tuple(owed)
