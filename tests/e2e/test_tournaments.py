"""Server tournaments end to end: a moderator opens one, players join with the message's
button, it starts, each pairing is played in a thread the bot makes (both seated and dealt),
rounds follow as games end, and the champion is announced once."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.tournaments.records import Decided
from bot.store import Store
from fakediscord import Channel, FakeDiscord, User
from fakediscord.mentions import Pings
from fakediscord.model import CREATE_PUBLIC_THREADS
from fakediscord.testing import BotLauncher, BotProcess
from tests.helpers.backends import BOTH_DATABASES
from tests.helpers.bot_db import rows
from tests.helpers.in_process import clocked_service, club, start_in_process
from tests.helpers.table_driver import World, confirmed, start_again, until
from tests.helpers.tournament_steps import (
    PAIRING,
    board_in,
    deals_in,
    finished,
    killed_posting_round_two,
    last_round_played,
    met,
    more_players,
    open_and_fill,
    pair_of,
    play_round,
    round_threads,
    tournament_board,
)


# On SQLite only: the tournament's tables are tested on both databases in
# tests/bot/core/tournaments/test_tournaments_core.py (a bye, results, rounds), and a Swiss event is
# directed on PostgreSQL end to end in test_tournament_processes.py.
async def test_a_swiss_event_of_seven_over_three_rounds(world: World, bot: BotProcess) -> None:
    fd = world.fd
    mo = world.moderator
    players = [*world.players, *more_players(world, 3)]
    by_name = {u.name: u for u in players}

    refused = await fd.slash(world.players[0], world.general, "/cribbage tournament new")
    assert refused.ephemeral and "moderator" in refused.words()

    opened = await fd.slash(
        mo, world.general, "/cribbage tournament new format:swiss rounds:3 target:61"
    )
    assert opened.ephemeral
    board = await until(fd, lambda: tournament_board(world))
    assert [b["label"] for b in board.buttons()] == ["Join", "Leave"]
    again = await fd.slash(mo, world.general, "/cribbage tournament new")
    assert again.ephemeral and "tournament already" in again.words()

    for user in players[:6]:
        joined = await fd.click(user, board, label="Join")
        assert joined.ephemeral and "in the tournament" in joined.words()
    twice = await fd.click(players[0], board, label="Join")
    assert twice.ephemeral and "already" in twice.words()
    by_command = await fd.slash(players[6], world.general, "/cribbage tournament join")
    assert by_command.ephemeral
    await until(fd, lambda: "Entrants (7)" in board.words())

    not_theirs = await fd.slash(players[1], world.general, "/cribbage tournament start")
    assert not_theirs.ephemeral and "moderator" in not_theirs.words()
    started = await fd.slash(mo, world.general, "/cribbage tournament start")
    assert not started.ephemeral and "7 players, 3 rounds" in started.words()

    byes: list[str] = []
    for round_ in (1, 2, 3):
        heading = f"**Round {round_} of 3**"
        await until(fd, lambda: heading in board.words())  # noqa: B023 - awaited at once
        bye = re.search(r"\d+\. (\S+) — bye", board.words())
        assert bye is not None
        byes.append(bye.group(1))
        if round_ == 1:
            # In a match's thread the tournament is its channel's: its standings are there;
            # a tournament is opened in a channel, not in a thread.
            thread = (await until(fd, lambda: round_threads(world, 1)))[0]
            there = await fd.slash(players[0], thread, "/cribbage tournament standings")
            assert there.ephemeral and there.words().count(" pts,") == 7, there.words()
            refused = await fd.slash(mo, thread, "/cribbage tournament new")
            assert refused.ephemeral and "server channel" in refused.words()
        await play_round(world, round_, 3, by_name)

    await finished(world, board)
    assert not list(board.buttons())
    champion = await until(
        fd, lambda: [m for m in world.general.messages if "wins the Swiss tournament" in m.words()]
    )
    assert len(champion) == 1
    winner = next(u for u in players if u.mention in champion[0].words())
    record = await fd.slash(mo, world.general, f"/cribbage stats user:{winner.mention}")
    await until(fd, lambda: "Tournaments: 1 played, 1 won." in record.words())
    # Three byes, three different players; nobody met the same player twice.
    assert len(set(byes)) == 3
    pairs = met(world, 3)
    assert len(pairs) == len(set(pairs)) == 9

    standings = await fd.slash(players[0], world.general, "/cribbage tournament standings")
    assert standings.ephemeral and standings.words().count(" pts,") == 7
    after = await fd.slash(players[0], world.general, "/cribbage tournament withdraw")
    assert after.ephemeral and "over" in after.words()


async def test_without_thread_permissions_nothing_starts(world: World, bot: BotProcess) -> None:
    fd = world.fd
    world.general.deny(CREATE_PUBLIC_THREADS)
    refused = await fd.slash(world.moderator, world.general, "/cribbage tournament new")
    assert refused.ephemeral and "Create Public Threads" in refused.words()
    assert tournament_board(world) is None


async def test_a_round_robin_of_four(world: World, bot: BotProcess) -> None:
    fd = world.fd
    players = list(world.players)
    by_name = {u.name: u for u in players}
    board = await open_and_fill(
        world, "/cribbage tournament new format:round_robin target:61", players
    )
    for round_ in (1, 2, 3):
        await play_round(world, round_, 2, by_name)
    await finished(world, board)
    pairs = met(world, 3)
    assert len(pairs) == len(set(pairs)) == 6  # everyone met everyone once
    # The champion joins the server's hall of fame: name, tournament, date.
    champion = await until(
        fd, lambda: [m for m in world.general.messages if "wins the round robin" in m.words()]
    )
    crowned = next(u for u in players if f"<@{u.id}>" in champion[0].words())
    assert champion[0].pinged == Pings(frozenset({crowned.id})), "the champion is notified"
    fame = (await fd.slash(world.spectator, world.general, "/cribbage halloffame")).words()
    lines = fame.splitlines()
    entry = lines[lines.index("**Tournament champions**") + 1]
    [(ended,)] = rows(world.database, "SELECT finished_at FROM tournaments")
    day = f"<t:{int(ended)}:d>"  # (each reader's own day)
    assert entry == (
        f"{crowned.name} — Round robin tournament of 4 players in <#{world.general.id}>, {day}"
    )
    # Each decided pairing's thread is archived (after its table showed the end), and both
    # players were added to it.
    threads = [t for r in (1, 2, 3) for t in round_threads(world, r)]
    await until(fd, lambda: all(t.archived for t in threads))
    for thread in threads:
        members = {fd.world.users[u].name for u in thread.thread_members}
        assert pair_of(thread) <= members
        assert not thread.locked
        table = [m for m in thread.messages if m.author.bot and "Deal 1" in m.words()]
        assert "resign" in table[-1].words().lower()


async def test_a_knockout_of_eight_with_best_of_three(world: World, bot: BotProcess) -> None:
    fd = world.fd
    players = [*world.players, *more_players(world, 4)]
    by_name = {u.name: u for u in players}
    board = await open_and_fill(
        world, "/cribbage tournament new format:knockout match:best of 3 target:61", players
    )
    assert "best of 3" in board.words()
    for round_, tables in ((1, 4), (2, 2), (3, 1)):
        await play_round(world, round_, tables, by_name, games=3)
    await finished(world, board)
    # Seeded by joining order: 1 meets 8, 4 meets 5, 2 meets 7, 3 meets 6.
    first = met(world, 1)
    names = [u.name for u in players]
    assert set(first) == {
        frozenset((names[a], names[b])) for a, b in ((0, 7), (3, 4), (1, 6), (2, 5))
    }
    assert "wins (1–2)" in board.words() or "wins (2–1)" in board.words()
    # Each round the second named won 2-1: the winners of the lower halves meet next.
    assert len(round_threads(world, 3)) == 1
    # A match's thread is archived once the match is decided, not after its first game.
    await until(fd, lambda: all(t.archived for r in (1, 2, 3) for t in round_threads(world, r)))
    champion = await until(
        fd, lambda: [m for m in world.general.messages if "wins the knockout" in m.words()]
    )
    assert len(champion) == 1


async def test_deadline_forfeits_withdrawal_and_a_moderators_result(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    fd = fake_discord
    guild, general, players = club(fd, "Al", "Bea", "Cy", "Di", "Ed", "Flo")
    mo = fd.add_user("Mo")
    guild.add_member(mo, moderator=True)
    al, bea, cy, _di, ed, flo = players
    now = [datetime(2026, 3, 1, tzinfo=UTC)]
    async with await Store.open(tmp_path / "bot.db") as store:
        service = clocked_service(store, now)
        running = await start_in_process(bots, fd, guild, store, service)
        line = "/cribbage tournament new format:swiss rounds:2 target:61 round_hours:1"
        assert (await fd.slash(mo, general, line)).ephemeral
        board = await until(fd, lambda: board_in(general))
        for user in players:
            await fd.click(user, board, label="Join")
        await until(fd, lambda: "Entrants (6)" in board.words())
        await fd.slash(mo, general, "/cribbage tournament start")

        def dealt() -> list[Channel] | None:
            found = [c for c in guild.channels.values() if c.is_thread and deals_in(c)]
            return found if len(found) == 3 else None

        by_pair = {pair: t for t in await until(fd, dealt) for pair in [pair_of(t)]}
        first = by_pair[frozenset(("Al", "Bea"))]
        # Each thread's first line says what the game is played for, not who opened it.
        for thread in by_pair.values():
            opening = thread.messages[0].words().splitlines()[0]
            assert "Round 1 of the Swiss tournament." in opening, opening
            assert "Opened by" not in opening, opening
        # Al throws his cards; Bea never moves. Cy and Di never move. A moderator settles Ed's.
        hand = await until(fd, lambda: [m for m in fd.dms(al) if list(m.selects())])
        menu = next(hand[-1].selects())
        cards = [o["value"] for o in menu["options"][:2]]
        await fd.select(al, hand[-1], menu["custom_id"], cards)
        refused = await fd.slash(
            al, general, f"/cribbage tournament result winner:{al.mention} loser:{bea.mention}"
        )
        assert refused.ephemeral and "moderator" in refused.words()
        wrong = await fd.slash(
            mo, general, f"/cribbage tournament result winner:{al.mention} loser:{cy.mention}"
        )
        assert wrong.ephemeral and "no game" in wrong.words()
        set_ = await fd.slash(
            mo,
            general,
            f"/cribbage tournament result winner:{ed.mention} loser:{flo.mention} margin:12",
        )
        assert "Result set" in set_.words()
        ended = by_pair[frozenset(("Ed", "Flo"))]
        await until(fd, lambda: any("moderator set" in m.words() for m in ended.messages))
        await until(fd, lambda: "set by a moderator" in board.words())

        # The round's hour passes: the director decides what is left.
        record = await store.tournament_in_channel(general.id)
        assert record is not None
        now[0] += timedelta(hours=1, minutes=1)
        service.director.look(record.id)
        await until(fd, lambda: any("only Al moved" in m.words() for m in first.messages))
        # Each player's hand says how the game ended, as the thread was told.
        for player in (al, bea):

            def told(user: User = player) -> bool:
                return any("Al wins by forfeit" in m.words() for m in fd.dms(user))

            await until(fd, told)
        await until(fd, lambda: "**Round 1 results**" in board.words())
        other = by_pair[frozenset(("Cy", "Di"))]
        await until(fd, lambda: any("neither player moved" in m.words() for m in other.messages))
        await until(fd, lambda: "**Round 2 of 2**" in board.words())

        # Round 2: Al withdraws; his opponent wins; he is paired no more.
        quit_ = await confirmed(fd, al, general, "/cribbage tournament withdraw")
        assert quit_.original is not None and "withdrawn" in quit_.original.words()
        again = await fd.slash(al, general, "/cribbage tournament withdraw")
        assert again.ephemeral and "already" in again.words()
        await until(fd, lambda: "(withdrew)" in board.words() and "withdrawal" in board.words())
        event = await store.pairings(record.id)
        assert [p.decided for p in event if p.round == 1].count(Decided.FORFEIT) == 2
        # Every pairing decided otherwise than by play has its thread archived too, once its
        # table says why the game ended.
        decided = [
            guild.channels[p.thread_id]
            for p in await store.pairings(record.id)
            if p.decided is not None and p.thread_id is not None
        ]
        assert set(by_pair.values()) <= set(decided)
        await until(fd, lambda: all(t.archived for t in decided))
        await service.director.idle()
        # (Stopped before its store closes: the ranked queue's sweep would read a closed one.)
        await running.stop()


@BOTH_DATABASES
async def test_killed_at_a_rounds_turn_nothing_is_paired_or_made_twice(
    world: World, bot: BotProcess
) -> None:
    fd = world.fd
    # Killed the moment round 2's first pairing message is posted (before its id is kept),
    # then again the moment a thread of round 2 is started (before it is kept).
    board, by_name = await killed_posting_round_two(world, bot)
    threaded = fd.after_request(r"/messages/\d+/threads$", lambda _: bot.kill_now())
    await start_again(fd, bot)
    await until(fd, lambda: bool(threaded.routes), stall=None)
    await bot.kill()
    await start_again(fd, bot)
    starts = await last_round_played(world, board, by_name)
    assert len(starts) == 2
    assert all(deals_in(t) == 1 for t in round_threads(world, 2))
    assert len(round_threads(world, 2)) == 2


async def test_too_few_to_start_and_no_leaving_once_started(world: World, bot: BotProcess) -> None:
    fd = world.fd
    al, bea, cy, _ = world.players
    assert (await fd.slash(world.moderator, world.general, "/cribbage tournament new")).ephemeral
    board = await until(fd, lambda: tournament_board(world))
    for user in (al, bea):
        await fd.click(user, board, label="Join")
    few = await fd.slash(world.moderator, world.general, "/cribbage tournament start")
    assert few.ephemeral and "3 entrants" in few.words()
    gone = await fd.click(cy, board, label="Leave")
    assert gone.ephemeral and "not in" in gone.words()
    await fd.slash(cy, world.general, "/cribbage tournament join")
    started = await fd.slash(world.moderator, world.general, "/cribbage tournament start")
    assert not started.ephemeral
    late = await fd.slash(world.players[3], world.general, "/cribbage tournament join")
    assert late.ephemeral and "entries are closed" in late.words()
    leave = await fd.slash(al, world.general, "/cribbage tournament leave")
    assert leave.ephemeral and "withdraw" in leave.words()
    await until(fd, lambda: len(round_threads(world, 1)) == 1)


async def test_a_swiss_event_with_a_top_four_playoff(world: World, bot: BotProcess) -> None:
    fd = world.fd
    players = [*world.players, *more_players(world, 1)]
    by_name = {u.name: u for u in players}
    wrong = await fd.slash(
        world.moderator,
        world.general,
        "/cribbage tournament new format:knockout playoff:top 4 into a best-of-3 knockout",
    )
    assert wrong.ephemeral and "Swiss" in wrong.words()
    board = await open_and_fill(
        world,
        "/cribbage tournament new format:swiss rounds:2 target:61"
        " playoff:top 4 into a best-of-3 knockout",
        players,
    )
    assert "then the top 4 in a best-of-3 knockout" in board.words()
    for round_ in (1, 2):
        await play_round(world, round_, 2, by_name)
    await until(fd, lambda: "**Round 3 of 4** (playoff, best of 3)" in board.words())
    await play_round(world, 3, 2, by_name, games=3)
    await play_round(world, 4, 1, by_name, games=3)
    await finished(world, board)
    final = round_threads(world, 4)[0]
    names = PAIRING.match(final.name)
    assert names is not None
    champion = await until(
        fd, lambda: [m for m in world.general.messages if "wins the Swiss tournament" in m.words()]
    )
    # The final's winner (the second named, 2-1) is the champion.
    assert by_name[names.group(3)].mention in champion[0].words()
