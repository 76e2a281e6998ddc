"""How a game's end reads in the messages it leaves: the deal's table message and each
player's hand message say how the game ended, whether by a resignation or by pegging out; and
one vocabulary of endings (:mod:`bot.core.games.endings`), the same on every surface."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest

from bot.core.base.replies import TableAsked
from bot.core.base.text import Names
from bot.core.base.views import MAX_LAID_OUT, MAX_MESSAGE
from bot.core.games.endings import Ended, Ending, cancelled_note, expired_note, said
from bot.core.messages.spectator import table_seen
from bot.core.messages.table import result_line
from bot.core.review.replay import replay
from bot.core.services import Services
from bot.store import Store
from engine.outcome import EndReason, GameResult, ResultKind
from engine.rules import Rules
from tests.helpers.activity_states import activity_state
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    GUILD,
    PLAYERS,
    Clock,
    Transcript,
    drive,
    finished_game,
    make_service,
    open_table,
)


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
        assert hand is not None and hand.hand is None
        assert "Bea resigned" in hand.content and "Al wins" in hand.content


async def test_a_game_won_by_pegging_out_says_the_result_in_the_last_hand_message(
    service: Services,
) -> None:
    table, game_id = await finished_game(service)
    result = table.messages[(game_id, "result")].view.content
    winner = result.split("🏆 ", 1)[1].split(" wins", 1)[0]
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None
        assert f"{winner} wins" in hand.content, hand.content


async def test_a_long_manual_show_stays_in_its_deal_s_one_table_message(
    store: Store, clock: Clock
) -> None:
    # Four players counting by hand, every hand claimed as nothing and mugginsed: the longest
    # deals there are. Each deal keeps one table message, which never hands its show over to
    # another (the show's lines do not jump to a new message part-way through).
    service = make_service(store, clock, seed=3)
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(players=4, counting="manual")
    )
    await table.record(AL.id, opened)
    for user in PLAYERS[1:]:
        await table.record(user.id, await service.lobbies.join(CHANNEL, user))
    await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, PLAYERS)
    tables = {k: s for (g, k), s in table.messages.items() if g == game_id}
    assert not [k for k in tables if k.startswith("show:")]
    first = tables["table:1"]
    for view in first.views:
        assert view.layout and sum(len(t) for g in view.layout for t in g) <= MAX_LAID_OUT
    # Deal 1 (the cut for deal, sixteen cards played, five hands claimed and mugginsed) is
    # too long for a plain message; laid out (4,000 characters), it is said whole.
    assert "Muggins!" in first.view.content and "Scores —" in first.view.content
    assert len(first.view.content) > MAX_MESSAGE and "left out" not in first.view.content


# -- one vocabulary of endings (issue 54, items 5 and 6) ---------------------------------------


def test_each_ending_that_names_a_player_says_it_in_its_own_words() -> None:
    assert [said(e, "Bea") for e in Ending if e.conceded] == [
        "Bea resigned",
        "Bea's clock ran out",
        "Bea left the match",
        "Bea's data was deleted",
    ]
    assert said(Ending.CANCELLED, "Al") == "Al cancelled the game"
    assert cancelled_note("Al") == "Al cancelled the game. No result is recorded."
    with pytest.raises(ValueError):
        said(Ending.PLAYED, "Al")
    names = Names(["Al", "Bea"], Rules.standard(2))
    result = GameResult(0, (15, 5), 2, EndReason.RESIGNED, ResultKind.LURCH)
    for ending in (e for e in Ending if e.conceded):
        line = result_line(names, result, Ended(ending, 1))
        assert (
            line == f"{said(ending, 'Bea')} — 🏆 Al wins, a lurch, 2 game points (Al: 15, Bea: 5)"
        )


@pytest.mark.parametrize("ending", [e for e in Ending if e.conceded and e is not Ending.RESIGNED])
async def test_a_game_conceded_otherwise_than_by_resigning_says_so_everywhere(
    service: Services, ending: Ending
) -> None:
    # The game is kept as ended this way (with its result, in one place), and the table, the
    # result, each hand, /cribbage status, the game's page, its replay and the Activity all
    # say it in the same words: never "resigned".
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    await table.record(BEA.id, await service.moves.resign(CHANNEL, BEA, ending))
    record = await service.games.record(game_id)
    assert record is not None and record.ending is ending
    loaded = service.games.loaded.load(record)
    line = f"{said(ending, 'Bea')} — 🏆 Al wins"
    said_on = {
        "table": table.table(game_id, 1),
        "result": table.messages[(game_id, "result")].view.content,
        "status": (await service.table.status(CHANNEL)).reply.text,
        "page": "\n".join(m.content for m in table_seen(record, loaded).messages),
    }
    for user in (AL, BEA):
        hand = table.hand(game_id, user.id)
        assert hand is not None
        said_on[f"hand of {user.name}"] = hand.content
    told = replay(loaded)
    assert told is not None
    said_on["replay"] = told.steps[-1].text
    state = activity_state(record, loaded, AL.id)
    said_on["Activity"] = html.unescape(state["result"]["html"])
    for where, text in said_on.items():
        assert line in text and "resigned" not in text, (where, text)


async def test_a_game_ended_with_no_result_is_said_by_status_as_its_table_was_told(
    service: Services, clock: Clock
) -> None:
    # Where the last game was cancelled or nobody moved in it, a move or /cribbage hand there
    # says it is over and that /cribbage status shows how it ended: status shows it, in the
    # words the table was told (it said "There's no game in this channel", in a DM or group
    # DM too, where the others name "this conversation").
    assert (await service.lobbies.new_game(GUILD, CHANNEL, AL)).ok
    assert (await service.lobbies.cancel(CHANNEL, AL)).ok
    status = await service.table.status(CHANNEL)
    assert status.ok and status.reply.ephemeral, status.reply.text
    assert cancelled_note("Al") in status.reply.text
    assert "`/cribbage new`" in status.reply.text
    await open_table(service, [AL, BEA])
    clock.advance(days=8)
    assert await service.housekeeping.expire_idle()
    shown = await service.table.status(CHANNEL, public=True)
    assert shown.ok and not shown.reply.ephemeral
    assert expired_note(timedelta(days=7)) in shown.reply.text, shown.reply.text
