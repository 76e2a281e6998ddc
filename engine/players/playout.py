"""The rest of the play, simulated fast on ranks, with a club player's rules of thumb.

Pegging looks only at ranks (pairs, runs) and pip values (15, 31), never at suits, so a
simulated play holds each seat's cards as ranks (1 to 13) in plain lists. :meth:`Finisher.finish`
follows the game's own rules for whose turn it is, the go, 31 and the last card
(:meth:`engine.game.Game.play`; a test plays whole deals both ways and compares), and every
seat plays by :func:`thumb_choice`: the card that scores most now, ties broken by the club
player's rules of thumb (:func:`thumb_value`).

The expert's pegging plays each candidate card out to the end of the play this way, many
times, over hands the opponents might hold (:mod:`engine.players.expert_play`).

The numbers it plays by (the count's limit, what each card, go and last card scores, whether
the play ends at the first go) are the game's rules'.

>>> from engine.rules import Rules
>>> points = [0, 0]
>>> # Seat 0 led a 4 (count 4); seat 1 holds 10 and K, seat 0 holds 6 and J.
>>> finisher(Rules()).finish([[6, 11], [10, 13]], (0, 1), 0, 4, [4], points, (99, 99))
-1
>>> points  # 10 (14), J (24; high cards first), go; 6 (30) and the go; K, the last card
[1, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.cards import PIP_VALUES
from engine.players.fastscore import peg_scorer
from engine.rules import PlayEnd, Points, Rules

__all__ = [
    "Finisher",
    "danger_counts",
    "finisher",
    "thumb_choice",
    "thumb_value",
]

# The rules of thumb, as fractions of a point. They only ever break ties between cards that
# score alike now: the largest gap they can open between two cards (a low lead from a pair
# against a five led, 0.15 + 0.125 + 0.1 against -0.2 - 0.25) is under one point. Their
# sizes were tuned against ``hard`` over a few thousand duplicate deals.
_DANGER_COST = 0.25  # leaving 5 or 21
_FIVE_LEAD_COST = 0.2  # leading a five
_LOW_LEAD_BONUS = 0.15  # leading under five: no single card makes fifteen on it
_PAIR_ROYAL_RISK = 0.05  # pairing when the third card may answer for six
_RUN_RISK = 0.175  # a card one or two ranks from the last invites a run
_PAIR_TRAP = 0.125  # playing from a pair: the reply that pairs it gives me a pair royal
_KEEP_LOW = 0.01  # per pip: shed high cards, keep low ones for the go
#: A ten-card's pip value: a third of the deck is worth ten.
_TEN = PIP_VALUES[10]


def danger_counts(points: Points) -> tuple[int, int]:
    """Counts a card should not leave: a ten-card (a third of the deck) replies for 15 or 31."""
    return points.fifteen - _TEN, points.max_count - _TEN


def thumb_value(
    rank: int, series: list[int], count: int, paired: bool = False, *, rules: Rules
) -> float:
    """What the club player sees in playing ``rank`` now: the points it scores, plus
    tie-breaks worth under a point: do not leave 5 or 21, do not lead a five, lead under
    five, do not play one or two ranks from the last card when it scores nothing (a run for
    the reply), play from a pair (``paired``: the pair a reply makes is a pair royal back),
    pair only when nothing else scores as much (the third card answers for six), keep low
    cards for the go.

    ``series`` is the ranks since the last reset (left as it was) and ``count`` the count
    before the card; the card must fit. (The last card of the play is the only card left,
    so its point never decides anything.)
    """
    value, trap, _ = _thumb(rules.points).rules(rank, series, count)
    return value + trap if paired else value


class _Thumb:
    """The club player's rules of thumb under one :class:`Points`, with what they said for
    the series met so far: play-outs meet the same few thousand series over and over."""

    def __init__(self, points: Points) -> None:
        self.peg = peg_scorer(points)
        self.max_count = points.max_count
        self.danger = danger_counts(points)
        # The highest pip value a lead may have and still never give a fifteen to one card,
        # and the rank a lead should never be (any ten-card replies for fifteen).
        self.safe_lead = points.fifteen - _TEN - 1
        self.five = points.fifteen - _TEN
        # What :meth:`rules` says, by the series and the card packed into one int (four bits
        # a rank, the card last). Only speed depends on it; it is emptied when it grows large.
        self.cache: dict[int, tuple[float, float, int]] = {}

    def rules(self, rank: int, series: list[int], count: int) -> tuple[float, float, int]:
        """:func:`thumb_value` in parts: the value without the pair trap, the trap's bonus
        when played from a pair, and the points the card scores."""
        value = PIP_VALUES[rank]
        new = count + value
        series.append(rank)
        points = self.peg(series, new)
        series.pop()
        score = points + _KEEP_LOW * value
        if new in self.danger:
            score -= _DANGER_COST
        room = new + value <= self.max_count  # a card of the same rank may follow
        trap = _PAIR_TRAP if room else 0.0
        if not series:
            if rank == self.five:
                score -= _FIVE_LEAD_COST
            elif value <= self.safe_lead:
                score += _LOW_LEAD_BONUS
            return score, trap, points
        gap = series[-1] - rank
        if gap == 0:
            if room:
                score -= _PAIR_ROYAL_RISK
        elif -2 <= gap <= 2 and new < self.max_count and not points:
            score -= _RUN_RISK
        return score, trap, points

    def cached(
        self, key: int, rank: int, series: list[int], count: int
    ) -> tuple[float, float, int]:
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) >= _CACHE_LIMIT:
                self.cache.clear()
            found = self.cache[key] = self.rules(rank, series, count)
        return found

    def choose(self, hand: list[int], series: list[int], key: int, count: int) -> tuple[int, int]:
        """:func:`thumb_choice` with the series' packed key; also the points the card scores."""
        cache = self.cache
        if len(hand) == 1:
            rank = hand[0]
            found = cache.get(key << 4 | rank) or self.cached(key << 4 | rank, rank, series, count)
            return rank, found[2]
        best = -1
        best_value = -1e9
        points = 0
        room = self.max_count - count
        for rank in hand:
            if PIP_VALUES[rank] > room or rank == best:
                continue
            # The cache answers nearly every time: looked up here, without a call.
            found = cache.get(key << 4 | rank) or self.cached(key << 4 | rank, rank, series, count)
            value, trap, scored = found
            if trap and hand.count(rank) > 1:
                value += trap
            if value > best_value or (value == best_value and rank < best):
                best, best_value, points = rank, value, scored
        return best, points


_CACHE_LIMIT = 1 << 18


@cache
def _thumb(points: Points) -> _Thumb:
    return _Thumb(points)


def thumb_choice(hand: Sequence[int], series: Sequence[int], count: int, *, rules: Rules) -> int:
    """The rank the club player plays from ``hand`` (some card must fit the count); ties go
    to the lower rank."""
    key = 0
    for rank in series:
        key = key << 4 | rank
    return _thumb(rules.points).choose(list(hand), list(series), key, count)[0]


def _next_holder(hands: Sequence[Sequence[int]], last: int) -> int:
    """The first seat after ``last`` (ending with ``last`` itself) still holding cards."""
    n = len(hands)
    for step in range(1, n + 1):
        seat = (last + step) % n
        if hands[seat]:
            return seat
    return -1


def _can_move(hand: Sequence[int], room: int) -> bool:
    # A plain loop: any() over a generator costs twice as much here, in the hottest loop.
    for rank in hand:  # noqa: SIM110
        if PIP_VALUES[rank] <= room:
            return True
    return False


class Finisher:
    """The rest of the play by one game's rules, with what the rules say looked up once (the
    expert finishes some 300 plays a decision); :func:`finisher` gives the one of a rules
    value."""

    def __init__(self, rules: Rules) -> None:
        self.choose = _thumb(rules.points).choose
        self.max_count = rules.points.max_count
        self.go_points, self.last_card = rules.points.go, rules.points.last_card
        self.one_pass = rules.play_end is PlayEnd.FIRST_GO

    def finish(
        self,
        hands: list[list[int]],
        sides: Sequence[int],
        last: int,
        count: int,
        series: list[int],
        points: list[int],
        needs: Sequence[int],
    ) -> int:
        """Play the rest of the play after seat ``last`` has just played (its card is the end
        of ``series``, already scored and counted in ``count``), every seat by
        :func:`thumb_choice`.

        ``hands`` (ranks per seat) and ``series`` are used up; each side's points are added
        to ``points``. Returns the side that reaches its ``needs`` (points still needed to
        win) first, or -1 when no side does; the play stops there, as the game would.
        """
        choose = self.choose
        max_count = self.max_count
        go_points, last_card = self.go_points, self.last_card
        one_pass = self.one_pass
        n = len(hands)
        left = 0
        for hand in hands:
            left += len(hand)
        key = 0
        for rank in series:
            key = key << 4 | rank
        while True:
            turn = -1
            if count == max_count:
                # 31 scored in the play itself; no go point after it.
                if not left or one_pass:
                    return -1
                turn = _next_holder(hands, last)
                count = key = 0
                series = []
            elif not left:
                side = sides[last]
                points[side] += last_card
                return side if points[side] >= needs[side] else -1
            else:
                room = max_count - count
                for step in range(1, n):
                    seat = (last + step) % n
                    if hands[seat] and _can_move(hands[seat], room):
                        turn = seat
                        break
                if turn < 0:
                    if _can_move(hands[last], room):
                        turn = last  # everyone else said go: the last player plays on
                    else:
                        side = sides[last]
                        points[side] += go_points
                        if points[side] >= needs[side]:
                            return side
                        if one_pass:
                            return -1
                        turn = _next_holder(hands, last)
                        count = key = 0
                        series = []
            hand = hands[turn]
            rank, scored = choose(hand, series, key, count)
            hand.remove(rank)
            left -= 1
            count += PIP_VALUES[rank]
            series.append(rank)
            key = key << 4 | rank
            side = sides[turn]
            points[side] += scored
            if points[side] >= needs[side]:
                return side
            last = turn


@cache
def finisher(rules: Rules) -> Finisher:
    """The :class:`Finisher` of ``rules`` (one per rules value)."""
    return Finisher(rules)
