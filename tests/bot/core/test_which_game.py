"""What the resolver reads of a person (their ranked entry and its match, their seat at the
place's game) and how it runs a command on what it found, on both databases: a search from a
place where one sits at a game is refused, a ranked player's commands at their place reach
their ranked game and elsewhere the place's, an autocomplete offers nothing where its command
would be refused, and an interaction reaches the table it may carry."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.core.base import refusals
from bot.core.base.owners import Owner
from bot.core.base.places import (
    GAMES_NOT_IN_MY_DMS,
    NO_GAME_IN_MY_DMS,
    RANKED_DECIDED,
    RANKED_HERE,
    RANKED_NEXT_GAME,
    RANKED_NOT_A_LOBBY,
    SEARCHING_HERE,
    SEATED_HERE,
    Ask,
    Place,
    Resolved,
    Spot,
    hands_in_my_dms,
)
from bot.core.base.refusals import game_over, no_game, nothing_to_look_up
from bot.core.base.replies import Answer, Choice, Clicked, TableAsked, User
from bot.core.services import Services
from bot.store import Store
from tests.helpers.service_driver import Clock, Members, make_service, ranked_game

AL, BEA, CY = User(1001, "Al"), User(1002, "Bea"), User(1003, "Cy")
SERVER = 1
GENERAL = Place(Spot.CHANNEL, 10, SERVER)
THREAD = Place(Spot.THREAD, 11, SERVER, parent_id=10)
BEAS_DM = Place(Spot.BOT_DM, 20)
GROUP = Place(Spot.PRIVATE, 30)


@pytest.fixture(autouse=True)
async def _done(service: Services) -> AsyncIterator[None]:
    """After each test: stop refereeing, and write what was sent (before the store closes)."""
    yield
    service.ranked_play.stop()
    await service.ledger.writes.flush()


async def _search(service: Services, user: User, place: Place) -> Answer:
    """``/cribbage ranked play`` by ``user`` in ``place``, as the core's act (which resolves
    it)."""
    token = f"search-{user.id}"
    answer = await service.acts.ranked_play(place, user, avatar=None, token=token)
    if answer.ok:  # (landed, its token the way to the player's place)
        shown = Clicked(place.channel_id, 7000 + user.id % 1000, token)
        await service.sequels.answered(answer, landed=True, shown=shown)
    return answer


async def _dealt(service: Services, store: Store) -> int:
    """Al (from #general) and Bea (from her DM with the bot) matched, their first game dealt:
    its channel."""
    assert (await _search(service, AL, GENERAL)).ok
    assert (await _search(service, BEA, BEAS_DM)).ok
    return (await ranked_game(service, store, AL)).channel_id


async def _acts_on(service: Services, ask: Ask, place: Place, user: User) -> int | str:
    """The channel ``ask`` acts on for ``user`` in ``place``, or its refusal's sentence."""
    seen: list[int] = []

    async def act(found: Resolved) -> Answer:
        seen.append(found.channel_id)
        return Answer.say("done")

    answer = await service.which.run(ask, place, user.id, act)
    return seen[0] if answer.ok else answer.reply.text


async def test_a_search_is_refused_where_its_player_sits_at_a_game(
    service: Services, store: Store
) -> None:
    opened = await service.lobbies.new_game(SERVER, THREAD.channel_id, AL)
    assert opened.ok
    refused = await _search(service, AL, THREAD)
    assert not refused.ok and refused.reply.text == SEATED_HERE
    assert await store.live_entry(AL.id) is None
    # Elsewhere (#general, where he sits at no game), and for Bea in the thread, it is made.
    assert (await _search(service, BEA, THREAD)).ok
    assert (await _search(service, AL, GENERAL)).ok


async def test_a_ranked_players_commands_reach_their_ranked_game_at_their_place_alone(
    service: Services, store: Store
) -> None:
    ranked = await _dealt(service, store)
    assert await _acts_on(service, Ask.HAND, GENERAL, AL) == ranked
    assert await _acts_on(service, Ask.STATUS, BEAS_DM, BEA) == ranked
    # (The thread's game: there is none, said in the thread's words.)
    assert await _acts_on(service, Ask.HAND, THREAD, AL) == no_game("this thread")
    assert await _acts_on(service, Ask.JOIN, GENERAL, AL) == RANKED_HERE
    assert await _acts_on(service, Ask.JOIN, BEAS_DM, BEA) == GAMES_NOT_IN_MY_DMS
    assert await _acts_on(service, Ask.JOIN, GENERAL, CY) == no_game("this channel")
    assert await _acts_on(service, Ask.NEW, GENERAL, CY) == GENERAL.channel_id
    # The Activity's question: which ranked game a person plays from a channel.
    assert await service.which.ranked_game(GENERAL.channel_id, AL.id) == ranked
    assert await service.which.ranked_game(GENERAL.channel_id, BEA.id) is None


async def test_an_autocomplete_offers_the_cards_of_the_game_its_command_acts_on(
    service: Services, store: Store
) -> None:
    ranked = await _dealt(service, store)
    asked: list[tuple[int, int, str]] = []

    async def complete(channel_id: int, user_id: int, current: str) -> list[Choice]:
        asked.append((channel_id, user_id, current))
        return [Choice("5♥", "5H")]

    which = service.which
    assert await which.offered(Ask.DISCARD, GENERAL, AL.id, "5", complete) == [Choice("5♥", "5H")]
    assert asked == [(ranked, AL.id, "5")]
    assert await which.offered(Ask.PLAY, Place(Spot.BOT_DM, 21), CY.id, "", complete) == []
    assert len(asked) == 1


async def test_an_interaction_carries_the_table_of_its_players_place_or_private_table(
    service: Services, store: Store
) -> None:
    ranked = await _dealt(service, store)
    record = await store.open_game_in_channel(ranked)
    assert record is not None
    al_seat, bea_seat = record.seat_of(AL.id), record.seat_of(BEA.id)
    assert al_seat is not None and bea_seat is not None
    which = service.which
    assert await which.carried(GENERAL, AL.id) == Owner.place(record.id, al_seat)
    assert await which.carried(BEAS_DM, BEA.id) == Owner.place(record.id, bea_seat)
    # Cy at #general: the bot's own token reaches its tables; in a group DM, its game's.
    assert await which.carried(GENERAL, CY.id) is None
    assert await which.carried(GROUP, CY.id) is None
    opened = await service.lobbies.new_game(None, GROUP.channel_id, CY, private=True)
    assert opened.game_id is not None
    assert await which.carried(GROUP, CY.id) == Owner.game(opened.game_id)


async def test_between_two_games_of_a_match_its_players_are_told_the_next_is_being_dealt(
    service: Services, store: Store
) -> None:
    # Game 1 over (Bea resigned it), game 2 not dealt yet (the referee stopped a moment):
    # not "There's no game in this channel" at Al's place, where he cannot open one either.
    first = await _dealt(service, store)
    service.ranked_play.referee.stop()
    assert (await service.moves.resign(first, BEA)).ok
    for ask in (Ask.HAND, Ask.PLAY, Ask.STATUS, Ask.RESIGN):
        assert await _acts_on(service, ask, GENERAL, AL) == RANKED_NEXT_GAME
        assert await _acts_on(service, ask, BEAS_DM, BEA) == RANKED_NEXT_GAME
    assert await _acts_on(service, Ask.JOIN, GENERAL, AL) == RANKED_HERE
    # A review, or a check of the shuffles, acts on the game just over.
    assert await _acts_on(service, Ask.REVIEW, GENERAL, AL) == first
    # The next game dealt, the commands act on it.
    await service.ranked_play.referee.start()
    await service.ranked_play.referee.idle()
    second = await _acts_on(service, Ask.HAND, GENERAL, AL)
    assert isinstance(second, int) and second != first
    assert await service.which.ranked_game(GENERAL.channel_id, AL.id) == second


async def test_a_game_over_that_decides_the_match_says_so(service: Services, store: Store) -> None:
    first = await _dealt(service, store)
    assert (await service.moves.resign(first, BEA)).ok
    await service.ranked_play.referee.idle()
    second = await _acts_on(service, Ask.HAND, GENERAL, AL)
    assert isinstance(second, int)
    # Al won game 1; Bea resigns game 2 before the referee counts it: it decides the match.
    service.ranked_play.referee.stop()
    assert (await service.moves.resign(second, BEA)).ok
    assert await _acts_on(service, Ask.STATUS, GENERAL, AL) == RANKED_DECIDED
    assert await _acts_on(service, Ask.HAND, BEAS_DM, BEA) == RANKED_DECIDED
    # Once decided, the match is over: Al's commands at #general are the place's again, whose
    # last game, for him, is the match's.
    await service.ranked_play.referee.start()
    await service.ranked_play.referee.idle()
    assert await store.live_entry(AL.id) is None
    assert await _acts_on(service, Ask.HAND, GENERAL, AL) == game_over("this channel")
    assert await _acts_on(service, Ask.NEW, GENERAL, AL) == GENERAL.channel_id


async def test_once_a_match_is_over_its_places_last_game_is_its_last_game_for_its_players(
    service: Services, store: Store
) -> None:
    # At a place whose last game is over, /cribbage review, verify and status act on it and a
    # move says it is over. A ranked match's last game was forgotten at its places once the
    # match was decided: "There's no game in this channel to review or check" at Al's, "You
    # have no game in my DMs" at Bea's, a moment after the review acted on it there.
    first = await _dealt(service, store)
    assert (await service.moves.resign(first, BEA)).ok
    await service.ranked_play.referee.idle()
    second = await _acts_on(service, Ask.HAND, GENERAL, AL)
    assert isinstance(second, int)
    assert (await service.moves.resign(second, BEA)).ok
    await service.ranked_play.referee.idle()
    assert await store.live_entry(AL.id) is None
    for ask in (Ask.REVIEW, Ask.VERIFY, Ask.STATUS):
        assert await _acts_on(service, ask, GENERAL, AL) == second
        assert await _acts_on(service, ask, BEAS_DM, BEA) == second
    assert await _acts_on(service, Ask.HAND, GENERAL, AL) == game_over("this channel")
    assert await _acts_on(service, Ask.HAND, BEAS_DM, BEA) == NO_GAME_IN_MY_DMS
    # Its status points at the next ranked search (which works in the bot's DM), not at
    # /cribbage new (which does not).
    status = (await service.table.status(second)).reply.text
    assert "Bea resigned" in status and "`/cribbage ranked play`" in status
    assert "/cribbage new" not in status
    # The place's again for anything else: another game opened there, someone else's asking,
    # another place; and the game opened there since is its last game.
    assert await _acts_on(service, Ask.NEW, GENERAL, AL) == GENERAL.channel_id
    assert await _acts_on(service, Ask.REVIEW, GENERAL, CY) == nothing_to_look_up("this channel")
    assert await _acts_on(service, Ask.STATUS, THREAD, AL) == no_game("this thread")
    opened = await service.lobbies.new_game(SERVER, GENERAL.channel_id, CY)
    assert opened.ok and opened.game_id is not None
    assert await _acts_on(service, Ask.STATUS, GENERAL, AL) == GENERAL.channel_id
    assert (await service.lobbies.ask_cancel(GENERAL.channel_id, CY)).ok
    assert await _acts_on(service, Ask.REVIEW, GENERAL, AL) == GENERAL.channel_id


async def test_a_moderator_playing_ranked_from_a_channel_cancels_its_game_by_command(
    service: Services, store: Store
) -> None:
    # Al moderates #general and plays his ranked match from there; Cy opens a game there.
    await _dealt(service, store)
    opened = await service.lobbies.new_game(SERVER, GENERAL.channel_id, CY)
    assert opened.ok and opened.game_id is not None
    moderating = replace(GENERAL, moderator=True)
    assert await _acts_on(service, Ask.CANCEL, moderating, AL) == GENERAL.channel_id
    cancelled = await service.which.run(
        Ask.CANCEL,
        moderating,
        AL.id,
        lambda found: service.lobbies.ask_cancel(found.channel_id, AL, moderator=True),
    )
    assert cancelled.ok, cancelled.reply.text
    record = await store.get_game(opened.game_id)
    assert record is not None and not record.is_open
    # With no game there, his own match is still no lobby to cancel.
    assert await _acts_on(service, Ask.CANCEL, moderating, AL) == RANKED_NOT_A_LOBBY


@pytest.mark.parametrize("search_first", [True, False])
async def test_a_search_and_a_join_at_the_same_place_at_once_seat_nobody_in_both(
    service: Services, store: Store, search_first: bool
) -> None:
    # Issue 54: a ranked search and a lobby's Join take different locks; asked at the same
    # instant each found the other not yet written, and Al was seated in both. The store
    # decides: one is written, the other refused in its own words.
    opened = await service.lobbies.new_game(SERVER, GENERAL.channel_id, CY)
    assert opened.ok and opened.game_id is not None

    async def join() -> Answer:
        return await service.which.run(
            Ask.JOIN, GENERAL, AL.id, lambda found: service.lobbies.join(found.channel_id, AL)
        )

    calls = (_search(service, AL, GENERAL), join())
    searched, joined = await asyncio.gather(*(calls if search_first else calls[::-1]))
    if not search_first:
        searched, joined = joined, searched
    assert searched.ok != joined.ok, (searched.reply.text, joined.reply.text)
    assert searched.ok or searched.reply.text == SEATED_HERE
    assert joined.ok or joined.reply.text == SEARCHING_HERE
    entry = await store.live_entry(AL.id)
    record = await store.get_game(opened.game_id)
    assert record is not None
    assert (entry is not None) != (record.seat_of(AL.id) is not None)


async def test_a_seat_at_the_table_is_the_persons_question_not_whether_a_game_is_open(
    service: Services, store: Store
) -> None:
    # The table inside Discord opens a game where none is: only the person's ranked play
    # there may refuse them a seat.
    which = service.which
    assert await which.seat_refusal(GENERAL.channel_id, SERVER, CY.id) is None
    assert await which.seat_refusal(GROUP.channel_id, None, CY.id) is None
    await _dealt(service, store)
    assert await which.seat_refusal(GENERAL.channel_id, SERVER, AL.id) == RANKED_HERE


async def test_a_rematch_is_refused_for_its_presser_and_place_not_for_the_game_open_there(
    service: Services, store: Store
) -> None:
    # A rematch reads the game open at its place itself (the rematch opened already, where a
    # second press is told it is seated): the resolver refuses it only as it would refuse
    # /cribbage new for the presser there.
    seen: list[int] = []

    async def act(found: Resolved) -> Answer:
        seen.append(found.channel_id)
        return Answer.say("done")

    assert (await service.lobbies.new_game(SERVER, THREAD.channel_id, CY)).ok
    assert await _acts_on(service, Ask.NEW, THREAD, CY) != THREAD.channel_id
    assert (await service.which.run_rematch(THREAD, CY.id, act)).ok
    assert seen == [THREAD.channel_id]
    await _dealt(service, store)
    refused = await service.which.run_rematch(GENERAL, AL.id, act)
    assert not refused.ok and refused.reply.text == RANKED_HERE
    refused = await service.which.run_rematch(BEAS_DM, BEA.id, act)
    assert not refused.ok and refused.reply.text == GAMES_NOT_IN_MY_DMS
    assert seen == [THREAD.channel_id]


async def test_a_lesson_waits_in_the_dm_where_its_learners_ranked_match_is_played(
    service: Services, store: Store
) -> None:
    # Bea's match is played from her DM with the bot, the one place a lesson is dealt; Al's
    # from #general, so his DM may hold one.
    assert await service.which.lesson_refusal(BEAS_DM.channel_id, BEA.id) is None
    await _dealt(service, store)
    refused = await service.which.lesson_refusal(BEAS_DM.channel_id, BEA.id)
    assert refused == refusals.LESSON_MATCH_IN_DM
    assert await service.which.lesson_refusal(99, AL.id) is None


# -- issue 68, item 7: the DM where the hands come ----------------------------------------------
#: Al's DM with the bot, where the hands of his games in servers come.
ALS_DM = Place(Spot.BOT_DM, 21)


async def _dealt_against_the_computer(service: Services, place: Place, user: User) -> int:
    """A game of ``user``'s against the computer in ``place``, dealt at once: its id."""
    opened = await service.lobbies.new_game(
        place.guild_id, place.channel_id, user, TableAsked(vs_computer=True)
    )
    assert opened.ok, opened.reply.text
    record = await service.games.store.open_game_in_channel(place.channel_id)
    assert record is not None and record.status.value == "active"
    return record.id


async def test_a_move_typed_in_the_dm_acts_on_the_game_whose_hand_is_there(
    service: Services, store: Store
) -> None:
    """``/cribbage discard`` and ``/cribbage play`` typed in the bot's DM, where the hand
    comes and where ``/cribbage help`` suggests typing them, were refused ("You have no game
    in my DMs"): they act on the game whose hand is there."""
    game_id = await _dealt_against_the_computer(service, GENERAL, AL)
    for ask in (Ask.HAND, Ask.DISCARD, Ask.PLAY, Ask.STATUS, Ask.RESIGN):
        assert await _acts_on(service, ask, ALS_DM, AL) == GENERAL.channel_id, ask
    record = await store.get_game(game_id)
    assert record is not None
    seat = record.seat_of(AL.id)
    assert seat is not None
    hand = service.games.loaded.load(record).game.view(seat).hand
    thrown = " ".join(card.code for card in hand[:2])
    assert (await service.which.resolved(Ask.DISCARD, ALS_DM, AL.id)).beside_hand
    assert not (await service.which.resolved(Ask.DISCARD, GENERAL, AL.id)).beside_hand
    discard = await service.which.run(
        Ask.DISCARD,
        ALS_DM,
        AL.id,
        lambda found: service.moves.discard(
            found.channel_id, AL, thrown, mirror=not found.beside_hand
        ),
    )
    assert discard.ok, discard.reply.text
    # Typed beside the hand, its answer is a sentence, not a second copy of the hand there.
    assert discard.reply.view is None and discard.reply.text.startswith("You put"), discard
    after = await store.get_game(game_id)
    assert after is not None and after.version > record.version
    # Before the crib is made, a card played from the DM is told what is owed there, as in
    # the channel (the engine's sentence), not that the DM holds no game.
    played = await service.which.run(
        Ask.PLAY, ALS_DM, AL.id, lambda found: service.moves.play(found.channel_id, AL, "QS")
    )
    assert NO_GAME_IN_MY_DMS not in played.reply.text
    # Someone with no game being played is told as before.
    assert await _acts_on(service, Ask.PLAY, BEAS_DM, BEA) == NO_GAME_IN_MY_DMS


async def test_with_hands_of_two_games_in_the_dm_a_command_says_where_each_is_played(
    service: Services,
) -> None:
    await _dealt_against_the_computer(service, GENERAL, AL)
    await _dealt_against_the_computer(service, THREAD, AL)
    said = await _acts_on(service, Ask.PLAY, ALS_DM, AL)
    assert said == hands_in_my_dms([GENERAL.channel_id, THREAD.channel_id])
    assert f"<#{GENERAL.channel_id}>" in str(said) and f"<#{THREAD.channel_id}>" in str(said)


async def test_a_command_in_the_dm_of_a_player_who_left_the_server_is_refused(
    store: Store, clock: Clock
) -> None:
    members = Members()
    service = make_service(store, clock, membership=members)
    await _dealt_against_the_computer(service, GENERAL, AL)
    members.gone.add(AL.id)
    try:
        assert await _acts_on(service, Ask.PLAY, ALS_DM, AL) == refusals.LEFT_SERVER
    finally:
        service.ranked_play.stop()
        await service.ledger.writes.flush()


async def test_a_learners_command_where_no_game_is_names_the_lesson_waiting_in_the_dm(
    service: Services,
) -> None:
    """Issue 68, item 11: ``/cribbage hand`` in a server channel by a learner who left their
    lesson said "There's no game in this channel. Start one with `/cribbage new`."."""
    before = await _acts_on(service, Ask.HAND, GENERAL, AL)
    assert before == no_game("this channel")
    opened = await service.lobbies.new_game(
        None,
        ALS_DM.channel_id,
        AL,
        TableAsked(target=61, vs_computer=True, level="easy"),
        lesson=True,
    )
    assert opened.ok, opened.reply.text
    for ask in (Ask.HAND, Ask.PLAY, Ask.STATUS):
        said = await _acts_on(service, ask, GENERAL, AL)
        assert said == refusals.lesson_waits("this channel", over=False), (ask, said)
    assert "`/cribbage learn`" in refusals.lesson_waits("this channel", over=False)
    # In the DM itself, the lesson is what the commands act on.
    assert await _acts_on(service, Ask.HAND, ALS_DM, AL) == ALS_DM.channel_id
    # Someone else is told as before.
    assert await _acts_on(service, Ask.HAND, GENERAL, BEA) == no_game("this channel")
