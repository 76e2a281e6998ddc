"""A whole game of each variant from `/cribbage new variant:`, through Discord as a player sees it.

Al opens each variant against the computer (it takes every other seat, so the game is quick
and the checks are all about what Al and Eve, watching, may see) and plays random legal moves
from his hand messages by DM, through the table driver. After every move the driver checks the
log, the click's answer, the table message against the engine's events and, for every version
of every message Al or Eve can see, that no card hidden from them is in it: with six players,
the crib and the five other hands. Every computer level plays one of the variants. At the end
the result is recorded in the variant and rated in its own tables. The bot keeps the games on
SQLite, and on PostgreSQL for six-hand and seven-card (``BACKENDS``).
"""

from __future__ import annotations

import pytest

from engine.variants import named
from fakediscord.testing import BotProcess
from tests.helpers.bot_db import rows
from tests.helpers.table_driver import World

#: (variant, seats, target, level): each variant once, each level at least once; the
#: standard game's lengths to 61 where the variant offers it (a game to 121 only plays more
#: deals of the same).
VARIANTS = [
    ("five_card", 2, None, "expert"),
    ("seven_card", 2, None, "easy"),
    ("five_hand", 5, 61, "medium"),
    ("six_hand", 6, 61, "hard"),
    ("six_hand_pairs", 6, 61, "expert"),
]


#: The databases each variant's game is played on: SQLite, and PostgreSQL for one game of
#: each kind that stores what the standard game's never did (migration 020 widened its CHECKs
#: and keys for them): six seats in two teams of three (seats past 3, sides of three, six
#: result rows), on both; seven-card's hands of seven to 181 (a target past 121), on
#: PostgreSQL alone: its game is the longest here (about 40 s: 181 points at two), and on
#: SQLite seven-card is played by the Activity's test (test_activity_layouts.py, its first deal
#: through the bot) and the core's (tests/bot/core/games/test_variant_tables.py).
BACKENDS = {"six_hand": ("sqlite", "postgres"), "seven_card": ("postgres",)}
CASES = [
    pytest.param(*case, backend, id="-".join(map(str, (*case, backend))))
    for case in VARIANTS
    for backend in BACKENDS.get(case[0], ("sqlite",))
]


@pytest.mark.parametrize(
    ("variant", "seats", "target", "level", "backend"), CASES, indirect=["backend"]
)
async def test_a_whole_game_of_each_variant(
    world: World,
    bot: BotProcess,
    variant: str,
    seats: int,
    target: int | None,
    level: str,
) -> None:
    kind = named(variant)
    # Now and then a slash command instead of a click (not against the expert, whose answer,
    # saved apart, may come before the command's own edit of the hand message is seen).
    rate = 0.0 if level == "expert" else 0.1
    player = world.driver(world.players[:1], seats, spectators=[world.spectator], command_rate=rate)
    await player.open_against_computer(level, target=target, variant=variant, title=kind.title)
    snap = await player.play_out(max_steps=600)
    assert snap.status == "finished" and snap.game is not None
    game = snap.game
    assert game.state.num_players == seats
    assert game.state.rules == kind.rules(seats, target)
    result = game.state.result
    assert result is not None and max(result.scores) >= game.state.rules.target
    assert len(result.scores) == len(game.state.rules.sides)
    # The last message of the channel is the result, with the board.
    last = player.table_messages()[-1]
    assert "game point" in last.words() and last.attachments
    assert player.cards_seen > 100, "the hidden-card check looked at the cards"
    found = rows(
        world.database,
        "SELECT seat, is_computer, variant FROM results WHERE game_id = ? ORDER BY seat",
        (player.game_id,),
    )
    assert [(seat, bool(computer)) for seat, computer, _ in found] == [
        (seat, seat != 0) for seat in range(seats)
    ]
    assert {v for _, _, v in found} == {variant}
    # Rated in the variant's own tables.
    al = player.players[0]
    stats = await world.fd.slash(al, world.general, "/cribbage stats")
    assert kind.title in stats.words(), stats.words()
    line = f"/cribbage leaderboard table:computer variant:{variant}"
    board = (await world.fd.slash(al, world.general, line)).words()
    assert kind.title in board and al.name in board, board
    standard = await world.fd.slash(al, world.general, "/cribbage leaderboard table:computer")
    assert al.name not in standard.words(), standard.words()


async def test_a_combination_a_variant_does_not_offer_gets_one_line(
    world: World, bot: BotProcess
) -> None:
    al = world.players[0]
    for line, said in (
        ("/cribbage new variant:five_card players:3", "Five-card cribbage is for 2 players."),
        ("/cribbage new variant:seven_card target:121", "Seven-card cribbage is played to 181."),
        ("/cribbage new players:4 teams:pairs", "`teams` is for six players"),
    ):
        reply = await world.fd.slash(al, world.general, line)
        assert reply.ephemeral and said in reply.words() and "\n" not in reply.words(), line
    assert not rows(world.database, "SELECT id FROM games", ())


async def test_a_variants_hand_is_counted_by_count_hand(world: World, bot: BotProcess) -> None:
    # A five-card player counts their three cards and a seven-card player five, as the show
    # of their game does; without the variant a hand of three is told which one it is.
    fd, al = world.fd, world.players[0]
    line = "/cribbage count-hand variant:five_card cards:5H 5D 5C starter:5S"
    five = await fd.slash(al, world.general, line)
    assert five.ephemeral and "5♥ 5♦ 5♣ + starter 5♠** — 20 points" in five.words(), five.words()
    line = "/cribbage count-hand variant:seven_card cards:4H 4D 5C 5S 6H starter:6D show:True"
    seven = await fd.slash(al, world.general, line)
    assert not seven.ephemeral and "— 46 points" in seven.words(), seven.words()
    bare = await fd.slash(al, world.general, "/cribbage count-hand cards:5H 5D 5C starter:5S")
    assert bare.ephemeral and "add `variant:five_card`" in bare.words(), bare.words()
    # Autocomplete offers as many cards as the variant's hand holds: three, then no more.
    line = "/cribbage count-hand variant:five_card cards:5H 5D 5C"
    assert [c["value"] for c in await fd.autocomplete(al, world.general, line)] == ["5H 5D 5C"]


async def test_the_five_hand_dealer_asked_to_discard_is_told_it_throws_none(
    world: World, bot: BotProcess
) -> None:
    # The dealer at five is dealt four and throws nothing: `/cribbage discard` told them
    # "You have already discarded."; it says why now, privately, and changes nothing.
    fd = world.fd
    ed = fd.add_user("Ed")
    world.guild.add_member(ed)
    people = [*world.players, ed]
    driver = world.driver(people, 3)
    await driver.open(target=61)
    snap = driver.snapshot()
    assert snap.game is not None
    dealer = snap.game.state.dealer
    card = snap.game.view(dealer).hand[0].code
    asked = await fd.slash(people[dealer], world.general, f"/cribbage discard cards:{card}")
    said = "You were dealt 4 cards and put none in the crib: the others make it."
    assert asked.ephemeral and asked.words() == said, asked.words()
    assert driver.snapshot().version == snap.version
