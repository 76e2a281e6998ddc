"""A message view's digest: versioned, and digests stored before the controls became one field
still say that a message shows its view, so an upgrade edits nothing that is as it should be.

The digests below are what the release before worked out for the same views (stored in every
database it ran): they are data, not this code's output."""

from __future__ import annotations

import pytest

from bot.core.base.views import (
    DIGEST_VERSION,
    BoardPicture,
    CardChoice,
    ConfirmControls,
    DailyPick,
    EntryControls,
    HandControls,
    LobbyControls,
    MessageView,
    PageControls,
    ReviewPages,
    Style,
    laid_out,
)

HAND = HandControls(7, "play", (CardChoice("5H", "5♥"), CardChoice("JD", "J♦", False)), 0, 12)
BOARD = BoardPicture(("Al", "Bea"), ((10, 5), (12, 3)), 121, dealer=0, chances=("51%", "49%"))
DAILY = DailyPick("20261124", ("5H", "5D", "JC", "QS", "2C", "3D"))

#: name -> (the view, the digest the release before stored for it).
STORED = {
    "hand": (MessageView("Your hand", controls=HAND), "6b5c598323322d9597b8e86b"),
    "lobby": (
        MessageView("Lobby", controls=LobbyControls(3, ("join", "leave"), ("easy",))),
        "210cc1b3cea286ac3f101c4f",
    ),
    "pages": (
        MessageView("Board", controls=PageControls("people", 1, 3)),
        "d4de5c7fe9639693368b01b3",
    ),
    "entry": (MessageView("Swiss", controls=EntryControls(4)), "9dc5f3c26a9962fffa1cc064"),
    "review": (
        laid_out([("Result",), ("Ratings",)], board=BOARD, controls=ReviewPages(3, 0, 0, 0)),
        "bf0518661c498c4ac463d3db",
    ),
    "framed": (
        laid_out([("Deal 1",), ("Al: 5♥",)], board=BOARD, framed=True),
        "dfffcedff344623af920a6f4",
    ),
    "panel": (MessageView("Stats", board=BOARD, style=Style.PANEL), "0dd7ed9a3b198195189a2563"),
    "daily": (MessageView("Daily", controls=DAILY), "ea2120a76566c21167c08979"),
    "confirm": (MessageView("Resign?", controls=ConfirmControls(3)), "0339feafe70145b77427e1c2"),
    "plain": (MessageView("Hello", mentions=(1, 2)), "3bd4c43051fadb51fda502e9"),
}


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_digest_stored_by_the_release_before_still_reads_as_current(name: str) -> None:
    view, stored = STORED[name]
    assert view.shows(stored)
    assert view.digest().startswith(f"{DIGEST_VERSION}:") and view.shows(view.digest())


def test_a_digest_of_another_view_does_not() -> None:
    views = [view for view, _ in STORED.values()]
    for view in views:
        for other, stored in STORED.values():
            if other is not view:
                assert not view.shows(stored) and not view.shows(other.digest())
    assert not views[0].shows("")


def test_a_message_has_one_kind_of_controls_and_a_laid_out_one_its_groups() -> None:
    view = MessageView("Your hand", controls=HAND)
    assert view.hand == HAND and view.controls_of(LobbyControls) is None
    assert view.without_controls().controls is None
    with pytest.raises(ValueError, match="groups of texts"):
        MessageView("Deal 1", style=Style.LAID_OUT)


def test_a_variant_leaderboard_page_digests_apart_from_the_standard_games() -> None:
    standard = MessageView("Board", controls=PageControls("people", 1, 3))
    variant = MessageView("Board", controls=PageControls("people", 1, 3, variant="five_card"))
    assert not variant.shows(standard.digest()) and not standard.shows(variant.digest())
