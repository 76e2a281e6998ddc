"""Choosing partners in a lobby of teams: once the table is full its creator can press
Change partners, which seats each of the three pairings opposite in turn at four (not join
order), and another way to make the teams at six."""

from __future__ import annotations

import pytest

from bot.core.base.replies import TableAsked
from bot.core.base.views import LobbyControls
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import FLO
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    DEE,
    EVE,
    GUILD,
    Transcript,
    load,
    state,
)


async def _full_lobby(service: Services) -> tuple[Transcript, int]:
    table = Transcript(service)
    await table.record(
        AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=4))
    )
    game_id = table.outcomes[0].game_id or 0
    for user in (BEA, CY, DEE):
        await table.record(user.id, await service.lobbies.join(CHANNEL, user))
    return table, game_id


async def test_the_creator_changes_partners_and_the_game_deals_them_opposite(
    store: Store, service: Services
) -> None:
    table, game_id = await _full_lobby(service)
    lobby = table.messages[(game_id, "lobby")].view
    buttons = lobby.controls_of(LobbyControls)
    assert buttons is not None and "partners" in buttons.buttons
    assert "Partners: Al & Cy against Bea & Dee" in lobby.content
    # Someone else may not; nothing changes.
    before = await state(store, game_id)
    refused = await service.lobbies.click(game_id, "partners", BEA, guild_id=GUILD)
    assert not refused.ok and "opened this game" in refused.reply.text
    assert await state(store, game_id) == before
    changed = await table.record(
        AL.id, await service.lobbies.click(game_id, "partners", AL, guild_id=GUILD)
    )
    assert changed.ok and changed.update is not None
    assert "Partners: Al & Dee against Cy & Bea" in changed.update.content
    again = await table.record(
        AL.id, await service.lobbies.click(game_id, "partners", AL, guild_id=GUILD)
    )
    assert (
        again.update is not None and "Partners: Al & Bea against Dee & Cy" in again.update.content
    )
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game = await load(store, game_id)
    assert game.state.players == ("Al", "Dee", "Bea", "Cy")
    assert game.side_of(0) == game.side_of(2)  # Al and Bea are partners


async def test_partners_can_change_only_with_the_table_full(service: Services) -> None:
    table = Transcript(service)
    await table.record(
        AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=4))
    )
    game_id = table.outcomes[0].game_id or 0
    lobby = table.messages[(game_id, "lobby")].view
    buttons = lobby.controls_of(LobbyControls)
    assert buttons is not None and "partners" not in buttons.buttons
    refused = await service.lobbies.click(game_id, "partners", AL, guild_id=GUILD)
    assert not refused.ok and "once every seat is taken" in refused.reply.text


@pytest.mark.parametrize(
    ("variant", "before", "after"),
    [
        (
            "six_hand",
            "Al & Cy & Eve against Bea & Dee & Flo",
            "Al & Dee & Flo against Cy & Eve & Bea",
        ),
        (
            "six_hand_pairs",
            "Al & Dee against Bea & Eve against Cy & Flo",
            "Al & Eve against Cy & Flo against Dee & Bea",
        ),
    ],
    ids=["teams_of_three", "three_teams_of_two"],
)
async def test_six_change_partners_by_name_and_the_game_deals_the_new_teams(
    store: Store, service: Services, variant: str, before: str, after: str
) -> None:
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(players=6, variant=variant)
    )
    await table.record(AL.id, opened)
    game_id = table.outcomes[0].game_id or 0
    for user in (BEA, CY, DEE, EVE, FLO):
        await table.record(user.id, await service.lobbies.join(CHANNEL, user))
    assert f"Partners: {before}." in table.messages[(game_id, "lobby")].view.content
    changed = await table.record(
        AL.id, await service.lobbies.click(game_id, "partners", AL, guild_id=GUILD)
    )
    assert changed.ok and changed.reply.text.startswith(f"Partners now: {after}.")
    assert changed.update is not None and f"Partners: {after}." in changed.update.content
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game = await load(store, game_id)
    assert game.state.players == ("Al", "Cy", "Dee", "Eve", "Flo", "Bea")
    teams = {frozenset(game.state.players[s] for s in side) for side in game.state.rules.sides}
    assert teams == {frozenset(team.split(" & ")) for team in after.split(" against ")}
