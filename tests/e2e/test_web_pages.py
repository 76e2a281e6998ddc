"""The game pages, through the bot as it runs and a real browser (issue 23, item 2).

The bot runs as ``python -m bot`` with ``WEB_PORT`` and ``WEB_SECRET`` set; Al plays against
the computer through fakediscord (the table driver checks every move in Discord as usual)
while a page watches: what the page shows is what the channel shows, it follows each move
from the live stream, and once the game is over it replays every deal with every hand the
table saw (tests/bot/core/review/test_unseen_deals.py: not those nobody saw). Links are
signed: a changed one gets a plain 404 page. The browser is Debian's Chromium, driven by
Playwright, at a phone's width and a desktop's, in the light and the dark theme.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import aiohttp
from PIL import Image
from playwright.async_api import Page, ViewportSize

from bot.core.base.views import MessageView
from bot.web.links import PageLinks
from bot.web.pages import message_html
from fakediscord import FakeDiscord
from fakediscord.model import Message
from fakediscord.runner import free_port
from fakediscord.testing import BotLauncher, BotProcess
from fakediscord.warm import WarmStarts
from tests.helpers.bot_db import latest_game_id
from tests.helpers.bot_runs import refused_a_taken_port, run_to_end
from tests.helpers.browser import open_browser
from tests.helpers.table_driver import TableDriver, World, until

SECRET = "a test secret, long enough"
LINKS = PageLinks(SECRET)
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


async def _start(world: World, bots: BotLauncher, *, public: bool) -> tuple[BotProcess, str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"WEB_PORT": str(port), "WEB_SECRET": SECRET}
    if public:
        env["PUBLIC_URL"] = base
    bot = await bots.process(database=world.database, dev_guild=world.guild.id, env=env)
    return bot, base


async def _get(url: str) -> tuple[int, str]:
    status, body = await _get_bytes(url)
    return status, body.decode()


async def _get_bytes(url: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.read()


_ARTICLE = re.compile(r'<article class="msg">(.*?)</article>', re.S)


def _articles(page: str) -> list[str]:
    """The messages on a page (entities read, as a browser writes the HTML back its own way)."""
    return [html.unescape(a) for a in _ARTICLE.findall(page)]


def _channel_html(world: World) -> list[str]:
    """The channel's messages from the bot, as the page writes them."""
    return [
        html.unescape(message_html(MessageView(m.words())))
        for m in world.fd.messages(world.general)
    ]


async def test_a_watched_game_live_then_replayed(
    world: World, bots: BotLauncher, tmp_path: Path
) -> None:
    _, base = await _start(world, bots, public=False)
    player: TableDriver = world.driver(world.players[:1], 31, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=61)
    page_url = base + LINKS.path(player.game_id)

    status, page = await _get(page_url)
    assert status == 200 and "Live" in page
    channel = _channel_html(world)
    # Exactly what the channel shows, message for message (the driver has checked the
    # channel hides every card it must).
    assert _articles(page) and all(a in channel for a in _articles(page))
    assert "Al v " in page and "board.png?v=" in page

    async with open_browser() as browser:
        phone = await browser.new_page(viewport=PHONE, color_scheme="dark")
        await phone.goto(page_url)
        await _check_layout(phone, tmp_path / "live-phone-dark.png", dark=True)
        version = await phone.get_attribute("#table > div", "data-version")
        # A move: the page follows it from the live stream, without being reloaded.
        snap = await player.step(snap)
        await phone.wait_for_function(
            "v => document.querySelector('#table > div').dataset.version !== v", arg=version
        )
        await player.settle(snap)
        shown = await phone.inner_html("#table")
        assert all(a in _channel_html(world) for a in _articles(shown))
        await phone.evaluate("window.reloaded = false")
        # Played to the end while the page watches: it turns into the replay by itself.
        snap = await player.play_out(max_steps=250)
        assert snap.status == "finished"
        await phone.wait_for_selector("ol.steps", timeout=60_000)
        await _check_layout(phone, tmp_path / "replay-phone-dark.png", dark=True)

        desktop = await browser.new_page(viewport=DESKTOP, color_scheme="light")
        await desktop.goto(page_url)
        await _check_layout(desktop, tmp_path / "replay-desktop-light.png", dark=False)
        steps = await desktop.locator("ol.steps a").count()
        assert steps > 20
        # The keyboard walks the steps: Home, then the right arrow, and the board follows.
        await desktop.keyboard.press("Home")
        first = await desktop.get_attribute("#step-board", "src")
        assert first is not None and first.endswith("step=0")
        await desktop.keyboard.press("ArrowRight")
        current = desktop.locator('ol.steps a[aria-current="step"]')
        assert await current.get_attribute("id") == "s1"
        assert (await desktop.get_attribute("#step-board", "src") or "").endswith("step=1")
        assert await desktop.evaluate("document.activeElement.id") == "s1"
        await desktop.keyboard.press("End")
        assert await current.get_attribute("id") == f"s{steps - 1}"
        assert "wins" in (await desktop.inner_text("#step-text"))
        # A later deal's first step says each side's chance to win, in the caption and in
        # the board's alt text, as the table did once that deal was dealt.
        dealt = desktop.locator("ol.steps a", has_text="Chances to win").first
        await dealt.click()
        caption = await desktop.inner_text("#step-text")
        assert "Chances to win — Al: " in caption, caption
        alt = await desktop.get_attribute("#step-board", "alt") or ""
        assert "Chances to win — Al: " in alt, alt

    status, replay = await _get(page_url)
    assert status == 200
    # Every hand of every deal shown through is revealed now, and each deal's show itemised.
    game = snap.game
    assert game is not None
    assert replay.count('class="deal"') == game.state.deal_number
    assert "<caption>The show</caption>" in replay and "Fifteen" in replay
    status, picture = await _get_bytes(page_url + "/board.png?step=3")
    assert status == 200 and picture.startswith(b"\x89PNG")


async def test_a_live_page_shows_every_deal_the_channel_shows(
    world: World, bots: BotLauncher
) -> None:
    """The page said "Live: this page shows what the channel sees" above the last three deals'
    tables alone (what the stored game keeps to draw its messages): the cut for deal and the
    first deals were missing, though the channel keeps every deal's table. Five deals in, the
    page shows the channel's messages, every one of them in the channel's order, the cut for
    deal above the first deal's table, and follows the next move as the channel does."""
    _, base = await _start(world, bots, public=False)
    player: TableDriver = world.driver(world.players[:1], 37, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=121)
    page_url = base + LINKS.path(player.game_id)
    async with open_browser() as browser:
        page = await browser.new_page(viewport=DESKTOP)
        await page.goto(page_url)
        while snap.game is not None and snap.game.state.deal_number < 5:
            snap = await player.step(snap)
        assert snap.status == "active", "the game went on past its fifth deal"
        await player.settle(snap)
        await page.wait_for_function(
            "v => +document.querySelector('#table > div').dataset.version >= v", arg=snap.version
        )
        shown = _articles(await page.inner_html("#table"))
        channel = _channel_html(world)
        assert shown == channel, "the page shows the channel's messages, all of them"
        assert len([a for a in shown if "Cut for deal" in a]) == 1
        first = next(i for i, a in enumerate(shown) if "Cut for deal" in a)
        assert "deals" in shown[first] and first <= 1, shown[first]
        assert "further up its history" not in await page.inner_text("#table")
        # The next move: the page follows it, every deal still there.
        version = await page.get_attribute("#table > div", "data-version")
        snap = await player.step(snap)
        await page.wait_for_function(
            "v => document.querySelector('#table > div').dataset.version !== v", arg=version
        )
        await player.settle(snap)
        await page.wait_for_function(
            "v => +document.querySelector('#table > div').dataset.version >= v", arg=snap.version
        )
        assert _articles(await page.inner_html("#table")) == _channel_html(world)


async def _check_layout(page: Page, shot: Path, *, dark: bool) -> None:
    """The page fits its width, its board picture shows with alt text, its text is readable
    in its theme; the screenshot's background says the theme too."""
    await page.wait_for_function(
        "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    )
    overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page is {overflow}px wider than the screen"
    board = page.locator("img.board").first
    assert await board.is_visible()
    alt = await board.get_attribute("alt")
    assert alt and alt.startswith("Cribbage board")
    box = await board.bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box is not None and 0 < box["width"] <= width
    contrast = await page.evaluate(_CONTRAST)
    assert contrast >= 7, f"text contrast {contrast:.1f}:1"
    await page.screenshot(path=str(shot), full_page=False)
    with Image.open(shot) as image:
        assert image.width == width
        corner = image.convert("L").getpixel((2, image.height - 2))
    assert isinstance(corner, int)
    assert (corner < 60) if dark else (corner > 200), f"background {corner} in the screenshot"


#: The contrast ratio (WCAG) of the body text on the page's background.
_CONTRAST = """() => {
  const rgb = s => s.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
  const lum = c => {
    const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
      : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(document.body);
  const a = lum(rgb(style.color)), b = lum(rgb(style.backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


async def test_links_are_signed_and_the_table_carries_them(world: World, bots: BotLauncher) -> None:
    _, base = await _start(world, bots, public=True)
    # (Opened by hand: the table driver checks the table's text without the link.)
    line = "/cribbage new players:2 target:61 vs_computer:True difficulty:easy"
    await world.fd.slash(world.players[0], world.general, line)
    game_id = latest_game_id(world.database, world.general.id)
    link = base + LINKS.path(game_id)
    table = await until(world.fd, lambda: _table(world))
    said = f"Watch or replay in the browser: <{link}>"
    # The message's last line, a part of its own after the calls (not inside their frame).
    assert table.words().splitlines()[-1] == said, table.words()
    last = [c for c in table.walk() if c.get("type") == 10][-1]
    assert last["content"] == said

    status, page = await _get(link)
    assert status == 200 and "Live" in page
    signature = LINKS.signature(game_id)
    changed = ("B" if signature[0] != "B" else "C") + signature[1:]
    for bad in (
        f"/g/{game_id}/{changed}",
        f"/g/{game_id + 1}/{signature}",
        f"/g/{game_id}/{signature[:-1]}",
        f"/g/x{game_id}/{signature}",
        f"/g/{game_id}/{changed}/live",
        f"/g/{game_id}/{changed}/board.png?v=1",
        "/g/99999999999999999999999/abc",
        "/nothing/here",
    ):
        status, text = await _get(base + bad)
        assert status == 404, bad
        assert "Page not found" in text and "Al" not in text, bad
    # A game that does not exist, with its own good signature: the same plain 404.
    status, text = await _get(base + LINKS.path(game_id + 50))
    assert status == 404 and "no such game" in text
    # The hands of a game still going are no one's business: no replay boards yet.
    status, _ = await _get(link + "/board.png?step=2")
    assert status == 404
    # The front page lists no games.
    status, text = await _get(base + "/")
    assert status == 200 and "/g/" not in text
    assert html.escape(world.players[0].name) not in text


def _table(world: World) -> Message | None:
    """The first deal's table message, once it is there."""
    return next((m for m in world.fd.messages(world.general) if "**Deal 1**" in m.words()), None)


async def test_no_pages_unless_configured(world: World, bot: BotProcess) -> None:
    # The `bot` fixture sets no WEB_PORT: no server, no links (the driver checks the table
    # message's exact text all game long).
    player = world.driver(world.players[:1], 5, command_rate=0.0)
    await player.open_against_computer("easy", target=61)
    table = _table(world)
    assert table is not None and "browser" not in table.words() and "/g/" not in table.words()


async def test_a_page_follows_moves_made_in_another_process(
    fake_discord: FakeDiscord, bots: BotLauncher, postgres_url: str
) -> None:
    # Two processes on one PostgreSQL database (shard 0 answers the DMs, so Al's clicks;
    # shard 1 the server): a page served by the process that does not make the moves hears
    # of them from the database's announcements, through its own change feed.
    fd = fake_discord
    guild = fd.add_guild("Cribbage Club", shard=(1, 2))
    general = guild.add_text_channel("general")
    al = fd.add_user("Al")
    guild.add_member(al)
    world = World(fd, guild, general, [al], al, al, postgres_url)
    ports = {shard: free_port() for shard in (1, 0)}
    for shard, port in ports.items():
        env = {"SHARD_COUNT": "2", "SHARD_IDS": str(shard)}
        env |= {"WEB_PORT": str(port), "WEB_SECRET": SECRET}
        await bots.process(
            database=postgres_url,
            dev_guild=guild.id,
            env=env,
            ready_text=r"this process (is the sender|does not send)",
        )
    player = world.driver([al], 8, command_rate=0.0)
    snap = await player.open_against_computer("easy", target=61)
    path = LINKS.path(player.game_id)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{ports[1]}{path}/live?v={snap.version}") as live:
            assert live.status == 200
            snap = await player.step(snap)  # Al's discard, by DM: made by shard 0's process
            seen = -1
            while seen < snap.version:
                line = (await live.content.readline()).decode()
                assert line, "the stream ended"
                found = re.search(r'data-version="(\d+)"', line)
                if found:
                    seen = int(found.group(1))
        # The other process's page says the same.
        status, page = await _get(f"http://127.0.0.1:{ports[0]}{path}")
        assert status == 200 and f'data-version="{snap.version}"' in page


async def test_a_port_already_taken_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    await refused_a_taken_port(
        fake_discord, tmp_path / "bot.db", "WEB_PORT", WEB_SECRET=SECRET, warm=warm_starts
    )


async def test_a_port_without_a_secret_is_one_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    status, lines = await run_to_end(
        fake_discord, tmp_path / "bot.db", WEB_PORT="8080", warm=warm_starts
    )
    assert status == 2 and len(lines) == 1 and "WEB_SECRET" in lines[0], lines
