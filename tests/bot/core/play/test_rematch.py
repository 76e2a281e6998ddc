"""A result's *Rematch* and *Play again* (issue 58): the game opened again at its table with
its options and seats, each person taking their kept seat with one press, who deals first in
it, the series the games make, and the one sentence every press that cannot open it gets."""

from __future__ import annotations

import asyncio

from bot.core.base import refusals
from bot.core.base.delivery import Owed
from bot.core.base.keys import HAND, LOBBY, RESULT
from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, Clicked, TableAsked, User
from bot.core.base.views import LobbyControls, ResultControls, ReviewPages
from bot.core.games.records import GameRecord, GameStatus, Options, Round
from bot.core.games.series import SEAT_KEPT
from bot.core.services import Services
from bot.store import Store
from engine.outcome import Scoring
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, EVE, GUILD
from tests.helpers.service_driver import (
    Clock,
    Members,
    Transcript,
    load,
    make_service,
    open_table,
    owed_now,
    state,
)


async def _finished(
    service: Services, users: list[User], loser: User, channel: int = CHANNEL, **options: object
) -> int:
    """A game of ``users`` at ``channel``, over: ``loser`` resigned at the first deal."""
    table = await open_table(service, users, channel=channel, **options)  # type: ignore[arg-type]
    resigned = await table.record(loser.id, await service.moves.resign(channel, loser))
    assert resigned.ok, resigned.reply.text
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    return game_id


async def _record(service: Services, game_id: int | None) -> GameRecord:
    assert game_id is not None
    found = await service.games.store.get_game(game_id)
    assert found is not None
    return found


async def _press(service: Services, game_id: int, user: User) -> Answer:
    return await service.rematches.press(game_id, user, guild_id=GUILD, channel_id=CHANNEL)


def _result_controls(owed: tuple[Owed, ...]) -> object:
    return {o.key: o for o in owed}[RESULT].view.controls


async def test_a_rematch_opens_the_game_again_with_its_options_and_seats(
    service: Services, clock: Clock
) -> None:
    before = await _finished(service, [AL, BEA], BEA, target=61, scoring="skunk")
    assert _result_controls(await owed_now(service, before)) == ResultControls(before, "rematch")
    opened = await _press(service, before, AL)
    # The answer is the new lobby, in the channel: a message of its own.
    assert opened.ok and not opened.reply.ephemeral and opened.reply.view is not None
    rematch = await _record(service, opened.game_id)
    old = await _record(service, before)
    assert rematch.rematch_of == before and rematch.status is GameStatus.LOBBY
    assert (rematch.options, rematch.guild_id, rematch.channel_id) == (
        old.options,
        old.guild_id,
        old.channel_id,
    )
    assert (rematch.options.target, rematch.options.scoring) == (61, Scoring.SKUNK)
    al, bea = rematch.seats
    assert (al.user_id, al.held_until) == (AL.id, None)
    kept = clock.now.timestamp() + SEAT_KEPT.total_seconds()
    assert (bea.user_id, bea.seat, bea.held_until) == (BEA.id, 1, kept)
    lobby = opened.reply.view.content
    assert "Rematch opened by Al" in lobby and "Seated (1/2): Al" in lobby, lobby
    assert f"Bea's seat is kept for them until <t:{int(kept)}:t>" in lobby, lobby
    # Al won by resignation at 0-0, skunked under 31 in a 61 game: 2 game points, 1 game.
    assert "Al leads the series 2–0 in game points (1–0 in games)." in lobby, lobby
    assert opened.reply.view.controls_of(LobbyControls) is not None


async def test_each_player_takes_their_kept_seat_with_one_press_and_the_last_deals(
    service: Services,
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    table = Transcript(service)
    opened = await table.record(AL.id, await _press(service, before, AL))
    assert opened.reply.view is not None
    assert "the cards are dealt as the table fills" in opened.reply.view.content
    # Bea's one press (Rematch on the result, as Join on the lobby would) seats her, and with
    # every seat taken the rematch is dealt: one press each, no Start to wait for.
    taken = await table.record(BEA.id, await _press(service, before, BEA))
    assert taken.ok and taken.reply.ephemeral
    assert taken.reply.text == "You're in: seat 2 of 2. Dealing — your hand is on its way by DM."
    assert (await _record(service, opened.game_id)).status is GameStatus.ACTIVE
    lobby = table.messages[(opened.game_id, "lobby")].view.content  # type: ignore[index]
    assert "Seated (2/2): Al, Bea" in lobby and "kept" not in lobby, lobby
    assert "The game has started." in lobby, lobby
    again = await service.lobbies.start(CHANNEL, BEA)
    assert again.reply.text == refusals.ALREADY_STARTED


async def test_join_pressed_on_the_rematchs_lobby_answers_with_the_dealt_table(
    service: Services,
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    clicked = Clicked(CHANNEL, 7000, "bea-join")
    joined = await service.lobbies.click(opened.game_id, "join", BEA, clicked, guild_id=GUILD)
    # The click is answered by updating the lobby it was on: to the table dealt.
    assert joined.ok and joined.update is not None, joined.reply.text
    assert "The game has started." in joined.update.content, joined.update.content
    await service.sequels.answered(joined, landed=True, shown=clicked)
    assert (await _record(service, opened.game_id)).status is GameStatus.ACTIVE


async def test_a_lobby_that_is_no_rematch_waits_for_start_when_full(service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    joined = await service.lobbies.join(CHANNEL, BEA)
    assert joined.ok and joined.reply.text.endswith("The table is full: press Start to deal.")
    assert (await _record(service, opened.game_id)).status is GameStatus.LOBBY


async def test_the_loser_of_the_game_before_deals_first_in_a_rematch(
    store: Store, service: Services
) -> None:
    # Bicycle's rule for a following game: "the loser of the game deals first if another game
    # is played" (no cut: the first deal is given to the loser, wherever they sit).
    for loser, seat in ((BEA, 1), (AL, 0)):
        channel = CHANNEL + seat + 1
        before = await _finished(service, [AL, BEA], loser, channel=channel)
        opened = await service.rematches.press(before, AL, guild_id=GUILD, channel_id=channel)
        assert opened.game_id is not None
        assert (await service.lobbies.join(channel, BEA)).ok
        game = await load(store, opened.game_id)
        assert (
            game.state.dealer == seat
            and game.state.given_dealer == seat
            and game.state.cut_rounds == ()
        )


async def test_with_more_than_two_players_a_rematch_cuts_for_the_deal(
    store: Store, service: Services
) -> None:
    before = await _finished(service, [AL, BEA, CY, DEE], BEA)
    opened = await _press(service, before, CY)
    for user, seat in ((AL, 1), (BEA, 2), (DEE, 4)):
        taken = await _press(service, before, user)
        assert taken.ok and f"seat {seat} of 4" in taken.reply.text, taken.reply.text
    rematch = await _record(service, opened.game_id)
    # Partners as they were: Al & Cy against Bea & Dee, in the same seats; Dee's press, the
    # last, dealt.
    assert [s.user_id for s in rematch.seats] == [AL.id, BEA.id, CY.id, DEE.id]
    assert rematch.status is GameStatus.ACTIVE
    game = await load(store, rematch.id)
    assert game.state.given_dealer is None and game.state.cut_rounds


async def test_the_opener_may_change_partners_in_a_rematch_as_in_any_lobby(
    service: Services,
) -> None:
    before = await _finished(service, [AL, BEA, CY, DEE], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    changed = await service.lobbies.click(opened.game_id, "partners", AL, guild_id=GUILD)
    assert changed.ok, changed.reply.text
    rematch = await _record(service, opened.game_id)
    assert [s.user_id for s in rematch.seats] == [AL.id, CY.id, DEE.id, BEA.id]
    # The kept seats moved with their people.
    assert [s.held for s in rematch.seats] == [False, True, True, True]


async def test_a_seat_not_taken_in_time_is_free_to_anyone(service: Services, clock: Clock) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    early = await service.lobbies.join(CHANNEL, CY)
    assert not early.ok and early.reply.text.startswith("That seat is kept for Bea until <t:")
    clock.advance(seconds=SEAT_KEPT.total_seconds() + 1)
    late = await service.lobbies.join(CHANNEL, CY)
    assert late.ok, late.reply.text
    rematch = await _record(service, opened.game_id)
    assert [(s.seat, s.user_id, s.held) for s in rematch.seats] == [
        (0, AL.id, False),
        (1, CY.id, False),
    ]
    # Cy's seat filled the table, which was dealt; Bea comes too late; and with its players
    # changed, no series.
    assert rematch.status is GameStatus.ACTIVE
    too_late = await _press(service, before, BEA)
    assert not too_late.ok and too_late.reply.text == refusals.REMATCH_STARTED
    lobby = {o.key: o for o in await owed_now(service, opened.game_id)}[LOBBY].view.content
    assert "series" not in lobby, lobby


async def test_a_computer_the_opener_seats_in_a_seat_not_taken_fills_the_rematch_and_deals(
    service: Services, clock: Clock
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    clock.advance(seconds=SEAT_KEPT.total_seconds() + 1)
    seated = await service.lobbies.click(opened.game_id, "computer:easy", AL, guild_id=GUILD)
    assert seated.ok and "Dealing" in seated.reply.text, seated.reply.text
    rematch = await _record(service, opened.game_id)
    assert rematch.status is GameStatus.ACTIVE and rematch.seats[1].is_computer


async def test_a_seat_the_opener_adds_for_a_friend_who_came_late_is_the_last_to_fill(
    service: Services,
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    grown = await service.lobbies.click(opened.game_id, "add_seat", AL, guild_id=GUILD)
    assert grown.ok, grown.reply.text
    back = await _press(service, before, BEA)
    assert back.ok and "Dealing" not in back.reply.text, back.reply.text
    assert (await _record(service, opened.game_id)).status is GameStatus.LOBBY
    late = await service.lobbies.join(CHANNEL, CY)
    assert late.ok and "Dealing" in late.reply.text, late.reply.text
    rematch = await _record(service, opened.game_id)
    assert rematch.status is GameStatus.ACTIVE and rematch.options.num_players == 3


async def test_a_rematch_pressed_again_by_someone_not_in_it_or_after_it_started(
    store: Store, service: Services
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    stranger = await _press(service, before, EVE)
    assert stranger.reply.text == refusals.REMATCH_NOT_PLAYED
    opened = await _press(service, before, AL)
    assert opened.ok and opened.game_id is not None
    snapshot = await state(store, opened.game_id)
    again = await _press(service, before, AL)
    assert not again.ok and again.reply.text == refusals.REMATCH_SEATED
    watching = await _press(service, before, EVE)
    assert not watching.ok and watching.reply.text == refusals.REMATCH_JOIN
    assert await state(store, opened.game_id) == snapshot, "the refusals changed nothing"
    assert (await _press(service, before, BEA)).ok
    started = await _press(service, before, BEA)
    assert not started.ok and started.reply.text == refusals.REMATCH_STARTED
    games = await store.db.fetch("SELECT COUNT(*) FROM games WHERE rematch_of = ?", (before,))
    assert games[0][0] == 1, "one rematch"


async def test_a_result_whose_table_moved_on_opens_no_rematch(service: Services) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    other = await service.lobbies.new_game(GUILD, CHANNEL, CY)
    assert other.ok
    busy = await _press(service, before, AL)
    assert not busy.ok and busy.reply.text == refusals.MOVED_ON
    assert (await service.lobbies.cancel(CHANNEL, CY)).ok
    gone = await _press(service, before, AL)
    assert not gone.ok and gone.reply.text == refusals.MOVED_ON


async def test_a_rematch_pressed_after_a_restart_opens_it(store: Store, clock: Clock) -> None:
    # The state is the database's: a core started again finds the game and opens its rematch.
    before = await _finished(make_service(store, clock), [AL, BEA], BEA)
    restarted = make_service(store, clock)
    opened = await _press(restarted, before, BEA)
    assert opened.ok and (await _record(restarted, opened.game_id)).rematch_of == before


async def test_two_processes_pressing_at_once_open_one_lobby(store: Store, clock: Clock) -> None:
    # Two cores on one database (two processes: their locks are their own): the store opens
    # one rematch; the other press takes its presser's seat in it.
    first = make_service(store, clock)
    before = await _finished(first, [AL, BEA], BEA)
    second = make_service(store, clock)
    answers = await asyncio.gather(_press(first, before, AL), _press(second, before, BEA))
    assert all(a.ok for a in answers), [a.reply.text for a in answers]
    lobbies = [a for a in answers if not a.reply.ephemeral]
    assert len(lobbies) == 1
    rematch = await _record(first, lobbies[0].game_id)
    assert [(s.user_id, s.held) for s in rematch.seats] == [(AL.id, False), (BEA.id, False)]


async def test_play_again_against_the_computer_deals_at_once(
    store: Store, service: Services
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    assert opened.game_id is not None
    assert (await service.moves.resign(CHANNEL, AL)).ok
    controls = _result_controls(await owed_now(service, opened.game_id))
    assert controls == ResultControls(opened.game_id, "again"), controls
    again = await _press(service, opened.game_id, AL)
    assert again.ok and again.reply.view is not None
    rematch = await _record(service, again.game_id)
    assert rematch.status is GameStatus.ACTIVE and rematch.seats[1].is_computer
    game = await load(store, rematch.id)
    assert game.state.dealer == 0 and game.state.given_dealer == 0, "Al lost, so Al deals first"
    assert "The game has started." in again.reply.view.content


async def test_a_series_counts_game_points_as_the_lurch_does(service: Services) -> None:
    first = await _finished(service, [AL, BEA], BEA)
    second = await _press(service, first, BEA)
    assert second.game_id is not None
    assert (await _press(service, first, AL)).ok
    assert (await service.moves.resign(CHANNEL, AL)).ok
    finished = await _record(service, second.game_id)
    assert finished.series == first
    result = {o.key: o for o in await owed_now(service, second.game_id)}[RESULT].view
    # Each won by a lurch (a resignation at 0-0): 2 game points a game.
    assert "The series is level at 2–2 in game points (1–1 in games)." in result.content
    # The game before's result says nothing of a series it began.
    earlier = {o.key: o for o in await owed_now(service, first)}[RESULT].view
    assert "series" not in earlier.content
    third = await _press(service, second.game_id, AL)
    assert third.reply.view is not None
    assert "The series is level at 2–2" in third.reply.view.content


async def test_a_rematchs_page_says_its_series_as_the_channel_does(service: Services) -> None:
    """The game's page shows what the channel saw: a rematch's lobby and result with the line
    of the series, as the channel's messages have it, where the page left it out (its
    messages were drawn without the series, which only the channel's were given)."""
    first = await _finished(service, [AL, BEA], BEA)
    second = await _press(service, first, BEA)
    assert second.game_id is not None and (await _press(service, first, AL)).ok
    assert (await service.moves.resign(CHANNEL, AL)).ok
    channel = {o.key: o.view for o in await owed_now(service, second.game_id)}
    said = "The series is level at 2–2 in game points (1–1 in games)."
    # The lobby says the series as it stood when the rematch was opened, from its opening to
    # its end (issue 68, item 13); the result, with this game.
    before = "Al leads the series 2–0 in game points (1–0 in games)."
    assert said in channel[RESULT].content and before in channel[LOBBY].content
    seen = await service.pages.seen(await _record(service, second.game_id))
    assert channel[LOBBY] in seen.messages and channel[RESULT] in seen.messages, seen.messages
    assert sum(said in m.content for m in seen.messages) == 1


async def test_a_series_ends_when_a_day_passes(service: Services, clock: Clock) -> None:
    first = await _finished(service, [AL, BEA], BEA)
    clock.advance(hours=25)
    second = await _press(service, first, AL)
    assert second.reply.view is not None and "series" not in second.reply.view.content
    assert (await _press(service, first, BEA)).ok
    assert (await service.moves.resign(CHANNEL, AL)).ok
    assert (await _record(service, second.game_id)).series is None


async def test_a_series_ends_when_the_tables_players_change(
    service: Services, clock: Clock
) -> None:
    first = await _finished(service, [AL, BEA], BEA)
    second = await _press(service, first, AL)
    clock.advance(seconds=SEAT_KEPT.total_seconds() + 1)
    assert (await service.lobbies.join(CHANNEL, CY)).ok
    assert (await service.moves.resign(CHANNEL, CY)).ok
    assert (await _record(service, second.game_id)).series is None


async def test_no_rematch_for_a_game_without_a_result(service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    assert opened.game_id is not None
    assert (await _press(service, opened.game_id, AL)).reply.text == refusals.REMATCH_NOT_OVER
    assert (await service.lobbies.cancel(CHANNEL, AL)).ok
    refused = await _press(service, opened.game_id, AL)
    assert refused.reply.text == refusals.REMATCH_NO_RESULT
    unknown = await _press(service, 10**9, AL)
    assert unknown.reply.text == refusals.UNKNOWN_GAME


async def test_no_rematch_for_a_tournaments_game(service: Services) -> None:
    record = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), Options(2, 121), occasion=Round("Round 1")
    )
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    controls = _result_controls(await owed_now(service, record.id))
    assert controls is None or isinstance(controls, ReviewPages), controls
    refused = await _press(service, record.id, AL)
    assert refused.reply.text == refusals.REMATCH_TOURNAMENT


async def test_no_rematch_once_a_player_of_the_game_had_their_data_deleted(
    service: Services, store: Store
) -> None:
    # (Its result offered one: pressed, it opened a lobby keeping a seat for "Former
    # player", whom nobody can be, and a series against them.)
    game_id = await _finished(service, [AL, BEA], BEA)
    assert (await _record(service, game_id)).seat_of(AL.id) is not None
    assert (await service.privacy.confirm_forget(AL.id, AL, True)).ok
    refused = await _press(service, game_id, BEA)
    assert not refused.ok and refused.reply.text == refusals.REMATCH_FORMER
    assert await store.open_game_in_channel(CHANNEL) is None


async def test_deal_everyone_in_seats_the_kept_seats_of_those_at_the_table(
    service: Services,
) -> None:
    # The Activity's Deal everyone in, at a rematch's lobby: a kept seat is its person's when
    # they have the table open (they are dealt in there, in their own seat).
    before = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, before, AL)
    assert opened.game_id is not None
    dealt = await service.dealing_in.deal_in(opened.game_id, AL, [AL, BEA], guild_id=GUILD)
    assert dealt.ok, dealt.reply.text
    rematch = await _record(service, opened.game_id)
    assert rematch.status is GameStatus.ACTIVE
    assert [(s.user_id, s.held) for s in rematch.seats] == [(AL.id, False), (BEA.id, False)]


# -- the Rematch on a finished game's last hand message, pressed from the DM ----------------


async def _anywhere(channel_id: int, guild_id: int | None) -> str | None:
    """The table's refusal the Discord layer gives where the bot may post and nothing is
    refused the presser: none."""
    return None


async def _press_on_hand(service: Services, game_id: int, user: User) -> Answer:
    return await service.rematches.press_on_hand(game_id, user, _anywhere)


async def _resigned_against_the_computer(service: Services) -> int:
    """A game of Al's against the computer, resigned at once (nothing of it sent yet)."""
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    assert opened.game_id is not None
    assert (await service.moves.resign(CHANNEL, AL)).ok
    return opened.game_id


def _last_hands(owed: tuple[Owed, ...], deal: int = 1) -> dict[int | str, object]:
    """The controls of each seat's hand message of ``deal``, by seat."""
    return {
        o.key.parts[1]: o.view.controls
        for o in owed
        if o.key.name == HAND and o.key.parts[0] == deal and o.key.copy is None
    }


async def test_a_finished_games_last_hand_offers_its_rematch_by_dm(service: Services) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    offered = ResultControls(before, "rematch", review=False, hand=True)
    assert _last_hands(await owed_now(service, before)) == {0: offered, 1: offered}


async def test_a_last_hand_that_never_went_out_is_owed_offering_the_rematch(
    service: Services,
) -> None:
    # Resigned before the deal's DMs went out (nothing of the game sent yet: on a busy
    # machine the resignation can come first), each player was told their hand is on its
    # way, and their last hand is where they find the rematch by DM: it is owed all the same.
    game_id = await _resigned_against_the_computer(service)
    [hand] = [o for o in await owed_now(service, game_id) if o.key.name == HAND]
    assert hand.due(None) and hand.user_id == AL.id
    assert hand.view.controls == ResultControls(game_id, "again", review=False, hand=True)
    assert "The game is over: Al resigned" in hand.view.content
    # Where the result offers no rematch, a hand that never went out stays unsent.
    record = await service.lobbies.open_seated(
        GUILD, CHANNEL + 1, (AL, BEA), Options(2, 121), occasion=Round("Round 1")
    )
    assert (await service.moves.resign(CHANNEL + 1, BEA)).ok
    hands = [o for o in await owed_now(service, record.id) if o.key.name == HAND]
    assert len(hands) == 2 and not any(o.due(None) for o in hands)


async def test_rematch_pressed_on_a_hand_opens_the_lobby_at_the_table_and_answers_privately(
    service: Services, store: Store
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    table = Transcript(service)
    opened = await table.record(AL.id, await _press_on_hand(service, before, AL))
    # Said to Al alone, where the rematch is; the hand message pressed stays as it is.
    assert opened.ok and opened.reply.ephemeral and opened.update is None
    assert opened.reply.view is None
    assert opened.reply.text == (
        f"Rematch opened in <#{CHANNEL}>, your seat taken: the cards are dealt as the others "
        "take theirs."
    )
    rematch = await _record(service, opened.game_id)
    assert (rematch.rematch_of, rematch.channel_id) == (before, CHANNEL)
    # The lobby is the game's message in the channel, for the bot to post (no token carries
    # it), as any lobby: the rematch's, the series and Bea's kept seat said.
    lobby = {o.key: o for o in await owed_now(service, rematch.id)}[LOBBY]
    assert lobby.user_id is None and not lobby.existing and not lobby.tokens_only
    assert "Rematch opened by Al" in lobby.view.content
    assert "Bea's seat is kept for them until" in lobby.view.content
    assert "Al leads the series 2–0" in lobby.view.content
    kept = await store.messages(Owner.game(rematch.id))
    assert LOBBY not in kept or not kept[LOBBY].token, "no interaction's token reaches it"
    # Bea's press on her own hand message takes her kept seat and, the table full, deals.
    taken = await table.record(BEA.id, await _press_on_hand(service, before, BEA))
    assert taken.ok and taken.reply.ephemeral and taken.update is None
    assert taken.reply.text == (
        "You're in: seat 2 of 2. Dealing — your hand is on its way by DM. "
        f"The rematch is in <#{CHANNEL}>."
    )
    assert (await _record(service, rematch.id)).status is GameStatus.ACTIVE
    again = await _press_on_hand(service, before, AL)
    assert not again.ok
    assert again.reply.text == f"{refusals.REMATCH_STARTED} It's in <#{CHANNEL}>."


async def test_rematch_on_a_hand_takes_the_seat_kept_in_a_rematch_opened_on_the_result(
    service: Services,
) -> None:
    before = await _finished(service, [AL, BEA, CY], BEA)
    opened = await _press(service, before, CY)
    assert opened.ok and not opened.reply.ephemeral
    taken = await _press_on_hand(service, before, AL)
    assert taken.ok and taken.reply.text == (
        f"You're in: seat 1 of 3. The rematch is in <#{CHANNEL}>."
    ), taken.reply.text
    rematch = await _record(service, opened.game_id)
    assert [(s.user_id, s.held) for s in rematch.seats] == [
        (AL.id, False),
        (BEA.id, True),
        (CY.id, False),
    ]
    seated = await _press_on_hand(service, before, AL)
    assert not seated.ok
    assert seated.reply.text == f"{refusals.REMATCH_SEATED} It's in <#{CHANNEL}>."


async def test_play_again_on_a_hand_deals_against_the_computer_at_once(
    service: Services,
) -> None:
    game_id = await _resigned_against_the_computer(service)
    [offered] = _last_hands(await owed_now(service, game_id)).values()
    assert offered == ResultControls(game_id, "again", review=False, hand=True)
    again = await _press_on_hand(service, game_id, AL)
    assert again.ok and again.reply.ephemeral, again.reply.text
    assert again.reply.text == f"Dealt again in <#{CHANNEL}>: your hand is on its way by DM."
    rematch = await _record(service, again.game_id)
    assert rematch.status is GameStatus.ACTIVE and rematch.channel_id == CHANNEL


async def test_rematch_on_a_hand_refused_at_a_table_the_bot_cannot_post_at_changes_nothing(
    store: Store, service: Services
) -> None:
    before = await _finished(service, [AL, BEA], BEA)
    asked: list[tuple[int, int | None]] = []

    async def muted(channel_id: int, guild_id: int | None) -> str | None:
        asked.append((channel_id, guild_id))
        return "I can't post there."

    snapshot = await state(store, before)
    refused = await service.rematches.press_on_hand(before, AL, muted)
    assert not refused.ok and refused.reply.text == "I can't post there."
    assert asked == [(CHANNEL, GUILD)], "asked of the game's own table"
    assert await state(store, before) == snapshot
    last = await store.last_game_in_channel(CHANNEL)
    assert last is not None and last.id == before, "no rematch opened"


async def test_rematch_on_a_hand_refused_to_a_player_who_left_the_server(
    store: Store, clock: Clock
) -> None:
    members = Members()
    service = make_service(store, clock, membership=members)
    before = await _finished(service, [AL, BEA], BEA)
    members.gone.add(AL.id)
    refused = await _press_on_hand(service, before, AL)
    assert not refused.ok and refused.reply.text == refusals.LEFT_SERVER
    last = await store.last_game_in_channel(CHANNEL)
    assert last is not None and last.id == before
    # Nothing is noted of the finished game: its table tells of nobody leaving.
    assert service.games.departures.of(before) == frozenset()


async def test_no_rematch_on_a_hand_where_the_result_offers_none(service: Services) -> None:
    record = await service.lobbies.open_seated(
        GUILD, CHANNEL, (AL, BEA), Options(2, 121), occasion=Round("Round 1")
    )
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    assert _last_hands(await owed_now(service, record.id)) == {0: None, 1: None}
    refused = await _press_on_hand(service, record.id, AL)
    assert refused.reply.text == refusals.REMATCH_TOURNAMENT
    # Nor for someone who did not play, a game not over, or one that does not exist.
    played = await _finished(service, [AL, BEA], BEA, channel=CHANNEL + 1)
    stranger = await _press_on_hand(service, played, EVE)
    assert stranger.reply.text == refusals.REMATCH_NOT_PLAYED
    playing = await open_table(service, [AL, BEA], channel=CHANNEL + 2)
    live = playing.outcomes[0].game_id or 0
    assert (await _press_on_hand(service, live, AL)).reply.text == refusals.REMATCH_NOT_OVER
    unknown = await _press_on_hand(service, 10**9, AL)
    assert unknown.reply.text == refusals.UNKNOWN_GAME


async def test_no_rematch_on_a_private_tables_hand_whose_table_offers_it(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA], private=True)
    game_id = table.outcomes[0].game_id or 0
    assert (await service.moves.resign(CHANNEL, BEA)).ok
    owed = await owed_now(service, game_id)
    assert all(o.view.controls is None for o in owed if o.key.name == HAND), owed
    refused = await _press_on_hand(service, game_id, AL)
    assert refused.reply.text == refusals.UNKNOWN_GAME


async def test_rematch_on_a_hand_pressed_after_a_restart_opens_it(
    store: Store, clock: Clock
) -> None:
    before = await _finished(make_service(store, clock), [AL, BEA], BEA)
    restarted = make_service(store, clock)
    opened = await _press_on_hand(restarted, before, BEA)
    assert opened.ok and opened.reply.ephemeral, opened.reply.text
    assert (await _record(restarted, opened.game_id)).rematch_of == before


async def test_every_lobby_and_table_of_a_series_game_says_the_series_from_start_to_end(
    service: Services,
) -> None:
    """Issue 68, item 13: *Play again* against the computer opened its lobby with no series
    line (a people rematch's lobby had it, and lost it once the game started): the series
    is on every lobby and table of a game that continues one, the same from its opening to
    its end (no message edited for it), and its result says it with the game."""
    first = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(vs_computer=True))
    assert first.game_id is not None and (await service.moves.resign(CHANNEL, AL)).ok
    again = await _press(service, first.game_id, AL)
    assert again.game_id is not None and again.reply.view is not None
    line = "Hard bot leads the series 2–0 in game points (1–0 in games)."
    assert line in again.reply.view.content, again.reply.view.content
    owed = {o.key: o.view for o in await owed_now(service, again.game_id)}
    assert owed[LOBBY] == again.reply.view, "the lobby as it answered the press"
    tables = [view for key, view in owed.items() if key.name == "table"]
    assert tables and all(line in view.content for view in tables), tables
    # A people rematch's lobby keeps it once the game starts, and its tables say it.
    assert (await service.moves.resign(CHANNEL, AL)).ok
    people = await _finished(service, [AL, BEA], BEA)
    opened = await _press(service, people, BEA)
    assert opened.game_id is not None and (await _press(service, people, AL)).ok
    assert (await _record(service, opened.game_id)).status is GameStatus.ACTIVE
    dealt = {o.key: o.view for o in await owed_now(service, opened.game_id)}
    said = "Al leads the series 2–0 in game points (1–0 in games)."
    assert said in dealt[LOBBY].content and "The game has started." in dealt[LOBBY].content
    assert all(said in v.content for k, v in dealt.items() if k.name == "table")
    # Over, the lobby still says it as it stood (unchanged), the result with this game.
    assert (await service.moves.resign(CHANNEL, AL)).ok
    over = {o.key: o.view for o in await owed_now(service, opened.game_id)}
    assert over[LOBBY] == dealt[LOBBY]
    assert "The series is level at 2–2" in over[RESULT].content
