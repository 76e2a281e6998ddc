"""Warm starts (fakediscord.warm): a process forked from one that imported the module already
runs as the same module started cold does, and the end-to-end bots are started so."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
import textwrap
from pathlib import Path

import pytest

from fakediscord import FakeDiscord
from fakediscord.runner import REPO_ROOT, BotLauncher
from fakediscord.testing import BOT_IMPORTS
from fakediscord.warm import COLD_ENV, WarmProcess, WarmStarts
from tests.helpers.migrated import copy_migrated_sqlite

#: A module that says what it sees as it runs (what the process inherited or set up before
#: its first line: signals, threads, open files, logging), then exits with the status it is
#: given (or waits for a signal).
PROBE = """
import json, logging, multiprocessing.process, os, signal, sys, threading
import probe.heavy
probe.heavy.warm()
print(json.dumps({
    "name": __name__,
    "argv": sys.argv,
    "path0": sys.path[0],
    "cwd": os.getcwd(),
    "original_dir": multiprocessing.process.ORIGINAL_DIR,
    "setting": os.environ.get("PROBE_SETTING"),
    "switch": probe.heavy.SWITCH,
    "stdin": sys.stdin.read(),
    "state": probe.heavy.STATE,
    "warmed_here": probe.heavy.WARMED == [os.getpid()],
    "signals": [repr(signal.getsignal(s)) for s in range(1, 32) if s not in (9, 19)],
    "blocked": sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])),
    "files": sorted(os.listdir("/proc/self/fd")),
    "threads": threading.active_count(),
    "logging": [repr(h) for h in logging.root.handlers] + [logging.root.level],
    "buffered": [sys.stdout.line_buffering, sys.stdout.write_through, sys.stdout.encoding],
}), flush=True)
print("and on stderr", file=sys.stderr, flush=True)
probe.heavy.STATE.append("ran")
if sys.argv[1] == "wait":
    signal.pause()
sys.exit(int(sys.argv[1]))
"""


def _probe(folder: Path) -> Path:
    package = folder / "probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    # What the bot imports (as the tests' zygote does), and a switch read as it is imported.
    imports = "".join(f"import {name.partition(':')[0]}\n" for name in BOT_IMPORTS)
    (package / "heavy.py").write_text(
        f"import os\n{imports}"
        "SWITCH = os.environ.get('PROBE_SWITCH')\nSTATE = []\nSTATE.append('imported')\n"
        # Work the program does first and keeps, as the bot's warm_engine: who did it.
        "WARMED = []\ndef warm():\n    if not WARMED:\n        WARMED.append(os.getpid())\n"
    )
    (package / "__main__.py").write_text(textwrap.dedent(PROBE))
    return folder


def _env(folder: Path) -> dict[str, str]:
    path = os.pathsep.join((str(folder), str(REPO_ROOT)))
    return {**os.environ, "PYTHONPATH": path, "PROBE_SETTING": "given", "PROBE_SWITCH": "on"}


async def _cold(folder: Path, *args: str, cwd: Path | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "probe",
        *args,
        env=_env(folder),
        cwd=cwd or folder,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def _warm(
    starts: WarmStarts, folder: Path, *args: str, cwd: Path | None = None
) -> WarmProcess:
    assert starts.serves(["-m", "probe", *args], _env(folder), cwd or folder)
    process = await starts.start(["-m", "probe", *args], _env(folder), cwd or folder, 1 << 16)
    assert process is not None
    return process


async def _said(process: asyncio.subprocess.Process | WarmProcess) -> tuple[list[str], int]:
    assert process.stdout is not None
    lines = [line.decode().rstrip("\n") async for line in process.stdout]
    return lines, await process.wait()


async def _three_starts(
    folder: Path, preload: list[str]
) -> tuple[tuple[list[str], int], tuple[list[str], int], tuple[list[str], int]]:
    """What the probe said and its status started cold with 3, then warm with 3 and 4."""
    starts = WarmStarts("probe", preload, folder)
    try:
        cold = await _said(await _cold(folder, "3"))
        warm = await _said(await _warm(starts, folder, "3"))
        again = await _said(await _warm(starts, folder, "4"))
    finally:
        starts.close()
    return cold, warm, again


async def test_a_warm_start_runs_the_module_as_a_cold_one(tmp_path: Path) -> None:
    """Its name, arguments, path, folder, environment, standard streams and exit status are
    those of ``python -m`` started cold, as are its signal handlers and blocked signals, its
    threads, open files and logging (the zygote imported the bot: none of it starts a thread
    or sets a handler); its module state is its own (the zygote's imports run once, before
    any start, and no start's changes reach the next)."""
    folder = _probe(tmp_path)
    cold, warm, again = await _three_starts(folder, ["probe.heavy"])
    assert cold == warm and cold[1] == 3
    facts = json.loads(cold[0][0])
    assert facts["name"] == "__main__" and facts["argv"] == [str(folder / "probe/__main__.py"), "3"]
    assert facts["path0"] == facts["cwd"] == str(folder) and facts["setting"] == "given"
    assert facts["stdin"] == "" and facts["state"] == ["imported"] and facts["switch"] == "on"
    assert facts["threads"] == 1 and facts["logging"] == [logging.WARNING]
    assert cold[0][1] == "and on stderr"
    assert again[1] == 4 and json.loads(again[0][0])["state"] == ["imported"]


async def test_a_function_named_after_its_module_is_called_once_for_every_start(
    tmp_path: Path,
) -> None:
    """``module:function`` in what the zygote imports: the function is called there, once, and
    a start that calls it again finds its work done (the bot's engine tables); cold, a start
    does it itself. Nothing else differs."""
    folder = _probe(tmp_path)
    cold, warm, again = await _three_starts(folder, ["probe.heavy", "probe.heavy:warm"])
    cold_facts, warm_facts = json.loads(cold[0][0]), json.loads(warm[0][0])
    assert cold_facts.pop("warmed_here") and not warm_facts.pop("warmed_here")
    assert not json.loads(again[0][0])["warmed_here"]
    assert cold_facts == warm_facts and cold[1:] == warm[1:] and cold[0][1:] == warm[0][1:]


async def test_a_warm_process_is_signalled_and_waited_for_as_a_cold_one(tmp_path: Path) -> None:
    folder = _probe(tmp_path)
    starts = WarmStarts("probe", ["probe.heavy"], folder)
    try:
        for process in (await _cold(folder, "wait"), await _warm(starts, folder, "wait")):
            assert process.stdout is not None
            await process.stdout.readline()  # it runs
            assert process.returncode is None
            process.terminate()
            assert await process.wait() == -signal.SIGTERM == process.returncode
    finally:
        starts.close()


async def test_what_a_fork_cannot_be_is_started_cold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another module is not served (another folder: the next test); once the zygote runs,
    neither is a start with other Python settings than its own (another PYTHONPATH is other
    code), another locale or time zone, or another value of a variable its imports read
    (PROBE_SWITCH, read as probe.heavy is imported); nor any when the environment asks for
    cold starts."""
    folder = _probe(tmp_path)
    starts = WarmStarts("probe", ["probe.heavy"], folder)
    env = _env(folder)
    try:
        assert not starts.serves(["-m", "other"], env, folder)
        assert not starts.serves(["probe.py"], env, folder)
        assert starts.serves(["-m", "probe"], {**env, "PYTHONPATH": "/elsewhere"}, folder)
        await _said(await _warm(starts, folder, "0"))
        assert not starts.serves(["-m", "probe"], {**env, "PYTHONPATH": "/elsewhere"}, folder)
        assert not starts.serves(["-m", "probe"], {**env, "PYTHONHASHSEED": "1"}, folder)
        assert not starts.serves(["-m", "probe"], {**env, "TZ": "Asia/Tokyo"}, folder)
        assert not starts.serves(["-m", "probe"], {**env, "PROBE_SWITCH": "off"}, folder)
        without = {k: v for k, v in env.items() if k != "PROBE_SWITCH"}
        assert not starts.serves(["-m", "probe"], without, folder)
        assert starts.serves(["-m", "probe"], {**env, "DISCORD_TOKEN": "another"}, folder)
        assert starts.serves(["-m", "probe"], {**env, "PROBE_SETTING": "another"}, folder)
    finally:
        starts.close()
    monkeypatch.setenv(COLD_ENV, "1")
    assert not WarmStarts("probe", [], folder).serves(["-m", "probe"], env, folder)


async def test_another_folder_that_shadows_no_import_is_served_as_cold(tmp_path: Path) -> None:
    """A start in another folder runs warm, as it runs cold there (its folder first on the
    path; multiprocessing's ORIGINAL_DIR, noted as it was imported, is that folder), unless
    the folder holds what an import of a module the zygote imported would find there first,
    cold: a module file, a package, a folder of that name. A first start is judged once the
    zygote it starts runs, and the next starts warm still."""
    folder = tmp_path / "code"
    folder.mkdir()
    _probe(folder)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "bot.db").write_bytes(b"")
    (elsewhere / "notes").mkdir()
    starts = WarmStarts("probe", ["probe.heavy"], folder)
    env = _env(folder)
    try:
        shadowing = tmp_path / "shadowing"
        (shadowing / "probe").mkdir(parents=True)
        assert starts.serves(["-m", "probe"], env, shadowing), "judged once the zygote runs"
        assert await starts.start(["-m", "probe", "0"], env, shadowing, 1 << 16) is None
        cold = await _said(await _cold(folder, "3", cwd=elsewhere))
        warm = await _said(await _warm(starts, folder, "3", cwd=elsewhere))
        for shadow in ("json.py", "probe/__init__.py", "aiohttp/x.txt", "_socket.abi3.so"):
            place = tmp_path / shadow.replace("/", "-")
            (place / shadow).parent.mkdir(parents=True)
            (place / shadow).write_text("")
            assert not starts.serves(["-m", "probe"], env, place), shadow
    finally:
        starts.close()
    assert cold == warm and cold[1] == 3
    facts = json.loads(cold[0][0])
    assert facts["cwd"] == facts["path0"] == facts["original_dir"] == str(elsewhere)


async def test_the_tests_bots_start_warm(
    fake_discord: FakeDiscord, bots: BotLauncher, tmp_path: Path
) -> None:
    """``bots.process()`` forks ``python -m bot`` from this test process's zygote: a restart
    too."""
    guild = fake_discord.add_guild("Warm")
    guild.add_text_channel("general")
    database = copy_migrated_sqlite(tmp_path, tmp_path / "bot.db")
    bot = await bots.process(database=database, dev_guild=guild.id)
    assert isinstance(bot.proc, WarmProcess)
    first = bot.proc.pid
    await bot.restart()
    assert isinstance(bot.proc, WarmProcess) and bot.proc.pid != first
