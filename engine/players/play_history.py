"""What a seat can work out about the others' cards from the play so far: who said go, when.

A view lists each seat's cards played this deal, in order, but not how they interleaved nor
who said go. Both follow from the rules: whoever's turn it is must play if any card fits,
so when a seat's next card (the next one it is seen to play) fits the count, that is the
card it played then; when it does not, or the seat is seen to play nothing more, it said go.
Replaying the deal that way from the lead reproduces the game's own order.

A go says something about the cards still held: at count ``c`` none of them fitted, so each
is worth more than ``31 - c`` pips (the rules' limit of the count). The expert samples the
other hands with that in mind. Who leads, how many cards each seat kept and how far the count
goes are the game's rules'.

>>> from engine.cards import parse_cards
>>> from engine.rules import Rules
>>> # Seat 0 dealt. Seat 1 led K, seat 0 played Q (20), seat 1 played 9 (29): seat 0 said go
>>> # holding its other three cards, so each is worth more than 2 pips; seat 1 plays on.
>>> played = (parse_cards("QD"), parse_cards("KC 9S"))
>>> history = replay_play(Rules(), 0, played, (3, 2), me=1, my_hand=parse_cards("2H 8C"))
>>> history.floors
(3, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.rules import Rules
from engine.views import SeatView

__all__ = ["Play", "PlayHistory", "replay_play", "view_history"]

#: One card of the play: (seat, rank, the series' ranks before it, the count before it).
Play = tuple[int, int, tuple[int, ...], int]


@dataclass(frozen=True, slots=True)
class PlayHistory:
    """The play so far as a seat can reconstruct it.

    ``floors[seat]`` is the lowest pip value the cards ``seat`` still holds can have (1 when
    it has said no go that tells anything); the seat asking gets 1 for itself. ``plays``
    lists every card played so far in order as (seat, rank, the ranks of the series before
    it, the count before it); empty when the history could not be replayed.
    """

    floors: tuple[int, ...]
    plays: tuple[Play, ...] = ()


def replay_play(
    rules: Rules,
    dealer: int,
    played: Sequence[Sequence[Card]],
    held: Sequence[int],
    *,
    me: int,
    my_hand: Sequence[Card] = (),
) -> PlayHistory:
    """Replay the play of a game played by ``rules`` from the lead (see the module):
    ``played`` per seat in order,
    ``held`` the cards each seat holds now, ``me`` the seat that asks (whose ``my_hand`` is
    known). A history that does not fit the rules gives no floors rather than wrong ones."""
    players = rules.seats
    max_count = rules.points.max_count
    floors = [1] * players
    plays = [[card.value for card in cards] for cards in played]
    ranks = [[card.rank for card in cards] for cards in played]
    order: list[Play] = []
    series: list[int] = []
    total = sum(len(cards) for cards in plays)
    if total == 0:
        return PlayHistory(tuple(floors))  # nothing played: nothing to replay
    taken = [0] * players
    holding = [len(plays[seat]) + held[seat] for seat in range(players)]
    if any(count != rules.kept for count in holding):
        return PlayHistory(tuple(floors))
    mine = [card.value for card in my_hand]
    count = 0
    done = 0

    def can_move(seat: int) -> bool:
        if taken[seat] < len(plays[seat]):
            return count + plays[seat][taken[seat]] <= max_count
        if seat == me:
            return any(count + value <= max_count for value in mine)
        # Seen to play nothing more: every later turn of this seat was a go.
        return False

    def next_holder(last: int) -> int:
        for step in range(1, players + 1):
            seat = (last + step) % players
            if holding[seat]:
                return seat
        return -1

    def said_go(seat: int) -> None:
        if seat != me:
            floors[seat] = max(floors[seat], max_count - count + 1)

    turn = rules.leader(dealer)
    while True:
        if taken[turn] >= len(plays[turn]):
            # The replay reached a seat that plays nothing more: it must be the asker, now.
            if done == total and turn == me:
                return PlayHistory(tuple(floors), tuple(order))
            return PlayHistory((1,) * players)
        value = plays[turn][taken[turn]]
        if count + value > max_count:
            return PlayHistory((1,) * players)
        order.append((turn, ranks[turn][taken[turn]], tuple(series), count))
        series.append(ranks[turn][taken[turn]])
        count += value
        taken[turn] += 1
        holding[turn] -= 1
        done += 1
        last = turn
        # Whose turn next, as the game decides it after a card.
        if count == max_count:
            turn = next_holder(last)
            count = 0
            series = []
        elif not any(holding):
            return PlayHistory(tuple(floors), tuple(order))
        else:
            turn = -1
            for step in range(1, players):
                seat = (last + step) % players
                if not holding[seat]:
                    continue
                if can_move(seat):
                    turn = seat
                    break
                said_go(seat)
            if turn < 0:
                if can_move(last):
                    turn = last
                else:
                    turn = next_holder(last)
                    count = 0
                    series = []
        if turn < 0:
            return PlayHistory((1,) * players)


def view_history(view: SeatView) -> PlayHistory:
    """:func:`replay_play` for the seat whose view this is."""
    return replay_play(
        view.rules,
        view.dealer,
        view.played,
        view.hand_sizes,
        me=view.seat,
        my_hand=view.hand,
    )
