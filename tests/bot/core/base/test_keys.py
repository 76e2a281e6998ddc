"""A message's key as a value: built and read by the core, stored as the text it always was."""

from __future__ import annotations

import doctest

import pytest

from bot.core.base import keys, seating
from bot.core.base.keys import AWAY, DM_CLOSED, LEFT, REMIND, MessageKey


def test_the_examples_hold() -> None:
    assert doctest.testmod(keys).attempted > 0 and doctest.testmod(keys).failed == 0
    assert doctest.testmod(seating).failed == 0


@pytest.mark.parametrize(
    ("key", "stored"),
    [
        # The texts stores already hold: a key's text never changes.
        (MessageKey.hand(3, 1), "hand:3:1"),
        (MessageKey.table(12), "table:12"),
        (MessageKey.of(REMIND, 2, 0), "remind:2:0"),
        (MessageKey.of(AWAY, "c3h", 1), "away:c3h:1"),
        (MessageKey.of(DM_CLOSED, 4, 2), "dm-closed:4:2"),
        (MessageKey.of(LEFT, 3), "left:3"),
        (MessageKey("lobby"), "lobby"),
        (MessageKey.hand(2, 1).copy_at(4242), "hand:2:1@4242"),
    ],
)
def test_a_key_is_stored_as_its_text_and_read_back(key: MessageKey, stored: str) -> None:
    assert str(key) == stored
    assert MessageKey.parse(stored) == key


def test_what_a_key_names() -> None:
    copy = MessageKey.parse("hand:2:1@4242")
    assert (copy.deal, copy.seat, copy.copy, str(copy.message())) == (2, 1, 4242, "hand:2:1")
    assert MessageKey.parse("away:v17:3").seat == 3
    assert MessageKey.parse("remind:2:0").deal is None  # (a reminder's deal is not a table's)
    assert MessageKey.parse("via").seat is None and MessageKey.parse("table:4").seat is None


@pytest.mark.parametrize("text", ["", "board", "hand:03:1", "x@y", "a@007", "hand:2:1@"])
def test_any_text_reads_back_as_itself(text: str) -> None:
    assert str(MessageKey.parse(text)) == text
    assert MessageKey.parse(text).copy is None
