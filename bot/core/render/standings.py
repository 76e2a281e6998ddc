"""The server's standings and one player's record."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.records import LeaderRow, StatsRow
from bot.core.render.text import MAX_MESSAGE, chunk, code_safe, escape, plural

__all__ = ["leaderboard_text", "stats_text"]


def _pct(rate: float) -> str:
    return f"{rate * 100:.0f}%"


def _standings(title: str, rows: Sequence[LeaderRow]) -> list[str]:
    names = [code_safe(r.name) for r in rows]
    width = max(len(name) for name in names)
    lines = [title, "```"]
    lines.append(f"{'#':>2}  {'player':<{width}}  {'W':>3} {'L':>3} {'win%':>5}  lurch/skunk")
    for rank, (name, row) in enumerate(zip(names, rows, strict=True), start=1):
        lines.append(
            f"{rank:>2}  {name:<{width}}  {row.wins:>3} {row.losses:>3}"
            f" {_pct(row.win_rate):>5}  +{row.skunks_given} -{row.skunks_taken}"
        )
    lines.append("```")
    return lines


def leaderboard_text(rows: Sequence[LeaderRow], computer: Sequence[LeaderRow] = ()) -> str:
    """The server's ranking: wins, losses, win %, lurches and skunks (each game by its own
    rule) given (+) and taken (-); games between people first, then (apart) games against
    the computer, which gets no row."""
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
    lines = [
        f"{label}: {plural(row.games, 'game')}, {plural(row.wins, 'win')}"
        f" ({_pct(row.win_rate)}); lurches and skunks given {row.skunks_given},"
        f" taken {row.skunks_taken}.",
        f"  Points per deal — pegging {row.pegging_points / per:.1f},"
        f" hand {row.hand_points / per:.1f}, crib {row.crib_points / per:.1f}"
        f" (over {plural(row.deals, 'deal')}).",
        f"  Best hand: {best}; 29s: {row.twenty_nines}.",
    ]
    if row.points_missed or row.muggins_given or row.muggins_taken:
        # Only players who have counted their own hands (manual counting) have these.
        lines.append(
            f"  Counting your own hands: {plural(row.points_missed, 'point')} missed;"
            f" muggins taken {row.muggins_taken}, given away {row.muggins_given}."
        )
    return lines


def stats_text(name: str, people: StatsRow | None, computer: StatsRow | None) -> str:
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
