"""A private table's messages (a game where the bot is not a member): one table message that is
the lobby and then the current deal, a hand per person only once it was opened, and a mention
of whoever the table waits on whose hand no live token reaches; the one who is not seated may
take a seat from the table, and Your hand answers the clicker's own hand. The game there is a
server's: partners in a group DM of four, the chance to win, the autocomplete of a player's
own cards, the review and the check of the shuffles; and what is a moderator's in a server is
nobody's there."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence
from types import SimpleNamespace
from typing import Any, cast

from bot.core.base import refusals
from bot.core.base.delivery import Owed
from bot.core.base.keys import AWAY, LOBBY, MessageKey
from bot.core.base.recent import Recent
from bot.core.base.refusals import NOT_A_PLAYER, UNKNOWN_BUTTON
from bot.core.base.replies import Clicked, TableAsked, User
from bot.core.base.timing import TOKEN_USABLE
from bot.core.base.views import LobbyControls, MessageRecord, ResultControls, ReviewPages
from bot.core.messages.game_messages import LOOKS_KEPT, REMIND_AFTER, GameMessages
from bot.core.messages.private_table import TABLE
from bot.core.review import review as reviews
from bot.core.services import Services
from bot.discord.rendering import message_payload
from bot.store import Store
from engine.cards import Card
from engine.game import Game
from engine.phase import Phase
from tests.helpers.card_leaks import cards_in_text, hidden_from
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, in_server, outside
from tests.helpers.service_driver import (
    Clock,
    game_owner,
    load,
    make_service,
    open_table,
    owed_now,
)
from tests.helpers.views import controls

DM = 4242
#: A group DM of four people.
GROUP = 4343


async def _private_game(
    service: Services, people: Sequence[User] = (AL, BEA), channel: int = DM
) -> int:
    """A game of ``people`` in a DM (or group DM) between them, opened by the first, dealt."""
    opened = await service.lobbies.new_game(
        None, channel, people[0], TableAsked(players=len(people)), token="new", private=True
    )
    assert opened.ok and opened.game_id is not None
    await service.sequels.answered(opened, landed=True, shown=Clicked(channel, 900, "new"))
    # The others are in no seat, and in a DM between people that is no refusal: they take one.
    for user in people[1:]:
        joined = await service.lobbies.click(opened.game_id, "join", user, guild_id=None)
        assert joined.ok, joined.reply.text
    started = await service.lobbies.click(opened.game_id, "start", people[0], guild_id=None)
    assert started.ok and "Your hand" in started.reply.text
    return opened.game_id


async def _typed_moves(
    service: Services,
    store: Store,
    game_id: int,
    people: Sequence[User],
    done: Callable[[Game], bool],
    *,
    channel: int = DM,
    each: Callable[[Game], Awaitable[None]] | None = None,
) -> Game:
    """Moves typed by whoever the game waits on (the first cards held to the crib, the first
    card that may be played) until ``done``; ``each`` looks at the game before every move.
    The game then."""
    for _ in range(100):
        game = await load(store, game_id)
        if done(game):
            return game
        if each is not None:
            await each(game)
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            thrown = game.hand(seat)[: len(game.hand(seat)) - 4]
            answer = await service.moves.discard(channel, people[seat], thrown)
        else:
            assert game.state.phase is Phase.PLAY and game.state.turn is not None, game.state.phase
            card = game.playable_cards(game.state.turn)[0]
            answer = await service.moves.play(channel, people[game.state.turn], card)
        assert answer.ok, answer.reply.text
    raise AssertionError("the game never got there")


def _by_key(owed: tuple[Owed, ...]) -> dict[str, Owed]:
    return {str(o.key): o for o in owed}


async def test_the_table_is_one_message_reached_by_tokens_alone(service: Services) -> None:
    game_id = await _private_game(service)
    owed = _by_key(await owed_now(service, game_id))
    table = owed["lobby"]
    assert table.tokens_only and table.user_id is None
    assert set(owed) == {"lobby", "hand:1:0", "hand:1:1"}
    assert all(o.tokens_only and o.user_id is not None for k, o in owed.items() if k != "lobby")
    assert table.view.content.startswith("Cut for deal —") and "**Deal 1**" in table.view.content
    # Your hand, and Resign: someone who did not add the app plays from buttons alone.
    assert controls(table.view, LobbyControls).buttons == ("hand", "resign")
    # Neither opened their hand yet: both are named, and the table notifies nobody (an edit
    # may not; a copy posted again would notify them on top of the call, which does).
    assert table.view.mentions == ()
    assert f"<@{AL.id}> <@{BEA.id}> — your turn" in table.view.content
    payload = await message_payload(table.view, editing=True)
    assert payload["allowed_mentions"].users is False


async def test_a_player_awaited_out_of_every_tokens_reach_is_called_once_the_table_waited(
    service: Services, clock: Clock
) -> None:
    """The table's call in a message of its own, for each player it names, once it has waited
    on them the reminder's delay (looked at again then): notifying them alone, posted once a
    turn, where the bot is not a member."""
    game_id = await _private_game(service)
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None and owing.check_at is not None
    assert not [o for o in owing.owed if o.key.name == AWAY], "not before the delay"
    clock.advance(seconds=REMIND_AFTER.total_seconds())
    calls = [o for o in await owed_now(service, game_id) if o.key.name == AWAY]
    assert [str(o.key) for o in calls] == ["away:d1:0", "away:d1:1"]
    for call, user in zip(calls, (AL, BEA), strict=True):
        assert call.tokens_only and call.once and call.user_id is None
        assert call.view.mentions == (user.id,)
        assert call.view.content == f"<@{user.id}> — your turn: press **Your hand**."


async def test_your_hand_answers_the_clickers_hand_and_the_mention_goes(
    service: Services, clock: Clock
) -> None:
    game_id = await _private_game(service)
    stranger = await service.table.own_hand(game_id, CY, guild_id=None)
    assert not stranger.ok and stranger.reply.text == NOT_A_PLAYER
    mine = await service.table.own_hand(game_id, AL, guild_id=None)
    assert mine.ok and mine.reply.view is not None and mine.reply.view.hand is not None
    assert mine.sequel is not None and str(mine.sequel.key) == "hand:1:0"
    # In the conversation itself: no "Cribbage in #channel" as a DM about a server would say.
    assert mine.reply.view.content.startswith("Your hand, deal 1.")
    await service.sequels.opened(
        mine, shown=Clicked(DM, 901, "yours"), clicked=Clicked(DM, 900, "yours")
    )
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    table = _by_key(owing.owed)["lobby"]
    assert f"<@{BEA.id}> — your turn" in table.view.content
    # The click's token now reaches the table and the hand, and is looked at again when it
    # lapses (then the table mentions Al again).
    assert owing.sent[LOBBY].token == "yours"
    assert owing.sent[MessageKey.hand(1, 0)].message_id == 901
    assert owing.check_at is not None
    clock.advance(seconds=TOKEN_USABLE + 1)
    later = _by_key(await owed_now(service, game_id))["lobby"]
    assert f"<@{AL.id}> <@{BEA.id}> — your turn" in later.view.content


async def test_a_private_game_nobody_moved_in_says_it_ended_once(
    service: Services, clock: Clock
) -> None:
    # Issue 54: the deal's table says how the game ended where it ended; the table of a
    # private game (that deal's table, the result and the end in one message) says it once.
    game_id = await _private_game(service)
    clock.advance(days=30)
    assert await service.housekeeping.expire_idle() == [game_id]
    table = _by_key(await owed_now(service, game_id))["lobby"].view
    assert table.content.count("Nobody moved in this game for 7 days") == 1, table.content


async def test_a_finished_private_game_keeps_its_result_on_the_table(service: Services) -> None:
    game_id = await _private_game(service)
    resigned = await service.moves.resign(DM, BEA)
    assert resigned.ok
    owed = _by_key(await owed_now(service, game_id))
    table = owed["lobby"].view
    assert "resigned" in table.content and "game point" in table.content
    # Said once: the deal's table says where the game ended, and the table (one message
    # here, the deal's table and the result together) does not say it again below.
    assert table.content.count("Bea resigned — 🏆 Al wins") == 1, table.content
    assert table.board is not None and table.mentions == ()
    # No control but the result's: Review and Rematch.
    assert table.controls == ResultControls(game_id, "rematch"), table.controls
    record = await service.games.record(game_id)
    assert record is not None and record.seating.tokens_only
    loaded = service.games.loaded.load(record)
    assert loaded.game.state.phase is Phase.OVER


async def test_your_hand_is_refused_on_a_servers_game(service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    game_id = table.outcomes[0].game_id or 0
    forged = await service.table.own_hand(game_id, AL, guild_id=None)
    assert not forged.ok and forged.reply.text == UNKNOWN_BUTTON


async def test_an_ended_game_that_cannot_be_read_keeps_its_table_laid_out_and_private(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock)
    game_id = await _private_game(service)
    await store.db.execute("UPDATE games SET snapshot = ? WHERE id = ?", ("{", game_id))
    # A restart: nothing of the game is kept in memory, so its snapshot is read again.
    again = make_service(store, clock)
    hand_sent = MessageRecord(
        MessageKey.parse("hand:1:0"), DM, 77, "digest", token="t", token_at=clock().timestamp()
    )
    await store.set_messages([(game_owner(game_id), hand_sent)])
    assert await again.ledger.owed(game_owner(game_id)) is None, "nothing drawn while open"
    # Left idle, it expires (no snapshot is needed for that).
    clock.advance(days=8)
    assert await again.housekeeping.expire_idle() == [game_id]
    owing = await again.ledger.owed(game_owner(game_id))
    assert owing is not None
    owed = _by_key(owing.owed)
    table = owed["lobby"]
    # Laid out as the dealt table was (Discord edits a laid-out message only into another),
    # reached by tokens alone, with no controls, saying how the game ended.
    assert (
        table.tokens_only
        and table.view.layout
        and table.view.controls_of(LobbyControls) is not None
    )
    assert (
        controls(table.view, LobbyControls).buttons == () and "Nobody moved" in table.view.content
    )
    hand = owed["hand:1:0"]
    assert hand.tokens_only and hand.existing and hand.user_id == AL.id and hand.view.layout
    assert set(owed) == {"lobby", "hand:1:0"}, "nothing posted in the channel by the bot"


async def test_the_answer_to_new_against_the_computer_is_this_process_s_to_send(
    service: Services,
) -> None:
    """Against the computer the game deals as it opens, so the table is owed a newer look at
    once, while the answer (the lobby) may still be on its way: the change announced with the
    new game carries that answer, so nothing edits it through its token before it lands (an
    edit that did was kept with no message id, and the table was lost)."""
    opened = await service.lobbies.new_game(
        None, DM, AL, TableAsked(vs_computer=True), token="new", private=True
    )
    assert opened.ok and opened.game_id is not None
    [answer] = (await service.ledger.shown.kept(game_owner(opened.game_id))).values()
    assert str(answer.key) == "lobby" and answer.message_id == 0
    assert service.ledger.answers.sends_answer(game_owner(opened.game_id), answer)
    await service.sequels.answered(opened, landed=True, shown=Clicked(DM, 900, "new"))
    landed = (await service.ledger.shown.kept(game_owner(opened.game_id)))[
        MessageKey.parse("lobby")
    ]
    assert landed.message_id == 900 and not service.ledger.answers.sends_answer(
        game_owner(opened.game_id), landed
    )


def _seen(text: str) -> set[Card]:
    """The cards ``text`` names now, but for the cut for the first deal (those go back in the
    deck, so they may be anyone's now without telling anything) and a coach's line (about the
    cards its reader was dealt in a deal before)."""
    lines = text.splitlines()
    return cards_in_text("\n".join(t for t in lines if not t.startswith(("Cut for", "Coach,"))))


async def test_partners_in_a_group_dm_of_four_play_as_in_a_server_and_see_only_their_own(
    store: Store, service: Services
) -> None:
    people = (AL, BEA, CY, DEE)
    game_id = await _private_game(service, people, GROUP)
    seat_of = {user.id: seat for seat, user in enumerate(people)}
    looks = 0

    async def nothing_hidden_shown(game: Game) -> None:
        """What every message of the game shows now names no card hidden from its reader
        (the table: from anyone)."""
        nonlocal looks
        owed = await owed_now(service, game_id)
        # Reached by tokens alone: the table (no one's) and the four hands, nothing by DM.
        assert all(o.tokens_only for o in owed)
        assert {o.user_id for o in owed} == {None, *seat_of}
        for item in owed:
            seats = range(4) if item.user_id is None else (seat_of[item.user_id],)
            for seat in seats:
                leaked = _seen(item.view.content) & hidden_from(game, seat)
                assert not leaked, (item.key, seat, leaked, item.view.content)
        looks += 1

    game = await _typed_moves(
        service,
        store,
        game_id,
        people,
        lambda g: g.state.deal_number == 2,
        channel=GROUP,
        each=nothing_hidden_shown,
    )
    assert looks == 4 + 16, "one to the crib each, then all sixteen cards played"
    assert game.state.num_players == 4
    # The show of deal 1, counted for the sides of partners, while deal 2's crib is made.
    table = {o.key: o for o in await owed_now(service, game_id)}[LOBBY].view
    assert "**Deal 2**" in table.content and "Al & Cy" in table.content, table.content
    assert _seen(table.content), "the show names its cards"
    # Each player's own hand, as the table's Your hand answers it: theirs alone.
    for user in people:
        mine = await service.table.own_hand(game_id, user, guild_id=None)
        assert mine.ok and mine.reply.view is not None
        held = set(game.hand(seat_of[user.id]))
        shown = _seen(mine.reply.view.content)
        assert held <= shown and not shown & hidden_from(game, seat_of[user.id])


async def test_after_a_deal_the_table_says_each_players_chance_to_win(
    store: Store, service: Services
) -> None:
    game_id = await _private_game(service)
    await _typed_moves(service, store, game_id, (AL, BEA), lambda g: g.state.deal_number == 2)
    # While deal 2's crib is made the table shows deal 1's show, with the chances from there,
    # in its words and on the board below them, as a server's deal 1 table does.
    table = {o.key: o for o in await owed_now(service, game_id)}[LOBBY].view
    assert "**Deal 2**" in table.content
    [line] = [t for t in table.content.splitlines() if t.startswith("Chances to win — ")]
    assert "Al: " in line and "Bea: " in line and line.count("%") == 2, line
    assert table.board is not None and table.board.chances is not None
    assert len(table.board.chances) == 2


async def test_a_players_cards_are_offered_to_them_alone_in_a_dm(
    store: Store, service: Services
) -> None:
    game_id = await _private_game(service)
    game = await load(store, game_id)
    for seat, user in enumerate((AL, BEA)):
        offered = await service.table.autocomplete_discard(DM, user.id, "")
        pairs = {frozenset(Card.parse(code) for code in c.value.split()) for c in offered}
        assert pairs == {frozenset(p) for p in itertools.combinations(game.hand(seat), 2)}
    assert await service.table.autocomplete_discard(DM, CY.id, "") == []  # not playing
    assert await service.table.autocomplete_play(DM, AL.id, "") == []  # not the play yet
    game = await _typed_moves(
        service, store, game_id, (AL, BEA), lambda g: g.state.phase is Phase.PLAY
    )
    assert game.state.turn is not None
    mover, other = (AL, BEA) if game.state.turn == 0 else (BEA, AL)
    legal = [c.code for c in game.playable_cards(game.state.turn)]
    assert [c.value for c in await service.table.autocomplete_play(DM, mover.id, "")] == legal
    assert await service.table.autocomplete_play(DM, other.id, "") == []
    assert await service.table.autocomplete_discard(DM, mover.id, "") == []  # thrown already


async def test_a_game_in_a_dm_that_cannot_go_on_is_ended_by_one_of_its_players(
    store: Store, clock: Clock
) -> None:
    """Nobody is a moderator outside servers: a game whose saved state cannot be read says
    that any of its players can end it there, and one can (someone else still can't)."""
    service = make_service(store, clock)
    game_id = await _private_game(service)
    await store.db.execute("UPDATE games SET snapshot = ? WHERE id = ?", ('{"format": 3', game_id))
    service = make_service(store, clock)  # a restart: the game is read from the store again
    damaged = await service.moves.play(DM, AL, "5H")
    assert (
        damaged.reply.text == refusals.DAMAGED_GAME and "any of its players" in damaged.reply.text
    )
    stranger = await service.lobbies.cancel(DM, CY)
    assert stranger.reply.text == refusals.CANCEL_DEALT_OUTSIDE_NOT_PLAYING
    assert (await service.lobbies.cancel(DM, BEA)).ok
    record = await service.games.record(game_id)
    assert record is not None and not record.is_open and record.end_note is not None
    assert "Bea cancelled the game" in record.end_note


async def test_once_dealt_nobody_can_cancel_a_game_in_a_dm_and_the_refusals_say_so(
    store: Store, service: Services
) -> None:
    # In the lobby its creator may; nobody else (there are no moderators to name).
    opened = await service.lobbies.new_game(None, GROUP, AL, token="new", private=True)
    assert opened.ok and opened.game_id is not None
    await service.sequels.answered(opened, landed=True, shown=Clicked(GROUP, 900, "new"))
    refused = await service.lobbies.cancel(GROUP, BEA)
    assert refused.reply.text == refusals.CANCEL_CREATOR_OUTSIDE
    assert (await service.lobbies.cancel(GROUP, AL)).ok
    # Once dealt: a player is told to resign, someone else that it cannot be cancelled.
    game_id = await _private_game(service)
    player = await service.lobbies.cancel(DM, AL)
    assert player.reply.text == refusals.CANCEL_DEALT_OUTSIDE
    assert "moderator" in player.reply.text and "`/cribbage resign`" in player.reply.text
    stranger = await service.lobbies.cancel(DM, CY)
    assert stranger.reply.text == refusals.CANCEL_DEALT_OUTSIDE_NOT_PLAYING
    record = await service.games.record(game_id)
    assert record is not None and record.is_open
    # In a server a moderator still may (a server that did not invite the bot too).
    table = await open_table(service, [AL, BEA], private=True)
    server_game = table.outcomes[0].game_id
    assert (await service.lobbies.cancel(CHANNEL, AL)).reply.text == refusals.CANCEL_DEALT
    assert (await service.lobbies.cancel(CHANNEL, CY, moderator=True)).ok
    record = await service.games.record(server_game or 0)
    assert record is not None and not record.is_open


async def test_review_and_verify_at_a_private_table_as_in_a_server(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True)
    game_id = await _private_game(service)
    dealt = await load(store, game_id)
    cut = await _typed_moves(
        service, store, game_id, (AL, BEA), lambda g: g.state.phase is Phase.PLAY
    )
    assert cut.state.starter is not None
    # Deal 1's cards: the review may name Al's and what the table showed, all of them by now.
    deal_1 = {*dealt.hand(0), *dealt.hand(1), cut.state.starter}
    await _typed_moves(service, store, game_id, (AL, BEA), lambda g: g.state.deal_number == 2)

    # While the game goes on: Al's own decisions, up to the deal that is over, nothing of
    # Bea's hand now; paged in place.
    first = await service.reviews.review(outside(DM), DM, AL)
    assert first.ok and first.reply.view is not None, first.reply.text
    pages = first.reply.view.controls_of(ReviewPages)
    assert pages is not None and pages.pages == 2 and "— Al**" in first.reply.view.content
    turned = await service.reviews.page(outside(DM), AL, game_id, 0, 1)
    assert turned.ok and turned.update is not None, turned.reply.text
    assert "**Deal 1**" in turned.update.content and "**Deal 2**" not in turned.update.content
    for text in (first.reply.view.content, turned.update.content):
        assert _seen(text) <= deal_1, text
    assert _seen(turned.update.content) & set(dealt.hand(0)), "Al's own cards"
    theirs = await service.reviews.review(outside(DM), DM, AL, game_id, BEA)
    assert theirs.reply.text == reviews.OWN_ONLY
    # Found only in its own conversation (by number too), and in no server.
    for answer in (
        await service.reviews.review(outside(GROUP), GROUP, AL, game_id),
        await service.reviews.page(outside(GROUP), AL, game_id, 0, 1),
        await service.shuffles.check(outside(GROUP), GROUP, game_id),
    ):
        assert not answer.ok and answer.reply.text == reviews.NOT_IN_THIS_CONVERSATION
    server = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    assert server.reply.text == reviews.NO_SUCH_GAME
    # The shuffles: deal 1's seed, shown by its show, checked against its seal.
    checked = await service.shuffles.check(outside(DM), DM)
    assert checked.ok and "Deal 1: ✅ SHA-256" in checked.reply.text, checked.reply.text
    assert "Deal 2: sealed" in checked.reply.text

    # Over: the result on the table keeps its Review button, which opens anyone's own.
    assert (await service.moves.resign(DM, BEA)).ok
    table = {o.key: o for o in await owed_now(service, game_id)}[LOBBY].view
    assert table.controls == ResultControls(game_id, "rematch"), "Review and Rematch alone"
    hers = await service.reviews.review(outside(DM), DM, BEA, game_id)
    assert hers.ok and hers.reply.view is not None and "— Bea**" in hers.reply.view.content


def test_a_look_drawn_long_before_it_was_shown_is_followed_by_the_deals_after_its_own() -> None:
    """Looks drawn faster than the table is edited (a game against the computer at full
    speed, a busy machine): the look the table shows at last may be one drawn more looks ago
    than are remembered. The next look shows the deals after the one it showed, not only
    those since the deal it was drawn in (which lost deals 4 and 5 once in three runs)."""
    messages = GameMessages.__new__(GameMessages)
    messages._through = Recent(8)
    messages._floor = Recent(8)
    record = cast(Any, SimpleNamespace(id=1))
    # Deal 6 is played; the deals 4 and 5 did not fit the first look above it: it shows the
    # end of deal 3 alone. Looks after it (each a move of deal 6) show as little.
    first = cast(Any, SimpleNamespace(digest=lambda: "first"))
    messages._shows(1, first, 3)
    for n in range(LOOKS_KEPT):
        messages._shows(1, cast(Any, SimpleNamespace(digest=lambda n=n: f"later {n}")), 3)
    log = SimpleNamespace(began={1: 1, 2: 10, 3: 20, 4: 30, 5: 40, 6: 50})
    loaded = cast(
        Any, SimpleNamespace(game=SimpleNamespace(state=SimpleNamespace(deal_number=6)), log=log)
    )
    # The first look is the one shown at last (drawn at version 52, in deal 6).
    shown = MessageRecord(TABLE, 1, 2, digest="first", version=52)
    assert messages._unseen(record, loaded, shown) == [4, 5]
    # Once a look remembered is shown, it says what it showed.
    shown = MessageRecord(TABLE, 1, 2, digest=f"later {LOOKS_KEPT - 1}", version=60)
    assert messages._unseen(record, loaded, shown) == [4, 5]
    messages._shows(1, cast(Any, SimpleNamespace(digest=lambda: "all")), 5)
    shown = MessageRecord(TABLE, 1, 2, digest="all", version=61)
    assert messages._unseen(record, loaded, shown) == []
