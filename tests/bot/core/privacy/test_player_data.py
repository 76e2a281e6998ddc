"""A person's data on request (issue 50, item 4), through the core on both databases: the file
holds every row kept about them (and nothing about others); deleting it after Yes resigns the
game they are playing, leaves the games they played whole for their opponents with a former
player in their place (seats, results, snapshots), deletes their own rows, and leaves every
opponent's rating as it was, reproduced by a replay of all the results. No changes nothing;
someone else's buttons are refused."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from bot.core.base.owners import Owner
from bot.core.base.replies import Answer, TableAsked, User
from bot.core.base.text import escape
from bot.core.games.endings import Ending
from bot.core.games.records import GameStatus, is_former
from bot.core.privacy.keyed import keyed_id
from bot.core.privacy.players import FORMER_NAME, renamed_note
from bot.core.ranked.cards import CardMessages
from bot.core.ranked.rating import season_before, season_name, season_of
from bot.core.services import Services
from bot.store import Store
from bot.tools.ratings import differences
from tests.helpers.cast import AL, BEA, CY
from tests.helpers.forgetting import known
from tests.helpers.service_driver import Clock, drive, finished_game, open_table, search_ranked


def _unzipped(data: bytes) -> dict[str, Any]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        [name] = archive.namelist()
        loaded: dict[str, Any] = json.loads(archive.read(name))
        return loaded


async def _bea_numbers(store: Store) -> list[tuple[Any, ...]]:
    rows = await store.db.fetch(
        "SELECT guild_id, player_id, mu, sigma, games FROM standings WHERE player_id = ?"
        " ORDER BY guild_id",
        (BEA.id,),
    )
    return [tuple(r) for r in rows]


async def test_the_file_then_the_deletion(service: Services, store: Store) -> None:
    _, first = await finished_game(service, (AL, BEA))
    await service.coach.coach(AL, on=False)
    # A game Al is playing in another channel when he asks.
    playing = await open_table(service, (AL, CY), channel=2000)
    await drive(service, playing, (AL, CY), stop_after=3)
    [(active,)] = await store.db.fetch("SELECT id FROM games WHERE channel_id = 2000")

    made = await service.privacy.data_file(AL)
    assert made.filename.endswith(".zip") and "records" in made.line
    data = _unzipped(made.data)
    assert {g["id"] for g in data["games"]} == {first, active}
    assert [r["user_id"] for r in data["results"]] == [AL.id]
    assert data["settings"][0]["coach"] == 0 and data["standings"]
    assert all(r["user_id"] == AL.id for r in data["head_to_head"]) and data["head_to_head"]
    assert all("token" not in row for row in data["dm_link"])

    bea_before = await _bea_numbers(store)
    explained = await service.privacy.explain(AL)
    assert explained.ok and "Former" not in explained.reply.text
    assert "30 days" in explained.reply.text and "Delete my data" in explained.reply.text
    asked = await service.privacy.ask_forget(AL.id, AL)
    assert asked.ok and asked.update is not None and "can't be taken back" in asked.update.content
    refused = await service.privacy.confirm_forget(AL.id, BEA, True)
    assert not refused.ok and "someone else's" in refused.reply.text
    kept = await service.privacy.confirm_forget(AL.id, AL, False)
    assert kept.ok and "Nothing was deleted" in kept.reply.text
    assert (await store.player_data(AL.id))["results"], "No deleted nothing"

    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    assert "1 game was ended first" in done.reply.text and "former player" in done.reply.text

    # The game he was playing was resigned (a loss), then kept like the other; its result
    # says why it ended (issue 54): his data was deleted, not that he resigned.
    record = await store.get_game(active)
    assert record is not None and record.status is GameStatus.FINISHED
    assert record.ending is Ending.DELETED
    status = (await service.table.status(2000)).reply.text
    assert f"{FORMER_NAME}'s data was deleted — 🏆 Cy wins" in status, status
    for game_id in (first, active):
        record = await store.get_game(game_id)
        assert record is not None
        names = [s.name for s in record.seats]
        assert FORMER_NAME in names and "Al" not in names
        former = [s.user_id for s in record.seats if s.name == FORMER_NAME]
        assert former[0] is not None and is_former(former[0])
        assert record.snapshot is not None and '"Al"' not in record.snapshot
        results = await store.results(game_id)
        assert {r.display_name for r in results} >= {FORMER_NAME}
    # One former id for both games (his opponents' ratings replay the same).
    formers = {r[0] for r in await store.db.fetch("SELECT user_id FROM seats WHERE user_id < 0")}
    assert len(formers) == 1
    # Nothing of his own is left.
    left = await store.player_data(AL.id)
    assert all(rows == [] for rows in left.values()), {k: v for k, v in left.items() if v}
    # His coach setting is the default again, in memory too.
    assert await service.coach.off([AL.id]) == frozenset()
    # Bea's numbers are as they were, and a replay of every result gives the stored ones.
    assert await _bea_numbers(store) == bea_before
    assert differences(await store.stored_ratings(), await store.replay_ratings()) == []
    # His games go on for the others: the finished one's status still reads.
    assert (await service.table.status(1000)).ok


async def test_the_click_that_deletes_a_persons_data_leaves_no_dm_link_behind(
    service: Services, store: Store
) -> None:
    # The click is answered first, and only then is the DM it came from remembered (its token
    # may post the next hand): after Yes, delete my data, that wrote the DM's id and the token
    # back, wherever this process had not written them down in the last few minutes.
    await finished_game(service, (AL, BEA))
    links = "SELECT COUNT(*) FROM dm_links WHERE user_id = ?"
    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok and done.forgotten, done.reply.text
    await service.sequels.dm_answered(AL.id, 555, "the deleting click's token", done)
    assert [tuple(r) for r in await store.db.fetch(links, (AL.id,))] == [(0,)]
    # Any other click in a DM is remembered, as before.
    await service.sequels.dm_answered(BEA.id, 556, "a token", Answer.say("Hello."))
    assert [tuple(r) for r in await store.db.fetch(links, (BEA.id,))] == [(1,)]


async def test_one_game_kept_for_the_opponents_is_said_in_the_singular(
    service: Services, store: Store
) -> None:
    """Someone who played one game is told "The game you played stays", not "The 1 game you
    played stay" (seen in the playground)."""
    await finished_game(service, (AL, BEA))
    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    said = done.reply.text
    assert "The game you played stays for your opponents" in said, said


async def test_the_file_says_how_each_game_ended_as_its_result_does(
    service: Services, store: Store
) -> None:
    """Each game in the file says how it ended, in the words the game keeps (``ending``: played
    out, resigned, a clock run out, a match left, data deleted; ``end_note``: no result),
    where a finished game's row had its status alone and its result's reason said "resigned"
    for a game lost on a ranked clock as for one resigned."""
    _, played = await finished_game(service, (AL, BEA))
    table = await open_table(service, (AL, CY), channel=2000)
    await drive(service, table, (AL, CY), stop_after=3)
    resigned = table.outcomes[0].game_id or 0
    assert (await service.moves.resign(2000, CY, Ending.CLOCK)).ok  # (as the referee does)
    going = await open_table(service, (AL, BEA), channel=3000)
    cancelled = going.outcomes[0].game_id or 0
    assert (await service.lobbies.cancel(3000, User(99, "Mod"), moderator=True)).ok
    data = _unzipped((await service.privacy.data_file(AL)).data)
    games = {g["id"]: g for g in data["games"]}
    assert games[played]["ending"] == "played" and games[played]["end_note"] is None
    assert games[resigned]["ending"] == "clock", games[resigned]
    assert games[cancelled]["ending"] is None and games[cancelled]["status"] == "cancelled"
    assert games[cancelled]["end_note"] == "A moderator cancelled the game. No result is recorded."
    [reason] = [r["reason"] for r in data["results"] if r["game_id"] == resigned]
    assert reason == "resigned"  # (the engine's: a loss at the scores as they stand)


async def test_a_lobby_is_left_and_a_newcomer_has_little_to_send(
    service: Services, store: Store
) -> None:
    newcomer = User(77, "Nia")
    made = _unzipped((await service.privacy.data_file(newcomer)).data)
    assert made["user_id"] == 77 and all(
        made[k] == [] for k in ("games", "results", "standings", "settings")
    )
    opened = await service.lobbies.new_game(500, 3000, BEA, TableAsked(players=2))
    assert opened.ok
    assert (await service.lobbies.join(3000, newcomer)).ok
    done = await service.privacy.confirm_forget(77, newcomer, True)
    assert done.ok and "1 game was ended first" in done.reply.text
    [(game_id,)] = await store.db.fetch("SELECT id FROM games WHERE channel_id = 3000")
    record = await store.get_game(game_id)
    assert record is not None and record.status is GameStatus.LOBBY
    assert [s.user_id for s in record.seats] == [BEA.id], "he left the lobby"


async def test_a_tournament_is_left_before_the_data_goes(service: Services, store: Store) -> None:
    mo = User(9, "Mo")
    opened = await service.tournaments.new(500, 4000, mo, moderator=True)
    assert opened.ok, opened.reply.text
    assert (await service.tournaments.join(4000, AL)).ok
    assert (await service.tournaments.join(4000, BEA)).ok
    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    entrants = await store.db.fetch("SELECT user_id FROM tournament_entrants")
    assert [r[0] for r in entrants] == [BEA.id], "he left it before it started"


async def test_ranked_play_is_in_the_file_and_a_match_is_left_before_the_data_goes(
    service: Services, store: Store
) -> None:
    """Al played a ranked match against Bea, blocked Cy, and is playing a second match against
    Cy's friend Di when he asks: his searches, matches, ratings and blocks are in the file; Yes
    leaves the match (a loss), resigns its game, and then his ranked ratings, their changes
    and his blocks go, while his opponents' matches stay, with a former player in his place,
    his picture and where he played from cleared; Bea's block of him stays, naming the same
    former player, and still holds against his id, which it keeps only as a keyed hash."""
    di = User(44, "Di")
    for user, place in ((AL, 7001), (BEA, 7002)):
        await search_ranked(service, user, place, avatar="https://cdn.discordapp.com/a.png")
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None
    first = entry.match_id
    assert await store.finish_match(first, winner=AL.id, how="games", abandoned_by=None, now=5.0)
    await known(store, CY.id)  # (whom Al met before, as his list offers them)
    await store.block_player(AL.id, CY.id, CY.name, now=5.0)
    await store.block_player(BEA.id, AL.id, AL.name, now=5.0)
    for user, place in ((AL, 7001), (di, 7004)):
        await search_ranked(service, user, place)
    await service.ranked_play.referee.start()
    await service.ranked_play.referee.idle()
    entry = await store.live_entry(AL.id)
    assert entry is not None and entry.match_id is not None and entry.match_id != first
    second = entry.match_id
    # Each search's card, kept by the ledger where it was made (here, a DM with the bot; those
    # the searches above landed are kept already).
    cards = {
        user.id: [
            f"ranked:{r[0]}"
            for r in await store.db.fetch(
                "SELECT id FROM ranked_entries WHERE user_id = ?", (user.id,)
            )
        ]
        for user in (AL, BEA)
    }
    for number, owner in enumerate(cards[AL.id] + cards[BEA.id], 1):
        await store.db.execute(
            "INSERT INTO messages (owner, key, channel_id, message_id, digest, token)"
            " VALUES (?, 'card', 7001, ?, 'd', 'a token') ON CONFLICT (owner, key) DO NOTHING",
            (owner, 9000 + number),
        )
    data = _unzipped((await service.privacy.data_file(AL)).data)
    assert len(data["ranked_searches"]) == 2 and data["ranked_ratings"]
    assert data["ranked_rating_changes"] and data["ranked_blocks"][0]["blocked_id"] == CY.id
    assert {m["id"] for m in data["ranked_matches"]} == {first, second}
    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    service.ranked_play.stop()
    left = await store.ranked_match(second)
    assert left is not None and left.how == "left" and left.winner == di.id
    [game] = await store.match_games(second)
    record = await store.get_game(game.game_id)
    assert record is not None and record.status is GameStatus.FINISHED, "its game resigned"
    # Nothing of his own is left; Bea's match stays, against a former player.
    assert all(rows == [] for rows in (await store.player_data(AL.id)).values())
    # His cards' records (his DM's id, his interaction's token) went; Bea's (and Di's) stay.
    kept = {r[0] for r in await store.db.fetch("SELECT owner FROM messages WHERE key = 'card'")}
    assert not kept & set(cards[AL.id]) and set(cards[BEA.id]) <= kept, kept
    # Nor is his card drawn again by a process that still holds where it was sent.
    for card in cards[AL.id]:
        assert await CardMessages(store, lambda: 9.0).draw(Owner.parse(card), 9.0, {}) is None
    match = await store.ranked_match(first)
    assert match is not None and is_former(match.player_a) and is_former(match.winner or 0)
    [(blocked_id, name, key)] = await store.db.fetch(
        "SELECT blocked_id, name, blocked_key FROM ranked_blocks WHERE user_id = ?", (BEA.id,)
    )
    [(secret,)] = await store.db.fetch("SELECT secret FROM bot_secrets")
    assert (blocked_id, name, key) == (match.player_a, FORMER_NAME, keyed_id(secret, AL.id))
    assert await store.blocked_players(BEA.id) == [(blocked_id, FORMER_NAME)]
    assert await store.blocks_among([BEA.id, CY.id, AL.id]) == {(BEA.id, AL.id)}
    assert await store.blocks_among([CY.id]) == set(), "his block of Cy went"
    assert await store.season_rating("1970-01", BEA.id) is not None, "Bea's rating stays"
    rows = await store.db.fetch(
        "SELECT name, avatar, channel_id FROM ranked_entries WHERE user_id < 0"
    )
    assert {(r[0], r[1], r[2]) for r in rows} == {(FORMER_NAME, None, 0)}
    (line,) = await store.match_lines(BEA.id, limit=5)
    assert line.opponent_name == FORMER_NAME
    await service.ledger.writes.flush()


async def test_a_game_ended_by_someone_else_meanwhile_needs_no_ending_before_the_data_goes(
    service: Services, store: Store
) -> None:
    # Between reading Al's open games and resigning his, the game ends otherwise (as the
    # referee resigns a ranked game whose player has just left the match): his resignation
    # finds no game, and the deletion goes on, where it stopped saying the game could not be
    # ended.
    await open_table(service, [AL, BEA], channel=3100)
    privacy = service.privacy
    resign = privacy._resign

    async def ended_meanwhile(channel_id: int, user: User, ending: Ending) -> Answer:
        assert (await resign(channel_id, BEA, Ending.RESIGNED)).ok
        return await resign(channel_id, user, ending)

    privacy._resign = ended_meanwhile
    done = await privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    assert await store.open_seats(AL.id) == []
    # A game he still sits at that cannot be ended stops the deletion, as before.
    await open_table(service, [CY, BEA], channel=3101)

    async def refused(channel_id: int, user: User, ending: Ending) -> Answer:
        return Answer.refuse("That game is being saved elsewhere.")

    privacy._resign = refused
    stopped = await privacy.confirm_forget(CY.id, CY, True)
    assert not stopped.ok and "could not be ended" in stopped.reply.text


async def test_no_end_note_names_them_once_their_data_is_deleted(
    service: Services, store: Store
) -> None:
    """A game's end note ("Al left and closed the lobby.", a tournament's "cancelled by
    <@id>") is renamed with the rest: the lobby Al opened, closed by his own deletion; a game
    he cancelled; and a note that mentions him. A moderator who neither opened nor sits in a
    game is not named in its note, which nothing else would let a deletion find."""
    assert (await service.lobbies.new_game(500, 3200, AL, TableAsked(players=2))).ok
    [(lobby,)] = await store.db.fetch("SELECT id FROM games WHERE channel_id = 3200")
    assert (await service.lobbies.new_game(500, 3201, AL, TableAsked(players=2))).ok
    assert (await service.lobbies.cancel(3201, AL)).ok
    [(cancelled,)] = await store.db.fetch("SELECT id FROM games WHERE channel_id = 3201")
    await open_table(service, [BEA, CY], channel=3202)
    [(other,)] = await store.db.fetch("SELECT id FROM games WHERE channel_id = 3202")
    assert (await service.lobbies.cancel(3202, AL, moderator=True)).ok
    by_moderator = await store.get_game(other)
    assert by_moderator is not None
    assert by_moderator.end_note == "A moderator cancelled the game. No result is recorded."
    await store.db.execute(
        "UPDATE games SET end_note = ? WHERE id = ?",
        (f"The tournament was cancelled by <@{AL.id}>: this game ends here.", other),
    )
    done = await service.privacy.confirm_forget(AL.id, AL, True)
    assert done.ok, done.reply.text
    notes = {}
    for game_id in (lobby, cancelled, other):
        record = await store.get_game(game_id)
        assert record is not None and record.end_note is not None
        notes[game_id] = record.end_note
    assert notes == {
        lobby: f"{FORMER_NAME} left and closed the lobby.",
        cancelled: f"{FORMER_NAME} cancelled the game. No result is recorded.",
        other: f"The tournament was cancelled by {FORMER_NAME}: this game ends here.",
    }


async def test_a_past_seasons_champion_stays_its_champion_as_a_former_player(
    service: Services, store: Store, clock: Clock
) -> None:
    """Bea won last season's ranked ladder, Cy was second: once Bea's data is deleted the
    season's final standings and its champion stay as they were, a former player in her
    place, where Cy was named its champion."""
    now = clock().timestamp()
    before = season_before(season_of(now))
    await known(store, BEA.id, CY.id)  # (who played last season)
    for user, mu in ((BEA, 45.0), (CY, 30.0)):
        await store.db.execute(
            "INSERT INTO ranked_ratings (season, user_id, name, mu, sigma, matches, wins,"
            " updated_at, ordinal) VALUES (?, ?, ?, ?, 2.0, 12, 8, ?, ?)",
            (before, user.id, user.name, mu, now - 40 * 86400, mu - 6.0),
        )
    assert (
        f"**{season_name(before)}**: Bea"
        in (await service.ranked.ladder(AL, "champions")).reply.text
    )
    assert (await service.privacy.confirm_forget(BEA.id, BEA, True)).ok
    champions = (await service.ranked.ladder(AL, "champions")).reply.text
    assert f"**{season_name(before)}**: {FORMER_NAME}" in champions, champions
    last = (await service.ranked.ladder(CY, "last")).reply.text
    assert f"Champion: **{FORMER_NAME}**" in last and "**Cy**: #2 of 2" in last, last
    assert await store.season_rating(before, BEA.id) is None, "nothing under her id"


def test_a_notes_name_is_found_however_it_was_escaped() -> None:
    # A note written before escape() escaped a name's ":" and "@" says "\*Al:1 @x" for the name
    # "*Al:1 @x"; one written now "\*Al\:1 \@x": each is found, and the name in neither is
    # left. (Only the name as typed and as escape() writes it now were looked for: the older
    # note kept the name of a player whose data was deleted.)
    typed = "*Al:1 @x"
    for said in (r"\*Al:1 @x", r"\*Al\:1 \@x", escape(typed), typed):
        note = renamed_note(f"{said} left and closed the lobby.", 9, [typed])
        assert note == f"{FORMER_NAME} left and closed the lobby.", note
    assert renamed_note("Al:1x left.", 9, [typed]) == "Al:1x left."
