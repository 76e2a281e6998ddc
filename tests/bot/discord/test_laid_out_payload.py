"""The table and hand messages laid out (Components V2) as discord.py's arguments: no
content, one container of texts, the board inside it and the controls in rows inside it too,
within Discord's limits at the worst case (four players, counting by hand, a long show)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.base.replies import User
from bot.core.base.views import BoardPicture, MessageView, ReviewPages, laid_out
from bot.discord.rendering import MAX_PANEL_COMPONENTS, MAX_PANEL_TEXT, message_payload
from bot.store import Store
from engine.counting import Counting
from fakediscord.limits import COMPONENTS_V2, check_message
from fakediscord.model import walk_components
from tests.helpers.cast import AL, BEA, CY, DEE
from tests.helpers.service_driver import Clock, drive, make_service, open_table, owed_now

BOARD = BoardPicture(("Al", "Bea"), ((10, 4), (7, 0)), 121, dealer=0)


def _count(components: list[dict[str, Any]]) -> int:
    """Components in all, nested ones counted, as Discord counts them (a gallery's items are
    not components)."""
    return sum(1 for _ in walk_components(components))


def _text(components: list[dict[str, Any]]) -> int:
    return sum(len(c["content"]) for c in walk_components(components) if c.get("type") == 10)


async def _sent(view: MessageView) -> list[dict[str, Any]]:
    """What Discord is sent for ``view``, having passed Discord's checks as the emulator
    makes them (a new message, and an edit of one)."""
    payload = await message_payload(view, editing=False)
    assert "content" not in payload
    components: list[dict[str, Any]] = payload["view"].to_components()
    files = bool(payload.get("files"))
    check_message({"flags": COMPONENTS_V2, "components": components}, has_files=files)
    edit = await message_payload(view, editing=True)
    assert edit["content"] is None  # a plain message laid out by the edit loses its text
    return components


async def test_a_table_holds_its_parts_board_and_button_in_one_container() -> None:
    view = laid_out(
        (("Deal 3: Al deals",), ("Bea's hand: …", "Al's hand: …"), ("Scores: Al 10 · Bea 7",)),
        board=BOARD,
        controls=ReviewPages(7, 0, 0, 0),
    )
    assert view.content == "Deal 3: Al deals\nBea's hand: …\nAl's hand: …\nScores: Al 10 · Bea 7"
    (container,) = await _sent(view)
    kinds = [c["type"] for c in container["components"]]
    # text, separator, two texts, separator, text, the board's gallery, the Review row
    assert kinds == [10, 14, 10, 10, 14, 10, 12, 1]
    gallery, row = container["components"][-2:]
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
    assert gallery["items"][0]["description"]  # the board's alt text is kept
    assert row["components"][0]["custom_id"] == "crib:review:7"


async def test_a_framed_table_holds_each_part_in_a_container_of_its_own() -> None:
    """A deal's table at its show: the play, each hand and the crib, and the scores each in
    a frame of its own (as many components as one frame with rules between its parts), the
    board and the button in the last."""
    groups = (("Deal 3: Al deals",), ("Bea's hand: …",), ("Al's hand: …",), ("Scores: …",))
    framed = laid_out(groups, board=BOARD, controls=ReviewPages(7, 0, 0, 0), framed=True)
    plain = laid_out(groups, board=BOARD, controls=ReviewPages(7, 0, 0, 0))
    assert framed.content == plain.content and framed.digest() != plain.digest()
    containers = await _sent(framed)
    assert [c["type"] for c in containers] == [17, 17, 17, 17]
    assert [[p["type"] for p in c["components"]] for c in containers] == [
        [10],
        [10],
        [10],
        [10, 12, 1],
    ]
    assert _count(containers) == _count(await _sent(plain))


# What a message looks like does not depend on the database (and each look drawn costs a board
# picture): one backend suffices.
@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_every_laid_out_message_of_a_long_manual_four_player_game_is_within_limits(
    store: Store, clock: Clock
) -> None:
    """Four players with long names counting by hand (claims, muggins, the crib): every
    table, result and hand message, at every moment, is one Discord would take: at most 40
    components, 4,000 characters of text; and the hand's controls (the count menus with
    Muggins! and No muggins) are all there, in rows inside the layout."""
    service = make_service(store, clock, seed=4)
    users = [User(u.id, u.name + " of the Long and Winding Road") for u in (AL, BEA, CY, DEE)]
    table = await open_table(service, users, counting=Counting.MANUAL)
    game_id = table.outcomes[0].game_id or 0
    seen: set[str] = set()
    most = {"components": 0, "text": 0}
    kinds: set[str] = set()

    async def check(outcome: object, user: object) -> None:
        for owed in await owed_now(service, game_id):
            view = owed.view
            if not str(owed.key).startswith(("table:", "hand:", "result")):
                continue
            assert view.layout, f"{owed.key} is laid out"
            if view.digest() in seen:
                continue
            seen.add(view.digest())
            components = await _sent(view)
            most["components"] = max(most["components"], _count(components))
            most["text"] = max(most["text"], _text(components))
            if view.hand is not None:
                kinds.add(view.hand.kind + ("+muggins" if view.hand.muggins else ""))
                ids = {c.get("custom_id") for c in walk_components(components)}
                assert any(str(i).startswith(f"crib:{game_id}:") for i in ids)

    await drive(service, table, users, check=check)
    assert most["components"] <= MAX_PANEL_COMPONENTS and most["text"] <= MAX_PANEL_TEXT
    assert most["text"] > 2000, "some deal was longer than a plain message takes"
    assert {"discard", "play", "count", "muggins"} <= kinds, kinds
