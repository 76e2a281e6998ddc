"""Each control's custom id is one format that builds it and reads it (issue 48): the ids stay
the strings they were (Discord keeps old messages, with the ids of their day), every id a
control is built with reads back as the same control, and every format reads what it writes."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.discord import custom_ids as ids
from bot.discord.components import (
    DYNAMIC_ITEMS,
    ComputerSelect,
    ConfirmButton,
    DailySelect,
    EntryButton,
    HandButton,
    HandSelect,
    LobbyButton,
    PageButton,
    PrivacyButton,
    RankedButton,
    RematchButton,
    ReviewButton,
)
from bot.discord.custom_ids import IdFormat

#: A sample of each control and the custom id it had before its formats were written once.
SAMPLES: list[tuple[discord.ui.DynamicItem[Any], str]] = [
    *((LobbyButton(12, a), f"crib:12:lobby:{a}") for a in ("join", "remove_computer", "table")),
    (ComputerSelect(12, ("easy",)), "crib:12:lobby:computer"),
    (HandButton(12, "play", 3, "10D"), "crib:12:play:3:10D"),
    (HandButton(12, "muggins", 3), "crib:12:muggins:3"),
    (HandButton(12, "pass", 3), "crib:12:pass:3"),
    (HandSelect(12, "discard", 3), "crib:12:discard:3"),
    (HandSelect(12, "count", 4, half=1, values=(14, 15)), "crib:12:count:4:1"),
    (ConfirmButton(7, "resign", True), "crib:7:resign:yes"),
    (ConfirmButton(7, "cancel", False), "crib:7:cancel:no"),
    (ConfirmButton(8, "withdraw", True), "crib:tournament:8:withdraw:yes"),
    (ConfirmButton(8, "cancel_tournament", False), "crib:tournament:8:cancel:no"),
    (ConfirmButton(9, "forget", True), "crib:privacy:9:forget:yes"),
    (ConfirmButton(10, "leave_match", False), "crib:ranked:10:leave:no"),
    (PrivacyButton(9, "data"), "crib:privacy:9:data"),
    (PrivacyButton(9, "delete"), "crib:privacy:9:delete"),
    (PageButton("people", 2), "crib:board:people:2"),
    (PageButton("computer", 0, variant="five_card"), "crib:board:computer:0:five_card"),
    (EntryButton(5, "join"), "crib:tournament:5:join"),
    (EntryButton(5, "leave"), "crib:tournament:5:leave"),
    (ReviewButton(6), "crib:review:6"),
    (RematchButton(6), "crib:6:rematch"),
    (RematchButton(6, hand=True), "crib:6:rematch:hand"),
    (ReviewButton(6, 5, 3, "Next ▶"), "crib:review:6:5:3"),
    (DailySelect("20261126"), "crib:daily:20261126"),
    (RankedButton(4, "stop"), "crib:ranked:4:stop"),
    (RankedButton(4, "expert"), "crib:ranked:4:expert"),
]


def _custom_id(control: discord.ui.DynamicItem[Any]) -> str:
    custom_id = getattr(control.item, "custom_id", None)
    assert isinstance(custom_id, str)
    return custom_id


@pytest.mark.parametrize(("control", "custom_id"), SAMPLES, ids=[s[1] for s in SAMPLES])
def test_each_control_keeps_its_id_and_reads_it_back(
    control: discord.ui.DynamicItem[Any], custom_id: str
) -> None:
    assert _custom_id(control) == custom_id
    [kind] = [
        k for k in DYNAMIC_ITEMS if re.fullmatch(k.__discord_ui_compiled_template__, custom_id)
    ]
    assert kind is type(control)
    match = re.fullmatch(kind.__discord_ui_compiled_template__, custom_id)
    assert match is not None
    again = kind.parsed(match)  # type: ignore[attr-defined]
    assert _custom_id(again) == custom_id
    state = {k: v for k, v in vars(control).items() if k != "item" and not k.startswith("_")}
    assert {k: vars(again)[k] for k in state} == state


def _formats() -> list[IdFormat]:
    return [f for f in vars(ids).values() if isinstance(f, IdFormat)]


#: A value for each field, by its name (each matches its field's pattern wherever it stands).
_VALUES = {
    "game": "12",
    "action": "join",
    "stamp": "20261126",
    "card": "10D",
    "call": "pass",
    "half": "1",
    "subject": "7",
    "question": "cancel",
    "choice": "no",
    "person": "9",
    "table": "computer",
    "page": "3",
    "variant": "six_hand",
    "tournament": "5",
    "seat": "5",
    "entry": "4",
}


def test_each_format_reads_what_it_builds_and_one_control_owns_it() -> None:
    owned = [f for kind in DYNAMIC_ITEMS for f in vars(kind)["formats"]]
    assert sorted(map(id, owned)) == sorted(map(id, _formats()))
    for made in _formats():
        values = {name: _VALUES[name] for name in made.fields}
        if "question" in values:
            values["question"] = made.fields["question"].split("|")[0]
        if made is ids.RANKED:
            values["action"] = "expert"
        elif made is ids.PRIVACY:
            values["action"] = "data"
        custom_id = made.build(**values)
        assert made.read(custom_id) == values, custom_id
        others = [f for f in _formats() if f is not made and f.read(custom_id) is not None]
        assert others == [], custom_id


def test_a_game_prefix_begins_each_game_control() -> None:
    for control, custom_id in SAMPLES[:11]:
        assert custom_id.startswith(ids.game_prefix(12)) == isinstance(
            control, LobbyButton | ComputerSelect | HandButton | HandSelect
        )
