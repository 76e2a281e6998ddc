"""Which of the run's worker processes (pytest-xdist) takes which test next: the workers split
between the tests that work the cores and those that mostly wait, so that both kinds end
together.

Most of the suite's time is end-to-end tests waiting on a bot process, Discord's pace or a
browser (:func:`waits`: under a process's share of the cores per second of their time), beside the
tests that work the cores (the engine's, the core's). Handed out in one fixed order, both
kinds interleaved in step with their share of the time, the run still had stretches where
seven of the eight workers waited at once, the 2-core machine half idle, and others where
four worked at once on two cores (a run's cores were 87% busy); two workers kept on the
working tests left the waiting ones to end the run alone, three the working ones.
:class:`KindsScheduling` decides as each worker asks for its next test: it takes the kind
with the more time left per worker counting itself in (:meth:`KindsScheduling._joins_working`),
each kind longest first (the order ``tests/conftest.py`` collects them in); when one kind runs
out, every worker takes the other.

The kinds and the lengths come from each test's time in a run before (:mod:`tests.durations`):
a stale list costs time, never a failure.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from xdist.scheduler import LoadGroupScheduling

from tests.durations import SECONDS, SHARE

__all__ = ["KindsScheduling", "measured", "unit_wall", "waits"]


def measured(nodeid: str) -> tuple[float, float]:
    """(wall, CPU) seconds the test ``nodeid`` took in the run :mod:`tests.durations`
    measured: its own function's, else its module's median test's, else nothing (a test
    newer than the list)."""
    name = nodeid.split("@")[0].split("[")[0]
    found = SECONDS.get(name) or SECONDS.get(name.split("::")[0])
    return found or (0.0, 0.0)


def waits(nodeid: str) -> bool:
    """Whether the test ``nodeid`` mostly waits (on a bot, Discord's pace, the emulator, a
    browser: the end-to-end tests, most of the benchmarks'): it spent less CPU per second than
    a test process's share of the cores in the run measured (:data:`tests.durations.SHARE`,
    a quarter of a core with eight processes on two cores), which a test that works the cores
    takes. A test not measured yet counts as working."""
    wall, cpu = measured(nodeid)
    return wall > 0 and cpu < SHARE * wall


def unit_wall(nodeids: Iterable[str]) -> float:
    """The wall time measured of a unit of work (a test, or an ``xdist_group``'s tests)."""
    return sum(measured(nodeid)[0] for nodeid in nodeids)


class KindsScheduling(LoadGroupScheduling):
    """pytest-xdist's ``loadgroup`` scheduling (the tests of one ``xdist_group`` in one
    worker, every other test a unit of its own), each worker's next unit chosen by kind as it
    asks (see the module): a worker keeps the test it runs and the one after it (the worker
    must know its next test to end the one it runs), where ``loadgroup`` handed out three."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        # The units not handed out yet, of each kind, in the collection's order, and their
        # wall time in all; and each worker's lane: whether the unit it was last given works.
        self._queues: tuple[deque[str], deque[str]] | None = None
        self._left = [0.0, 0.0]
        self._lanes: dict[Any, bool] = {}
        self._indexes: dict[Any, dict[str, int]] = {}

    def _queued(self) -> tuple[deque[str], deque[str]]:
        """(working, waiting) units, made from the work queue on first use."""
        if self._queues is None:
            self._queues = (deque(), deque())
            self._left = [0.0, 0.0]
            for scope, unit in self.workqueue.items():
                waiting = all(waits(nodeid) for nodeid in unit)
                self._queues[waiting].append(scope)
                self._left[waiting] += unit_wall(unit)
        return self._queues

    def _joins_working(self, node: Any) -> bool:
        """Whether ``node`` takes a working test next: the kind whose tests left would take
        longer per worker, were ``node`` to join it (the others keeping to theirs)."""
        lanes = [1, 1]
        for other, working in self._lanes.items():
            if other is not node and not other.shutting_down:
                lanes[not working] += 1
        return self._left[0] / lanes[0] >= self._left[1] / lanes[1]

    def _next_scope(self, node: Any) -> str:
        """The unit ``node`` takes next (see :meth:`_joins_working`), of the other kind when
        one has none left."""
        queues = self._queued()
        for queue in queues:
            while queue and queue[0] not in self.workqueue:
                queue.popleft()
        if not (queues[0] or queues[1]):
            # Units given back to the queue by a worker that crashed (loadgroup's remove_node).
            self._queues = None
            queues = self._queued()
        working = self._joins_working(node)
        if not queues[not working]:
            working = not working
        self._lanes[node] = working
        scope = queues[not working].popleft()
        self._left[not working] -= unit_wall(self.workqueue[scope])
        return scope

    def _assign_work_unit(self, node: Any) -> None:
        scope = self._next_scope(node)
        work_unit = self.workqueue.pop(scope)
        self.assigned_work.setdefault(node, {})[scope] = work_unit
        index = self._indexes.get(node)
        if index is None:
            collection = self.registered_collections[node]
            index = self._indexes[node] = {nodeid: at for at, nodeid in enumerate(collection)}
        node.send_runtest_some([index[nodeid] for nodeid, done in work_unit.items() if not done])

    def _reschedule(self, node: Any) -> None:
        if node.shutting_down:
            return
        if not self.workqueue:
            node.shutdown()
            return
        # The test it runs and the next one: a unit more only once it starts its last.
        if self._pending_of(self.assigned_work[node]) > 1:
            return
        self._assign_work_unit(node)

    def remove_node(self, node: Any) -> Any:
        self._lanes.pop(node, None)
        return super().remove_node(node)
