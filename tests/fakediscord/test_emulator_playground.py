"""The terminal playground, driven by scripted input against the tiny bot."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.playground import PICTURES, Playground, playground
from tests.helpers.tinybot import TinyBot, make_bot, red_square_png


async def start_tiny(fd: FakeDiscord) -> TinyBot:
    guild = next(iter(fd.world.guilds.values()))
    bot = make_bot(guild.id)
    bot.loop_task = asyncio.create_task(bot.start(fd.bot_token))  # type: ignore[attr-defined]
    return bot


async def play(script: str, pictures: Path = PICTURES) -> str:
    out = io.StringIO()
    run = playground(start_tiny, stdin=io.StringIO(script), stdout=out, pictures=pictures)
    await asyncio.wait_for(run, timeout=120)  # a bound for a hung playground, not a speed
    return out.getvalue()


async def test_slash_commands_and_switching_users() -> None:
    text = await play("/tiny echo text:hi there\n/tiny secret\nas Bea\nlook\nquit\n")
    assert "#general Cribbage: hi there" in text
    assert "(only you): only you" in text
    after_switch = text.split("you are Bea")[1]
    assert "hi there" in after_switch and "only you" not in after_switch


async def test_autocomplete_is_numbered_and_a_number_sends_it() -> None:
    text = await play("/tiny pick card:5?\n2\nquit\n")
    assert "1) 5H" in text and "2) 5D" in text
    assert "> /tiny pick card:5D" in text
    assert "you picked 5D" in text


async def test_buttons_and_selects_by_number() -> None:
    text = await play("/tiny buttons\nclick 1\nclick m1 1\nchoose 1 3\nquit\n")
    assert "[1] +1  [2] Off (disabled)  [3] Quiet  [4] dyn 7" in text
    assert "count 2" in text
    assert "picked 5H QS" in text


def test_mentions_are_shown_as_names() -> None:
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    general = guild.add_text_channel("general")
    al = fd.add_user("Al")
    guild.add_member(al)
    pg = Playground(fd, guild, io.StringIO())
    text = f"{al.mention} plays in {general.mention}; <@1> and <#2> are unknown"
    assert pg.readable(text) == "@Al plays in #general; <@1> and <#2> are unknown"


def test_markdown_escapes_are_shown_as_discord_shows_them() -> None:
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    guild.add_text_channel("general")
    guild.add_member(fd.add_user("Al"))
    pg = Playground(fd, guild, io.StringIO())
    text = r"Computer \(hard\) says \*hi\* `raw \(kept\)` ```a \_b``` and \\ ends"
    assert pg.readable(text) == r"Computer (hard) says *hi* `raw \(kept\)` ```a \_b``` and \ ends"


async def test_dms_and_modals() -> None:
    text = await play("/tiny dm\ndms\n/tiny ask\nforty-two\nas Bea\ndms\nquit\n")
    assert "@DM Cribbage: hello in private" in text
    assert "Modal: Ask" in text and "answered forty-two" in text
    assert "(nothing in @DM yet)" in text.split("you are Bea")[1]


async def test_mistakes_are_reported_and_the_loop_goes_on() -> None:
    text = await play("/nope\nclick 9\nfrobnicate\nhelp\n/tiny echo text:still here\n")
    assert "! /nope is not a synced command" in text
    assert "! no message with a button" in text
    assert "? unknown command" in text
    assert "choose [mN] K" in text  # the help
    assert "still here" in text


async def test_without_a_starter_the_bot_runs_as_a_child_process() -> None:
    out = io.StringIO()
    tinybot = str(Path(__file__).parents[1] / "helpers" / "tinybot.py")
    script = io.StringIO("/tiny echo text:from a child\n/tiny crash\nquit\n")
    await asyncio.wait_for(playground(stdin=script, stdout=out, bot_args=[tinybot]), timeout=120)
    text = out.getvalue()
    assert "Cribbage: from a child" in text
    assert "! bot:" in text  # the child's error is shown, not hidden


async def test_a_posted_picture_is_saved_to_a_file_whose_path_is_printed(tmp_path: Path) -> None:
    text = await play("/tiny board\nquit\n", pictures=tmp_path)
    assert "file: board.png (" in text and ", 40x30) alt: a red square" in text
    [path] = re.findall(r"saved to (\S+)", text)
    assert Path(path).parent == tmp_path
    assert Path(path).read_bytes() == red_square_png()
