"""Every refused call answers with one short sentence and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.core.base.replies import Answer, Click, TableAsked, User
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card, full_deck
from tests.helpers.cast import AL, BEA, CHANNEL, CY, EVE, GUILD
from tests.helpers.service_driver import drive, load, open_table, state

Call = Callable[[Services], Awaitable[Answer]]


def press(click: Click, user: User) -> Call:
    """``user`` presses a button of a hand message (in a DM: no server)."""
    return lambda s: s.moves.click(click, user, guild_id=None)


async def assert_refused(store: Store, service: Services, call: Call, words: str) -> None:
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
    assert outcome.sequel is None and outcome.update is None
    if game_id is not None:
        assert await state(store, game_id) == before


async def test_no_game_here(store: Store, service: Services) -> None:
    for call in (
        lambda s: s.lobbies.join(CHANNEL, AL),
        lambda s: s.lobbies.leave(CHANNEL, AL),
        lambda s: s.lobbies.start(CHANNEL, AL),
        lambda s: s.lobbies.cancel(CHANNEL, AL),
        lambda s: s.moves.resign(CHANNEL, AL),
        lambda s: s.moves.discard(CHANNEL, AL, "5H JD"),
        lambda s: s.moves.play(CHANNEL, AL, "5H"),
        lambda s: s.table.hand(CHANNEL, AL),
        lambda s: s.table.status(CHANNEL),
    ):
        await assert_refused(store, service, call, "no game in this channel")


async def test_lobby_refusals(store: Store, service: Services) -> None:
    await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2))
    await assert_refused(
        store, service, lambda s: s.lobbies.new_game(GUILD, CHANNEL, BEA), "already a game"
    )
    await assert_refused(store, service, lambda s: s.lobbies.join(CHANNEL, AL), "already in")
    await assert_refused(store, service, lambda s: s.lobbies.start(CHANNEL, AL), "1 more player")
    await assert_refused(store, service, lambda s: s.lobbies.start(CHANNEL, BEA), "only players")
    await assert_refused(
        store, service, lambda s: s.lobbies.leave(CHANNEL, BEA), "not in this game"
    )
    await assert_refused(
        store, service, lambda s: s.lobbies.cancel(CHANNEL, BEA), "only the player"
    )
    for call in (
        lambda s: s.moves.discard(CHANNEL, AL, "5H JD"),
        lambda s: s.moves.play(CHANNEL, AL, "5H"),
        lambda s: s.table.hand(CHANNEL, AL),
        lambda s: s.moves.resign(CHANNEL, AL),
    ):
        await assert_refused(store, service, call, "hasn't started")
    assert (await service.lobbies.join(CHANNEL, BEA)).ok
    await assert_refused(store, service, lambda s: s.lobbies.join(CHANNEL, CY), "full")


async def test_bad_new_game_options(store: Store, service: Services) -> None:
    await assert_refused(
        store,
        service,
        lambda s: s.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=7)),
        "2 to 6",
    )
    await assert_refused(
        store,
        service,
        lambda s: s.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(target=100)),
        "121 or 61",
    )
    assert await store.open_game_in_channel(CHANNEL) is None


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"variant": "seven_card", "players": 3}, "Seven-card cribbage is for 2 players"),
        ({"variant": "five_card", "target": 121}, "Five-card cribbage is played to 61"),
        ({"variant": "seven_card", "scoring": "skunk"}, "has no skunk scale"),
        ({"variant": "five_hand", "players": 6}, "Five-hand cribbage is for 5 players"),
        ({"players": 4, "teams": "pairs"}, "`teams` is for six players"),
        ({"variant": "five_card", "teams": "threes"}, "`teams` is for six players"),
        ({"variant": "six_hand_pairs", "teams": "threes"}, "use `variant:six_hand`"),
        ({"players": 6, "teams": "fours"}, "`teams` is `threes`"),
        ({"variant": "eight_card"}, "There is no 'eight_card' variant"),
        ({"players": 5, "target": 181}, "Five-hand cribbage is played to 121 or 61"),
    ],
)
async def test_a_variant_refuses_what_it_does_not_offer_in_one_line(
    store: Store, service: Services, options: dict[str, object], words: str
) -> None:
    await assert_refused(
        store,
        service,
        lambda s: s.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(**options)),  # type: ignore[arg-type]
        words,
    )
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_discard_refusals(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    hand = [Card.parse(c.code) for c in table.latest[AL.id].cards]
    not_held = next(c for c in full_deck() if c not in hand)
    cases = [
        (lambda s: s.moves.discard(CHANNEL, EVE, "5H JD"), "not playing"),
        (lambda s: s.moves.discard(CHANNEL, AL, "ZZ 5H"), "is not a card"),
        (lambda s: s.moves.discard(CHANNEL, AL, ""), "No cards given: write them like 5H JD."),
        (lambda s: s.moves.discard(CHANNEL, AL, "5H 5H"), "twice"),
        (lambda s: s.moves.discard(CHANNEL, AL, hand[0].code), "2 cards"),
        (lambda s: s.moves.discard(CHANNEL, AL, " ".join(c.code for c in hand[:3])), "2 cards"),
        (lambda s: s.moves.discard(CHANNEL, AL, f"{hand[0].code} {not_held.code}"), "don't hold"),
        (lambda s: s.moves.play(CHANNEL, AL, hand[0].code), "Put your 2 cards in the crib first"),
        (lambda s: s.lobbies.leave(CHANNEL, AL), "resign"),
        (lambda s: s.lobbies.join(CHANNEL, EVE), "already started"),
        (lambda s: s.lobbies.start(CHANNEL, AL), "already started"),
        (lambda s: s.moves.resign(CHANNEL, EVE), "not playing"),
        (lambda s: s.table.hand(CHANNEL, EVE), "not playing"),
        (lambda s: s.lobbies.cancel(CHANNEL, BEA), "only a moderator"),
        (lambda s: s.lobbies.cancel(CHANNEL, AL), "only a moderator"),
    ]
    for call, words in cases:
        await assert_refused(store, service, call, words)
    prompt = table.latest[AL.id]
    codes = [c.code for c in prompt.cards[:2]]
    clicks: list[tuple[Call, str]] = [
        (press(Click(prompt.game_id, "discard", 99, tuple(codes)), AL), "hand is over"),
        (press(Click(prompt.game_id, "discard", prompt.stamp, tuple(codes)), EVE), "not playing"),
        (press(Click(prompt.game_id, "discard", prompt.stamp, ("XX", "5H")), AL), "not a card"),
        (press(Click(4242, "discard", 1, tuple(codes)), AL), "can't find"),
        (lambda s: s.lobbies.click(prompt.game_id, "join", EVE, guild_id=GUILD), "already started"),
        (lambda s: s.lobbies.click(prompt.game_id, "dance", AL, guild_id=GUILD), "button"),
    ]
    for call, words in clicks:
        await assert_refused(store, service, call, words)
    assert (await service.moves.discard(CHANNEL, AL, " ".join(codes))).ok
    await assert_refused(
        store, service, lambda s: s.moves.discard(CHANNEL, AL, " ".join(codes)), "already discarded"
    )


async def test_a_discard_of_one_card_is_asked_for_with_one(store: Store, service: Services) -> None:
    """With three players each puts one card in the crib: the example the refusal gives is
    one card, where it gave two ("write them like 5H JD") at every table."""
    await open_table(service, [AL, BEA, CY])
    empty: Call = lambda s: s.moves.discard(CHANNEL, AL, "")  # noqa: E731
    await assert_refused(store, service, empty, "No card given: write it like 7C.")


async def test_play_refusals(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    await drive(service, table, [AL, BEA], stop_after=2)
    ((mover_id, prompt),) = [(u, p) for u, p in table.latest.items() if p.kind == "play"]
    mover, waiter = (AL, BEA) if mover_id == AL.id else (BEA, AL)
    game = await load(store, prompt.game_id)
    first = Card.parse(prompt.cards[0].code)
    theirs = game.hand(1 if mover is AL else 0)[0]
    cases = [
        (lambda s: s.moves.play(CHANNEL, waiter, game.hand(0 if waiter is AL else 1)[0]), "turn"),
        (lambda s: s.moves.play(CHANNEL, mover, theirs.code), "don't hold"),
        (lambda s: s.moves.play(CHANNEL, mover, "5H 6H"), "one card at a time, like 7C."),
        # One card asked for: its example is one card, as the refusal of two says it.
        (lambda s: s.moves.play(CHANNEL, mover, ""), "No card given: write it like 7C."),
        (lambda s: s.moves.play(CHANNEL, mover, " , "), "No card given: write it like 7C."),
        (lambda s: s.moves.play(CHANNEL, mover, "11X"), "not a card"),
        (lambda s: s.moves.play(CHANNEL, EVE, first), "not playing"),
        (lambda s: s.moves.discard(CHANNEL, mover, "5H JD"), "already discarded"),
    ]
    for call, words in cases:
        await assert_refused(store, service, call, words)
    stale = Click(prompt.game_id, "play", prompt.stamp - 1, (first.code,))
    await assert_refused(store, service, press(stale, mover), "out of date")
    fresh = Click(prompt.game_id, "play", prompt.stamp, (first.code,))
    await assert_refused(store, service, press(fresh, waiter), "turn")


async def test_a_card_over_31_is_refused(store: Store, service: Services) -> None:
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
            click = Click(prompt.game_id, "play", prompt.stamp, (card.code,))
            await assert_refused(store, service, press(click, user), "would make the count")
            return
    pytest.fail("no card was ever unplayable")


async def test_after_the_game_buttons_say_it_is_over(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    prompt = table.latest[AL.id]
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    click = Click(prompt.game_id, "discard", prompt.stamp, ("5H", "6H"))
    await assert_refused(store, service, press(click, AL), "over")
    await assert_refused(store, service, lambda s: s.moves.play(CHANNEL, AL, "5H"), "no game")
