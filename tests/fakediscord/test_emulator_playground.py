"""The terminal playground, driven by scripted input against the tiny bot."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest

from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.limits import COMPONENTS_V2
from fakediscord.model import GUILD_STAGE_VOICE, GUILD_VOICE, Attachment, Guild
from fakediscord.playground import Playground, playground
from tests.helpers.tinybot import Persistent, TinyBot, make_bot, red_square_png


async def start_tiny(fd: FakeDiscord) -> TinyBot:
    guild = next(iter(fd.world.guilds.values()))
    bot = make_bot(guild.id)
    bot.loop_task = asyncio.create_task(bot.start(fd.bot_token))  # type: ignore[attr-defined]
    return bot


async def start_tiny_everywhere(fd: FakeDiscord) -> TinyBot:
    """The tiny bot with its commands synced globally: they reach DMs and group DMs. The
    emulator's clock stands still (what is tested is where a command reaches, not how soon it
    is answered: on a busy machine the bot in this process answered past Discord's 3 s)."""
    fd.clock.freeze()
    bot = make_bot(None)
    bot.loop_task = asyncio.create_task(bot.start(fd.bot_token))  # type: ignore[attr-defined]
    return bot


async def play(
    script: str,
    pictures: Path | None = None,
    start: Callable[[FakeDiscord], Awaitable[TinyBot]] = start_tiny,
) -> str:
    out = io.StringIO()
    run = playground(start, stdin=io.StringIO(script), stdout=out, pictures=pictures)
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


async def test_a_components_v2_layout_shows_its_words_picture_and_buttons(tmp_path: Path) -> None:
    text = await play("/anywhere layout:True\nclick 1\nquit\n", pictures=tmp_path)
    assert "#general Cribbage: taps 0\n      a section" in text
    assert "file: square.png" in text and "[1] Tap" in text
    assert "taps 1" in text


def _world() -> tuple[FakeDiscord, Guild, Channel, User]:
    """A server "Playground" with #general and Al in it, no bot running."""
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    general = guild.add_text_channel("general")
    al = fd.add_user("Al")
    guild.add_member(al)
    return fd, guild, general, al


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
    text = r"Computer \(hard\) says \*hi\* to Jo\_Jo `raw \(kept\)` ```a \_b``` and \\ ends"
    shown = r"Computer (hard) says *hi* to Jo_Jo `raw \(kept\)` ```a \_b``` and \ ends"
    assert pg.readable(text) == shown  # (the underscore's escape was shown: "Jo\_Jo")


def test_the_answer_to_what_was_typed_is_shown_last_and_is_what_click_presses() -> None:
    """A command's answer with buttons ("Resign this game?") is printed after whatever else
    changed meanwhile (a hand in the DMs, edited by a move just made), so the `click 1` typed
    next presses the answer's button, not the hand's first card (a race in the README's walk
    through the playground: had the computer's move edited the hand late, it was printed last,
    and `click 1` after `/cribbage resign` would have played a card)."""
    fd, guild, general, al = _world()
    out = io.StringIO()
    pg = Playground(fd, guild, out)

    def buttons(label: str) -> list[dict[str, object]]:
        return [{"type": 1, "components": [{"type": 2, "label": label, "custom_id": label}]}]

    answer = Message(1, general, fd.bot_user, content="Resign?", components=buttons("Yes"))
    hand = Message(2, fd.dm_channel(al), fd.bot_user, content="Hand", components=buttons("5H"))
    general.messages.append(answer)
    fd.dm_channel(al).messages.append(hand)
    pg.show_new(last=[answer])
    shown = out.getvalue()
    assert shown.index("Hand") < shown.index("Resign?"), shown
    assert pg.target([], "button") == (answer, [])


class _LateBoard:
    """The tiny bot, and its word that it is done (``settled``), which it gives only once it
    has posted a board with a button in #general: as a bot whose answer comes before the
    messages it brings (a tournament's board, posted once ``/cribbage tournament new`` is
    answered)."""

    def __init__(self, bot: TinyBot) -> None:
        self.bot = bot
        self.posted = 0

    async def settled(self) -> None:
        channel = next(c for c in self.bot.get_all_channels() if c.name == "general")
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View()
        view.add_item(Persistent(self.posted))  # (the tiny bot answers it: "dyn N pressed")
        self.posted += 1
        await channel.send(f"Board {self.posted}", view=view)

    async def close(self) -> None:
        await self.bot.close()


async def test_what_the_bot_brings_after_its_answer_is_shown_before_the_next_line() -> None:
    """A bot that gives its word that it is done (``settled()``) is waited for after each line
    that reaches it, before what is new is shown: the board it posts after answering is
    printed with the answer, and the `click 1` typed next presses the board's button. (In the
    README's walk through the playground, a busy machine's bot posted the tournament's board
    after a moment's quiet, and `click 1` pressed the review's button instead of *Join*.)"""

    async def start(fd: FakeDiscord) -> _LateBoard:
        return _LateBoard(await start_tiny(fd))

    text = await play("/tiny echo text:hi\nclick 1\nquit\n", start=start)  # type: ignore[arg-type]
    # What each line printed, after the prompt it was typed at.
    _, echoed, clicked, _ = text.split("Al #general> ")
    assert "Board 1" in echoed and "[1] dyn 0" in echoed, text
    assert echoed.index("Board 1") < echoed.index("Cribbage: hi"), "the answer is shown last"
    assert "dyn 0 pressed" in clicked, text


def test_a_menus_option_descriptions_are_shown_as_discord_shows_them() -> None:
    # Seen in the playground: the lobby's "Add computer…" showed "1) Easy bot 2) Medium bot"
    # without what Discord shows under each ("Greedy, and a random move one time in five").
    fd, guild, general, al = _world()
    out = io.StringIO()
    pg = Playground(fd, guild, out)
    options = [
        {"label": "Easy bot", "value": "easy", "description": "Greedy"},
        {"label": "Hard bot", "value": "hard", "description": "Looks ahead"},
    ]
    menu = {"type": 3, "custom_id": "level", "placeholder": "Add computer…", "options": options}
    plain = [{"label": "5H", "value": "5H"}, {"label": "JD", "value": "JD"}]
    hand = {"type": 3, "custom_id": "crib", "placeholder": "Throw", "options": plain}
    rows = [{"type": 1, "components": [menu]}, {"type": 1, "components": [hand]}]
    pg.render(Message(1, general, al, content="Lobby", components=rows))
    shown = out.getvalue()
    assert "menu a: Add computer… (choose 1):\n        1) Easy bot: Greedy\n" in shown, shown
    assert "        2) Hard bot: Looks ahead\n" in shown, shown
    assert "menu b: Throw (choose 1): 1) 5H  2) JD\n" in shown, shown  # (none has one: a line)


def test_a_laid_out_table_reads_its_parts_apart_and_its_nested_buttons() -> None:
    """A Components V2 table: its text displays a line each, a rule where a separator
    divides them, and the buttons nested in its container numbered like any others."""
    fd, guild, general, al = _world()
    out = io.StringIO()
    pg = Playground(fd, guild, out)
    layout = {
        "type": 17,
        "components": [
            {"type": 10, "content": "Deal 1: Al deals"},
            {"type": 14, "divider": True},
            {"type": 10, "content": "Bea's hand: 5♥ 5♣"},
            {"type": 1, "components": [{"type": 2, "label": "Review", "custom_id": "r"}]},
        ],
    }
    message = Message(1, general, al, components=[layout], flags=COMPONENTS_V2)
    pg.render(message)
    shown = out.getvalue()
    assert "Al: Deal 1: Al deals\n      ────" in shown
    assert "\n      Bea's hand: 5♥ 5♣\n" in shown and "[1] Review" in shown


async def test_dms_and_modals() -> None:
    text = await play("/tiny dm\ndms\n/tiny ask\nforty-two\nas Bea\ndms\nquit\n")
    assert "@DM Cribbage: hello in private" in text
    assert "Modal: Ask" in text and "answered forty-two" in text
    assert "(nothing in @DM yet)" in text.split("you are Bea")[1]


async def test_mistakes_are_reported_and_the_loop_goes_on() -> None:
    long_name = "W" * 33
    text = await play(
        f"/nope\nclick 9\nfrobnicate\nas {long_name}\nhelp\n/tiny echo text:still here\n"
    )
    assert "! /nope is not a synced command" in text
    assert "1 to 32 characters" in text  # (a name longer than Discord's)
    assert "! no message with a button" in text
    assert "? unknown command" in text
    assert "choose [mN] [MENU] K" in text  # the help
    assert "still here" in text


async def test_a_thread_is_made_only_where_discord_has_threads() -> None:
    # Seen in the playground: `thread NAME` in a voice channel's chat made a thread of it
    # (Discord has none there), and in a group DM made a new text channel of that name.
    text = await play(
        "voice Game night\nthread side\n/tiny echo text:where\ngroup Bea Cy\nthread other\nquit\n",
        start=start_tiny_everywhere,
    )
    assert "! a voice or stage channel's chat has no threads" in text, text
    assert "🔊 Game night Cribbage: where" in text
    assert "! a thread belongs to a server's text channel" in text, text
    assert text.endswith("Al @Bea,Cy> ")  # (still in the group DM)
    assert "#side" not in text and "#other" not in text


def test_the_world_makes_no_thread_where_discord_has_none() -> None:
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    for kind in (GUILD_VOICE, GUILD_STAGE_VOICE):
        chat = guild.add_text_channel("chat", kind=kind)
        with pytest.raises(AssertionError):
            chat.add_thread("side")


async def test_a_number_with_no_choices_listed_says_what_a_number_answers() -> None:
    # Seen in the playground: "/cribbage play card:?" listed no choices, and the "1" typed
    # next was "? unknown command".
    text = await play("/tiny pick card:zz?\n1\nquit\n")
    assert "(no choices)" in text
    assert "? 1: a number picks one of the choices `option:?` lists; none are listed now" in text
    assert "unknown command" not in text


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


async def test_mistakes_are_told_in_words_not_python() -> None:
    # Issue 25, item 11: "(options: ['setting'])", and "choose a button from 1 to 0" for a
    # message with no buttons.
    script = "\n".join(
        [
            "/tiny echo hello",  # no name:
            "/tiny nope",  # no such subcommand
            "/tiny echo text:a text:b",  # twice
            "/tiny echo text:a times:many",  # not a number
            "/tiny dm",  # m1: Al's DM, with a button; m2: the reply (the answer, shown last)
            "click m2 1",  # no buttons on it
            "choose m2 1",  # no menu on it
            "click m1 x",  # not a number
            "as Bea",
            "click m1 1",  # Al's DM
            "/tiny echo text:still here",
            "quit",
        ]
    )
    text = await play(script + "\n")
    errors = [line.split("> ", 1)[1] for line in text.splitlines() if "> ! " in line]
    assert len(errors) == 8, text
    for line in errors:
        assert not re.search(r"\[['\"]|['\"]\]|Message\(|\{'", line), line
    told = "! Options are typed as name:value, such as text:hello (options: text, times, quiet)"
    assert told in text
    assert "! /tiny needs one of:" in text and "echo, secret" in text
    assert "! Option text is given twice." in text
    assert '! times: "many" is not a whole number' in text
    assert "! m2 has no buttons" in text and "! m2 has no select menu" in text
    assert "! press one button by its number: click K, or click m1 K" in text
    assert "! m1 is not shown to Bea" in text
    assert "still here" in text


async def test_a_click_names_one_button_and_reaches_the_message_printed_last() -> None:
    # A bare `click` pressed the first button (it confirmed a resignation), `click 1 2` ignored
    # the 2, and `click 1` pressed a newer message's button than the one just read.
    script = "/tiny buttons\n/tiny dm\nclick\nclick 1 2\ndms\nlook\nclick 1\nquit\n"
    text = await play(script)
    assert text.count("! press one button by its number: click K, or click m") == 2
    # `look` printed the buttons message last: its first button counts, not the DM's.
    assert "[m1] #general Cribbage (edited): count 1" in text


async def test_the_playgrounds_own_commands_typed_wrong_say_how_they_are_typed() -> None:
    text = await play("as\nas Al Bea\nmod maybe\nchannel\nquit\n")
    assert text.count("? as: as NAME (one name; `users` lists them)") == 2
    assert "? mod: mod on, or mod off" in text
    assert "? channel: channel NAME" in text
    assert "unknown command" not in text


async def test_a_user_becomes_a_moderator_and_back() -> None:
    text = await play("/tinymod\nmod on\nusers\n/tinymod\nmod off\n/tinymod\nquit\n")
    before, rest = text.split("Al is now a moderator of Playground")
    moderating, after = rest.split("Al is no longer a moderator of Playground")
    assert "needs permissions Al does not have" in before
    assert "users: Al (moderator), Bea, Cy" in moderating and "Cribbage: moderated" in moderating
    assert "needs permissions Al does not have" in after and "moderated" not in after


async def test_an_options_fixed_choices_are_listed_as_typed_and_a_number_sends_one() -> None:
    text = await play("/order size:?\n2\n/order size:huge\nquit\n")
    assert "1) small (a small one)" in text and "2) large (a large one)" in text
    assert "> /order size:large" in text and "ordered large" in text
    # A wrong value says what to type, not only the labels.
    assert "type size:small (a small one), size:large (a large one)" in text


async def test_a_thread_named_with_spaces_is_reached_by_its_whole_name() -> None:
    text = await play("thread Round 1 · Al vs Bea\n/tiny echo text:in the thread\nquit\n")
    assert "you are in #Round 1 · Al vs Bea" in text
    assert "#Round 1 · Al vs Bea Cribbage: in the thread" in text


async def test_a_voice_and_a_stage_channels_chat_take_commands() -> None:
    text = await play(
        "voice Game night\n/tiny echo text:in the voice chat\n"
        "stage Finals\n/tiny echo text:on the stage\nstage\nquit\n"
    )
    assert "you are in 🔊 Game night" in text and "you are in 🔊 Finals" in text
    assert "🔊 Game night Cribbage: in the voice chat" in text
    assert "🔊 Finals Cribbage: on the stage" in text
    assert "? stage: stage NAME" in text


async def test_dms_and_group_dms_between_people_reach_the_commands_by_a_user_install() -> None:
    script = "group Bea Cy\n/anywhere\ndm Bea\n/anywhere\ndm Zed\nquit\n"
    text = await play(script, start=start_tiny_everywhere)
    assert "Al @Bea,Cy> " in text and "Al @Bea> " in text
    assert text.count("Cribbage: ") >= 2, text
    assert "! no one called Zed here" in text


async def test_arriving_as_another_player_shows_the_latest_few_messages() -> None:
    lines = "".join(f"/tiny echo text:line {n}\n" for n in range(9))
    text = await play(lines + "as Bea\nquit\n")
    arrived = text.split("you are Bea")[1]
    assert "(5 earlier in #general: `look` shows more)" in arrived
    assert "line 8" in arrived and "line 4" not in arrived


async def test_pictures_go_with_the_scratch_folder_when_the_playground_ends() -> None:
    text = await play("/tiny board\nquit\n")
    [path] = re.findall(r"saved to (\S+)", text)
    assert not Path(path).exists(), "a picture was kept after quit"


def test_timestamps_read_as_the_discord_client_shows_them() -> None:
    """Issue 54: a ranked table's clock showed ``<t:…:R>`` as it is written."""
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    guild.add_text_channel("general")
    guild.add_member(fd.add_user("Al"))
    now = 1_800_000_000.0
    pg = Playground(fd, guild, io.StringIO(), now=lambda: now)
    said = pg.readable("time runs out <t:1800000300:R>; last match <t:1799992800:R>")
    assert said == "time runs out in 5 minutes; last match 2 hours ago"
    assert pg.readable("<t:1800000020:R>, <t:1799910000:R>") == "in a few seconds, a day ago"
    when = datetime.fromtimestamp(1_800_000_000)
    assert pg.readable("until <t:1800000000:t>") == f"until {when:%H:%M}"
    assert pg.readable("<t:1800000000>") == f"{when.day} {when:%B %Y %H:%M}"
    assert pg.readable("`<t:1800000000:R>` stays") == "`<t:1800000000:R>` stays", "code is kept"


def test_every_file_is_saved_not_only_pictures(tmp_path: Path) -> None:
    """Issue 54: *Send me my data*'s ZIP was named and never kept."""
    fd = FakeDiscord()
    guild = fd.add_guild("Playground")
    guild.add_text_channel("general")
    guild.add_member(fd.add_user("Al"))
    pg = Playground(fd, guild, io.StringIO(), pictures=tmp_path)
    data = b"PK\x05\x06" + bytes(18)
    zipped = Attachment(7, "my-data.zip", "application/zip", data, url="https://cdn/x")
    [line, saved] = pg.describe(zipped).split("\n")
    assert line == f"file: my-data.zip ({len(data)} bytes)"
    path = Path(saved.strip().removeprefix("saved to "))
    assert path.parent == tmp_path and path.read_bytes() == data


async def test_the_servers_events_are_listed_and_marked_interested() -> None:
    """``events`` lists the server's scheduled events (a club night's), and ``interested``
    and ``uninterested`` are the current person pressing Interested and taking it back."""

    async def start_with_an_event(fd: FakeDiscord) -> TinyBot:
        bot = await start_tiny(fd)
        guild = next(iter(fd.world.guilds.values()))
        start = datetime.now(UTC) + timedelta(days=2)
        fd.scheduled.create(
            guild,
            {
                "name": "Friday cribbage night",
                "privacy_level": 2,
                "entity_type": 3,
                "entity_metadata": {"location": "#general"},
                "scheduled_start_time": start.isoformat(),
                "scheduled_end_time": (start + timedelta(hours=2)).isoformat(),
                "description": "Mark Interested to play.",
            },
        )
        return bot

    text = await play(
        "events\ninterested\nevents\nas Bea\ninterested 1\nas Al\nuninterested\nevents\nquit\n",
        start=start_with_an_event,
    )
    assert "[e1] Friday cribbage night · scheduled" in text, text
    assert "Al is interested in 'Friday cribbage night'" in text
    assert "interested: Al (you're interested)" in text
    assert "Bea is interested in" in text and "Al is no longer interested in" in text
    assert "interested: Bea\n      Mark Interested to play.\nAl #general>" in text


async def test_the_playgrounds_client_shows_what_discord_would_around_the_activity() -> None:
    """Issue 68, item 10: game night's status, Invite and Share showed nothing in the
    playground. Its stand-in client shows them (the tests' clients are the Activity's size
    alone): here its setting, and tests/e2e/test_activity_words.py the page."""
    seen: list[bool] = []

    async def start(fd: FakeDiscord) -> TinyBot:
        seen.append(fd.activity_host.shows_discord)
        return await start_tiny(fd)

    await play("quit\n", start=start)
    assert seen == [True]
    async with FakeDiscord() as fd:  # (the default, for the tests: off)
        assert fd.activity_host.shows_discord is False
