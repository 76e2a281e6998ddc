"""A server tournament's steps in end-to-end tests: open and fill one, find its message, its
rounds' threads and games, and play a round out by resignations."""

from __future__ import annotations

import re

from fakediscord import Channel, Message, User
from fakediscord.mentions import Pings
from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, resign, until

__all__ = [
    "PAIRING",
    "RESIGNS",
    "board_in",
    "deals_in",
    "finished",
    "killed_posting_round_two",
    "last_round_played",
    "met",
    "more_players",
    "open_and_fill",
    "pair_of",
    "play_round",
    "resign_round",
    "round_posts",
    "round_threads",
    "swiss_dealt",
    "tournament_board",
]

#: A pairing's thread's name: its round, and its players' names.
PAIRING = re.compile(r"Round (\d+) · (.+) vs (.+)")


def tournament_board(world: World) -> Message | None:
    """The tournament's live message in #general (the one with its standings)."""
    return board_in(world.general)


def board_in(channel: Channel) -> Message | None:
    """The tournament's live message in a channel."""
    for message in channel.messages:
        if message.author.bot and "tournament**" in message.words() and not message.deleted:
            return message
    return None


def round_threads(world: World, round_: int) -> list[Channel]:
    return [
        c
        for c in world.guild.channels.values()
        if c.is_thread and c.parent is world.general and c.name.startswith(f"Round {round_} ·")
    ]


def round_posts(world: World, round_: int) -> list[Message]:
    """The messages in #general that post round ``round_``'s pairings (each its thread's
    start)."""
    return [m for m in world.general.messages if m.words().startswith(f"**Round {round_} ·")]


async def finished(world: World, board: Message) -> None:
    """Wait until the tournament's ``board`` shows its final standings: the tournament over."""
    await until(world.fd, lambda: "**Final standings**" in board.words())


def deals_in(thread: Channel) -> int:
    """How many games the thread's players have been dealt (each game's first table)."""
    return sum(1 for m in thread.messages if m.author.bot and "Deal 1" in m.words())


def more_players(world: World, count: int) -> list[User]:
    extra = []
    for i in range(count):
        user = world.fd.add_user(f"P{i + 1}")
        world.guild.add_member(user)
        extra.append(user)
    return extra


#: Who resigns each game of a pairing: the first named, then the second, then the first (a
#: best of 3 goes to the second named, 2-1).
RESIGNS = (1, 2, 1)


async def play_round(
    world: World, round_: int, tables: int, by_name: dict[str, User], *, games: int = 1
) -> None:
    """Wait for the round's threads and their games; end each game by a resignation."""
    fd = world.fd

    def paired() -> list[Channel] | None:
        found = round_threads(world, round_)
        return found if len(found) == tables and all(deals_in(t) for t in found) else None

    threads = await until(fd, paired)
    for game in range(games):
        for thread in threads:

            def dealt(thread: Channel = thread, game: int = game) -> bool:
                return deals_in(thread) > game

            await until(fd, dealt)
            found = PAIRING.match(thread.name)
            assert found is not None
            # The post the thread starts from calls both players, and no one else, to it.
            post = next(m for m in world.general.messages if m.id == thread.id)
            pair = frozenset(by_name[found.group(n)].id for n in (2, 3))
            assert post.pinged == Pings(pair), post.words()
            loser = by_name[found.group(RESIGNS[game] + 1)]
            resigned = await resign(fd, loser, thread)
            assert resigned.original is not None and "resigned" in resigned.original.words().lower()


async def open_and_fill(world: World, line: str, players: list[User]) -> Message:
    """A moderator opens a tournament with ``line``; ``players`` join with the button; it
    starts. Returns its live message."""
    fd = world.fd
    opened = await fd.slash(world.moderator, world.general, line)
    assert opened.ephemeral, opened.words()
    board = await until(fd, lambda: tournament_board(world))
    for user in players:
        await fd.click(user, board, label="Join")
    await until(fd, lambda: f"Entrants ({len(players)})" in board.words())
    started = await fd.slash(world.moderator, world.general, "/cribbage tournament start")
    assert not started.ephemeral, started.words()
    return board


def pair_of(thread: Channel) -> frozenset[str]:
    names = PAIRING.match(thread.name)
    assert names is not None
    return frozenset((names.group(2), names.group(3)))


def met(world: World, rounds: int) -> list[frozenset[str]]:
    found = []
    for r in range(1, rounds + 1):
        found += [pair_of(thread) for thread in round_threads(world, r)]
    return found


async def swiss_dealt(world: World) -> tuple[Message, dict[str, User]]:
    """Every player of ``world`` at a Swiss event of two rounds to 61, opened and started, its
    first round dealt: its live message, and the players by name."""
    players = list(world.players)
    board = await open_and_fill(
        world, "/cribbage tournament new format:swiss rounds:2 target:61", players
    )
    by_name = {u.name: u for u in players}
    await play_round(world, 1, 2, by_name, games=0)
    return board, by_name


async def last_round_played(
    world: World, board: Message, by_name: dict[str, User]
) -> list[Message]:
    """The second and last round of :func:`swiss_dealt`'s event (two tables) played out by
    resignations, to the final standings: the messages that posted its pairings."""
    await play_round(world, 2, 2, by_name)
    await finished(world, board)
    return round_posts(world, 2)


async def resign_round(world: World, round_: int, by_name: dict[str, User]) -> None:
    """The second named player of each of the round's pairings resigns its game."""
    for thread in round_threads(world, round_):
        names = PAIRING.match(thread.name)
        assert names is not None
        await resign(world.fd, by_name[names.group(2)], thread)


async def killed_posting_round_two(
    world: World, bot: BotProcess
) -> tuple[Message, dict[str, User]]:
    """A Swiss event of two rounds dealt (:func:`swiss_dealt`), its round 1 ended by
    resignations, and the bot killed the moment round 2's first pairing message is posted,
    before it kept its id: the event's live message, and the players by name."""
    fd = world.fd
    board, by_name = await swiss_dealt(world)
    posted = fd.after_request(rf"/channels/{world.general.id}/messages$", lambda _: bot.kill_now())
    await resign_round(world, 1, by_name)
    await until(fd, lambda: bool(posted.routes), stall=None)
    await bot.kill()
    return board, by_name
