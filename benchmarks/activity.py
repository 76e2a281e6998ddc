"""The Activity's costs (issue 36): from a move to the other people's tables showing it, and the
bytes each table is sent per move.

    nice -n 10 .venv/bin/python -m benchmarks.activity [--watchers 8] [--moves 200]

Runs the core on a scratch SQLite file and the game pages' server with the Activity
(:mod:`bot.web.activity.server`) in this process, as the bot does, with Discord's side stood in
for (a code is exchanged at once: what is measured is the bot's own work, not Discord's). Two
players and ``--watchers`` people watching each hold the Activity's live socket; the players
play game after game to 121, each move made as their table makes it (``POST api/act``), every
fifth typed in the chat instead (the core's command call, as the Discord layer makes it). It
prints, for each move, the milliseconds from just before it was sent to each other table
receiving the look that shows it (p50 and p99, by where the move was made), and the bytes each
table was sent per move (players and watchers apart; as sent, and each look deflated alone,
about what the socket's compression carries at least).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.timing import percentile
from bot.core.base.replies import TableAsked, User
from bot.core.games.records import GameStatus
from bot.core.messages.prompts import controls_for
from bot.core.services import Services
from bot.discord.app import warm_engine
from bot.store import Store
from bot.web.activity.identity import ActivityPerson, ActivityPlace
from bot.web.activity.server import ActivityServer
from bot.web.activity.sessions import Sessions
from bot.web.capacity import Capacity
from bot.web.links import PageLinks
from bot.web.server import WebServer
from tests.helpers.service_driver import AL, BEA, Clock, first_choice, make_service

SECRET = "a benchmark's secret, long enough"
CHANNEL, GUILD = 7001, 7000
#: How long a table may take to show a move before it counts as never shown.
SHOWN_WITHIN = 10.0


class StandInDiscord:
    """Discord's side of the Activity, answering at once: ``code-<user id>`` is that user's
    code, and everyone is in instance ``i-1`` in the benchmark's channel."""

    application_id = 1

    def __init__(self, people: dict[int, User]) -> None:
        self.people = people

    async def exchange(self, code: str) -> str:
        return "token-" + code.removeprefix("code-")

    async def person(self, access_token: str) -> ActivityPerson:
        user = self.people[int(access_token.removeprefix("token-"))]
        return ActivityPerson(user.id, user.name, None)

    async def place(self, instance_id: str) -> ActivityPlace | None:
        return ActivityPlace(CHANNEL, GUILD, frozenset(self.people))

    def bot_in(self, guild_id: int | None) -> bool:
        return True

    async def bots_dm(self, channel_id: int, user_id: int) -> bool:
        return False

    async def names(self, user_ids: Sequence[int], guild_id: int | None) -> dict[int, str]:
        return {i: self.people[i].name for i in user_ids if i in self.people}


@dataclass
class Table:
    """One person's Activity: its live socket, and each look it received (when, its size)."""

    user: User
    session: str
    seen: dict[tuple[int, int], float] = field(default_factory=dict)
    bytes: int = 0
    #: The same, each look deflated on its own (browsers take the socket's messages
    #: compressed, permessage-deflate, which with its shared window does better still).
    deflated: int = 0
    looks: int = 0
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def follow(self, http: aiohttp.ClientSession, base: str) -> None:
        async with http.ws_connect(base + "/activity/api/live") as socket:
            await socket.send_str(json.dumps({"session": self.session}))
            async for message in socket:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    continue
                now = time.perf_counter()
                data = message.data.encode()
                self.bytes += len(data)
                self.deflated += len(zlib.compress(data, 6))
                self.looks += 1
                state = json.loads(message.data)["state"]
                self.seen.setdefault((state["game"] or 0, state["version"]), now)
                self.arrived.set()


def _spread(values: list[float]) -> str:
    if not values:
        return "none"
    p99 = percentile(values, 0.99)
    return f"p50 {statistics.median(values):.1f} ms, p99 {p99:.1f} ms (n={len(values)})"


async def _shown(tables: list[Table], key: tuple[int, int]) -> None:
    deadline = time.perf_counter() + SHOWN_WITHIN
    while not all(key in t.seen for t in tables) and time.perf_counter() < deadline:
        for table in tables:
            table.arrived.clear()
        waits = [asyncio.ensure_future(t.arrived.wait()) for t in tables if key not in t.seen]
        await asyncio.wait(waits, timeout=0.5)
        for wait in waits:
            wait.cancel()


async def _next_move(service: Services, game_id: int) -> tuple[User, Any] | None:
    """Who moves next in the game, and the plainest move they have (as the tests' driver)."""
    record = await service.games.record(game_id)
    if record is None or record.status is not GameStatus.ACTIVE:
        return None
    game = service.games.loaded.load(record).game
    for seat, user in enumerate((AL, BEA)):
        controls = controls_for(game.view(seat), record.id, record.version)
        if controls is not None:
            return user, first_choice(controls)
    return None


async def run(watchers: int, moves: int) -> None:
    # The engine's lazily made tables are built at start, as the bot does (bot.discord.app).
    warm_engine()
    people = {AL.id: AL, BEA.id: BEA}
    for n in range(watchers):
        people[900 + n] = User(900 + n, f"Watcher {n + 1}")
    with tempfile.TemporaryDirectory() as scratch:
        store = await Store.open(Path(scratch) / "bench.db")
        service = make_service(store, Clock())
        activity = ActivityServer(service, StandInDiscord(people), Sessions(SECRET))
        web = WebServer(
            service.pages,
            service.feed,
            PageLinks(SECRET),
            port=0,
            activity=activity,
            limits=Capacity(connections=1000, live_pages=500),
        )
        await web.start()
        base = web.address
        try:
            async with aiohttp.ClientSession() as http:
                tables = []
                for user in people.values():
                    body = {"code": f"code-{user.id}", "instance_id": "i-1"}
                    async with http.post(base + "/activity/api/token", json=body) as answer:
                        tables.append(Table(user, (await answer.json())["session"]))
                following = [asyncio.ensure_future(t.follow(http, base)) for t in tables]
                await _measure(service, http, base, tables, moves)
                for task in following:
                    task.cancel()
                await asyncio.gather(*following, return_exceptions=True)
        finally:
            await web.stop()
            await store.close()


async def _measure(
    service: Services, http: aiohttp.ClientSession, base: str, tables: list[Table], moves: int
) -> None:
    by_user = {t.user.id: t for t in tables}
    late: dict[str, list[float]] = {"table": [], "chat": []}
    made = {"table": 0, "chat": 0}
    game_id = 0
    for move in range(moves):
        found = await _next_move(service, game_id) if game_id else None
        if found is None:
            opened = await service.lobbies.new_game(
                GUILD, CHANNEL, AL, TableAsked(players=2, target=121)
            )
            game_id = opened.game_id or 0
            await service.lobbies.join(CHANNEL, BEA)
            await service.lobbies.start(CHANNEL, AL)
            found = await _next_move(service, game_id)
            assert found is not None
        user, click = found
        where = "chat" if move % 5 == 4 and click.kind in ("discard", "play") else "table"
        started = time.perf_counter()
        if where == "chat":
            # Typed in the chat: the Discord layer calls the core's command, and is answered.
            answer = await (
                service.moves.discard(CHANNEL, user, " ".join(click.values))
                if click.kind == "discard"
                else service.moves.play(CHANNEL, user, click.values[0])
            )
            await service.sequels.answered(answer, landed=True, shown=None)
        else:
            body = {
                "action": click.kind,
                "game": game_id,
                "stamp": click.stamp,
                "values": list(click.values),
            }
            headers = {"Authorization": "Bearer " + by_user[user.id].session}
            async with http.post(base + "/activity/api/act", json=body, headers=headers) as r:
                answer = await r.json()
                assert answer["ok"], answer
        record = await service.games.record(game_id)
        assert record is not None
        key = (game_id, record.version)
        others = [t for t in tables if t.user.id != user.id or where == "chat"]
        await _shown(others, key)
        late[where] += [(t.seen[key] - started) * 1000 for t in others if key in t.seen]
        made[where] += 1
    total = sum(made.values())
    print(f"{total} moves, {len(tables) - 2} watching, 2 playing (to 121, game after game):")
    print(f"  a move at a table, to the other tables showing it: {_spread(late['table'])}")
    print(f"  a move in the chat, to every table showing it: {_spread(late['chat'])}")
    players = [t for t in tables if t.user.id in (AL.id, BEA.id)]
    watching = [t for t in tables if t not in players]
    for name, group in (("a player's table", players), ("a watcher's table", watching)):
        if not group:
            continue
        sent = sum(t.bytes for t in group) / len(group) / total
        deflated = sum(t.deflated for t in group) / len(group) / total
        looks = sum(t.looks for t in group) / len(group) / total
        print(
            f"  bytes sent to {name}: {sent:,.0f} per move, {deflated:,.0f} deflated"
            f" ({looks:.2f} looks per move)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--watchers", type=int, default=8)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.watchers, args.moves))


if __name__ == "__main__":
    main()
