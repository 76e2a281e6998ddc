"""What ranked play says: the refusals, a player's card (their search, then their match), the
lines a ranked game's table adds, and the ladder. Names are escaped; an opponent is named by
their display name alone, never by the place they play from."""

from __future__ import annotations

from bot.core.base.text import change_text, escape, shown_until
from bot.core.games.endings import NO_RESULT, Ending, said
from bot.core.games.records import ordinal
from bot.core.ranked.rating import PLACEMENT_MATCHES, rank_of, shown_rating, uncertainty
from bot.core.ranked.records import NOT_RATED, MatchLine, RatingRecord, Unrated

__all__ = [
    "ALREADY_SEARCHING",
    "BLOCK_NOBODY_MET",
    "BLOCK_NOT_MET",
    "BLOCK_SELF",
    "EXPERT_INSTEAD",
    "IN_A_MATCH",
    "MATCH_NOT_RATED",
    "NOTHING_TO_LEAVE",
    "NOT_BLOCKED",
    "NOT_RATED_GAME",
    "NOT_YOUR_SEARCH",
    "NO_EXPERT_HERE",
    "SEARCH_OVER",
    "SEARCH_STOPPED",
    "UNBLOCK_NOBODY",
    "UPGRADING",
    "already_blocked",
    "both_late_game",
    "cooldown",
    "ladder_standing",
    "match_line",
    "match_not_rated",
    "matches",
    "named_twice",
    "next_search",
    "not_blocked_named",
    "not_met_named",
    "not_rated",
    "rating_words",
]

# -- a match that ended without a result (the referee: the bot was down too long, or both
# -- players let their clocks run out) -----------------------------------------------------------
#: Why such a match was not rated, as its tables, cards and next search say it.
_NOT_RATED_WHY = {
    Unrated.DOWN: "the bot was down too long to reach both players",
    Unrated.BOTH_LATE: "both clocks ran out in the same turn, and a game neither player moved "
    "in counts for neither",
}
#: The same, as a player's latest matches list it.
_NOT_RATED_SHORT = {Unrated.DOWN: "the bot was down", Unrated.BOTH_LATE: "both clocks ran out"}


def match_not_rated(why: Unrated) -> str:
    """What the tables and both cards of a match that ended without a result say of it.

    >>> match_not_rated(Unrated.DOWN)[-20:]
    'reach both players.'
    """
    return f"🚫 **This ranked match was not rated**: {_NOT_RATED_WHY[why]}."


#: What the tables and both cards of a match the bot was down too long for say of it.
MATCH_NOT_RATED = match_not_rated(Unrated.DOWN)
#: What its game still being played then says as it ends (its ``end_note``: what its page,
#: the Activity and ``/cribbage status`` say of it), the match's why in the cards' words.
NOT_RATED_GAME = (
    f"This game ended with its match, which was not rated: {_NOT_RATED_WHY[Unrated.DOWN]}. "
    f"{NO_RESULT}"
)


def both_late_game(a: str, b: str) -> str:
    """How a ranked game both players let their clocks run out in ends (its ``end_note``,
    said once on each place's table, its page and ``/cribbage status``; ``a`` and ``b``:
    their names, escaped): neither loses it before the other.

    >>> both_late_game("Al", "Bea")
    '⏰ Both clocks ran out — neither Al nor Bea moved in time. No result is recorded.'
    """
    return f"⏰ Both clocks ran out — neither {a} nor {b} moved in time. {NO_RESULT}"


def not_rated(opponent: str, why: Unrated = Unrated.DOWN) -> str:
    """What a player is told of their match that ended so (``opponent``: escaped), where
    they next use ranked play (their next search's answer).

    >>> not_rated("Bea").startswith("Your ranked match against **Bea** was not rated: the bot")
    True
    """
    return f"Your ranked match against **{opponent}** was not rated: {_NOT_RATED_WHY[why]}."


# -- refusals -----------------------------------------------------------------------------------
ALREADY_SEARCHING = (
    "You're already searching for a ranked opponent: your card says how long you've waited "
    "(stop it with its button, or `/cribbage ranked leave`)."
)
IN_A_MATCH = (
    "You're in a ranked match already: play it out at its table (or leave it with "
    "`/cribbage ranked leave`, which loses it)."
)
NOTHING_TO_LEAVE = "You're not searching or playing a ranked match."
NOT_YOUR_SEARCH = "That's someone else's search: start your own with `/cribbage ranked play`."
SEARCH_OVER = "That search is over: start another with `/cribbage ranked play`."
#: ``/cribbage ranked block`` with nobody to block, or the wrong one: each case its sentence.
BLOCK_NOBODY_MET = "You haven't played a ranked match yet, so there's nobody to block."
BLOCK_SELF = "You can't block yourself: choose a player you've met from the list."
BLOCK_NOT_MET = (
    "You haven't met that player in a ranked match: only players you've met can be blocked "
    "(the list offers them)."
)
NOT_BLOCKED = "You haven't blocked that player (the list offers the players you blocked)."
#: ``/cribbage ranked unblock`` by a player who blocked nobody.
UNBLOCK_NOBODY = "You haven't blocked anyone, so there's nobody to unblock."


def not_met_named(name: str) -> str:
    """``/cribbage ranked block`` naming nobody the player has met (``name`` as typed,
    escaped)."""
    return (
        f"You haven't met anyone called **{name}** in a ranked match: only players you've met "
        "can be blocked (the list offers them)."
    )


def named_twice(name: str) -> str:
    """A name typed that more than one of the players listed goes by (escaped)."""
    return f"More than one player called **{name}** is on your list: choose one from it."


def not_blocked_named(name: str) -> str:
    """``/cribbage ranked unblock`` naming nobody the player blocked (escaped)."""
    return (
        f"You haven't blocked anyone called **{name}** (the list offers the players you blocked)."
    )


def already_blocked(name: str) -> str:
    """``/cribbage ranked block`` of a player blocked already (escaped)."""
    return f"You've blocked **{name}** already (`/cribbage ranked unblock` lifts it)."


#: The card's answer when its player chose the expert's game instead of waiting.
EXPERT_INSTEAD = "You stopped searching to play the expert: the game is below (it isn't ranked)."
NO_EXPERT_HERE = (
    "Games against the computer aren't played in my DMs: use `/cribbage new vs_computer:True` "
    "in a server channel, or in a DM or group DM with the app added to your account."
)
SEARCH_STOPPED = "You stopped searching."
UPGRADING = (
    "Ranked play opens once the bot's upgrade is done (a few minutes at most): try again soon."
)


def cooldown(until: float) -> str:
    """The refusal of a search by a player who left matches lately."""
    return (
        "You left a ranked match lately (or let its clock run out without playing), so your "
        f"next search waits until {shown_until(until)}."
    )


def next_search(until: float) -> str:
    """What leaving a match adds to its answer: when the leaver may search again."""
    return f"Your next ranked search can start {shown_until(until)}."


def rating_words(rating: RatingRecord | None) -> str:
    """A player's rating as the card and the ladder say it: ``1,112 ± 140``, with the rank
    (or how many placement matches are left)."""
    if rating is None:
        return f"none yet ({PLACEMENT_MATCHES} placement matches before a rank)"
    points = f"{shown_rating(rating.mu, rating.sigma):,} ± {uncertainty(rating.sigma)}"
    rank = rank_of(rating)
    if rank is None:
        return f"{points}, placing: {_before_a_rank(rating)}"
    return f"{points}, {rank.badge} {rank.name}"


def _before_a_rank(rating: RatingRecord) -> str:
    """``4 more matches before a rank`` (a player still placing)."""
    left = PLACEMENT_MATCHES - rating.matches
    noun = "match" if left == 1 else "matches"
    return f"{left} more {noun} before a rank"


def ladder_standing(name: str, rating: RatingRecord, place: int | None, size: int) -> str:
    """Where a player (``name``, escaped) stands after a match, as its last table says it:
    ``Bea: #3 of 57 on the ladder, 🔢 Counter.``, or while placing ``Bea: 4 more matches
    before a rank on the ladder.`` (``place`` among the ``size`` ranked; None: not ranked)."""
    rank = rank_of(rating)
    if rank is None or place is None:
        return f"{name}: {_before_a_rank(rating)} on the ladder."
    return f"{name}: #{place} of {size} on the ladder, {rank.badge} {rank.name}."


def matches(n: int) -> str:
    """``1 match``, ``3 matches``."""
    return f"{n} match" if n == 1 else f"{n} matches"


def match_line(line: MatchLine, reader: str) -> str:
    """One finished match in ``reader``'s list (their name): ``Won 2–1 against **Bea** ·
    1,112 (+24) · <t:…:R>``; decided by a player leaving, who left: ``Lost 0–2 against
    **Bea** (Al left the match) · …``; ended without a result: ``Not rated against **Bea**
    (the bot was down) · …``, ``(both clocks ran out)``."""
    opponent = escape(line.opponent_name)
    if line.how == NOT_RATED:
        why = _NOT_RATED_SHORT[line.unrated or Unrated.DOWN]
        return f"Not rated against **{opponent}** ({why}) · <t:{int(line.ended_at)}:R>"
    result = "Won" if line.won else "Lost"
    games = f"{line.games_won}–{line.games_lost}"
    leaver = opponent if line.won else escape(reader)
    how = f" ({said(Ending.LEFT, leaver)})" if line.how == Ending.LEFT else ""
    before = ordinal(line.mu_before, line.sigma_before)
    after = ordinal(line.mu_after, line.sigma_after)
    return (
        f"{result} {games} against **{opponent}**{how} · {change_text(before, after)} · "
        f"<t:{int(line.ended_at)}:R>"
    )
