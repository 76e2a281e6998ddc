"""The rest of a two-player play searched over every guess at once, for the expert.

Where :meth:`engine.players.playout.Finisher.finish` plays the rest of the play out with both
seats following the club player's rules of thumb, :class:`PlaySearch` lets the seat that asks
choose each of its later cards as well as it can. It does so without peeking: the opponent
plays each guessed hand by the rules of thumb (:func:`engine.players.playout.thumb_choice`),
and at each later turn the seat chooses one card for all the guesses that look alike to it by
then (the same cards played by the opponent, the same goes, so the same count, series and
points), the card best on their weighted outcomes. So its value of a card is what the seat
can make of it knowing what it will know, against an opponent who plays as a club player
does: never less than the play-outs' (whose later cards are the rules of thumb's, one of the
ways it may choose), and not the value of a seat that sees the opponent's hand. The turns,
the go, 31 and the last card follow the same steps as the finisher (a test compares them).

A guess's opponent meets the same positions over and over, so what the rules of thumb play
is looked up by the cards held, the count and the part of the series that can still score
(:func:`scoring_tail`); what they see in each card, and what a card pegs and leaves to score,
by that part, the card and the count (the search's own tables, gone with it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import PIP_VALUES
from engine.players.fastscore import peg_scorer
from engine.players.playout import thumb_value
from engine.rules import PlayEnd, Rules

__all__ = ["Belief", "PlaySearch", "scoring_tail"]

#: What the finished play is worth for one guess: given the points each side pegged and the
#: side that reached the target (-1 for none): :data:`engine.players.expert_play.Outcome`.
Outcome = Callable[[Sequence[int], int], float]
#: One guess as the search carries it: the opponent's ranks (sorted), its weight, its outcome.
Belief = tuple[tuple[int, ...], float, Outcome]
#: What the seat sees when it is to play again: the opponent's cards played meanwhile, the
#: count, the scoring tail of the series and the points.
_Sight = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]
#: Still playing: no side has reached the target and the play is not over.
_PLAYING = -2
#: What the rules of thumb see in a rank played onto a scoring tail at a count (the count
#: before it): from a single card, and from a pair.
_Values = dict[tuple[tuple[int, ...], int, int], tuple[float, float]]
#: What a rank played onto a scoring tail to a count (the card's pips in it) pegs, and the
#: scoring tail it leaves.
_Steps = dict[tuple[tuple[int, ...], int, int], tuple[int, tuple[int, ...]]]


def scoring_tail(series: Sequence[int]) -> tuple[int, ...]:
    """The end of ``series`` that can still score with cards to come: the trailing cards of
    one rank when there are two or more (no run reaches past a pair), else the longest
    stretch of distinct ranks at the end (no run reaches past a repeated rank).

    >>> scoring_tail([3, 5, 5]), scoring_tail([4, 2, 9, 4, 6]), scoring_tail([])
    ((5, 5), (2, 9, 4, 6), ())
    """
    n = len(series)
    if n >= 2 and series[-1] == series[-2]:
        start = n - 2
        while start > 0 and series[start - 1] == series[-1]:
            start -= 1
        return tuple(series[start:])
    seen = 0
    start = n
    while start > 0 and not seen & (1 << series[start - 1]):
        seen |= 1 << series[start - 1]
        start -= 1
    return tuple(series[start:])


def _without(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    at = hand.index(rank)
    return hand[:at] + hand[at + 1 :]


def _peg(
    points: tuple[int, ...], side: int, gained: int, needs: tuple[int, ...]
) -> tuple[tuple[int, ...], int]:
    """``points`` with ``gained`` pegged to ``side``, and the side that has then won:
    ``side`` when it reached what it needed, else :data:`_PLAYING`."""
    listed = list(points)
    listed[side] += gained
    pegged = tuple(listed)
    return pegged, side if pegged[side] >= needs[side] else _PLAYING


def _playable(hand: tuple[int, ...], room: int) -> list[int]:
    """Each rank of ``hand`` (ascending) that fits in ``room``, once: a second card of a
    rank is worth what the first is."""
    ranks: list[int] = []
    for rank in hand:
        if PIP_VALUES[rank] <= room and (not ranks or ranks[-1] != rank):
            ranks.append(rank)
    return ranks


class PlaySearch:
    """The search of the rest of one two-player play for seat ``me`` (see the module), by
    ``rules``, the seats on ``sides``, each side still needing ``needs`` points to win."""

    def __init__(self, rules: Rules, sides: Sequence[int], me: int, needs: Sequence[int]) -> None:
        points = rules.points
        self.peg = peg_scorer(points)
        self.rules = rules
        self.max_count = points.max_count
        self.go_points, self.last_card = points.go, points.last_card
        self.one_pass = rules.play_end is PlayEnd.FIRST_GO
        self.sides = tuple(sides)
        self.me, self.other = me, 1 - me
        self.needs = tuple(needs)
        #: What the rules of thumb play, by the ranks held, the scoring tail and the count.
        self.thumbs: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}
        self.values: _Values = {}
        self.steps: _Steps = {}

    def value(
        self,
        mine: Sequence[int],
        guesses: Sequence[Belief],
        count: int,
        series: Sequence[int],
        points: Sequence[int],
    ) -> float:
        """The weighted sum of the guesses' outcomes, the seat choosing its later cards
        best, after it has played the last card of ``series`` (scored in ``points``,
        counted in ``count``) and holds ``mine``."""
        return self._after(
            tuple(sorted(mine)), list(guesses), self.me, count, scoring_tail(series),
            tuple(points),
        )  # fmt: skip

    def _turn(
        self, held: tuple[tuple[int, ...], tuple[int, ...]], last: int, count: int
    ) -> tuple[int, bool, int]:
        """After seat ``last`` played to ``count`` (seats holding ``held``): the seat to play
        (-1 when the play is over), whether the count starts again, and the go or last card
        ``last`` takes first (as :meth:`engine.players.playout.Finisher.finish`)."""
        if count == self.max_count:
            if not (held[0] or held[1]) or self.one_pass:
                return -1, True, 0
            return (1 - last if held[1 - last] else last), True, 0
        if not (held[0] or held[1]):
            return -1, True, self.last_card
        room = self.max_count - count
        other = 1 - last
        for rank in held[other]:
            if PIP_VALUES[rank] <= room:
                return other, False, 0
        for rank in held[last]:
            if PIP_VALUES[rank] <= room:
                return last, False, 0
        if self.one_pass:
            return -1, True, self.go_points
        return (other if held[other] else last), True, self.go_points

    def _thumb_choice(self, hand: tuple[int, ...], tail: tuple[int, ...], count: int) -> int:
        """The rank the rules of thumb play from ``hand`` (:func:`thumb_choice`'s choice,
        which looks at the scoring tail and the count alone)."""
        # Not thumb_choice itself: its cache is keyed by the whole series, the count implied,
        # and the search carries only the tail, which many counts share.
        key = (hand, tail, count)
        found = self.thumbs.get(key)
        if found is None:
            found = -1
            best = -1e9
            for rank in _playable(hand, self.max_count - count):  # ties go to the lower rank
                value = self._thumb_value(tail, count, rank)[hand.count(rank) > 1]
                if value > best:
                    found, best = rank, value
            self.thumbs[key] = found
        return found

    def _thumb_value(self, tail: tuple[int, ...], count: int, rank: int) -> tuple[float, float]:
        """:func:`thumb_value` of ``rank`` played onto the scoring ``tail`` at ``count``:
        played from a single card, and from a pair."""
        key = (tail, count, rank)
        found = self.values.get(key)
        if found is None:
            series = list(tail)
            found = (
                thumb_value(rank, series, count, False, rules=self.rules),
                thumb_value(rank, series, count, True, rules=self.rules),
            )
            self.values[key] = found
        return found

    def _step(self, tail: tuple[int, ...], rank: int, count: int) -> tuple[int, tuple[int, ...]]:
        """What ``rank`` played onto the scoring ``tail`` to ``count`` (the card counted in
        it) pegs, and the scoring tail it leaves."""
        key = (tail, rank, count)
        found = self.steps.get(key)
        if found is None:
            series = (*tail, rank)
            found = (self.peg(series, count), scoring_tail(series))
            self.steps[key] = found
        return found

    def _after(
        self,
        mine: tuple[int, ...],
        group: list[Belief],
        last: int,
        count: int,
        tail: tuple[int, ...],
        points: tuple[int, ...],
    ) -> float:
        """From after seat ``last`` played: each guess's opponent plays by the rules of
        thumb until the seat is to play again or the play ends; the guesses that then look
        alike are decided together (:meth:`_choose`)."""
        me, other, sides, needs = self.me, self.other, self.sides, self.needs
        total = 0.0
        alike: dict[_Sight, list[Belief]] = {}
        for theirs, weight, outcome in group:
            held = (mine, theirs) if me == 0 else (theirs, mine)
            at, now, run, pegged = last, count, tail, points
            seen: list[int] = []
            winner = _PLAYING
            while True:
                turn, reset, bonus = self._turn(held, at, now)
                if bonus:
                    pegged, winner = _peg(pegged, sides[at], bonus, needs)
                    if winner != _PLAYING:
                        break
                if turn < 0:
                    winner = -1
                    break
                if reset:
                    now, run = 0, ()
                if turn == me:
                    break
                rank = self._thumb_choice(held[other], run, now)
                seen.append(rank)
                now += PIP_VALUES[rank]
                scored, run = self._step(run, rank, now)
                left = _without(held[other], rank)
                held = (mine, left) if me == 0 else (left, mine)
                at = other
                if scored:
                    pegged, winner = _peg(pegged, sides[other], scored, needs)
                    if winner != _PLAYING:
                        break
            if winner != _PLAYING:
                total += weight * outcome(pegged, winner)
            else:
                # What the seat sees: the cards the opponent played (and so its goes), the
                # count, the series and the points.
                key = (tuple(seen), now, run, pegged)
                alike.setdefault(key, []).append((held[other], weight, outcome))
        for (_, now, run, pegged), guesses in alike.items():
            total += self._choose(mine, guesses, now, run, pegged)
        return total

    def _choose(
        self,
        mine: tuple[int, ...],
        group: list[Belief],
        count: int,
        tail: tuple[int, ...],
        points: tuple[int, ...],
    ) -> float:
        """The seat to play, holding ``mine``: the weighted outcome over ``group`` of the
        one card best for them all."""
        side = self.sides[self.me]
        best = -1e18
        for rank in _playable(mine, self.max_count - count):
            now = count + PIP_VALUES[rank]
            scored, run = self._step(tail, rank, now)
            pegged, winner = (
                _peg(points, side, scored, self.needs) if scored else (points, _PLAYING)
            )
            if winner != _PLAYING:
                value = sum(weight * outcome(pegged, winner) for _, weight, outcome in group)
            else:
                value = self._after(_without(mine, rank), group, self.me, now, run, pegged)
            if value > best:
                best = value
        return best
