"""What the store keeps of a game (bot/core/games/records.py), each test named after its rule:
a new game opens as the lobby its place, creator and options make, each option kept as
chosen (a rematch opens with the game before's: bot/core/play/rematch.py)."""

from __future__ import annotations

from bot.core.base.seating import PRIVATE_SEATING
from bot.core.games.records import GameStatus, NewGame, Options, Round, SeatRecord
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import FIVE_CARD

AL = SeatRecord(0, 1, "Al")
#: Every option away from its default, so that one left out shows.
CHOSEN = Options(
    3,
    61,
    vs_computer=True,
    scoring=Scoring.SKUNK,
    counting=Counting.MANUAL,
    variant=FIVE_CARD.name,
    hints=True,
)


def test_a_new_game_opens_as_a_lobby_of_its_creator_with_every_option_chosen() -> None:
    game = NewGame(7, 70, AL, CHOSEN, PRIVATE_SEATING, Round("Round 1"), rematch_of=4)
    lobby = game.lobby(100.0)
    assert lobby.options == CHOSEN
    assert (lobby.guild_id, lobby.channel_id, lobby.creator_id, lobby.seats) == (7, 70, 1, (AL,))
    assert (lobby.seating, lobby.occasion, lobby.rematch_of) == (
        PRIVATE_SEATING,
        Round("Round 1"),
        4,
    )
    assert (lobby.status, lobby.version, lobby.snapshot) == (GameStatus.LOBBY, 0, None)
    assert (lobby.created_at, lobby.updated_at) == (100.0, 100.0)
