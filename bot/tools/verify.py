"""Check a deal's shuffle: ``python -m bot verify SEED SEAL [--variant NAME] [--players N]
[--starter CARD] [--hand CARDS ...]``, the command each deal's table writes out once its seed
is shown (:func:`bot.core.deck.seeded.verify_command`).

The table shows a deal's seal (SHA-256 of its seed) when the cards are dealt and the seed once
the deal has been shown. This says whether the seed has that seal, and deals the deck the seed
gives by the procedure in :mod:`bot.core.deck.seeded` (docs/shuffle.md writes it out), as the
game's variant deals it to its players: each hand in the order dealt (the first is left of the
dealer, the last the dealer's), the crib's cards from the deck (three players) and the
starter. Given the starter and the cards each player showed (in the same order: ``--hand``
once per player), it also says whether they match what was played: a hand shown is the cards
its player kept, so it matches when every one of them was dealt to that player.

Everything given matches: exit status 0; something does not: 1; input that is not a seed, a
seal or a card: 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.core.deck.seeded import deal_from_seed, parse_seed, seal_of
from bot.tools import DONE, FAILED, TO_FIX, counted, tool_parser
from engine.cards import Card, cards_str, parse_cards
from engine.variants import STANDARD, listed, named

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = tool_parser("python -m bot verify", __doc__)
    parser.add_argument("seed", help="the seed the table showed after the show (64 hex digits)")
    parser.add_argument("seal", help="the seal the table showed at the deal (SHA-256, hex)")
    parser.add_argument(
        "--variant",
        default=STANDARD.name,
        choices=[variant.name for variant in listed()],
        help="the game's variant, as the table's command names it (default: standard)",
    )
    parser.add_argument(
        "--players", type=int, help="players at the table (default: the variant's usual)"
    )
    parser.add_argument("--starter", help="the starter the table showed, e.g. 5H")
    parser.add_argument(
        "--hand",
        action="append",
        default=[],
        help="the cards a player showed, e.g. '5H 5D JC QS'; once per player, left of the "
        "dealer first, the dealer last",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; print what it found; the exit status (see the module)."""
    args = _parser().parse_args(argv)
    try:
        seed = parse_seed(args.seed)
        seal = args.seal.strip().strip("`").lower()
        starter = None if args.starter is None else Card.parse(args.starter)
        shown = [parse_cards(hand) for hand in args.hand]
    except ValueError as error:
        print(error, file=sys.stderr)
        return TO_FIX
    variant = named(args.variant)
    players = variant.default_players if args.players is None else args.players
    if players not in variant.seats:
        print(f"{variant.title} is for {variant.seats_text} players.", file=sys.stderr)
        return TO_FIX
    if len(shown) > players:
        print(f"{counted(len(shown), 'hand')} given for {players} players.", file=sys.stderr)
        return TO_FIX
    good = True
    if seal_of(seed.hex()) == seal:
        print("The seal matches: SHA-256 of this seed is the seal shown at the deal.")
    else:
        print(f"The seal does NOT match: SHA-256 of this seed is {seal_of(seed.hex())}.")
        good = False
    dealt = deal_from_seed(seed, variant.rules(players))
    print(f"Deck, top first: {cards_str(dealt.deck)}")
    for at, hand in enumerate(dealt.hands):
        who = "the dealer" if at == players - 1 else f"player {at + 1} from the dealer's left"
        print(f"Dealt to {who}: {cards_str(sorted(hand, key=Card.sort_key))}")
    if dealt.crib_cards:
        print(f"To the crib from the deck: {cards_str(dealt.crib_cards)}")
    print(f"Starter: {dealt.starter}")
    if starter is not None:
        same = starter == dealt.starter
        good = good and same
        print("The starter matches." if same else f"The starter played, {starter}, does NOT.")
    for at, hand in enumerate(shown):
        foreign = [card for card in hand if card not in dealt.hands[at]]
        if foreign:
            good = False
            print(f"Hand {at + 1} does NOT match: {cards_str(foreign)} was not dealt to it.")
        else:
            print(f"Hand {at + 1} matches: every card shown was dealt to it.")
    print("Everything matches." if good else "Something does NOT match.")
    return DONE if good else FAILED
