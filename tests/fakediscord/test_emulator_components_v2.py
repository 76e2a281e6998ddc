"""Components V2 layouts (IS_COMPONENTS_V2): what Discord takes and what it refuses, checked
on the wire, and discord.py's own LayoutView sent, shown and clicked."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from fakediscord.errors import errors_at
from fakediscord.limits import COMPONENTS_V2, MAX_V2_COMPONENTS, MAX_V2_TEXT
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def section(*texts: dict[str, Any], accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"type": 9, "components": list(texts)}
    if accessory is not None:
        node["accessory"] = accessory
    return node


def container(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "components": list(children)}


GALLERY = {"type": 12, "items": [{"media": {"url": "https://example.com/board.png"}}]}
GOOD = [
    container(
        text("**Deal 3**"),
        section(text("Bea plays 5♥"), accessory=button("v2:a")),
        GALLERY,
        {"type": 14, "divider": True, "spacing": 1},
        row(button("v2:b", "Hand"), button("v2:c", "Rules")),
    )
]


async def post(http: aiohttp.ClientSession, table: TinyWorld, body: dict[str, Any]) -> Any:
    return await call(http, "POST", table.posts, body)


async def test_a_layout_within_the_rules_is_taken_and_read_back(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, made = await post(http, table, {"flags": COMPONENTS_V2, "components": GOOD})
    assert status == 200, made
    message = table.fd.world.messages[int(made["id"])]
    assert message.flags & COMPONENTS_V2
    assert [b["custom_id"] for b in message.buttons()] == ["v2:a", "v2:b", "v2:c"]
    assert message.text() == "**Deal 3**\nBea plays 5♥"
    assert message.component("v2:c") is not None


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        (
            {"content": "hi", "components": GOOD},
            "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            {"embeds": [{"title": "t"}], "components": GOOD},
            "embeds",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        ),
        (
            {"components": [text("x")] * (MAX_V2_COMPONENTS + 1)},
            "components",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            # 20 sections of a text and a button: 60 components, under 40 at the top level.
            {"components": [section(text("x"), accessory=button(f"b{i}")) for i in range(20)]},
            "components",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            # Each text display within its own 4000 (the OpenAPI description's bound), but
            # 4002 in all: the documented limit across a message the description leaves out.
            {"components": [text("x" * 2001), text("y" * 2001)]},
            "components",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"components": [text("x" * (MAX_V2_TEXT + 1))]},
            "components.0.content",
            "BASE_TYPE_BAD_LENGTH",
        ),
        ({"components": [section(text("x"))]}, "components.0.accessory", "BASE_TYPE_REQUIRED"),
        (
            {"components": [section(*[text("x")] * 4, accessory=button("a"))]},
            "components.0.components",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            # A section holds text displays only: the row's type is not the one it takes.
            {"components": [section(row(button("a")), accessory=button("b"))]},
            "components.0.components.0.type",
            "BASE_TYPE_CHOICES",
        ),
        (
            {"components": [container(container(text("x")))]},
            "components.0.components.0",
            "UNION_TYPE_CHOICES",
        ),
        ({"components": [button("a")]}, "components.0", "UNION_TYPE_CHOICES"),
        ({"components": [{"type": 12, "items": []}]}, "components.0.items", "BASE_TYPE_BAD_LENGTH"),
        (
            {
                "components": [
                    {"type": 12, "items": [{"media": {"url": "https://example.com/b.png"}}] * 11}
                ]
            },
            "components.0.items",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [row(*[button(f"r{i}") for i in range(6)])]},
            "components.0.components",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"components": [row(button("same")), section(text("x"), accessory=button("same"))]},
            "components.1.accessory.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
    ],
    ids=[
        "content",
        "embeds",
        "41-components",
        "nested-count",
        "4002-characters-in-all",
        "4001-characters-in-one",
        "section-without-accessory",
        "section-of-4-texts",
        "row-in-section",
        "container-in-container",
        "bare-button",
        "empty-gallery",
        "gallery-of-11",
        "6-buttons-in-a-row",
        "duplicate-custom-id",
    ],
)
async def test_layouts_discord_refuses_are_refused(
    table: TinyWorld, http: aiohttp.ClientSession, body: dict[str, Any], field: str, code: str
) -> None:
    status, error = await post(http, table, {"flags": COMPONENTS_V2, **body})
    assert (status, error["code"]) == (400, 50035), error
    assert code in [e["code"] for e in errors_at(error["errors"], field)], error["errors"]
    assert table.fd.messages(table.general) == []


async def test_without_the_flag_only_rows_stand_at_the_top(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, error = await post(http, table, {"components": GOOD})
    assert (status, error["code"]) == (400, 50035)


async def test_a_v2_message_stays_v2_and_takes_no_content_on_edit(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, made = await post(http, table, {"flags": COMPONENTS_V2, "components": GOOD})
    assert status == 200
    path = f"{table.posts}/{made['id']}"
    assert await refusal(http, "PATCH", path, {"content": "plain now"}) == (400, 50035)
    status, error = await call(http, "PATCH", path, {"flags": 0, "components": [row(button("x"))]})
    assert (status, error["code"]) == (400, 50035)
    assert "flags" in error["errors"]
    status, edited = await call(http, "PATCH", path, {"components": [text("still v2")]})
    assert status == 200 and edited["flags"] & COMPONENTS_V2
    message = table.fd.world.messages[int(made["id"])]
    assert message.text() == "still v2" and len(message.history) == 1


async def test_discord_py_layout_view_is_sent_shown_and_clicked(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/anywhere layout:True")
    message = r.original
    assert message is not None and message.flags & COMPONENTS_V2 and message.content == ""
    assert message.text() == "taps 0\na section"
    assert [a.filename for a in message.attachments] == ["square.png"]
    clicked = await fd.click(table.bea, message, label="Tap")
    assert clicked.response is not None and clicked.response.type == 7
    assert message.text() == "taps 1\na section"


@pytest.mark.parametrize(
    ("components", "field"),
    [([row(text("x"))], "components.0.components.0"), ([{"type": 99}], "components.0")],
    ids=["text-in-a-row", "unknown-type"],
)
async def test_components_of_unknown_or_misplaced_types_are_refused(
    table: TinyWorld, http: aiohttp.ClientSession, components: list[dict[str, Any]], field: str
) -> None:
    status, error = await post(http, table, {"flags": COMPONENTS_V2, "components": components})
    assert (status, error["code"]) == (400, 50035), error
    codes = [e["code"] for e in errors_at(error["errors"], field)]
    assert "UNION_TYPE_CHOICES" in codes, error["errors"]


async def test_a_plain_message_is_laid_out_by_an_edit_that_clears_its_content(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    """A message sent plain may be edited into Components V2 by setting the flag, but only
    if the edit takes its content away (a V2 message has none); then it stays V2."""
    status, made = await post(http, table, {"content": "Deal 1: plain text"})
    assert status == 200
    path = f"{table.posts}/{made['id']}"
    body = {"flags": COMPONENTS_V2, "components": GOOD}
    status, error = await call(http, "PATCH", path, body)
    assert (status, error["code"]) == (400, 50035), error
    assert "content" in error["errors"]
    status, edited = await call(http, "PATCH", path, {**body, "content": None})
    assert status == 200 and edited["flags"] & COMPONENTS_V2, edited
    message = table.fd.world.messages[int(made["id"])]
    assert message.content == "" and message.text() == "**Deal 3**\nBea plays 5♥"
    back = {"flags": 0, "content": "plain again", "components": []}
    assert await refusal(http, "PATCH", path, back) == (400, 50035)
