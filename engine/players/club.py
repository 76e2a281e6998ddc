"""The club player: the yardstick the expert is measured against.

It plays the way a competent club player does, with nothing a person could not do at the
table with a printed discard table:

* **Discard**: every split of the hand is valued as the kept cards' exact average over the
  unseen starters, plus (own crib) or minus (the opponent's crib) the average crib of the
  two thrown cards for that role, suits aside, as published tables give it. The tables are
  the project's own (:func:`engine.players.role_crib.rank_crib_value`, built the way Craig
  Hessel built his), and :mod:`engine.players.role_crib` compares them, pair by pair, with
  the published ones a club player would have printed: Hessel's and DeLynn Colvert's
  discards to the opponent's crib (Cribbage Forum, http://www.cribbageforum.com/OppCrib.htm)
  and Cribbage Pro's dealer discard table (https://blog.cribbagepro.net); ours are within
  about a quarter of a point of them. With three or four players (one card thrown) it uses
  the one-card table of :mod:`engine.players.crib_table`.
* **Play**: the card that scores most now; between cards that score alike the rules of
  thumb of :func:`engine.players.playout.thumb_value`: never lead a five, do not leave the
  count on 5 or 21, lead under five, pair only when nothing else scores as much (the third
  card answers for a pair royal), keep low cards for the go. Ties go to the lower card.

It ignores the score, and the random source is never used: the club player is the same
every time.
"""

from __future__ import annotations

import itertools
import random

from engine.cards import Card
from engine.players.base import Player, crib_sign, playable
from engine.players.crib_table import crib_value
from engine.players.fastscore import starter_sum
from engine.players.playout import thumb_choice
from engine.players.role_crib import rank_crib_value
from engine.rules import SHOW_SIZE
from engine.views import SeatView

__all__ = ["ClubPlayer", "club_discard_values"]


def club_discard_values(
    hand: tuple[Card, ...], discard_count: int, sign: int
) -> list[tuple[tuple[Card, ...], float]]:
    """Every way to throw ``discard_count`` cards of ``hand`` with the club player's value
    (``sign`` +1 when the crib is the seat's side's, -1 when an opponent's), in the order
    the hand's cards give (best not first)."""
    if len(hand) != SHOW_SIZE + discard_count:
        raise ValueError(f"A hand of {len(hand)} cards cannot throw {discard_count}.")
    indexes = [card.index for card in hand]
    held = set(indexes)
    unseen = [i for i in range(52) if i not in held]
    values = []
    for thrown_at in itertools.combinations(range(len(hand)), discard_count):
        kept = [indexes[i] for i in range(len(hand)) if i not in thrown_at]
        value = starter_sum(kept, unseen) / len(unseen)
        thrown = tuple(hand[i] for i in thrown_at)
        if discard_count == 2:
            a, b = thrown
            value += sign * rank_crib_value(a.rank, b.rank, dealer=sign > 0)
        else:
            value += sign * crib_value([card.index for card in thrown])
        values.append((thrown, value))
    return values


class ClubPlayer(Player):
    """Exact hand averages and role crib tables; the club's rules of thumb in the play."""

    name = "club"

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """The split with the best hand average ± crib table value (first of equals)."""
        values = club_discard_values(view.hand, view.discard_count, crib_sign(view, view.seat))
        best = max(value for _, value in values)
        return next(thrown for thrown, value in values if value >= best - 1e-9)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """The card the rules of thumb pick (see the module)."""
        cards = sorted(playable(view), key=Card.sort_key)
        series = [card.rank for card in view.series]
        rank = thumb_choice([card.rank for card in cards], series, view.count)
        return next(card for card in cards if card.rank == rank)
