"""A click's answer that is slow to reach Discord never lands over a newer look.

A player's discard is answered by updating their hand message ("waiting for the others"). If
that answer is still on its way when the other player discards and the play begins, the keeper
owes the same hand message its newer look at once. Edited then, the newer look would land
first and the slow answer after it, leaving the player a hand that says the discards are still
going on, with no controls, while the game waits for them: the game stuck, and the bot
believing the newer look was shown. The keeper waits for the answer to land instead (in one
process it hears it land; with several processes it edits through the answer's own token,
which Discord lets reach the message only once the answer has landed), then edits.
"""

from __future__ import annotations

import copy
import itertools
import re
from typing import Any

import pytest

from engine.phase import Phase
from fakediscord import FakeDiscord, Message
from fakediscord.model import walk_components
from fakediscord.testing import BotProcess
from tests.helpers.bot_db import latest_game_id
from tests.helpers.pair import Pair
from tests.helpers.table_driver import TableDriver, World, until

#: How late the first discard's answer reaches Discord: well within the 3 s Discord allows an
#: answer, and long enough that the second discard is saved and its change sent meanwhile.
LATE = 1.5


async def _opened(world: World, seed: int) -> TableDriver:
    """A game of Al and Bea to 61, dealt, played by clicks alone."""
    driver = world.driver(world.players[:2], seed, command_rate=0.0)
    await driver.open(target=61)
    return driver


async def _discard_with_a_slow_answer(driver: TableDriver) -> None:
    """Both players discard, the first one's answer arriving ``LATE`` seconds late; then every
    message of the game, the first player's hand above all, shows the play as it is."""
    fd = driver.fd
    snap = driver.snapshot()
    prompts = [await driver.prompt(snap, seat) for seat in (0, 1)]
    fd.delay(r"/callback$", LATE)
    slow = await driver.send(snap, 0, driver.choose(snap, 0), prompts[0])
    # The move is saved before it is answered: the second discard follows while the first
    # one's answer is still on its way.
    await until(fd, lambda: driver._moved(snap), timeout=10)
    assert slow.response is None, "the first answer has not landed yet"
    second = driver.snapshot()
    quick = await driver.send(second, 1, driver.choose(second, 1), prompts[1])
    await fd.wait_for(lambda: quick.response is not None and slow.response is not None, timeout=10)
    assert slow.response is not None and slow.response.type == 7, "the slow answer landed"
    await driver.expect_current(timeout=8)
    # The game goes on from the messages the players have.
    await driver.play_out(stop_after=driver.steps + 4)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
async def test_a_slow_answer_never_lands_over_the_next_look(world: World, bot: BotProcess) -> None:
    driver = await _opened(world, 3)
    await _discard_with_a_slow_answer(driver)
    # The process that sends the answer hears it land: it never asks Discord before then.
    assert not [r.route for r in world.fd.requests if r.status == 404]


async def test_a_slow_answer_made_by_another_process_never_lands_over_the_next_look(
    pair: Pair,
) -> None:
    await _discard_with_a_slow_answer(await _opened(pair.world, 3))


def _live_play_buttons(components: list[dict[str, Any]]) -> list[str]:
    """The custom ids of the card buttons that may be clicked, however deeply nested."""
    found: list[str] = []
    for item in components:
        custom_id = str(item.get("custom_id", ""))
        if item.get("type") == 2 and ":play:" in custom_id and not item.get("disabled"):
            found.append(custom_id)
        found += _live_play_buttons(list(item.get("components") or []))
        if isinstance(item.get("accessory"), dict):
            found += _live_play_buttons([item["accessory"]])
    return found


async def _a_late_look_is_mended(driver: TableDriver) -> None:
    """The first player to play has played: their hand shows it, with no card to click. Then
    Discord shows that hand as it was before (with the card buttons of that earlier moment),
    as when an older edit reaches it after the newer one, which the bot cannot hear of. A
    click on one of those buttons is refused as out of date, and the hand is brought back to
    what it should show."""
    fd = driver.fd
    await driver.play_out(stop_after=3)  # both discards, then the first card of the play
    snap = driver.snapshot()
    assert snap.game is not None
    deal = snap.game.state.deal_number
    seat, hand = next(
        (seat, hand)
        for seat in (0, 1)
        if (hand := driver.message(f"hand:{deal}:{seat}")) is not None
        and not _live_play_buttons(hand.components)
        and any(_live_play_buttons(v.components) for v in hand.history)
    )
    now = hand.version()
    older = next(v for v in reversed(hand.history) if _live_play_buttons(v.components))
    hand.content, hand.components = older.content, copy.deepcopy(older.components)
    stale = _live_play_buttons(hand.components)[0]
    refused = await fd.click(driver.seats[seat], hand, stale)
    assert refused.ephemeral and "out of date" in refused.words(), refused.words()
    await until(fd, lambda: hand.content == now.content and hand.components == now.components)
    # The game goes on from the messages the players have.
    driver.resync()
    await driver.play_out(stop_after=driver.steps + 4)


async def test_a_stale_click_on_a_hand_that_shows_an_older_look_mends_it(
    world: World, bot: BotProcess
) -> None:
    await _a_late_look_is_mended(await _opened(world, 4))


async def test_with_two_processes_a_stale_click_mends_the_hand_too(pair: Pair) -> None:
    await _a_late_look_is_mended(await _opened(pair.world, 4))


def _menu_in(messages: list[Message]) -> Message | None:
    """The one message of ``messages`` with a select menu (a hand asking for its discard)."""
    return next((m for m in messages if list(m.selects())), None)


async def _clicked_the_moment_it_is_posted(world: World) -> None:
    """Al's hand is posted and Bea's a second later; Al discards the moment his hand appears,
    while the bot is still posting Bea's, and his discard's answer is slow. Bea discards as
    soon as her hand comes, and the play begins: Al's hand is owed the play's look while his
    own discard's answer ("waiting for Bea") may still land. It must not land over that look."""
    fd = world.fd
    al, bea = world.players[:2]
    reply = await fd.slash(al, world.general, "/cribbage new players:2 target:61")
    lobby = reply.original
    assert lobby is not None
    game = latest_game_id(world.database, world.general.id)
    await fd.click(bea, lobby, f"crib:{game}:lobby:join")
    fd.delay(rf"^POST /channels/{fd.dm_channel(bea).id}/messages$", 1.0)
    await fd.click(al, lobby, f"crib:{game}:lobby:start")
    hand = await until(fd, lambda: _menu_in(fd.dms(al)))
    assert _menu_in(fd.dms(bea)) is None, "Al's hand came first; Bea's is still on its way"
    fd.delay(r"/callback$", LATE)
    menu = next(hand.selects())
    cards = [o["value"] for o in menu["options"][:2]]
    slow = await fd.select(al, hand, menu["custom_id"], cards, wait=False)
    theirs = await until(fd, lambda: _menu_in(fd.dms(bea)), timeout=10)
    assert slow.response is None, "Al's answer is still on its way"
    menu = next(theirs.selects())
    await fd.select(bea, theirs, menu["custom_id"], [o["value"] for o in menu["options"][:2]])
    await fd.wait_for(lambda: slow.response is not None, timeout=10)
    assert slow.response is not None and slow.response.type == 7, "the slow answer landed"
    # Al's hand shows the play (the starter is cut once both have discarded), not his answer.
    await until(fd, lambda: "starter" in hand.words(), timeout=10)


async def test_a_hand_clicked_the_moment_it_is_posted_is_not_edited_under_its_answer(
    world: World, bot: BotProcess
) -> None:
    await _clicked_the_moment_it_is_posted(world)


async def test_with_two_processes_a_hand_clicked_as_it_is_posted_is_not_edited_under_it(
    pair: Pair,
) -> None:
    await _clicked_the_moment_it_is_posted(pair.world)


async def test_a_new_deals_hand_is_not_posted_through_a_click_whose_answer_is_on_its_way(
    world: World, bot: BotProcess
) -> None:
    """The last card of a deal is played from a DM, and its answer is slow to reach Discord:
    the next deal's hand goes to that player meanwhile. It is not posted as a follow-up of
    that click (Discord knows no webhook of an interaction before its answer has landed: 404 /
    10015, and the hand then went with the bot's own token), but of an earlier one, whose
    answer landed (issue 46: on the internet, the common case)."""
    fd = world.fd
    driver = await _opened(world, 5)
    snap = driver.snapshot()
    while True:
        game = snap.game
        assert game is not None and snap.status == "active"
        left = sum(len(game.hand(seat)) for seat in (0, 1))
        if game.state.phase is Phase.PLAY and left == 1:
            break
        snap = await driver.step(snap)
    seat = driver.actor(snap)
    prompt = await driver.prompt(snap, seat)
    fd.delay(r"/callback$", LATE)
    last = await driver.send(snap, seat, driver.choose(snap, seat), prompt)
    user = driver.seats[seat]
    select = f"crib:{driver.game_id}:discard:{game.state.deal_number + 1}"
    await until(fd, lambda: any(m.component(select) for m in fd.dms(user)))
    await fd.wait_for(lambda: last.response is not None, timeout=10)
    refused = [r.route for r in fd.requests if r.status == 404]
    assert refused == [], refused
    await driver.expect_current()


#: An interaction's token in a route (shortened in what a failure says).
TOKEN = re.compile(r"/[A-Za-z0-9_-]{40,}")


def _story(fd: FakeDiscord, message: Message) -> str:
    """Each look of ``message`` (when it was asked for and made, its first words, its controls'
    ids), then each request that named the message and each click's answer (its route, the
    process's port, when it arrived and was answered): what a failure of the checks above says,
    to tell which edit came again and from where."""
    looks = [*message.history, message.version()]
    lines = [
        f"look {n}: requested {look.requested or '?'}, made {look.at}: "
        f"{look.words()[:80]!r} {sorted(_ids(look.components))}"
        for n, look in enumerate(looks)
    ]
    lines += [
        f"{TOKEN.sub(lambda t: t.group(0)[:9] + '…', r.route)} -> {r.status} (port {r.peer}, "
        f"arrived {r.arrived:.3f}, answered {r.at:.3f})"
        for r in fd.requests
        if str(message.id) in r.route or "/webhooks/" in r.route or r.route.endswith("/callback")
    ]
    return "\n".join(lines)


def _ids(components: list[dict[str, Any]]) -> list[str]:
    return [str(c["custom_id"]) for c in walk_components(components) if "custom_id" in c]


def _repeated(message: Message) -> list[str]:
    """The looks of ``message`` that an edit gave it again, unchanged, right after the look
    before (the same text and controls twice in a row)."""
    looks = [*message.history, message.version()]
    return [
        f"look {n} at {look.at}"
        for n, (before, look) in enumerate(itertools.pairwise(looks), start=1)
        if look.words() == before.words() and look.components == before.components
    ]


async def test_with_two_processes_a_click_on_an_edit_heard_back_late_is_not_edited_again(
    pair: Pair,
) -> None:
    """The sending process gives the next player their turn (an edit of their hand), and hears
    back that it went only a while later (its answer held on the way back); the player clicks
    at once, and the other process answers. That answer was made on the very look the edit gave,
    so the edit cannot have landed over it: the hand is not edited again through the answer's
    token (issue 46: it was, and on the internet that second edit often landed after the
    player's next click's answer, showing its used controls again)."""
    fd = pair.world.fd
    driver = await _opened(pair.world, 6)
    await driver.play_out(stop_after=2)  # both discards: the play begins
    snap = driver.snapshot()
    assert snap.game is not None and snap.game.state.turn is not None
    mover = snap.game.state.turn
    waiting = 1 - mover
    # The mover plays; the edit that gives the other player their turn comes back late.
    held = fd.delay(r"^PATCH /webhooks/", 1.5, back=True)
    snap = await driver.step(snap)
    game = snap.game
    assert game is not None and game.state.turn == waiting, "no go: the other player's turn"
    # They play at once, on the look that edit gave them.
    snap = await driver.step(snap)
    assert held.routes, "their turn was given through their token, and heard back late"
    await driver.play_out(stop_after=driver.steps + 4)
    hand = driver.message(f"hand:{game.state.deal_number}:{waiting}")
    assert hand is not None

    def not_again() -> None:
        assert _repeated(hand) == [], f"{_repeated(hand)}\n{_story(fd, hand)}"

    fd.at_the_end(not_again)
