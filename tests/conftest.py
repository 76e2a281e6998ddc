"""Project-wide pytest setup: load the fakediscord fixtures (`fake_discord`, `bots`)."""

import sys
from pathlib import Path

# `pytest` run directly (not `python -m pytest`) does not put the project on sys.path.
ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

pytest_plugins = ["fakediscord.testing"]
