"""Every control's custom id is read back by its own component's template, for every seat a
table can have (six, at six-hand cribbage): a control whose id no template matches is a dead
button ("This interaction failed")."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.components import DYNAMIC_ITEMS, ReviewButton

#: Seats at the largest table (six-hand cribbage).
SEATS = range(6)


def _parsed(item: discord.ui.Item[Any]) -> object:
    custom_id = getattr(item, "custom_id", None)
    assert isinstance(custom_id, str)
    matching = [
        kind
        for kind in DYNAMIC_ITEMS
        if re.fullmatch(kind.__discord_ui_compiled_template__, custom_id)
    ]
    assert matching == [type(item)], custom_id
    return matching[0]


def test_a_review_page_of_every_seat_is_read_back() -> None:
    for seat in SEATS:
        button = ReviewButton(7, seat, 3, "Next ▶")
        _parsed(button)
        match = re.fullmatch(ReviewButton.__discord_ui_compiled_template__, button.custom_id)
        assert match is not None
        again = ReviewButton.parsed(match)
        assert (again.game_id, again.seat, again.page) == (7, seat, 3)


def test_an_id_with_digits_other_than_0_to_9_is_no_control() -> None:
    # Python's \d takes any Unicode digit, and int() reads "١٢" as 12: a forged id must not.
    for forged in ("crib:١٢:lobby:join", "crib:review:١٢", "crib:daily:２０２６１１２６"):
        assert not any(
            re.fullmatch(kind.__discord_ui_compiled_template__, forged) for kind in DYNAMIC_ITEMS
        ), forged
    assert any(
        re.fullmatch(kind.__discord_ui_compiled_template__, "crib:12:lobby:join")
        for kind in DYNAMIC_ITEMS
    )
