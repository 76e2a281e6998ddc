"""An interaction at a private table that moves nothing keeps its token to carry the table, and
has the table sent again (its own token may have lapsed without the bot knowing); one at
another table, in another channel, or on the table itself changes nothing of the kind. A game
over is brought back so (it expired, say, where no token reached it), once: while its table
was last sent before its end, and not once it shows it."""

from __future__ import annotations

from bot.core.base.keys import VIA
from bot.core.base.owners import Owner
from bot.core.base.places import Place, Spot
from bot.core.base.replies import Clicked
from bot.core.base.views import MessageRecord
from bot.core.messages.private_table import TABLE
from bot.core.services import Services
from tests.helpers.cast import AL, BEA
from tests.helpers.service_driver import Clock, game_owner

DM = 4343
SERVER, GENERAL = 1, 10


async def _shown_table(service: Services) -> Owner:
    """A private game of Al and Bea, dealt, whose table was last sent as it should look now
    through the token ``table``."""
    opened = await service.lobbies.new_game(None, DM, AL, token="new", private=True)
    assert opened.game_id is not None
    await service.sequels.answered(opened, landed=True, shown=Clicked(DM, 900, "new"))
    await service.lobbies.click(opened.game_id, "join", BEA, guild_id=None)
    await service.lobbies.click(opened.game_id, "start", AL, guild_id=None)
    owner = game_owner(opened.game_id)
    await _table_sent(service, owner, 900, "table", original=True)
    assert not await _table_due(service, owner)
    return owner


async def _table_sent(
    service: Services, owner: Owner, message_id: int, token: str, *, original: bool
) -> None:
    """The private table was sent as it should look now, as message ``message_id`` through
    ``token`` (its ``original`` response, or a follow-up of it)."""
    owing = await service.ledger.owed(owner)
    assert owing is not None
    [table] = [o for o in owing.owed if o.key == TABLE]
    now = service.games.now()
    shown = MessageRecord(
        TABLE, DM, message_id, table.view.digest(), token, now, original, owing.version
    )
    await service.ledger.shown.sent(owner, [shown])


async def _table_due(service: Services, owner: Owner) -> bool:
    owing = await service.ledger.owed(owner)
    assert owing is not None
    [table] = [o for o in owing.owed if o.key == TABLE]
    return table.due(owing.sent.get(TABLE))


async def test_a_refusal_at_the_table_keeps_its_token_and_sends_the_table_again(
    service: Services,
) -> None:
    owner = await _shown_table(service)
    resume = service.resume
    assert await service.which.carried(Place(Spot.PRIVATE, DM), AL.id) == owner
    await resume.answered(owner, Clicked(DM, 950, "refused"), moved=False)
    kept = await service.ledger.shown.kept(owner)
    assert kept[VIA].token == "refused" and kept[VIA].message_id == 950
    assert await _table_due(service, owner), "sent again: an edit while its token lives"


async def test_a_move_keeps_its_token_and_leaves_the_table_to_its_change(
    service: Services,
) -> None:
    owner = await _shown_table(service)
    resume = service.resume
    await resume.answered(owner, Clicked(DM, 951, "moved"), moved=True)
    assert (await service.ledger.shown.kept(owner))[VIA].token == "moved"
    assert not await _table_due(service, owner)


async def test_nothing_is_kept_from_another_channel_nor_of_the_tables_own_token(
    service: Services,
) -> None:
    owner = await _shown_table(service)
    resume = service.resume
    await resume.answered(owner, Clicked(DM + 1, 952, "elsewhere"), moved=False)
    assert VIA not in await service.ledger.shown.kept(owner)
    assert not await _table_due(service, owner)
    # A click whose answer was the table itself (Your hand on it): its token reaches it.
    await resume.answered(owner, Clicked(DM, 900, "table"), moved=False)
    assert not await _table_due(service, owner)


async def test_no_private_game_where_the_bot_keeps_its_own_messages(service: Services) -> None:
    assert await service.which.carried(Place(Spot.PRIVATE, DM), AL.id) is None
    opened = await service.lobbies.new_game(SERVER, GENERAL, AL)
    assert opened.ok and opened.game_id is not None
    here = Place(Spot.CHANNEL, GENERAL, SERVER)
    assert await service.which.carried(here, AL.id) is None


async def test_a_game_that_expired_unseen_is_brought_back_once(
    service: Services, clock: Clock
) -> None:
    owner = await _shown_table(service)
    clock.advance(days=8)
    assert await service.housekeeping.expire_idle() == [owner.id]
    # The table was last sent before the game ended, which no interaction there carried.
    assert await service.which.carried(Place(Spot.PRIVATE, DM), AL.id) == owner
    await service.resume.answered(owner, Clicked(DM, 960, "after"), moved=False)
    kept = await service.ledger.shown.kept(owner)
    assert kept[VIA].token == "after"
    assert await _table_due(service, owner)
    # Once it shows the end, a later interaction keeps nothing of the kind.
    await _table_sent(service, owner, 961, "after", original=False)
    await service.ledger.writes.flush()  # (what the store says the table shows)
    await service.resume.answered(owner, Clicked(DM, 962, "later"), moved=False)
    assert (await service.ledger.shown.kept(owner))[VIA].token == "after"


async def test_a_game_over_is_brought_back_only_while_its_table_shows_a_moment_before_its_end(
    service: Services,
) -> None:
    # Resigned where no token reached the table (its result was never sent): the next
    # interaction there carries it. Once the table shows the end, nothing more is kept.
    owner = await _shown_table(service)
    assert (await service.moves.resign(DM, BEA)).ok
    await service.resume.answered(owner, Clicked(DM, 970, "after"), moved=False)
    assert (await service.ledger.shown.kept(owner))[VIA].token == "after"
    await _table_sent(service, owner, 971, "after", original=False)
    await service.ledger.writes.flush()
    await service.resume.answered(owner, Clicked(DM, 972, "later"), moved=False)
    assert (await service.ledger.shown.kept(owner))[VIA].token == "after"
