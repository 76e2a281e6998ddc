"""Games as the bot stored them load, save back byte for byte, replay from their log, and go on.

``stored/stored_games.json`` holds games (each with its options, its snapshot as the games
table kept it and its action log) that the bot stored, on SQLite, before the rules became a
value handed to the game: two, three and four players, to 121 and to 61, by the lurch and the
skunk scale, counted automatically and by hand (one waiting at the show with a muggins window
open), in the play, at the discard and over, with and without sealed shuffles. Each is put in
a database of either kind as the store would have it, read back the way the core reads a game,
and must be the same game.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from bot.core.base.faults import Faults
from bot.core.deck.shuffles import RecordingRandom
from bot.core.games import archive, snapshot
from bot.core.games.deal_log import DealLog
from bot.core.games.games import LoadedGames
from bot.core.games.records import NewGame, Options, SeatRecord
from bot.core.games.tally import Tally
from bot.store import Store
from engine.counting import Counting
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.players import make_player
from engine.rules import PlayEnd, Rules, Share
from tests.helpers.cast import GUILD, PLAYERS
from tests.helpers.service_driver import seeded

STORED: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "stored" / "stored_games.json").read_text(encoding="utf-8")
)


def test_the_stored_games_cover_every_table_option() -> None:
    assert {game["players"] for game in STORED} == {2, 3, 4}
    assert {game["target"] for game in STORED} == {121, 61}
    assert {game["scoring"] for game in STORED} == {"lurch", "skunk"}
    assert {game["counting"] for game in STORED} == {"auto", "manual"}
    assert {game["phase"] for game in STORED} == {"discard", "play", "show", "over"}
    assert any(game["window"] for game in STORED)


def play_on(game: Game) -> None:
    """Play ``game`` to its end: the computer discards and plays, every hand is counted."""
    player, rng = make_player("medium"), random.Random(5)
    while game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            game.discard(seat, player.choose_discard(game.view(seat), rng))
        elif game.state.phase is Phase.PLAY:
            turn = game.state.turn
            assert turn is not None
            game.play(turn, player.choose_play(game.view(turn), rng))
        elif game.count_turn is not None:
            game.auto_count(game.count_turn.seat)
        else:
            window = game.state.muggins_window
            assert window is not None
            game.close_muggins(window.seat)


@pytest.mark.parametrize("stored", STORED, ids=[game["name"] for game in STORED])
async def test_a_stored_game_loads_saves_back_replays_and_goes_on(
    store: Store, stored: dict[str, Any]
) -> None:
    seats = tuple(
        SeatRecord(seat, user.id, user.name)
        for seat, user in enumerate(PLAYERS[: stored["players"]])
    )

    async def deal(_record: object) -> tuple[str, list[str]]:
        return stored["snapshot"], stored["actions"]

    options = Options(
        stored["players"],
        stored["target"],
        scoring=Scoring(stored["scoring"]),
        counting=Counting(stored["counting"]),
    )
    made = await store.create_game(
        NewGame(GUILD, 7000, seats[0], options),
        now=1.0,
        fill=lambda _record: seats,
        deal=deal,
    )
    record = await store.get_game(made.id)
    assert record is not None and record.snapshot == stored["snapshot"]

    loaded = LoadedGames(seeded(3), Faults()).load(record)
    game = loaded.game
    assert game.state.phase.value == stored["phase"]
    again = snapshot.encode(game, loaded.tally, loaded.log, loaded.shuffles, loaded.seeds)
    assert again == stored["snapshot"]
    assert [json.loads(action) for action in await store.actions(made.id)] == game.actions

    if loaded.shuffles is not None:
        # Replayed from its shuffles and its action log, it is the same game to the last card.
        blob = archive.compact(stored["snapshot"])
        assert "snapshot" not in json.loads(zlib.decompress(blob)), "it no longer replays"
        assert archive.restore(blob).game.to_dict() == game.to_dict()

    play_on(game)
    assert (
        game.state.result is not None and max(game.state.result.scores) >= game.state.rules.target
    )


def test_a_game_by_other_rules_keeps_them_in_its_snapshot_and_archive() -> None:
    five_card = Rules(
        dealer=Share(5, 2),
        others=Share(5, 2),
        target=61,
        points_for_last=3,
        play_end=PlayEnd.FIRST_GO,
    )
    shuffles: list[str] = []
    game, events = Game.new(
        ["Al", "Bea"], rng=RecordingRandom(random.Random(8), shuffles), rules=five_card
    )
    tally, log = Tally.empty(2), DealLog.start(2)
    tally.add(events)
    log.add(events)
    for _ in range(30):
        seat = game.pending_discards()[0] if game.state.phase is Phase.DISCARD else game.state.turn
        assert seat is not None
        if game.state.phase is Phase.DISCARD:
            events = game.discard(seat, game.hand(seat)[:2])
        else:
            events = game.play(seat, game.playable_cards(seat)[0])
        tally.add(events)
        log.add(events)
    text = snapshot.encode(game, tally, log, shuffles)
    again = snapshot.decode(text, random.Random(0))
    assert (
        again.game.state.rules == five_card
        and snapshot.encode(again.game, again.tally, again.log, again.shuffles) == text
    )
    blob = archive.compact(text)
    kept = json.loads(zlib.decompress(blob))
    assert "snapshot" not in kept and Rules.from_dict(kept["rules"]) == five_card
    assert archive.restore(blob).game.to_dict() == game.to_dict()
