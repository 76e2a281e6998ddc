"""Every refused call answers with one short sentence and changes nothing."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

import pytest

from bot.core.replies import Controls, Outcome, User
from bot.core.service import GameService
from bot.store import Store
from engine.cards import Card, full_deck
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    EVE,
    GUILD,
    drive,
    load,
    open_table,
    state,
)

Call = Callable[[GameService], Awaitable[Outcome]]


async def assert_refused(store: Store, service: GameService, call: Call, words: str) -> None:
    """``call`` is refused with a sentence containing ``words`` and nothing stored changes."""
    game = await store.open_game_in_channel(CHANNEL)
    game_id = game.id if game is not None else None
    before = await state(store, game_id) if game_id is not None else None
    outcome = await call(service)
    assert not outcome.ok
    text = outcome.reply.text
    assert outcome.reply.ephemeral and outcome.reply.view is None
    assert words.lower() in text.lower(), text
    assert "\n" not in text and len(text) < 200 and text[-1] in ".!", text
    assert not outcome.changed and outcome.update is None
    if game_id is not None:
        assert await state(store, game_id) == before


async def test_no_game_here(store: Store, service: GameService) -> None:
    for call in (
        lambda s: s.join(CHANNEL, AL),
        lambda s: s.leave(CHANNEL, AL),
        lambda s: s.start(CHANNEL, AL),
        lambda s: s.cancel(CHANNEL, AL),
        lambda s: s.resign(CHANNEL, AL),
        lambda s: s.discard(CHANNEL, AL, "5H JD"),
        lambda s: s.play(CHANNEL, AL, "5H"),
        lambda s: s.hand(CHANNEL, AL),
        lambda s: s.status(CHANNEL),
    ):
        await assert_refused(store, service, call, "no game in this channel")


async def test_lobby_refusals(store: Store, service: GameService) -> None:
    await service.new_game(GUILD, CHANNEL, AL, players=2)
    await assert_refused(
        store, service, lambda s: s.new_game(GUILD, CHANNEL, BEA), "already a game"
    )
    await assert_refused(store, service, lambda s: s.join(CHANNEL, AL), "already in")
    await assert_refused(store, service, lambda s: s.start(CHANNEL, AL), "1 more player")
    await assert_refused(store, service, lambda s: s.start(CHANNEL, BEA), "only players")
    await assert_refused(store, service, lambda s: s.leave(CHANNEL, BEA), "not in this game")
    await assert_refused(store, service, lambda s: s.cancel(CHANNEL, BEA), "only the player")
    for call in (
        lambda s: s.discard(CHANNEL, AL, "5H JD"),
        lambda s: s.play(CHANNEL, AL, "5H"),
        lambda s: s.hand(CHANNEL, AL),
        lambda s: s.resign(CHANNEL, AL),
    ):
        await assert_refused(store, service, call, "hasn't started")
    assert (await service.join(CHANNEL, BEA)).ok
    await assert_refused(store, service, lambda s: s.join(CHANNEL, CY), "full")


async def test_bad_new_game_options(store: Store, service: GameService) -> None:
    await assert_refused(
        store, service, lambda s: s.new_game(GUILD, CHANNEL, AL, players=5), "2, 3 or 4"
    )
    await assert_refused(
        store, service, lambda s: s.new_game(GUILD, CHANNEL, AL, target=100), "121 or to 61"
    )
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_discard_refusals(store: Store, service: GameService) -> None:
    table = await open_table(service, [AL, BEA])
    hand = [Card.parse(c.code) for c in table.latest[AL.id].cards]
    not_held = next(c for c in full_deck() if c not in hand)
    cases = [
        (lambda s: s.discard(CHANNEL, EVE, "5H JD"), "not playing"),
        (lambda s: s.discard(CHANNEL, AL, "ZZ 5H"), "is not a card"),
        (lambda s: s.discard(CHANNEL, AL, ""), "no cards given"),
        (lambda s: s.discard(CHANNEL, AL, "5H 5H"), "twice"),
        (lambda s: s.discard(CHANNEL, AL, hand[0].code), "2 cards"),
        (lambda s: s.discard(CHANNEL, AL, " ".join(c.code for c in hand[:3])), "2 cards"),
        (lambda s: s.discard(CHANNEL, AL, f"{hand[0].code} {not_held.code}"), "don't hold"),
        (lambda s: s.play(CHANNEL, AL, hand[0].code), "discard before"),
        (lambda s: s.leave(CHANNEL, AL), "resign"),
        (lambda s: s.join(CHANNEL, EVE), "already started"),
        (lambda s: s.start(CHANNEL, AL), "already started"),
        (lambda s: s.resign(CHANNEL, EVE), "not playing"),
        (lambda s: s.hand(CHANNEL, EVE), "not playing"),
        (lambda s: s.cancel(CHANNEL, BEA), "only a moderator"),
        (lambda s: s.cancel(CHANNEL, AL), "only a moderator"),
    ]
    for call, words in cases:
        await assert_refused(store, service, call, words)
    prompt = table.latest[AL.id]
    codes = [c.code for c in prompt.cards[:2]]
    await assert_refused(
        store,
        service,
        lambda s: s.click_discard(prompt.game_id, 99, AL, codes, guild_id=None),
        "hand is over",
    )
    await assert_refused(
        store,
        service,
        lambda s: s.click_discard(prompt.game_id, prompt.stamp, EVE, codes, guild_id=None),
        "not playing",
    )
    await assert_refused(
        store,
        service,
        lambda s: s.click_discard(prompt.game_id, prompt.stamp, AL, ["XX", "5H"], guild_id=None),
        "not a card",
    )
    await assert_refused(
        store, service, lambda s: s.click_discard(4242, 1, AL, codes, guild_id=None), "can't find"
    )
    await assert_refused(
        store,
        service,
        lambda s: s.click_lobby(prompt.game_id, "join", EVE, guild_id=GUILD),
        "already started",
    )
    await assert_refused(
        store,
        service,
        lambda s: s.click_lobby(prompt.game_id, "dance", AL, guild_id=GUILD),
        "button",
    )
    assert (await service.discard(CHANNEL, AL, " ".join(codes))).ok
    await assert_refused(
        store, service, lambda s: s.discard(CHANNEL, AL, " ".join(codes)), "already discarded"
    )


async def test_play_refusals(store: Store, service: GameService) -> None:
    table = await open_table(service, [AL, BEA])
    await drive(service, table, [AL, BEA], stop_after=2)
    ((mover_id, prompt),) = [(u, p) for u, p in table.latest.items() if p.kind == "play"]
    mover, waiter = (AL, BEA) if mover_id == AL.id else (BEA, AL)
    game = await load(store, prompt.game_id)
    first = Card.parse(prompt.cards[0].code)
    theirs = game.hand(1 if mover is AL else 0)[0]
    cases = [
        (lambda s: s.play(CHANNEL, waiter, game.hand(0 if waiter is AL else 1)[0]), "turn"),
        (lambda s: s.play(CHANNEL, mover, theirs.code), "don't hold"),
        (lambda s: s.play(CHANNEL, mover, "5H 6H"), "one card at a time"),
        (lambda s: s.play(CHANNEL, mover, "11X"), "not a card"),
        (lambda s: s.play(CHANNEL, EVE, first), "not playing"),
        (lambda s: s.discard(CHANNEL, mover, "5H JD"), "already discarded"),
    ]
    for call, words in cases:
        await assert_refused(store, service, call, words)
    await assert_refused(
        store,
        service,
        lambda s: s.click_play(prompt.game_id, prompt.stamp - 1, mover, first.code, guild_id=None),
        "out of date",
    )
    await assert_refused(
        store,
        service,
        lambda s: s.click_play(prompt.game_id, prompt.stamp, waiter, first.code, guild_id=None),
        "turn",
    )


def _press(s: GameService, *, prompt: Controls, user: User, code: str) -> Awaitable[Outcome]:
    return s.click_play(prompt.game_id, prompt.stamp, user, code, guild_id=None)


async def test_a_card_over_31_is_refused(store: Store, service: GameService) -> None:
    """Play on until some prompt has a disabled card, then press it."""
    table = await open_table(service, [AL, BEA])
    users = {AL.id: AL, BEA.id: BEA}
    for _ in range(200):
        await drive(service, table, [AL, BEA], stop_after=1)
        blocked = [
            (u, p, c)
            for u, p in table.latest.items()
            if p.kind == "play"
            for c in p.cards
            if not c.enabled
        ]
        if blocked:
            user_id, prompt, card = blocked[0]
            user = users[user_id]
            press = functools.partial(_press, prompt=prompt, user=user, code=card.code)
            await assert_refused(store, service, press, "would make the count")
            return
    pytest.fail("no card was ever unplayable")


async def test_after_the_game_buttons_say_it_is_over(store: Store, service: GameService) -> None:
    table = await open_table(service, [AL, BEA])
    prompt = table.latest[AL.id]
    assert (await service.resign(CHANNEL, BEA)).ok
    await assert_refused(
        store,
        service,
        lambda s: s.click_discard(prompt.game_id, prompt.stamp, AL, ["5H", "6H"], guild_id=None),
        "over",
    )
    await assert_refused(store, service, lambda s: s.play(CHANNEL, AL, "5H"), "no game")
