"""``/cribbage count-hand``: what any hand and a starter are worth, as the show says it.

The hand is counted by a variant's rules (:mod:`engine.variants`; the standard game's unless
one is named: four cards, a flush a point a card), so a five-card player counts three cards
and a seven-card player five; every number it says, and how many cards it reads, come from
them (:meth:`engine.rules.Rules.show_size`: a crib is four cards in every variant).

Settling "what's this worth?" at a real table: the count said aloud the way the table says a
show ("fifteen two, fifteen four, and a pair is six"), then every item with its cards, and
the total. The flush rule that differs between a hand and the crib (a crib's flush needs the
starter's suit too) is explained whenever the four cards share a suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused, misread
from bot.core.base.replies import Answer
from engine.cards import Card, cards_str, full_deck, parse_cards, visible
from engine.rules import Rules
from engine.scoring import ScoreItem, score_hand
from engine.speech import say_score
from engine.variants import STANDARD, UnknownVariant, listed, named

__all__ = ["HandCounter", "complete_cards", "count_text"]

#: Numbers as the answers spell them.
_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}
#: Autocomplete offers at most this many choices (Discord's limit).
MAX_CHOICES = 25

_ITEM_NAMES = {
    "fifteen": "Fifteen",
    "pair": "Pair",
    "pair_royal": "Three of a kind",
    "double_pair_royal": "Four of a kind",
    "run": "Run",
    "flush": "Flush",
    "nobs": "His nobs",
}


class HandCounter:
    """Counts a hand someone types, privately or for the channel, by a variant's rules (the
    standard game's unless one is named); changes nothing."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    @answers
    async def count(
        self,
        cards: str,
        starter: str | None,
        *,
        crib: bool = False,
        show: bool = False,
        variant: str | None = None,
    ) -> Answer:
        """The count of ``cards`` (as typed: the hand ``variant`` keeps, or a crib of four
        with ``crib``) with ``starter``, by ``variant``'s rules (None: the standard game's):
        itemised and totalled; to the channel with ``show``, else privately. Bad cards, a
        repeated card or a wrong number of cards are refused in one line."""
        rules = _rules(variant)
        hand, cut = _read(cards, starter, rules, crib=crib)
        return Answer.say(count_text(hand, cut, crib=crib, rules=rules), ephemeral=not show)

    @staticmethod
    def complete_hand(current: str, *, crib: bool = False, variant: str | None = None) -> list[str]:
        """Autocomplete for the hand's cards, as typed so far (:func:`complete_cards`), as
        many as ``variant``'s hand (or, with ``crib``, its crib) holds."""
        try:
            rules = _rules(variant)
        except Refused:
            return []
        return complete_cards(current, rules.show_size(crib=crib))

    @staticmethod
    def complete_starter(current: str, hand: str) -> list[str]:
        """Autocomplete for the starter: one card, none of those typed in ``hand``."""
        named = hand.upper().split()
        return [card for card in complete_cards(current, 1) if card not in named]


def _rules(variant: str | None) -> Rules:
    """The rules a hand is counted by: ``variant``'s (None: the standard game's), or
    :class:`Refused` naming the variants there are."""
    try:
        return Rules.standard() if variant is None else named(variant).rules()
    except UnknownVariant as unknown:
        raise Refused(str(unknown)) from None


def _other_sizes(count: int, *, crib: bool) -> str:
    """The variant whose hand is ``count`` cards, as a refusal of that many adds it: " For
    five-card cribbage's hand of three, add `variant:five_card`.", or for four that the
    standard game's needs no variant (empty for a crib, four cards in every variant, or where
    no variant keeps that many)."""
    own = [v for v in listed() if v.rules().kept == count]
    if crib or not own:
        return ""
    if own[0] is STANDARD:
        return f" A hand of {_spelt(count)} is the standard game's: leave out `variant:`."
    return f" For {own[0].title.lower()}'s hand of {_spelt(count)}, add `variant:{own[0].name}`."


def _spelt(n: int) -> str:
    return _WORDS.get(n, str(n))


def _read(
    cards: str, starter: str | None, rules: Rules, *, crib: bool = False
) -> tuple[tuple[Card, ...], Card]:
    """The hand (or crib) and the starter as typed, or :class:`Refused` saying what is wrong."""
    size = rules.show_size(crib=crib)
    what = "A crib" if crib else "A hand"
    try:
        hand = parse_cards(cards, count=size)
    except ValueError as error:
        raise misread(error) from None
    if starter is None or not visible(starter).strip():
        if len(hand) == size + 1:
            raise Refused(
                f"Put the starter in `starter:`, apart from the {_spelt(size)} "
                f"{'crib' if crib else 'hand'} cards "
                f"(like `cards:{' '.join(_typed(c) for c in hand[:size])}"
                f" starter:{_typed(hand[size])}`)."
            )
        raise Refused("Name the starter too, like `starter:5S`.")
    if len(hand) != size:
        raise Refused(
            f"{what} is {_spelt(size)} cards; you named {len(hand)}."
            f"{_other_sizes(len(hand), crib=crib)} The starter goes in `starter:`."
        )
    try:
        cuts = parse_cards(starter, count=1)
    except ValueError as error:
        raise misread(error) from None
    if len(cuts) != 1:
        raise Refused(f"The starter is one card, like `starter:5S`; you named {len(cuts)}.")
    cut = cuts[0]
    if cut in hand:
        raise Refused(
            f"{cut} is named in the hand and as the starter: each card is in the pack once."
        )
    return hand, cut


def _typed(card: Card) -> str:
    """A card as it is typed: ``5H``, ``10D``, ``QS``."""
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
    return rank + card.suit.value


def count_text(hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules) -> str:
    """The count of a hand by ``rules`` as the bot gives it: the cards, the count said aloud,
    every item with its cards, the total, and the crib's flush rule where the hand's cards
    share a suit."""
    score = score_hand(hand, starter, crib=crib, rules=rules)
    shown = _spelt(len(hand))
    hand_flush = rules.flush_points(crib=False, starter_matches=False)
    whole = rules.flush_points(crib=crib, starter_matches=True)
    what = "Crib" if crib else "Hand"
    lines = [
        f"**{what}: {cards_str(hand)} + starter {starter}** — "
        f"{score.total} point{'s' if score.total != 1 else ''}",
        f"“{_capital(say_score(score))}.”",
    ]
    lines += [_item_line(item) for item in score.items]
    # (Where a hand and a crib are the same size, each flush line says what the same cards
    # would score as the other; in five- and seven-card cribbage they are not.)
    alike = rules.kept == rules.crib_size
    if len({card.suit for card in hand}) == 1:
        if starter.suit == hand[0].suit:
            lines.append(
                f"All {_spelt(len(hand) + 1)} cards are one suit: a flush of {whole}"
                + (", in a hand or a crib." if alike else ".")
            )
        elif crib:
            lines.append(
                "No flush: in the crib a flush needs the starter's suit too"
                + (f" (these {shown} would score {hand_flush} as a hand)." if alike else ".")
            )
        else:
            lines.append(
                f"The {shown} hand cards are one suit: a flush of {hand_flush}"
                + (
                    " (in the crib they would score nothing without the starter's suit)."
                    if alike
                    else "."
                )
            )
    return "\n".join(lines)


def _item_line(item: ScoreItem) -> str:
    name = _ITEM_NAMES.get(item.kind, item.kind.replace("_", " ").capitalize())
    if item.kind == "run":
        name = f"Run of {len(item.cards)}"
    return f"• {name}: {cards_str(item.cards)} — {item.points}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def complete_cards(current: str, wanted: int) -> list[str]:
    """Autocomplete for typed cards: what is typed so far (each whole card read as typed)
    followed by each card that could come next and is not named yet, up to ``wanted`` cards
    in all; the last, unfinished word narrows the choices by how it starts."""
    # Commas part cards as spaces do, as the command reads them ("5h,5d").
    words = current.upper().replace(",", " ").split()
    ended = current.endswith((" ", ","))
    done, partial = (words, "") if ended or not words else (words[:-1], words[-1])
    named: list[Card] = []
    for word in done:
        try:
            card = Card.parse(word)
        except ValueError:
            return []  # (a word that is not a card: the answer says what is wrong)
        if card in named:
            return []
        named.append(card)
    if len(named) > wanted:
        # (More cards than the option takes: the answer says so. Offered, they would make a
        # choice longer than the 100 characters Discord takes, and no choice at all reached
        # the user.)
        return []
    if len(named) == wanted:
        return [" ".join(_typed(c) for c in named)]
    head = " ".join(_typed(c) for c in named)
    found: list[str] = []
    for card in full_deck():
        if card in named or not _typed(card).startswith(partial):
            continue
        found.append(f"{head} {_typed(card)}".strip())
        if len(found) == MAX_CHOICES:
            break
    return found
