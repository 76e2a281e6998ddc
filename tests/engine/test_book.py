"""The book player, the second yardstick: Schell's tables as published, each rule of thumb of
its sources on a hand-built position, legal choices in whole games of every variant, and its
independence from the expert (neither imports the other's tables)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine import variants
from engine.cards import Card, parse_cards
from engine.game import Game
from engine.phase import Phase
from engine.players import make_player
from engine.players.base import finish
from engine.players.book import (
    SCHELL_OPPONENT_CRIB,
    SCHELL_OWN_CRIB,
    BookPlayer,
    book_discard_values,
    schell_crib,
)
from engine.players.role_crib import rank_crib_value
from engine.rules import Rules
from tests.helpers.parsed import parsed
from tests.helpers.rigging import SIX_NAMES, check_fives_kept_from_the_dealer, rigged_game
from tests.helpers.views import play_view

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

BOOK = BookPlayer()
PLAYERS = Path(__file__).resolve().parents[2] / "engine" / "players"


def book_plays(hand: str, series: str = "", **kwargs: object) -> Card:
    view = play_view(hand, series, **kwargs)  # type: ignore[arg-type]
    return BOOK.choose_play(view, random.Random(0))


def test_schell_tables_are_symmetric_and_quote_the_published_figures() -> None:
    for table in (SCHELL_OWN_CRIB, SCHELL_OPPONENT_CRIB):
        assert len(table) == 13 and all(len(row) == 13 for row in table)
        assert all(table[a][b] == table[b][a] for a in range(13) for b in range(13))
    # The figures docs/crib-figures.md quotes from Schell's page.
    assert schell_crib(5, 5, own=False) == 9.37
    assert schell_crib(8, 8, own=False) == 6.82
    assert schell_crib(6, 7, own=True) == 4.98
    # A pone's throw costs more than the same cards to its own crib, on every pair.
    assert all(
        SCHELL_OPPONENT_CRIB[a][b] > SCHELL_OWN_CRIB[a][b] for a in range(13) for b in range(13)
    )


def test_book_discard_adds_or_subtracts_schell_crib() -> None:
    hand = parse_cards("5C 5D JH QS 2C 9D")
    mine = dict(book_discard_values(hand, 2, 1, Rules()))
    theirs = dict(book_discard_values(hand, 2, -1, Rules()))
    thrown = (Card.parse("5C"), Card.parse("5D"))
    assert mine[thrown] - theirs[thrown] == pytest.approx(8.79 + 9.37)


def test_book_discard_balks_the_dealer_crib_and_feeds_its_own() -> None:
    # The pone keeps the fives away from the dealer's crib; as the dealer it throws otherwise.
    check_fives_kept_from_the_dealer(BOOK)


def test_magic_eleven_decides_between_close_discards() -> None:
    # Pone 3-4-6-6-8-10: throwing 8-10 is best by the averages, 4-10 (keeping the 8-3
    # eleven) 0.04 behind: "tough to figure", so the eleven decides.
    hand = parse_cards("8C 6C 4D 6D 3C 10D")
    values = dict(book_discard_values(hand, 2, -1, Rules()))
    by_averages = values[(Card.parse("8C"), Card.parse("10D"))]
    eleven = values[(Card.parse("4D"), Card.parse("10D"))]
    assert by_averages == max(values.values()) and by_averages - eleven < 0.1
    game, _ = rigged_game(
        ["KC QD JS 9H", "8C 6C 6D 3C"], ["5C 5D", "4D 10D"], dealer=0, starter="2S", discard=False
    )
    thrown = BOOK.choose_discard(game.view(1), random.Random(0))
    assert {card.code for card in thrown} == {"4D", "10D"}


def test_do_not_lead_a_five() -> None:
    # Not even from a pair royal, where it has nothing else to lead but a 9.
    assert book_plays("5C 5D 5H 9S") == Card.parse("9S")


def test_lead_a_card_smaller_than_five() -> None:
    # Before a pair of nines ("a card smaller than a 5, preferably from a pair").
    assert book_plays("4C 9S 9H KD") == Card.parse("4C")


def test_lead_from_a_pair() -> None:
    assert book_plays("3C 3D 2S KH").rank == 3


def test_play_from_a_pair() -> None:
    # On a king led neither scores: a 7 from the pair, not the lone 8.
    assert book_plays("7C 7D 8S", "KH", theirs_played="KH").rank == 7


def test_two_cards_totalling_fifteen_play_one() -> None:
    # Holding 7-8 and two ten-cards: the 8 leads (a 7 for fifteen is paired), not a king.
    assert book_plays("7C 8D KS QH") == Card.parse("8D")


def test_seven_and_nine_lead_the_seven() -> None:
    # An 8 for fifteen on the 7 is answered by the 9 for a run of three.
    assert book_plays("7C 9D 10S KH") == Card.parse("7C")


def test_avoid_making_the_count_twenty_one() -> None:
    # At 11: the 10 would leave 21, the 9 leaves 20.
    assert book_plays("10C 9D", "6S 5H", theirs_played="6S", mine_played="5H") == Card.parse("9D")


def test_avoid_making_the_count_five() -> None:
    # After a 3 led: the 2 would leave 5, the 4 leaves 7.
    assert book_plays("2C 4D", "3S", theirs_played="3S") == Card.parse("4D")


def test_do_not_play_next_to_the_last_card_for_nothing() -> None:
    # On a jack led: the 9 invites a 10 (or Q) for a run of three; the 2 does not.
    assert book_plays("9C 2D", "JS", theirs_played="JS") == Card.parse("2D")


def test_be_wary_of_pairing_when_a_fifteen_scores_as_much() -> None:
    assert book_plays("9C 6D", "9S", theirs_played="9S") == Card.parse("6D")


def test_most_points_now_first() -> None:
    # After a king led, the 5 makes fifteen: two points beat every rule of thumb.
    assert book_plays("2S 5C", "KD", theirs_played="KD") == Card.parse("5C")


def test_dump_the_lone_jack_at_twelve_or_more() -> None:
    # At 12 (an 8 and a 4) the 10 and the jack both make 22: the lone jack goes (ties
    # would go to the lower card).
    assert book_plays("10C JD", "8S 4H", theirs_played="8S", mine_played="4H") == Card.parse("JD")


def test_hold_low_cards_to_the_end() -> None:
    assert book_plays("AC KD", "10S 7H", theirs_played="10S", mine_played="7H") == Card.parse("KD")


def test_pegs_out_when_it_can() -> None:
    # Needing 2: the 5 makes fifteen and wins; otherwise the rules would keep the 5 back.
    view = play_view("5C 3D", "QS", theirs_played="QS", scores=(0, 119))
    assert BOOK.choose_play(view, random.Random(0)) == Card.parse("5C")


def test_book_never_uses_its_random_source() -> None:
    view = play_view("2C 6C 7S 8H")
    assert len({BOOK.choose_play(view, random.Random(seed)) for seed in range(5)}) == 1
    assert make_player("book").name == "book"


@pytest.mark.parametrize("name", [variant.name for variant in variants.listed()])
def test_book_makes_only_legal_choices_in_every_variant(name: str) -> None:
    # The game refuses an illegal discard or play with a RuleError: finishing is the check.
    rules = variants.named(name).rules()
    for seed in range(2):
        game, _ = Game.new(SIX_NAMES[: rules.seats], rng=random.Random(seed), rules=rules)
        finish(game, [BOOK] * rules.seats, [random.Random(seat) for seat in range(rules.seats)])
        assert game.state.phase is Phase.OVER


def _reached(start: str) -> set[str]:
    """Every engine module ``start`` imports, directly or through others (parsed, not run):
    ``from engine.players import role_crib`` reaches the module ``role_crib``; a name that is
    not a module reaches the package's ``__init__`` and everything it imports."""
    root = PLAYERS.parents[1]
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        path = root.joinpath(*module.split("."))
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        for node in ast.walk(parsed(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                todo += [alias.name for alias in node.names if alias.name.startswith("engine")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    as_path = root.joinpath(*sub.split("."))
                    is_module = as_path.with_suffix(".py").exists() or as_path.is_dir()
                    todo.append(sub if is_module else str(node.module))
    return seen


def test_the_expert_never_reaches_the_book_player() -> None:
    reached = _reached("engine.players.expert")
    assert "engine.players.expert_play" in reached  # the walk follows the expert's imports
    assert "engine.players.book" not in reached
    for module in reached:
        path = PLAYERS.parents[1].joinpath(*module.split("."))
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        assert "schell" not in source.read_text(encoding="utf-8").lower(), module


def test_the_book_player_reaches_none_of_the_expert_tables() -> None:
    reached = _reached("engine.players.book")
    tuned = {"role_crib", "peg_table", "playout", "hand_guess", "win_chance", "club", "strong"}
    assert {module.rsplit(".", 1)[-1] for module in reached} & tuned == set()
    assert not any(module.startswith("engine.players.expert") for module in reached)


def test_schell_beside_the_role_tables_as_crib_figures_says() -> None:
    # docs/crib-figures.md: ours against Schell's, mean over the 91 rank pairs (and the
    # largest difference): dealer -0.10 (-0.22 on 3-9), pone -0.04 (-0.25 on 8-8).
    pairs = [(a, b) for a in range(1, 14) for b in range(a, 14)]
    for dealer, mean, largest, pair in (
        (True, -0.10, -0.22, (3, 9)),
        (False, -0.04, -0.25, (8, 8)),
    ):
        gaps = {
            (a, b): rank_crib_value(a, b, dealer=dealer) - schell_crib(a, b, own=dealer)
            for a, b in pairs
        }
        assert round(sum(gaps.values()) / len(gaps), 2) == mean
        worst = max(gaps, key=lambda key: abs(gaps[key]))
        assert (worst, round(gaps[worst], 2)) == (pair, largest)
