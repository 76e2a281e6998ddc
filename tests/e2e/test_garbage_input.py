"""Anything typed into a string option gets one clear private sentence and changes nothing.

Hypothesis writes the garbage (random text, near-miss card names, huge and odd strings); each
one is typed into `/cribbage discard cards:` and `/cribbage play card:` (and their autocomplete)
while the typist could act, so a crash, a leak or a state change would show.
"""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bot.discord.interactions import SORRY
from engine.cards import Card, parse_cards
from engine.game import Game
from engine.phase import Phase
from fakediscord import EmulatorUsageError, FakeDiscord, User
from fakediscord.testing import BotProcess
from tests.helpers.card_leaks import cards_in_text, hidden_from
from tests.helpers.table_driver import TableDriver, World

_CARDISH = st.from_regex(
    r"\A[ ,]*(10|1|[0-9AJQKTX]{1,2})([CDHSXcdhs♥♠♦♣♡]{0,2})([ ,]+(10|[0-9AJQKT])[CDHS♥]?){0,3}\Z"
)
GARBAGE = st.one_of(
    st.text(min_size=1, max_size=60),
    _CARDISH,
    st.text(alphabet="5HJD10♥ ,;\n\t'\"\\", min_size=1, max_size=30),
    st.sampled_from(["'; DROP TABLE games; --", "%s%s%n", "{}", "null", "x" * 3000, "🂡🂢"]),
)


def garbage_samples(count: int, seed_value: int) -> list[str]:
    """`count` strings drawn by hypothesis (reproducible with `seed_value`)."""
    drawn: list[str] = []

    @seed(seed_value)
    @settings(
        max_examples=count,
        database=None,
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(GARBAGE)
    def draw(text: str) -> None:
        drawn.append(text)

    draw()
    return drawn


def _legal_discard(text: str, game: Game, seat: int) -> bool:
    try:
        cards = parse_cards(text)
    except ValueError:
        return False
    held = set(game.hand(seat))
    return (
        len(cards) == game.state.rules.others.to_crib
        and len(set(cards)) == len(cards)
        and all(c in held for c in cards)
    )


def _legal_play(text: str, game: Game, seat: int) -> bool:
    try:
        cards = parse_cards(text)
    except ValueError:
        return False
    return len(cards) == 1 and cards[0] in game.playable_cards(seat)


async def _type_garbage(
    fd: FakeDiscord,
    world: World,
    driver: TableDriver,
    user: User,
    option: str,
    samples: list[str],
    legal: object,
) -> int:
    """Type each sample; check the answer and that the game did not move. Returns how many
    reached the bot."""
    sent = 0
    seat = driver.players.index(user)
    for text in samples:
        snap = driver.snapshot()
        assert snap.game is not None
        if legal(text, snap.game, seat):  # type: ignore[operator]
            continue  # a real move, not garbage
        line = f"/cribbage {option}:{text}"
        try:
            reply = await fd.slash(user, world.general, line)
        except EmulatorUsageError:
            continue  # Discord's own client would not send this line
        sent += 1
        assert reply.response is not None and reply.response.type == 4, (text, reply)
        assert reply.ephemeral, text
        answer = reply.words()
        assert answer and answer != SORRY and len(answer) <= 300, (text, answer)
        # No card hidden from the typist shows up (the cards they typed may be echoed).
        typed = cards_in_text(text) | _codes_in(text)
        secret = hidden_from(snap.game, seat) - typed
        assert not (cards_in_text(answer) & secret), (text, answer)
        after = driver.snapshot()
        assert (after.version, after.actions) == (snap.version, snap.actions), (text, answer)
        try:
            choices = await fd.autocomplete(user, world.general, line)
        except EmulatorUsageError:
            continue
        assert len(choices) <= 25
        held = {c.code for c in snap.game.hand(seat)}
        assert all(choice["value"].split()[0] in held for choice in choices if choice["value"])
    return sent


def _codes_in(text: str) -> set[Card]:
    found = set()
    for word in text.replace(",", " ").split():
        with contextlib.suppress(ValueError):
            found.add(Card.parse(word))
    return found


async def test_garbage_in_every_string_option(world: World, bot: BotProcess) -> None:
    fd, (al, _), driver = await world.open_for_two(3, target=61)

    # Discard phase: Al could discard now; garbage must not do it.
    sent = await _type_garbage(
        fd, world, driver, al, "discard cards", garbage_samples(40, 1), _legal_discard
    )
    assert sent >= 20, sent
    # Garbage to play while it is the discard phase.
    sent = await _type_garbage(
        fd, world, driver, al, "play card", garbage_samples(10, 2), _legal_play
    )
    assert sent >= 5, sent
    # Someone who is not playing gets told so, whatever they type.
    snap = driver.snapshot()
    for text in [*garbage_samples(10, 4), "5H", "5H JD"]:
        try:
            reply = await fd.slash(world.spectator, world.general, f"/cribbage play card:{text}")
        except EmulatorUsageError:
            continue
        assert reply.ephemeral and reply.words() and reply.words() != SORRY
        assert driver.snapshot().version == snap.version

    # The answers above were checked for hidden cards there (typed cards may be echoed back):
    # the driver's own check starts after them.
    driver.resync()
    # Play phase: whoever is on turn types garbage cards to play.
    while (snap := driver.snapshot()).game is not None and snap.game.state.phase is Phase.DISCARD:
        await driver.step(snap)
    snap = driver.snapshot()
    assert snap.game is not None and snap.game.state.turn is not None
    player = driver.players[snap.game.state.turn]
    sent = await _type_garbage(
        fd, world, driver, player, "play card", garbage_samples(40, 3), _legal_play
    )
    assert sent >= 20, sent
    # The game is untouched and every message still shows it; the deal plays out with every
    # check.
    driver.resync()
    await driver.expect_current()
    end = await driver.play_deal()
    assert end.game is not None and end.game.state.deal_number == 2
