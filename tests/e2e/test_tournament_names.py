"""A tournament player whose name holds a character Markdown reads (``Jo_Jo``): the pairing's
thread is named with it as it is typed (a thread's name is plain text, not Markdown), while
the pairing's message, which is Markdown, shows it as typed too. (The thread was named
``Round 1 · Jo\\_Jo vs …``: the name escaped for Markdown, its backslash shown.)"""

from __future__ import annotations

from fakediscord.testing import BotProcess
from tests.helpers.table_driver import World, until
from tests.helpers.tournament_steps import open_and_fill, round_threads


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
