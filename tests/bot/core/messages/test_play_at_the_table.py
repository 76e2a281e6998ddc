"""*Play at the table* (issue 36): while the Activity is on, the lobby and the live deal's
table offer it (a private table beside *Your hand*); once the deal or the game is over, or
with the Activity off, nothing does."""

from __future__ import annotations

from bot.core.base.delivery import Owed
from bot.core.base.keys import TABLE_OF_DEAL
from bot.core.base.replies import TableAsked, User
from bot.core.base.views import LobbyControls
from bot.store import Store
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    GUILD,
    Clock,
    drive,
    make_service,
    open_table,
    owed_now,
)


def _buttons(owed: tuple[Owed, ...], key: str) -> tuple[str, ...]:
    found = next(o for o in owed if str(o.key) == key)
    controls = found.view.controls_of(LobbyControls)
    return () if controls is None else tuple(controls.buttons)


async def test_the_lobby_and_the_live_table_open_the_activity(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, activity=True)
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2, target=61))
    assert opened.reply.view is not None
    answered = opened.reply.view.controls_of(LobbyControls)
    assert answered is not None and "table" in answered.buttons
    assert "table" in _buttons(await owed_now(service, opened.game_id), "lobby")
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.start(CHANNEL, AL)
    owed = await owed_now(service, opened.game_id)
    assert _buttons(owed, "lobby") == () and _buttons(owed, "table:1") == ("table",)
    table = await open_table(service, [User(AL.id + 100, "Cy"), BEA], channel=CHANNEL + 1)
    game = table.outcomes[0].game_id
    await drive(service, table, [User(AL.id + 100, "Cy"), BEA])
    over = await owed_now(service, game)
    assert all(_buttons(over, str(o.key)) == () for o in over if o.key.name == TABLE_OF_DEAL)


async def test_a_private_table_offers_it_beside_your_hand(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, activity=True)
    opened = await service.lobbies.new_game(
        None, CHANNEL, AL, TableAsked(players=2, target=61), token="t", private=True
    )
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.start(CHANNEL, AL)
    buttons = _buttons(await owed_now(service, opened.game_id), "lobby")
    assert buttons == ("hand", "resign", "table")


async def test_with_the_activity_off_nothing_offers_it(store: Store, clock: Clock) -> None:
    service = make_service(store, clock)
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=2, target=61))
    assert "table" not in _buttons(await owed_now(service, opened.game_id), "lobby")
    await service.lobbies.join(CHANNEL, BEA)
    await service.lobbies.start(CHANNEL, AL)
    assert _buttons(await owed_now(service, opened.game_id), "table:1") == ()
