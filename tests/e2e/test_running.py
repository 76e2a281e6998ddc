"""`python -m bot` as a host or a newcomer runs it: without a token, and with `--local`."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import aiohttp

from bot.settings import MAX_RANKED_TURN_SECONDS
from fakediscord import FakeDiscord
from fakediscord.runner import free_port
from fakediscord.warm import WarmStarts
from tests.helpers.bot_runs import run_to_end
from tests.helpers.readme import walk_through

REPO = Path(__file__).resolve().parents[2]


def _environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(tmp_path / "bot.db")
    return env | extra


def _run(
    args: list[str], tmp_path: Path, stdin: str = "", timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    env = _environment(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env here
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,  # a bound for a hung run, not a speed
    )


def test_without_a_token_and_no_terminal_it_says_how_to_set_one(tmp_path: Path) -> None:
    done = _run([], tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "--local" in lines[0]
    assert not (tmp_path / "bot.db").exists(), "nothing was started"


def test_local_opens_the_playground_with_the_real_bot(tmp_path: Path) -> None:
    script = "/cribbage new\nas Bea\n/cribbage join\nlaunch\nquit\n"
    done = _run(["--local"], tmp_path, stdin=script)
    assert done.returncode == 0, done.stderr
    assert "playground" in done.stdout
    # The game pages are on in the playground, at the address it prints.
    assert "Game pages: http://127.0.0.1:" in done.stdout
    assert "Opened by Al" in done.stdout and "You're in" in done.stdout
    # The Activity too: its Entry Point opens it, at an address to open in a browser.
    assert "The Activity opened for Bea: open http://127.0.0.1:" in done.stdout
    assert "Play at the table" in done.stdout
    assert "Traceback" not in done.stderr and "ERROR" not in done.stderr
    assert "voice will NOT be supported" not in done.stderr, "discord.py's voice warnings"


def test_the_readmes_walk_through_the_playground_works_as_written(tmp_path: Path) -> None:
    """Every line "A first walk through it" has a newcomer type, typed in its order, does what
    the README says of it, with no complaint from the playground. Step 5 opened a game in the
    group DM step 4 had left Bea in, which already held step 4's game: refused."""
    lines = walk_through()
    assert len(lines) > 20 and "group Bea Cy" in lines, lines
    done = _run(["--local"], tmp_path, stdin="\n".join([*lines, "quit", ""]), timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "ERROR" not in done.stderr, done.stderr
    said = done.stdout
    # The playground's complaints ("! ...", "? unknown command") start a line or follow its
    # prompt; the bot's refusal of a second game in a place may come after other messages.
    complaints = re.findall(r"(?m)(?:^|> )[!?] .*|.*There's already a game.*", said)
    assert not complaints, complaints
    steps = (
        "You resigned.",  # 1. a game against the computer, resigned
        "Page 2 of",  # 2. its review, turned to its second page
        "The tournament starts: 3 players, 1 round.",  # 3. a tournament round
        "you are in #Round 1 · Al vs Bea",
        "Seated (2/2): Al, Bea",  # 4. a game in a group DM, Bea joined
        "Five-card cribbage, 2 players",  # 5. a variant, and its rules
        "**Five-card cribbage** (`/cribbage new variant:five_card`)",
        "**Ranked match: Al against Bea**",  # 6. a ranked match, and the ladder
        "**Ranked ladder",
    )
    missing = [step for step in steps if step not in said]
    # The whole output when a step is missing: it failed twice in whole runs on a busy
    # machine (the tournament's start missing) and never alone, and its tail did not say why.
    assert not missing, f"missing {missing} from the playground's output:\n{said}"


def test_the_walk_throughs_ranked_step_works_whoever_the_step_before_left_you(
    tmp_path: Path,
) -> None:
    """Issue 68, item 8: step 6 ("`as Al` and `/cribbage ranked play`") only worked if step 4
    had left you as Bea: typed first thing, as Al, Al searched twice and met nobody. The step
    says whom it starts as, so it works typed alone in a new playground."""
    lines = walk_through(6)
    assert lines[:2] == ["channel ranked", "as Bea"], lines
    done = _run(["--local"], tmp_path, stdin="\n".join([*lines, "quit", ""]), timeout=300)
    assert done.returncode == 0, done.stderr
    assert "**Ranked match: Al against Bea**" in done.stdout, done.stdout[-3000:]
    assert "**Ranked ladder" in done.stdout


async def test_a_wrong_token_is_one_clear_line(
    fake_discord: FakeDiscord, warm_starts: WarmStarts, tmp_path: Path
) -> None:
    status, lines = await run_to_end(
        fake_discord, tmp_path / "bot.db", DISCORD_TOKEN="not-the-token", warm=warm_starts
    )
    assert status == 1
    assert len(lines) == 1 and "Discord refused the token" in lines[0], lines
    assert not any(tmp_path.iterdir()), "the database this start created is gone again"


async def test_the_playground_serves_metrics_on_ops_port(tmp_path: Path) -> None:
    """Issue 54: the playground ignored ``OPS_PORT``, so ``/metrics`` could not be seen
    without a real token. It says where they are, with the ranked clock it plays by."""
    port = free_port()
    env = _environment(tmp_path, OPS_PORT=str(port), PYTHONUNBUFFERED="1")
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", "--local"),
        cwd=tmp_path,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    said: list[str] = []
    try:
        while not said or "Type help for the commands" not in said[-1]:
            line = await asyncio.wait_for(process.stdout.readline(), timeout=60)
            assert line, "the playground ended before its prompt: " + "".join(said)
            said.append(line.decode())
        ops = f"http://127.0.0.1:{port}"
        assert (
            f"Health and metrics (OPS_PORT): {ops}/healthz, {ops}/readyz, {ops}/metrics\n" in said
        )
        turn = f"{MAX_RANKED_TURN_SECONDS:g}"
        assert f"Ranked turns: {turn} s a move (RANKED_TURN_SECONDS)\n" in said
        async with aiohttp.ClientSession() as session, session.get(f"{ops}/metrics") as got:
            assert got.status == 200
            assert "cribbage_" in await got.text()
    finally:
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
        await asyncio.wait_for(process.wait(), timeout=60)
    assert process.returncode == 0
