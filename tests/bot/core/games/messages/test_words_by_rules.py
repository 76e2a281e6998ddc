"""What the bot says is read from the game's rules: the deal by each role's share, the points
for last, the sides' names, the lobby's partners, the board's lines and the tally."""

from __future__ import annotations

import random

from bot.core.base.text import Names
from bot.core.games.messages.boards import board_lines
from bot.core.games.messages.lobby import lobby_text
from bot.core.games.messages.table import deal_text
from bot.core.games.tally import Tally
from engine.events import Event
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.rules import PlayEnd, Rules, Share

NAMES = ("Al", "Bea", "Cy", "Di", "Ed", "Flo")
FIVE_CARD = Rules(
    dealer=Share(5, 2), others=Share(5, 2), target=61, points_for_last=3, play_end=PlayEnd.FIRST_GO
)
FIVE_HAND = Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1))
SIX_TEAMS = Rules(
    seats=6, dealer=Share(5, 1), others=Share(5, 1), crib_size=6, sides=((0, 2, 4), (1, 3, 5))
)


def test_the_deal_is_said_as_the_rules_deal_it() -> None:
    game, events = Game.new(NAMES[:5], rng=random.Random(2), rules=FIVE_HAND)
    view = game.public_view()
    dealer = NAMES[game.dealer]
    text = deal_text(Names.of(view), events, view, live=True).play
    assert (
        f"{dealer} deals 5 each (4 to the dealer); everyone else puts 1 card in {dealer}'s crib."
        in text
    )
    standard, events = Game.new(NAMES[:3], rng=random.Random(2))
    view = standard.public_view()
    dealer = NAMES[standard.dealer]
    assert (
        f"{dealer} deals 5 each; everyone puts 1 card in {dealer}'s crib, and the top card of the"
        " deck joins it." in deal_text(Names.of(view), events, view, live=True).play
    )


def test_points_for_last_are_said_and_tallied_with_the_pegging() -> None:
    game, events = Game.new(NAMES[:2], rng=random.Random(3), rules=FIVE_CARD)
    view = game.public_view()
    pone = 1 - game.dealer
    text = deal_text(Names.of(view), events, view, live=True).play
    assert f"{NAMES[pone]} takes 3 for last ({NAMES[pone]} 3)." in text
    tally = Tally.empty(2)
    tally.add(events)
    assert tally.seats[pone].pegging == 3 and tally.seats[pone].hand == 0
    assert tally.seats[pone].deals == 0


def test_sides_are_named_as_the_rules_make_them() -> None:
    game, _ = Game.new(NAMES, rng=random.Random(1), rules=SIX_TEAMS)
    names = Names.of(game.public_view())
    assert names.partners and names.side(0) == "Al & Cy & Ed" and names.side(1) == "Bea & Di & Flo"
    four = Names(NAMES[:4], Rules.standard(4).sides)
    assert four.side(1) == "Bea & Di" and four.verb("wins", "win") == "win"
    assert not Names(NAMES[:3], Rules.standard(3).sides).partners


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
    while game.phase is not Phase.OVER:
        if game.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            events = game.discard(seat, rng.sample(game.hand(seat), 2))
        else:
            assert game.turn is not None
            events = game.play(game.turn, rng.choice(game.playable_cards(game.turn)))
        deal.extend(events)
        if any(event.kind in ("dealt", "game_over") for event in events):
            view = game.public_view()
            text = deal_text(Names.of(view), deal, view, live=False)
            assert "hand:" in text.show or text.result
            told += 1
            deal = [event for event in events if event.kind == "dealt"]
    assert told >= 2
