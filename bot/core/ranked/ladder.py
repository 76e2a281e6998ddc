"""The ranked ladder as players read it: a season's top 50, the reader's own place, rating (with
how sure it is) and rank, their latest matches (under their name: the ladder is posted for
everyone in the channel), and the seasons' champions.

Everyone ranked is named by their display name alone. A season's standings count the players
with :data:`~bot.core.ranked.rating.PLACEMENT_MATCHES` matches in it, best conservative rating
first; a season over is its final standings (nothing changes it once its month has ended).
"""

from __future__ import annotations

from bot.core.base.choices import LADDER_SHOWN, LadderSeason
from bot.core.base.replies import User
from bot.core.base.text import escape, shown_until
from bot.core.base.views import MAX_LAID_OUT, MessageView, laid_out
from bot.core.ranked.rating import (
    PLACEMENT_MATCHES,
    next_rank,
    rank_of,
    season_before,
    season_bounds,
    season_name,
    season_of,
    shown_rating,
)
from bot.core.ranked.records import EntryStatus, RatingRecord
from bot.core.ranked.storage import LadderStore
from bot.core.ranked.words import match_line, rating_words

__all__ = ["ladder_view"]

#: A reader's latest matches the ladder lists.
RECENT_MATCHES = 5
#: Seasons' champions listed.
CHAMPIONS_SHOWN = 12


def _line(place: int, rating: RatingRecord, reader: int) -> str:
    """One player of the standings: ``3. 🦈 **Bea** — 1,312 · Crib Shark · 12 matches``."""
    rank = rank_of(rating)
    badge, named = (rank.badge, rank.name) if rank is not None else ("", "")
    name = escape(rating.name)
    name = f"__{name}__" if rating.user_id == reader else name
    plural = "match" if rating.matches == 1 else "matches"
    points = shown_rating(rating.mu, rating.sigma)
    return f"{place}. {badge} **{name}** — {points:,} · {named} · {rating.matches} {plural}"


async def ladder_view(
    store: LadderStore, user: User, which: LadderSeason, now: float
) -> MessageView:
    """The ladder ``user`` asked for at ``now``."""
    season = season_of(now)
    if which == "champions":
        return await _champions(store, season)
    shown_season = season if which == "this" else season_before(season)
    top = await store.ladder(shown_season, at_least=PLACEMENT_MATCHES, limit=LADDER_SHOWN)
    head: list[str] = []
    if which == "this":
        ends = season_bounds(season)[1]
        head.append(f"🏆 **Ranked ladder — {season_name(season)}**")
        head.append(
            f"The season ends {shown_until(ends, 'f')}, and its final standings are kept."
            f" A rank takes {PLACEMENT_MATCHES} matches in the season."
        )
    else:
        head.append(f"🏆 **Final standings — {season_name(shown_season)}**")
        if top:
            head.append(f"Champion: **{escape(top[0].name)}**.")
    listed = [_line(i, r, user.id) for i, r in enumerate(top, 1)]
    if not listed:
        listed = [
            "Nobody is ranked this season yet."
            if which == "this"
            else "Nobody was ranked that season."
        ]
    # The answer is posted for everyone in the channel: the reader's own lines name them.
    reader = escape(user.name)
    mine = await _theirs(store, user, shown_season, now=which == "this")
    lines = await store.match_lines(user.id, limit=RECENT_MATCHES)
    recent = [match_line(m, user.name) for m in lines]
    groups = [tuple(head), tuple(listed), tuple(mine)]
    if recent and which == "this":
        groups.append((f"**{reader}'s latest matches**", *recent))
    if which == "this":
        champions = await store.season_champions(at_least=PLACEMENT_MATCHES, before=season, limit=1)
        if champions:
            last = champions[0]
            groups.append(
                (
                    f"Champion of {season_name(last.season)}: **{escape(last.name)}** "
                    f"({shown_rating(last.mu, last.sigma):,}).",
                )
            )
    return laid_out(_fit(groups))


async def _theirs(store: LadderStore, user: User, season: str, *, now: bool) -> list[str]:
    """The reader's place, rating and rank in ``season``, under their name (the ladder is
    posted for everyone to read); ``now``: the season is this one, where a reader who has not
    played is told how to start."""
    reader = escape(user.name)
    rating = await store.season_rating(season, user.id)
    # (A match counts in the season once it is decided: one being played is said apart.)
    entry = await store.live_entry(user.id) if now else None
    playing = entry is not None and entry.status is EntryStatus.MATCHED
    if rating is None:
        named = season_name(season)
        if playing:
            return [
                f"**{reader}** is playing their first ranked match of {named}: it counts here "
                "once it's decided."
            ]
        if entry is not None:
            return [f"**{reader}** is searching for their first ranked match of {named}."]
        start = ": `/cribbage ranked play` finds you an opponent" if now else ""
        return [f"**{reader}** hasn't played a ranked match in {named}{start}."]
    place = await store.ladder_place(season, user.id, at_least=PLACEMENT_MATCHES)
    size = await store.ladder_size(season, at_least=PLACEMENT_MATCHES)
    where = f"#{place} of {size}" if place is not None else "not ranked yet"
    line = f"**{reader}**: {where} · {rating_words(rating)}"
    rank = rank_of(rating)
    if rank is not None:
        above = next_rank(rating)
        if above is not None:
            line += f" · next: {above.badge} {above.name} at {above.floor:,}"
    played = f"{rating.wins} won of {rating.matches}"
    if playing:
        played += ", and one being played"
    return [line, f"This season: {played}."]


async def _champions(store: LadderStore, season: str) -> MessageView:
    """Every season's champion, newest first."""
    found = await store.season_champions(
        at_least=PLACEMENT_MATCHES, before=season, limit=CHAMPIONS_SHOWN
    )
    lines = [
        f"**{season_name(c.season)}**: {escape(c.name)} ({shown_rating(c.mu, c.sigma):,}, "
        f"{c.matches} matches)"
        for c in found
    ]
    if not lines:
        lines = ["No season has ended with a ranked player yet."]
    return laid_out((("🏆 **Ranked champions**, season by season",), tuple(lines)))


def _fit(groups: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """``groups`` within what a laid-out message holds: the standings lose their last lines
    first (the reader's own lines stay)."""
    size = sum(len(t) + 1 for g in groups for t in g)
    if size <= MAX_LAID_OUT:
        return groups
    head, listed, *rest = groups
    keep = list(listed)
    while keep and size > MAX_LAID_OUT - 2:
        size -= len(keep.pop()) + 1
    return [head, (*keep, "…"), *rest]
