"""A tournament player has their data deleted (``/cribbage privacy``): the tournament's live
message, drawn from what is kept, is drawn again at once with a former player in their place,
in the pairings and the standings, though the tournament is over."""

from __future__ import annotations

from fakediscord import Channel, User
from fakediscord.testing import BotProcess
from tests.e2e.test_tournament_cancel import _game_in
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.table_driver import World, confirmed, resign, until
from tests.helpers.tournament_steps import open_and_fill, pair_of, round_threads

pytestmark = BOTH_DATABASES


async def _delete_data(world: World, user: User) -> None:
    """``user`` asks for their data to be deleted, and confirms."""
    fd = world.fd
    asked = await fd.slash(user, world.general, "/cribbage privacy")
    assert asked.original is not None
    await fd.click(user, asked.original, label="Delete my data")
    done = await fd.click(user, asked.original, label="Yes, delete my data")
    assert "Your data is deleted" in done.words(), done.words()


async def test_a_cancelled_tournaments_message_shows_a_former_player(
    world: World, bot: BotProcess
) -> None:
    """Al won his match and the tournament was cancelled; then he has his data deleted: its
    message, kept with the standings so far, names a former player where it named him (it
    went on naming him: nothing drew the message again). Mo, who organised and cancelled
    it, has his deleted too: the message says a former player did (not a mention of the
    former player's id, which Discord shows as typed)."""
    fd, mo = world.fd, world.moderator
    al = world.players[0]
    by_name = {u.name: u for u in world.players}
    board = await open_and_fill(
        world, "/cribbage tournament new format:swiss rounds:2 target:61", world.players
    )

    def dealt() -> list[Channel] | None:
        found = round_threads(world, 1)
        ready = all(_game_in(world, t.id) for t in found)
        return found if len(found) == 2 and ready else None

    threads = await until(fd, dealt)
    his = next(t for t in threads if al.name in pair_of(t))
    [other] = pair_of(his) - {al.name}
    await resign(fd, by_name[other], his)
    await until(fd, lambda: f"{al.name} wins" in board.words())
    await confirmed(fd, mo, world.general, "/cribbage tournament cancel")
    await until(fd, lambda: "**Cancelled**" in board.words())
    assert f". {al.name} — 3 pts" in board.words(), board.words()

    await _delete_data(world, al)
    await until(fd, lambda: "Former player wins" in board.words())
    assert al.name not in board.words(), board.words()
    assert ". Former player — 3 pts" in board.words(), board.words()

    await _delete_data(world, mo)
    await until(fd, lambda: "Organised by a former player." in board.words())
    assert "**Cancelled** by a former player." in board.words(), board.words()
    assert "<@-" not in board.content, board.content
