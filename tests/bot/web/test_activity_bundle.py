"""The Activity's bundle that the bot serves (bot/web/activity/static) is what its sources
build: activity/build.sh (npm ci from the lockfile, then esbuild) run again here, into a
folder of its own, gives the same bytes. Needs Node.js and npm (tests/install_node.sh)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[3]
SOURCES = ROOT / "activity"
SERVED = ROOT / "bot" / "web" / "activity" / "static"


def test_the_committed_bundle_is_what_its_sources_build(tmp_path: Path) -> None:
    assert shutil.which("node") and shutil.which("npm"), (
        "Node.js and npm build the Activity: bash tests/install_node.sh"
    )
    # A copy of the sources alone (no node_modules), so the locked packages are installed.
    copy = tmp_path / "activity"
    shutil.copytree(SOURCES, copy, ignore=shutil.ignore_patterns("node_modules"))
    built = tmp_path / "built"
    done = subprocess.run(
        ["bash", str(copy / "build.sh"), str(built)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    names = sorted(p.name for p in SERVED.iterdir())
    assert names == ["app.css", "app.js"]
    assert sorted(p.name for p in built.iterdir()) == names
    for name in names:
        stale = (built / name).read_bytes() != (SERVED / name).read_bytes()
        assert not stale, f"{name} is not what activity/src builds: run bash activity/build.sh"
