"""A committed build checked against its sources: a folder whose ``build.sh`` installs its
locked npm packages (``npm ci``) and builds, run again on a copy of it. Needs Node.js and npm
(tests/install_node.sh installs them)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

__all__ = ["build_again"]


def build_again(sources: Path, workdir: Path, out: Path, what: str) -> None:
    """Run ``sources/build.sh`` on a copy of ``sources`` made in ``workdir`` (without its
    node_modules, so the locked packages are installed) with ``out`` as where to build;
    fails the test with the build's output when it fails, or when Node.js and npm, which
    build ``what``, are missing."""
    assert shutil.which("node") and shutil.which("npm"), (
        f"Node.js and npm build {what}: bash tests/install_node.sh"
    )
    copy = workdir / sources.name
    shutil.copytree(sources, copy, ignore=shutil.ignore_patterns("node_modules"))
    done = subprocess.run(
        ["bash", str(copy / "build.sh"), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
