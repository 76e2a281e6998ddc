"""How a game's end reads in the messages it leaves: the deal's table message and each
player's hand message say how the game ended, whether by a resignation or by pegging out."""

from __future__ import annotations

from bot.core.services import Services
from tests.helpers.service_driver import AL, BEA, CHANNEL, drive, open_table


async def test_a_resignation_is_said_on_the_table_and_in_every_hand_message(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    await table.record(BEA.id, await service.moves.resign(CHANNEL, BEA))
    deal = table.table(game_id, 1)
    # Not the deal's header alone: the table says the game ended there, and how.
    assert "Bea resigned" in deal and "Al wins" in deal
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None and hand.controls is None
        assert "Bea resigned" in hand.content and "Al wins" in hand.content


async def test_a_game_won_by_pegging_out_says_the_result_in_the_last_hand_message(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, [AL, BEA])
    result = table.messages[(game_id, "result")].view.content
    winner = result.split("🏆 ", 1)[1].split(" wins", 1)[0]
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None
        assert f"{winner} wins" in hand.content, hand.content
