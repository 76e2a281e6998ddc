"""Messages that fit Discord's 2,000 characters with every line whole (``fitted``): the
longest group gives up its last rows, counted on a line of its own; headings always stay."""

from __future__ import annotations

from bot.core.base.text import MAX_MESSAGE, fitted, more_left


def test_what_fits_is_left_as_it_is() -> None:
    assert fitted([["**Top**", "1. Al", "2. Bea"], ["Notes"]]) == "**Top**\n1. Al\n2. Bea\nNotes"


def test_the_longest_group_gives_up_its_last_rows_counted() -> None:
    short = ["**Champions**", *(f"{n}. Champion" for n in range(5))]
    long = ["**Hands**", *(f"{n}. {'x' * 90}" for n in range(40))]
    text = fitted([long, short])
    lines = text.splitlines()
    assert len(text) <= MAX_MESSAGE
    assert lines[0] == "**Hands**" and short == lines[-len(short) :], "the short group whole"
    kept = [line for line in lines if line.endswith("x" * 90)]
    assert kept == long[1 : len(kept) + 1], "the first rows, whole, in order"
    assert lines[len(kept) + 1] == more_left(40 - len(kept))
    # No more was left out than needed: one more row would not have fitted.
    assert len(text) + len(long[len(kept) + 1]) + 1 > MAX_MESSAGE


def test_rows_left_out_already_are_counted_with_those_that_did_not_fit() -> None:
    more = "… and {} more".format
    assert fitted([["Board", "1. Al"]], left=[3], more=more) == "Board\n1. Al\n… and 3 more"
    rows = ["Board", *(f"{n}. {'y' * 150}" for n in range(15))]
    text = fitted([["**Keep me**"], rows], left=[0, 5], more=more)
    shown = len(text.splitlines()) - 3
    assert text.startswith("**Keep me**\nBoard\n") and len(text) <= MAX_MESSAGE
    assert text.endswith(f"… and {15 - shown + 5} more")


def test_headings_stay_and_a_message_of_headings_alone_is_cut_to_fit() -> None:
    groups = [[f"{n} {'z' * 300}"] for n in range(10)]
    text = fitted(groups)
    assert len(text) <= MAX_MESSAGE and text.startswith("0 zzz")
