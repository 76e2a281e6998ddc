"""What the benchmarks' run-tests share: running a benchmark as a module from the checkout, as a
person would (``python -m benchmarks.NAME``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_benchmark(name: str, *args: str, timeout: float = 300, ok: bool = True) -> str:
    """Run ``python -m benchmarks.<name>`` with ``args`` from the checkout and return what it
    printed (out, then errors); with ``ok``, it must end well. (``timeout`` bounds a hung run: it
    is no speed check.)"""
    run = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{name}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    out = run.stdout + run.stderr
    if ok:
        assert run.returncode == 0, out[-3000:]
    return out
