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
every time. It reads the game's rules from its view: the hand's size and value, the count
and the play are the rules'; where the role tables do not hold (anything but the standard
two-player game) it weighs the crib by the one-card or two-card table where that holds, and
leaves the crib out where no table does.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.players import crib_table, role_crib
from engine.players.base import Player, crib_sign, playable
from engine.players.discard_ev import check_split, split_places, unseen_starters
from engine.players.fastscore import fast_show
from engine.players.playout import thumb_choice
from engine.rules import Rules
from engine.views import SeatView

__all__ = ["ClubPlayer", "club_discard_values"]


def club_discard_values(
    hand: tuple[Card, ...], discard_count: int, sign: int, rules: Rules
) -> list[tuple[tuple[Card, ...], float]]:
    """Every way to throw ``discard_count`` cards of ``hand`` with the club player's value
    (``sign`` +1 when the crib is the seat's side's, -1 when an opponent's) in a game played
    by ``rules``, in the order the hand's cards give (best not first)."""
    check_split(hand, discard_count, rules)
    indexes = [card.index for card in hand]
    unseen = unseen_starters(hand)
    show = fast_show(rules)
    by_role = role_crib.holds(rules)
    by_table = crib_table.holds(rules)
    values = []
    for kept_at, thrown_at in split_places(len(hand), discard_count):
        kept = [indexes[i] for i in kept_at]
        value = show.starter_sum(kept, unseen) / len(unseen)
        thrown = tuple(hand[i] for i in thrown_at)
        if by_role:
            a, b = thrown
            value += sign * role_crib.rank_crib_value(a.rank, b.rank, dealer=sign > 0)
        elif by_table:
            value += sign * crib_table.crib_value([card.index for card in thrown])
        values.append((thrown, value))
    return values


class ClubPlayer(Player):
    """Exact hand averages and role crib tables; the club's rules of thumb in the play."""

    name = "club"

    def choose_discard(self, view: SeatView, rng: random.Random) -> tuple[Card, ...]:
        """The split with the best hand average ± crib table value (first of equals)."""
        sign = crib_sign(view, view.seat)
        values = club_discard_values(view.hand, view.discard_count, sign, view.rules)
        best = max(value for _, value in values)
        return next(thrown for thrown, value in values if value >= best - 1e-9)

    def choose_play(self, view: SeatView, rng: random.Random) -> Card:
        """The card the rules of thumb pick (see the module)."""
        cards = sorted(playable(view), key=Card.sort_key)
        series = [card.rank for card in view.series]
        rank = thumb_choice([card.rank for card in cards], series, view.count, rules=view.rules)
        return next(card for card in cards if card.rank == rank)
