"""A player's ranked card: the answer to ``/cribbage ranked play`` at the place they queued from,
kept up to date through its interaction's token (owner ``ranked:<entry>``, key ``card``).

While they search it says since when and until when (Discord shows the time passing without an
edit), their rating, and offers *Stop searching*; once nobody was found for
:data:`~bot.core.ranked.matching.EXPERT_OFFER_AFTER` it offers the expert's game instead (not
ranked); once it ended, stopped or finding nobody, *Find a ranked match* (a new search). Once
paired it names the opponent, with their picture and ranked rating, and says each game's table
comes here. A token lives 15 minutes, and a search ends before that
(:data:`~bot.core.ranked.matching.SEARCH_AT_MOST`): what happens after, the games' tables say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.core.base.delivery import Drawing, Owed, Projector
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.places import PlaceKind
from bot.core.base.seating import Through
from bot.core.base.text import escape
from bot.core.base.views import MessageRecord, MessageView, RankedAction, RankedControls, laid_out
from bot.core.games.endings import Ending, said
from bot.core.games.records import is_former
from bot.core.ranked.matching import EXPERT_OFFER_AFTER, SEARCH_AT_MOST
from bot.core.ranked.records import (
    NOT_RATED,
    EntryRecord,
    EntryStatus,
    MatchRecord,
    MatchStatus,
    RatingRecord,
    Unrated,
    unrated_why,
)
from bot.core.ranked.storage import CardStore, LadderStore
from bot.core.ranked.words import match_not_rated, not_rated, rating_words

__all__ = ["CARD", "CardMessages", "card_view", "unrated_before"]

#: The key of a player's card among their entry's messages.
CARD = MessageKey("card")
#: A decided match's card points below, where its ratings are said once.
_LAST_TABLE = "The last table below has the new ratings, and a button to search again."
#: Entries that ended this recently are brought up to date at start-up too.
RECONCILE_ENDED = 3600.0


def _offers_expert(entry: EntryRecord, now: float) -> bool:
    """Whether the card offers the expert's game now (nobody found for a while; not in the
    bot's DMs, where no game is played)."""
    waited = now - entry.queued_at
    return (
        entry.status is EntryStatus.SEARCHING
        and waited >= EXPERT_OFFER_AFTER
        and entry.place is not PlaceKind.BOT_DM
    )


def card_view(
    entry: EntryRecord,
    now: float,
    *,
    rating: RatingRecord | None = None,
    match: MatchRecord | None = None,
    opponent: EntryRecord | None = None,
    their_rating: RatingRecord | None = None,
    unrated: str | None = None,
    why: Unrated = Unrated.DOWN,
) -> MessageView:
    """The card of ``entry`` at ``now``: its search (with the player's ``rating``), or its
    ``match`` against ``opponent`` (with ``their_rating``, the opponent's latest as they were
    paired), and once decided who won (the ratings, said once, are on the match's last table,
    below: :mod:`bot.core.ranked.scoreboard`), or, ended without a result, why (``why``).
    ``unrated``: what the player is told of their match before, which was not rated, as
    their next search and match say until that match is over (:func:`unrated_before`)."""
    told = () if unrated is None else ((unrated,),)
    name = escape(entry.name)
    status = entry.status
    if status is EntryStatus.SEARCHING:
        groups: list[tuple[str, ...]] = [
            (
                f"🔎 **{name} is looking for a ranked opponent** — searching since "
                f"<t:{int(entry.queued_at)}:R>.",
                f"Ranked rating: {rating_words(rating)}. Opponents come from every server and DM, "
                "nearest in rating; the range widens the longer you wait. A match is a best of "
                "three to 121, with a turn clock.",
                f"If nobody comes, the search ends <t:{int(entry.queued_at + SEARCH_AT_MOST)}:R>.",
            )
        ]
        buttons: tuple[RankedAction, ...] = ("stop",)
        if _offers_expert(entry, now):
            groups.append(
                (
                    "Nobody yet. Play the expert while you wait? That game isn't ranked, and "
                    "it ends this search.",
                )
            )
            buttons = ("stop", "expert")
        return laid_out([*told, *groups], controls=RankedControls(entry.id, buttons))
    if status in (EntryStatus.STOPPED, EntryStatus.EXPIRED):
        minutes = int(SEARCH_AT_MOST // 60)
        ended = (
            f"{name} stopped searching for a ranked opponent."
            if status is EntryStatus.STOPPED
            else f"Nobody was found for {name} in {minutes} minutes."
        )
        return laid_out(((ended,),), controls=RankedControls(entry.id, ("again",)))
    other = escape(opponent.name) if opponent is not None else "their opponent"
    picture = opponent.avatar if opponent is not None else None
    headline = f"⚔️ **Ranked match: {name} against {other}** — best of three to 121."
    if match is None or status is EntryStatus.MATCHED:
        return laid_out(
            (
                *told,
                (headline, f"{other}'s ranked rating: {rating_words(their_rating)}."),
                (
                    "Each game's table comes here: press **Your hand** on it to play. Every "
                    "turn has a clock; leaving the match (`/cribbage ranked leave`) loses it.",
                ),
            ),
            thumbnail=picture,
        )
    if not match.rated:
        return laid_out(((headline,), (match_not_rated(why),)), thumbnail=picture)
    mine, theirs = match.wins_of(entry.user_id), match.wins_of(match.opponent(entry.user_id))
    won = match.winner == entry.user_id
    # (Decided by a player leaving: the loser, whose leaving counted the game being played.)
    how = f" ({said(Ending.LEFT, other if won else name)})" if match.how == Ending.LEFT else ""
    result = f"{name} won {mine}–{theirs}{how}." if won else f"{other} won {theirs}–{mine}{how}."
    return laid_out(((headline,), (result, _LAST_TABLE)), thumbnail=picture)


class CardMessages(Projector):
    """Draws each player's ranked card from their entry (the ledger's projector for
    ``ranked:<entry>``)."""

    def __init__(self, store: CardStore, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """The card as its entry stands at ``now`` (and when the expert's offer falls due);
        none once its player's data is deleted (the entry stays for their opponent's match, a
        former player's, and where it was drawn is theirs no more)."""
        entry = await self._store.ranked_entry(owner.id)
        if entry is None or is_former(entry.user_id):
            return None
        view = await self.view(entry, now)
        check_at = None
        offer = entry.queued_at + EXPERT_OFFER_AFTER
        if entry.status is EntryStatus.SEARCHING and now < offer:
            check_at = offer
        owed = (Owed(CARD, view, way=Through.TOKENS),)
        return Drawing(entry.channel_id, entry.version, owed, check_at)

    async def view(self, entry: EntryRecord, now: float) -> MessageView:
        """What ``entry``'s card shows at ``now``."""
        store = self._store
        live = entry.status.live
        unrated = await unrated_before(store, entry.user_id, entry.match_id) if live else None
        if entry.status is EntryStatus.SEARCHING:
            rating = await store.latest_rating(entry.user_id)
            return card_view(entry, now, rating=rating, unrated=unrated)
        match = None if entry.match_id is None else await store.ranked_match(entry.match_id)
        if match is None:
            return card_view(entry, now)
        first, second = await store.match_entries(match)
        opponent = second if first.id == entry.id else first
        theirs = None
        if entry.status is EntryStatus.MATCHED:
            # (Their rating changes only as this match ends: what it was when they met.)
            theirs = await store.latest_rating(opponent.user_id)
        why = Unrated.DOWN
        if match.status is MatchStatus.FINISHED and not match.rated:
            why = unrated_why(await store.match_games(match.id))
        return card_view(
            entry,
            now,
            match=match,
            opponent=opponent,
            their_rating=theirs,
            unrated=unrated,
            why=why,
        )

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """Every live entry's card, and those of entries ended in the last hour."""
        since = now - RECONCILE_ENDED
        return [(Owner.ranked(e.id), e.channel_id) for e in await self._store.entries_since(since)]


async def unrated_before(store: LadderStore, user_id: int, match_id: int | None) -> str | None:
    """What the player is told of their latest finished match (other than ``match_id``,
    their entry's) if it ended without a result (:data:`~bot.core.ranked.records.NOT_RATED`):
    their next search's card says so, and why (the bot may not have reached their place as
    it ended)."""
    lines = await store.match_lines(user_id, limit=1)
    if not lines or lines[0].how != NOT_RATED or lines[0].match_id == match_id:
        return None
    return not_rated(escape(lines[0].opponent_name), lines[0].unrated or Unrated.DOWN)
