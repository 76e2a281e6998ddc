"""The Activity's bundle that the bot serves (bot/web/activity/static) is what its sources
build: activity/build.sh (npm ci from the lockfile, then esbuild) run again here, into a
folder of its own, gives the same bytes, with the test tools' Node.js and npm
(tests.helpers.npm_builds)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.npm_builds import build_again

ROOT = Path(__file__).parents[3]
SOURCES = ROOT / "activity"
SERVED = ROOT / "bot" / "web" / "activity" / "static"


def test_the_committed_bundle_is_what_its_sources_build(tmp_path: Path) -> None:
    built = tmp_path / "built"
    build_again(SOURCES, tmp_path, built, "the Activity")
    names = sorted(p.name for p in SERVED.iterdir())
    assert names == ["app.css", "app.js"]
    assert sorted(p.name for p in built.iterdir()) == names
    for name in names:
        stale = (built / name).read_bytes() != (SERVED / name).read_bytes()
        assert not stale, f"{name} is not what activity/src builds: run bash activity/build.sh"
