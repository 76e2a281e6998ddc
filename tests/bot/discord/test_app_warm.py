"""The bot's start-up warm (``warm_up``): after ``warm_engine``, the first game of every
variant works out none of the engine's show tables between its interaction and the answer;
after ``warm_boards``, the first board draws no empty board; and it is made once a process.

Seven-card's first ``/cribbage new`` against the computer built the rank table of its
six-card show (18,395 rank multisets, a second of CPU) in a thread: a thread that computes
still holds the interpreter, and on a busy machine the event loop could not defer the
interaction within Discord's 3 seconds (the flaky end-to-end seven-card game)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path

import pytest

import bot.core.messages.boards as boards_module
import bot.core.pictures.board as board_module
from bot.core.base.replies import TableAsked
from bot.core.base.views import BoardPicture
from bot.core.messages.boards import draw_board, warm_boards
from bot.discord import app
from bot.discord.app import warm_engine, warm_up
from bot.store import Store
from engine import scoring
from engine.counting import Counting
from engine.variants import listed
from fakediscord.testing import BOT_IMPORTS
from tests.helpers.cast import AL, CHANNEL, GUILD
from tests.helpers.service_driver import Clock, make_service


@pytest.fixture
def cold_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, ...]]]:
    """The scorer as in a process just started (nothing read or worked out), and every rank
    multiset it itemises from now on (the unit of work of every table it works out)."""
    monkeypatch.setattr(scoring, "_shipped", cache(scoring._shipped.__wrapped__))
    monkeypatch.setattr(scoring, "_scorer", cache(scoring._scorer.__wrapped__))
    monkeypatch.setattr(scoring, "_totals", cache(scoring._totals.__wrapped__))
    monkeypatch.setattr(scoring, "_shows", {})
    monkeypatch.setattr(scoring, "_last", [])
    scoring.claim_values.cache_clear()
    itemised: list[tuple[int, ...]] = []
    build = scoring._RankScorer.build

    def counted(scorer: scoring._RankScorer, ranks: tuple[int, ...]) -> scoring._Template:
        itemised.append(ranks)
        return build(scorer, ranks)

    monkeypatch.setattr(scoring._RankScorer, "build", counted)
    yield itemised
    scoring.claim_values.cache_clear()  # (what it kept came from the patched scorer)


async def test_the_first_game_of_each_variant_works_out_no_show_table(
    cold_engine: list[tuple[int, ...]], migrated_sqlite_path: Path
) -> None:
    warm_engine()
    cold_engine.clear()  # (the warm-up may itemise what it likes: it runs before the gateway)
    store = await Store.open(migrated_sqlite_path)
    try:
        service = make_service(store, Clock(), computer=True)
        for n, variant in enumerate(listed()):
            answer = await service.lobbies.new_game(
                GUILD, CHANNEL + n, AL, TableAsked(variant=variant.name, vs_computer=True)
            )
            assert answer.ok, answer.reply.text
            # What the count menus of its first manual show offer.
            scoring.claim_values(variant.rules(counting=Counting.MANUAL))
    finally:
        await store.close()
    assert len(cold_engine) == 0, f"{len(cold_engine)} rank multisets worked out"


def test_the_warm_up_draws_the_first_boards_once_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # A bot's first board finds its fonts loaded and its empty board drawn; a bot forked from a
    # process warmed already (the tests' zygote, fakediscord.testing) does none of it again.
    empty, drawn = board_module._empty_board, board_module.board_picture
    monkeypatch.setattr(board_module, "_empty_board", lru_cache(maxsize=16)(empty.__wrapped__))
    monkeypatch.setattr(boards_module, "board_picture", lru_cache(maxsize=64)(drawn.__wrapped__))
    warm_boards()
    warmed = board_module._empty_board.cache_info()
    assert warmed.currsize == 2  # two sides and three, to 121
    draw_board(BoardPicture(("Al", "Bea"), ((5, 2), (9, 0)), 121, dealer=0))
    after = board_module._empty_board.cache_info()
    assert (after.hits, after.misses) == (warmed.hits + 1, warmed.misses)
    warm_up()
    calls: list[str] = []
    monkeypatch.setattr(app, "warm_engine", lambda: calls.append("engine"))
    monkeypatch.setattr(app, "warm_boards", lambda: calls.append("boards"))
    warm_up()
    assert calls == []
    assert "bot.discord.app:warm_up" in BOT_IMPORTS
