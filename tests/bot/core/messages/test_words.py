"""The table's words for every kind of engine event (the play, the show, the result, and the
live line), the status board, the private hand, the standings and the rules help."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from bot.core.base.text import Names, chunk, code_width
from bot.core.base.views import MAX_LAID_OUT, MAX_MESSAGE, BoardPicture
from bot.core.games.endings import Ended, Ending
from bot.core.games.lobby import lobby_text
from bot.core.games.rules_help import RULES_TOPICS, rules_text
from bot.core.messages.boards import board_alt
from bot.core.messages.hand import hand_text
from bot.core.messages.projection import board_at
from bot.core.messages.status import board, status_text
from bot.core.messages.table import LEFT_OUT, DealText, deal_layout, deal_text, result_line
from bot.core.standings import words as words_module
from bot.core.standings.ratings import PROVISIONAL_GAMES
from bot.core.standings.records import TREND_GAMES, Ranked, Standing
from bot.core.standings.words import leaderboard_text, rank_line, stats_text
from engine import events as ev
from engine.cards import Card, parse_cards
from engine.counting import Counting
from engine.game import Game
from engine.outcome import EndReason, GameResult, Scoring
from engine.pegging import score_pegging
from engine.rules import Rules
from engine.scoring import score_hand
from tests.helpers.rigging import play_cards, two_player_game

#: docs/players.md, its white space folded (a sentence may break across lines).
_PLAYERS_DOC = " ".join(
    (Path(__file__).resolve().parents[4] / "docs" / "players.md").read_text("utf-8").split()
)


def make_result(
    target: int,
    scores: tuple[int, ...],
    winner: int,
    reason: EndReason,
    scoring: Scoring = Scoring.LURCH,
) -> GameResult:
    """The result the standard game's rules give (as many players as scores, two for two)."""
    rules = Rules.standard(len(scores), target=target, scoring=scoring)
    return rules.result(scores, winner, reason)


def c(text: str) -> Card:
    return Card.parse(text)


@pytest.fixture
def game() -> Game:
    return Game.new(["Al", "Bea"], rng=random.Random(3))[0]


def one(events: list[ev.Event], game: Game, *, live: bool = False) -> str:
    """The table text of ``events`` (the play, then the show, then the result)."""
    view = game.public_view()
    text = deal_text(Names.of(view), events, view, live=live)
    return "\n".join(part for part in (text.play, text.show, text.result) if part)


def played(seat: int, pile: str, score: int = 0) -> ev.Played:
    cards = parse_cards(pile)
    points = score_pegging(cards)
    count = sum(card.value for card in cards)
    return ev.Played(seat, seat, cards[-1], count, points.items, points.total, score)


def test_a_card_that_scores_nothing_says_the_count(game: Game) -> None:
    assert one([played(1, "10S 2H")], game) == "Bea plays 2♥ (count 12)"


def test_fifteen_for_two_says_the_running_score(game: Game) -> None:
    assert (
        one([played(1, "10S 5H", 11)], game) == "Bea plays 5♥ (count 15) — fifteen for 2 (Bea: 11)"
    )


def test_pair_and_fifteen(game: Game) -> None:
    text = one([played(0, "5S 5H 5D", 20)], game)
    assert text == "Al plays 5♦ (count 15) — fifteen and three of a kind for 8 (Al: 20)"


def test_thirty_one_for_two(game: Game) -> None:
    assert one([played(0, "10S JH 5D 6C", 9)], game) == "Al plays 6♣ (count 31) — 31 for 2 (Al: 9)"


def test_go_and_the_point_for_it(game: Game) -> None:
    lines = one(
        [played(1, "10S KH 9D"), ev.Go(0), ev.GoPoint(1, 1, 1, 7, False)], game
    ).splitlines()
    assert lines == ["Bea plays 9♦ (count 29)", "Al says go", "Go — Bea pegs 1 (Bea: 7)"]


def test_last_card_and_reset(game: Game) -> None:
    lines = one([ev.GoPoint(0, 0, 1, 12, True)], game)
    assert lines == "Last card — Al pegs 1 (Al: 12)"
    assert one([ev.CountReset(1)], game) == "The count starts again; Bea leads"


def test_starter_with_his_heels(game: Game) -> None:
    text = one([ev.StarterCut(c("JS"), 0), ev.Heels(0, 0, 2, 2)], game)
    assert text == "Starter: J♠ — his heels, Al pegs 2 (Al: 2)."


def test_starter_without_heels(game: Game) -> None:
    assert one([ev.StarterCut(c("9S"), 1)], game) == "Starter: 9♠."


def test_his_heels_that_wins_names_no_leader(game: Game) -> None:
    result = make_result(121, (121, 80), 0, EndReason.TARGET)
    text = one([ev.StarterCut(c("JS"), 0), ev.Heels(0, 0, 2, 121), ev.GameOver(result)], game)
    assert text.splitlines()[0] == "Starter: J♠ — his heels, Al pegs 2 (Al: 121)."
    assert "leads" not in text


def test_show_is_said_item_by_item_then_the_scores(game: Game) -> None:
    cards, starter = parse_cards("5H 5C JD 8S"), c("2C")
    score = score_hand(cards, starter)
    text = one([ev.Shown(1, 1, False, cards, starter, score, 40)], game)
    assert text.splitlines() == [
        "Bea's hand: 5♥ 5♣ J♦ 8♠ + starter 2♣ — fifteen two, fifteen four, fifteen six, "
        "fifteen eight, and a pair is ten (Bea: 40)",
        "Scores — Al: 0 · Bea: 40 (to 121)",
    ]


@pytest.mark.parametrize(
    ("hand", "starter", "said"),
    [("5H 5C 5D JS", "5S", "a 29, the perfect hand!"), ("5H 5C 5D 5S", "JS", "a 28!")],
)
def test_a_28_or_29_is_announced_on_the_table(
    game: Game, hand: str, starter: str, said: str
) -> None:
    cards, cut = parse_cards(hand), c(starter)
    score = score_hand(cards, cut)
    line = one([ev.Shown(1, 1, False, cards, cut, score, 60)], game).splitlines()[0]
    assert line.endswith(f"(Bea: 60) — 🎉 **{said}**")
    plain = score_hand(parse_cards("AH 3C 7D 9S"), c("QS"))
    assert "🎉" not in one([ev.Shown(1, 1, False, cards, cut, plain, 60)], game)


def test_crib_and_a_hand_worth_nothing(game: Game) -> None:
    cards, starter = parse_cards("AH 3C 7D 9S"), c("QS")
    score = score_hand(cards, starter, crib=True)
    text = one([ev.Shown(0, 0, True, cards, starter, score, 3)], game)
    assert text.splitlines()[0] == "Al's crib: A♥ 3♣ 7♦ 9♠ + starter Q♠ — nothing (Al: 3)"


def test_a_deal_opens_with_who_deals_and_how_many_cards_go_to_the_crib(game: Game) -> None:
    text = one([ev.Dealt(1, 2, 6, False)], game)
    assert text == "**Deal 2** — Bea deals 6 each; everyone puts 2 cards in Bea's crib."


def test_three_players_get_a_crib_card_from_the_deck() -> None:
    three, _ = Game.new(["Al", "Bea", "Cy"], rng=random.Random(1))
    text = one([ev.Dealt(0, 1, 5, True)], three)
    assert "Al deals 5 each; everyone puts 1 card in Al's crib" in text
    assert "in Al's crib, and the top card of the deck joins it" in text


def test_cut_for_deal_with_a_tie(game: Game) -> None:
    event = ev.CutForDeal(((c("5S"), c("5D")), (c("KC"), c("3H"))), 1)
    assert one([event], game) == (
        "Cut for deal — Al: 5♠, Bea: 5♦ — a tie for lowest, cut again: Al: K♣, Bea: 3♥. "
        "Bea cuts lowest and deals first."
    )


def test_discards_never_name_the_cards_and_the_live_table_says_who_is_waited_for(
    game: Game,
) -> None:
    thrown = game.hand(0)[:2]
    events = game.discard(0, thrown)
    assert events == [ev.Discarded(0, 2)]
    text = one(events, game, live=True)
    assert text == "Waiting for Bea to put cards in the crib."
    assert not any(str(card) in text for card in thrown)


def test_the_live_table_says_the_count_and_whose_turn(game: Game) -> None:
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    turn = game.state.turn
    assert turn is not None
    card = game.playable_cards(turn)[0]
    events = game.play(turn, card)
    last = one(events, game, live=True).splitlines()[-1]
    assert last == f"**Count {card.value}** ({card}) — {game.state.players[1 - turn]} to play."
    # Laid out, where the play stands is a text of its own after the calls.
    view = game.public_view()
    text = deal_text(Names.of(view), events, view, live=True)
    assert deal_layout(text) == ((text.play.removesuffix("\n" + last), last),)


def test_result_with_skunk_and_game_points(game: Game) -> None:
    result = make_result(121, (121, 84), 0, EndReason.TARGET, Scoring.SKUNK)
    assert one([ev.GameOver(result)], game) == "🏆 Al wins 121-84 — a skunk, 2 game points"
    plain = make_result(121, (100, 121), 1, EndReason.TARGET, Scoring.SKUNK)
    assert one([ev.GameOver(plain)], game) == "🏆 Bea wins 121-100 — 1 game point"
    lurch = make_result(121, (121, 60), 0, EndReason.TARGET)
    assert one([ev.GameOver(lurch)], game) == "🏆 Al wins 121-60 — a lurch, 2 game points"
    resigned = make_result(121, (10, 40), 1, EndReason.RESIGNED, Scoring.SKUNK)
    assert result_line(
        Names(["Al", "Bea"], Rules.standard(2)), resigned, Ended(Ending.RESIGNED, 0)
    ) == ("Al resigned — 🏆 Bea wins, a double skunk, 3 game points (Bea: 40, Al: 10)")


def test_resignation_at_0_0_is_a_lurch_in_the_result_line() -> None:
    resigned = make_result(121, (0, 0), 0, EndReason.RESIGNED)
    assert result_line(
        Names(["Al", "Bea"], Rules.standard(2)), resigned, Ended(Ending.RESIGNED, 1)
    ) == ("Bea resigned — 🏆 Al wins, a lurch, 2 game points (Al: 0, Bea: 0)")


def test_partners_and_three_players() -> None:
    partners = Names(["Al", "Bea", "Cy", "Dee"], Rules.standard(4))
    result = make_result(61, (61, 20), 0, EndReason.TARGET)
    assert result_line(partners, result) == "🏆 Al & Cy win 61-20 — a lurch, 2 game points"
    three = Names(["Al", "Bea", "Cy"], Rules.standard(3))
    assert result_line(three, make_result(121, (95, 121, 70), 1, EndReason.TARGET)).startswith(
        "🏆 Bea wins 121 to Al's 95 and Cy's 70 — 1 game point"
    )


def test_three_players_result_says_who_had_which_score() -> None:
    # Issue 25, item 9: "🏆 Al wins 61-34-53" gave the losers' scores in seat order, unnamed.
    three = Names(["Al", "Bea", "Cy"], Rules.standard(3))
    result = make_result(61, (61, 34, 53), 0, EndReason.TARGET)
    assert result_line(three, result) == "🏆 Al wins 61 to Cy's 53 and Bea's 34 — 1 game point"
    resigned = make_result(61, (40, 55, 45), 1, EndReason.RESIGNED)
    assert result_line(three, resigned, Ended(Ending.RESIGNED, 0)) == (
        "Al resigned — 🏆 Bea wins, 1 game point (Bea: 55, Cy: 45, Al: 40)"
    )


def test_a_win_pegged_past_the_target_is_said_at_the_game_hole() -> None:
    # Issue 68, item 12: "🏆 Bea wins 62-47" and "Cy wins 62 to Al's 48": the board has no
    # hole 62; players say a win at 61.
    two = Names(["Al", "Bea"], Rules.standard(2, target=61))
    result = make_result(61, (47, 62), 1, EndReason.TARGET)
    assert result_line(two, result) == "🏆 Bea wins 61-47 — 1 game point"
    three = Names(["Al", "Bea", "Cy"], Rules.standard(3, target=61))
    past = make_result(61, (48, 40, 62), 2, EndReason.TARGET)
    assert result_line(three, past).startswith("🏆 Cy wins 61 to Al's 48 and Bea's 40")
    # A concession below the target is said as it stood.
    resigned = make_result(121, (10, 40), 1, EndReason.RESIGNED)
    assert "Bea wins 40-10" in result_line(Names(["Al", "Bea"], Rules.standard(2)), resigned)
    # The board's picture of the end, its words too: the winner's peg in the game hole.
    board = BoardPicture(("Al", "Bea"), ((47, 40), (62, 55)), 61, winner=1)
    alt = board_alt(board)
    assert "Bea: 61 (was 55)" in alt and "Bea won by 14" in alt, alt


def test_status_shows_board_dealer_turn_count_and_series() -> None:
    game, _ = Game.new(["Al", "Bea"], rng=random.Random(5))
    for seat in (0, 1):
        game.discard(seat, game.hand(seat)[:2])
    mover = game.state.turn
    assert mover is not None
    game.play(mover, game.playable_cards(mover)[0])
    text = status_text(game.public_view())
    view = game.public_view()
    assert text.startswith("```") and "▱" in text
    assert f"{view.players[view.dealer]} deals" in text
    assert f"{view.players[view.turn or 0]} to play" in text
    assert f"Count {view.count}: {view.series[0]}" in text
    for seat in (0, 1):
        for card in game.hand(seat):
            assert str(card) not in text.replace(str(view.starter), "")


def test_board_fills_with_the_score() -> None:
    text = board(Names(["Al", "Bea"], Rules.standard(2)), (121, 0), 121)
    full, empty = text.splitlines()[1:3]
    assert full.count("▰") == 30 and empty.count("▱") == 30


def test_a_name_with_backticks_is_changed_only_inside_a_code_block() -> None:
    # The status's text board is a code block, where a backtick would end it; the board's
    # picture, its alt text and the Activity's table show the name as typed. (They showed
    # "Al 'the' Great", the code block's stand-in.)
    game, _ = Game.new(["Al `the` Great", "Bea"], rng=random.Random(5))
    view = game.public_view()
    assert "Al 'the' Great" in board(Names.of(view), view.scores, view.target)
    picture = board_at(view, [(0, 0), (0, 0)], view.dealer, None)
    assert picture.sides[0] == "Al `the` Great" and "Al `the` Great" in board_alt(picture)


def test_private_hand_text_for_the_discard() -> None:
    game, _ = Game.new(["Al", "Bea"], rng=random.Random(9))
    text = hand_text(game.view(0), 42)
    assert "<#42>" in text and "Choose 2 cards" in text
    for card in game.hand(0):
        assert str(card) in text
    for card in game.hand(1):
        assert str(card) not in text


GUILD_ID = 7


def _ranked(rank: int, name: str, mu: float, sigma: float, games: int, wins: int) -> Ranked:
    standing = Standing(GUILD_ID, False, rank, name, mu, sigma, games=games, wins=wins)
    return Ranked(standing, rank, 12, trend_from=0.0)


def test_leaderboard_table_ranks_by_rating_and_fits_a_phone() -> None:
    rows = [
        _ranked(11, "Al", 30.0, 4.0, 20, 15),  # ordinal 18: 1,360
        _ranked(12, "Bartholomew the Bold", 25.0, 7.0, 3, 1),  # ordinal 4: 1,080
    ]
    text = leaderboard_text("people", 12, rows, 1)
    lines = text.splitlines()
    assert lines[0] == "**Leaderboard** — games between people · page 2 of 2"
    al = next(line for line in lines if " Al " in line)
    assert al.split() == ["11", "Al", "1,360", "20", "75%", "+360"]
    bart = next(line for line in lines if "Bartholo" in line)
    # A long name is cut; a player with under 5 games is marked provisional.
    assert "Bartholomew th…" in bart and "1,080?" in bart
    assert "? provisional (under 5 games)" in text
    table = text.split("```")[1]
    assert max(len(line) for line in table.splitlines()) <= 41


#: Names a code block's columns must line up after: emoji and East Asian characters take two
#: columns of a monospace font, a family emoji one wide emoji of five characters, an accent
#: typed as a combining mark none.
WIDE_NAMES = (
    "Al",
    "🎲 Dice 🎲",
    "漢字さん",
    "👨\u200d👩\u200d👧 Family",
    "Zoe\u0301",
    "漢字さん漢字さん漢字さん",
)


def test_the_leaderboards_columns_line_up_whatever_the_names_are_made_of() -> None:
    # The names were cut and padded by their characters: a column after an emoji's name stood
    # one place to the right for each emoji, after a long East Asian name seven.
    rows = [_ranked(i + 1, name, 25.0, 8.0, 9, 4) for i, name in enumerate(WIDE_NAMES)]
    table = leaderboard_text("people", len(rows), rows, 0).split("```")[1].splitlines()[1:]
    assert {code_width(line) for line in table} == {41}
    assert len({code_width(line[: line.index("1,0")]) for line in table[1:]}) == 1
    assert "漢字さん漢字さ…" in table[-1]


def test_the_status_boards_tracks_line_up_whatever_the_names_are_made_of() -> None:
    text = board(Names(list(WIDE_NAMES[:3]), Rules.standard(3)), (10, 20, 30), 121)
    lines = text.split("```")[1].strip("\n").splitlines()
    assert len({code_width(line.split("▰")[0]) for line in lines[:-1]}) == 1
    assert len({code_width(line) for line in lines[:-1]}) == 1


def test_a_players_trend_spans_the_games_the_store_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's rank line says the trend is over the store's :data:`TREND_GAMES` (or the
    games they have played, if fewer), where it wrote 10 of its own beside it."""
    monkeypatch.setattr(words_module, "TREND_GAMES", 6)
    assert "over the last 6 games." in rank_line(_ranked(1, "Al", 25.0, 8.0, 20, 11))
    assert "over the last 1 game." in rank_line(_ranked(1, "Al", 25.0, 8.0, 1, 1))


def test_the_trend_and_the_provisional_mark_are_said_as_the_table_counts_them() -> None:
    text = leaderboard_text("people", 1, [_ranked(1, "Al", 25.0, 8.0, 2, 1)], 0)
    assert f"{TREND_GAMES}g: rating change over the last {TREND_GAMES} games" in text
    assert f"`?` marks a provisional rating (under {PROVISIONAL_GAMES} games)" in _PLAYERS_DOC
    assert f"the change over their last {TREND_GAMES} games" in _PLAYERS_DOC


def test_an_empty_table_says_so() -> None:
    text = leaderboard_text("computer", 0, [], 0)
    assert "No games against the computer have finished on this server yet." in text


def test_an_empty_variant_table_names_the_variant_in_lower_case_mid_sentence() -> None:
    text = leaderboard_text("people", 0, [], 0, "Seven-card cribbage")
    assert text.splitlines() == [
        "**Leaderboard** — Seven-card cribbage, games between people",
        "No seven-card cribbage games between people have finished on this server yet.",
    ]


def _totals(
    vs_computer: bool,
    games: int,
    wins: int,
    skunks: tuple[int, int],
    points: tuple[int, int, int],
    deals: int,
    best: tuple[int, str],
    twenty_nines: int = 0,
) -> Standing:
    """Al's standing in one table with the totals the stats show: games and wins, skunks given
    and taken, points by pegging, hand and crib, deals, the best hand with its cards, and 29s
    (the rating plays no part)."""
    (given, taken), (pegging, hand, crib), (best_hand, cards) = skunks, points, best
    return Standing(
        GUILD_ID,
        vs_computer,
        1,
        "Al",
        25.0,
        8.0,
        games=games,
        wins=wins,
        skunks_given=given,
        skunks_taken=taken,
        pegging_points=pegging,
        hand_points=hand,
        crib_points=crib,
        deals=deals,
        best_hand=best_hand,
        best_hand_cards=cards,
        twenty_nines=twenty_nines,
    )


def test_stats_keep_computer_games_apart() -> None:
    people = _totals(False, 3, 2, (1, 0), (60, 120, 30), 20, (24, "5♥ 5♣ 5♦ J♠ + 5♠"))
    computer = _totals(True, 1, 0, (0, 1), (5, 10, 2), 4, (12, "6♥ 6♣ 6♦ 3♠ + 3♥"))
    text = stats_text("Al", people, computer)
    assert "Against people: 3 games, 2 wins (67%)" in text
    assert "pegging 3.0, hand 6.0, crib 1.5" in text
    assert "Against the computer: 1 game, 0 wins (0%)" in text


def test_stats_give_no_points_per_deal_before_a_deal_is_shown() -> None:
    # Seen in the playground: a game resigned during its first pegging read "Points per deal —
    # pegging 2.0, hand 0.0, crib 0.0 (over 0 deals)": points divided by no deal.
    computer = _totals(True, 1, 0, (0, 1), (2, 0, 0), 0, (0, ""))
    text = stats_text("Al", None, computer)
    assert "over 0 deals" not in text and "pegging 2.0" not in text, text
    assert "Points per deal — none yet: no deal of theirs has reached the show." in text, text


def test_stats_name_each_best_hand_once() -> None:
    # Issue 25, item 6: "Best hand: 8 (...)" was followed by "Best hands: 8 (...)".
    people = _totals(False, 3, 2, (1, 0), (60, 120, 30), 20, (24, "5♥ 5♣ 5♦ J♠ + 5♠"))
    computer = _totals(True, 1, 0, (0, 1), (5, 10, 2), 4, (29, "5♥ 5♣ 5♦ J♠ + 5♠"), 1)
    best = [(29, "5♥ 5♣ 5♦ J♠ + 5♠"), (24, "5♥ 5♣ 5♦ J♠ + 5♠")]
    text = stats_text("Al", people, computer, best=best)
    assert text.count("5♥ 5♣ 5♦ J♠ + 5♠") == 2 and "Best hand:" not in text
    assert text.splitlines()[-1] == "Best hands: 29 (5♥ 5♣ 5♦ J♠ + 5♠) · 24 (5♥ 5♣ 5♦ J♠ + 5♠)."
    alone = stats_text("Al", people, None, best=best[1:])
    assert alone.count("24") == 1 and alone.splitlines()[-1].startswith("Best hands: 24")
    # A 29 beyond the best hands listed is counted.
    assert stats_text("Al", people, computer, best=best[1:]).endswith("; 29s held: 1.")


def test_numbers_below_zero_have_the_typographic_minus() -> None:
    # Issue 25, item 7: "Bea 963 (−37)" but "-22" on the leaderboard.
    standing = Standing(GUILD_ID, False, 1, "Al", 25.0, 8.0, games=12, wins=3)
    rows = [Ranked(standing, 1, 1, trend_from=2.1)]  # 1,042 ten games ago, 1,020 now
    line = leaderboard_text("people", 1, rows, 0).split("```")[1].splitlines()[2]
    assert line.split()[-1] == "−22" and "-" not in line


@pytest.mark.parametrize("topic", sorted(RULES_TOPICS))
def test_every_rules_topic_has_help(topic: str) -> None:
    text = rules_text(topic.upper())
    assert len(text) > 100 and len(text) <= MAX_MESSAGE


def test_unknown_rules_topic_lists_the_topics() -> None:
    text = rules_text("bowling")
    assert all(f"`{t}`" in text for t in RULES_TOPICS)
    assert rules_text(None) == RULES_TOPICS["overview"]


def test_chunk_keeps_messages_under_the_limit() -> None:
    lines = ["x" * 900] * 5 + ["y" * 2500]
    messages = chunk(lines)
    assert all(len(m) <= MAX_MESSAGE for m in messages)
    assert len(messages) == 4 and messages[-1].endswith("…")


def test_names_cannot_inject_markdown() -> None:
    table = Names(["**Al**", "B`ea"], Rules.standard(2))
    assert table.seat(0) == "\\*\\*Al\\*\\*"
    result = make_result(121, (121, 84), 0, EndReason.TARGET)
    assert result_line(table, result).startswith("🏆 \\*\\*Al\\*\\* wins")
    text = board(table, (10, 20), 121)
    assert text.count("```") == 2 and "B'ea" in text


def test_rules_the_last_card_pegs_1_or_2_if_it_makes_31() -> None:
    assert "The last card of the play pegs 1 (2 if it makes 31)." in rules_text("play")


def test_rules_game_points_by_the_lurch_the_skunk_scale_and_resignation() -> None:
    text = rules_text("scoring")
    assert "By the lurch (the default)" in text and "under 61 in a 121 game" in text
    assert "`scoring:skunk`" in text and "under 91 is skunked (2)" in text
    assert "A resignation is a loss at the scores as they stand" in text
    assert "`counting:manual`" in rules_text("show") and "Muggins!" in rules_text("show")


def test_rules_say_where_the_hand_is_and_who_cancels_in_a_dm_or_group_dm() -> None:
    text = rules_text("commands")
    assert "in a DM or group DM, the table's **Your hand** button" in text
    assert "in a DM or group DM nobody, unless the game cannot go on" in text
    assert "coach DMs" not in text  # (outside servers there are no DMs: it rides on the hand)


def test_manual_show_says_the_cards_the_claim_the_muggins_and_then_the_breakdown() -> None:
    game, _ = two_player_game(counting=Counting.MANUAL)
    events = play_cards(game, "KH 5C 6D KS 10H JC 5S 6C")
    view = game.public_view()
    live = deal_text(Names.of(view), events, view, live=True)
    assert "Waiting for Bea to count their hand: 5♠ 6♦ 10♥ K♥ + starter 2♦." in live.show
    events += game.claim(1, 2)
    view = game.public_view()
    live = deal_text(Names.of(view), events, view, live=True)
    assert "Bea's hand: 5♠ 6♦ 10♥ K♥ + starter 2♦ — Bea claims 2 (Bea: 2)" in live.show
    assert "Bea claimed 2 — an opponent may call **Muggins!**" in live.show
    assert "fifteen" not in live.show  # the breakdown waits for the window
    events += game.muggins(0)
    view = game.public_view()
    text = deal_text(Names.of(view), events, view, live=True).show
    assert "Muggins! Al takes the 2 points Bea missed (Al: 8)" in text
    assert "Bea's hand counted: fifteen two, fifteen four — 2 points missed" in text


def test_lobby_names_the_table_options() -> None:
    assert "to 121; game points by the lurch, auto counting." in lobby_text(
        "Opened by Al", ["Al"], Rules.standard(2)
    )
    options = Rules.standard(2, target=61, scoring=Scoring.SKUNK, counting=Counting.MANUAL)
    skunk = lobby_text("Opened by Al", ["Al"], options)
    assert "to 61; game points on the skunk scale, you count your hands (muggins)." in skunk


def test_status_at_a_manual_show_says_who_counts() -> None:
    game, _ = two_player_game(counting=Counting.MANUAL)
    play_cards(game, "KH 5C 6D KS 10H JC 5S 6C")
    game.claim(1, 2)
    text = status_text(game.public_view())
    assert "The show — starter 2♦." in text
    assert "Bea claimed 2: Al may call muggins." in text and "Al to count their hand." in text


def test_status_says_whom_the_show_waits_on_while_muggins_may_be_called() -> None:
    """A claim that waits keeps the next hand's owner from counting while an opponent may
    still call muggins on it: status names who may call it, and says the next count comes
    once it is settled, where it named nobody and told the dealer to count a crib the game
    would refuse."""
    game, _ = two_player_game(counting=Counting.MANUAL)
    play_cards(game, "KH 5C 6D KS 10H JC 5S 6C")
    game.claim(1, 2, open_window=True, waits=True)
    game.claim(0, 4, open_window=True, waits=True)  # Al's hand: his claim is his side's pass
    text = status_text(game.public_view())
    assert "Al claimed 4: Bea may call muggins." in text
    assert "Al counts the crib next, once muggins is settled." in text
    assert "Al to count" not in text
    game.pass_muggins(1)
    assert "Al to count the crib." in status_text(game.public_view())


def test_a_computer_level_is_named_by_its_level_in_the_standings() -> None:
    # Its standing keeps the name of the seat it last sat in: numbered, or from before the
    # short names ("Computer 2 (easy)" was cut to "Computer 2 (ea…").
    easy = Standing(GUILD_ID, True, -1, "Computer 2 (easy)", 25.0, 7.0, games=9, wins=3)
    al = Standing(GUILD_ID, True, 1, "Al", 26.0, 7.0, games=9, wins=6)
    rows = [Ranked(al, 1, 2, trend_from=0.0), Ranked(easy, 2, 2, trend_from=0.0)]
    table = leaderboard_text("computer", 2, rows, 0).split("```")[1]
    assert "Easy bot" in table and "Computer" not in table
    assert rank_line(rows[0], [easy]).endswith("Rated above Easy bot.")


def test_the_show_is_laid_out_a_part_per_hand_and_the_crib_then_the_scores(game: Game) -> None:
    """Each hand and the crib is a part of its own (set apart on the table), then the
    scores; with manual counting, a claim and its breakdown and a muggins stay together."""
    starter = c("2C")
    al, bea, crib = (
        parse_cards("5H 5C JD 8S"),
        parse_cards("AH 3D 7C KS"),
        parse_cards("4S 4D 9H QC"),
    )
    view = game.public_view()
    events: list[ev.Event] = [
        ev.Shown(1, 1, False, bea, starter, score_hand(bea, starter), 4),
        ev.Shown(0, 0, False, al, starter, score_hand(al, starter), 10),
        ev.Shown(0, 0, True, crib, starter, score_hand(crib, starter, crib=True), 14),
    ]
    text = deal_text(Names.of(view), events, view, live=False)
    assert len(text.show_parts) == 4
    assert [p.split(":")[0].split(" — ")[0] for p in text.show_parts] == [
        "Bea's hand",
        "Al's hand",
        "Al's crib",
        "Scores",
    ]
    assert text.show == "\n".join(text.show_parts)
    claim = ev.Claimed(1, 1, False, bea, starter, 0, 0)
    full = ev.Shown(1, 1, False, bea, starter, score_hand(bea, starter), 0, claimed=0)
    caught = ev.Mugginsed(0, 0, 1, 2, 12)
    manual = deal_text(Names.of(view), [claim, caught, full, events[1]], view, live=False)
    assert manual.show_parts[0].splitlines()[0].startswith("Bea's hand: A♥")
    assert "Muggins! Al takes the 2 points Bea missed" in manual.show_parts[0]
    assert manual.show_parts[0].splitlines()[-1].startswith("Bea's hand counted")
    assert manual.show_parts[1].startswith("Al's hand")


def test_a_laid_out_deal_keeps_its_show_and_gives_way_only_past_4000() -> None:
    """Within Components V2's 4,000 characters a deal is said whole; past them the plays
    that scored nothing give way first, then the play is cut from its end, the show last."""
    brief = "b" * 100 + "\n" + LEFT_OUT
    text = DealText("p" * 2800, "s" * 500 + "\n" + "t" * 600, "", brief, ("s" * 500, "t" * 600))
    assert deal_layout(text) == (("p" * 2800,), ("s" * 500,), ("t" * 600,))
    longer = dataclasses.replace(text, play="p" * 3000)
    assert deal_layout(longer) == ((brief,), ("s" * 500,), ("t" * 600,))
    assert sum(len(t) for g in deal_layout(longer) for t in g) <= MAX_LAID_OUT
    cramped = dataclasses.replace(longer, brief="b" * 3000)
    play = deal_layout(cramped)[0][0]
    assert play.endswith("…") and len(play) == MAX_LAID_OUT - 1100
    huge = dataclasses.replace(cramped, show_parts=("s" * 3000, "t" * 1500))
    assert deal_layout(huge) == (("",), ("s" * 3000,), ("t" * 1000,))


def test_a_deal_over_is_told_once_as_its_game_goes_on() -> None:
    game, _ = two_player_game()
    events = play_cards(game, "KH 5C 6D KS 10H JC 5S 6C")  # the play, then the show
    deal = [e for e in events if not isinstance(e, ev.Dealt)]  # (the next deal's, if dealt)
    before = game.public_view()
    told = deal_text(Names.of(before), deal, before, live=False)
    assert told.show.endswith("Scores — Al: 15 · Bea: 4 (to 121)")
    for seat in range(2):  # the next deal goes on: its table changes, this one does not
        game.discard(seat, game.hand(seat)[:2])
    after = game.public_view()
    assert after != before
    assert deal_text(Names.of(after), deal, after, live=False) is told
    live = deal_text(Names.of(after), [], after, live=True)
    assert live is not deal_text(Names.of(before), [], before, live=True)
