"""The tests' times the order they start in is drawn from (tests/durations.py, written by
tests.helpers.timeline): every module it names is still there, and what it says is what a
timeline's run says."""

from __future__ import annotations

import json
from pathlib import Path

from tests.durations import SECONDS
from tests.helpers.timeline import OWN_ENTRY, durations

ROOT = Path(__file__).resolve().parent.parent


def test_every_module_the_times_name_is_still_there() -> None:
    gone = sorted(
        {name.split("::")[0] for name in SECONDS}
        - {str(path.relative_to(ROOT)) for path in (ROOT / "tests").rglob("test_*.py")}
    )
    assert not gone, f"tests/durations.py names modules that are gone: {gone} (docs/testing.md)"


def test_the_times_are_a_modules_median_and_each_long_functions_mean(tmp_path: Path) -> None:
    def line(test: str, wall: float, cpu: float) -> str:
        return json.dumps(
            {
                "kind": "test",
                "test": test,
                "start": 100.0,
                "end": 100.0 + wall,
                "cpu": cpu,
                "below": 0.0,
                "worker": "gw0",
            }
        )

    run = tmp_path / "run.jsonl"
    run.write_text(
        "\n".join(
            [
                json.dumps({"kind": "start", "at": 1.0, "cores": 2, "worker": "main"}),
                line("tests/e2e/test_a.py::test_long[sqlite]", 30.0, 3.0),
                line("tests/e2e/test_a.py::test_long[postgres]@group", 10.0, 1.0),
                line("tests/e2e/test_a.py::test_short", 0.5, 0.1),
                line("tests/e2e/test_a.py::test_shorter", 0.2, 0.1),
            ]
        )
    )
    written: dict[str, object] = {}
    exec(durations(str(run), "a test run"), written)
    assert written["MEASURED"] == "a test run"
    # Two cores, one test process.
    assert written["SHARE"] == 2.0
    assert written["SECONDS"] == {
        # (The module's median of four: the third shortest; the long function's mean.)
        "tests/e2e/test_a.py": (10.0, 1.0),
        "tests/e2e/test_a.py::test_long": (20.0, 2.0),
    }
    assert 0.5 < OWN_ENTRY <= 20.0
