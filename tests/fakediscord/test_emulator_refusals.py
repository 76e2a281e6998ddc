"""Discord's refusals as one table (issue 69, item 6): each refusal the emulator answers is a
member of `fakediscord.errors.Refusal`, and fakediscord/README.md's "Discord's refusals" lists
each one, in the same order, with its status, code and message, the table of Discord's
documentation that gives it and where the README says when it is answered."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import fakediscord
from fakediscord.errors import Refusal
from fakediscord.events import MOST_UNDER_WAY
from fakediscord.uploads import MAX_FILES
from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

FOLDER = Path(fakediscord.__file__).parent
README = (FOLDER / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    return README[start : README.index("\n## ", start + 1)]


def _rows() -> list[list[str]]:
    """The cells of each row of the README's table of refusals."""
    lines = _section("Discord's refusals").splitlines()
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in lines
        if line.startswith("| `")
    ]


def _places() -> set[str]:
    """What the README's last column may name: its sections (a title's first words may stand
    for it, as "The test API" for "The test API (`FakeDiscord`)"), its paragraphs that begin
    with a bold title, and "Rules enforced"."""
    sections = re.findall(r"^## (.+)$", README, re.M)
    bold = re.findall(r"^\*\*([^*]+?)\.\*\*", README, re.M)
    begun = re.findall(r"^(Rules enforced),", README, re.M)
    return {*sections, *(s.split(" (")[0] for s in sections), *bold, *begun}


def test_the_readme_lists_every_refusal_with_its_status_code_and_message() -> None:
    rows = _rows()
    assert [row[0] for row in rows] == [f"`{refusal.name}`" for refusal in Refusal]
    for row, refusal in zip(rows, Refusal, strict=True):
        assert row[1:4] == [str(refusal.status), str(refusal.code), f"`{refusal.message}`"], row
    codes = [refusal.code for refusal in Refusal]
    assert codes == sorted(codes), "in order of code, as Discord's table"


def test_each_refusal_names_its_source_and_where_the_readme_says_when() -> None:
    places = _places()
    for row in _rows():
        name, code, table, when = row[0], int(row[2]), row[4], row[5]
        # A code is in Discord's JSON Error Codes; a refusal without one, by its status only.
        assert table == "JSON Error Codes" if code else table.startswith("HTTP Response Codes")
        assert when, name
        named = re.findall(r'"([^"]+)"', when)
        assert set(named) <= places, (name, set(named) - places)


def test_the_numbers_in_the_messages_are_the_emulators_limits() -> None:
    assert Refusal.TOO_MANY_FILES.message.endswith(f"({MAX_FILES})")
    assert Refusal.TOO_MANY_EVENTS.message.endswith(f"({MOST_UNDER_WAY})")


def test_every_refusal_is_made_from_the_table() -> None:
    # A refusal written out where it is raised would be missing from the table (and from the
    # README): only errors.py makes a DiscordError.
    made = []
    for path in sorted(FOLDER.glob("*.py")):
        if path.name == "errors.py":
            continue
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "DiscordError":
                made.append(f"{path.name}:{node.lineno}")
    assert made == []


def test_a_refusal_is_discords_error_body() -> None:
    tree = {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "..."}]}}
    error = Refusal.INVALID_FORM.error(tree)
    assert (error.status, error.body()) == (
        400,
        {"message": "Invalid Form Body", "code": 50035, "errors": tree},
    )
    assert Refusal.UNKNOWN_MESSAGE.error().body() == {"message": "Unknown Message", "code": 10008}
