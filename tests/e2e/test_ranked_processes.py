"""Ranked play across processes and kills.

With two processes on PostgreSQL, two hundred players queue within a second, half from a
server's channel (whose shard one process runs) and half from their DMs with the bot (the
other process's shard), each process pairing the players it hears from while the process that
sends sweeps the queue: every player is paired once, nobody sits in two matches.

And a kill of the bot in the middle of a ranked game, the moment a move was answered: started
again, it brings both places up to date, nothing posted twice, and the match goes on from where
it was, to its end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fakediscord import FakeDiscord, Interaction, Message
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import rows
from tests.helpers.pair import start_pair
from tests.helpers.ranked_driver import (
    RankedDriver,
    left_the_match,
    match_games,
    matched_across_servers,
)
from tests.helpers.table_driver import World, start_again, until

PLAYERS = 200


def _all_done(sent: list[Interaction], done: Callable[[Interaction], bool]) -> Callable[[], bool]:
    return lambda: all(done(i) for i in sent)


def _same_table(driver: RankedDriver, seat: int, table: Message | None) -> Callable[[], bool]:
    return lambda: table is not None and driver.table_now(seat) is table


def _table_saying(driver: RankedDriver, seat: int, words: str) -> Callable[[], Message | None]:
    def found() -> Message | None:
        table = driver.table_now(seat)
        return table if table is not None and words in table.words() else None

    return found


async def test_two_hundred_queue_within_a_second_and_each_is_paired_once(
    fake_discord: FakeDiscord, bots: BotLauncher, postgres_url: str
) -> None:
    pair = await start_pair(fake_discord, bots, postgres_url, everywhere=True)
    fd, world = fake_discord, pair.world
    people = [fd.add_user(f"P{n}") for n in range(PLAYERS)]
    places = []
    for n, user in enumerate(people):
        if n % 2:
            world.guild.add_member(user)
            places.append(world.general)
        else:
            places.append(fd.dm_channel(user))
    # Two hundred within a second, in bursts of twenty, none waiting for the one before.
    sent = []
    for n, (user, place) in enumerate(zip(people, places, strict=True)):
        sent.append(await fd.slash(user, place, "/cribbage ranked play", wait=False))
        if n % 20 == 19:
            await asyncio.sleep(0.1)
    # A machine too busy to take them all in time (two cores, the emulator and PostgreSQL on
    # them too) answers some too late, which Discord shows their players as failed: each of
    # those tries again, as a player does, until they are in the queue.
    window = fd.response_deadline + 1.0

    def done(interaction: Interaction) -> bool:
        return interaction.response is not None or fd.clock.now() - interaction.created_at > window

    def queued() -> set[int]:
        return {int(r[0]) for r in rows(pair.url, "SELECT user_id FROM ranked_entries")}

    await until(fd, lambda: all(done(i) for i in sent))
    while missing := [n for n, user in enumerate(people) if user.id not in queued()]:
        again = [
            await fd.slash(people[n], places[n], "/cribbage ranked play", wait=False)
            for n in missing
        ]
        await until(fd, _all_done(again, done))

    def everyone_paired() -> bool:
        found = rows(
            pair.url,
            "SELECT COUNT(*), SUM(CASE WHEN status = 'searching' THEN 1"
            " ELSE 0 END) FROM ranked_entries",
        )
        return bool(found[0][0] == PLAYERS and found[0][1] == 0)

    await until(fd, everyone_paired)
    matches = rows(pair.url, "SELECT id, entry_a, entry_b, player_a, player_b FROM ranked_matches")
    assert len(matches) == PLAYERS // 2
    entries = [e for m in matches for e in (m[1], m[2])]
    players = [p for m in matches for p in (m[3], m[4])]
    assert len(set(entries)) == len(entries) == PLAYERS, "an entry in two matches"
    assert sorted(players) == sorted(u.id for u in people), "a player in two matches, or none"
    for match_id, a, b, _, _ in matches:
        found = rows(pair.url, "SELECT id FROM ranked_entries WHERE match_id = ?", (match_id,))
        assert sorted(int(r[0]) for r in found) == sorted((a, b))


async def test_a_kill_mid_match_loses_nothing_and_the_match_goes_on(
    world: World, bots: BotLauncher
) -> None:
    bot = await bots.process(database=world.database)  # commands global: user installs
    fd = world.fd
    al, bea = world.players[:2]
    driver = await matched_across_servers(world, rng=7)
    places, match_id, lounge = driver.places, driver.match_id, driver.places[0].channel
    snap = await driver.next_game()
    for _ in range(6):
        snap = driver.snapshot()
        await driver.move(snap)
    # Killed the moment the next move's answer goes to Discord.
    hook = fd.after_request(r"/callback$", lambda _: bot.kill_now())
    await driver.move(driver.snapshot())
    assert hook.routes, "the bot was killed the moment the move was answered"
    await bot.kill()
    before = {s: driver.table_now(s) for s in (0, 1)}
    await start_again(fd, bot)
    # Both places' tables come up to date (the same messages: nothing posted again), and the
    # game goes on where it was: the moves after the kill are made from the same hands.
    stored = driver.snapshot()
    for seat in (0, 1):
        await until(fd, _same_table(driver, seat, before[seat]))
    for _ in range(6):
        await driver.move(driver.snapshot())
    assert driver.snapshot().version > stored.version
    driver.check_now()
    # Bea leaves: Al wins the match, rated once; the game still open is hers to lose.
    await left_the_match(fd, bea, lounge)
    await until(fd, lambda: match_games(world.database, match_id)[0][3] == "left")
    (decided,) = rows(
        world.database, "SELECT winner, how FROM ranked_matches WHERE id = ?", (match_id,)
    )
    assert tuple(decided) == (al.id, "left")
    changes = rows(
        world.database, "SELECT COUNT(*) FROM ranked_changes WHERE match_id = ?", (match_id,)
    )
    assert changes[0][0] == 2, "the match was rated once"
    for seat, place in enumerate(places):
        # The game being played is hers to lose, said once; the match counts it: 1–0. (The
        # match is decided as she leaves, its game ended by the referee a moment after: the
        # table may say the match's result a version before the game's.)
        final = await until(fd, _table_saying(driver, seat, "Bea left the match — 🏆 Al wins"))
        assert final.words().count("Bea left the match — 🏆 Al wins") == 1, final.words()
        assert "Al wins the ranked match 1–0** (Bea left the match)." in final.words()
        tables = [
            m
            for m in fd.visible_to(place.user, place.channel)
            if not m.ephemeral and "Ranked match**, game" in m.words()
        ]
        assert tables == [final], (seat, [m.words()[:60] for m in tables])
    driver.check_now()
