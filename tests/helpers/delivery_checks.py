"""What delivery must hold, on a quiet machine as over the internet, as checks any test can make:

- no hand offers a control for a move already made once the bot has had a moment
  (:func:`offers_control`, with :func:`used_control` naming a move's controls);
- no message shows a moment older than one it showed (:func:`shown_again`: a control that came
  back after a later look took it away);
- every interaction answered within Discord's 3 s, counted from when Discord sent it, the
  time on the wire included (:func:`answered_in_time`);
- nothing posted twice (:func:`posted_twice`).

The driver of a channel game (:class:`~tests.helpers.table_driver.TableDriver`) makes them at
every step; ``benchmarks/bot_load.py`` counts :func:`shown_again` over whole runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.model import MessageVersion, walk_components
from tests.helpers.bot_db import Snapshot

__all__ = [
    "answered_in_time",
    "first_look",
    "live_ids",
    "offers_control",
    "posted_twice",
    "shown_again",
    "used_control",
]


def live_ids(components: list[dict[str, Any]]) -> set[str]:
    """The custom ids of a message's controls that may be used (however deeply nested)."""
    return {
        str(item["custom_id"])
        for item in walk_components(components)
        if item.get("type") in (2, 3) and item.get("custom_id") and not item.get("disabled")
    }


def first_look(message: Message) -> MessageVersion:
    """The message as it was posted."""
    return message.history[0] if message.history else message.version()


def used_control(game_id: int, before: Snapshot, action: dict[str, Any]) -> Callable[[str], bool]:
    """Which custom ids were controls for ``action`` (as the action log writes it), made in
    ``before``: the deal's crib select for a discard, any card of that moment for a play (a
    card button's stamp is the game's version)."""
    assert before.game is not None
    if action["type"] == "discard":
        select = f"crib:{game_id}:discard:{before.game.state.deal_number}"
        return lambda custom_id: custom_id == select
    prefix = f"crib:{game_id}:play:{before.version}:"
    return lambda custom_id: custom_id.startswith(prefix)


def offers_control(
    fd: FakeDiscord, user: User, channel: Channel, used: Callable[[str], bool]
) -> list[Message]:
    """The messages of ``user`` (their DMs, and their private answers in ``channel``) that
    offer a live control whose custom id ``used`` names."""
    mine = [*fd.dms(user), *(m for m in fd.messages(channel) if m.ephemeral_for is user)]
    return [m for m in mine if not m.deleted and any(used(i) for i in live_ids(m.components))]


def shown_again(messages: Iterable[Message]) -> list[str]:
    """Each message on which a control came back after a later look had taken it away: an
    older look landed over a newer one (a control's custom id names its moment, so the same
    id live again is that older moment shown again). One line each: which message, which look,
    which control."""
    found: list[str] = []
    for message in messages:
        looks = [*message.history, message.version()]
        gone: set[str] = set()
        before: set[str] = set()
        for number, look in enumerate(looks):
            live = live_ids(look.components)
            gone |= before - live
            back = live & gone
            if back:
                found.append(
                    f"message {message.id}, look {number} of {len(looks)} at {look.at}:"
                    f" {sorted(back)[0]} again"
                )
                break
            before = live
    return found


def answered_in_time(fd: FakeDiscord, *, lost: int = 0) -> None:
    """Every interaction delivered was answered within Discord's window, counted from when
    Discord sent it (with the emulator's latency, the event's way to the bot and the answer's
    way back count): none refused as too late (404 / 10062), and at most ``lost`` never
    answered (sent while the bot was being killed). For :meth:`FakeDiscord.at_the_end`, once
    nothing can still be on its way."""
    late = [i for i in fd.interactions.values() if i.late]
    assert not late, f"answered past Discord's window: {late}"
    unanswered = [i for i in fd.interactions.values() if i.response is None]
    assert len(unanswered) <= lost, f"never answered: {unanswered}"


def posted_twice(
    fd: FakeDiscord, channel: Channel, people: Iterable[User], game_id: int, deals: Iterable[int]
) -> list[str]:
    """What a channel game posted twice: a deal's table (more than one message of the channel
    began with the deal's header) or a person's hand of a deal (more than one of their DMs
    ever offered that deal's crib select). One line each."""
    public = [m for m in fd.messages(channel) if not m.ephemeral]
    found: list[str] = []
    people = list(people)
    for deal in deals:
        header = f"**Deal {deal}** —"
        tables = [m for m in public if first_look(m).words().startswith(header)]
        if len(tables) > 1:
            found.append(f"deal {deal}'s table, {len(tables)} times")
        select = f"crib:{game_id}:discard:{deal}"
        for user in people:
            hands = [
                m
                for m in fd.dms(user)
                if any(select in live_ids(look.components) for look in [*m.history, m.version()])
            ]
            if len(hands) > 1:
                found.append(f"{user.name}'s hand of deal {deal}, {len(hands)} times")
    return found
