"""The answers kept for the run (tests.helpers.kept): each distinct call answered once, read
back the same by any test after, in any process."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.kept import Kept


def test_a_call_is_answered_once_and_read_back_after(tmp_path: Path) -> None:
    asked: list[tuple[int, str]] = []

    def review(seat: int, *, scores: str = "0-0") -> tuple[str, int, str]:
        asked.append((seat, scores))
        return ("the review of seat", seat, scores)

    first, later = Kept(review, tmp_path), Kept(review, tmp_path)  # (as two processes would)
    assert first(0) == ("the review of seat", 0, "0-0")
    answer = later(0)
    assert answer == ("the review of seat", 0, "0-0")
    assert asked == [(0, "0-0")]
    # Other arguments are asked anew; a kept answer that cannot be read is worked out again.
    assert later(0, scores="100-100") == ("the review of seat", 0, "100-100")
    assert later(1) == ("the review of seat", 1, "0-0")
    for path in tmp_path.iterdir():
        path.write_bytes(b"half a")
    assert first(0) == ("the review of seat", 0, "0-0")
    assert asked == [(0, "0-0"), (0, "100-100"), (1, "0-0"), (0, "0-0")]


def test_each_asking_gets_a_copy_of_its_own(tmp_path: Path) -> None:
    kept = Kept(lambda n: [n], tmp_path)
    first = kept(3)
    first.append("changed by a caller")
    assert kept(3) == [3]
