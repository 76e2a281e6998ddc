"""The chance to win a two-player game from a score position, and how it is computed.

Near the end of a game points are not all worth the same: a point that pegs out wins
outright, a point the opponent is denied may keep them from counting out first. The expert
values positions by the chance to win from them, read from tables built here.

A position is the points each side still needs (so one table serves games to 121 and to
61) and the moment in the deal, from the dealer's side:

* ``deal[d][p]``: at the start of a deal (before the starter is cut), the dealer needing
  ``d`` and the pone ``p``;
* ``shown[d][p]``: after the play, before the pone counts its hand;
* ``counted[d][p]``: after the pone has counted, before the dealer's hand and crib.

A deal is modelled in the order things are scored: his heels (a jack turned: 4 in 52),
the play (each side's pegging, drawn together), the pone's hand, then the dealer's hand and
crib (both the dealer's). The distributions come from club player against club player
(:mod:`engine.players.club`) over many seeded deals; given them the chances follow exactly,
working up from the positions nearest the end (every deal scores at least the last card).
When both sides would reach the target in the same play, each is given half.

The tables are built by the standard two-player game's rules (:func:`built_for`) and hold
for games dealt and scored the same way to a target no longer than theirs (:func:`holds`).

``python -m benchmarks.build_tables win_chance`` writes ``engine/data/win_chance.json`` (the
distributions and both tables); ``--check`` rebuilds and compares, and a test rebuilds the
tables' corner near the end from the shipped distributions.

>>> round(deal_chance(1, 121), 3), round(deal_chance(121, 121), 2)
(1.0, 0.56)
>>> shown_chance(10, 5) < shown_chance(10, 15)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from engine.data import shipped
from engine.players import role_crib
from engine.rules import Rules

__all__ = [
    "DATA_FILE",
    "METHOD",
    "NEEDS",
    "TABLES",
    "build_tables",
    "built_for",
    "counted_chance",
    "deal_chance",
    "deal_row",
    "holds",
    "load_table",
    "shown_chance",
    "simulate_deals",
    "solve",
]

#: The data file's name inside the ``engine.data`` package.
DATA_FILE = "win_chance.json"


def built_for() -> Rules:
    """The rules the tables are built by: the standard two-player game's, to 121."""
    return Rules.standard(2)


def holds(rules: Rules) -> bool:
    """Whether the tables hold for ``rules``: two sides dealt, kept and scored as the
    standard two-player game does (:func:`engine.players.role_crib.holds`), every pass of
    the play, to a target no longer than the tables'."""
    built = built_for()
    return role_crib.holds(rules) and rules.play_end is built.play_end and rules.target <= NEEDS


#: The most points a side can need (a game to 121 from the start).
NEEDS = built_for().target
#: Deals simulated for the distributions, and the seed of the first.
DEALS = 40_000
SEED = 12
#: How the tables are built, stored in the data file with the numbers.
METHOD = (
    "distributions of each side's pegging (jointly), the pone's hand and the dealer's hand "
    "plus crib from club-player deals; heels 4 in 52; positions solved exactly from the "
    "end (a race to the target within one play split evenly)"
)
#: Digits kept in the data file.
DIGITS = 5
#: The tables, by the moment of the deal they start from.
TABLES = ("deal", "shown", "counted")
_HEELS_CHANCE = 4 / 52


def simulate_deals(deals: int, seed: int) -> dict[str, dict[str, int]]:
    """Tallies of what each deal scored, from club player against club player: ``play``
    (keys ``"dealer,pone"``), ``pone_hand`` and ``dealer_show`` (hand plus crib)."""
    # Imported here: the game and the players are needed only to build the table.
    from engine.events import GoPoint, Played, Shown
    from engine.game import Game
    from engine.phase import Phase
    from engine.players.club import ClubPlayer

    players = (ClubPlayer(), ClubPlayer())
    play: dict[str, int] = {}
    pone_hand: dict[str, int] = {}
    dealer_show: dict[str, int] = {}
    rng = random.Random(seed)
    for _ in range(deals):
        game, _events = Game.new(["A", "B"], rng=random.Random(rng.getrandbits(64)))
        dealer = game.state.dealer
        pegged = [0, 0]
        shown = [0, 0]
        while game.state.phase is not Phase.OVER and game.state.deal_number == 1:
            if game.state.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                events = game.discard(seat, players[seat].choose_discard(game.view(seat), rng))
            else:
                seat = game.state.turn if game.state.turn is not None else 0
                events = game.play(seat, players[seat].choose_play(game.view(seat), rng))
            for event in events:
                if isinstance(event, Played | GoPoint):
                    pegged[event.seat] += event.points
                elif isinstance(event, Shown):
                    shown[event.seat] += event.score.total
        pone = 1 - dealer
        key = f"{pegged[dealer]},{pegged[pone]}"
        play[key] = play.get(key, 0) + 1
        pone_hand[str(shown[pone])] = pone_hand.get(str(shown[pone]), 0) + 1
        dealer_show[str(shown[dealer])] = dealer_show.get(str(shown[dealer]), 0) + 1
    return {"play": play, "pone_hand": pone_hand, "dealer_show": dealer_show}


def _chances(tally: dict[str, int]) -> list[tuple[int, float]]:
    total = sum(tally.values())
    return sorted((int(key), count / total) for key, count in tally.items())


def solve(tallies: dict[str, dict[str, int]], needs: int = NEEDS) -> dict[str, list[list[float]]]:
    """The ``deal``, ``shown`` and ``counted`` tables (index ``[d][p]``, 0 unused) up to
    ``needs``."""
    total = sum(tallies["play"].values())
    play = sorted(
        (tuple(int(x) for x in key.split(",")), count / total)
        for key, count in tallies["play"].items()
    )
    pone_hand = _chances(tallies["pone_hand"])
    dealer_show = _chances(tallies["dealer_show"])
    size = needs + 1
    heel_points = built_for().points.heels
    deal = [[0.0] * size for _ in range(size)]
    shown = [[0.0] * size for _ in range(size)]
    # After the pone has counted: the dealer's show, then the next deal with roles swapped.
    counted = [[0.0] * size for _ in range(size)]
    cut = [[0.0] * size for _ in range(size)]  # after the cut, before the play
    for total_need in range(2, 2 * needs + 1):
        for d in range(max(1, total_need - needs), min(needs, total_need - 1) + 1):
            p = total_need - d
            value = 0.0
            for k, chance in dealer_show:
                value += chance * (1.0 if k >= d else 1.0 - deal[p][d - k])
            counted[d][p] = value
            value = 0.0
            for h, chance in pone_hand:
                if h < p:
                    value += chance * counted[d][p - h]
            shown[d][p] = value
            value = 0.0
            for (x, y), chance in play:
                if x >= d and y >= p:
                    value += chance * 0.5
                elif x >= d:
                    value += chance
                elif y < p:
                    value += chance * shown[d - x][p - y]
            cut[d][p] = value
            heels = 1.0 if d <= heel_points else cut[d - heel_points][p]
            deal[d][p] = _HEELS_CHANCE * heels + (1 - _HEELS_CHANCE) * value
    return {"deal": deal, "shown": shown, "counted": counted}


def build_tables(deals: int = DEALS, seed: int = SEED) -> dict[str, Any]:
    """Simulate the deals and solve the tables (about a minute): the data file's content."""
    tallies = simulate_deals(deals, seed)
    tables = solve(tallies)
    data: dict[str, Any] = {"method": METHOD, "deals": deals, "seed": seed, "tallies": tallies}
    for name in TABLES:
        data[name] = [[round(value, DIGITS) for value in row] for row in tables[name]]
    return data


def load_table() -> dict[str, Any]:
    """The shipped tables, read once from ``engine/data/win_chance.json``."""
    return shipped(DATA_FILE)


@cache
def _rows(name: str) -> tuple[Sequence[float], ...]:
    return tuple(tuple(row) for row in load_table()[name])


def _clamp(need: int) -> int:
    return 1 if need < 1 else NEEDS if need > NEEDS else need


def deal_row(dealer_needs: int) -> Sequence[float]:
    """The row of :func:`deal_chance` for the dealer's needs, by the pone's needs (1 to
    :data:`NEEDS`; index 0 unused, a need over :data:`NEEDS` read as it): for the loops that
    read a row thousands of times, where a call per chance cost more than the rest."""
    return _rows("deal")[_clamp(dealer_needs)]


def deal_chance(dealer_needs: int, pone_needs: int) -> float:
    """The dealer's chance to win from the start of a deal, each side needing this many."""
    return _rows("deal")[_clamp(dealer_needs)][_clamp(pone_needs)]


def shown_chance(dealer_needs: int, pone_needs: int) -> float:
    """The dealer's chance to win after the play, before the pone counts its hand."""
    return _rows("shown")[_clamp(dealer_needs)][_clamp(pone_needs)]


def counted_chance(dealer_needs: int, pone_needs: int) -> float:
    """The dealer's chance to win once the pone has counted, before the dealer's show."""
    return _rows("counted")[_clamp(dealer_needs)][_clamp(pone_needs)]
