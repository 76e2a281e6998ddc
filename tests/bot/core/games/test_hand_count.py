"""`/cribbage count-hand`: any hand counted as the show says it, itemised, with the crib's
flush rule explained where it matters; bad input answered in one line."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.core.base.faults import Faults
from bot.core.games.hand_count import HandCounter, complete_cards
from engine.cards import Card, full_deck, parse_cards
from engine.scoring import hand_total


def _typed(card: Card) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank)) + card.suit.value


async def _count(
    cards: str, starter: str | None, *, crib: bool = False, show: bool = False
) -> tuple[bool, str, bool]:
    answer = await HandCounter(Faults()).count(cards, starter, crib=crib, show=show)
    return answer.ok, answer.reply.text, answer.reply.ephemeral


async def test_the_count_is_said_itemised_and_totalled_privately() -> None:
    ok, text, private = await _count("5H 5D JC QS", "5S")
    assert ok and private
    lines = text.splitlines()
    assert lines[0] == "**Hand: 5♥ 5♦ J♣ Q♠ + starter 5♠** — 20 points"
    assert lines[1].startswith("“Fifteen two, fifteen four,") and lines[1].endswith(
        "and three of a kind is twenty.”"
    )
    assert lines.count("• Fifteen: 5♦ J♣ — 2") == 1
    assert sum(line.startswith("• Fifteen:") for line in lines) == 7
    assert "• Three of a kind: 5♦ 5♥ 5♠ — 6" in lines


async def test_the_perfect_hand_counts_twenty_nine_with_his_nobs() -> None:
    ok, text, _ = await _count("5H 5C 5D JS", "5S", show=True)
    assert ok and "— 29 points" in text and "• His nobs: J♠ — 1" in text


async def test_shown_to_the_channel_only_when_asked() -> None:
    *_, private = await _count("AH 3C 7D 9S", "QS", show=True)
    assert not private


async def test_a_crib_scores_a_flush_only_with_the_starters_suit() -> None:
    _, hand, _ = await _count("2H 4H 6H 8H", "KS")
    assert "— 4 points" in hand and "• Flush: 2♥ 4♥ 6♥ 8♥ — 4" in hand
    assert "in the crib they would score nothing" in hand
    _, crib, _ = await _count("2H 4H 6H 8H", "KS", crib=True)
    assert crib.startswith("**Crib:") and "— 0 points" in crib and "“Nothing.”" in crib
    assert "a flush needs the starter's suit too" in crib
    _, five, _ = await _count("2H 4H 6H 8H", "KH", crib=True)
    assert "— 5 points" in five and "All five cards are one suit" in five


async def test_a_hand_of_mixed_suits_says_nothing_of_flushes() -> None:
    _, text, _ = await _count("AH 3C 7D 9S", "QS")
    assert "flush" not in text.lower()


@pytest.mark.parametrize(
    ("cards", "starter", "said"),
    [
        ("5H 5D JC", "5S", "A hand is four cards; you named 3."),
        ("5H 5D JC QS 5S", None, "Put the starter in `starter:`"),
        ("5H 5D JC QS", None, "Name the starter too"),
        ("5H 5D JC QS", "\u200b", "Name the starter too"),
        ("5H 5H JC QS", "5S", "5♥ is named twice."),
        ("5H 5D JC QS", "5H", "5♥ is named in the hand and as the starter"),
        ("5X 5D JC QS", "5S", "has no suit I know"),
        ("5H 5D JC QS", "5S 6S", "The starter is one card"),
        ("", "5S", "No cards given"),
        ("11H 5D JC QS", "5S", "is not a card"),
    ],
)
async def test_bad_input_is_answered_in_one_line(
    cards: str, starter: str | None, said: str
) -> None:
    ok, text, private = await _count(cards, starter)
    assert not ok and private and said in text and "\n" not in text


@pytest.mark.parametrize(
    ("cards", "starter", "quoted"),
    [
        ("**5H** 5D JC QS", "5S", "“\\*\\*5H\\*\\*”"),
        ("<@1> 5D JC QS", "5S", "“<\\@1\\>”"),
        ("5H 5D JC QS", "https://x.example", "“https\\://x.ex…”"),
        ("5H 5D JC QS ||", "5S", "“\\|\\|”"),
        ("`", "5S", "“\\`”"),
    ],
)
async def test_what_was_typed_is_quoted_back_as_typed(
    cards: str, starter: str, quoted: str
) -> None:
    # Discord reads the answer as markdown: what the refusal quotes of the cards typed is
    # escaped as a name is. (It was quoted as it came: "**5H**" bold, "<@1>" another
    # person's mention, a link Discord previewed.)
    ok, text, _ = await _count(cards, starter)
    assert not ok and text.startswith(quoted), text


async def test_every_total_is_the_engines_on_random_hands() -> None:
    rng = random.Random(7)
    deck = full_deck()
    for _ in range(300):
        *hand, starter = rng.sample(deck, 5)
        typed = " ".join(_typed(c) for c in hand)
        crib = rng.random() < 0.5
        _, text, _ = await _count(typed, _typed(starter), crib=crib)
        total = hand_total(hand, starter, crib=crib)
        assert f"— {total} point" in text.splitlines()[0]
        items = [int(line.rsplit("— ", 1)[1]) for line in text.splitlines() if line.startswith("•")]
        assert sum(items) == total


def test_autocomplete_offers_the_cards_not_named_yet() -> None:
    assert complete_cards("5H 5", 4) == ["5H 5C", "5H 5D", "5H 5S"]
    assert complete_cards("5H 5D JC QS", 4) == ["5H 5D JC QS"]
    assert len(complete_cards("", 4)) == 25
    assert complete_cards("5H 5D ", 4)[0] == "5H 5D AC"
    assert complete_cards("ZZ 5", 4) == [], "a word that is not a card: nothing offered"
    # Commas part cards as in the command, and a card pasted with an invisible character is
    # read as the card it shows.
    assert complete_cards("5h,5d,", 4)[0] == "5H 5D AC"
    assert complete_cards("5h,5d,J", 4)[:2] == ["5H 5D JC", "5H 5D JD"]
    assert complete_cards("5H\u200b 5D JC QS", 4) == ["5H 5D JC QS"]
    # Every choice parses, and names no card twice.
    assert complete_cards("QS", 4) == ["QS"]
    for choice in complete_cards("QS ", 4):
        cards = [Card.parse(word) for word in choice.split()]
        assert len(set(cards)) == len(cards) == 2


#: Discord takes at most 25 autocomplete choices, each named in at most 100 characters: an
#: answer beyond either is refused (400), and the user is offered nothing at all.
MAX_CHOICES, MAX_CHOICE_TEXT = 25, 100
#: Whole cards as they are typed, runs of them included (the whole pack is 157 characters).
_TYPED_CARDS = st.lists(st.sampled_from([_typed(c) for c in full_deck()]), max_size=60).map(
    " ".join
)


@settings(max_examples=300, deadline=None)
@given(current=st.one_of(_TYPED_CARDS, st.text(max_size=100)), wanted=st.sampled_from([1, 4]))
@example(current=" ".join(_typed(c) for c in full_deck()), wanted=4)
@example(current=" ".join(_typed(c) for c in full_deck()) + " ", wanted=1)
@example(current="5H 5D JC QS 5S ", wanted=4)
def test_autocomplete_offers_what_discord_takes_and_the_option_holds(
    current: str, wanted: int
) -> None:
    """Whatever is typed (garbage, or a whole pack of cards in `cards:` or `starter:`), every
    choice offered fits Discord's limits and names at most the cards the option takes, each
    once."""
    offered = complete_cards(current, wanted)
    assert len(offered) <= MAX_CHOICES
    for choice in offered:
        assert 0 < len(choice) <= MAX_CHOICE_TEXT, choice
        assert len(parse_cards(choice)) <= wanted, choice


def test_a_starter_is_offered_among_every_card() -> None:
    offered = {c for partial in "A23456789JQK1" for c in complete_cards(partial, 1)}
    assert len(offered) == 52 and all(len(c.split()) == 1 for c in offered)
    assert not set(itertools.chain.from_iterable(c.split() for c in offered)) - offered


async def test_a_variants_hand_is_counted_by_its_rules() -> None:
    # Five-card cribbage keeps three cards (a flush 3, 4 with the starter), seven-card five
    # (5, or 6): each counted by its variant's rules when named. Without the variant they
    # were refused ("A hand is four cards; you named 3.").
    five = await HandCounter(Faults()).count("5H 5D 5C", "5S", variant="five_card")
    assert five.ok
    assert five.reply.text.splitlines()[0] == "**Hand: 5♥ 5♦ 5♣ + starter 5♠** — 20 points"
    flush = (await HandCounter(Faults()).count("2H 4H 8H", "KS", variant="five_card")).reply.text
    assert "• Flush: 2♥ 4♥ 8♥ — 3" in flush and "The three hand cards are one suit" in flush
    assert "in the crib" not in flush, "a five-card crib is four cards, not these three"
    full = (await HandCounter(Faults()).count("2H 4H 8H", "KH", variant="five_card")).reply.text
    assert "— 4 points" in full and full.splitlines()[-1] == (
        "All four cards are one suit: a flush of 4."
    )
    seven = await HandCounter(Faults()).count("4H 4D 5C 5S 6H", "6D", variant="seven_card")
    assert seven.ok and "— 46 points" in seven.reply.text
    # A crib is four cards in every variant.
    crib = await HandCounter(Faults()).count("2H 4H 6H 8H", "KS", crib=True, variant="five_card")
    assert "— 0 points" in crib.reply.text
    assert crib.reply.text.splitlines()[-1] == (
        "No flush: in the crib a flush needs the starter's suit too."
    )
    # Five-hand and six-hand keep four: counted as the standard game counts.
    six = await HandCounter(Faults()).count("5H 5D JC QS", "5S", variant="six_hand")
    assert six.reply.text == (await HandCounter(Faults()).count("5H 5D JC QS", "5S")).reply.text


@pytest.mark.parametrize(
    ("cards", "variant", "said"),
    [
        ("5H 5D JC", None, "For five-card cribbage's hand of three, add `variant:five_card`."),
        ("5H 5D JC QS 6S", None, "For seven-card cribbage's hand of five, add `variant:"),
        ("5H 5D JC QS", "five_card", "three cards; you named 4. A hand of four is the standard"),
        ("5H 5D JC", "seven_card", "A hand is five cards; you named 3. For five-card"),
    ],
)
async def test_a_hand_of_another_variants_size_is_told_which(
    cards: str, variant: str | None, said: str
) -> None:
    answer = await HandCounter(Faults()).count(cards, "2S", variant=variant)
    assert not answer.ok and said in answer.reply.text and "\n" not in answer.reply.text


async def test_a_variant_no_one_plays_is_refused_in_one_line() -> None:
    answer = await HandCounter(Faults()).count("5H 5D JC QS", "5S", variant="nine_card")
    assert not answer.ok and "There is no 'nine_card' variant" in answer.reply.text
    assert HandCounter.complete_hand("5H", variant="nine_card") == []


def test_autocomplete_offers_as_many_cards_as_the_variants_hand() -> None:
    assert HandCounter.complete_hand("5H 5D JC", variant="five_card") == ["5H 5D JC"]
    assert HandCounter.complete_hand("5H 5D JC ", variant="seven_card")[0] == "5H 5D JC AC"
    assert HandCounter.complete_hand("5H 5D JC ", crib=True, variant="seven_card")[0] == (
        "5H 5D JC AC"
    )
    assert HandCounter.complete_hand("5H 5D JC QS", crib=True, variant="five_card") == [
        "5H 5D JC QS"
    ]
