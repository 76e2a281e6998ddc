"""The bot's words: table events for the channel, the board, private hands, standings, help.

Channel text is made only from engine events and the public view (never a seat's view), so a
card still in someone's hand cannot reach the channel by mistake. Private text takes the one
seat's view it is for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

# The help text lives in its own module; it is re-exported here with the rest of the words.
from bot.core.rules_help import RULES_TOPICS, rules_text
from bot.store import LeaderRow, StatsRow
from engine.cards import Card, cards_str
from engine.events import (
    CountReset,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    GoPoint,
    Heels,
    Played,
    Shown,
    StarterCut,
)
from engine.outcome import GameResult
from engine.phase import Phase
from engine.speech import say_pegging, say_score
from engine.views import PublicView, SeatView

__all__ = [
    "MAX_MESSAGE",
    "RULES_TOPICS",
    "Table",
    "board",
    "card_labels",
    "chunk",
    "coach_text",
    "code_safe",
    "discard_prompt_text",
    "escape",
    "hand_text",
    "last_result_text",
    "lobby_text",
    "play_prompt_text",
    "render_events",
    "render_leaderboard",
    "render_result",
    "render_stats",
    "render_steps",
    "rules_text",
    "scores_line",
    "status_text",
]

#: Discord's limit on one message's content.
MAX_MESSAGE = 2000
_BOARD_WIDTH = 30


_MARKDOWN = str.maketrans({ch: "\\" + ch for ch in "\\*_~`|>#[]()"})


def escape(name: str) -> str:
    """A display name made safe for Discord markdown (a name like ``**Al**`` stays as typed)."""
    return name.translate(_MARKDOWN)


def code_safe(name: str) -> str:
    """A name for inside a code block: backticks would end the block."""
    return name.replace("`", "'")


class Table:
    """Names at a table: players by seat and sides (partners are "Al & Cy")."""

    def __init__(self, players: Sequence[str], num_sides: int) -> None:
        self.raw = tuple(players)
        self.players = tuple(escape(name) for name in players)
        self.num_sides = num_sides

    @classmethod
    def of(cls, view: PublicView) -> Table:
        """The table of a game's public view."""
        return cls(view.players, view.num_sides)

    def seat(self, seat: int) -> str:
        """A player's name."""
        return self.players[seat]

    def side(self, side: int) -> str:
        """A side's name: the player, or both partners with four players."""
        if self.num_sides == len(self.players):
            return self.players[side]
        return " & ".join(self.players[s] for s in range(side, len(self.players), self.num_sides))

    def plain_side(self, side: int) -> str:
        """A side's name for inside a code block (no markdown there, but no backticks)."""
        if self.num_sides == len(self.raw):
            return code_safe(self.raw[side])
        partners = range(side, len(self.raw), self.num_sides)
        return code_safe(" & ".join(self.raw[s] for s in partners))

    def side_verb(self, side: int, singular: str, plural: str) -> str:
        """``wins`` for one player, ``win`` for partners."""
        return singular if self.num_sides == len(self.players) else plural


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def chunk(lines: Iterable[str], limit: int = MAX_MESSAGE) -> list[str]:
    """Join lines into messages of at most ``limit`` characters (a longer line is cut)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        line = line if len(line) <= limit else line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


# -- table events -------------------------------------------------------------------------


def _played(table: Table, event: Played) -> str:
    said = say_pegging(event.items, event.points)
    name = table.seat(event.seat)
    if said:
        return f"{name} plays {event.card} — {said} (count {event.count})"
    return f"{name} plays {event.card} (count {event.count})"


def _shown(table: Table, event: Shown) -> str:
    owner = table.seat(event.seat)
    what = f"{owner}'s crib" if event.crib else f"{owner}'s hand"
    said = say_score(event.score)
    return (
        f"{what}: {cards_str(event.cards)} + starter {event.starter} — {said}"
        f" ({table.side(event.side)} {event.total})"
    )


def _cut(table: Table, event: CutForDeal) -> str:
    rounds = []
    for cards in event.rounds:
        rounds.append(", ".join(f"{table.seat(s)} {card}" for s, card in enumerate(cards)))
    said = " — a tie for lowest, cut again: ".join(rounds)
    return f"Cut for deal: {said}. {table.seat(event.dealer)} cuts lowest and deals first."


def _dealt(table: Table, event: Dealt, discard_count: int) -> str:
    dealer = table.seat(event.dealer)
    cards = _plural(discard_count, "card")
    extra = ", and the top card of the deck joins it" if event.crib_from_deck else ""
    return (
        f"**Deal {event.deal_number}** — {dealer} deals {event.hand_size} each. "
        f"Everyone puts {cards} in {dealer}'s crib{extra}: check your DMs, "
        "or use `/cribbage hand`."
    )


def _starter(table: Table, event: StarterCut, heels: Heels | None) -> str:
    leader = table.seat((event.dealer + 1) % len(table.players))
    if heels is not None:
        return (
            f"Starter: {event.card} — his heels, {table.seat(heels.seat)} pegs {heels.points}"
            f" ({table.side(heels.side)} {heels.score}). {leader} leads."
        )
    return f"Starter: {event.card}. {leader} leads."


def render_result(table: Table, result: GameResult) -> str:
    """The end of a game: "Al wins 121-84 — a skunk, 2 game points"."""
    winner = table.side(result.winner)
    verb = table.side_verb(result.winner, "wins", "win")
    order = [result.winner] + [s for s in range(len(result.scores)) if s != result.winner]
    scores = "-".join(str(result.scores[s]) for s in order)
    points = _plural(result.game_points, "game point")
    kinds = {
        "skunk": "a skunk, ",
        "double_skunk": "a double skunk, ",
        "lurch": "a lurch, ",
    }
    how = "" if result.reason != "resigned" else " by resignation"
    return f"🏆 {winner} {verb} {scores}{how} — {kinds.get(result.kind, '')}{points}"


def scores_line(table: Table, scores: Sequence[int], target: int) -> str:
    """Every side's score: "Scores: Al 45 · Bea 38 (to 121)"."""
    parts = " · ".join(f"{table.side(s)} {score}" for s, score in enumerate(scores))
    return f"Scores: {parts} (to {target})"


def render_events(events: Sequence[Event], view: PublicView) -> list[str]:
    """Channel messages for the events of one action, one message per table event or group.

    The plays of one action (a card, the goes and points it set off, a reset) share one
    message; the starter, every show, the scores after the show and the result each get their
    own. ``view`` is the public view after the action (for names and the scores).
    """
    return render_steps([(events, view)])


def render_steps(steps: Sequence[tuple[Sequence[Event], PublicView]]) -> list[str]:
    """Channel messages for several actions applied in one call (a person's move and the
    computer's moves after it), each with the public view right after it.

    Consecutive plays share one message even across actions, and so do consecutive discards,
    so a computer answering at once (or playing several cards after a go) does not flood the
    channel; everything else gets its own message as in :func:`render_events`.
    """
    messages: list[str] = []
    group: list[str] = []
    group_kind = ""
    # The view after the last discard of the current group: who is still to discard.
    waiting_view: PublicView | None = None

    def flush() -> None:
        nonlocal group_kind, waiting_view
        if group_kind == "discard" and waiting_view is not None:
            after = waiting_view
            if after.phase is Phase.DISCARD and after.pending_discards:
                table = Table.of(after)
                waiting = ", ".join(table.seat(s) for s in after.pending_discards)
                group[-1] += f" Waiting for {waiting}."
        if group:
            messages.extend(chunk(group))
        group.clear()
        group_kind = ""
        waiting_view = None

    def add(kind: str, line: str) -> None:
        nonlocal group_kind
        if group_kind != kind:
            flush()
            group_kind = kind
        group.append(line)

    showed = False
    for events, view in steps:
        table = Table.of(view)
        for i, event in enumerate(events):
            if isinstance(event, Played):
                add("play", _played(table, event))
            elif isinstance(event, Go):
                add("play", f"{table.seat(event.seat)} says go")
            elif isinstance(event, GoPoint):
                label = "Last card" if event.last_card else "Go"
                add(
                    "play",
                    f"{label} — {table.seat(event.seat)} pegs {event.points}"
                    f" ({table.side(event.side)} {event.score})",
                )
            elif isinstance(event, CountReset):
                add("play", f"The count starts again; {table.seat(event.next_seat)} leads")
            elif isinstance(event, Discarded):
                add(
                    "discard",
                    f"{table.seat(event.seat)} puts {_plural(event.count, 'card')} in the crib.",
                )
                waiting_view = view
            else:
                flush()
                if isinstance(event, CutForDeal):
                    messages.append(_cut(table, event))
                elif isinstance(event, Dealt):
                    if showed:
                        # Nothing scores between the show and the next deal, so the view's
                        # scores are the scores the show left.
                        messages.append(scores_line(table, view.scores, view.target))
                        showed = False
                    messages.append(_dealt(table, event, view.discard_count))
                elif isinstance(event, StarterCut):
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    messages.append(_starter(table, event, nxt if isinstance(nxt, Heels) else None))
                elif isinstance(event, Heels):
                    pass  # said with the starter
                elif isinstance(event, Shown):
                    messages.append(_shown(table, event))
                    showed = True
                elif isinstance(event, GameOver):
                    messages.append(render_result(table, event.result))
                    showed = False
    flush()
    return messages


# -- the table as a whole -----------------------------------------------------------------


def board(table: Table, scores: Sequence[int], target: int) -> str:
    """A text track per side, in a code block: ``Al   ▰▰▰▰▱▱▱▱  45``."""
    names = [table.plain_side(s) for s in range(len(scores))]
    width = max(len(name) for name in names)
    lines = []
    for side, score in enumerate(scores):
        filled = min(_BOARD_WIDTH, score * _BOARD_WIDTH // target)
        track = "▰" * filled + "▱" * (_BOARD_WIDTH - filled)
        lines.append(f"{names[side].ljust(width)}  {track} {score:>3}")
    return "```\n" + "\n".join(lines) + f"\n{'':>{width}}  to {target}\n```"


def status_text(view: PublicView) -> str:
    """The public table: board, dealer, phase, whose turn, the count and the series."""
    table = Table.of(view)
    lines = [board(table, view.scores, view.target)]
    if view.phase is Phase.OVER and view.result is not None:
        lines.append(render_result(table, view.result))
        return "\n".join(lines)
    dealer = table.seat(view.dealer)
    lines.append(f"Deal {view.deal_number} — {dealer} deals and has the crib.")
    if view.phase is Phase.DISCARD:
        waiting = ", ".join(table.seat(s) for s in view.pending_discards)
        lines.append(f"Discarding: waiting for {waiting}.")
    else:
        lines.append(f"The play — starter {view.starter}.")
        if view.turn is not None:
            lines.append(f"{table.seat(view.turn)} to play.")
        series = cards_str(view.series) if view.series else "no cards yet"
        lines.append(f"Count {view.count}: {series}.")
        held = ", ".join(
            f"{table.seat(s)} {_plural(n, 'card')}" for s, n in enumerate(view.hand_sizes)
        )
        lines.append(f"Cards left: {held}.")
    return "\n".join(lines)


def lobby_text(
    creator: str, names: Sequence[str], num_players: int, target: int, state: str = "open"
) -> str:
    """The lobby message: who is seated and what is still needed.

    ``state`` is ``open``, ``started``, ``cancelled`` or ``expired``.
    """
    seated = ", ".join(escape(n) for n in names) if names else "nobody"
    head = f"**Cribbage** — {num_players} players, to {target}. Opened by {escape(creator)}."
    partners = " Partners sit opposite: seats 1 & 3 against 2 & 4." if num_players == 4 else ""
    lines = [head + partners, f"Seated ({len(names)}/{num_players}): {seated}"]
    if state == "open":
        missing = num_players - len(names)
        if missing:
            lines.append(
                f"Waiting for {_plural(missing, 'more player')}: press **Join**"
                f" (or {escape(creator)} can add a computer player)."
            )
        else:
            lines.append("The table is full: press **Start** to deal.")
    elif state == "started":
        lines.append("The game has started.")
    elif state == "cancelled":
        lines.append("This game was cancelled.")
    else:
        lines.append("This game ended: nobody moved for too long.")
    return "\n".join(lines)


# -- private text (one seat's view) -------------------------------------------------------


def _where(channel_id: int) -> str:
    return f"Cribbage in <#{channel_id}>"


def discard_prompt_text(view: SeatView, channel_id: int) -> str:
    """The DM at each deal: the hand and how many cards to choose for whose crib."""
    dealer = Table.of(view).seat(view.dealer)
    crib = "your crib" if view.dealer == view.seat else f"{dealer}'s crib"
    cards = _plural(view.discard_count, "card")
    return (
        f"{_where(channel_id)}, deal {view.deal_number}. Your hand: {cards_str(view.hand)}\n"
        f"Choose {cards} for {crib}."
    )


def play_prompt_text(view: SeatView, channel_id: int) -> str:
    """The DM when it is the seat's turn in the play: the count, the series and the cards."""
    series = cards_str(view.series) if view.series else "nothing played yet"
    table = Table.of(view)
    return (
        f"{_where(channel_id)}: your turn. Count {view.count} ({series}); "
        f"starter {view.starter}.\n"
        f"Your cards: {cards_str(view.hand)}\n{scores_line(table, view.scores, view.target)}"
    )


def hand_text(view: SeatView, channel_id: int) -> str:
    """The seat's hand for the ``hand`` command, with what they may do now."""
    if view.phase is Phase.DISCARD and view.seat in view.pending_discards:
        return discard_prompt_text(view, channel_id)
    if view.phase is Phase.PLAY and view.turn == view.seat:
        return play_prompt_text(view, channel_id)
    table = Table.of(view)
    held = cards_str(view.hand) if view.hand else "no cards left"
    lines = [f"{_where(channel_id)}, deal {view.deal_number}. Your cards: {held}"]
    if view.discards:
        lines.append(f"In the crib from you: {cards_str(view.discards)}")
    if view.phase is Phase.DISCARD:
        waiting = ", ".join(table.seat(s) for s in view.pending_discards)
        lines.append(f"Waiting for {waiting} to discard.")
    elif view.phase is Phase.PLAY and view.turn is not None:
        lines.append(f"Count {view.count}; {table.seat(view.turn)} to play.")
    return "\n".join(lines)


def coach_text(channel_id: int, deal_number: int, line: str) -> str:
    """The coach's DM after a show: which game and deal, then the engine's one line."""
    return f"{_where(channel_id)}, deal {deal_number} — coach: {line}"


def last_result_text(view: PublicView) -> str:
    """``status`` in a channel whose last game has finished: the final board and result."""
    return (
        "The last game here is over.\n"
        + status_text(view)
        + "\nStart a new one with `/cribbage new`."
    )


def card_labels(cards: Iterable[Card]) -> str:
    """Cards for a sentence: "5♥ and J♦"."""
    names = [str(c) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# -- standings ----------------------------------------------------------------------------


def _pct(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _standings(title: str, rows: Sequence[LeaderRow]) -> list[str]:
    names = [code_safe(r.name) for r in rows]
    width = max(len(name) for name in names)
    lines = [title, "```"]
    lines.append(f"{'#':>2}  {'player':<{width}}  {'W':>3} {'L':>3} {'win%':>5}  skunks")
    for rank, (name, row) in enumerate(zip(names, rows, strict=True), start=1):
        lines.append(
            f"{rank:>2}  {name:<{width}}  {row.wins:>3} {row.losses:>3}"
            f" {_pct(row.win_rate):>5}  +{row.skunks_given} -{row.skunks_taken}"
        )
    lines.append("```")
    return lines


def render_leaderboard(rows: Sequence[LeaderRow], computer: Sequence[LeaderRow] = ()) -> str:
    """The server's ranking: wins, losses, win %, skunks given (+) and taken (-); games
    between people first, then (apart) games against the computer, which gets no row."""
    if not rows and not computer:
        return "No games have finished on this server yet."
    lines: list[str] = []
    if rows:
        lines += _standings("**Leaderboard** (games between people)", rows)
    else:
        lines.append("No games between people have finished on this server yet.")
    if computer:
        lines += _standings("**Against the computer**", computer)
    # Keep whole tables: drop the computer's table rather than cut a code block in half.
    text = "\n".join(lines)
    if len(text) > MAX_MESSAGE:
        text = "\n".join(_standings("**Leaderboard** (games between people)", rows))
    return text[:MAX_MESSAGE]


def _stats_block(label: str, row: StatsRow) -> list[str]:
    per = max(row.deals, 1)
    best = f"{row.best_hand}" + (f" ({row.best_hand_cards})" if row.best_hand_cards else "")
    return [
        f"{label}: {_plural(row.games, 'game')}, {_plural(row.wins, 'win')}"
        f" ({_pct(row.win_rate)}); skunks given {row.skunks_given}, taken {row.skunks_taken}.",
        f"  Points per deal — pegging {row.pegging_points / per:.1f},"
        f" hand {row.hand_points / per:.1f}, crib {row.crib_points / per:.1f}"
        f" (over {_plural(row.deals, 'deal')}).",
        f"  Best hand: {best}; 29s: {row.twenty_nines}.",
    ]


def render_stats(name: str, people: StatsRow | None, computer: StatsRow | None) -> str:
    """A player's record: games between people and games against the computer, apart."""
    name = escape(name)
    if people is None and computer is None:
        return f"{name} has not finished a game on this server yet."
    lines = [f"**{name}** on this server"]
    if people is not None:
        lines.extend(_stats_block("Against people", people))
    if computer is not None:
        lines.extend(_stats_block("Against the computer", computer))
    return chunk(lines)[0]
