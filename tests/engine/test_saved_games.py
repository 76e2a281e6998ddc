"""Games saved by earlier versions load, and save back byte for byte.

The files in ``saved_games/`` stand for the snapshots kept in players' databases: the first
four were written by the engine before the rule facts and the closed sets (result kinds, end
reasons, score item kinds) moved to one home and became ``StrEnum`` s; the others (three
players, 61 and the skunk scale, counting by hand with a muggins window open) before the rules
became a value handed to the game; the games by rules other than the standard game's
(five-card, seven-card, five-hand, six in teams of three with a crib of six) before a share
could depend on the seat's place from the dealer. While the format version is unchanged, a
loaded game must write exactly the text it was read from.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.game import FORMAT_VERSION, Game, Phase
from engine.outcome import EndReason, ResultKind

SAVED = Path(__file__).parent / "saved_games"
FILES = sorted(SAVED.glob("*.json"))


def test_there_are_saved_games_to_check() -> None:
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_a_saved_game_loads_and_saves_back_unchanged(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    game = Game.from_json(text, rng=random.Random(0))
    if json.loads(text)["version"] == FORMAT_VERSION:
        assert game.to_json() == text
    if game.state.result is not None:
        assert isinstance(game.state.result.kind, ResultKind)
        assert isinstance(game.state.result.reason, EndReason)


def test_a_saved_game_in_the_play_goes_on() -> None:
    game = Game.from_json(
        (SAVED / "partners_mid_deal.json").read_text(encoding="utf-8"), rng=random.Random(0)
    )
    assert game.state.phase is Phase.PLAY and game.state.turn is not None
    card = game.playable_cards(game.state.turn)[0]
    assert game.play(game.state.turn, card)[0].kind == "played"
