"""A player's hands at a private table (a DM the bot is not in, or a ranked match's place):
the ephemeral messages that carry their controls, the control a move needs, *Your hand*
pressed on the table, and a move made from a hand. What the private drivers
(tests.helpers.private_driver, tests.helpers.ranked_driver) share."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.core.base.views import HAND_BUTTON
from engine.cards import Card
from engine.game import Game
from engine.phase import Phase
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.helpers.bot_db import Snapshot
from tests.helpers.table_checks import until

__all__ = [
    "live_hands",
    "move_from_hand",
    "move_prefix",
    "newest_control",
    "press_your_hand",
    "within_reach",
]


def live_hands(fd: FakeDiscord, user: User, channel: Channel, game_id: int) -> list[Message]:
    """``user``'s hands of the game in ``channel``: their ephemeral messages there, not
    deleted, with a control of game ``game_id``, oldest first."""
    prefix = f"crib:{game_id}:"
    return [
        m
        for m in fd.visible_to(user, channel)
        if m.ephemeral
        and not m.deleted
        and any(str(i.get("custom_id", "")).startswith(prefix) for i in m.walk())
    ]


def within_reach(fd: FakeDiscord, message: Message) -> bool:
    """Whether the token of an interaction still reaches ``message`` (its original response
    or one of its follow-ups, the token not lapsed): whether the bot may still edit it. A hand
    no token reaches stays as it shows now, whatever the game does."""
    return any(
        not interaction.token_lapsed and any(m is message for m in interaction.messages())
        for interaction in fd.interactions.values()
    )


def newest_control(hands: list[Message], wanted: str) -> tuple[Message, str] | None:
    """The newest of ``hands`` with an enabled control whose custom id starts with
    ``wanted``, and that control's custom id."""
    for message in reversed(hands):
        for item in message.walk():
            custom_id = str(item.get("custom_id", ""))
            if custom_id.startswith(wanted) and not item.get("disabled"):
                return message, custom_id
    return None


def move_prefix(snap: Snapshot, game_id: int) -> str:
    """How the custom id of a control that discards or plays in ``snap`` begins."""
    game = snap.game
    assert game is not None
    if game.state.phase is Phase.DISCARD:
        return f"crib:{game_id}:discard:{game.state.deal_number}"
    return f"crib:{game_id}:play:{snap.version}:"


async def press_your_hand(
    fd: FakeDiscord, user: User, game_id: int, table_now: Callable[[], Message | None]
) -> Message:
    """``user`` presses *Your hand* on the table (``table_now``: the table message, once its
    id is kept), once it offers the button; the click is acknowledged (type 6) and the hand
    follows, theirs alone."""
    wanted = f"crib:{game_id}:lobby:{HAND_BUTTON}"

    def offered() -> Message | None:
        table = table_now()
        if table is None:
            return None
        return table if any(b.get("custom_id") == wanted for b in table.buttons()) else None

    table = await until(fd, offered)
    click = await fd.click(user, table, wanted)
    assert click.response is not None and click.response.type == 6, click.words()
    [hand] = await click.wait_followups(1)
    assert hand.ephemeral and hand.ephemeral_for is user, hand
    return hand


async def move_from_hand(
    fd: FakeDiscord,
    user: User,
    hand: Message,
    custom_id: str,
    game: Game,
    seat: int,
    rng: random.Random,
) -> Interaction:
    """``seat`` (``user``) moves with the control ``custom_id`` of ``hand``: in the discard,
    the menu must offer exactly the cards the seat holds, and as many as it asks for are
    picked at random; in the play, the card's button is clicked. The interaction."""
    if game.state.phase is not Phase.DISCARD:
        return await fd.click(user, hand, custom_id)
    menu = hand.component(custom_id)
    assert menu is not None
    codes = [str(o["value"]) for o in menu["options"]]
    held = {str(card) for card in game.hand(seat)}
    assert {str(Card.parse(c)) for c in codes} == held, "the hand shows its own cards"
    return await fd.select(user, hand, custom_id, rng.sample(codes, int(menu["min_values"])))
