"""A server's standings: the leaderboard by rating, a player's stats and charts, head to head.

Everything here is read from the standings the store derives from the results, in the
transaction that records each finished game (``bot.store.standings``); nothing changes.
"""

from __future__ import annotations

import asyncio
import dataclasses

from bot.core.base import refusals
from bot.core.base.audience import Audience, ChannelSight
from bot.core.base.choices import POOL_TITLES
from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, Reply, User
from bot.core.base.views import MessageView, PageControls, Pool
from bot.core.pictures import Picture
from bot.core.standings.records import Ranked, RivalGame, Standing
from bot.core.standings.stats import stats_pictures
from bot.core.standings.storage import StandingsRecords
from bot.core.standings.words import (
    AVERAGE_OF,
    ON_THIS_SERVER,
    OUTSIDE_SERVERS,
    PAGE_SIZE,
    head_to_head_text,
    leaderboard_text,
    rank_line,
    stats_text,
    variant_line,
)
from engine.outcome import final_scores
from engine.variants import STANDARD, Variant, listed, named, title_unless_standard

__all__ = ["Standings"]

#: The best hands a player's stats show, and how many are looked at to find them among the
#: games everyone reading may know of.
BEST_SHOWN = 3
BEST_LOOKED_AT = 12


class Standings:
    """The leaderboard and the players' records on a server."""

    def __init__(
        self,
        store: StandingsRecords,
        faults: Faults,
        sight: ChannelSight,
    ) -> None:
        """``faults``: where a store that fails is noted (the games'); ``sight``: which
        channels every member of a server sees (a game's hands and scores are named only to
        those who can see where it was played)."""
        self._store = store
        self.faults = faults
        self._sight = sight

    @answers
    async def leaderboard(
        self,
        guild_id: int | None,
        *,
        table: Pool = "people",
        page: int = 0,
        variant: str = STANDARD.name,
    ) -> Answer:
        """One page of the server's standings by rating in ``variant`` (each variant is
        rated apart; the standard game by default): ``table`` ``people`` (games between
        people) or ``computer`` (games with a computer seat, each level a rated player). The
        page is both the reply and, for its buttons, the clicked message's new look."""
        if table not in POOL_TITLES:
            raise Refused(refusals.UNKNOWN_BUTTON)
        played = named(variant)
        vs_computer = table == "computer"

        async def ranking(page: int) -> tuple[int, list[Ranked]]:
            return await self._store.ranking(
                guild_id,
                vs_computer=vs_computer,
                offset=page * PAGE_SIZE,
                limit=PAGE_SIZE,
                variant=played.name,
            )

        total, rows = await ranking(max(page, 0))
        pages = max(1, -(-total // PAGE_SIZE))
        if page >= pages or page < 0:
            # A page that is gone (a button from an older, longer table): the last one.
            page = min(max(page, 0), pages - 1)
            total, rows = await ranking(page)
        title = title_unless_standard(played)
        view = MessageView(
            leaderboard_text(table, total, rows, page, title),
            controls=PageControls(table, page, pages, played.name),
        )
        return Answer(reply=Reply(view.content, ephemeral=False, view=view), update=view)

    @answers
    async def stats(
        self,
        guild_id: int | None,
        user: User,
        against: User | None = None,
        *,
        here: int | None = None,
    ) -> Answer:
        """One player's record on this server (``guild_id`` None: in the games they played
        outside servers, in DMs and group DMs): rating and rank in each table, totals, best
        hands and two charts; with ``against``, their head to head with that player. The
        answer is public in channel ``here``: a hand's cards and a game's score are named
        only from games played where everyone reading it can see them (:class:`Audience`);
        totals and ratings count every game."""
        place = ON_THIS_SERVER if guild_id is not None else OUTSIDE_SERVERS
        audience = Audience(self._sight, guild_id, here)
        if against is not None:
            return await self._head_to_head(guild_id, user, against, audience, place)
        ranked = await self._store.standing(guild_id, user.id)
        among = guild_id is not None
        played_in = set(await self._store.variants_played(guild_id, user.id))
        variants = [variant for variant in listed() if variant.name in played_in]
        if not ranked and not variants:
            return Answer.say(stats_text(user.name, None, None, place=place), ephemeral=False)
        levels = await self._store.levels(guild_id) if True in ranked else []
        ranks = (
            rank_line(ranked[False], rank=among) if False in ranked else None,
            rank_line(ranked[True], levels, rank=among) if True in ranked else None,
        )
        lines, charted = await self._variant_lines(guild_id, user, variants)
        best = [
            (points, cards)
            for points, cards, channel_id in await self._store.best_hands(
                guild_id, user.id, limit=BEST_LOOKED_AT
            )
            if await audience.may_name(channel_id)
        ][:BEST_SHOWN]
        # The totals are the standings the rating lines were read from (the standard game's).
        people = ranked[False].standing if False in ranked else None
        computer = ranked[True].standing if True in ranked else None
        text = stats_text(user.name, people, computer, ranks, best, place, variants=lines)
        played, won = await self._store.tournaments_of(guild_id, user.id)
        if played:
            text += f"\nTournaments: {played} played, {won} won."
        # The chart is of the standard game's people's table, or the computer's for those who
        # only play it; for those who only play variants, of the first variant's table.
        if ranked:
            chart, vs_computer = STANDARD.name, False not in ranked
            standing = ranked[vs_computer].standing
        else:
            assert charted is not None
            chart, vs_computer = charted
            standing = (await self._store.standing(guild_id, user.id, chart))[vs_computer].standing
        pictures = await self._charts(guild_id, user, standing, chart, vs_computer, place)
        return Answer.say(text, ephemeral=False, view=MessageView(text, pictures=pictures))

    async def _head_to_head(
        self, guild_id: int | None, user: User, against: User, audience: Audience, place: str
    ) -> Answer:
        """``user``'s head to head with ``against`` (its recent games named only where the
        audience may see them)."""
        if against.id == user.id:
            raise Refused(refusals.AGAINST_SELF)
        rival = await self._store.rival(guild_id, user.id, against.id)
        if rival is not None and rival.recent:
            ids = [g.game_id for g in rival.recent]
            channels = await self._store.game_channels(ids)
            targets = await self._store.game_targets(ids)
            shown = [
                _said(g, targets.get(g.game_id))
                for g in rival.recent
                if await audience.may_name(channels.get(g.game_id))
            ]
            rival = dataclasses.replace(rival, recent=tuple(shown))
        text = head_to_head_text(user.name, against.name, rival, place)
        return Answer.say(text, ephemeral=False)

    async def _variant_lines(
        self, guild_id: int | None, user: User, variants: list[Variant]
    ) -> tuple[list[str], tuple[str, bool] | None]:
        """Each variant's tables the player is rated in, a line each (its rating among its
        own players), and the first of them (variant, against the computer), to chart."""
        lines: list[str] = []
        charted: tuple[str, bool] | None = None
        for variant in variants:
            its = await self._store.standing(guild_id, user.id, variant.name)
            for vs_computer in (False, True):
                if vs_computer in its:
                    rank = guild_id is not None
                    lines.append(
                        variant_line(variant.title, vs_computer, its[vs_computer], rank=rank)
                    )
                    charted = charted or (variant.name, vs_computer)
        return lines, charted

    async def _charts(
        self,
        guild_id: int | None,
        user: User,
        standing: Standing,
        variant: str,
        vs_computer: bool,
        place: str,
    ) -> tuple[Picture, ...]:
        """The charts of the player's ``standing`` in ``variant`` (against the computer or
        not): the rating over time and the points per deal beside the server's (drawn on a
        worker thread)."""
        history = await self._store.rating_history(
            guild_id, user.id, vs_computer=vs_computer, variant=variant
        )
        server = await self._store.server_points(guild_id, variant)
        return await asyncio.to_thread(
            stats_pictures, user.name, standing, history, server, AVERAGE_OF[place]
        )


def _said(game: RivalGame, target: int | None) -> RivalGame:
    """``game`` with its scores as players say them: a win at the game hole (its ``target``;
    None: not known), however far the last count went past it."""
    if target is None or game.outcome == "-":
        return game
    winner = 0 if game.outcome == "W" else 1
    score, other = final_scores((game.score, game.opponent_score), winner, target)
    return dataclasses.replace(game, score=score, opponent_score=other)
