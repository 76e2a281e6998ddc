"""How many players the ranked ladder lists is said, wherever it is said, as the ladder lists
them (``LADDER_SHOWN``): the command's description draws it, the README and docs/players.md
are held to it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.core.base.choices import LADDER_SHOWN
from tests.helpers.commands import the_commands

ROOT = Path(__file__).resolve().parents[3]


def test_the_ladders_length_is_said_as_it_lists() -> None:
    ranked: Any = the_commands().get_command("ranked")
    assert f"the top {LADDER_SHOWN}," in ranked.get_command("ladder").description
    for doc in ("README.md", "docs/players.md"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        said = re.findall(r"the season's top (\d+)", text)
        assert said and set(said) == {str(LADDER_SHOWN)}, (doc, said)
