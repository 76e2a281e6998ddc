"""A tournament player whose name holds a character Markdown reads (``Jo_Jo``): the pairing's
thread is named with it as it is typed (a thread's name is plain text, not Markdown), while
the pairing's message, which is Markdown, shows it as typed too. (The thread was named
``Round 1 · Jo\\_Jo vs …``: the name escaped for Markdown, its backslash shown.)"""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, until
from tests.helpers.tournament_steps import open_and_fill, pair_of, play_round, round_threads


async def test_a_threads_name_is_the_players_names_as_typed(world: World, bot: BotProcess) -> None:
    fd = world.fd
    jo = fd.add_user("Jo_Jo")
    world.guild.add_member(jo)
    players = [jo, *world.players[:3]]
    await open_and_fill(world, "/cribbage tournament new format:round_robin target:61", players)
    threads = await until(fd, lambda: t if len(t := round_threads(world, 1)) == 2 else None)
    [thread] = [t for t in threads if "Jo" in t.name]
    assert "Jo_Jo" in thread.name and "\\" not in thread.name, thread.name
    post = next(m for m in world.general.messages if m.id == thread.id)
    assert post.content.startswith(f"**{thread.name.replace('_', chr(92) + '_')}**"), post.content


async def test_a_name_written_as_a_list_or_a_link_is_shown_as_typed(
    world: World, bot: BotProcess
) -> None:
    # Players called "- Dash https://x.example" and "1. One": wherever the bot writes their
    # names in Markdown (the pairings' posts, the tournament's message, the games' tables and
    # results, their stats), no line of it reads as a list and Discord previews no link of
    # theirs; the threads are named with the names as typed. (A result line began "- Dash
    # resigned — …", which Discord shows as a bullet, and the table showed a preview of
    # x.example under it.)
    fd = world.fd
    dash, one = fd.add_user("- Dash https://x.example"), fd.add_user("1. One")
    players = [dash, one, *world.players[:2]]
    for user in (dash, one):
        world.guild.add_member(user)
    board = await open_and_fill(
        world, "/cribbage tournament new format:round_robin target:61", players
    )
    await play_round(world, 1, 2, {u.name: u for u in players})
    await until(fd, lambda: "**Round 1 results**" in board.words())
    threads = round_threads(world, 1)
    assert {dash.name, one.name} <= {n for t in threads for n in pair_of(t)}, threads
    stats = [await fd.slash(user, world.general, "/cribbage stats") for user in (dash, one)]
    said = [m for place in (world.general, *threads) for m in place.messages if m.author.bot]
    said += [s.original for s in stats if s.original is not None]
    assert len(said) > 10 and all(s.original for s in stats)
    for message in said:
        assert not message.previews, (message.previews, message.words())
        for words in [*(v.words() for v in message.history), message.words()]:
            lines = words.splitlines()
            assert not [line for line in lines if line.startswith(("- Dash", "1. One"))], lines
