"""The numbers of cribbage, written once: pip values, the count, what each combination scores,
and how many cards each seat is dealt and throws.

The scorer, the play, the game and the computer players (whose fast arithmetic on card
indexes must agree with the scorer to the point) all read these names, so a rule is changed
in one place. Nothing here imports anything: every other engine module may import it.

>>> pip_value(JACK), pip_value(5), PIP_VALUES[1]
(10, 5, 1)
>>> SET_POINTS[2], SET_POINTS[3], SET_POINTS[4]
(2, 6, 12)
>>> flush_points(starter_matches=False, crib=True), flush_points(starter_matches=False, crib=False)
(0, 4)
>>> hand_size(2), discard_count(2), hand_size(3), discard_count(4)
(6, 2, 5, 1)
"""

from __future__ import annotations

__all__ = [
    "FIFTEEN",
    "FIFTEEN_POINTS",
    "FIVE_CARD_FLUSH_POINTS",
    "FOUR_CARD_FLUSH_POINTS",
    "GO_POINTS",
    "HEELS_POINTS",
    "JACK",
    "LAST_CARD_POINTS",
    "MAX_COUNT",
    "MIN_RUN",
    "NOBS_POINTS",
    "PIP_VALUES",
    "SET_POINTS",
    "SHOW_SIZE",
    "THIRTY_ONE_POINTS",
    "discard_count",
    "flush_points",
    "hand_size",
    "pip_value",
]

#: The rank of the jack (ace 1 ... king 13): the card of nobs and of his heels.
JACK = 11
#: Pip value by rank (index 0 unused): ace 1, two to ten face value, jack, queen, king 10.
PIP_VALUES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

#: Cards whose pip values add up to this score a fifteen, in the show and in the play.
FIFTEEN = 15
FIFTEEN_POINTS = 2
#: The count in the play may never pass this; reaching it exactly scores.
MAX_COUNT = 31
THIRTY_ONE_POINTS = 2
#: Points for n cards of one rank, by n: a pair 2, a pair royal 6, a double pair royal 12.
SET_POINTS: tuple[int, ...] = (0, 0, 2, 6, 12)
#: The shortest run that scores (one point a card).
MIN_RUN = 3

#: Four cards of one suit in a hand (not the crib), the starter another suit.
FOUR_CARD_FLUSH_POINTS = 4
#: All five cards, hand or crib, of one suit.
FIVE_CARD_FLUSH_POINTS = 5
#: The jack of the starter's suit in a hand or the crib.
NOBS_POINTS = 1
#: A jack turned as the starter, to the dealer.
HEELS_POINTS = 2
#: To the last player to play when nobody else can, and for the last card of the play
#: (unless it made 31, which scores :data:`THIRTY_ONE_POINTS` instead).
GO_POINTS = 1
LAST_CARD_POINTS = 1

#: Cards in a hand, or in the crib, at the show (the starter is the fifth card).
SHOW_SIZE = 4


def pip_value(rank: int) -> int:
    """The pip value of a rank (1 to 13) for counts and fifteens."""
    return PIP_VALUES[rank]


def flush_points(*, starter_matches: bool, crib: bool) -> int:
    """Flush points for four cards of one suit, with a starter of that suit or not.

    A hand flush counts four, five with the starter; a crib flush counts only with the
    starter (five).
    """
    if starter_matches:
        return FIVE_CARD_FLUSH_POINTS
    return 0 if crib else FOUR_CARD_FLUSH_POINTS


def hand_size(players: int) -> int:
    """Cards dealt to each seat: 6 with two players, 5 with three or four."""
    return 6 if players == 2 else 5


def discard_count(players: int) -> int:
    """Cards each seat throws to the crib: 2 with two players, 1 with three or four (three
    players' crib takes its fourth card from the deck)."""
    return hand_size(players) - SHOW_SIZE
