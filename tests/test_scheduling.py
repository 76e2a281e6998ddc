"""Which worker takes which test (tests/helpers/scheduling.py): the workers split between the
tests that work and those that wait as the time left of each kind does, every test is handed
out once, and when one kind runs out every worker takes the other."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import pytest

from tests.durations import SECONDS
from tests.helpers.scheduling import KindsScheduling, measured, waits

WORKERS = 8


class _Worker:
    """What the scheduler sees of a worker process: the tests it was sent, in order."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[int] = []
        self.done = 0

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True

    @property
    def running(self) -> list[int]:
        return self.sent[self.done :]


def _tests(kind_waits: bool, count: int) -> list[str]:
    """``count`` test functions measured in tests/durations.py that wait (or work)."""
    found = [
        name
        for name in SECONDS
        if "::" in name and waits(name) is kind_waits and SECONDS[name][0] > 0
    ]
    assert len(found) >= count
    return found[:count]


def _scheduler(collection: list[str]) -> tuple[KindsScheduling, list[_Worker]]:
    config: Any = SimpleNamespace(
        getvalue=lambda name: [f"{WORKERS}*popen"] if name == "tx" else None,
        option=SimpleNamespace(loadscopereorder=True),
    )
    scheduler = KindsScheduling(config)
    workers = [_Worker(f"gw{n}") for n in range(WORKERS)]
    for worker in workers:
        scheduler.add_node(worker)  # type: ignore[arg-type]
        scheduler.add_node_collection(worker, collection)  # type: ignore[arg-type]
    scheduler.schedule()
    return scheduler, workers


def _kinds(collection: list[str], workers: list[_Worker]) -> list[bool]:
    """Whether each worker's latest test waits."""
    return [waits(collection[worker.sent[-1]]) for worker in workers]


def _working(collection: list[str], workers: list[_Worker]) -> int:
    """How many workers were last given a working test."""
    return _kinds(collection, workers).count(False)


def _left(collection: list[str], workers: list[_Worker]) -> tuple[float, float]:
    """The wall time measured of the working and the waiting tests not handed out yet."""
    handed = {i for worker in workers for i in worker.sent}
    left = [0.0, 0.0]
    for i, nodeid in enumerate(collection):
        if i not in handed:
            left[waits(nodeid)] += measured(nodeid)[0]
    return left[0], left[1]


@pytest.mark.parametrize("working_share", [1, 3])
def test_the_workers_split_between_the_kinds_as_their_time_left_does(working_share: int) -> None:
    waiting = _tests(True, 60)
    working = _tests(False, 120)
    # Working tests for about `working_share` times the waiting ones' time.
    wall = sum(measured(nodeid)[0] for nodeid in waiting) * working_share
    chosen: list[str] = []
    for nodeid in working:
        if wall <= 0:
            break
        chosen.append(nodeid)
        wall -= measured(nodeid)[0]
    collection = [*waiting, *chosen]
    scheduler, workers = _scheduler(collection)
    # Each worker holds the test it runs and the next: the worker must know it to end one.
    assert [len(worker.sent) for worker in workers] == [2] * WORKERS
    for worker in itertools.islice(itertools.cycle(reversed(workers)), 30):
        # Each worker's share: the kind with the more time left per worker (one worker's
        # test of either kind at most away from the split of the time left).
        working_left, waiting_left = _left(collection, workers)
        share = WORKERS * working_left / (working_left + waiting_left)
        assert abs(_working(collection, workers) - share) <= 1.5, (share, working_left)
        worker.done += 1
        scheduler.mark_test_complete(worker, worker.sent[worker.done - 1])  # type: ignore[arg-type]


def test_every_test_is_handed_out_once_and_when_a_kind_runs_out_all_take_the_other() -> None:
    collection = [*_tests(True, 12), *_tests(False, 120)]
    scheduler, workers = _scheduler(collection)
    working_after_waiting_ran_out = 0
    while any(worker.running for worker in workers):
        for worker in workers:
            # A worker ends a test once it knows the next (or is told to stop).
            if len(worker.running) >= 2 or (worker.running and worker.shutting_down):
                worker.done += 1
                scheduler.mark_test_complete(worker, worker.sent[worker.done - 1])  # type: ignore[arg-type]
        if all(not waits(collection[i]) for w in workers for i in w.running):
            working_after_waiting_ran_out = max(
                working_after_waiting_ran_out, sum(1 for w in workers if w.running)
            )
    handed = sorted(i for worker in workers for i in worker.sent)
    assert handed == list(range(len(collection)))
    assert working_after_waiting_ran_out == WORKERS
    assert scheduler.tests_finished


def test_a_test_waits_by_a_process_share_of_the_cores_in_the_run_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2 s of CPU in 10 s: a fifth of a core. Measured with eight processes on two cores (a
    # quarter each) it waited; with twelve (a sixth each) it took more than its share: it worked.
    name = "tests/e2e/test_made_up.py::test_a_fifth_of_a_core"
    monkeypatch.setitem(SECONDS, name, (10.0, 2.0))
    monkeypatch.setattr("tests.helpers.scheduling.SHARE", 2 / 8)
    assert waits(name)
    monkeypatch.setattr("tests.helpers.scheduling.SHARE", 2 / 12)
    assert not waits(name)
