"""Each side's chance to win, after a deal: the expert's table read from the scores and the
next dealer, said in whole percent, on the table's text and on its board picture, between two
players only."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.core.base.keys import RESULT, TABLE_OF_DEAL, MessageKey
from bot.core.base.replies import Answer, User
from bot.core.base.views import BoardPicture, MessageView, Style
from bot.core.games.chances import chances, chances_line, percent_pair
from bot.core.messages.boards import board_alt
from bot.core.pictures.board import BoardState, Side, board_picture
from bot.core.services import Services
from engine.players.win_chance import deal_chance
from tests.helpers.pixels import read_png
from tests.helpers.service_driver import AL, BEA, CHANNEL, CY, drive, open_table, owed_now

LINE = re.compile(r"Chances to win — (\S+): (\S+%) · (\S+): (\S+%)")
SCORES = re.compile(r"Scores — Al: (\d+) · Bea: (\d+) \(to (\d+)\)")


@pytest.mark.parametrize(
    ("chance", "said"),
    [
        (0.64, ("64%", "36%")),
        (0.5, ("50%", "50%")),
        (0.566, ("57%", "43%")),
        (0.996, (">99%", "<1%")),
        (1.0, (">99%", "<1%")),
        (0.004, ("<1%", ">99%")),
        (0.0, ("<1%", ">99%")),
    ],
)
def test_a_chance_is_said_in_whole_percent_and_never_as_certain(
    chance: float, said: tuple[str, str]
) -> None:
    assert percent_pair(chance) == said


def test_the_chances_are_the_expert_tables_for_the_next_dealer() -> None:
    # Al (side 0) to deal with 80, Bea on 95 in a game to 121.
    dealer_first = percent_pair(deal_chance(121 - 80, 121 - 95))
    assert chances((80, 95), 121, dealer=0) == dealer_first
    # The same scores with Bea to deal: her chance comes first in the table, second here.
    bea, al = percent_pair(deal_chance(121 - 95, 121 - 80))
    assert chances((80, 95), 121, dealer=1) == (al, bea)
    # A game to 61 reads the same table by the points still needed.
    assert chances((20, 41), 61, dealer=1) == chances((80, 101), 121, dealer=1)


def test_the_dealer_is_the_favourite_at_even_scores_and_the_leader_near_the_end() -> None:
    assert chances((0, 0), 121, dealer=0) == ("56%", "44%")
    assert chances((119, 60), 121, dealer=1) == (">99%", "<1%")


@pytest.mark.parametrize(
    ("scores", "target", "dealer"),
    [((10, 20, 30), 121, 0), ((121, 90), 121, 0), ((40, 61), 61, 1), ((10, 20), 121, 2)],
    ids=["three-sides", "won", "won-at-61", "no-such-dealer"],
)
def test_no_chances_for_three_sides_or_a_game_already_won(
    scores: tuple[int, ...], target: int, dealer: int
) -> None:
    assert chances(scores, target, dealer) is None


def test_the_line_names_each_side() -> None:
    assert chances_line(["Al", "Bea"], ["64%", "36%"]) == "Chances to win — Al: 64% · Bea: 36%"


def test_the_board_says_the_chances_in_its_alt_text_and_draws_them() -> None:
    sides = (Side("Al", 80, 70), Side("Bea", 95, 90))
    plain = BoardState(sides, dealer=1)
    board = BoardState(sides, dealer=1, chances=("33%", "67%"))
    words = board_picture(board).alt_text
    assert words == board_picture(plain).alt_text + " Chances to win — Al: 33%, Bea: 67%."
    # The words are drawn in the header, and only there: the track is the same.
    with_chances, without = read_png(board_picture(board).png), read_png(board_picture(plain).png)
    width, height = with_chances.size
    header = (0, 0, width, 110)
    track = (0, 120, width, height)
    assert with_chances.crop(header).tobytes() != without.crop(header).tobytes()
    assert with_chances.crop(track).tobytes() == without.crop(track).tobytes()


def test_a_won_board_says_no_chances() -> None:
    sides = (Side("Al", 121, 110), Side("Bea", 95, 90))
    board = BoardState(sides, winner=0, chances=("50%", "50%"))
    assert "Chances" not in board_picture(board).alt_text
    assert board_picture(board).png == board_picture(BoardState(sides, winner=0)).png


def test_a_board_needs_one_chance_per_side() -> None:
    with pytest.raises(ValueError, match="one chance"):
        BoardState((Side("Al", 1), Side("Bea", 2)), chances=("50%",))


def test_chances_change_the_digest_and_leave_boards_without_them_as_stored() -> None:
    board = BoardPicture(("Al", "Bea"), ((10, 5), (12, 3)), 121, dealer=0)
    assert "chances" not in repr(board)  # so digests stored before chances stay the same
    said = BoardPicture(("Al", "Bea"), ((10, 5), (12, 3)), 121, dealer=0, chances=("50%", "50%"))
    other = BoardPicture(("Al", "Bea"), ((10, 5), (12, 3)), 121, dealer=0, chances=("51%", "49%"))
    digests = {MessageView("t", board=b).digest() for b in (board, said, other)}
    assert len(digests) == 3


async def test_every_finished_deal_of_two_players_says_the_chances(service: Services) -> None:
    """Each deal's table, once the next deal has begun, ends with the chances from its scores
    with the next dealer to deal, the same on its board; the deal still in play, and the one
    that ended the game, say none."""
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    seen: dict[MessageKey, tuple[str, ...]] = {}

    async def check(outcome: Answer, user: User) -> None:
        tables = [o for o in await owed_now(service, game_id) if o.key.name == TABLE_OF_DEAL]
        current = max(o.key.deal or 0 for o in tables)
        for o in tables:
            line = LINE.search(o.view.content)
            deal = o.key.deal or 0
            if deal == current or o.view.board is None:
                assert line is None, o.view.content
                assert o.view.board is None or o.view.board.chances is None
                continue
            assert line is not None, o.view.content
            scores = SCORES.search(o.view.content)
            assert scores is not None
            al, bea, target = (int(n) for n in scores.groups())
            # The board names who deals next, the dealer the chances are worked out for, in
            # the picture and in its words, as the next deal's own table does (issue 47).
            board = o.view.board
            assert board.dealer is not None and board.next_deal
            expected = chances((al, bea), target, dealer=board.dealer)
            assert expected == (line[2], line[4]) == board.chances
            dealer = ("Al", "Bea")[board.dealer]
            assert f"{dealer} deals next." in board_alt(board), board_alt(board)
            following = next(t for t in tables if t.key == MessageKey.table(deal + 1))
            assert f"— {dealer} deals " in following.view.content, following.view.content
            assert (line[1], line[3]) == ("Al", "Bea")
            seen.setdefault(o.key, expected)
            assert seen[o.key] == expected, "a deal's chances never move"

    await drive(service, table, [AL, BEA], check=check)
    assert len(seen) >= 3
    final = [o for o in await owed_now(service, game_id) if o.key == RESULT]
    assert final and "Chances" not in final[0].view.content


async def test_three_players_are_shown_no_chances(service: Services) -> None:
    table = await open_table(service, [AL, BEA, CY], target=61)
    game_id = table.outcomes[0].game_id or 0
    shown = 0

    async def check(outcome: Answer, user: User) -> None:
        nonlocal shown
        for o in await owed_now(service, game_id):
            if o.key.name == TABLE_OF_DEAL and o.view.board is not None:
                shown += 1
                assert "Chances" not in o.view.content and o.view.board.chances is None

    await drive(service, table, [AL, BEA, CY], check=check, stop_after=60)
    assert shown


def test_the_modules_examples_hold() -> None:
    import doctest

    import bot.core.games.chances

    assert doctest.testmod(bot.core.games.chances).failed == 0


async def test_status_during_the_discard_says_the_chances_as_a_panel(service: Services) -> None:
    await open_table(service, [AL, BEA])
    answer = await service.table.status(CHANNEL, public=False)
    view = answer.reply.view
    assert view is not None and view.style is Style.PANEL and view.board is not None
    assert view.board.dealer is not None
    said = chances((0, 0), 121, dealer=view.board.dealer)
    assert view.board.chances == said
    assert chances_line(["Al", "Bea"], said or ()) in view.content


async def test_status_says_no_chances_once_the_play_began_or_for_three(service: Services) -> None:
    await open_table(service, [AL, BEA, CY], channel=CHANNEL + 1)
    answer = await service.table.status(CHANNEL + 1, public=False)
    assert answer.reply.view is not None and answer.reply.view.board is not None
    assert answer.reply.view.board.chances is None and "Chances" not in answer.reply.text
    two = await open_table(service, [AL, BEA])
    await drive(service, two, [AL, BEA], stop_after=2)  # both discards: the play begins
    answer = await service.table.status(CHANNEL, public=False)
    assert "Count" in answer.reply.text and "Chances" not in answer.reply.text


def test_a_board_after_a_show_marks_and_names_who_deals_next() -> None:
    sides = (Side("Al", 10, 4), Side("Easy bot", 7, 0))
    board = BoardState(sides, dealer=1, chances=("45%", "55%"), next_deal=True)
    assert board_picture(board).alt_text.endswith(
        "Al leads by 3. Easy bot deals next. Chances to win — Al: 45%, Easy bot: 55%."
    )
    # The picture's badge says so too: it differs from the plain dealer's.
    dealing = read_png(board_picture(dataclasses.replace(board, next_deal=False)).png)
    assert read_png(board_picture(board).png).tobytes() != dealing.tobytes()
