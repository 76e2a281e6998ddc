"""Games against the computer through the service: it answers at once, legally, each move
logged; its plays are called on the deal's one table message with the person's; lobbies with
computers; restarts; results kept apart from games between people."""

from __future__ import annotations

import json
import re

import pytest

from bot.core.base.choices import LEVEL_BLURBS
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.base.text import Names
from bot.core.base.views import LobbyControls
from bot.core.games.computer import LEVELS
from bot.core.pictures.board import WIDTH as BOARD_WIDTH
from bot.core.pictures.canvas import drawable, fit
from bot.core.services import Services
from bot.core.standings.words import NAME_WIDTH
from bot.store import Store
from engine.game import Game
from engine.phase import Phase
from engine.rules import Rules
from tests.helpers.cast import AL, BEA, CHANNEL, CY, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    drive,
    first_choice,
    game_owner,
    load,
    make_service,
)
from tests.helpers.views import controls


async def vs_computer(
    service: Services, *, players: int = 2, target: int = 61, level: str = "hard"
) -> Transcript:
    table = Transcript(service)
    outcome = await service.lobbies.new_game(
        GUILD,
        CHANNEL,
        AL,
        TableAsked(players=players, target=target, vs_computer=True, level=level),
    )
    assert outcome.ok, outcome.reply.text
    await table.record(AL.id, outcome)
    return table


def people_waiting(game: Game, human_seats: set[int]) -> bool:
    """After a call, only people may be owed a move (the computer never waits)."""
    if game.state.phase is Phase.OVER:
        return True
    if game.state.phase is Phase.DISCARD:
        return bool(game.pending_discards()) and set(game.pending_discards()) <= human_seats
    return game.state.turn in human_seats


def one_table_per_deal(table: Transcript, game: Game) -> None:
    """Every call of a deal, the computer's too, is on that deal's table message: the channel
    has the lobby and one message per deal, two where a deal's play and show do not fit in
    one (and the result at the end)."""
    if game.state.result is None:
        assert game.state.deal_number + 1 <= len(table.channel()) <= 2 * game.state.deal_number + 1


async def test_vs_computer_deals_at_once_and_the_computer_has_discarded(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, computer=True)
    table = await vs_computer(service, target=121)
    started = table.outcomes[0]
    lobby = started.reply.view
    assert (
        lobby is not None
        and lobby.controls_of(LobbyControls) is not None
        and controls(lobby, LobbyControls).buttons == ()
    )
    assert "Hard bot" in lobby.content and "has started" in lobby.content
    record = await store.open_game_in_channel(CHANNEL)
    assert record is not None and record.status == "active" and record.options.vs_computer
    assert [(s.user_id, s.name, s.is_computer) for s in record.seats] == [
        (AL.id, "Al", False),
        (None, "Hard bot", True),
    ]
    game = await load(store, record.id)
    assert game.pending_discards() == (0,)
    # The computer's discard is an action of the log like anyone's.
    assert [json.loads(a) for a in await store.actions(record.id)] == game.actions
    assert game.actions == [{"type": "discard", "seat": 1, "cards": game.actions[0]["cards"]}]
    assert table.table(record.id, 1).endswith("Waiting for Al to put cards in the crib.")
    assert list(table.latest) == [AL.id] and table.latest[AL.id].kind == "discard"


@pytest.mark.parametrize(
    ("level", "seed"), [("expert", 4), ("hard", 1), ("medium", 2), ("easy", 3)]
)
async def test_whole_game_against_each_level(
    store: Store, clock: Clock, level: str, seed: int
) -> None:
    service = make_service(store, clock, seed, computer=True)
    table = await vs_computer(service, level=level)
    game_id = table.outcomes[0].game_id
    assert game_id is not None

    async def check(outcome: Answer, user: User) -> None:
        game = await load(store, game_id)
        one_table_per_deal(table, game)
        assert people_waiting(game, {0})

    await drive(service, table, [AL], check=check)
    game = await load(store, game_id)
    assert game.state.phase is Phase.OVER
    # Every move, the computer's included, is in the log once; the engine refused none.
    assert [json.loads(a) for a in await store.actions(game_id)] == game.actions
    computer_moves = [a for a in game.actions if a["seat"] == 1]
    assert computer_moves and all(a["type"] in ("discard", "play") for a in computer_moves)
    assert table.channel(game_id)[-1].startswith("🏆")
    rows = await store.results(game_id)
    assert [(r.user_id, r.is_computer) for r in rows] == [(AL.id, False), (None, True)]


async def test_computer_plays_after_a_go_are_called_with_the_move(
    store: Store, clock: Clock
) -> None:
    """Somewhere in a game the computer plays two or more cards in a row (after the person's
    go, or the person leads and it answers): the table shows them at once, after the
    person's move, in the deal's one message."""
    service = make_service(store, clock, seed=7, computer=True)
    table = await vs_computer(service)
    game_id = table.outcomes[0].game_id or 0
    seen_run = False

    async def check(outcome: Answer, user: User) -> None:
        nonlocal seen_run
        game = await load(store, game_id)
        one_table_per_deal(table, game)
        if game.state.result is None and game.state.phase is Phase.PLAY:
            lines = table.table(game_id, game.state.deal_number).splitlines()
            plays = [line for line in lines if " plays " in line or "says go" in line]
            who = [line.split(" plays ")[0].split(" says go")[0] for line in plays]
            tail = "".join("C" if name.endswith("Hard bot") else "A" for name in who)
            if tail.endswith("ACC") or tail.endswith("ACCC"):
                seen_run = True

    await drive(service, table, [AL], check=check)
    assert seen_run


async def test_restart_mid_game_continues_with_the_computer(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, seed=4, computer=True)
    table = await vs_computer(service)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    await drive(service, table, [AL], stop_after=7)
    before = await load(store, game_id)
    # A new process: nothing in memory, everything from the database.
    again = make_service(store, clock, seed=99, computer=True)
    table.service = again
    await drive(again, table, [AL])
    game = await load(store, game_id)
    assert game.state.phase is Phase.OVER
    logged = [json.loads(a) for a in await store.actions(game_id)]
    assert logged == game.actions and logged[: len(before.actions)] == before.actions


async def _until_the_computer_owes(service: Services, table: Transcript, game_id: int) -> Answer:
    """Al's moves (first live control each time) until one leaves the computer's answer owed;
    that outcome, not yet followed by ``computer_turn``."""
    for _ in range(100):
        controls = table.latest[AL.id]
        outcome = await service.moves.click(first_choice(controls), AL, guild_id=None)
        assert outcome.ok, outcome.reply.text
        if outcome.sequel is not None and outcome.sequel.computer_owes:
            return outcome
        await table.record(AL.id, outcome)
    raise AssertionError("the computer never owed an answer")


async def test_expert_answers_after_the_person_is_answered(store: Store, clock: Clock) -> None:
    # Expert thinks for milliseconds: the person's move is saved and answered first, and the
    # computer's play follows in a transaction of its own.
    service = make_service(store, clock, seed=4, computer=True)
    table = await vs_computer(service, level="expert")
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    outcome = await _until_the_computer_owes(service, table, game_id)
    game = await load(store, game_id)
    assert game.state.phase is Phase.PLAY and game.state.turn == 1
    assert outcome.update is not None and outcome.update.hand is None
    moves = len(game.actions)
    await service.moves.computer_turn(game_id)
    game = await load(store, game_id)
    assert len(game.actions) > moves and all(a["seat"] == 1 for a in game.actions[moves:])
    assert people_waiting(game, {0})
    again = len(game.actions)
    await service.moves.computer_turn(game_id)  # nothing owed now: nothing happens
    assert len((await load(store, game_id)).actions) == again


async def test_an_owed_expert_answer_survives_a_restart(store: Store, clock: Clock) -> None:
    # The process died between saving the person's move and the computer's answer: the next
    # process's game clock makes it on its first look, once the click's answer can no longer
    # be on its way (never before: it would edit the person's hand ahead of that answer).
    service = make_service(store, clock, seed=4, computer=True)
    table = await vs_computer(service, level="expert")
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    await _until_the_computer_owes(service, table, game_id)
    moves = len((await load(store, game_id)).actions)
    again = make_service(store, clock, seed=99, computer=True)
    due = await again.moves.catch_up(game_id)
    assert due == clock().timestamp() + 3
    assert len((await load(store, game_id)).actions) == moves
    # Drawing the game's messages makes no move: only the clock's catch-up does.
    assert await again.ledger.owed(game_owner(game_id)) is not None
    clock.advance(seconds=2.5)
    assert await again.moves.catch_up(game_id) == due
    assert len((await load(store, game_id)).actions) == moves
    clock.advance(seconds=0.5)
    assert await again.moves.catch_up(game_id) is None
    game = await load(store, game_id)
    assert len(game.actions) > moves and people_waiting(game, {0})
    table.service = again
    await table.settle(game_id)
    await drive(again, table, [AL])
    assert (await load(store, game_id)).state.phase is Phase.OVER


async def test_three_players_with_a_computer_from_the_lobby(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, seed=5, computer=True)
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=3, target=61))
    game_id = opened.game_id
    assert game_id is not None
    assert (await service.lobbies.join(CHANNEL, BEA)).ok
    added = await service.lobbies.click(game_id, "computer:medium", AL, guild_id=GUILD)
    assert added.ok and added.reply.text.startswith("Medium bot takes seat 3.")
    assert added.update is not None and added.update.controls_of(LobbyControls) is not None
    assert (
        controls(added.update, LobbyControls).levels == ()
        and "remove_computer" in controls(added.update, LobbyControls).buttons
    )
    table = Transcript(service)
    started = await table.record(BEA.id, await service.lobbies.start(CHANNEL, BEA))
    assert started.ok
    # The computer threw its card with the deal; both people got their hands.
    assert sorted(table.latest) == [AL.id, BEA.id]

    async def check(outcome: Answer, user: User) -> None:
        game = await load(store, game_id)
        one_table_per_deal(table, game)
        assert people_waiting(game, {0, 1})

    await drive(service, table, [AL, BEA], check=check)
    assert (await load(store, game_id)).state.phase is Phase.OVER


async def test_four_players_against_three_computers(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, seed=6, computer=True)
    table = await vs_computer(service, players=4, level="easy")
    record = await store.get_game(table.outcomes[0].game_id or 0)
    assert record is not None
    assert [s.name for s in record.seats] == ["Al", "Easy bot", "Easy bot 2", "Easy bot 3"]
    # Three computers discarding at the deal: the table only waits for Al.
    assert table.table(record.id, 1).endswith("Waiting for Al to put cards in the crib.")

    async def check(outcome: Answer, user: User) -> None:
        game = await load(store, record.id)
        one_table_per_deal(table, game)
        assert people_waiting(game, {0})

    await drive(service, table, [AL], check=check)
    game = await load(store, record.id)
    assert game.state.phase is Phase.OVER
    # Issue 25: the names read whole wherever they appear: no brackets inside the calls'
    # brackets ("(Computer (expert) 121)"), the partners' names whole in the board picture's
    # header ("Computer (easy) & Comp…") and the leaderboard's column.
    channel = "\n".join(table.channel(record.id))
    assert re.search(r"\((Al & Easy bot 2|Easy bot & Easy bot 3): \d+\)", channel)
    assert not re.search(r"\([^()]*\(", channel), "brackets inside brackets"
    names = Names([s.name for s in record.seats], Rules.standard(2))
    for side in (0, 1):
        name = names.typed_side(side)
        assert fit(drawable(name, "?"), 28, (BOARD_WIDTH - 40) // 2 - 46) == name
    assert all(len(s.name) <= NAME_WIDTH for s in record.seats)


async def test_only_the_creator_seats_or_removes_computers(store: Store, service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=3))
    game_id = opened.game_id
    assert game_id is not None
    assert (await service.lobbies.join(CHANNEL, BEA)).ok
    refused = await service.lobbies.click(game_id, "computer:hard", BEA, guild_id=GUILD)
    assert not refused.ok and "Only the player who opened this game" in refused.reply.text
    assert not (await service.lobbies.click(game_id, "computer:impossible", AL, guild_id=GUILD)).ok
    assert not (await service.lobbies.click(game_id, "remove_computer", AL, guild_id=GUILD)).ok
    assert (await service.lobbies.click(game_id, "computer:easy", AL, guild_id=GUILD)).ok
    assert not (
        await service.lobbies.click(game_id, "computer:hard", AL, guild_id=GUILD)
    ).ok  # full
    assert not (await service.lobbies.click(game_id, "remove_computer", BEA, guild_id=GUILD)).ok
    removed = await service.lobbies.click(game_id, "remove_computer", AL, guild_id=GUILD)
    assert removed.ok and removed.update is not None
    assert "bot" not in removed.update.content.split("\n")[1]
    # The creator is always a person: leaving closes the lobby rather than leave computers.
    assert (await service.lobbies.click(game_id, "computer:easy", AL, guild_id=GUILD)).ok
    left = await service.lobbies.leave(CHANNEL, AL)
    record = await store.get_game(game_id)
    assert left.ok and record is not None and record.end_note == "Al left and closed the lobby."
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_results_against_the_computer_are_kept_apart(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, computer=True)
    await vs_computer(service)
    assert (await service.moves.resign(CHANNEL, AL)).ok
    assert (await service.lobbies.new_game(GUILD, CHANNEL, BEA)).ok
    assert (await service.lobbies.join(CHANNEL, CY)).ok
    assert (await service.lobbies.start(CHANNEL, BEA)).ok
    assert (await service.moves.resign(CHANNEL, CY)).ok

    people = (await service.standings.leaderboard(GUILD)).reply.text
    assert "Bea" in people and "Cy" in people and "Al" not in people
    assert "bot" not in people.split("```")[1]
    # Against the computer, each level is a rated player of its own, beside the people.
    computer = (await service.standings.leaderboard(GUILD, table="computer")).reply.text
    assert "Al" in computer and "Hard bot" in computer and "Bea" not in computer
    stats = (await service.standings.stats(GUILD, AL)).reply.text
    assert "Against the computer: 1 game, 0 wins" in stats and "Against people" not in stats
    assert "Rated below Hard bot." in stats
    assert "Against people: 1 game, 1 win" in (await service.standings.stats(GUILD, BEA)).reply.text


def test_every_level_has_a_blurb_for_the_menus() -> None:
    assert set(LEVEL_BLURBS) == set(LEVELS)
    assert all(0 < len(blurb) <= 100 for blurb in LEVEL_BLURBS.values())
