"""The server's standings and one player's record."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.choices import POOL_TITLES, level_name
from bot.core.base.text import (
    chunk,
    code_cell,
    escape,
    plural,
    rating_text,
    shown,
    shown_day,
    signed_tenths,
    signed_text,
    tagged,
)
from bot.core.base.views import MAX_MESSAGE, Pool
from bot.core.games.tally import counting_said
from bot.core.standings.ratings import COMPUTER_IDS, PROVISIONAL_GAMES
from bot.core.standings.records import TREND_GAMES, Ranked, Rival, Standing
from engine.variants import find, title_unless_standard

__all__ = [
    "AVERAGE_OF",
    "PAGE_SIZE",
    "head_to_head_text",
    "leaderboard_text",
    "rank_line",
    "stats_text",
    "variant_line",
]


#: Where a record's games were played: the server asked in, or (a game's ``guild_id`` None:
#: DMs and group DMs, reached through a user install) no server at all, kept per player.
ON_THIS_SERVER = "on this server"
OUTSIDE_SERVERS = "outside servers"
#: What the stats' picture compares a player with, by where the games were played: the
#: server's people, or everyone's games outside servers (DMs and group DMs).
AVERAGE_OF = {ON_THIS_SERVER: "server average", OUTSIDE_SERVERS: "average outside servers"}


def _pct(rate: float) -> str:
    return f"{rate * 100:.0f}%"


#: Players per leaderboard page.
PAGE_SIZE = 10
#: A name in the leaderboard's table is cut to this many characters (it must fit a phone).
NAME_WIDTH = 15
#: The trend's column heading: the change over the last TREND_GAMES games ("10g").
_TREND = f"{TREND_GAMES}g"


#: Each computer level's rated player id, to its level.
_LEVELS_BY_ID = {player: level for level, player in COMPUTER_IDS.items()}


def _named(standing: Standing) -> str:
    """Who a standing is: the player's name, or for a computer level the level's name (its
    standing keeps the name of the seat it last sat in, which may be numbered, or older)."""
    level = _LEVELS_BY_ID.get(standing.player_id)
    return standing.name if level is None else level_name(level)


def leaderboard_text(
    table: Pool, total: int, rows: Sequence[Ranked], page: int, variant: str | None = None
) -> str:
    """One page of a server's table, ranked by rating (openskill's ordinal, shown as a
    friendly number): rating (``?`` while provisional), games, win % and the change over the
    last 10 games, narrow enough for a phone. ``variant``: the title of the variant whose
    table it is (None: the standard game's)."""
    of = "" if variant is None else f"{variant}, "
    title = f"**Leaderboard** — {of}{POOL_TITLES[table]}"
    if not rows:
        # Mid-sentence the title is lower case: "No five-card cribbage games ...".
        of_variant = "" if variant is None else f"{variant.lower()} "
        games = f"{of_variant}{POOL_TITLES[table]}"
        return f"{title}\nNo {games} have finished on this server yet."
    pages = max(1, -(-total // PAGE_SIZE))
    lines = [f"{title} · page {page + 1} of {pages}", "```"]
    lines.append(
        f"{'#':>2} {'player':<{NAME_WIDTH}} {'rating':>7} {'gms':>4} {'win':>4} {_TREND:>4}"
    )
    provisional = False
    for row in rows:
        s = row.standing
        mark = "?" if s.games < PROVISIONAL_GAMES else " "
        provisional |= mark == "?"
        trend = shown(s.ordinal) - shown(row.trend_from)
        lines.append(
            f"{row.rank:>2} {code_cell(_named(s), NAME_WIDTH)} {rating_text(s.ordinal):>6}{mark}"
            f" {s.games:>4} {_pct(s.win_rate):>4} {signed_text(trend):>4}"
        )
    lines.append("```")
    notes = [f"{_TREND}: rating change over the last {TREND_GAMES} games"]
    if provisional:
        notes.insert(0, f"? provisional (under {PROVISIONAL_GAMES} games)")
    lines.append(" · ".join(notes))
    return "\n".join(lines)[:MAX_MESSAGE]


def rank_line(ranked: Ranked, levels: Sequence[Standing] = (), *, rank: bool = True) -> str:
    """A player's rating and rank in one table (against the computer, where they stand
    among the computer levels); without ``rank`` (games outside servers, kept per player:
    there is nobody to rank them among) the rating alone."""
    s = ranked.standing
    said = f"Rating {rating_text(s.ordinal)}"
    if s.games < PROVISIONAL_GAMES:
        said += f" (provisional: {plural(s.games, 'rated game')})"
    trend = shown(s.ordinal) - shown(ranked.trend_from)
    placed = f", #{ranked.rank} of {ranked.of}" if rank else ""
    spanned = min(s.games, TREND_GAMES)
    said += f"{placed}; {signed_text(trend)} over the last {plural(spanned, 'game')}."
    above = [_named(lv) for lv in levels if lv.ordinal < s.ordinal]
    below = [_named(lv) for lv in levels if lv.ordinal >= s.ordinal]
    if levels:
        parts = []
        if above:
            parts.append(f"above {', '.join(above)}")
        if below:
            parts.append(f"below {', '.join(below)}")
        said += f" Rated {' and '.join(parts)}."
    return said


def _margins(row: Standing) -> str:
    """The games won and lost by a lurch, and by a skunk, each named by the rule its games
    were played under (only the ones that happened)."""
    parts = [
        f"{name} given {given}, taken {taken}"
        for name, given, taken in (
            ("lurches", row.lurches_given, row.lurches_taken),
            ("skunks", row.skunks_given, row.skunks_taken),
        )
        if given or taken
    ]
    return "; ".join(parts) or "no lurches or skunks"


def _stats_block(label: str, row: Standing) -> list[str]:
    per = row.deals
    lines = [
        f"{label}: {plural(row.games, 'game')}, {plural(row.wins, 'win')}"
        f" ({_pct(row.win_rate)}); {_margins(row)}.",
        f"  Points per deal — pegging {row.pegging_points / per:.1f},"
        f" hand {row.hand_points / per:.1f}, crib {row.crib_points / per:.1f}"
        f" (over {plural(row.deals, 'deal')})."
        if per
        # (A game ended before its first show: its pegging points belong to no deal yet.)
        else "  Points per deal — none yet: no deal of theirs has reached the show.",
    ]
    counted = counting_said(row)
    if counted:
        lines.append(f"  {counted}")
    return lines


def variant_line(title: str, vs_computer: bool, ranked: Ranked, *, rank: bool = True) -> str:
    """A player's record in one table of a variant, one line: "Five-card cribbage, against
    people: 3 games, 2 wins (67%); rating 1,020? (#2 of 5)." (``?`` while provisional;
    without ``rank``, outside servers, the rating alone), and what their claims came to if
    they counted their own hands there."""
    s = ranked.standing
    against = "against the computer" if vs_computer else "against people"
    mark = "?" if s.games < PROVISIONAL_GAMES else ""
    placed = f" (#{ranked.rank} of {ranked.of})" if rank else ""
    counted = counting_said(s)
    return (
        f"{title}, {against}: {plural(s.games, 'game')}, {plural(s.wins, 'win')}"
        f" ({_pct(s.win_rate)}); rating {rating_text(s.ordinal)}{mark}{placed}."
        + (f" {counted}" if counted else "")
    )


def stats_text(
    name: str,
    people: Standing | None,
    computer: Standing | None,
    ranks: Sequence[str | None] = (None, None),
    best: Sequence[tuple[int, str]] = (),
    place: str = ON_THIS_SERVER,
    variants: Sequence[str] = (),
) -> str:
    """A player's record: games between people and games against the computer, apart, each
    after its rating line (``ranks``: people's, computer's), then their record in each
    variant (``variants``, a line per table: :func:`variant_line`), then their best hands
    (``best``, from both: each hand is named once) and how many 29s they have held.
    ``place``: where the games were played (:data:`ON_THIS_SERVER`, or
    :data:`OUTSIDE_SERVERS`)."""
    name = escape(name)
    if people is None and computer is None and not variants:
        return f"{name} has not finished a game {place} yet."
    lines = [f"**{name}** {place}"]
    for label, row, rank in (
        ("Against people", people, ranks[0]),
        ("Against the computer", computer, ranks[1]),
    ):
        if row is None:
            continue
        block = _stats_block(label, row)
        lines.append(block[0])
        if rank is not None:
            lines.append(f"  {rank}")
        lines.extend(block[1:])
    if variants:
        lines.append("Variants (each rated apart):")
        lines.extend(f"  {line}" for line in variants)
    held = [f"{points} ({cards})" for points, cards in best]
    nines = sum(row.twenty_nines for row in (people, computer) if row is not None)
    parts = [f"Best hands: {' · '.join(held)}"] if held else []
    if nines > sum(points == 29 for points, _ in best):  # more 29s than the list shows
        parts.append(f"29s held: {nines}")
    if parts:
        lines.append("; ".join(parts) + ".")
    return chunk(lines)[0]


def _of(variant: str) -> str:
    """A game of a variant named after its day: ", five-card cribbage" (nothing for the
    standard game, or a variant no longer registered)."""
    title = title_unless_standard(find(variant))
    return f", {title.lower()}" if title else ""


def head_to_head_text(
    name: str, other: str, rival: Rival | None, place: str = ON_THIS_SERVER
) -> str:
    """``name``'s games against ``other`` ``place`` (on this server, or outside servers):
    wins, game points, the average margin and the last five (newest first; those that may be
    named where it is asked: see :class:`~bot.core.base.audience.Audience`)."""
    name, other = escape(name), escape(other)
    if rival is None or rival.games == 0:
        return f"{name} and {other} have not played each other {place} yet."
    lines = [
        f"**{name}** against **{other}**: {plural(rival.games, 'game')} —"
        f" {name} won {rival.wins}, {other} won {rival.losses}"
        + (
            f", others won {rival.games - rival.wins - rival.losses}"
            if rival.games > rival.wins + rival.losses
            else ""
        )
        + ".",
        f"Game points: {tagged(name, rival.points_won)}, {tagged(other, rival.points_lost)}."
        f" Average margin: {signed_tenths(rival.average_margin)} points a game for {name}.",
    ]
    if not rival.recent:
        return "\n".join(lines)
    lines.append(
        "Last "
        + plural(len(rival.recent), "game")
        + ": "
        + " · ".join(
            f"{g.outcome} {g.score}-{g.opponent_score} ({shown_day(g.finished_at)}{_of(g.variant)})"
            for g in rival.recent
        )
    )
    return "\n".join(lines)
