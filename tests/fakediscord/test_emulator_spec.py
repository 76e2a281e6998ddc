"""Discord's own description of its API (its OpenAPI file) as the first judge of every request,
what Discord's docs add to it (a command's 8,000 characters, the names files are stored under),
and the description's copy: what its locked npm package builds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import fastjsonschema
import pytest

from fakediscord import FakeDiscord, openapi
from fakediscord.errors import errors_at
from fakediscord.limits import MAX_COMMAND_SIZE, command_size
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.npm_builds import build_again
from tests.helpers.tinybot import red_square_png
from tests.helpers.wire import call, multipart

ROOT = Path(__file__).parents[2]
SPEC = ROOT / "fakediscord" / "spec"
INT53 = 2**53 - 1


def game_option(highest: int) -> dict[str, Any]:
    """A slash command with one subcommand taking a game number up to `highest`."""
    option = {"type": 4, "name": "game", "description": "The game", "min_value": 1}
    option["max_value"] = highest
    sub = {"type": 1, "name": "review", "description": "A review", "options": [option]}
    return {"name": "cribbage", "description": "Cribbage", "type": 1, "options": [sub]}


def discord_client() -> Any:
    """A client that never connects: enough for a command tree to build its payload."""
    import discord

    return discord.Client(intents=discord.Intents.none())


def test_the_committed_description_is_what_its_package_builds(tmp_path: Path) -> None:
    built = tmp_path / "discord_api.json"
    build_again(SPEC, tmp_path, built, "the description")
    stale = built.read_bytes() != openapi.BUILT.read_bytes()
    assert not stale, "fakediscord/discord_api.json is not what its package builds: bash " + (
        "fakediscord/spec/build.sh"
    )


async def test_an_integer_option_over_2_53_minus_1_refuses_the_whole_command_list(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    path = f"/applications/{fd.application_id}/guilds/{table.guild.id}/commands"
    status, body = await call(http, "PUT", path, [game_option(2**53)])
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    [error] = errors_at(body["errors"], "0.options.0.options.0.max_value")
    assert error["code"] == "NUMBER_TYPE_MAX" and str(INT53) in error["message"]
    assert fd.commands.listing(table.guild.id) == []  # nothing of the list was taken
    assert fd.spec_verdicts.refused and fd.spec_verdicts.refused[-1][0].startswith("PUT /app")
    status, _ = await call(http, "PUT", path, [game_option(INT53)])
    assert status == 200 and fd.commands.listing(table.guild.id)[0]["name"] == "cribbage"


async def test_the_bots_commands_fit_the_description_and_discords_size_limit() -> None:
    from discord import app_commands

    from tests.helpers.commands import the_commands

    tree = app_commands.CommandTree(discord_client())
    tree.add_command(the_commands())
    [command] = [c.to_dict(tree) for c in tree.get_commands()]
    judge = openapi.load()
    found = judge.operation("PUT", "/applications/1/commands")
    assert found is not None
    assert judge.errors(found[0], found[1], {}, [command]) == {}
    assert command_size(command) <= MAX_COMMAND_SIZE, command_size(command)


async def test_a_slash_command_over_8000_characters_is_refused(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    command = game_option(10)
    letters = "abcdefghijklmnopqrstuvwxyz"
    options = [
        {"type": 3, "name": f"{letters[n]}{letters[m]}", "description": "d" * 100}
        for n in range(3)
        for m in range(25)
        if n * 25 + m < 25
    ]
    subs = [
        {"type": 1, "name": f"sub{n}", "description": "s" * 100, "options": options}
        for n in range(4)
    ]
    command["options"] = subs
    assert command_size(command) > MAX_COMMAND_SIZE
    path = f"/applications/{fd.application_id}/commands"
    status, body = await call(http, "PUT", path, [command])
    assert (status, body["code"]) == (400, 50035)
    assert errors_at(body["errors"], "0")[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    command["options"] = subs[:3]
    assert command_size(command) <= MAX_COMMAND_SIZE
    assert (await call(http, "PUT", path, [command]))[0] == 200


async def test_ids_may_be_sent_as_integers_as_the_api_takes_them(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    status, channel = await call(http, "POST", "/users/@me/channels", {"recipient_id": table.al.id})
    assert status == 200 and int(channel["id"])
    mentions = {"parse": [], "users": [table.al.id]}
    body = {"content": "x", "allowed_mentions": mentions}
    status, _ = await call(http, "POST", table.posts, body)
    assert status == 200
    status, body = await call(http, "POST", "/users/@me/channels", {"recipient_id": "al"})
    assert (status, body["code"]) == (400, 50035)
    assert errors_at(body["errors"], "recipient_id")
    assert [route for route, _ in fd.spec_verdicts.refused] == ["POST /users/@me/channels"]


async def test_query_and_path_parameters_are_judged(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    fd = table.fd
    # A boolean query string takes any value (only True, true and 1 mean true).
    status, _ = await call(http, "GET", f"{table.posts}?limit=5&around={table.general.id}")
    assert status == 200
    # Asked again, each value gets the same verdict (the judge remembers it per value).
    for _ in range(2):
        status, body = await call(http, "GET", f"{table.posts}?limit=five")
        assert (status, body["code"]) == (400, 50035) and errors_at(body["errors"], "limit")
        status, _ = await call(http, "GET", f"{table.posts}?limit=5")
        assert status == 200
    status, body = await call(http, "GET", f"{table.posts}?before=yesterday")
    assert (status, body["code"]) == (400, 50035) and errors_at(body["errors"], "before")
    status, body = await call(http, "GET", "/channels/general/messages")
    assert status in (400, 404)  # a path that is no snowflake is not a channel of Discord's
    checked = fd.spec_verdicts.by_operation
    assert checked["GET /channels/{channel_id}/messages"] >= 3


async def test_a_literal_segment_is_judged_as_its_own_operation(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    r = await fd.slash(table.al, table.general, "/tiny echo text:hi")
    assert r.content == "hi"
    # discord.py reads the answer back through `@original`, which the description gives an
    # operation of its own (not `{message_id}`, which must be a snowflake).
    async with aiohttp.ClientSession(fd.api_base + "/") as session:
        url = f"webhooks/{fd.application_id}/{r.token}/messages/@original"
        async with session.patch(url, json={"content": "edited"}) as answer:
            assert answer.status == 200
    key = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert fd.spec_verdicts.by_operation[key] == 1
    assert fd.spec_verdicts.refused == []


async def test_a_body_that_is_not_json_is_50109(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    headers = {"Content-Type": "application/json"}
    async with http.post(table.posts.lstrip("/"), data=b"{not json", headers=headers) as answer:
        body = await answer.json()
    assert (answer.status, body["code"]) == (400, 50109)


async def test_a_file_is_stored_under_the_name_discord_gives_it(
    table: TinyWorld, http: aiohttp.ClientSession
) -> None:
    layout: dict[str, Any] = {
        "flags": 1 << 15,
        "components": [{"type": 12, "items": [{"media": {"url": "attachment://the board.png"}}]}],
    }
    form = multipart(layout, [("the board.png", red_square_png())])
    async with http.post(table.posts.lstrip("/"), data=form) as answer:
        body = await answer.json()
    assert (answer.status, body["code"]) == (400, 50035), body
    [error] = errors_at(body["errors"], "components.0.items.0.media.url")
    assert error["code"] == "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
    layout["components"][0]["items"][0]["media"]["url"] = "attachment://the_board.png"
    form = multipart(layout, [("the board.png", red_square_png())])
    async with http.post(table.posts.lstrip("/"), data=form) as answer:
        made = await answer.json()
    assert answer.status == 200, made
    [picture] = made["attachments"]
    assert (picture["filename"], picture["title"]) == ("the_board.png", "the board.png")


def test_another_description_is_judged_by_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Discord's own specs/openapi.json, say: `FAKEDISCORD_OPENAPI` names the file.
    document = {
        "openapi": "3.1.0",
        "paths": {
            "/channels/{channel_id}/messages": {
                "post": {
                    "parameters": [
                        {"name": "channel_id", "in": "path", "schema": {"type": "string"}}
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"content": {"type": "string", "maxLength": 3}},
                                }
                            }
                        }
                    },
                }
            }
        },
        "components": {"schemas": {}},
    }
    named = tmp_path / "openapi.json"
    named.write_text(json.dumps(document))
    monkeypatch.setenv(openapi.ENVIRONMENT, str(named))
    judge = openapi.load()
    assert judge.source == str(named.resolve())
    verdicts = openapi.Verdicts()
    openapi.check(judge, verdicts, "POST", "/channels/1/messages", {}, {"content": "abc"})
    with pytest.raises(Exception, match="Invalid Form Body") as refused:
        openapi.check(judge, verdicts, "POST", "/channels/1/messages", {}, {"content": "abcd"})
    assert errors_at(refused.value.errors or {}, "content")  # type: ignore[attr-defined]
    openapi.check(judge, verdicts, "GET", "/gateway", {}, openapi.NO_BODY)
    assert verdicts.undescribed == ["GET /gateway"]


def test_a_fresh_emulator_judges_by_the_built_description() -> None:
    fd = FakeDiscord()
    assert fd.limits.openapi and fd.spec.source == str(openapi.BUILT.resolve())
    assert "ids as integers" in openapi.LENIENCIES


MESSAGE = {
    "content": "Al's turn",
    "components": [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "5H", "custom_id": "crib:1:play:0:5H"},
                {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com/rules"},
            ],
        }
    ],
    "embeds": [{"title": "Table", "fields": [{"name": "Al", "value": "12"}]}],
    "allowed_mentions": {"parse": []},
}


@pytest.mark.parametrize(
    "body",
    [
        {**MESSAGE, "content": 5},
        {**MESSAGE, "components": [{"type": 1, "components": [{"type": 2, "style": "big"}]}]},
        {**MESSAGE, "components": [{"type": 99}]},
        {**MESSAGE, "embeds": [{"title": ["not", "text"]}]},
        {**MESSAGE, "allowed_mentions": {"parse": ["everyone", 3]}},
        {**MESSAGE, "tts": "loud"},
    ],
    ids=["content", "button-style", "unknown-component", "embed", "mentions", "tts"],
)
def test_the_compiled_check_refuses_what_jsonschema_refuses(body: dict[str, Any]) -> None:
    """The compiled check spares a valid body jsonschema's walk; it must never take a body
    jsonschema refuses (then a refusal would pass unseen), and the refusal keeps its tree."""
    judge = openapi.load()
    found = judge.operation("POST", "/channels/1/messages")
    assert found is not None
    operation, values = found
    assert operation.body is not None
    assert not operation.body.is_valid(body)
    assert not judge._fits(operation, body)
    assert judge.errors(operation, values, {}, body)


def test_the_compiled_check_takes_a_valid_body_and_says_the_same_as_jsonschema() -> None:
    judge = openapi.load()
    found = judge.operation("POST", "/channels/1/messages")
    assert found is not None
    operation, values = found
    assert operation.body is not None and operation.body.is_valid(MESSAGE)
    assert judge._fits(operation, MESSAGE)
    assert judge.errors(operation, values, {}, MESSAGE) == {}


def test_a_cross_check_fails_a_body_the_compiled_check_alone_would_take(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With FAKEDISCORD_OPENAPI_CROSS_CHECK set, jsonschema reads every body too, and a body
    the compiled check took though jsonschema refuses it fails loudly."""
    judge = openapi.Judge(json.loads(openapi.BUILT.read_text()), "built")
    found = judge.operation("POST", "/channels/1/messages")
    assert found is not None
    operation, values = found
    assert operation.body_pointer is not None
    judge._compiled[operation.body_pointer] = lambda _: True  # a lenient compiled check
    bad = {**MESSAGE, "content": 5}
    assert judge.errors(operation, values, {}, bad) == {}
    monkeypatch.setenv(openapi.CROSS_CHECK, "1")
    with pytest.raises(AssertionError, match="more lenient"):
        judge.errors(operation, values, {}, bad)


def test_a_check_made_once_is_kept_for_the_processes_after_and_judges_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A compiled check is kept beside the emulator's bytecode (here the folder
    ``PYTHONPYCACHEPREFIX`` names) and a judge in a later process loads it rather than making
    it again (0.1 to 0.25 s of CPU a check, in every process); it refuses and takes what the
    one made anew does. A kept file that is not one is made again; with no bytecode written,
    nothing is kept."""
    monkeypatch.setattr("sys.pycache_prefix", str(tmp_path))
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    document = json.loads(openapi.BUILT.read_text())
    bad = {**MESSAGE, "content": 5}

    def judged() -> tuple[bool, bool]:
        judge = openapi.Judge(document, str(openapi.BUILT))
        found = judge.operation("POST", "/channels/1/messages")
        assert found is not None
        return judge._fits(found[0], MESSAGE), judge._fits(found[0], bad)

    assert judged() == (True, False)
    (kept,) = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert kept.parent.name.startswith("openapi-checks-")

    def never(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("made again, though it was kept")

    with monkeypatch.context() as later:
        later.setattr(fastjsonschema, "compile_to_code", never)
        assert judged() == (True, False), "loaded, it judges the same"
    kept.write_bytes(b"not a check")
    assert judged() == (True, False)
    assert kept.read_bytes() != b"not a check", "made again, and kept"
    monkeypatch.setattr("sys.dont_write_bytecode", True)
    kept.unlink()
    assert judged() == (True, False)
    assert not kept.exists()
