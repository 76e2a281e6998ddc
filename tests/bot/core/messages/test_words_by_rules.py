"""What the bot says is read from the game's rules: the deal by each role's share, the points
for last, the sides' names, the lobby's partners, the board's lines and the tally."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.core.base.text import Names
from bot.core.games.lobby import lobby_text
from bot.core.games.tally import Tally
from bot.core.messages.boards import board_lines
from bot.core.messages.hand import hand_text
from bot.core.messages.prompts import controls_for, discard_completions
from bot.core.messages.table import PLAY_OVER, deal_text
from engine.cards import Card, Suit, cards_str, parse_cards
from engine.events import Event
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.rules import PlayEnd, Rules, Share
from engine.scoring import score_hand
from engine.speech import say_score

NAMES = ("Al", "Bea", "Cy", "Di", "Ed", "Flo")
FIVE_CARD = Rules(
    dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3, play_end=PlayEnd.FIRST_GO
)
FIVE_HAND = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1))
SEVEN_CARD = Rules(dealer=Share(7, 2), others=Share(7, 2), target=181)
SIX_TEAMS = Rules(
    seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6, sides=((0, 2, 4), (1, 3, 5))
)


def test_the_deal_is_said_as_the_rules_deal_it() -> None:
    game, events = Game.new(NAMES[:5], rng=random.Random(2), rules=FIVE_HAND)
    view = game.public_view()
    dealer = NAMES[game.state.dealer]
    text = deal_text(Names.of(view), events, view, live=True).play
    assert (
        f"{dealer} deals 5 each (4 to {dealer}); everyone else puts 1 card in {dealer}'s crib."
        in text
    )
    standard, events = Game.new(NAMES[:3], rng=random.Random(2))
    view = standard.public_view()
    dealer = NAMES[standard.state.dealer]
    assert (
        f"{dealer} deals 5 each; everyone puts 1 card in {dealer}'s crib, and the top card of the"
        " deck joins it." in deal_text(Names.of(view), events, view, live=True).play
    )


def test_points_for_last_are_said_and_tallied_with_the_pegging() -> None:
    game, events = Game.new(NAMES[:2], rng=random.Random(3), rules=FIVE_CARD)
    view = game.public_view()
    pone = 1 - game.state.dealer
    text = deal_text(Names.of(view), events, view, live=True).play
    assert f"{NAMES[pone]} takes three for last ({NAMES[pone]}: 3)." in text
    tally = Tally.empty(2)
    tally.add(events)
    assert tally.seats[pone].pegging_points == 3 and tally.seats[pone].hand_points == 0
    assert tally.seats[pone].deals == 0


def test_sides_are_named_as_the_rules_make_them() -> None:
    game, _ = Game.new(NAMES, rng=random.Random(1), rules=SIX_TEAMS)
    names = Names.of(game.public_view())
    assert names.partners and names.side(0) == "Al & Cy & Ed" and names.side(1) == "Bea & Di & Flo"
    four = Names(NAMES[:4], Rules.standard(4))
    assert four.side(1) == "Bea & Di" and four.verb("wins", "win") == "win"
    assert not Names(NAMES[:3], Rules.standard(3)).partners


def test_the_lobby_names_the_partners_the_rules_seat() -> None:
    rules = Rules.standard(4)
    text = lobby_text("Al", list(NAMES[:4]), rules)
    assert "Partners sit opposite: seats 1 & 3 against 2 & 4." in text
    assert "Partners: Al & Cy against Bea & Di." in text
    assert "Partners" not in lobby_text("Al", list(NAMES[:3]), Rules.standard(3))


def test_the_board_draws_the_lines_of_the_rules_scale() -> None:
    assert board_lines(Rules.standard(target=121)) == ((61, "lurch"),)
    skunk = Rules.standard(target=121, scoring=Scoring.SKUNK)
    assert board_lines(skunk) == ((91, "skunk"), (61, "double skunk"))
    assert board_lines(Rules.standard(target=61, scoring=Scoring.SKUNK)) == ((31, "skunk"),)


def test_a_whole_game_by_other_rules_is_told_deal_by_deal() -> None:
    game, first = Game.new(NAMES[:2], rng=random.Random(9), rules=FIVE_CARD)
    rng = random.Random(9)
    deal: list[Event] = list(first)
    told = 0
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            events = game.discard(seat, rng.sample(game.hand(seat), 2))
        else:
            assert game.state.turn is not None
            events = game.play(game.state.turn, rng.choice(game.playable_cards(game.state.turn)))
        deal.extend(events)
        if any(event.kind in ("dealt", "game_over") for event in events):
            view = game.public_view()
            text = deal_text(Names.of(view), deal, view, live=False)
            assert "hand:" in text.show or text.result
            told += 1
            deal = [event for event in events if event.kind == "dealt"]
    assert told >= 2


def _played_out(rules: Rules, seed: int, *, until: Callable[[list[Event]], bool]) -> list[Event]:
    """The events of a game by ``rules`` from its first deal, each seat playing at random,
    up to the first call of ``until`` on a deal's events that says yes (the deal's events)."""
    game, first = Game.new(NAMES[: rules.seats], rng=random.Random(seed), rules=rules)
    rng = random.Random(seed)
    deal: list[Event] = list(first)
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            events = game.discard(seat, rng.sample(game.hand(seat), game.view(seat).discard_count))
        else:
            assert game.state.turn is not None
            events = game.play(game.state.turn, rng.choice(game.playable_cards(game.state.turn)))
        for event in events:
            deal.append(event)
            if event.kind == "dealt" and len(deal) > 1:
                if until(deal[:-1]):
                    return deal[:-1]
                deal = [event]
    raise AssertionError("no deal of the game was the one looked for")


def test_a_one_pass_play_says_it_ends_with_cards_held() -> None:
    # Five-card cribbage: the play stops at the first go (or 31); what is still held is not
    # played, and the table says so once, after the go's point, before the show.
    def ended_early(deal: list[Event]) -> bool:
        return sum(e.kind == "played" for e in deal) < 6

    deal = _played_out(FIVE_CARD, 4, until=ended_early)
    game, _ = Game.new(NAMES[:2], rng=random.Random(4), rules=FIVE_CARD)
    view = game.public_view()
    text = deal_text(Names.of(view), deal, view, live=False)
    lines = text.play.splitlines()
    assert lines.count(PLAY_OVER) == 1
    ended = lines.index(PLAY_OVER)
    assert lines[ended - 1].startswith(("Go — ", "31")) or "31 for 2" in lines[ended - 1]
    assert "The count starts again" not in text.play
    # A standard game never says it.
    standard = _played_out(Rules.standard(2), 4, until=lambda deal: True)
    view = Game.new(NAMES[:2], rng=random.Random(4))[0].public_view()
    told = deal_text(Names.of(view), standard, view, live=False).play
    assert "The count starts again" in told and PLAY_OVER not in told


def test_a_seat_dealt_short_is_told_it_throws_nothing_and_gets_no_crib_select() -> None:
    game, _ = Game.new(NAMES[:5], rng=random.Random(2), rules=FIVE_HAND)
    dealer = game.state.dealer
    view = game.view(dealer)
    text = hand_text(view, channel_id=7)
    assert f"Your hand: {cards_str(view.hand)}" in text
    assert "You were dealt 4 cards and put none in your crib: the others make it." in text
    assert controls_for(view, game_id=1, version=1) is None
    assert discard_completions(view, "") == []
    pone = game.view((dealer + 1) % 5)
    controls = controls_for(pone, game_id=1, version=1)
    assert controls is not None and controls.kind == "discard" and controls.pick == 1
    assert "Choose 1 card for" in hand_text(pone, channel_id=7)


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (SEVEN_CARD, "a flush is"),
        (FIVE_CARD, "a flush is"),
    ],
    ids=["seven-card", "five-card"],
)
def test_a_flush_of_any_size_is_said_with_its_points(rules: Rules, words: str) -> None:
    kept = rules.kept
    hand = tuple(Card(rank, Suit.HEARTS) for rank in (1, 3, 7, 9, 13)[:kept])
    score = score_hand(hand, Card(12, Suit.HEARTS), rules=rules)
    flush = [item for item in score.items if item.kind == "flush"]
    assert [item.points for item in flush] == [kept + 1]
    assert words in say_score(score)


def test_a_run_of_six_is_said() -> None:
    hand = parse_cards("4H 5C 6D 7S 8H")
    score = score_hand(hand, Card.parse("9C"), rules=SEVEN_CARD)
    assert "a run of six is" in say_score(score)
