"""Every deal's final table, however far the game went on before it could be sent (issue 67,
item 1): the version each deal was dealt at is kept for every deal; a table the deal log
dropped is owed until it shows its final look, drawn again from the game told again; a private
table shows the deals its last look missed, a few at a time."""

from __future__ import annotations

import dataclasses
import json

from bot.core.base.delivery import Owed
from bot.core.base.keys import RESULT, MessageKey
from bot.core.base.views import MAX_LAID_OUT_PARTS, MessageRecord, laid_out
from bot.core.games.deal_log import DealLog
from bot.core.messages.finals import behind, told_again, unseen
from bot.core.messages.private_table import shown_through
from bot.core.messages.projection import final_tables
from bot.core.services import Services
from engine.events import Dealt
from tests.helpers.cast import AL, BEA, CHANNEL
from tests.helpers.service_driver import drive, game_owner, open_table


def test_the_version_each_deal_was_dealt_at_is_kept_for_every_deal() -> None:
    log = DealLog.start(2)
    for deal in range(1, 7):
        log.add([Dealt(deal % 2, deal, 6, False)], version=10 * deal)
    assert sorted(log.deals) == [4, 5, 6], "the events of three deals"
    assert log.began == {d: 10 * d for d in range(1, 7)}, "the versions of all"
    assert DealLog.from_dict(json.loads(json.dumps(log.to_dict()))).began == log.began
    # A log saved before the versions were kept reads with none: nothing is taken as behind.
    older = log.to_dict()
    del older["began"]
    assert DealLog.from_dict(older).began == {}
    assert behind(DealLog.from_dict(older), {}) == []


async def test_a_dropped_deal_is_owed_its_final_table_drawn_from_the_game_told_again(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, [AL, BEA])
    record = await service.games.store.get_game(game_id)
    assert record is not None
    loaded = service.games.loaded.load(record)
    dropped = [d for d in range(1, min(d for d in loaded.log.deals if d >= 1))]
    assert len(dropped) >= 2, "a game long enough for its log to drop deals"

    # Told again, each dropped deal's table is what was sent as its last look, to the letter.
    told = await told_again(loaded)
    assert told is not None and sorted(told.deals)[0] == 0 and told.events(1)
    for owed in final_tables(record, loaded, told, dropped):
        assert owed.view == table.messages[(game_id, str(owed.key))].view, owed.key
    assert all(o.key != RESULT for o in final_tables(record, loaded, told, dropped))

    # Each was sent from its next deal on: none is behind. One never sent, or last drawn
    # before its next deal was dealt, is.
    sent = await service.ledger.shown.kept(game_owner(game_id))
    assert behind(loaded.log, sent) == []
    first, second = dropped[:2]
    missing = {k: r for k, r in sent.items() if k != MessageKey.table(first)}
    assert behind(loaded.log, missing) == [first]
    early = dataclasses.replace(
        sent[MessageKey.table(second)], version=loaded.log.began[second + 1] - 1
    )
    assert behind(loaded.log, {**sent, MessageKey.table(second): early}) == [second]

    # Deleted from the channel (as a never sent one), the ledger owes it in its deal's place,
    # then nothing once it shows it.
    key = MessageKey.table(second)
    await service.ledger.shown.gone(game_owner(game_id), key)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    due = [o for o in owing.owed if o.due(owing.sent.get(o.key))]
    assert [o.key for o in due] == [key]
    tables = [o.key.deal or 0 for o in owing.owed if o.key.name == "table"]
    assert tables == sorted(tables), "each table in its deal's place"
    final = dataclasses.replace(early, message_id=99, digest=due[0].view.digest())
    final = dataclasses.replace(final, version=owing.version)
    await service.ledger.shown.sent(game_owner(game_id), [final])
    again = await service.ledger.owed(game_owner(game_id))
    assert again is not None and not [o for o in again.owed if o.due(again.sent.get(o.key))]
    assert owing.channel_id == CHANNEL


def _deal(number: int, lines: int) -> Owed:
    """A deal's table of ``lines`` long lines."""
    text = "\n".join(f"Deal {number}, call {n}: " + "x" * 60 for n in range(lines))
    return Owed(MessageKey.table(number), laid_out(((f"**Deal {number}** —",), (text,))))


def test_a_private_table_shows_the_deals_its_last_look_missed_a_few_at_a_time() -> None:
    settled = [_deal(n, 25) for n in range(1, 8)]
    # Playing deal 7, the look shown drawn in deal 2: deals 2 to 6 missed, two fit a look.
    log = DealLog(began={2: 5, 3: 9, 4: 13, 5: 17, 6: 21, 7: 25})
    shown = MessageRecord(MessageKey.table(0), 1, 1, "digest", version=6)
    earlier = unseen(log, 7, shown)
    assert earlier == [2, 3, 4, 5, 6]
    through = shown_through(settled, earlier)
    assert 2 <= through < 6, "some of them, oldest first, each whole"
    assert shown_through(settled, range(through + 1, 7)) > through, "the next look goes on"
    # Drawn in the current deal, the look missed nothing: the deal before's show alone.
    assert unseen(log, 7, dataclasses.replace(shown, version=26)) == []
    assert shown_through(settled, []) == 6


def test_a_private_tables_look_keeps_within_discords_components() -> None:
    """Each deal's table laid out is some components (a container or a separator a group, a
    text display a text): a look shows as many of the deals missed as fit in Discord's 40 with
    the current deal, its board, its controls and its call, the rest in the looks after."""
    groups = tuple((f"**Deal {n}** — line {g}",) for n in range(1) for g in range(5))
    settled = [
        Owed(
            MessageKey.table(n),
            laid_out(tuple((f"Deal {n}: {t}",) for (t,) in groups), framed=True),
        )
        for n in range(1, 8)
    ]
    through = shown_through(settled, range(2, 7))
    assert through == 3, "two deals of ten components each, beside the current deal's ten"
    assert MAX_LAID_OUT_PARTS - 10 - 3 * 10 >= 0
