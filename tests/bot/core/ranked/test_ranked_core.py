"""Ranked play in the core and the store (both databases), on the test's clock: one queue or
match a player, never the same opponent twice in a row, blocks, the widening window and the
searches that end, the card's offer of the expert, each place showing the table and its own
hand alone, the turn clock, and leaving a match."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import json
import zipfile
from collections.abc import AsyncIterator

import pytest

from bot.core.base import refusals
from bot.core.base.owners import Owner
from bot.core.base.places import OTHERS_RANKED, Place, PlaceKind, Spot
from bot.core.base.replies import Answer, Clicked, User
from bot.core.games.endings import Ending
from bot.core.games.records import GameRecord
from bot.core.messages.spectator import table_seen
from bot.core.privacy.players import FORMER_NAME
from bot.core.ranked.cards import CARD, card_view
from bot.core.ranked.matching import ANYONE_AFTER, EXPERT_OFFER_AFTER, SEARCH_AT_MOST
from bot.core.ranked.ranked import OLDER_SEEN_WITHIN, RANKED_RELEASE
from bot.core.ranked.rating import (
    PLACEMENT_MATCHES,
    season_before,
    season_bounds,
    season_name,
    season_of,
)
from bot.core.ranked.records import (
    NOT_RATED,
    EntryRecord,
    EntryStatus,
    MatchRecord,
    MatchStatus,
    Search,
    Unrated,
    unrated_why,
)
from bot.core.ranked.scoreboard import MatchView, game_channel
from bot.core.ranked.turns import REACH_ALLOWANCE, TURN_SECONDS
from bot.core.ranked.words import (
    ALREADY_SEARCHING,
    BLOCK_NOBODY_MET,
    BLOCK_NOT_MET,
    BLOCK_SELF,
    EXPERT_INSTEAD,
    IN_A_MATCH,
    MATCH_NOT_RATED,
    NO_EXPERT_HERE,
    NOT_RATED_GAME,
    SEARCH_OVER,
    UNBLOCK_NOBODY,
    UPGRADING,
    already_blocked,
    both_late_game,
    match_not_rated,
    named_twice,
    not_blocked_named,
    not_met_named,
    not_rated,
)
from bot.core.review.replay import replay
from bot.core.services import Services
from bot.store import Store
from bot.store.database import Dialect, migrations
from bot.store.ops_tables import ProcessRow
from bot.web.pages import replay_page
from engine.cards import cards_str
from tests.helpers.forgetting import known
from tests.helpers.held import held
from tests.helpers.service_driver import Clock, make_service

AL, BEA, CY = User(1001, "Al"), User(1002, "Bea"), User(1003, "Cy")
#: Each player's place: a server's channel, a DM, a group DM.
PLACES = {AL.id: (10, 101, PlaceKind.SERVER), BEA.id: (None, 202, PlaceKind.PRIVATE)}


def _place(user: User) -> tuple[int | None, int, PlaceKind]:
    return PLACES.get(user.id, (None, 300 + user.id % 100, PlaceKind.PRIVATE))


async def _play(service: Services, user: User) -> Answer:
    """``/cribbage ranked play`` by ``user`` from their place; its answer, landed."""
    guild, channel, place = _place(user)
    answer = await service.ranked.play(
        user, avatar=None, guild_id=guild, channel_id=channel, place=place, token=f"t{user.id}"
    )
    if answer.ok:
        shown = Clicked(channel, 5000 + user.id, f"t{user.id}")
        await service.sequels.answered(answer, landed=True, shown=shown)
    return answer


@pytest.fixture(autouse=True)
async def _done(service: Services) -> AsyncIterator[None]:
    """After each test: stop refereeing, and write what was sent (before the store closes)."""
    yield
    service.ranked_play.stop()
    await service.ledger.writes.flush()


async def _entry_status(store: Store, user: User) -> EntryStatus | None:
    found = await store.live_entry(user.id)
    return None if found is None else found.status


async def _dealt(service: Services, store: Store, match_id: int) -> GameRecord:
    """Referee until the match's next game is dealt; it."""
    await service.ranked_play.referee.start()
    await service.ranked_play.referee.idle()
    games = await store.match_games(match_id)
    record = await store.get_game(games[-1].game_id)
    assert record is not None and record.status == "active"
    return record


async def _matched(service: Services, store: Store) -> int:
    """Al and Bea search, and are matched: their match."""
    await _play(service, AL)
    await _play(service, BEA)
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None
    return entry.match_id


async def _queued(
    store: Store,
    user: User,
    channel_id: int,
    now: float,
    *,
    mu: float = 25.0,
    place: PlaceKind = PlaceKind.PRIVATE,
) -> EntryRecord:
    """``user``'s search from ``channel_id`` (a DM or group DM), written straight to the
    store (nobody paired on the way)."""
    search = Search(user.id, user.name, None, None, channel_id, place, mu, None)
    entry, _, _ = await store.queue_entry(search, now=now)
    return entry


async def test_one_queue_or_one_match_at_a_time(service: Services, store: Store) -> None:
    assert (await _play(service, AL)).ok
    again = await _play(service, AL)
    assert not again.ok and again.reply.text == ALREADY_SEARCHING
    paired = await _play(service, BEA)
    assert paired.ok and "Ranked match: Bea against Al" in paired.reply.text
    for user in (AL, BEA):
        refused = await _play(service, user)
        assert not refused.ok and refused.reply.text == IN_A_MATCH
        assert await _entry_status(store, user) is EntryStatus.MATCHED
    entry = await store.live_entry(AL.id)
    assert entry is not None
    stop = await service.ranked.stop(entry.id, AL, None)
    assert not stop.ok and stop.reply.text == IN_A_MATCH
    stranger = await service.ranked.stop(entry.id, CY, None)
    assert not stranger.ok and "someone else's" in stranger.reply.text


async def test_no_search_while_a_process_of_a_release_before_ranked_play_runs(
    service: Services, store: Store, clock: Clock
) -> None:
    # An upgrade: a process of the release before (its heartbeat names its last migration)
    # still runs beside this one. It knows nothing of ranked games: nobody searches meanwhile.
    for dialect in Dialect:
        assert RANKED_RELEASE in {m.name for m in migrations(dialect.migrations_dir)}
    now = clock().timestamp()
    older = ProcessRow("old:1:a", "old", 1, "0", "021_operations", now - 600, now, True, True)
    await store.heartbeat(older)
    refused = await _play(service, AL)
    assert not refused.ok and refused.reply.text == UPGRADING
    assert await store.live_entry(AL.id) is None
    # It stopped (its last heartbeat grows old, or it was upgraded): ranked play opens.
    clock.advance(seconds=OLDER_SEEN_WITHIN + 1)
    assert (await _play(service, AL)).ok


async def _leave(service: Services, store: Store, user: User) -> None:
    asked = await service.ranked.ask_leave(user)
    assert asked.ok and asked.reply.view is not None
    controls = asked.reply.view.controls
    match_id = getattr(controls, "subject", 0)
    left = await service.ranked.confirm_leave(match_id, user, True)
    assert left.ok, left.reply.text


async def test_never_the_same_opponent_twice_in_a_row_and_blocks_hold(
    service: Services, store: Store, clock: Clock
) -> None:
    await _play(service, AL)
    await _play(service, BEA)
    await _leave(service, store, BEA)
    clock.advance(days=8)  # (past the wait that leaving brings)
    # They just played each other: not again, however long both wait.
    await _play(service, AL)
    await _play(service, BEA)
    clock.advance(seconds=ANYONE_AFTER)
    assert await service.ranked_play.queue.sweep() == []
    assert await _entry_status(store, AL) is EntryStatus.SEARCHING
    # Al blocked Cy (they met before: Al's list offers him, a person the bot keeps): Cy is
    # paired with Bea instead.
    await known(store, CY.id)
    await store.block_player(AL.id, CY.id, CY.name, now=clock().timestamp())
    assert (await _play(service, CY)).ok
    assert await _entry_status(store, CY) is EntryStatus.MATCHED
    assert await _entry_status(store, BEA) is EntryStatus.MATCHED
    assert await _entry_status(store, AL) is EntryStatus.SEARCHING


async def _blocked_then_deleted(service: Services, store: Store, clock: Clock) -> None:
    """Bea met Al and blocked him; she played Cy since (her last opponent), and then Al had
    his data deleted."""
    for user, other in ((BEA, AL), (CY, BEA)):
        await _play(service, user)
        await _play(service, other)
        await _leave(service, store, user)
        clock.advance(days=8)  # (past the wait that leaving brings)
    assert (await service.ranked.block(BEA, "Al")).ok
    assert (await service.privacy.confirm_forget(AL.id, AL, True)).ok


async def test_a_block_holds_after_the_blocked_player_deletes_their_data(
    service: Services, store: Store, clock: Clock
) -> None:
    # Al's deletion leaves Bea's block, naming a former player; his next search is still
    # never paired with hers: neither at once (the newcomer's pairing) nor by the sweep, however
    # long both wait. Cy, who blocked nobody, is paired with him.
    await _blocked_then_deleted(service, store, clock)
    await _play(service, AL)
    await _play(service, BEA)
    clock.advance(seconds=ANYONE_AFTER)
    assert await service.ranked_play.queue.sweep() == []
    assert await _entry_status(store, AL) is EntryStatus.SEARCHING
    assert await _entry_status(store, BEA) is EntryStatus.SEARCHING
    assert (await _play(service, CY)).ok
    assert await _entry_status(store, AL) is EntryStatus.MATCHED
    assert await _entry_status(store, BEA) is EntryStatus.SEARCHING


async def test_a_former_player_blocked_is_listed_and_unblocked(
    service: Services, store: Store, clock: Clock
) -> None:
    # Bea's unblock list offers the block of Al, deleted since, as a former player; choosing
    # it lifts the block, and the sweep pairs them again. Her block list no longer offers
    # whom she blocked.
    await _blocked_then_deleted(service, store, clock)
    [former] = await service.ranked.blocked(BEA.id, "")
    assert former.name == FORMER_NAME and former.value != str(AL.id)
    assert former.value not in {c.value for c in await service.ranked.opponents(BEA.id, "")}
    # Another player she blocked had theirs deleted too: the name alone cannot say which,
    # the list's value (a former player's id, negative) does.
    other = -(2**52) - 7
    await known(store, other)  # (their deletion made that former player's row)
    await store.block_player(BEA.id, other, FORMER_NAME, now=clock().timestamp())
    assert len(await service.ranked.blocked(BEA.id, "")) == 2
    await _play(service, AL)
    await _play(service, BEA)
    lifted = await service.ranked.unblock(BEA, former.value)
    assert lifted.ok and f"**{FORMER_NAME}** may be matched with you again" in lifted.reply.text
    assert [c.value for c in await service.ranked.blocked(BEA.id, "")] == [str(other)]
    clock.advance(seconds=ANYONE_AFTER)
    [match] = await service.ranked_play.queue.sweep()
    assert {match.player_a, match.player_b} == {AL.id, BEA.id}


async def test_the_window_widens_and_a_search_ends_unmatched_after_a_while(
    service: Services, store: Store, clock: Clock
) -> None:
    now = clock().timestamp()
    queue = service.ranked_play.queue
    far = [
        await _queued(store, user, 300 + n, now, mu=mu)
        for n, (user, mu) in enumerate(((AL, 15.0), (BEA, 35.0)))
    ]
    assert await queue.sweep() == []  # twenty apart: not yet
    clock.advance(seconds=ANYONE_AFTER)
    (match,) = await queue.sweep()
    assert {match.entry_a, match.entry_b} == {e.id for e in far}
    lonely = await _queued(store, CY, 333, clock().timestamp())
    clock.advance(seconds=SEARCH_AT_MOST)
    assert await queue.sweep() == []
    ended = await store.ranked_entry(lonely.id)
    assert ended is not None and ended.status is EntryStatus.EXPIRED
    assert "Nobody was found for Cy" in card_view(ended, clock().timestamp()).content


async def test_the_card_offers_the_expert_after_a_while_but_not_in_the_bots_dms(
    service: Services, store: Store, clock: Clock
) -> None:
    await _play(service, AL)
    entry = await store.live_entry(AL.id)
    assert entry is not None
    owing = await service.ledger.owed(Owner.ranked(entry.id))
    assert owing is not None and owing.check_at == entry.queued_at + EXPERT_OFFER_AFTER
    (card,) = owing.owed
    assert card.key == CARD and card.tokens_only
    assert getattr(card.view.controls, "buttons", ()) == ("stop",)
    clock.advance(seconds=EXPERT_OFFER_AFTER)
    owing = await service.ledger.owed(Owner.ranked(entry.id))
    assert owing is not None and getattr(owing.owed[0].view.controls, "buttons", ()) == (
        "stop",
        "expert",
    )
    in_bots_dm = dataclasses.replace(entry, place=PlaceKind.BOT_DM)
    assert getattr(card_view(in_bots_dm, clock().timestamp()).controls, "buttons", ()) == ("stop",)


async def test_each_place_shows_the_table_and_its_own_hand_alone(
    service: Services, store: Store
) -> None:
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    assert await service.ledger.owed(Owner.game(game.id)) is None  # the game keeps none
    loaded = service.games.loaded.load(game)
    for seat, user in enumerate((AL, BEA)):
        owing = await service.ledger.owed(Owner.place(game.id, seat))
        assert owing is not None
        assert sorted(str(o.key) for o in owing.owed) == [f"hand:1:{seat}", "lobby"]
        assert all(o.tokens_only for o in owing.owed)
        table = owing.owed[0].view if str(owing.owed[0].key) == "lobby" else owing.owed[1].view
        assert table.mentions in ((), (user.id,))
        assert "Ranked match" in table.content and "time runs out" in table.content
        other = 1 - seat
        hidden = cards_str(loaded.game.hand(other)).split()
        for owed in owing.owed:
            shown = "\n".join(
                line for line in owed.view.content.splitlines() if not line.startswith("Cut for")
            )
            assert not any(card in shown for card in hidden), shown
        # Their hand, opened from the table, is kept for their place.
        opened = await service.table.own_hand(game.id, user, guild_id=None)
        assert opened.ok and opened.sequel is not None
        assert opened.sequel.owner == Owner.place(game.id, seat)


async def test_a_non_player_is_told_whose_game_it_is_by_every_control_of_a_ranked_table(
    service: Services, store: Store
) -> None:
    """*Resign* looked for the clicker's place's game, not the table's, and told Cy "That game
    is over." in deal 1; every control names its game and refuses as *Your hand* does."""
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    for guild_id in (None, 10):
        controls = [
            service.table.own_hand(game.id, CY, guild_id=guild_id),
            service.moves.ask_resign_at(game.id, CY, guild_id=guild_id),
            service.moves.confirm_resign(game.id, CY, True, guild_id=guild_id),
        ]
        for control in controls:
            answer = await control
            assert not answer.ok and answer.reply.text == OTHERS_RANKED
    # (A player is asked; an older table's game, over, says so.)
    asked = await service.moves.ask_resign_at(game.id, AL, guild_id=10)
    assert asked.ok and "ranked match" in asked.reply.text
    refused = await service.moves.ask_resign_at(game.id + 99, AL, guild_id=10)
    assert not refused.ok and refused.reply.text == refusals.UNKNOWN_GAME
    assert (await store.get_game(game.id)) == game


async def test_a_turn_run_out_loses_the_game_and_a_match_so_lost_waits_after(
    service: Services, store: Store, clock: Clock
) -> None:
    match_id = await _matched(service, store)
    for number in (1, 2):
        # Bea throws her cards; Al never does.
        await _lost_on_the_clock(service, store, clock, match_id, AL)
        games = await store.match_games(match_id)
        assert games[number - 1].winner == BEA.id and games[number - 1].ending is Ending.CLOCK
    match = await store.ranked_match(match_id)
    assert match is not None and match.status is MatchStatus.FINISHED
    assert (match.winner, match.how, match.abandoned_by) == (BEA.id, "games", AL.id)
    # Each place's table says how the game ended once, in the words of the clock (never
    # "resigned": the referee resigned it for Al, but it is the clock's loss), then the match:
    # both ratings before and after, and where its own player stands on the ladder now.
    placing = " 4 more matches before a rank on the ladder."
    standings = []
    for seat in (0, 1):
        table = await service.ledger.owed(Owner.place(match.game_id or 0, seat))
        assert table is not None
        text = table.owed[0].view.content
        assert text.count("Al's clock ran out — 🏆 Bea wins") == 1, text
        assert "resigned" not in text and "🏆 **Bea wins the ranked match 2–0**." in text
        assert "Ranked ratings — Al: 1,000 → " in text and " · Bea: 1,000 → " in text, text
        standings += [line for line in text.splitlines() if line.endswith(placing)]
    assert sorted(standings) == [f"Al:{placing}", f"Bea:{placing}"], standings
    waits = await _play(service, AL)
    assert not waits.ok and "your next search waits until" in waits.reply.text
    assert (await _play(service, BEA)).ok


@pytest.mark.parametrize("won_before", [False, True])
async def test_both_clocks_run_out_at_the_crib_and_neither_player_loses_before_the_other(
    service: Services, store: Store, clock: Clock, won_before: bool
) -> None:
    """Neither player throws for the crib (the one move both owe at once, one deadline): the
    first seated lost the game on the clock, every time, and a match neither moved in was
    won 2–0 and rated. Both are treated alike: the game counts for neither, and the match ends
    there, not rated (whatever its score: Bea's game won before counts no more than Al's
    absence), nobody abandoning it; each table says how the game ended once, then why the
    match was not rated, as the cards, the ladder and the next search say it."""
    match_id = await _matched(service, store)
    if won_before:
        await _lost_on_the_clock(service, store, clock, match_id, AL)  # (Bea leads 1–0)
    game = await _dealt(service, store, match_id)
    clock.advance(seconds=TURN_SECONDS + REACH_ALLOWANCE + 1)
    service.ranked_play.referee.look(match_id)
    await service.ranked_play.referee.idle()
    match = await _ended_unrated(store, match_id)
    games = await store.match_games(match_id)
    assert len(games) == 1 + won_before, "no game dealt after it"
    assert (games[-1].winner, games[-1].ending) == (None, Ending.CLOCK)
    assert unrated_why(games) is Unrated.BOTH_LATE
    ended = await store.get_game(game.id)
    assert ended is not None and ended.status == "cancelled"
    said = both_late_game("Al", "Bea")
    assert ended.end_note == said
    assert (
        said == "⏰ Both clocks ran out — neither Al nor Bea moved in time. No result is recorded."
    )
    why = match_not_rated(Unrated.BOTH_LATE)
    for seat in (0, 1):
        table = await service.ledger.owed(Owner.place(game.id, seat))
        assert table is not None
        text = table.owed[0].view.content
        assert text.count(said) == 1 and text.count(why) == 1, text
        assert "clock ran out —" not in text and "wins" not in text and "bot was down" not in text
    for entry in await store.match_entries(match):
        card = await service.ledger.owed(Owner.ranked(entry.id))
        assert card is not None and why in card.owed[0].view.content
    for user, other in ((AL, "Bea"), (BEA, "Al")):
        ladder = (await service.ranked.ladder(user)).reply.text
        assert f"Not rated against **{other}** (both clocks ran out)" in ladder, ladder
        assert await store.latest_rating(user.id) is None or won_before
        # Nobody abandoned it: no wait, and the next search's card says why it was not rated.
        searched = await _play(service, user)
        assert searched.ok, searched.reply.text
        assert not_rated(other, Unrated.BOTH_LATE) in searched.reply.text
    assert not_rated("Bea", Unrated.BOTH_LATE) == (
        "Your ranked match against **Bea** was not rated: both clocks ran out in the same turn,"
        " and a game neither player moved in counts for neither."
    )


async def test_a_match_decided_while_its_table_reads_it_is_read_again(
    service: Services, store: Store, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A place's table reads its match as the referee decides it (the match's last game ended
    a moment before): the read from before the decision is not kept, so the tables drawn for
    the decision say it (they said the next game comes, for good)."""
    match_id = await _matched(service, store)
    matches = MatchView(store)
    # (The read's second statement waits for the decision, which lands between them.)
    reached, release = held(monkeypatch, store, "match_games")
    reading = asyncio.create_task(matches.read(match_id))
    await reached.wait()
    decided = await store.finish_match(
        match_id, winner=BEA.id, how="games", abandoned_by=None, now=clock().timestamp()
    )
    assert decided, "decided now"
    now_at = await store.ranked_match(match_id)
    assert now_at is not None
    # (What the referee says once it has decided it: the version its decision moved it to.)
    matches.moved_to(match_id, now_at.version)
    release.set()
    before = await reading
    assert before is not None and before[0].status is MatchStatus.PLAYING, "read before"
    now = await matches.read(match_id)
    assert now is not None and now[0].status is MatchStatus.FINISHED
    assert now[0].winner == BEA.id
    # A read nothing changed during is kept: the next draw reads nothing.
    monkeypatch.setattr(store, "ranked_match", None)
    assert await matches.read(match_id) == now


@pytest.mark.parametrize("meanwhile", ["deleted", "left"])
async def test_no_game_is_dealt_for_a_match_ended_while_the_referee_dealt_it(
    service: Services, store: Store, monkeypatch: pytest.MonkeyPatch, meanwhile: str
) -> None:
    """The referee has read the match and its players and is about to deal its first game
    when Al has his data deleted (which leaves the match, a loss) or Bea leaves it: no game
    is dealt for the match over, none seats Al under his own id after his deletion. (It was
    dealt from the read before: Al seated again, by his id and name, in a game left open,
    since the leaver it would be resigned for was a former player by then.)"""
    match_id = await _matched(service, store)
    # (The game's one write waits until the match has ended.)
    reached, go_on = held(monkeypatch, store, "create_game")
    await service.ranked_play.referee.start()
    await reached.wait()
    if meanwhile == "deleted":
        assert (await service.privacy.confirm_forget(AL.id, AL, True)).ok
    else:
        await _leave(service, store, BEA)
    go_on.set()
    # (Within a bound: the game left open had the referee look again at once, for ever.)
    await asyncio.wait_for(service.ranked_play.referee.idle(), 30)
    match = await store.ranked_match(match_id)
    assert match is not None and match.status is MatchStatus.FINISHED
    assert await store.match_games(match_id) == []
    dealt = await store.db.fetch(
        "SELECT id FROM games WHERE channel_id = ?", (game_channel(match_id, 1),)
    )
    assert dealt == [], "no game dealt for the match over"
    if meanwhile == "deleted":
        seated = await store.db.fetch("SELECT game_id FROM seats WHERE user_id = ?", (AL.id,))
        assert seated == [], "Al's id kept after his deletion"


async def test_a_turn_the_bot_was_down_for_starts_again_when_it_is_back(
    service: Services, store: Store, clock: Clock
) -> None:
    """A bot that stopped answers no click (Discord tells the player the interaction failed):
    the turn it finds under way when it starts again is counted from then, never lost for the
    time it was down (each place still within a token's reach: the match goes on)."""
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    service.ranked_play.stop()
    clock.advance(seconds=5 * 60)  # (the bot is down; each place's token still lives)
    again = make_service(store, clock)
    try:
        await again.ranked_play.referee.start()
        await again.ranked_play.referee.idle()
        still = await store.get_game(game.id)
        assert still is not None and still.status == "active", "lost while the bot was down"
        deadline = clock().timestamp() + REACH_ALLOWANCE + TURN_SECONDS
        table = await again.ledger.owed(Owner.place(game.id, 0))
        assert table is not None and f"<t:{int(deadline)}:R>" in table.owed[0].view.content
        clock.advance(seconds=TURN_SECONDS + REACH_ALLOWANCE + 1)
        again.ranked_play.referee.look(match_id)
        await again.ranked_play.referee.idle()
        games = await store.match_games(match_id)
        assert games[0].ending is Ending.CLOCK, "the clock runs from the restart"
    finally:
        again.ranked_play.stop()
        await again.ledger.writes.flush()


async def _down_for(service: Services, store: Store, clock: Clock, seconds: float) -> Services:
    """The bot stops, is down for ``seconds``, and starts again: the core that referees now
    (its referee's first looks taken)."""
    service.ranked_play.stop()
    await service.ledger.writes.flush()
    clock.advance(seconds=seconds)
    again = make_service(store, clock)
    await again.ranked_play.referee.start()
    await again.ranked_play.referee.idle()
    return again


async def test_a_match_the_bot_was_down_too_long_to_reach_is_not_rated(
    service: Services, store: Store, clock: Clock
) -> None:
    """Down for longer than a token lives, the bot can reach neither place of a match (each is
    reached through its own player's tokens alone): the match ends without a result. Nobody
    won it, nobody's rating or placement moved, nobody abandoned it (no wait before the next
    search), and every place that tells of it says so: the tables, the cards, the ladder's
    latest matches, and the next search's card."""
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    again = await _down_for(service, store, clock, 20 * 60)
    try:
        match = await _ended_unrated(store, match_id)
        ended = await store.get_game(game.id)
        assert ended is not None and ended.status == "cancelled"
        assert ended.end_note == NOT_RATED_GAME
        season = season_of(clock().timestamp())
        for user in (AL, BEA):
            assert await store.season_rating(season, user.id) is None, "rated"
            assert await store.latest_rating(user.id) is None
            assert await _entry_status(store, user) is None, "still held by the match"
        for seat, user in enumerate((AL, BEA)):
            table = await again.ledger.owed(Owner.place(game.id, seat))
            assert table is not None and MATCH_NOT_RATED in table.owed[0].view.content
            last = await store.last_match_from(user.id, _place(user)[1])
            assert last is not None and last.id == match_id
        for entry in await store.match_entries(match):
            card = await again.ledger.owed(Owner.ranked(entry.id))
            assert card is not None and MATCH_NOT_RATED in card.owed[0].view.content
        ladder = await again.ranked.ladder(AL)
        assert "Not rated against **Bea** (the bot was down)" in ladder.reply.text
        # His data file says it as the match record does; his stats count no game of it.
        with zipfile.ZipFile(io.BytesIO((await again.privacy.data_file(AL)).data)) as archive:
            data = json.loads(archive.read(archive.namelist()[0]))
        [kept] = data["ranked_matches"]
        assert (kept["how"], kept["winner"], kept["season"]) == ("cancelled", None, None)
        assert data["ranked_rating_changes"] == [] and data["ranked_ratings"] == []
        assert await store.standing(None, AL.id) == {}
        # Its game's status (as its page and the Activity, from its end note) says why too.
        status = (await again.table.status(game.channel_id)).reply.text
        assert "not rated: the bot was down too long to reach both players" in status, status
        # No wait: the next search is answered with the card, which tells them.
        searched = await _play(again, AL)
        assert searched.ok, searched.reply.text
        assert not_rated("Bea") in searched.reply.text
        assert "Your ranked match against" not in (await _play(again, CY)).reply.text
    finally:
        again.ranked_play.stop()
        await again.ledger.writes.flush()


@pytest.mark.parametrize(("down", "rated"), [(9 * 60, True), (10 * 60, False)])
async def test_a_waiting_player_must_stay_within_reach_until_their_next_turn_can_come(
    service: Services, store: Store, clock: Clock, down: float, rated: bool
) -> None:
    """Al has thrown; Bea owes her cards. Al's place is reached through his card's token alone
    (used for 14 minutes from his search, TOKEN_USABLE). Bea's throw, then up to three more
    moves of hers before his turn comes back, may take four turns (4 × 65 s) from the restart:
    after 9 minutes down his token outlives them and the match goes on; after 10 it could lapse
    before his turn comes, and the match is not rated."""
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    seat = next(s for s in game.seats if s.user_id == AL.id)
    hand = service.games.loaded.load(game).game.hand(seat.seat)
    thrown = await service.moves.discard(game.channel_id, AL, f"{hand[0].code} {hand[1].code}")
    assert thrown.ok, thrown.reply.text
    await service.ranked_play.referee.idle()
    again = await _down_for(service, store, clock, down)
    try:
        match = await store.ranked_match(match_id)
        assert match is not None
        playing = match.status is MatchStatus.PLAYING
        assert playing is rated and match.rated is rated
    finally:
        again.ranked_play.stop()
        await again.ledger.writes.flush()


async def test_a_game_lost_on_the_clock_keeps_the_cards_nobody_saw_off_its_page(
    service: Services, store: Store, clock: Clock
) -> None:
    # Al's clock runs out before he throws: no card of the deal was ever seen, so the game's
    # page (linked from each place's table) lists none of them, and says why.
    match_id = await _matched(service, store)
    dealt = await _lost_on_the_clock(service, store, clock, match_id, AL)
    hidden = {str(c) for seat in (0, 1) for c in service.games.loaded.load(dealt).game.hand(seat)}
    record = await store.get_game(dealt.id)
    assert record is not None and record.ending is Ending.CLOCK
    loaded = service.games.loaded.load(record)
    told = replay(loaded)
    assert told is not None
    [deal] = told.deals
    page = replay_page(table_seen(record, loaded), told, "/g/1/x", {})
    start = page.index('<section class="deal"')
    part = page[start : page.index("</section>", start)]
    assert not [card for card in hidden if card in part], part
    assert "Not shown: the game ended before the show, before any card" in part
    assert "Starter: not cut" in part
    assert deal.hands == [(), ()] and deal.discards == [(), ()]


async def test_a_match_games_points_count_for_nothing_in_the_records_either(
    service: Services, store: Store, clock: Clock
) -> None:
    """A ranked match's game is one game won or lost: its result names no game points, and
    the records outside servers count it so (1 game point, no lurch), where two games lost
    on the clock at 0–0 showed "lurches given 2" in Bea's stats and "Game points: Bea: 4" in
    her head to head with Al, under tables that said no game points count."""
    match_id = await _matched(service, store)
    games = [await _lost_on_the_clock(service, store, clock, match_id, AL) for _ in range(2)]
    for game in games:
        rows = await store.results(game.id)
        assert {(r.user_id, r.won, r.game_points) for r in rows} == {
            (AL.id, False, 1),
            (BEA.id, True, 1),
        }, rows
        assert not any(r.skunk_given or r.skunk_taken for r in rows)
        status = await service.table.status(game.channel_id)
        assert "Al's clock ran out — 🏆 Bea wins (Bea: 0, Al: 0)" in status.reply.text
        assert "game point" not in status.reply.text and "lurch" not in status.reply.text
    _, dm, _ = _place(BEA)
    stats = (await service.feature_acts.record(None, BEA, None, here=dm)).reply.text
    assert "Against people: 2 games, 2 wins (100%); no lurches or skunks." in stats, stats
    head = (await service.feature_acts.record(None, BEA, AL, here=dm)).reply.text
    assert "2 games — Bea won 2, Al won 0." in head and "Game points: Bea: 2, Al: 0." in head


async def test_a_match_games_page_says_its_result_as_its_places_do(
    service: Services, store: Store, clock: Clock
) -> None:
    """The page of a ranked match's game (linked from each place's table) ends on the result
    its places show, with no line of ratings: the places show none for a game of the match,
    and the page's "Ratings — Al: 963 (−37) · Bea: 1,069 (+69)" was the rating of games
    outside servers, not the ranked rating the match moves, which the players never saw."""
    match_id = await _matched(service, store)
    game = await _lost_on_the_clock(service, store, clock, match_id, AL)
    record = await store.get_game(game.id)
    assert record is not None
    seen = await service.pages.seen(record)
    said = "Al's clock ran out — 🏆 Bea wins (Bea: 0, Al: 0)"
    assert seen.messages[-1].content == said, seen.messages[-1].content
    assert not any("Ratings" in m.content for m in seen.messages), seen.messages
    for seat in (0, 1):
        owing = await service.ledger.owed(Owner.place(game.id, seat))
        assert owing is not None and said in owing.owed[0].view.content
        assert "Ratings —" not in owing.owed[0].view.content


async def _ended_unrated(store: Store, match_id: int) -> MatchRecord:
    """The match, ended without a result: no winner, no season, abandoned by nobody, no
    rating changed."""
    match = await store.ranked_match(match_id)
    assert match is not None and match.status is MatchStatus.FINISHED
    assert (match.winner, match.how, match.abandoned_by, match.season) == (
        None,
        NOT_RATED,
        None,
        None,
    )
    assert not match.rated and await store.match_changes(match_id) == {}
    return match


async def _lost_on_the_clock(
    service: Services, store: Store, clock: Clock, match_id: int, loser: User
) -> GameRecord:
    """The match's next game, dealt, lost on the clock by ``loser`` (the other throws)."""
    game = await _dealt(service, store, match_id)
    other = next(s for s in game.seats if s.user_id != loser.id)
    hand = service.games.loaded.load(game).game.hand(other.seat)
    mover = User(other.user_id or 0, other.name)
    thrown = await service.moves.discard(game.channel_id, mover, f"{hand[0].code} {hand[1].code}")
    assert thrown.ok, thrown.reply.text
    await service.ranked_play.referee.idle()
    still = await store.get_game(game.id)
    assert still is not None and still.status == "active", "not before its time"
    clock.advance(seconds=TURN_SECONDS + REACH_ALLOWANCE + 1)
    service.ranked_play.referee.look(match_id)
    await service.ranked_play.referee.idle()
    return game


async def test_leaving_loses_the_game_being_played_too_and_every_place_says_so_once(
    service: Services, store: Store, clock: Clock
) -> None:
    # Game 1 lost on Al's clock, game 2 on Bea's: 1–1. Bea leaves during game 3: she loses it
    # with the match, so Al wins 2–1 (not "1–1"), and each place says how each game ended,
    # once, in its own words.
    match_id = await _matched(service, store)
    await _lost_on_the_clock(service, store, clock, match_id, AL)
    await _lost_on_the_clock(service, store, clock, match_id, BEA)
    third = await _dealt(service, store, match_id)
    asked = await service.ranked.ask_leave(BEA)
    assert "You lose the match (and the game being played)" in asked.reply.text
    left = await service.ranked.confirm_leave(match_id, BEA, True)
    # Leaving makes Bea wait: the answer says until when.
    assert left.ok and left.reply.text.startswith(
        "You left the match: Al wins it 2–1 (with the game being played). "
        "Your next ranked search can start <t:"
    ), left.reply.text
    await service.ranked_play.referee.idle()
    match = await store.ranked_match(match_id)
    assert match is not None and (match.winner, match.how) == (AL.id, Ending.LEFT)
    assert (match.wins_of(AL.id), match.wins_of(BEA.id)) == (2, 1)
    games = await store.match_games(match_id)
    assert [(g.winner, g.ending) for g in games] == [
        (BEA.id, Ending.CLOCK),
        (AL.id, Ending.CLOCK),
        (AL.id, Ending.LEFT),
    ]
    for seat in (0, 1):
        for game, said in ((games[0], "Al's clock ran out"), (games[1], "Bea's clock ran out")):
            owing = await service.ledger.owed(Owner.place(game.game_id, seat))
            assert owing is not None
            text = owing.owed[0].view.content
            assert text.count(f"{said} — 🏆") == 1 and "resigned" not in text, text
        owing = await service.ledger.owed(Owner.place(third.id, seat))
        assert owing is not None
        text = owing.owed[0].view.content
        assert text.count("Bea left the match — 🏆 Al wins") == 1, text
        assert "resigned" not in text and "clock ran out" not in text, text
        assert "🏆 **Al wins the ranked match 2–1** (Bea left the match)." in text, text
    # The cards, the ladder's list of latest matches: the same words, the same score.
    for entry_id in (match.entry_a, match.entry_b):
        card = await service.ledger.owed(Owner.ranked(entry_id))
        assert card is not None
        assert "Al won 2–1 (Bea left the match)." in card.owed[0].view.content
    ladder = (await service.ranked.ladder(BEA)).reply.text
    assert "**Bea's latest matches**" in ladder
    assert "Lost 1–2 against **Al** (Bea left the match) · " in ladder, ladder


async def test_a_match_left_before_anything_was_won_reads_1_0(
    service: Services, store: Store
) -> None:
    # Issue 54, item 6: "wins the ranked match 0–0" when the leaver had won nothing.
    match_id = await _matched(service, store)
    game = await _dealt(service, store, match_id)
    await _leave(service, store, AL)
    await service.ranked_play.referee.idle()
    match = await store.ranked_match(match_id)
    assert match is not None and (match.wins_of(BEA.id), match.wins_of(AL.id)) == (1, 0)
    owing = await service.ledger.owed(Owner.place(game.id, 1))
    assert owing is not None
    text = owing.owed[0].view.content
    assert "🏆 **Bea wins the ranked match 1–0** (Al left the match)." in text, text


async def test_block_says_why_it_cannot_block_each_choice(
    service: Services, store: Store, clock: Clock
) -> None:
    # Issue 54, item 17: nobody met yet, yourself, someone never met (by name or by id), a
    # name two opponents share, someone blocked already: each its own sentence. A name typed
    # as the list shows it blocks that player.
    calls = service.ranked
    refused = await calls.block(AL, "Bea")
    assert not refused.ok and refused.reply.text == BLOCK_NOBODY_MET
    unblocked = await calls.unblock(AL, "Bea")
    assert not unblocked.ok and unblocked.reply.text == UNBLOCK_NOBODY
    await _play(service, AL)
    await _play(service, BEA)
    await _leave(service, store, BEA)
    for typed, said in (
        (str(AL.id), BLOCK_SELF),
        ("al", BLOCK_SELF),
        ("Cy", not_met_named("Cy")),
        (str(CY.id), BLOCK_NOT_MET),
    ):
        refused = await calls.block(AL, typed)
        assert not refused.ok and refused.reply.text == said, typed
    blocked = await calls.block(AL, " bea ")
    assert blocked.ok and "won't be matched with **Bea** again" in blocked.reply.text
    again = await calls.block(AL, str(BEA.id))
    assert not again.ok and again.reply.text == already_blocked("Bea")
    lifted = await calls.unblock(AL, "Bea")
    assert lifted.ok and "**Bea** may be matched with you again" in lifted.reply.text
    nobody = await calls.unblock(AL, "Bea")
    assert not nobody.ok and nobody.reply.text == UNBLOCK_NOBODY
    # Another opponent called Bea: the name alone cannot say which.
    now = clock().timestamp() + 86400
    first = await _queued(store, AL, 101, now)
    second = await _queued(store, User(1004, "Bea"), 404, now)
    assert await store.pair_entries(first.id, second.id, now=now) is not None
    twice = await calls.block(AL, "Bea")
    assert not twice.ok and twice.reply.text == named_twice("Bea")
    # With someone blocked, a name they did not block is named in the answer.
    assert (await calls.block(AL, str(second.user_id))).ok
    other = await calls.unblock(AL, "Cy")
    assert not other.ok and other.reply.text == not_blocked_named("Cy")


async def test_the_expert_instead_ends_the_search_and_deals_a_game_at_the_place(
    service: Services, store: Store, clock: Clock
) -> None:
    assert (await _play(service, BEA)).ok  # Bea's place is a DM between people
    entry = await store.live_entry(BEA.id)
    assert entry is not None
    clock.advance(seconds=EXPERT_OFFER_AFTER)
    conversation = Place(Spot.PRIVATE, entry.channel_id)
    # Cy's lobby there first: the place is named as it is (not "this channel").
    assert (await service.lobbies.new_game(None, entry.channel_id, CY, private=True)).ok
    busy = await service.ranked.expert(entry.id, BEA, None, place=conversation)
    assert not busy.ok and busy.reply.text == refusals.busy("this conversation")
    assert (await service.lobbies.cancel(entry.channel_id, CY)).ok
    answer = await service.ranked.expert(entry.id, BEA, None, place=conversation)
    assert answer.ok and answer.reply.text == EXPERT_INSTEAD, answer.reply.text
    assert answer.update is not None and "Bea stopped searching" in answer.update.content
    assert await store.live_entry(BEA.id) is None
    game = await store.open_game_in_channel(entry.channel_id)
    assert game is not None and game.seating.tokens_only and game.options.vs_computer
    assert [s.level for s in game.seats if s.is_computer] == ["expert"]
    # Not again (the search is over), and never in the bot's DMs (no game is played there).
    again = await service.ranked.expert(entry.id, BEA, None, place=conversation)
    assert not again.ok and again.reply.text == SEARCH_OVER
    dm = await _queued(store, CY, 999, clock().timestamp(), place=PlaceKind.BOT_DM)
    refused = await service.ranked.expert(dm.id, CY, None, place=Place(Spot.BOT_DM, 999))
    assert not refused.ok and refused.reply.text == NO_EXPERT_HERE
    assert await store.open_game_in_channel(999) is None


async def test_the_ladder_ranks_after_placement_and_keeps_each_seasons_champion(
    service: Services, store: Store, clock: Clock
) -> None:
    now = clock().timestamp()
    season, before = season_of(now), season_before(season_of(now))
    rows = [
        (season, 5000 + n, f"Player{n}", 20.0 + n * 0.5, 3.0, PLACEMENT_MATCHES + n % 3, 2, now)
        for n in range(60)
    ]
    rows.append((season, AL.id, AL.name, 40.0, 2.0, PLACEMENT_MATCHES - 1, 3, now))  # placing
    rows.append((before, BEA.id, BEA.name, 45.0, 2.0, 12, 10, now - 40 * 86400))
    rows.append((before, CY.id, CY.name, 30.0, 2.0, 12, 6, now - 40 * 86400))
    await known(store, *(row[1] for row in rows))  # (players, each a person the bot keeps)
    for row in rows:
        await store.db.execute(
            "INSERT INTO ranked_ratings (season, user_id, name, mu, sigma, matches, wins,"
            " updated_at, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (*row, row[3] - 3 * row[4]),
        )
    this = await service.ranked.ladder(AL, "this")
    assert this.ok and not this.reply.ephemeral
    text = this.reply.text
    listed = [line for line in text.splitlines() if line[:1].isdigit() and ". " in line]
    assert len(listed) == 50 and listed[0].startswith("1. ") and "Player59" in listed[0]
    assert "Al" not in "".join(listed), "no rank before the placement matches"
    assert (
        "**Al**: not ranked yet" in text
        and "You" not in text
        and "1 more match before a rank" in text
    )
    assert f"Champion of {season_name(before)}: **Bea**" in text
    # When the season (a UTC month) ends, on each reader's own clock and calendar.
    ends = int(season_bounds(season)[1])
    assert f"The season ends <t:{ends}:f> (<t:{ends}:R>)," in text
    last = await service.ranked.ladder(CY, "last")
    assert "Final standings" in last.reply.text and "Champion: **Bea**" in last.reply.text
    assert "**Cy**: #2 of 2" in last.reply.text
    champions = await service.ranked.ladder(CY, "champions")
    assert f"**{season_name(before)}**: Bea" in champions.reply.text
    assert len(text) <= 4000


async def test_a_stop_while_the_referee_starts_leaves_no_sweep_running(
    service: Services, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stops (or loses the lease) while the referee still reads the matches to
    look at: the queue's sweep is not started after it, where it would read a closed store."""
    reading, go_on = held(monkeypatch, store, "matches_since")
    starting = asyncio.create_task(service.ranked_play.start())
    await reading.wait()
    service.ranked_play.stop()
    go_on.set()
    await starting
    assert not service.ranked_play.referee.running
    assert not service.ranked_play.sweeping


async def test_the_ladder_of_a_player_in_their_first_match_says_it_is_being_played(
    service: Services, store: Store, clock: Clock
) -> None:
    """Issue 68, item 18: ``/cribbage ranked ladder`` during a first match said "**Al**
    hasn't played a ranked match in November 2026" (he was playing one)."""
    named = season_name(season_of(clock().timestamp()))
    await _play(service, AL)
    searching = (await service.ranked.ladder(AL)).reply.text
    assert f"**Al** is searching for their first ranked match of {named}." in searching
    await _play(service, BEA)
    playing = (await service.ranked.ladder(AL)).reply.text
    assert "hasn't played a ranked match" not in playing, playing
    assert f"**Al** is playing their first ranked match of {named}" in playing, playing
    # Someone who never searched is told how to start, as before.
    idle = (await service.ranked.ladder(CY)).reply.text
    assert f"**Cy** hasn't played a ranked match in {named}: `/cribbage ranked play`" in idle
