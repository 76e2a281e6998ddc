"""Words a newcomer found reading wrong (issue 47): a name that ends in a number never runs
into the score after it, every play calls the count, a resignation names whose score is
whose, and the discard of the day's ranks agree with the totals it shows."""

from __future__ import annotations

import random
import re
from datetime import date, timedelta

from bot.core.base.text import Names
from bot.core.daily.daily import _choices, _table, daily_hand
from bot.core.games.chances import chances_line
from bot.core.games.endings import Ended, Ending
from bot.core.messages.status import status_text
from bot.core.messages.table import deal_text, result_line, scores_line
from bot.core.pictures.board import BoardState, Side, board_alt_text
from engine import events as ev
from engine.cards import parse_cards
from engine.coach import shown_total
from engine.game import Game
from engine.outcome import EndReason
from engine.pegging import score_pegging
from engine.rules import Rules

#: Names that end in a number, as the computer's seats and people may be called.
NUMBERED = ["Hard bot 2", "Bea 2"]


def _played(seat: int, pile: str, score: int) -> ev.Played:
    cards = parse_cards(pile)
    points = score_pegging(cards)
    count = sum(card.value for card in cards)
    return ev.Played(seat, seat, cards[-1], count, points.items, points.total, score)


def _table_of(players: list[str], events: list[ev.Event]) -> str:
    game = Game.new(players, rng=random.Random(3))[0]
    view = game.public_view()
    text = deal_text(Names.of(view), events, view, live=False)
    return "\n".join(part for part in (text.play, text.show, text.result) if part)


def test_a_score_after_a_name_that_ends_in_a_number_is_set_apart() -> None:
    names = Names(NUMBERED, Rules.standard(2))
    assert scores_line(names, (14, 2), 121) == "Scores — Hard bot 2: 14 · Bea 2: 2 (to 121)"
    assert chances_line(NUMBERED, ["64%", "36%"]) == "Chances to win — Hard bot 2: 64% · Bea 2: 36%"
    played = _table_of(NUMBERED, [_played(1, "6S 6C", 2)])
    assert played.endswith("(Bea 2: 2)"), played


def test_partners_named_with_numbers_are_set_apart_from_their_score() -> None:
    names = Names(["Al", "Easy bot", "Easy bot 2", "Easy bot 3"], Rules.standard(4))
    line = scores_line(names, (0, 0), 121)
    assert line == "Scores — Al & Easy bot 2: 0 · Easy bot & Easy bot 3: 0 (to 121)"


def test_the_boards_words_set_each_score_apart_from_its_name() -> None:
    board = BoardState((Side("Hard bot 2", 14, 12), Side("Bea 2", 2)), chances=("70%", "30%"))
    words = board_alt_text(board)
    assert "Hard bot 2: 14 (was 12), Bea 2: 2 (was 0)" in words, words
    assert "Chances to win — Hard bot 2: 70%, Bea 2: 30%." in words, words


def test_the_status_counts_each_players_cards_apart_from_the_name() -> None:
    game = Game.new(NUMBERED, rng=random.Random(3))[0]
    for seat in game.pending_discards():
        game.discard(seat, game.view(seat).hand[:2])
    text = status_text(game.public_view())
    assert "Cards left: Hard bot 2: 4 cards, Bea 2: 4 cards." in text, text


def test_the_cut_for_deal_sets_each_card_apart_from_its_name() -> None:
    cut = ev.CutForDeal(((parse_cards("5S")[0], parse_cards("KC")[0]),), 0)
    text = _table_of(NUMBERED, [cut])
    assert text.startswith("Cut for deal — Hard bot 2: 5♠, Bea 2: K♣."), text


def test_every_play_calls_the_count_whatever_it_scores() -> None:
    lines = _table_of(
        ["Al", "Bea"],
        [_played(0, "6S", 0), _played(1, "6S 6C", 2), _played(0, "6S 6C 6D", 6)],
    ).splitlines()
    assert lines == [
        "Al plays 6♠ (count 6)",
        "Bea plays 6♣ (count 12) — a pair for 2 (Bea: 2)",
        "Al plays 6♦ (count 18) — three of a kind for 6 (Al: 6)",
    ]


def test_a_resignation_names_whose_score_is_whose() -> None:
    # Al resigned at 9 to 7: the winner trails, so each score is named.
    rules = Rules.standard(2)
    result = rules.result((9, 7), 1, EndReason.RESIGNED)
    line = result_line(Names(["Al", "Easy bot"], rules), result, Ended(Ending.RESIGNED, 0))
    assert line == "Al resigned — 🏆 Easy bot wins, a lurch, 2 game points (Easy bot: 7, Al: 9)"


def test_the_discard_of_the_days_totals_never_rise_down_its_ranks() -> None:
    # Ranked by the exact values, a table could read "−2.5, −2.5, −2.4" from rank 13 to 15.
    total = re.compile(r"= \*\*(−?[\d.]+)\*\*")
    disagreed = []
    day = date(2026, 1, 1)
    for offset in range(120):
        hand = daily_hand("00" * 32, 7, day + timedelta(days=offset))
        choices = _choices(hand)
        found = [total.search(line) for line in _table(choices, frozenset())[1:]]
        shown = [float(said[1].replace("−", "-")) for said in found if said is not None]
        assert shown == [round(shown_total(choice), 1) for choice in choices]
        if shown != sorted(shown, reverse=True):
            disagreed.append((hand, shown))
    assert not disagreed, disagreed[:2]
