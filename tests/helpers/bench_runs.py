"""What the benchmarks' run-tests share: running a benchmark as a script, as a person would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_benchmark(script: str, *args: str, timeout: float = 300, ok: bool = True) -> str:
    """Run ``benchmarks/<script>`` with ``args`` from the checkout and return what it printed
    (out, then errors); with ``ok``, it must end well. (``timeout`` bounds a hung run: it is no
    speed check.)"""
    run = subprocess.run(
        [sys.executable, f"benchmarks/{script}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    out = run.stdout + run.stderr
    if ok:
        assert run.returncode == 0, out[-3000:]
    return out
