"""File uploads: attachments as Discord stores them, their limits, edits that replace them, the
Attach Files permission, and reading a posted picture's pixels back."""

from __future__ import annotations

import aiohttp

from fakediscord.model import ATTACH_FILES
from fakediscord.testing import InProcessBot
from fakediscord.uploads import MAX_FILE_BYTES
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.pixels import near, read_png
from tests.helpers.tinybot import red_square_png
from tests.helpers.wire import upload

RED, WHITE = (255, 0, 0), (255, 255, 255)


async def test_a_posted_picture_is_stored_as_discord_stores_it(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    await fd.slash(table.al, table.general, "/tiny board")
    post = await fd.wait_for(lambda: fd.visible_to(table.bea, table.general))
    [picture] = post[-1].attachments
    assert (picture.filename, picture.description) == ("board.png", "a red square")
    assert (picture.content_type, picture.width, picture.height) == ("image/png", 40, 30)
    assert picture.size == len(picture.data) == len(red_square_png())
    image = read_png(picture.data)
    assert near(image, (25, 15), RED) and near(image, (5, 5), WHITE)
    async with aiohttp.ClientSession() as session:
        for url in (picture.url, picture.proxy_url):
            async with session.get(url) as response:
                assert await response.read() == picture.data


async def test_the_stored_message_lists_its_attachments_on_the_wire(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    payload = {
        "content": "two files",
        "attachments": [
            {"id": 0, "filename": "board.png", "description": "the board"},
            {"id": 1, "filename": "notes.txt"},
        ],
    }
    files = [("ignored.png", red_square_png()), ("n.txt", b"hello")]
    status, body = await upload(http, "POST", table.posts, payload, files)
    assert status == 200
    board, notes = body["attachments"]
    assert board["filename"] == "board.png" and board["description"] == "the board"
    assert (board["width"], board["height"], board["content_type"]) == (40, 30, "image/png")
    assert board["size"] == len(red_square_png()) and board["proxy_url"] != board["url"]
    assert notes["filename"] == "notes.txt" and notes["content_type"] == "text/plain"
    assert "width" not in notes and notes["size"] == 5


async def test_edits_keep_listed_attachments_add_new_ones_and_drop_the_rest(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    status, first = await upload(
        http, "POST", table.posts, {"content": "v1"}, [("a.txt", b"a"), ("b.txt", b"b")]
    )
    assert status == 200
    a, b = first["attachments"]
    payload = {"attachments": [{"id": b["id"]}, {"id": 0, "filename": "c.txt"}]}
    status, edited = await upload(
        http, "PATCH", f"{table.posts}/{first['id']}", payload, [("c", b"c")]
    )
    assert status == 200
    assert [x["filename"] for x in edited["attachments"]] == ["b.txt", "c.txt"]
    assert edited["attachments"][0]["id"] == b["id"]
    [message] = table.fd.messages(table.general)
    assert [x.data for x in message.attachments] == [b"b", b"c"]
    assert [x.filename for x in message.history[0].attachments] == ["a.txt", "b.txt"]
    # An id that is neither a new part nor one of the message's attachments is refused.
    status, error = await upload(
        http, "PATCH", f"{table.posts}/{first['id']}", {"attachments": [{"id": a["id"]}]}, []
    )
    assert (status, error["code"]) == (400, 50035)


async def test_a_file_over_10_mib_is_413_and_more_than_10_files_is_30015(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    fd.clock.freeze()
    big = [("big.bin", b"x" * (MAX_FILE_BYTES + 1))]
    status, error = await upload(http, "POST", table.posts, {"content": "big"}, big)
    assert (status, error["code"]) == (413, 40005)
    edge = [("edge.bin", b"x" * MAX_FILE_BYTES)]
    assert (await upload(http, "POST", table.posts, {"content": "edge"}, edge))[0] == 200
    many = [(f"f{n}.txt", b"x") for n in range(11)]
    status, error = await upload(http, "POST", table.posts, {"content": "many"}, many)
    assert (status, error["code"]) == (400, 30015)
    status, ten = await upload(http, "POST", table.posts, {"content": "ten"}, many[:10])
    assert status == 200 and len(ten["attachments"]) == 10
    # Ten already there: adding one more on an edit is refused as well.
    fd.clock.advance(5)
    status, error = await upload(http, "PATCH", f"{table.posts}/{ten['id']}", {}, many[:1])
    assert (status, error["code"]) == (400, 30015)
    assert [m.content for m in fd.messages(table.general)] == ["edge", "ten"]


async def test_uploads_need_attach_files_in_the_channel_and_at_most_10_mib(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny upload")
    assert (await r.wait_settled()) is not None and r.content == "uploaded"
    r = await fd.slash(table.al, table.general, f"/tiny upload size:{MAX_FILE_BYTES + 1}")
    await r.wait_settled()
    assert r.content == "refused 413 40005"
    table.general.deny(ATTACH_FILES)
    r = await fd.slash(table.al, table.general, "/tiny upload")
    await r.wait_settled()
    assert r.content == "refused 403 50013"
    # The same without the permission in the whole server (@everyone, which the bot has).
    thread = table.general.add_thread("side")
    r = await fd.slash(table.al, thread, "/tiny upload")
    await r.wait_settled()
    assert r.content == "refused 403 50013"
    other = table.guild.add_text_channel("other")
    table.guild.deny(ATTACH_FILES)
    r = await fd.slash(table.al, other, "/tiny upload")
    await r.wait_settled()
    assert r.content == "refused 403 50013"
    assert [m.content for m in fd.visible_to(table.bea, table.general)] == ["a file"]
