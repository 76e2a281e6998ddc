"""Records read from rows whose columns are their fields (bot.store.rows): each value is
converted to its field's type, None kept where a field may be None, and a record whose fields
are not a table's columns is found on both databases."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.core.base.keys import MessageKey
from bot.core.daily.records import DailyAnswer
from bot.core.review.records import ReviewRow
from bot.core.tournaments import records as tr
from bot.store import Store
from bot.store.rows import columns, reader


def test_columns_are_the_fields_in_order() -> None:
    assert columns(DailyAnswer) == (
        "guild_id, day, user_id, name, thrown, points, best, rank, answered_at"
    )


def test_each_value_becomes_its_fields_type() -> None:
    row = (7, 1, 10, None, None, 12, None, "forfeit", 10, 0, 3, 1, 0, -3, 1, 4)
    pairing = reader(tr.PairingRecord)(row)
    assert pairing == tr.PairingRecord(
        round=7,
        tab=1,
        player_a=10,
        player_b=None,
        post_id=None,
        thread_id=12,
        game_id=None,
        decided=tr.Decided.FORFEIT,
        winner=10,
        lurch=False,
        margin=3,
        wins_a=1,
        wins_b=0,
        spread_a=-3,
        archived=True,
        version=4,
    )
    assert type(pairing.lurch) is bool and type(pairing.decided) is tr.Decided


def test_text_and_real_columns_convert_too() -> None:
    row = (
        *(1, 2, 3, 4, "knockout", 3, 61, "skunk", "0.25", "running", 2, 5.0, 9, 1.5, None, 3, 0, 8),
        "five_card",
        "90",
        None,
    )
    record = reader(tr.TournamentRecord)(row)
    assert record.format is tr.Format.KNOCKOUT and record.status is tr.TournamentStatus.RUNNING
    assert record.round_hours == 0.25 and record.finished_at is None and record.cancelled_by == 8
    assert record.variant == "five_card" and record.round_held == 90.0
    assert record.refused_since is None


def test_a_row_of_other_columns_is_refused() -> None:
    with pytest.raises(ValueError):
        reader(DailyAnswer)((1, "2026-11-23", 3))


def test_a_field_no_column_holds_fails_at_once() -> None:
    @dataclass(frozen=True)
    class Nested:
        cards: tuple[str, ...]

    with pytest.raises(TypeError, match="int, float, str, bool or enum"):
        reader(Nested)


@pytest.mark.parametrize(
    ("table", "record"),
    [
        ("tournaments", tr.TournamentRecord),
        ("tournament_pairings", tr.PairingRecord),
        ("tournament_entrants", tr.EntrantRecord),
        ("daily_answers", DailyAnswer),
        ("reviews", ReviewRow),
    ],
)
async def test_each_record_is_its_tables_columns(store: Store, table: str, record: type) -> None:
    # A field that is not a column of the table fails the query on either database.
    assert await store.db.fetch(f"SELECT {columns(record)} FROM {table} WHERE 1 = 0") == []


def test_a_value_kept_as_text_is_read_with_its_types_parse() -> None:
    @dataclass(frozen=True)
    class Kept:
        key: MessageKey
        copy_of: MessageKey | None

    read = reader(Kept)
    assert read(("hand:3:1", "hand:3:1@42")) == Kept(
        MessageKey.hand(3, 1), MessageKey.hand(3, 1).copy_at(42)
    )
    assert read(("lobby", None)) == Kept(MessageKey("lobby"), None)
