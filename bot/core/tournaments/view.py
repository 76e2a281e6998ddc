"""A tournament's live message, as text: the settings, the entrants, the round's pairings and
results, and the standings (pure functions of what the store keeps)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.base.text import escape, fitted, plural, shown_until, signed_text
from bot.core.base.views import MAX_MESSAGE
from bot.core.games.records import is_former
from bot.core.tournaments.records import (
    Decided,
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    TournamentStatus,
)
from engine.formats import Match, Progress, TournamentFormat
from engine.tournament import Standing
from engine.variants import find, title_unless_standard

__all__ = [
    "Event",
    "board_text",
    "champion_of",
    "champion_text",
    "mention",
    "progress_of",
    "settings_line",
    "standings_message",
    "standings_text",
    "table_of",
    "tournament_named",
]

#: Lines of pairings and of standings the message shows at most (it must fit 2,000
#: characters; ``/cribbage tournament standings`` shows everyone).
SHOWN = 16
#: What the message says while Discord refuses the bot the round's tables: what a table takes
#: (its message in the channel, read again after a restart; a thread started from it; the
#: game posted there).
REFUSED = (
    "⚠️ Discord refuses me this round's games here: I need **Send Messages**, **Read Message"
    " History**, **Create Public Threads** and **Send Messages in Threads** in this channel."
    " The round's clock is stopped until I have them."
)


@dataclass(frozen=True, slots=True)
class Event:
    """A tournament with its entrants and pairings, as read together."""

    record: TournamentRecord
    entrants: tuple[EntrantRecord, ...]
    pairings: tuple[PairingRecord, ...]

    def name(self, user_id: int | None) -> str:
        """An entrant's name as shown (escaped)."""
        for entrant in self.entrants:
            if entrant.user_id == user_id:
                return escape(entrant.name)
        return "?"

    def current(self) -> list[PairingRecord]:
        """The pairings of the round being played."""
        return self.of_round(self.record.round)

    def of_round(self, round_number: int) -> list[PairingRecord]:
        """The pairings of one round."""
        return [p for p in self.pairings if p.round == round_number]


def mention(user_id: int) -> str:
    """A person as a tournament's words call them: their mention, or "a former player" for
    one who had their data deleted (a mention of their id, negative, would show as typed)."""
    return "a former player" if is_former(user_id) else f"<@{user_id}>"


def progress_of(event: Event) -> Progress:
    """The event as its format sees it: the entrants in seeding order, who withdrew, and each
    round's tables so far."""
    record = event.record
    return Progress(
        seeds=tuple(e.user_id for e in event.entrants),
        withdrawn=frozenset(e.user_id for e in event.entrants if e.withdrawn is not None),
        played=tuple(
            tuple(
                Match(p.player_a, p.player_b, p.decided is not None, p.winner, p.lurch, p.margin)
                for p in event.pairings
                if p.round == round_
            )
            for round_ in range(1, record.round + 1)
        ),
        planned=record.rounds,
        playoff=record.playoff,
    )


def table_of(event: Event) -> list[Standing]:
    """The standings now, best first, in the order the event's format says."""
    return event.record.format.standings(progress_of(event))


def _pairing_line(event: Event, p: PairingRecord) -> str:
    a = event.name(p.player_a)
    if p.player_b is None:
        return f"{p.tab}. {a} — bye (counts as a win)"
    b = event.name(p.player_b)
    where = f" in <#{p.thread_id}>" if p.thread_id else ""
    series = f" ({p.wins_a}–{p.wins_b})" if p.wins_a or p.wins_b else ""
    if p.decided is None:
        cancelled = event.record.status is TournamentStatus.CANCELLED
        state = "not finished, no result" if cancelled else "playing"
        return f"{p.tab}. {a} vs {b}{where} — {state}{series}"
    if p.winner is None:
        outcome = "both lose"
    else:
        outcome = f"{event.name(p.winner)} wins{series}"
        if p.margin:
            outcome += f" by {p.margin}"
        if p.lurch:
            # (A win worth more than one game point: a lurch, or a skunk by the rule the
            # tournament's games are played under.)
            outcome += f" ({event.record.scoring})"
    how = {
        Decided.FORFEIT: " — forfeit",
        Decided.DEADLINE: " — decided at the deadline",
        Decided.WITHDRAWN: " — withdrawal",
        Decided.MODERATOR: " — set by a moderator",
    }.get(p.decided, "")
    return f"{p.tab}. {a} vs {b}{where} — {outcome}{how}"


def standings_text(event: Event, *, limit: int | None = SHOWN) -> str:
    """The standings table, one line a player: place, name, game points, games won, spread."""
    table = table_of(event)
    withdrawn = {e.user_id for e in event.entrants if e.withdrawn is not None}
    lines = []
    for place, s in enumerate(table[:limit] if limit else table, 1):
        note = " (withdrew)" if s.player in withdrawn else ""
        lines.append(
            f"{place}. {event.name(s.player)} — {s.points} pts, {s.won} won,"
            f" spread {signed_text(s.spread)}{note}"
        )
    if limit and len(table) > limit:
        lines.append(f"… and {len(table) - limit} more: `/cribbage tournament standings`.")
    return "\n".join(lines)


def standings_message(event: Event) -> str:
    """``/cribbage tournament standings``: everyone's line, or as many as one message holds
    (the top of the table), the others counted on the last line."""
    record = event.record
    when = f"round {record.round} of {record.rounds}" if record.round else "before round 1"
    head = f"**Standings** ({when})"
    lines = standings_text(event, limit=None).splitlines() or ["Nobody has entered yet."]
    return fitted([[head, *lines]])


def board_text(event: Event, *, room: int = MAX_MESSAGE) -> str:
    """The whole live message, within ``room`` characters (Discord's 2,000; less under a club
    night's own lines): with many players, fewer tables and standings lines are listed (the
    command's standings list more: :func:`standings_message`)."""
    text = ""
    for shown in (SHOWN, 10, 6, 3, 1):
        text = _board(event, shown)
        if len(text) <= room:
            break
    return text


def settings_line(t: TournamentRecord) -> str:
    """A tournament's settings, as its message's first line says them."""
    rounds = plural(t.rounds, "round") if t.rounds else "rounds set at the start"
    match = "best of 3" if t.match_games == 3 else "single games"
    if t.playoff:
        match += f", then the top {t.playoff} in a best-of-3 knockout"
    title = title_unless_standard(find(t.variant))
    kind = f"{title} · " if title else ""
    return (
        f"**🏆 {t.format.title} tournament** — {kind}{rounds} · {match} · {t.target} points ·"
        f" {t.scoring} · rounds of {_hours(t.round_hours)}"
    )


def _board(event: Event, shown: int) -> str:
    t = event.record
    head = [settings_line(t), f"Organised by {mention(t.organiser_id)}."]
    if t.status is TournamentStatus.OPEN:
        listed = shown * 2
        names = ", ".join(escape(e.name) for e in event.entrants[:listed]) or "nobody yet"
        more = f" and {len(event.entrants) - listed} more" if len(event.entrants) > listed else ""
        head += [
            f"**Entrants ({len(event.entrants)}):** {names}{more}",
            "Press **Join** to enter. The organiser starts it with"
            " `/cribbage tournament start` (3 entrants at least).",
        ]
        return "\n".join(head)
    if t.status is TournamentStatus.CANCELLED:
        by = f" by {mention(t.cancelled_by)}" if t.cancelled_by is not None else ""
        head.append(f"**Cancelled**{by}.")
        if not t.round:
            return "\n".join(head)
    current = event.current()
    if current:
        stage = " (playoff, best of 3)" if t.in_playoff(t.round) else ""
        if t.status is TournamentStatus.RUNNING:
            head.append(
                f"**Round {t.round} of {t.rounds}**{stage} — each game is played in its thread."
            )
            if t.refused_since is not None:
                head.append(REFUSED)
            elif t.deadline is not None:
                head.append(f"⏱ The round's time runs out {shown_until(t.deadline, 'f')}.")
        else:
            head.append(f"**Round {t.round} of {t.rounds}**{stage}")
        head += [_pairing_line(event, p) for p in current[:shown]]
        if len(current) > shown:
            head.append(f"… and {len(current) - shown} more tables.")
        before = event.of_round(t.round - 1) if t.status is TournamentStatus.RUNNING else []
        if before:
            # The round that decided these pairings, so its results are seen on the message.
            head.append(f"**Round {t.round - 1} results**")
            head += [_pairing_line(event, p) for p in before[:shown]]
            if len(before) > shown:
                head.append(f"… and {len(before) - shown} more tables.")
    if t.status is TournamentStatus.FINISHED:
        head.append(f"**Final standings** after {plural(t.rounds, 'round')}")
    elif t.status is TournamentStatus.CANCELLED:
        head.append(f"**Standings** when it was cancelled, in round {t.round} of {t.rounds}")
    else:
        head.append("**Standings**")
    head.append(standings_text(event, limit=shown))
    return "\n".join(head)


def champion_of(event: Event) -> int:
    """The winner, as the event's format decides it (a knockout's final's, the top of a
    round robin's standings, ...)."""
    return event.record.format.champion(progress_of(event))


def tournament_named(kind: TournamentFormat, variant: str, *, first: bool = False) -> str:
    """A tournament as a sentence names it, by its format and, as its live message does, its
    variant (the standard game unnamed): "Swiss tournament", "knockout seven-card cribbage
    tournament"; ``first``: at the start of a line (the format's title, "Knockout")."""
    title = title_unless_standard(find(variant))
    played = f" {title.lower()}" if title else ""
    return f"{kind.title if first else kind.named()}{played} tournament"


def champion_text(event: Event) -> str:
    """The champion's announcement, posted once at the end."""
    champion = champion_of(event)
    line = next(s for s in table_of(event) if s.player == champion)
    named = tournament_named(event.record.format, event.record.variant)
    return (
        f"🏆 {mention(champion)} wins the {named}"
        f" with {line.points} game points ({line.won} won, spread {signed_text(line.spread)})!"
    )


def _hours(hours: float) -> str:
    if hours < 1:
        return f"{round(hours * 60)} min"
    if hours >= 48 and hours % 24 == 0:
        return f"{int(hours // 24)} days"
    return f"{hours:g} h"
