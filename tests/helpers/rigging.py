"""Test helpers that build games from chosen cards (a rigged deck), so tests pick exact hands."""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from functools import partial
from typing import Any

from engine.cards import Card, full_deck, parse_cards
from engine.counting import Counting
from engine.events import Event
from engine.game import Game
from engine.outcome import Scoring
from engine.players.base import Player
from engine.rules import Rules

NAMES = ("Al", "Bea", "Cy", "Di")
#: Names for up to six seats (five-hand and six-hand cribbage): :data:`NAMES`, then two more.
SIX_NAMES = (*NAMES, "Ed", "Flo")


class RiggedRandom(random.Random):
    """A random source whose shuffles put chosen cards on top, in order.

    Each shuffle takes the next prescribed order; the cards it does not name follow in the
    fixed order of ``full_deck()``. Once the prescribed orders run out, shuffles are real
    (seeded), so a rigged game can go on to later deals.
    """

    def __init__(self, orders: Sequence[Sequence[Card]], seed: int = 0) -> None:
        super().__init__(seed)
        self._orders = [list(order) for order in orders]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not self._orders:
            super().shuffle(x)
            return
        top = self._orders.pop(0)
        rest = [card for card in x if card not in top]
        x[:] = top + rest


def cut_order(num_players: int, dealer: int) -> list[Card]:
    """A cut for deal in which ``dealer`` cuts an ace and everyone else a king."""
    kings = iter(parse_cards("KC KD KH KS"))
    return [Card.parse("AC") if seat == dealer else next(kings) for seat in range(num_players)]


def deal_order(
    dealer: int,
    hands: Sequence[Sequence[Card]],
    starter: Card,
    crib_card: Card | None = None,
    rules: Rules | None = None,
) -> list[Card]:
    """The deck order that deals ``hands`` (one card at a time from the dealer's left, as
    ``rules`` deal them: the standard game's when None), then gives ``crib_card`` to the crib
    (three players) and ``starter`` as the starter."""
    n = len(hands)
    seats = (rules or Rules.standard(n)).deal_order(dealer)
    taken = [0] * n
    order = []
    for seat in seats:
        order.append(hands[seat][taken[seat]])
        taken[seat] += 1
    if crib_card is not None:
        order.append(crib_card)
    order.append(starter)
    return order


def rigged_game(
    kept: Sequence[str],
    discards: Sequence[str],
    *,
    dealer: int,
    starter: str,
    crib_card: str | None = None,
    target: int = 121,
    scores: Sequence[int] | None = None,
    discard: bool = True,
    scoring: Scoring = Scoring.LURCH,
    counting: Counting = Counting.AUTO,
    rules: Rules | None = None,
) -> tuple[Game, list[Event]]:
    """A game at the start of the play (or, with ``discard=False``, of the discard) whose seats
    keep ``kept[seat]`` and throw ``discards[seat]`` (cards as typed, e.g. ``"5H JD"``).

    ``scores`` sets the sides' scores before anyone discards; ``scoring`` and ``counting``
    are the table's options, or ``rules`` the whole rules (then ``target``, ``scoring`` and
    ``counting`` are the rules'). Returns the game and the events of the last discard (or of
    the deal).
    """
    n = len(kept)
    hands = [
        list(parse_cards(k)) + list(parse_cards(d)) for k, d in zip(kept, discards, strict=True)
    ]
    extra = None if crib_card is None else Card.parse(crib_card)
    rng = RiggedRandom(
        [cut_order(n, dealer), deal_order(dealer, hands, Card.parse(starter), extra, rules)]
    )
    if rules is None:
        rules = Rules.standard(n, target=target, scoring=scoring, counting=counting)
    game, events = Game.new(SIX_NAMES[:n], rng=rng, rules=rules)
    if scores is not None:
        game = set_scores(game, scores, rng)
    if discard:
        for seat in range(n):
            if discards[seat]:
                events = game.discard(seat, parse_cards(discards[seat]))
    return game, events


#: A two-player deal the tests share (seat 0 deals): what each seat keeps and throws, and the
#: play it makes. With the 2♦ starter the dealer pegs 6 in the play and the pone nothing; at
#: the show the pone's K♥ 6♦ 10♥ 5♠ = 4 (two fifteens), the dealer's 5♣ K♠ J♣ 6♣ = 4 (two
#: fifteens), and the crib 8♥ 9♦ A♠ 3♣ = 5 (9-3-2-A fifteen, run A-2-3).
TWO_KEPT = ("5C KS JC 6C", "KH 6D 10H 5S")
TWO_THROWN = ("8H 9D", "AS 3C")
TWO_PLAY = "KH 5C 6D KS 10H JC 5S 6C"

#: The shared two-player deal with the 2♦ starter (options as :func:`rigged_game`'s).
two_player_game = partial(rigged_game, TWO_KEPT, TWO_THROWN, dealer=0, starter="2D")

#: A four-player deal the tests share (partners; seat 3 deals, each seat throws a four, the
#: starter is 3♥), options as :func:`rigged_game`'s.
four_player_game = partial(
    rigged_game,
    ("10H 9H QH JH", "10C AC 2C 2D", "10D 9D KD QD", "9S KS QS JS"),
    ("4H", "4C", "4D", "4S"),
    dealer=3,
    starter="3H",
)


def facing_the_fours(
    kept: str, thrown: str, *, starter: str = "6S", discard: bool = True
) -> tuple[Game, list[Event]]:
    """A two-player deal in which seat 1 keeps 4♣ 4♦ 9♠ K♥ and throws 7♣ 8♣ to the crib of
    seat 0, who deals, keeps ``kept`` and throws ``thrown`` (``discard`` as
    :func:`rigged_game`'s)."""
    return rigged_game(
        (kept, "4C 4D 9S KH"), (thrown, "7C 8C"), dealer=0, starter=starter, discard=discard
    )


def check_fives_kept_from_the_dealer(player: Player) -> None:
    """Check that ``player``, holding 5♣ 5♦ 7♥ 8♠ 2♣ 9♦ against 4♣ 4♦ 9♠ K♥ 7♣ 8♣ (starter
    6♦, seat 0 dealing), keeps the fives out of the dealer's crib as the pone (seat 1), and
    with the same cards as the dealer throws otherwise."""
    fives, fours = ("5C 5D 7H 8S", "2C 9D"), ("4C 4D 9S KH", "7C 8C")
    throws = []
    for seat in (1, 0):
        hands = (fours, fives) if seat == 1 else (fives, fours)
        game, _ = rigged_game(
            [hand[0] for hand in hands],
            [hand[1] for hand in hands],
            dealer=0,
            starter="6D",
            discard=False,
        )
        throws.append(player.choose_discard(game.view(seat), random.Random(0)))
    as_pone, as_dealer = throws
    assert all(card.rank != 5 for card in as_pone), as_pone
    assert as_dealer != as_pone


#: The two-player deal the tests share most: :func:`facing_the_fours` with seat 0 keeping
#: 5♥ 5♣ J♦ Q♠ and throwing 2♦ 3♦ (starter 6♠).
fives_and_fours_game = partial(facing_the_fours, "5H 5C JD QS", "2D 3D")

#: The fives and fours with more seats: seat 2 keeps 2♥ 3♥ 6♥ 8♥, seat 3 A♠ 7♦ 9♣ Q♣; each
#: seat throws one card.
_TABLE_KEPT = ("5H 5C JD QS", "4C 4D 9S KH", "2H 3H 6H 8H", "AS 7D 9C QC")
_TABLE_THROWN = ("10S", "7C", "2D", "3C")


def fives_and_fours_table(players: int, *, discard: bool = True) -> tuple[Game, list[Event]]:
    """A deal for three or four players (seat 2 deals, starter 6♠) in which seat 0 keeps
    5♥ 5♣ J♦ Q♠ and seat 1 4♣ 4♦ 9♠ K♥ (as in :data:`fives_and_fours_game`), seat 2 keeps
    2♥ 3♥ 6♥ 8♥ and seat 3 A♠ 7♦ 9♣ Q♣, throwing 10♠, 7♣, 2♦ and 3♣ in turn; with three,
    the deck's A♠ goes to the crib (``discard`` as :func:`rigged_game`'s)."""
    return rigged_game(
        _TABLE_KEPT[:players],
        _TABLE_THROWN[:players],
        dealer=2,
        starter="6S",
        crib_card="AS" if players == 3 else None,
        discard=discard,
    )


#: A three-player deal the tests share: what each seat keeps and throws (seat 0 deals).
THREE_KEPT = ("10S AS 7D 6H", "KH QH 2C 5C", "JD 9S 4D 8C")
THREE_THROWN = ("AC", "AH", "AD")


def three_player_game(
    *, scores: Sequence[int] | None = None, discard: bool = True
) -> tuple[Game, list[Event]]:
    """The shared three-player deal (dealer 0, starter 3♠, 2♥ from the deck to the crib), at
    the start of the play (or, with ``discard=False``, of the discard)."""
    return rigged_game(
        THREE_KEPT,
        THREE_THROWN,
        dealer=0,
        starter="3S",
        crib_card="2H",
        scores=scores,
        discard=discard,
    )


def set_scores(game: Game, scores: Sequence[int], rng: random.Random) -> Game:
    """The same game with the sides' scores replaced (to test endings without long games)."""
    data = game.to_dict()
    data["scores"] = list(scores)
    return Game.from_dict(data, rng=rng)


def play_cards(game: Game, text: str) -> list[Event]:
    """Play the cards of ``text`` in order, each by whichever seat's turn it is (which must
    hold it), and return every event caused."""
    events: list[Event] = []
    for card in parse_cards(text):
        seat = game.state.turn
        assert seat is not None, f"nobody's turn before {card}"
        assert card in game.hand(seat), f"{card} is not in seat {seat}'s hand"
        events.extend(game.play(seat, card))
    return events


def full_deck_set() -> set[Card]:
    """All 52 cards."""
    return set(full_deck())
