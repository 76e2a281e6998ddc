"""The end of a message within Discord's limit (:func:`~bot.core.base.views.layout_tail`): one
rule for a private table's message and a ranked player's place, which add lines to a table
already as long as a message may be."""

from __future__ import annotations

from bot.core.base.views import MAX_LAID_OUT, MessageView, laid_out, layout_tail, text_tail
from bot.core.ranked.places import _with_lines


def test_a_text_is_cut_from_its_start_with_an_ellipsis() -> None:
    assert text_tail("the whole show", 20) == "the whole show"
    assert text_tail("the whole show", 5) == "…show"
    assert text_tail("the whole show", 1) == ""


def test_the_layout_keeps_whole_texts_from_the_end_counted_as_discord_counts_them() -> None:
    groups = (("aaaa", "bbbb"), ("cccc",), ("dddd", "eeee"))
    # Twelve characters hold the last three texts exactly: no separator is counted.
    assert layout_tail(groups, 12) == (("cccc",), ("dddd", "eeee"))
    # The first text that does not fit gives its end.
    assert layout_tail(groups, 14) == (("…b",), ("cccc",), ("dddd", "eeee"))
    assert layout_tail(groups, 100) == groups


def test_a_places_match_lines_go_above_and_below_a_full_table_within_the_limit() -> None:
    table = laid_out([("Deal 1",), ("x" * 1990, "y" * 1990), ("Bea 10, Al 12",)])
    lines = (("Ranked match · Al vs Bea",), ("⏱ 40 s to move", "Match: Al 1 – Bea 0"))
    found = _with_lines(table, lines)
    texts = [t for group in found.layout for t in group]
    assert texts[0] == lines[0][0] and texts[-2:] == list(lines[1])
    assert sum(len(t) for t in texts) == MAX_LAID_OUT
    assert "Bea 10, Al 12" in texts and any(t.startswith("…") for t in texts)
    assert _with_lines(table, ((), ())) is table
    assert isinstance(found, MessageView)
