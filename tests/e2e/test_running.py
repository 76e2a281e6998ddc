"""`python -m bot` as a host or a newcomer runs it: without a token, and with `--local`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fakediscord import FakeDiscord
from tests.helpers.bot_runs import run_to_end

REPO = Path(__file__).resolve().parents[2]


def _run(args: list[str], tmp_path: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env["PYTHONPATH"] = str(REPO)
    env["DATABASE_PATH"] = str(tmp_path / "bot.db")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env here
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
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


async def test_a_wrong_token_is_one_clear_line(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    status, lines = await run_to_end(
        fake_discord, tmp_path / "bot.db", DISCORD_TOKEN="not-the-token"
    )
    assert status == 1
    assert len(lines) == 1 and "Discord refused the token" in lines[0], lines
    assert not any(tmp_path.iterdir()), "the database this start created is gone again"
