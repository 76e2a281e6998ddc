"""The messages a game owns, drawn from the stored game: which there are, what each shows, which
are posted once, and when a reminder falls due."""

from __future__ import annotations

import contextlib
import re
from datetime import timedelta

from bot.core.base.delivery import Owed
from bot.core.base.keys import MessageKey
from bot.core.base.replies import Answer, Clicked, TableAsked, User
from bot.core.base.views import BoardPicture
from bot.core.messages.projection import noticed
from bot.core.messages.table import LEFT_OUT
from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    drive,
    finished_game,
    first_choice,
    game_owner,
    load,
    make_service,
    open_table,
    owed_now,
)


def keys(owed: tuple[Owed, ...]) -> list[str]:
    """The keys of ``owed``, as text."""
    return [str(o.key) for o in owed]


async def test_a_dealt_game_owes_its_lobby_table_and_a_hand_per_person(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    owed = await owed_now(service, game_id)
    assert keys(owed) == ["lobby", "table:1", "hand:1:0", "hand:1:1"]
    hands = {o.user_id: o for o in owed if str(o.key).startswith("hand:")}
    assert set(hands) == {AL.id, BEA.id}
    assert all(not o.once and o.view.hand is not None for o in hands.values())
    # Nothing is owed twice: once sent, a message is due again only when it changes.
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None and not [o for o in owing.owed if o.due(owing.sent.get(o.key))]


async def test_a_move_changes_only_what_it_shows(service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    prompt = table.latest[AL.id]
    click = first_choice(prompt)
    outcome = await service.moves.click(click, AL, guild_id=None)
    assert outcome.sequel is not None and str(outcome.sequel.key) == "hand:1:0"
    assert outcome.update is not None
    hand = table.messages[(game_id, "hand:1:0")]
    await service.sequels.answered(
        outcome, landed=True, shown=Clicked(CHANNEL, hand.message_id, "t")
    )
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    due = [str(o.key) for o in owing.owed if o.due(owing.sent.get(o.key))]
    # Al's hand was answered by the click itself; the table says who is still waited for.
    assert due == ["table:1"]


async def test_closed_dms_owe_a_notice_once_and_no_hand_but_its_private_copies(
    service: Services,
) -> None:
    table = Transcript(service, dms_closed={BEA.id})
    await table.record(AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL))
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    started = await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    owed = await owed_now(service, started.game_id or 0)
    notice = next(o for o in owed if str(o.key) == "dm-closed:1:1")
    assert notice.once and notice.user_id is None and notice.view.mentions == (BEA.id,)
    # No DM: the hand is owed to the answers that show it (/cribbage hand) alone.
    hand = next(o for o in owed if str(o.key) == "hand:1:1")
    assert hand.mirrors_only


def _dm_notices(table: Transcript, game_id: int) -> list[str]:
    return [m for m in table.channel(game_id) if "I can't send you direct messages" in m]


async def _move(store: Store, service: Services, table: Transcript, game_id: int) -> None:
    """One move, for the first player the table waits on (from the hand they are owed, DM or
    not: what ``/cribbage hand`` shows them)."""
    users = {AL.id: AL, BEA.id: BEA, CY.id: CY}
    game = await load(store, game_id)
    assert game.state.result is None
    owed = {str(o.key): o for o in await owed_now(service, game_id)}
    for seat, user_id in enumerate((AL.id, BEA.id, CY.id)):
        controls = owed[f"hand:{game.state.deal_number}:{seat}"].view.hand
        if controls is not None:
            user = users[user_id]
            await table.record(
                user.id, await service.moves.click(first_choice(controls), user, guild_id=None)
            )
            return
    raise AssertionError("no one to move")


async def _three(service: Services, closed: set[int]) -> tuple[Transcript, int]:
    """A game of Al, Bea and Cy, dealt, the DMs of ``closed`` closed."""
    table = Transcript(service, dms_closed=closed)
    await table.record(
        AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(players=3))
    )
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    await table.record(CY.id, await service.lobbies.join(CHANNEL, CY))
    started = await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    return table, started.game_id or 0


async def _play_to(
    store: Store, service: Services, table: Transcript, game_id: int, deal: int
) -> None:
    while (await load(store, game_id)).state.deal_number < deal:
        await _move(store, service, table, game_id)


async def test_closed_dms_are_tried_once_a_game_and_told_in_one_notice_a_deal(
    store: Store, service: Services
) -> None:
    table, game_id = await _three(service, {BEA.id, CY.id})
    # Deal 1: one DM tried to each, refused; one notice names both (one post, both pinged).
    assert table.refused == ["hand:1:1", "hand:1:2"]
    both = (
        f"<@{BEA.id}> and <@{CY.id}>, I can't send you direct messages, so for the rest of "
        "this game use `/cribbage hand` here to see your cards and play. Allow direct messages "
        "from this server's members to get your hands by DM from your next game."
    )
    assert _dm_notices(table, game_id) == [both]
    assert table.messages[(game_id, "dm-closed:1:1:2")].view.mentions == (BEA.id, CY.id)
    # Deal 2: no DM tried to either, and again one notice for both.
    await _play_to(store, service, table, game_id, 2)
    assert table.refused == ["hand:1:1", "hand:1:2"], "no DM tried again in the game"
    assert _dm_notices(table, game_id) == [both, both]
    assert (game_id, "dm-closed:2:1:2") in table.messages
    assert table.hand(game_id, AL.id) is not None, "Al's DMs go on"


async def test_dms_closed_during_a_game_get_a_notice_of_their_own_then_the_deals(
    store: Store, service: Services
) -> None:
    table, game_id = await _three(service, {BEA.id})
    assert table.refused == ["hand:1:1"]
    notices = _dm_notices(table, game_id)
    assert len(notices) == 1 and notices[0].startswith(f"<@{BEA.id}>, I can't send you")
    # Cy closes his DMs: his next hand's DM is refused after the deal's notice to Bea went, so
    # he is told on his own (a mention added to a notice already posted would ping no one).
    table.dms_closed.add(CY.id)
    await _play_to(store, service, table, game_id, 2)
    assert table.refused == ["hand:1:1", "hand:2:2"]
    assert [k for (g, k) in table.messages if k.startswith("dm-closed:")] == [
        "dm-closed:1:1",
        "dm-closed:2:1",
        "dm-closed:2:2",
    ]
    assert table.messages[(game_id, "dm-closed:2:2")].view.mentions == (CY.id,)
    # The deal after: no DM tried to either, one notice names both.
    await _play_to(store, service, table, game_id, 3)
    assert table.refused == ["hand:1:1", "hand:2:2"]
    assert table.messages[(game_id, "dm-closed:3:1:2")].view.mentions == (BEA.id, CY.id)
    assert len(_dm_notices(table, game_id)) == 4


def test_a_notice_stored_before_notices_named_several_reads_as_its_one_seat() -> None:
    # A game under way across the upgrade: its deal's notice (one seat) is not posted again.
    sent = [MessageKey.parse(k) for k in ("dm-closed:3:1", "dm-closed:3:0:2", "dm-closed:2:4")]
    assert noticed(sent, 3) == ((0, 2), (1,))
    assert noticed(sent, 4) == ()


async def test_a_reminder_falls_due_once_per_turn(clock: Clock, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None and owing.check_at is not None
    assert not any(str(o.key).startswith("remind:") for o in owing.owed)
    clock.advance(seconds=61)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None and owing.check_at is None
    reminders = [o for o in owing.owed if str(o.key).startswith("remind:")]
    assert {o.user_id for o in reminders} == {AL.id, BEA.id}
    assert all("waiting for your 2 cards" in o.view.content for o in reminders)
    # One reminder message a deal for each player: a later turn of the deal edits it.
    assert {str(o.key) for o in reminders} == {"remind:1:0", "remind:1:1"}
    assert not any(o.once for o in reminders)


async def test_a_reminder_whose_turn_is_over_says_so_and_none_is_posted_for_it(
    clock: Clock, service: Services
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    clock.advance(seconds=61)
    await table.settle(game_id)
    assert {k for (_, k) in table.messages if k.startswith("remind:")} == {
        "remind:1:0",
        "remind:1:1",
    }
    # Al throws his cards: his reminder is brought up to date (edited, not posted again);
    # Bea's still stands.
    reminded = {k: s for (_, k), s in table.messages.items() if k.startswith("remind:")}
    await table.record(
        AL.id, await service.moves.click(first_choice(table.latest[AL.id]), AL, guild_id=None)
    )
    await table.settle(game_id)
    now = {k: s for (_, k), s in table.messages.items() if k.startswith("remind:")}
    assert now["remind:1:0"].message_id == reminded["remind:1:0"].message_id
    assert now["remind:1:0"].view.content.endswith("done, the table has moved on.")
    assert "waiting for your 2 cards" in now["remind:1:1"].view.content


async def test_no_reminder_is_posted_only_to_say_its_turn_is_over(service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    await table.record(
        AL.id, await service.moves.click(first_choice(table.latest[AL.id]), AL, guild_id=None)
    )
    await table.settle(game_id)
    assert not [k for (_, k) in table.messages if k.startswith("remind:")]


async def test_the_wait_before_a_reminder_is_a_setting(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, remind_after=timedelta(seconds=5))
    table = await open_table(service, [AL, BEA])
    owing = await service.ledger.owed(game_owner(table.outcomes[0].game_id or 0))
    assert owing is not None and owing.check_at == clock.now.timestamp() + 5


async def test_a_finished_game_owes_the_result_and_closes_every_hand(
    store: Store, service: Services
) -> None:
    _, game_id = await finished_game(service)
    owed = await owed_now(service, game_id)
    result = next(o for o in owed if str(o.key) == "result")
    assert result.view.content.startswith("🏆") and result.view.board is not None
    assert result.view.board.winner is not None
    hands = [o for o in owed if str(o.key).startswith("hand:")]
    assert hands and all(o.view.hand is None for o in hands)
    # The deals before are closed where they were sent; the last hands offer the rematch,
    # owed whether or not they went out (tests/bot/core/play/test_rematch.py).
    deals = {o.key: int(o.key.parts[0]) for o in hands}
    last = max(deals.values())
    assert all(o.existing for o in hands if deals[o.key] < last)
    finals = [o for o in hands if deals[o.key] == last]
    assert len(finals) == 2 and all(o.view.controls and not o.existing for o in finals)
    # A turn reminder sent meanwhile is brought up to date (never posted): nobody is waited on.
    reminders = [o for o in owed if str(o.key).startswith("remind:")]
    assert reminders and all(o.existing and "moved on" in o.view.content for o in reminders)


async def test_every_shown_deal_keeps_the_board_its_show_left(service: Services) -> None:
    """The table of each deal carries the board once the deal is shown, and keeps that board
    (the pegs after its show) while the next deals move the pegs on."""
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    boards: dict[str, set[BoardPicture]] = {}

    async def check(outcome: Answer, user: User) -> None:
        for o in await owed_now(service, game_id):
            if str(o.key).startswith("table:") and o.view.board is not None:
                boards.setdefault(str(o.key), set()).add(o.view.board)
                scores = re.search(r"Scores — Al: (\d+) · Bea: (\d+)", o.view.content)
                if scores:
                    fronts = tuple(front for front, _ in o.view.board.pegs)
                    assert fronts == tuple(int(n) for n in scores.groups()), o.view.content

    await drive(service, table, [AL, BEA], check=check)
    shown = sorted(int(key.split(":")[1]) for key in boards)
    assert len(shown) >= 4 and shown == list(range(1, shown[-1] + 1))
    assert all(len(drawn) == 1 for drawn in boards.values()), "a deal's board never moves"


async def test_the_end_of_the_game_leaves_the_deal_before_as_it_was(
    service: Services,
) -> None:
    """When the game ends, the messages of the deal before (its table with its scores line,
    each closed hand with its coach's line) are final: nothing about them is drawn anew."""
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    drawn: dict[str, Owed] = {}

    async def check(outcome: Answer, user: User) -> None:
        owed = {str(o.key): o for o in await owed_now(service, game_id)}
        if "result" not in owed:
            drawn.update(owed)

    await drive(service, table, [AL, BEA], check=check)
    final = {str(o.key): o for o in await owed_now(service, game_id)}
    last = max(int(key.split(":")[1]) for key in final if key.startswith("table:"))
    before = f"table:{last - 1}"
    assert "Scores —" in final[before].view.content
    assert final[before].view == drawn[before].view
    for key, owed in final.items():
        if key.startswith(f"hand:{last - 1}:"):
            assert owed.view == drawn[key].view


async def test_every_table_message_fits_in_a_discord_message(store: Store, clock: Clock) -> None:
    """Four players with long names make long deals: a deal keeps its one message, laid out
    (Components V2) within 4,000 characters across its texts, so a deal too long for a plain
    message's 2,000 is said whole (when even 4,000 is too few, the plays that scored nothing
    give way: see test_render); no plain message is ever over 2,000 characters."""
    service = make_service(store, clock, seed=4)
    users = [User(u.id, u.name + " of the Long and Winding Road") for u in (AL, BEA, CY, DEE)]
    table = await open_table(service, users)
    whole = False

    async def check(outcome: object, user: object) -> None:
        nonlocal whole
        for o in await owed_now(service, table.outcomes[0].game_id or 0):
            if o.view.layout:
                assert sum(len(t) for group in o.view.layout for t in group) <= 4000
            else:
                assert len(o.view.content) <= 2000
            assert not str(o.key).startswith("show:")
            long = len(o.view.content) > 2000 and LEFT_OUT not in o.view.content
            whole = whole or (str(o.key).startswith("table:") and long)

    await drive(service, table, users, check=check)
    assert whole, "some four-player deal was too long for a plain message"


async def test_a_cancelled_game_owes_its_note_and_takes_the_controls_away(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    await table.record(CY.id, await service.lobbies.cancel(CHANNEL, CY, moderator=True))
    owed = await owed_now(service, game_id)
    ended = next(o for o in owed if str(o.key) == "ended")
    assert ended.once
    assert ended.view.content == "A moderator cancelled the game. No result is recorded."
    assert table.latest == {}
    assert all(o.view.hand is None for o in owed)
    # The deal's table no longer waits for discards (nor offers Play at the table): it says
    # how the game ended, where it said what it waited for.
    deal = next(o for o in owed if str(o.key) == "table:1")
    words = "\n".join(t for group in deal.view.layout for t in group)
    assert "Waiting for" not in words
    assert words.endswith("A moderator cancelled the game. No result is recorded.")
    assert deal.view.controls is None


class _DealBegun(Exception):
    """The deal waited for has begun (stops the driver there)."""


async def _played_until_deal(service: Services, deal: int) -> int:
    """A game of Al and Bea to 121, played until deal ``deal`` has begun; its id."""
    table = await open_table(service, [AL, BEA], target=121)
    game_id = table.outcomes[0].game_id or 0

    async def check(outcome: Answer, user: User) -> None:
        if f"table:{deal}" in keys(await owed_now(service, game_id)):
            raise _DealBegun

    with contextlib.suppress(_DealBegun):
        await drive(service, table, [AL, BEA], check=check)
    return game_id


async def test_a_game_ended_early_in_a_deal_still_closes_the_deal_before(
    service: Services,
) -> None:
    # A resignation soon after the deal can come before the sender closed the deal before's
    # hand messages: they are still owed their closing; the coach's line on deal 1 stays on
    # deal 2's hand message, its one place.
    game_id = await _played_until_deal(service, 2)
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    owed = {str(o.key): o for o in await owed_now(service, game_id)}
    for seat in (0, 1):
        closed = owed[f"hand:1:{seat}"]
        assert closed.existing and closed.view.hand is None
        assert "deal 1 is over" in closed.view.content and "Coach" not in closed.view.content
        last = owed[f"hand:2:{seat}"]
        assert "Coach, deal 1" in last.view.content and "resigned" in last.view.content


async def test_a_finished_deals_hands_are_owed_their_closing_while_the_deal_is_kept(
    service: Services,
) -> None:
    # A closing held up by a DM's pacing while quick players finish the next deal must still
    # be owed after it (once the deal after it was over too, it was drawn no more, and a hand
    # message kept showing a turn of a deal long gone: seen in CI on PostgreSQL).
    game_id = await _played_until_deal(service, 3)
    owed = {str(o.key): o for o in await owed_now(service, game_id)}
    for deal in (1, 2):
        for seat in (0, 1):
            closed = owed[f"hand:{deal}:{seat}"]
            assert closed.existing and closed.last and closed.view.hand is None
            assert f"deal {deal} is over" in closed.view.content
    assert not owed["hand:3:0"].last, "the hand being played is no last look"
