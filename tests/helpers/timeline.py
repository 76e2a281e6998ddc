"""Where a test run spends its CPU: a pytest plugin that writes one line a test, and a report.

    CRIB_TIMELINE=run.jsonl .venv/bin/python -m pytest -p tests.helpers.timeline tests/e2e
    .venv/bin/python -m tests.helpers.timeline run.jsonl
    .venv/bin/python -m tests.helpers.timeline run.jsonl --durations WHAT-RUN > tests/durations.py

Each test process writes, for each test (setup, call and teardown together): its worker, its
start and end (wall clock), the CPU the test process spent meanwhile, and the CPU of every
process below it (the bots, their worker pools, the warm starts' zygote, Chromium, the programs
a test runs), counted from ``/proc``: a process's own CPU and that of the children it reaped,
for the test process and each of its descendants still there, so a bot that ended during the
test counts whole. Each process also writes what its start and collection cost, and the main
process the run's PostgreSQL server's CPU (its processes are not the test processes'
children). The report adds them up by folder, by module and by test, and says how busy the
cores were and how long the last process ran alone. A machine shared with other work gives
honest CPU figures and unreliable wall times: compare CPU.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

__all__ = ["process_cpu", "tree_cpu"]

#: The file each test process appends its lines to (no file, no lines).
FILE_ENV = "CRIB_TIMELINE"
_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int | str) -> tuple[float, float] | None:
    """A process's own CPU and its reaped children's (seconds), from ``/proc``."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    # After the name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    own = (int(fields[11]) + int(fields[12])) / _TICK
    reaped = (int(fields[13]) + int(fields[14])) / _TICK
    return own, reaped


def _children(pid: int | str) -> list[str]:
    found: list[str] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            found += Path(f"/proc/{pid}/task/{task}/children").read_text().split()
        except OSError:
            continue
    return found


def tree_cpu(pid: int | str) -> float:
    """The CPU (seconds) of ``pid``'s descendants: the children it reaped, and each child still
    there with its own descendants."""
    stat = _stat(pid)
    total = 0.0 if stat is None else stat[1]
    for child in _children(pid):
        own = _stat(child)
        if own is not None:
            total += own[0] + tree_cpu(child)
    return total


def process_cpu(pid: int | str) -> float | None:
    """The CPU (seconds) of ``pid`` and of all below it (see :func:`tree_cpu`); None when
    there is no such process."""
    own = _stat(pid)
    return None if own is None else own[0] + tree_cpu(pid)


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class _Writer:
    def __init__(self, path: str) -> None:
        self.path = path
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "main")

    def write(self, **line: Any) -> None:
        line["worker"] = self.worker
        with open(self.path, "a") as out:
            out.write(json.dumps(line) + "\n")


_writer: _Writer | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Start writing when the environment names a file."""
    global _writer
    path = os.environ.get(FILE_ENV)
    if path:
        _writer = _Writer(path)
        if _writer.worker == "main":
            _writer.write(kind="start", at=time.time(), cores=os.cpu_count() or 1)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What the process's start and its collection cost (CPU, and its own children's)."""
    if _writer is not None:
        _writer.write(kind="collected", at=time.time(), cpu=_own_cpu(), below=tree_cpu(os.getpid()))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """One line a test: its wall times and its CPU, the process's and below it."""
    if _writer is None:
        return (yield)
    pid = os.getpid()
    start, cpu, below = time.time(), _own_cpu(), tree_cpu(pid)
    try:
        return (yield)
    finally:
        _writer.write(
            kind="test",
            test=item.nodeid,
            start=start,
            end=time.time(),
            cpu=_own_cpu() - cpu,
            below=tree_cpu(pid) - below,
        )


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """The process's totals; in the main process, the run's PostgreSQL server's CPU too (read
    before the run stops it)."""
    if _writer is None:
        return
    _writer.write(kind="done", at=time.time(), cpu=_own_cpu(), below=tree_cpu(os.getpid()))
    if getattr(config, "workerinput", None) is None:
        conftests = [p for p in config.pluginmanager.get_plugins() if hasattr(p, "_folder_key")]
        folder = config.stash.get(conftests[0]._folder_key, None) if conftests else None
        info = Path(str(folder)) / "server.json"
        if folder is not None and info.exists():
            # (Imported here: the server's module imports this one, and asyncpg.)
            from tests.helpers.postgres import PostgresServer

            spent = PostgresServer.described(json.loads(info.read_text())).cpu()
            if spent is not None:
                _writer.write(kind="postgres", cpu=spent)


def _folder(test: str, depth: int) -> str:
    path = test.split("::")[0]
    return "/".join(path.split("/")[:depth]) if depth else path


def report(path: str, top: int = 40) -> None:
    """Print where the run's CPU went (see the module's docstring)."""
    lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
    tests = [line for line in lines if line["kind"] == "test"]
    collected = {line["worker"]: line for line in lines if line["kind"] == "collected"}
    done = {line["worker"]: line for line in lines if line["kind"] == "done"}
    postgres = sum(line["cpu"] for line in lines if line["kind"] == "postgres")
    in_tests = sum(t["cpu"] + t["below"] for t in tests)
    starts = sum(c["cpu"] + c["below"] for w, c in collected.items() if w != "main")
    # The main process's descendants are the workers and all below them.
    total = done["main"]["cpu"] + done["main"]["below"] + postgres
    begin = min(t["start"] for t in tests)
    ends = sorted(t["end"] for t in tests)
    last_by_worker = sorted(
        max(t["end"] for t in tests if t["worker"] == w) for w in {t["worker"] for t in tests}
    )
    print(f"{len(tests)} tests, {len(last_by_worker)} processes")
    start = next((line for line in lines if line["kind"] == "start"), None)
    if start is not None:
        wall = done["main"]["at"] - start["at"]
        busy = total / (wall * start["cores"])
        print(f"the run: {wall:.0f} s, its {start['cores']} cores {busy:.0%} busy with it")
    print(
        f"CPU: {total:.0f} s in all: tests {in_tests:.0f} s (their processes' own "
        f"{sum(t['cpu'] for t in tests):.0f}, below them {sum(t['below'] for t in tests):.0f});"
        f" the workers' starts and collections {starts:.0f} s; PostgreSQL {postgres:.0f} s"
    )
    print(
        f"wall: first test to last {ends[-1] - begin:.0f} s; the last process alone for "
        f"{last_by_worker[-1] - last_by_worker[-2] if len(last_by_worker) > 1 else 0:.0f} s"
    )
    for depth, title in ((2, "by folder"), (0, "by module")):
        sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for t in tests:
            row = sums[_folder(t["test"], depth)]
            row[0] += t["cpu"]
            row[1] += t["below"]
            row[2] += 1
        print(f"\n{title} (CPU s: own + below = total, tests)")
        rows = sorted(sums.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
        for name, (own, below, count) in rows[: top if depth == 0 else None]:
            print(f"  {own:7.1f} + {below:7.1f} = {own + below:7.1f}  {count:5.0f}  {name}")
    print("\nby test (CPU s: own + below = total, wall s)")
    for t in sorted(tests, key=lambda t: -(t["cpu"] + t["below"]))[:top]:
        print(
            f"  {t['cpu']:6.1f} + {t['below']:6.1f} = {t['cpu'] + t['below']:6.1f}  "
            f"{t['end'] - t['start']:6.1f}  {t['test']}"
        )


#: A test function whose runs took this long on average (wall seconds) has an entry of its
#: own in :func:`durations`; the rest are counted by their module's median.
OWN_ENTRY = 1.0


def durations(path: str, measured: str) -> str:
    """The text of ``tests/durations.py`` drawn from the run in ``path`` (``measured``: what
    run it was, said in the file): each module's median test, and each test function (all its
    parametrisations) that took :data:`OWN_ENTRY` or more, as (wall, CPU) seconds; and a test
    process's share of the cores in that run (its cores over its test processes)."""
    lines = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
    tests = [line for line in lines if line["kind"] == "test"]
    cores = next(line["cores"] for line in lines if line["kind"] == "start")
    processes = len({t["worker"] for t in tests})
    by_function: dict[str, list[tuple[float, float]]] = defaultdict(list)
    by_module: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for t in tests:
        # (Without the parameters and an xdist group: "module.py::test_name".)
        function = t["test"].split("@")[0].split("[")[0]
        taken = (t["end"] - t["start"], t["cpu"] + t["below"])
        by_function[function].append(taken)
        by_module[function.split("::")[0]].append(taken)
    entries: dict[str, tuple[float, float]] = {}
    for module, runs in by_module.items():
        walls, cpus = sorted(w for w, _ in runs), sorted(c for _, c in runs)
        entries[module] = (walls[len(walls) // 2], cpus[len(cpus) // 2])
    for function, runs in by_function.items():
        wall = sum(w for w, _ in runs) / len(runs)
        if wall >= OWN_ENTRY:
            entries[function] = (wall, sum(c for _, c in runs) / len(runs))
    body = "\n".join(
        f"    {json.dumps(name)}: ({wall:.2f}, {cpu:.2f}),"
        for name, (wall, cpu) in sorted(entries.items())
    )
    return (
        '"""How long each test took in a whole run, and how much CPU: the order the tests\n'
        "start in is drawn from it (tests/conftest.py). Written by\n"
        "``python -m tests.helpers.timeline run.jsonl --durations WHAT-RUN > tests/durations.py``\n"
        "(docs/testing.md); a test missing here starts after those listed: a stale list costs\n"
        'time, never a failure."""\n\n'
        "#: The run measured.\n"
        f"MEASURED = {json.dumps(measured)}\n"
        "#: A test process's share of the cores in that run (its cores over its processes): a\n"
        "#: test that took less CPU per second mostly waited (tests.helpers.scheduling).\n"
        f"SHARE = {cores / processes:.3f}\n\n"
        "#: A module (its median test) or a test function (the mean of its parametrisations)\n"
        "#: -> (wall seconds, CPU seconds of its process and all below it).\n"
        f"SECONDS: dict[str, tuple[float, float]] = {{\n{body}\n}}\n"
    )


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "--durations":
        print(durations(sys.argv[1], " ".join(sys.argv[3:])), end="")
    else:
        report(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
