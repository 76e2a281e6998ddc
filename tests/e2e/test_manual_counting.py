"""Manual counting with muggins through Discord, as the players see it.

Al opens `/cribbage new counting:manual`, Bea joins, and they discard and play from their hand
messages by DM. At the show the one who counts gets two menus of values on their hand message
(26 values, split in two); a value no hand scores is refused privately with one sentence that
names no card and no value, and changes nothing; a claim over the hand's value is made, once,
pegged back to the value, the opponent pegging the points over; a short claim is pegged and the
opponent's hand message gets a **Muggins!** button, which takes the points missed; the channel's
table shows the hand, the claim, the muggins (or the points over) and the breakdown. A claim
left to the clock closes on its own (MUGGINS_SECONDS). The stats then hold the points missed
and taken.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from bot.core.base.text import plural
from engine.cards import Card
from engine.counting import CountTurn
from engine.game import Game
from engine.phase import Phase
from engine.rules import Rules
from engine.scoring import claim_values, score_hand
from engine.speech import say_score
from fakediscord import FakeDiscord
from fakediscord.interactions import Interaction
from fakediscord.model import Message, User
from fakediscord.runner import BotLauncher
from fakediscord.testing import BotProcess
from tests.helpers.bot_db import latest_game_id, read_game, rows
from tests.helpers.table_driver import World, resign, until

#: What a claim may name in the standard game.
CLAIM_VALUES = claim_values(Rules())

REFUSAL = "Claim from 0 to 29 points (no hand scores 19, 25, 26 or 27)."
CARD_TEXT = re.compile(r"(10|[2-9AJQK])[♣♦♥♠]")


def controls(fd: FakeDiscord, user: User, prefix: str) -> Message | None:
    """The newest DM to ``user`` with a component whose custom id starts with ``prefix``."""
    for message in reversed(fd.dms(user)):
        # Anywhere in the message: a hand's controls are nested in its layout.
        for item in message.walk():
            if str(item.get("custom_id", "")).startswith(prefix):
                return message
    return None


def game_now(world: World, game_id: int) -> Game:
    game = read_game(world.database, game_id).game
    assert game is not None
    return game


def worth(game: Game) -> int:
    turn = game.count_turn
    assert turn is not None and game.state.starter is not None
    return score_hand(turn.cards, game.state.starter, crib=turn.crib).total


def crib_cards(game: Game) -> set[str]:
    """The crib, as the channel writes cards: hidden until its turn to be counted."""
    return {str(Card.parse(code)) for code in game.to_dict()["crib"]}


async def wait_for_move(world: World, game_id: int, done: int) -> None:
    """Wait until the game has more than ``done`` actions logged."""

    def moved() -> bool:
        return len(game_now(world, game_id).actions) > done

    await until(world.fd, moved)


async def hand_with(world: World, user: User, prefix: str) -> Message:
    """Wait for ``user``'s hand message with a control whose custom id starts with ``prefix``."""

    def found() -> Message | None:
        return controls(world.fd, user, prefix)

    return await until(world.fd, found)


async def start(world: World) -> tuple[int, list[User]]:
    fd = world.fd
    al, bea = world.players[:2]
    opened = await fd.slash(al, world.general, "/cribbage new counting:manual")
    assert "you count your hands (muggins)" in opened.words()
    game_id = latest_game_id(world.database, world.general.id)
    lobby = opened.original
    assert lobby is not None
    await fd.click(bea, lobby, f"crib:{game_id}:lobby:join")
    await fd.click(al, lobby, f"crib:{game_id}:lobby:start")
    return game_id, [al, bea]


async def play_to_the_show(world: World, game_id: int, users: list[User]) -> Game:
    """Discard and play from the DMs until the table waits on a count."""
    fd = world.fd
    for _ in range(40):
        game = game_now(world, game_id)
        if game.state.phase in (Phase.SHOW, Phase.OVER):
            return game
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            user = users[seat]
            prefix = f"crib:{game_id}:discard:{game.state.deal_number}"
            message = await hand_with(world, user, prefix)
            menu = message.component(prefix)
            assert menu is not None
            values = [o["value"] for o in menu["options"][: game.state.rules.others.to_crib]]
            await fd.select(user, message, prefix, values)
        else:
            assert game.state.turn is not None
            user = users[game.state.turn]
            version = read_game(world.database, game_id).version
            prefix = f"crib:{game_id}:play:{version}:"
            message = await hand_with(world, user, prefix)
            button = next(
                b
                for b in message.buttons()
                if b["custom_id"].startswith(prefix) and not b.get("disabled")
            )
            await fd.click(user, message, button["custom_id"])
        await wait_for_move(world, game_id, len(game.actions))
    raise AssertionError("the show never came")


async def claim_from_menu(world: World, user: User, game_id: int, points: int) -> Any:
    """Choose ``points`` in the count menus of ``user``'s hand message."""
    fd = world.fd
    version = read_game(world.database, game_id).version
    prefix = f"crib:{game_id}:count:{version}:"
    message = await hand_with(world, user, prefix)
    menus = [m for m in message.selects() if m["custom_id"].startswith(prefix)]
    assert len(menus) == 2
    offered = [int(o["value"]) for m in menus for o in m["options"]]
    assert offered == list(CLAIM_VALUES)
    menu = next(m for m in menus if str(points) in [o["value"] for o in m["options"]])
    return await fd.select(user, message, menu["custom_id"], [str(points)])


async def a_hand_worth_something(world: World, game_id: int, users: list[User]) -> Game:
    """Play on until the hand to count is a player's hand (not the crib, so another claim
    follows it in the show) worth points: every hand before it claimed rightly (0 for one
    worth nothing), and the show's last claim let stand by its opponent (No muggins)."""
    for _ in range(12):
        game = await play_to_the_show(world, game_id, users)
        turn, window = game.count_turn, game.state.muggins_window
        if turn is None or (window is not None and window.holds(turn.seat, (0, 1))):
            # The crib waits for the dealer's hand to be settled, as the show's end does.
            assert window is not None, "a show waiting on nothing"
            version = read_game(world.database, game_id).version
            button_id = f"crib:{game_id}:pass:{version}"
            opponent = users[1 - window.seat]
            await world.fd.click(opponent, await hand_with(world, opponent, button_id), button_id)
        elif worth(game) > 0 and not turn.crib:
            return game
        else:
            await claim_from_menu(world, users[turn.seat], game_id, worth(game))
        await wait_for_move(world, game_id, len(game.actions))
    raise AssertionError("no hand worth a point in twelve counts")


async def at_a_hand_worth_something(
    world: World, bots: BotLauncher, *, muggins_seconds: int
) -> tuple[int, list[User], Game, CountTurn]:
    """A bot whose muggins window lasts ``muggins_seconds``, and a manual game of Al and Bea
    at the count of a hand worth a point or more: its id, its players, the game and the hand
    to count."""
    env = {"MUGGINS_SECONDS": str(muggins_seconds)}
    await bots.process(database=world.database, dev_guild=world.guild.id, env=env)
    game_id, users = await start(world)
    game = await a_hand_worth_something(world, game_id, users)
    turn = game.count_turn
    assert turn is not None
    return game_id, users, game, turn


async def test_manual_counting_a_refused_claim_a_short_claim_muggins_and_an_over_claim(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    game_id, users, game, turn = await at_a_hand_worth_something(world, bots, muggins_seconds=60)
    owner, opponent = users[turn.seat], users[1 - turn.seat]
    value = worth(game)
    hidden = crib_cards(game)  # (a player's hand is counted: the crib is still face down)
    before = read_game(world.database, game_id)

    # A value no hand scores, typed: refused in one sentence that names no card and no value,
    # and nothing changes (a claim over the hand's value is not refused: see below).
    typed = await fd.slash(owner, world.general, "/cribbage count points:19")
    assert typed.ephemeral and typed.words() == REFUSAL
    assert not CARD_TEXT.search(REFUSAL)
    after = read_game(world.database, game_id)
    assert (after.version, after.actions) == (before.version, before.actions)
    this_deal = [
        m for m in fd.messages(world.general) if f"**Deal {game.state.deal_number}**" in m.words()
    ]
    for message in [*this_deal, *fd.dms(owner), typed.original]:
        if message is not None:
            # (The cut for deal is from a shuffle of its own: its cards say nothing.)
            lines = [x for x in message.words().splitlines() if not x.startswith("Cut for deal")]
            assert not {c for c in hidden if c in "\n".join(lines)}, message.words()

    # Short: pegged, and the opponent may call muggins.
    claimed = await fd.slash(owner, world.general, "/cribbage count points:0")
    assert claimed.ephemeral and claimed.words().startswith("You claimed 0.\n")
    version = read_game(world.database, game_id).version
    button_id = f"crib:{game_id}:muggins:{version}"
    message = await hand_with(world, opponent, button_id)
    assert "Press **Muggins!**" in message.words()
    # Beside it, No muggins lets the claim stand without waiting out the window.
    assert message.component(f"crib:{game_id}:pass:{version}") is not None
    took = await fd.click(opponent, message, button_id)
    points = f"{value} point" + ("s" if value != 1 else "")
    # The click is answered by updating the hand message it came from.
    assert took.response is not None and took.response.type == 7
    game = game_now(world, game_id)
    side = game.side_of(1 - turn.seat)
    assert game.state.scores[side] == before.game.state.scores[side] + value  # type: ignore[union-attr]

    deal = f"**Deal {game.state.deal_number}**"

    def table_says() -> str | None:
        # Until this deal's table shows the short hand's breakdown, which comes with the
        # muggins (an earlier hand's breakdown is no sign of it: the table may show the claim
        # first; nor is an earlier deal's table, where the owner may have claimed 0 rightly).
        tables = [
            m for m in fd.messages(world.general) if "claims 0" in m.words() and deal in m.words()
        ]
        text = tables[-1].words() if tables else ""
        return text if f"{owner.name}'s hand counted:" in text else None

    table = await until(fd, table_says)
    assert f"{owner.name} claims 0" in table
    assert f"Muggins! {opponent.name} takes the {points} {owner.name} missed" in table
    assert f"{points} missed" in table

    # The rest of the show: the next hand claimed over its value, once (pegged back to the
    # value, the opponent pegging the points over, and no muggins to answer), the others
    # exactly; then Bea resigns and the stats keep what was taken. Every other claim is open
    # to muggins: the last one, right, is called wrongly, which costs the caller nothing but
    # the chance (told privately) and, the only opponent having called, ends it.
    wrong_calls = 0
    over: tuple[int, int, int] | None = None  # (seat, claimed, worth)
    last_was_over = False
    while (game := game_now(world, game_id)).state.phase is Phase.SHOW:
        counting = game.count_turn
        window = game.state.muggins_window
        if counting is None:
            assert window is not None
            caller = users[1 - window.seat]
            button_id = f"crib:{game_id}:muggins:{read_game(world.database, game_id).version}"
            message = await hand_with(world, caller, button_id)
            called = await fd.click(caller, message, button_id)
            # Told privately, beside whatever else the click's token carries (the next deal's
            # hand may go out as its follow-up first).
            note = await until(fd, functools.partial(_ephemeral_followup, called))
            assert note.words().startswith("No muggins: that count was right")
            await wait_for_move(world, game_id, len(game.actions))
            wrong_calls += 1
            continue
        if window is not None and window.holds(counting.seat, (0, 1)):
            # The dealer's crib waits for muggins on their hand: the pone lets it stand.
            button_id = f"crib:{game_id}:pass:{read_game(world.database, game_id).version}"
            caller = users[1 - window.seat]
            await fd.click(caller, await hand_with(world, caller, button_id), button_id)
            await wait_for_move(world, game_id, len(game.actions))
            continue
        value_now = worth(game)
        last_was_over = over is None
        claim = next(v for v in CLAIM_VALUES if v > value_now) if last_was_over else value_now
        if over is None:
            # Typed, the claim over is answered privately: what it pegs, and the hand's count
            # item by item, as players say it.
            over = (counting.seat, claim, value_now)
            line = f"/cribbage count points:{claim}"
            claimed = await fd.slash(users[counting.seat], world.general, line)
            assert game.state.starter is not None
            count = say_score(score_hand(counting.cards, game.state.starter, crib=counting.crib))
            assert claimed.ephemeral and f"Its count: {count}." in claimed.words(), claimed
        else:
            claimed = await claim_from_menu(world, users[counting.seat], game_id, claim)
            # Answered by updating the hand it was made on, as every claim from it is.
            assert claimed.response is not None and claimed.response.type == 7
        await wait_for_move(world, game_id, len(game.actions))
    assert over is not None
    over_seat, over_claimed, over_worth = over
    points_over = over_claimed - over_worth
    over_owner, over_taker = users[over_seat], users[1 - over_seat]
    said = "Too many! " + (
        f"{over_taker.name} pegs the {plural(points_over, 'point')} {over_owner.name} claimed over"
    )
    await until(fd, lambda: any(said in m.words() for m in fd.messages(world.general)))
    # An over-claim opens no window: when it was the show's last (the crib), nothing was called.
    assert wrong_calls == (0 if last_was_over else 1)
    # (A hand that offered the window before may still be on its way to its new look: the
    # test waits for it. An open window would keep its buttons, and the wait would fail.)
    await until(
        fd, lambda: not [m for m in fd.messages(world.general) if "No muggins" in m.words()]
    )
    await resign(fd, users[1], world.general)
    await until(fd, lambda: read_game(world.database, game_id).status == "finished")
    taken = {opponent.id: value, owner.id: 0}
    given = {opponent.id: 0, owner.id: value}
    taken[over_taker.id] += points_over
    given[over_owner.id] += points_over
    for user in (opponent, owner):
        stats = await fd.slash(user, world.general, "/cribbage stats")
        line = (
            f"taken from wrong counts (muggins, claims over) {taken[user.id]},"
            f" given away {given[user.id]}."
        )
        assert line in stats.words(), stats.words()
    stats = await fd.slash(owner, world.general, "/cribbage stats")
    assert f"{points} missed;" in stats.words()


async def test_manual_counting_the_muggins_window_closes_on_its_own(
    world: World, bots: BotLauncher
) -> None:
    fd = world.fd
    game_id, users, _, turn = await at_a_hand_worth_something(world, bots, muggins_seconds=5)
    await fd.slash(users[turn.seat], world.general, "/cribbage count points:0")
    assert game_now(world, game_id).state.muggins_window is not None
    closed = await until(fd, lambda: game_now(world, game_id).state.muggins_window is None or None)
    assert closed
    after = game_now(world, game_id)
    assert {"type": "close_muggins", "seat": turn.seat} in after.actions
    # Nobody took the points the claim of 0 missed.
    assert not any(a["type"] == "muggins" for a in after.actions)


async def test_new_accepts_the_scoring_and_counting_options(world: World, bot: BotProcess) -> None:
    opened = await world.fd.slash(
        world.players[0], world.general, "/cribbage new scoring:skunk counting:manual"
    )
    assert "game points on the skunk scale, you count your hands (muggins)" in opened.words()


async def test_a_whole_manual_game_against_the_computer_with_muggins(
    world: World, bots: BotLauncher
) -> None:
    """Al counts his own hands exactly from the menus and calls muggins on every short claim
    of an easy computer (which counts like a beginner) until the game ends."""
    await bots.process(database=world.database, dev_guild=world.guild.id)
    fd = world.fd
    al = world.players[0]
    opened = await fd.slash(
        al,
        world.general,
        "/cribbage new vs_computer:True difficulty:easy target:61 counting:manual",
    )
    assert "you count your hands (muggins)" in opened.words()
    game_id = latest_game_id(world.database, world.general.id)
    for _ in range(400):
        snap = read_game(world.database, game_id)
        game = snap.game
        assert game is not None
        if game.state.phase is Phase.OVER:
            break
        window, turn = game.state.muggins_window, game.count_turn
        if game.state.phase is Phase.DISCARD:
            await play_to_the_show(world, game_id, [al])
            continue
        if game.state.phase is Phase.PLAY:
            await play_to_the_show(world, game_id, [al])
            continue
        if window is not None and window.seat != 0:
            button_id = f"crib:{game_id}:muggins:{snap.version}"
            message = await hand_with(world, al, button_id)
            await fd.click(al, message, button_id)
        elif turn is not None and turn.seat == 0 and window is None:
            await claim_from_menu(world, al, game_id, worth(game))
        await wait_for_move(world, game_id, len(game.actions))
    game = game_now(world, game_id)
    assert game.state.phase is Phase.OVER
    calls = [a for a in game.actions if a["type"] == "muggins"]
    assert all(a["seat"] == 0 for a in calls)
    found = rows(
        world.database,
        "SELECT seat, points_missed, muggins_given, muggins_taken FROM results"
        " WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    (_, al_missed, al_given, al_taken), (_, cpu_missed, cpu_given, cpu_taken) = found
    assert (al_missed, al_given, cpu_taken) == (0, 0, 0)
    assert al_taken == cpu_given
    # Every short claim of the computer was called, unless the game ended on it.
    assert cpu_given <= cpu_missed
    stats = await fd.slash(al, world.general, "/cribbage stats")
    if al_taken:
        assert f"(muggins, claims over) {al_taken}, given away 0" in stats.words()


def _ephemeral_followup(interaction: Interaction) -> Message | None:
    """The first ephemeral follow-up to ``interaction`` so far."""
    return next((m for m in interaction.followups if m.ephemeral), None)
