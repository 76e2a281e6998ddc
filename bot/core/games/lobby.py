"""The lobby: who may sit, leave, add or remove a computer and start, and what it shows.

Pure functions of a game record: each returns the seats the table would have after the change,
or raises :class:`~bot.core.base.refusals.Refused`; the service stores the change. The lobby
message's words (:func:`lobby_text`), and the table's kind and sides in words (:func:`table_kind`,
:func:`teams_text`, :func:`partners_text`), are here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from bot.core.base import refusals
from bot.core.base.refusals import Refused
from bot.core.base.replies import TableAsked, User
from bot.core.base.text import and_list, escape, plural
from bot.core.base.views import (
    HAND_BUTTON,
    LOBBY_ACTIONS,
    RESIGN_BUTTON,
    TABLE_BUTTON,
    LobbyAction,
    LobbyControls,
    MessageView,
)
from bot.core.games.computer import LEVELS, computer_name, level_note
from bot.core.games.records import GameRecord, GameStatus, Options, SeatRecord, occasion_words
from bot.core.games.rules_help import RULE_NAMES as _RULE_NAMES
from engine.counting import Counting
from engine.outcome import Scoring
from engine.rules import Rules
from engine.variants import (
    FIVE_HAND,
    SIX_HAND,
    SIX_HAND_PAIRS,
    STANDARD,
    UnknownVariant,
    Variant,
    named,
    title_unless_standard,
)

__all__ = [
    "TEAMS",
    "Table",
    "check_cancel",
    "check_start",
    "fill_with_computers",
    "lobby_text",
    "lobby_view",
    "offered",
    "options_of",
    "partners_text",
    "seat_added",
    "seats_adding_computer",
    "seats_changing_partners",
    "seats_joining",
    "seats_leaving",
    "seats_removing_computer",
    "table_asked",
    "table_kind",
    "teams_text",
]

#: How a lobby says its opener allowed hints (after its other options; who may ask for one
#: is :mod:`bot.core.messages.hinting`'s to say).
HINTS_ALLOWED = "hints allowed"

#: The six-player table's layouts (``/cribbage new teams:``), by the variant that seats them.
TEAMS: dict[str, Variant] = {"threes": SIX_HAND, "pairs": SIX_HAND_PAIRS}


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """What ``/cribbage new`` asked for, made whole: the variant, its players and target."""

    variant: Variant
    players: int
    target: int


def table_asked(
    *,
    variant: str | None = None,
    players: int | None = None,
    target: int | None = None,
    teams: str | None = None,
    scoring: str = Scoring.LURCH,
) -> Table:
    """The table ``/cribbage new`` opens, from what was asked (None: not asked): the variant
    named, else the one the players make (five: five-hand; six: six-hand, in ``teams`` of
    three or, with ``teams:pairs``, of two; else the standard game); its usual players and
    default target unless asked. Raises :class:`Refused` with one sentence for a combination
    the variant does not offer (seven-card cribbage for three, five-card to 121, the skunk
    scale at 181, ``teams`` at a table that is not of six)."""
    if teams is not None and teams not in TEAMS:
        raise Refused(refusals.BAD_TEAMS)
    if teams is not None and players is not None and players not in SIX_HAND.seats:
        raise Refused(refusals.TEAMS_ALONE)
    if variant is not None:
        try:
            chosen = named(variant)
        except UnknownVariant as unknown:
            raise Refused(str(unknown)) from None
        if chosen is SIX_HAND and teams is not None:
            # Six-hand names the deal; `teams` the layout (threes, or pairs).
            chosen = TEAMS[teams]
    elif teams is not None:
        chosen = TEAMS[teams]
    elif players in FIVE_HAND.seats:
        chosen = FIVE_HAND
    elif players in SIX_HAND.seats:
        chosen = SIX_HAND
    else:
        chosen = STANDARD
    if teams is not None and TEAMS[teams] is not chosen:
        if chosen not in TEAMS.values():
            raise Refused(refusals.TEAMS_ALONE)
        raise Refused(refusals.teams_clash(chosen.title, teams, TEAMS[teams].name))
    if players is not None and players not in chosen.seats and variant is None:
        raise Refused(refusals.BAD_PLAYERS)
    try:
        chosen.check(players, target, scoring)
    except ValueError as refused:
        raise Refused(str(refused)) from None
    seats = chosen.default_players if players is None else players
    return Table(chosen, seats, chosen.default_target if target is None else target)


def options_of(asked: TableAsked) -> Options:
    """The options of the table ``asked`` for (:func:`table_asked` makes its variant, players
    and target whole), or :class:`Refused` with one sentence for what may not be asked: an
    unknown level, rule for game points or way of counting, or a table the variant does not
    offer."""
    if asked.level not in LEVELS:
        raise Refused(refusals.bad_level(LEVELS))
    if asked.scoring not in tuple(Scoring):
        raise Refused(refusals.BAD_SCORING)
    if asked.counting not in tuple(Counting):
        raise Refused(refusals.BAD_COUNTING)
    table = table_asked(
        variant=asked.variant,
        players=asked.players,
        target=asked.target,
        teams=asked.teams,
        scoring=asked.scoring,
    )
    return Options(
        table.players,
        table.target,
        vs_computer=asked.vs_computer,
        scoring=Scoring(asked.scoring),
        counting=Counting(asked.counting),
        variant=table.variant.name,
        hints=asked.hints,
    )


def lobby_view(
    record: GameRecord,
    state: GameStatus | None = None,
    *,
    launch: bool = False,
    series: str = "",
) -> MessageView:
    """The lobby message of ``record`` as it should read in ``state`` (by default the game's
    own status): open while it is a lobby (``launch``: with *Play at the table*, which opens
    the game's Activity); closed, with no controls, once the game started, was cancelled or
    expired. ``series``: the line of the series a rematch's lobby continues, if it does."""
    state = record.status if state is None else state
    creator = next((s.name for s in record.seats if s.user_id == record.creator_id), None)
    text = lobby_text(
        creator or "someone",
        [s.name for s in record.seats],
        record.options.rules,
        state,
        occasion_words(record.occasion),
        named(record.options.variant),
        kept=[(s.name, s.held_until) for s in record.seats if s.held_until is not None],
        rematch=record.rematch_of is not None,
        series=series,
        hints=record.options.hints,
    )
    seated = {s.level for s in record.seats if s.is_computer and s.level is not None}
    notes = [n for level in sorted(seated) if (n := level_note(level, record)) is not None]
    if notes:
        text += "\n" + "\n".join(notes)
    if state is not GameStatus.LOBBY:
        return MessageView(text, controls=LobbyControls(record.id, ()))
    has_computer = any(s.is_computer for s in record.seats)
    # Partners may be changed once every seat is taken; a full table may take one more
    # player, as far as its variant seats.
    full = len(record.seats) == record.options.num_players
    grows = full and _more(record) is not None
    buttons = tuple(
        b
        for b in LOBBY_ACTIONS
        if (b != "remove_computer" or has_computer)
        and (b != "partners" or (full and record.options.rules.partners))
        and (b != "add_seat" or grows)
        and b not in (HAND_BUTTON, RESIGN_BUTTON)  # (a private table's, once dealt)
        and (b != TABLE_BUTTON or launch)
    )
    # (A seat kept for someone may be free by now: the opener may seat a computer there.)
    free = len(record.seats) < record.options.num_players or any(s.held for s in record.seats)
    levels = LEVELS if free else ()
    return MessageView(text, controls=LobbyControls(record.id, buttons, levels))


def _open(record: GameRecord) -> None:
    if record.status is not GameStatus.LOBBY:
        raise Refused(refusals.ALREADY_STARTED)


def _more(record: GameRecord) -> int | None:
    """The next number of players the game's variant seats beyond its own, if any (the
    standard game: two, three, then four as partners)."""
    return min(
        (n for n in named(record.options.variant).seats if n > record.options.num_players),
        default=None,
    )


def _free_seat(record: GameRecord, now: float) -> int:
    """The seat a newcomer takes at ``now``: the first kept for someone who did not take it
    in time, else the next one; refused when every seat is taken or kept."""
    lapsed = next((s.seat for s in record.seats if s.free_at(now)), None)
    if lapsed is not None:
        return lapsed
    if len(record.seats) < record.options.num_players:
        return len(record.seats)
    kept = next((s for s in record.seats if s.held_until is not None), None)
    if kept is not None and kept.held_until is not None:
        raise Refused(refusals.kept_for(escape(kept.name), kept.held_until))
    opener = next((s.name for s in record.seats if s.user_id == record.creator_id), "")
    title = named(record.options.variant).title
    raise Refused(
        refusals.table_full(
            record.options.num_players, escape(opener) or "The opener", _more(record), title
        )
    )


def _seated(seats: list[SeatRecord], seat: SeatRecord) -> list[SeatRecord]:
    """``seats`` with ``seat`` in its place: one kept for someone taken over, or the next."""
    if seat.seat < len(seats):
        return [seat if s.seat == seat.seat else s for s in seats]
    return [*seats, seat]


def seat_added(record: GameRecord, user: User) -> int:
    """The players a full lobby seats once its opener adds a seat: the next number its
    variant seats (two to three, three to four as partners in the standard game)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.ADD_SEAT_CREATOR)
    if len(record.seats) < record.options.num_players:
        raise Refused(refusals.SEATS_FREE)
    more = _more(record)
    if more is None:
        title = named(record.options.variant).title
        raise Refused(f"{title} seats no more than {record.options.num_players} players.")
    return more


def seats_joining(record: GameRecord, user: User, now: float) -> list[SeatRecord]:
    """``user`` takes the seat kept for them (a rematch's), whenever they come, else the next
    free seat at ``now`` (one kept for someone who did not take it in time, or the next)."""
    _open(record)
    if record.seat_of(user.id) is not None:
        raise Refused(refusals.ALREADY_SEATED)
    kept = record.held_for(user.id)
    seat = kept.seat if kept is not None else _free_seat(record, now)
    return _seated(list(record.seats), SeatRecord(seat, user.id, user.name))


def deals_as_it_fills(record: GameRecord, seats: Sequence[SeatRecord], players: int) -> bool:
    """Whether taking a seat of ``record``'s lobby (``seats`` after it, at a table of
    ``players``) deals at once: a rematch's does as its last seat is taken (its people back
    with one press each, and its options those of the game before: nothing is left to
    choose), where any other lobby waits for a seated player's **Start**."""
    return record.rematch_of is not None and sum(1 for s in seats if not s.held) == players


def seats_leaving(record: GameRecord, user: User, now: float) -> list[SeatRecord]:
    """``user`` gives up their seat (the creator leaving closes the lobby: the service's
    business, since then no seats remain to store); a seat kept for them is free to anyone
    from ``now`` on."""
    if record.status is not GameStatus.LOBBY:
        # (Someone not playing is told so, not to resign a game that is not theirs.)
        if record.seat_of(user.id) is None:
            raise Refused(refusals.NOT_SEATED)
        raise Refused(refusals.LEAVE_STARTED)
    kept = record.held_for(user.id)
    if kept is not None:
        return _seated(list(record.seats), dataclasses.replace(kept, held_until=now))
    if record.seat_of(user.id) is None:
        raise Refused(refusals.NOT_SEATED)
    return _renumber(s for s in record.seats if s.user_id != user.id)


def seats_adding_computer(
    record: GameRecord, user: User, level: str, now: float
) -> list[SeatRecord]:
    """A computer at ``level`` takes the next free seat at ``now`` (the creator's decision: it
    is their table)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.ADD_COMPUTER_CREATOR)
    if level not in LEVELS:
        raise Refused(refusals.bad_level(LEVELS))
    seat = _free_seat(record, now)
    name = computer_name(level, record.seats)
    return _seated(list(record.seats), SeatRecord(seat, None, name, True, level))


def seats_removing_computer(record: GameRecord, user: User) -> tuple[list[SeatRecord], str]:
    """The most recently seated computer leaves (the creator only); also its name."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.REMOVE_COMPUTER_CREATOR)
    computers = [s for s in record.seats if s.is_computer]
    if not computers:
        raise Refused(refusals.NO_COMPUTER)
    gone = computers[-1]
    return _renumber(s for s in record.seats if s.seat != gone.seat), gone.name


def seats_changing_partners(record: GameRecord, user: User) -> list[SeatRecord]:
    """The next pairing of a full table of partners (the creator's choice, as the table is
    theirs): seat 1 keeps its place and everyone else moves one seat to the right, the one
    on its left going to the end. With four that is each of the three pairings in turn
    (A B C D -> A C D B -> A D B C -> A B C D); with six, five ways to make the teams in
    turn, seat 1's partners changing each time (in pairs, seat 1 partners each of the others
    once)."""
    _open(record)
    if user.id != record.creator_id:
        raise Refused(refusals.PARTNERS_CREATOR)
    if not record.options.rules.partners or len(record.seats) != record.options.num_players:
        raise Refused(refusals.PARTNERS_FULL)
    first, second, *rest = record.seats
    return _renumber([first, *rest, second])


def fill_with_computers(record: GameRecord, level: str) -> list[SeatRecord]:
    """Every free seat taken by a computer at ``level`` (a game against the computer)."""
    seats = list(record.seats)
    while len(seats) < record.options.num_players:
        seats.append(SeatRecord(len(seats), None, computer_name(level, seats), True, level))
    return seats


def check_start(record: GameRecord, user: User) -> None:
    """Refuse to deal unless the lobby is open, ``user`` is seated and every seat is taken
    (a seat kept for someone is not, until they take it)."""
    _open(record)
    if record.seat_of(user.id) is None:
        raise Refused(refusals.START_NOT_SEATED)
    missing = record.options.num_players - sum(1 for s in record.seats if not s.held)
    if missing:
        raise Refused(refusals.waiting_for(missing))


def check_cancel(
    record: GameRecord, user: User, *, moderator: bool = False, unreadable: bool = False
) -> None:
    """Refuse unless ``user`` may cancel ``record``'s game now: in the lobby its creator or a
    moderator; once dealt a moderator alone. Outside servers (a DM, a group DM) nobody is a
    moderator, and a player may end a started game whose saved state cannot be read
    (``unreadable``), which cannot go on otherwise."""
    outside = record.guild_id is None
    if moderator or (outside and record.seat_of(user.id) is not None and unreadable):
        return
    # Cancelling records no result: after the deal that would let someone who is losing
    # (against the computer too) walk away from the loss. Outside servers the refusals say
    # what is left.
    if record.status is not GameStatus.LOBBY:
        if record.seat_of(user.id) is None:
            raise Refused(
                refusals.CANCEL_DEALT_OUTSIDE_NOT_PLAYING
                if outside
                else refusals.CANCEL_DEALT_NOT_PLAYING
            )
        raise Refused(refusals.CANCEL_DEALT_OUTSIDE if outside else refusals.CANCEL_DEALT)
    if user.id != record.creator_id:
        raise Refused(refusals.CANCEL_CREATOR_OUTSIDE if outside else refusals.CANCEL_CREATOR)


#: The check behind each lobby button at a moment: what pressing it would be refused for.
_CHECKS: dict[LobbyAction, Callable[[GameRecord, User, float], object]] = {
    "join": seats_joining,
    "leave": seats_leaving,
    "start": lambda r, u, _: check_start(r, u),
    "cancel": lambda r, u, _: check_cancel(r, u),
    "remove_computer": lambda r, u, _: seats_removing_computer(r, u),
    "add_seat": lambda r, u, _: seat_added(r, u),
    "partners": lambda r, u, _: seats_changing_partners(r, u),
}


def offered(record: GameRecord, user: User, now: float = 0.0) -> LobbyControls:
    """The lobby's controls as one person sees them at their own table (the Activity): the
    chat's lobby's buttons (:func:`lobby_view`), in its order, less those its rules would
    refuse this person for (another's table to change, a seat they do not have), and its
    computer menu to whoever may seat one. *Join* stays for anyone not seated, full table or
    not: its refusal says how a full table grows. ``now``: the moment whose free seats count
    (by default, before any seat a rematch keeps is free)."""
    shown = lobby_view(record).controls
    assert isinstance(shown, LobbyControls)

    def allowed(check: Callable[[GameRecord, User, float], object]) -> bool:
        try:
            check(record, user, now)
        except Refused:
            return False
        return True

    seated = record.seat_of(user.id) is not None
    buttons = tuple(
        b
        for b in shown.buttons
        if (b == "join" and not seated) or (b in _CHECKS and allowed(_CHECKS[b]))
    )
    # (Every level is refused or taken alike: the creator's, with a seat free.)
    computers = shown.levels and allowed(
        lambda r, u, at: seats_adding_computer(r, u, LEVELS[0], at)
    )
    return LobbyControls(record.id, buttons, shown.levels if computers else ())


def _renumber(seats: Iterable[SeatRecord]) -> list[SeatRecord]:
    """The remaining seats numbered again from 0, in order, each keeping who sits there."""
    return [dataclasses.replace(seat, seat=i) for i, seat in enumerate(seats)]


# -- the lobby message's words -------------------------------------------------------------
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def partners_text(names: Sequence[str], rules: Rules) -> str:
    """Who partners whom at a full table, by the names given (escaped for a message, plain for
    a page): "Al & Cy against Bea & Dee" (teams of three, "Al & Cy & Eve against …"; three
    teams of two, "… against … against …")."""
    return " against ".join(" & ".join(names[s] for s in side) for side in rules.sides)


def _partners(rules: Rules) -> str:
    """Where partners sit, by seat number: "Partners sit opposite: seats 1 & 3 against 2 &
    4." (three teams of two: "… 1 & 4 against 2 & 5 against 3 & 6."; teams of three sit in
    alternate seats: "Teams sit in alternate seats: 1 & 3 & 5 against 2 & 4 & 6.")."""
    seats = " against ".join(" & ".join(str(s + 1) for s in side) for side in rules.sides)
    half = rules.seats // 2
    opposite = all(len(side) == 2 and side[1] - side[0] == half for side in rules.sides)
    if opposite:
        return f"Partners sit opposite: seats {seats}."
    return f"Teams sit in alternate seats: {seats}."


def teams_text(rules: Rules) -> str | None:
    """How the players are sided, in words, when sides are teams: "two teams of three",
    "three teams of two", "two teams of two" (None: each plays for themselves)."""
    if not rules.partners:
        return None
    count, size = len(rules.sides), max(len(side) for side in rules.sides)
    return f"{_NUMBERS.get(count, str(count))} teams of {_NUMBERS.get(size, str(size))}"


def table_kind(rules: Rules, variant: Variant | None = None) -> str:
    """What a table plays, in a line, as its lobby names it: "Seven-card cribbage, 2 players,
    to 181", "Six-hand cribbage, 6 players in two teams of three, to 121" (the standard game:
    "Cribbage, 4 players in two teams of two, to 121")."""
    title = title_unless_standard(variant) or "Cribbage"
    teams = teams_text(rules)
    players = f"{rules.seats} players" + (f" in {teams}" if teams else "")
    return f"{title}, {players}, to {rules.target}"


#: The last line of a lobby that is no longer open, by what became of the game.
_CLOSED = {
    GameStatus.ACTIVE: "The game has started.",
    GameStatus.FINISHED: "The game has started.",
    GameStatus.CANCELLED: "This game was cancelled.",
    GameStatus.EXPIRED: "This game ended: nobody moved for too long.",
}


def lobby_text(
    creator: str,
    names: Sequence[str],
    rules: Rules,
    state: GameStatus = GameStatus.LOBBY,
    occasion: str | None = None,
    variant: Variant | None = None,
    *,
    kept: Sequence[tuple[str, float]] = (),
    rematch: bool = False,
    series: str = "",
    hints: bool = False,
) -> str:
    """The lobby message of a table playing by ``rules`` (its players, target and options,
    ``hints``: its opener allowed hints,
    and who partners whom) as it reads while the game is in ``state``; it says who opened
    the game (``rematch``: as the rematch of the game before), or what it is played for
    (``occasion``: a tournament's round), and the variant it is played in (``variant``,
    named unless it is the standard game). ``names`` are every seat's, in order; ``kept``,
    the seats among them kept for someone until a time (a rematch's): theirs until then,
    anyone's after. ``series``: the line of the series the game continues."""
    num_players = rules.seats
    waiting = {name for name, _ in kept}
    taken = [n for n in names if n not in waiting]
    seated = ", ".join(escape(n) for n in taken) if taken else "nobody"
    counted = (
        "you count your hands (muggins)" if rules.counting is Counting.MANUAL else "auto counting"
    )
    if hints:
        counted += f", {HINTS_ALLOWED}"
    opened = "Rematch opened" if rematch else "Opened"
    title = title_unless_standard(variant)
    kind = f"{title}, " if title else ""
    head = (
        f"**Cribbage** — {kind}{num_players} players, to {rules.target};"
        f" {_RULE_NAMES[rules.scoring]}, {counted}."
        f" {escape(occasion) if occasion else f'{opened} by {escape(creator)}'}."
    )
    partners = f" {_partners(rules)}" if rules.partners else ""
    lines = [head + partners, f"Seated ({len(taken)}/{num_players}): {seated}"]
    if kept and state is GameStatus.LOBBY:
        lines.append(_kept_line(kept))
    if rules.partners and len(names) == num_players:
        pairs = f"Partners: {partners_text([escape(n) for n in names], rules)}."
        if state is GameStatus.LOBBY:
            pairs += f" {escape(creator)} can press **Change partners** for another pairing."
        lines.append(pairs)
    if series:
        lines.append(series)
    if state is not GameStatus.LOBBY:
        lines.append(_CLOSED[state])
    elif missing := num_players - len(taken):
        lines.append(
            f"Waiting for {plural(missing, 'more player')}: press **Join**"
            f" (or {escape(creator)} can add a computer player)."
        )
    else:
        lines.append("The table is full: press **Start** to deal.")
    return "\n".join(lines)


def _kept_line(kept: Sequence[tuple[str, float]]) -> str:
    """The seats a rematch keeps, and until when (Discord shows each reader their own time):
    "Bea's seat is kept for them until 21:40: one press of **Join** (or **Rematch** on the
    last game's result) takes it (the cards are dealt as the table fills); after that, anyone
    may."; "Seats are kept for Bea and Cy until 21:40: …" """
    until = f"<t:{int(min(time for _, time in kept))}:t>"
    names = [escape(name) for name, _ in kept]
    whose = (
        f"{names[0]}'s seat is kept for them until {until}"
        if len(names) == 1
        else f"Seats are kept for {and_list(names)} until {until}"
    )
    each = "it" if len(names) == 1 else "each one's"
    return (
        f"{whose}: one press of **Join** (or **Rematch** on the last game's result) takes"
        f" {each} (the cards are dealt as the table fills); after that, anyone may."
    )
