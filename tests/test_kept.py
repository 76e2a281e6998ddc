"""The reviews kept for the run (tests.helpers.kept_reviews): each distinct request made once,
read back the same by any test after, in any process."""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.helpers.kept_reviews as kept_reviews
from bot.core.worker.review_work import ReviewRequest
from tests.helpers.kept_reviews import KeptReviews


def _request(seat: int) -> ReviewRequest:
    return ReviewRequest(
        players=("Al", "Bea"),
        rules={"target": 121},
        shuffles=("5H 6D",),
        actions=({"type": "discard", "seat": 0, "cards": ["5H", "6D"]},),
        seat=seat,
        through_deal=None,
        seed=7,
    )


def test_a_request_is_made_once_and_read_back_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[ReviewRequest] = []

    def making(request: ReviewRequest) -> object:
        made.append(request)
        return ("the review of seat", request.seat)

    monkeypatch.setattr(kept_reviews, "make_review", making)
    first, later = KeptReviews(tmp_path), KeptReviews(tmp_path)  # (as two processes would)

    def said(kept: KeptReviews, seat: int) -> object:
        return kept.make(_request(seat))

    assert said(first, 0) == ("the review of seat", 0)
    assert said(later, 0) == ("the review of seat", 0)
    assert made == [_request(0)]
    # Another request is made anew; a kept one that cannot be read is made again.
    assert said(later, 1) == ("the review of seat", 1)
    for path in tmp_path.iterdir():
        path.write_bytes(b"half a")
    assert said(first, 0) == ("the review of seat", 0)
    assert made == [_request(0), _request(1), _request(0)]
