"""What is said once is said in one message: the coach's line on a deal rides on one hand
message, and the final board is one picture at the game's end."""

from __future__ import annotations

from bot.core.services import Services
from tests.helpers.service_driver import AL, BEA, finished_game


async def test_the_coach_line_and_the_last_board_are_each_in_one_message(
    service: Services,
) -> None:
    table, game_id = await finished_game(service)
    for user in (AL, BEA):
        mine = [s for (g, k), s in table.messages.items() if g == game_id and s.user_id == user.id]
        # Every coach's line, with the messages that ever showed it (in any of their edits).
        where: dict[str, set[str]] = {}
        for sent in mine:
            for view in sent.views:
                for line in view.content.splitlines():
                    if line.startswith("Coach, deal"):
                        where.setdefault(line, set()).add(sent.key)
        assert where, "the coach spoke"
        assert all(len(keys) == 1 for keys in where.values()), where
    boards = [
        s.view.board
        for (g, k), s in table.messages.items()
        if g == game_id and s.user_id is None and s.view.board is not None
    ]
    last = table.messages[(game_id, "result")].view.board
    assert last is not None and boards.count(last) == 1
    assert sum(1 for b in boards if b.pegs == last.pegs) == 1, "the final board, once"
