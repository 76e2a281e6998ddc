"""The rules of games replayed at one table (bot/core/games/series.py), each test named after
its rule: who deals first in a following game, which games make a series, how a series is
scored and said, and what a result offers."""

from __future__ import annotations

import dataclasses
import doctest

from bot.core.base.replies import User
from bot.core.games import series
from bot.core.games.records import (
    GameRecord,
    GameStatus,
    Match,
    Options,
    ResultRecord,
    Round,
    SeatRecord,
    SeriesResult,
)
from bot.core.games.series import (
    SEAT_KEPT,
    SERIES_GAP,
    Standing,
    again_of,
    continued,
    following_dealer,
    seats_again,
    series_line,
    standings,
)

AL, BEA, CY, DEE = (SeatRecord(i, i + 1, n) for i, n in enumerate(("Al", "Bea", "Cy", "Dee")))


def _row(game: int, seat: SeatRecord, won: bool, points: int = 1, at: float = 0.0) -> SeriesResult:
    result = ResultRecord(
        seat.seat, seat.user_id, seat.name, seat.is_computer, won, points,
        False, False, 0, "", "",
    )  # fmt: skip
    return SeriesResult(game, at, result)


def _game(seats: tuple[SeatRecord, ...], **changes: object) -> GameRecord:
    record = GameRecord(
        id=2, guild_id=1, channel_id=9, status=GameStatus.FINISHED, creator_id=1,
        options=Options(len(seats), 121), snapshot=None, version=3,
        created_at=100.0, updated_at=200.0, seats=seats,
    )  # fmt: skip
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def test_the_loser_of_the_game_before_deals_first_in_a_following_game() -> None:
    before = [_row(1, AL, False), _row(1, BEA, True)]
    assert following_dealer(before, [AL, BEA]) == 0
    # Wherever the loser sits now.
    assert following_dealer(before, [dataclasses.replace(BEA, seat=0), AL]) == 1


def test_with_more_than_two_players_or_the_loser_gone_they_cut_for_the_deal() -> None:
    three = [_row(1, AL, False), _row(1, BEA, True), _row(1, CY, False)]
    assert following_dealer(three, [AL, BEA, CY]) is None
    assert following_dealer([_row(1, AL, False), _row(1, BEA, True)], [CY, BEA]) is None


def test_a_rematch_keeps_every_seat_and_holds_the_others_for_their_people() -> None:
    bot = SeatRecord(2, None, "Hard bot", True, "hard")
    seats = seats_again(_game((AL, BEA, bot)), User(BEA.user_id or 0, "Bea B."), now=1000.0)
    until = 1000.0 + SEAT_KEPT.total_seconds()
    assert [(s.user_id, s.name, s.held_until) for s in seats] == [
        (AL.user_id, "Al", until),
        (BEA.user_id, "Bea B.", None),
        (None, "Hard bot", None),
    ]


def test_a_result_offers_a_rematch_between_people_and_play_again_against_the_computer() -> None:
    bot = SeatRecord(1, None, "Easy bot", True, "easy")
    assert again_of(_game((AL, BEA))) == "rematch"
    assert again_of(_game((AL, bot))) == "again"
    assert again_of(_game((AL, BEA), occasion=Round("Round 1"))) is None
    assert again_of(_game((AL, BEA), occasion=Match(1, 1))) is None
    assert again_of(_game((AL, BEA), status=GameStatus.CANCELLED)) is None


def test_a_series_goes_on_while_the_same_people_replay_within_a_day() -> None:
    before = [_row(1, AL, True, at=50.0), _row(1, BEA, False, at=50.0)]
    before += [_row(4, AL, False, at=150.0), _row(4, BEA, True, at=150.0)]
    rematch = _game((AL, BEA), rematch_of=4, created_at=150.0 + SERIES_GAP.total_seconds())
    assert continued(rematch, before) == 1, "the series' first game"
    late = dataclasses.replace(rematch, created_at=rematch.created_at + 1)
    assert continued(late, before) is None, "a day passed"
    assert continued(_game((AL, CY), rematch_of=4), before) is None, "the players changed"
    assert continued(_game((AL, BEA)), before) is None, "no rematch"


def test_a_series_counts_game_points_as_the_lurch_does() -> None:
    rows = [_row(1, AL, True, 2), _row(1, BEA, False, 2), _row(2, AL, False), _row(2, BEA, True)]
    said = series_line(standings(_game((AL, BEA)), rows))
    assert said == "Al leads the series 2–1 in game points (1–1 in games)."


def test_partners_are_a_side_of_the_series_until_they_change() -> None:
    table = _game((AL, BEA, CY, DEE))
    same = [_row(1, s, s in (AL, CY), 2) for s in (AL, BEA, CY, DEE)]
    assert (
        series_line(standings(table, same))
        == "Al & Cy lead the series 2–0 in game points (1–0 in games)."
    )
    # Partners changed for the second game: each player's own.
    changed = same + [_row(2, s, s in (AL, BEA)) for s in (AL, BEA, CY, DEE)]
    assert series_line(standings(table, changed)) == (
        "The series, in game points — Al: 3 · Cy: 2 · Bea: 1 · Dee: 0."
    )


def test_a_level_series_says_so() -> None:
    assert series_line([Standing("Al", 1, 1), Standing("Bea", 1, 1)]) == (
        "The series is level at 1–1."
    )


def test_the_module_example_holds() -> None:
    assert doctest.testmod(series).failed == 0


def test_one_player_whose_name_holds_an_ampersand_leads_in_the_singular() -> None:
    # The verb was chosen by " & " in the side's name: a player called "Rock & Roll" read as
    # partners ("Rock & Roll lead the series"), where partners are counted by their seats.
    rock = SeatRecord(0, 1, "Rock & Roll")
    rows = [_row(1, rock, True), _row(1, BEA, False)]
    assert series_line(standings(_game((rock, BEA)), rows)) == ("Rock & Roll leads the series 1–0.")
