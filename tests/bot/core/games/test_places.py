"""Where a click may come from (issue 10, items 9 and 10): a component's custom id names a
game, and that is not proof of anything. A game id outside SQLite's integer range is an
unknown game (no OverflowError); a click from another server is refused; a click in a DM must
come from a player seated at that game who is still a member of its server. A player who left
is refused, the table is told once how the game can end (a moderator's cancel), and they get
no more reminders."""

from __future__ import annotations

import pytest

from bot.core.base.keys import LEFT, REMIND, MessageKey
from bot.core.base.replies import Answer, Click, User
from bot.core.base.views import HandControls
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, CY, EVE, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    first_choice,
    game_owner,
    make_service,
    open_table,
    state,
)

OTHER_GUILD = GUILD + 1


class Members:
    """A server's members as a test sets them (everyone, until someone leaves)."""

    def __init__(self) -> None:
        self.gone: set[int] = set()
        self.asked: list[tuple[int, int]] = []

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        self.asked.append((guild_id, user_id))
        return user_id not in self.gone


def _service(store: Store, clock: Clock, members: Members) -> Services:
    return make_service(store, clock, computer=True, membership=members)


async def _discard(service: Services, prompt: HandControls, user: User = AL) -> Answer:
    """``user`` chooses the first cards of ``prompt`` for the crib, from their DM."""
    return await service.moves.click(first_choice(prompt), user, guild_id=None)


async def _dealt(service: Services) -> tuple[Transcript, int, HandControls]:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    return table, game_id, table.latest[AL.id]


@pytest.mark.parametrize("game_id", [2**63, 2**64 + 5, 10**30, 0, -1])
async def test_a_game_id_outside_sqlite_range_is_an_unknown_game(
    service: Services, game_id: int
) -> None:
    for outcome in (
        await service.moves.click(Click(game_id, "play", 1, ("5H",)), AL, guild_id=None),
        await service.moves.click(
            Click(game_id, "discard", 1, tuple(["5H", "6H"])), AL, guild_id=None
        ),
        await service.moves.click(Click(game_id, "count", 1, ("3",)), AL, guild_id=None),
        await service.moves.click(Click(game_id, "muggins", 1), AL, guild_id=None),
        await service.lobbies.click(game_id, "join", AL, guild_id=GUILD),
    ):
        assert not outcome.ok and outcome.reply.text == "I can't find that game."
    # What the pages, the Activity and a rematch look a game up by: no game, nothing read.
    assert await service.games.record(game_id) is None


async def test_a_click_from_another_server_is_refused(store: Store, clock: Clock) -> None:
    members = Members()
    service = _service(store, clock, members)
    _table, game_id, prompt = await _dealt(service)
    before = await state(store, game_id)
    click = first_choice(prompt)
    # A moderator there could otherwise cancel this server's game.
    for outcome in (
        await service.lobbies.click(game_id, "cancel", CY, guild_id=OTHER_GUILD, moderator=True),
        await service.moves.click(click, AL, guild_id=OTHER_GUILD),
    ):
        assert not outcome.ok and "another server" in outcome.reply.text
    assert await state(store, game_id) == before
    # The same click from the game's own server, or by DM, is taken.
    assert (await service.moves.click(click, AL, guild_id=GUILD)).ok


async def test_a_dm_click_from_someone_not_seated_is_refused(store: Store, clock: Clock) -> None:
    service = _service(store, clock, Members())
    _, game_id, prompt = await _dealt(service)
    before = await state(store, game_id)
    click = first_choice(prompt)
    for outcome in (
        await service.moves.click(click, EVE, guild_id=None),
        await service.lobbies.click(game_id, "join", EVE, guild_id=None),
    ):
        assert not outcome.ok and "not playing" in outcome.reply.text
    assert await state(store, game_id) == before


async def test_a_player_who_left_cannot_move_by_dm(store: Store, clock: Clock) -> None:
    members = Members()
    service = _service(store, clock, members)
    table, game_id, prompt = await _dealt(service)
    members.gone.add(AL.id)
    before = await state(store, game_id)
    refused = await _discard(service, prompt)
    assert not refused.ok and "no longer a member" in refused.reply.text
    assert (GUILD, AL.id) in members.asked
    assert await state(store, game_id) == before
    # The table is told, once, how the game can end: the change feed says its messages changed.
    assert game_id in table.changed
    await table.settle(game_id)
    notices = [t for t in table.channel(game_id) if "no longer a member" in t]
    assert notices == [
        "**Al** is no longer a member of this server, so this game can't go on. A moderator"
        " can end it with `/cribbage cancel` (no result is recorded)."
    ]
    assert not (await _discard(service, prompt)).ok
    await table.settle(game_id)
    assert len([t for t in table.channel(game_id) if "no longer a member" in t]) == 1
    # The way out: a moderator cancels (no result).
    assert (await service.lobbies.cancel(CHANNEL, CY, moderator=True)).ok
    assert await store.results(game_id) == []


async def test_a_player_who_left_silently_is_found_when_the_table_waits(
    store: Store, clock: Clock
) -> None:
    members = Members()
    service = _service(store, clock, members)
    table, game_id, _prompt = await _dealt(service)
    bea_moved = await _discard(service, table.latest[BEA.id], BEA)
    assert (await table.record(BEA.id, bea_moved)).ok
    members.gone.add(AL.id)
    asked = len(members.asked)
    await table.settle(game_id)
    assert len(members.asked) == asked, "nobody is asked about until a reminder falls due"
    clock.advance(minutes=5)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    keys = [o.key for o in owing.owed if o.due(owing.sent.get(o.key))]
    assert MessageKey.of(LEFT, 0) in keys and not [k for k in keys if k.name == REMIND]
    await table.settle(game_id)
    assert any("**Al** is no longer a member" in t for t in table.channel(game_id))
    assert not [t for t in table.private.get(AL.id, []) if "your turn" in t.lower()]


async def test_a_player_who_comes_back_plays_on(store: Store, clock: Clock) -> None:
    members = Members()
    service = _service(store, clock, members)
    _table, _game_id, prompt = await _dealt(service)
    members.gone.add(AL.id)
    assert not (await _discard(service, prompt)).ok
    members.gone.clear()
    back = await _discard(service, prompt)
    assert back.ok, back.reply.text
