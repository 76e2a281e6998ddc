"""The chance to win near the end of a game, reckoned with what the seat knows of the deal.

**At the discard** (:func:`split_chance`) each split is worth the chance to win through the
deal, scored in the order the rules score it: the starter (a jack is the dealer's heels),
the play (each side's pegging, drawn together as club players peg, moved by what the kept
ranks are worth in the play), the pone's hand, then the dealer's hand and crib, then the
next deal from its start. The seat's own hand is exact for each starter; the opponent's is
any hand a pone keeps, by how often; the crib is the split's own (:func:`crib_spread`: the
two cards thrown, two more thrown beside them the way a sensible opponent throws, thinned
for the ranks the seat keeps, and every starter left).

**At the end of the play** the expert values each play-out of the rest of the play by
the chance to win from where it leaves the scores (:mod:`engine.players.expert`). What comes
after the play is the show, the pone's hand first, then the dealer's hand and crib, then the
next deal; this module scores each with what the seat knows rather than the average deal:

* **its own hand** exactly: its four kept cards and the starter;
* **the opponent's hand** from the guess being played out: the ranks it played and the ranks
  the guess gives it, with the starter (fifteens, pairs and runs; suits aside);
* **the crib** by its chances (:func:`crib_chances`): the two cards the seat threw, the
  starter, and two more thrown beside them the way a sensible opponent throws (the role
  tables' throws given the seat's two, :func:`engine.players.role_crib.given_throws`),
  from the cards the seat has not seen;
* **the next deal** by the chance to win from its start
  (:func:`engine.players.win_chance.deal_chance`).

It holds where both the role tables and the chances to win do (the standard two-player
game, :func:`engine.players.win_chance.holds`), during the play (the starter is known).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from math import comb

from engine.cards import JACK, Card
from engine.players.base import unseen_cards
from engine.players.expert_discard import Split
from engine.players.expert_play import GuessOutcome, Outcome
from engine.players.fastscore import RANK, fast_show
from engine.players.role_crib import given_throw_chances, given_throws, pair_key
from engine.players.win_chance import NEEDS, deal_row, load_table
from engine.rules import Rules
from engine.scoring import RANK_CODE
from engine.views import SeatView

__all__ = ["PEGGING_MASS", "crib_chances", "crib_spread", "play_end_chance", "split_chance"]


def crib_chances(view: SeatView) -> list[tuple[int, float]]:
    """What the crib may score, with the chance of each total: the seat's two thrown cards,
    the starter and two of the cards it has not seen, each pair weighed by how often a
    sensible opponent throws those ranks beside the seat's two (split evenly among the
    cards of those ranks)."""
    assert view.starter is not None, "the starter is cut before the play"
    show = fast_show(view.rules)
    mine = [card.index for card in view.discards]
    role = "dealer" if view.dealer == view.seat else "pone"
    throws = given_throws(RANK[mine[0]], RANK[mine[1]], role)
    pool = unseen_cards(view)
    of_rank = [0] * 14
    for card in pool:
        of_rank[RANK[card]] += 1
    totals: dict[int, float] = {}
    for i, first in enumerate(pool):
        for second in pool[i + 1 :]:
            low, high = RANK[first], RANK[second]
            chance = throws.get(pair_key(low, high), 0.0)
            if not chance:
                continue
            if low == high:
                pairs = of_rank[low] * (of_rank[low] - 1) / 2
            else:
                pairs = of_rank[low] * of_rank[high]
            points = show.hand_points([*mine, first, second], view.starter.index, crib=True)
            totals[points] = totals.get(points, 0.0) + chance / pairs
    weight = sum(totals.values())
    return sorted((points, chance / weight) for points, chance in totals.items())


def play_end_chance(view: SeatView) -> GuessOutcome:
    """For each guess at the other hands (ranks by seat), what a play-out ending with these
    points is worth to the seat: 1 when its side reached the target, 0 when the other did,
    else its chance to win through the show and the next deal (see the module)."""
    assert view.starter is not None, "the starter is cut before the play"
    show = fast_show(view.rules)
    me, dealer = view.seat, view.dealer
    opponent = 1 - me
    mine, dealer_side = view.sides[me], view.sides[dealer]
    pone_side = 1 - dealer_side
    dealer_needs = view.target - view.scores[dealer_side]
    pone_needs = view.target - view.scores[pone_side]
    my_hand = show.hand_points([card.index for card in view.kept], view.starter.index)
    crib = crib_chances(view)
    starter_code = RANK_CODE[view.starter.rank]
    played_code = sum(RANK_CODE[card.rank] for card in view.played[opponent])
    # Worked out once per position the play-outs end in (they end in few).
    known: dict[tuple[int, int], float] = {}

    def as_dealer(dealer_left: int, pone_left: int) -> float:
        """My chance as the dealer once the pone has counted: my hand, the crib, then the
        pone deals."""
        row = deal_row(pone_left)
        chance = 0.0
        for points, share in crib:
            short = dealer_left - my_hand - points
            chance += share * (1.0 if short <= 0 else 1.0 - row[NEEDS if short > NEEDS else short])
        return chance

    def as_pone(dealer_left: int, pone_left: int) -> float:
        """My chance as the pone once I have counted: the dealer's hand (``dealer_left``
        already counts it) and crib, then I deal."""
        row = deal_row(pone_left)
        chance = 0.0
        for points, share in crib:
            if points < dealer_left:
                left = dealer_left - points
                chance += share * row[NEEDS if left > NEEDS else left]
        return chance

    def for_guess(hands: Sequence[Sequence[int]]) -> Outcome:
        code = played_code + starter_code + sum(RANK_CODE[rank] for rank in hands[opponent])
        their_hand = show.hand_base[code]

        def outcome(points: Sequence[int], winner: int) -> float:
            if winner >= 0:
                return 1.0 if winner == mine else 0.0
            dealer_left = dealer_needs - points[dealer_side]
            pone_left = pone_needs - points[pone_side]
            if me == dealer:
                if their_hand >= pone_left:
                    return 0.0
                key = (dealer_left, pone_left - their_hand)
                found = known.get(key)
                if found is None:
                    found = known[key] = as_dealer(*key)
                return found
            if my_hand >= pone_left:
                return 1.0
            key = (dealer_left - their_hand, pone_left - my_hand)
            found = known.get(key)
            if found is None:
                found = known[key] = as_pone(*key)
            return found

        return outcome

    return for_guess


#: The share of the club players' pegging tallies the discard weighs (the rarest scores of
#: the play, which hardly move a chance, left out for speed).
PEGGING_MASS = 0.995


@cache
def _tallies() -> tuple[tuple[tuple[int, int, float], ...], tuple[tuple[int, float], ...], float]:
    """From the win-chance tallies (:func:`engine.players.win_chance.load_table`): the
    play's pegging (dealer's, pone's, chance), likeliest first and cut at
    :data:`PEGGING_MASS`; the pone's hand (points, chance); and the dealer's pegging less the
    pone's, on average."""
    tallies = load_table()["tallies"]
    deals = sum(tallies["play"].values())
    play = sorted(
        ((*(int(part) for part in key.split(",")), count / deals) for key, count in
         tallies["play"].items()),
        key=lambda entry: -entry[2],
    )  # fmt: skip
    kept: list[tuple[int, int, float]] = []
    mass = 0.0
    for dealer, pone, chance in play:
        kept.append((dealer, pone, chance))
        mass += chance
        if mass >= PEGGING_MASS:
            break
    margin = sum(dealer * chance for dealer, _, chance in play) - sum(
        pone * chance for _, pone, chance in play
    )
    hands = sum(tallies["pone_hand"].values())
    pone_hand = tuple(
        sorted((int(key), count / hands) for key, count in tallies["pone_hand"].items())
    )
    return tuple((d, p, chance / mass) for d, p, chance in kept), pone_hand, margin


def crib_spread(
    hand: Sequence[Card], thrown: Sequence[Card], *, dealer: bool, rules: Rules
) -> list[tuple[int, float]]:
    """What the crib may score, with the chance of each total, before the starter is cut:
    the two ``thrown`` cards of ``hand``, two more from the 46 cards the seat has not seen,
    thrown the way a sensible opponent throws beside them (the role tables' throws given
    the seat's two, thinned for the ranks the rest of its hand holds), and every starter
    left. Fifteens, pairs and runs alone (a crib flush or his nobs are rare)."""
    show = fast_show(rules)
    before = [4] * 14  # of each rank, beside the seat's two thrown cards
    for card in thrown:
        before[card.rank] -= 1
    left = before[:]  # beside all its cards
    for card in hand:
        if card not in thrown:
            left[card.rank] -= 1
    first, second = thrown
    # In the order of the loops below (low rank, then high from the low one).
    throws = iter(given_throw_chances(first.rank, second.rank, "dealer" if dealer else "pone"))
    base = RANK_CODE[first.rank] + RANK_CODE[second.rank]
    totals: dict[int, float] = {}
    weight = 0.0
    crib_base, codes = show.crib_base, RANK_CODE  # (read in the loop some 1,200 times a call)
    ranks = range(1, 14)
    for low in ranks:
        for high in range(low, 14):
            chance = next(throws)
            if low == high:
                scale = comb(left[low], 2) / comb(before[low], 2) if before[low] >= 2 else 0.0
            else:
                scale = (left[low] / before[low] if before[low] else 0.0) * (
                    left[high] / before[high] if before[high] else 0.0
                )
            weighed = chance * scale
            if not weighed:
                continue
            rest = left[:]
            rest[low] -= 1
            rest[high] -= 1
            code = base + codes[low] + codes[high]
            starters = sum(rest) - rest[0]
            for rank in ranks:
                count = rest[rank]
                if count:
                    points = crib_base[code + codes[rank]]
                    totals[points] = totals.get(points, 0.0) + weighed * count / starters
            weight += weighed
    return sorted((points, share / weight) for points, share in totals.items())


def split_chance(
    split: Split,
    hand: Sequence[Card],
    unseen: Sequence[int],
    *,
    dealer: bool,
    my_needs: int,
    their_needs: int,
    rules: Rules,
) -> float:
    """The seat's chance to win with ``split`` of ``hand`` (see the module), needing
    ``my_needs`` while the opponent needs ``their_needs``; ``unseen`` are the starters, in
    the order of ``split.points``."""
    play, pone_hand, margin = _tallies()
    heels = rules.points.heels
    # What the kept ranks are worth in the play beside the role's usual margin, shared
    # between the sides (a point more for one is about half a point less for the other).
    usual = margin if dealer else -margin
    shift = round((split.pegging - usual) / 2)
    crib = crib_spread(hand, split.thrown, dealer=dealer, rules=rules)
    by_starter: dict[tuple[int, bool], int] = {}
    for starter, points in zip(unseen, split.points, strict=True):
        key = (points, RANK[starter] == JACK)
        by_starter[key] = by_starter.get(key, 0) + 1
    chances = _dealer_chances if dealer else _pone_chances
    chance_of = chances(crib, pone_hand)
    # Each tally of the play as the seat's pegging and the other's, moved by the shift: the
    # same for every starter.
    tallies = play if dealer else [(pone, dealer_pegs, share) for dealer_pegs, pone, share in play]
    pegs = [
        (0 if me + shift < 0 else me + shift, 0 if them - shift < 0 else them - shift, share)
        for me, them, share in tallies
    ]
    won = 0.0
    for (points, jack), starters in by_starter.items():
        # The dealer's heels come first.
        mine, theirs = my_needs, their_needs
        if jack:
            if dealer:
                mine -= heels
            else:
                theirs -= heels
        if mine <= 0 or theirs <= 0:
            won += starters * (1.0 if mine <= 0 else 0.0)
            continue
        chance = 0.0
        for me, them, share in pegs:
            if me >= mine and them >= theirs:
                chance += share / 2  # a race within one play: either may get there first
            elif me >= mine:
                chance += share
            elif them < theirs:
                chance += share * chance_of(mine - me, theirs - them, points)
        won += starters * chance
    return won / len(unseen)


#: The multiplier of one side's needs in a key of both (:func:`_dealer_chances`).
_KEYS = 1024


def _dealer_chances(
    crib: Sequence[tuple[int, float]], pone_hand: Sequence[tuple[int, float]]
) -> Callable[[int, int, int], float]:
    """The dealer's chance after the play, needing ``mine`` with a hand of ``points``, the
    pone needing ``theirs``: the pone counts any hand a pone keeps, then the dealer its hand
    and crib, then the pone deals."""
    # Keyed by short * _KEYS + theirs (cheaper to hash than a pair, looked up millions of
    # times a game): each side's needs are under a game's target, far under _KEYS.
    after_pone: dict[int, float] = {}

    def shown(short: int, theirs: int) -> float:
        row = deal_row(theirs)  # deal_chance(theirs, left), the row read once
        found = 0.0
        for points, share in crib:
            left = short - points
            found += share * (1.0 if left <= 0 else 1.0 - row[NEEDS if left > NEEDS else left])
        after_pone[short * _KEYS + theirs] = found
        return found

    # What the dealer still needs after its hand, and what the pone needs: the same for many
    # of the play's tallies and the starters' hands, worked out once each.
    after_hand: dict[int, float] = {}
    known = after_pone.get

    def chance(mine: int, theirs: int, points: int) -> float:
        short = mine - points if mine > points else 0
        key = short * _KEYS + theirs
        found = after_hand.get(key)
        if found is None:
            if short == 0:
                # Out with the hand alone, unless the pone counts out first.
                found = sum(share for hand, share in pone_hand if hand < theirs)
            else:
                found = sum(
                    share
                    * (
                        seen
                        if (seen := known(key - hand)) is not None
                        else shown(short, theirs - hand)
                    )
                    for hand, share in pone_hand
                    if hand < theirs
                )
            after_hand[key] = found
        return found

    return chance


def _pone_chances(
    crib: Sequence[tuple[int, float]], dealer_hand: Sequence[tuple[int, float]]
) -> Callable[[int, int, int], float]:
    """The pone's chance after the play, needing ``mine`` with a hand of ``points``, the
    dealer needing ``theirs``: the pone counts first, then the dealer its hand (as any hand
    is kept) and this crib, then the pone deals."""
    shows: dict[int, float] = {}
    for hand, hand_share in dealer_hand:
        for points, share in crib:
            shows[hand + points] = shows.get(hand + points, 0.0) + hand_share * share
    show_chances = sorted(shows.items())
    counted: dict[int, float] = {}
    # For what the dealer needs, each show it may count short of it: its chance and what the
    # dealer needs after it (the column of deal_chance's table), worked out once.
    short_of: dict[int, list[tuple[float, int]]] = {}

    def chance(mine: int, theirs: int, points: int) -> float:
        if points >= mine:
            return 1.0
        short = mine - points
        key = short * _KEYS + theirs
        found = counted.get(key)
        if found is None:
            shows = short_of.get(theirs)
            if shows is None:
                shows = short_of[theirs] = [
                    (share, NEEDS if theirs - total > NEEDS else theirs - total)
                    for total, share in show_chances
                    if total < theirs
                ]
            row = deal_row(short)  # deal_chance(short, theirs - total), the row read once
            found = sum(share * row[left] for share, left in shows)
            counted[key] = found
        return found

    return chance
