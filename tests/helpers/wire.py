"""Raw HTTP against the emulator, for checking statuses, codes and headers on the wire."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp


async def call(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """Status and JSON body (None for 204) of one request."""
    async with http.request(method, path.lstrip("/"), json=body) as response:
        data = await response.json() if response.status != 204 else None
        return response.status, data


async def refusal(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, int | None]:
    """Status and Discord's error code (None when the answer carries none) of one request,
    for checking how one is refused."""
    status, data = await call(http, method, path, body)
    code = data.get("code") if isinstance(data, dict) else None
    return status, code


async def call_with_headers(
    http: aiohttp.ClientSession, method: str, path: str, body: Any = None
) -> tuple[int, Any, dict[str, str]]:
    """Status, body (JSON, or text when it is not JSON) and headers of one request."""
    async with http.request(method, path.lstrip("/"), json=body) as response:
        text = await response.text()
        try:
            data = json.loads(text) if text else None
        except json.JSONDecodeError:
            data = text
        return response.status, data, dict(response.headers)


async def receive(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    """The next gateway frame (within 10 s: it comes at once, unless the machine is busy)."""
    msg = await ws.receive(timeout=10)
    assert msg.type == aiohttp.WSMsgType.TEXT, msg
    frame: dict[str, Any] = json.loads(msg.data)
    return frame


@contextlib.asynccontextmanager
async def gateway_socket(url: str) -> AsyncIterator[aiohttp.ClientWebSocketResponse]:
    """A raw connection to the gateway at ``url``, its HELLO (op 10) read."""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        assert (await receive(ws))["op"] == 10
        yield ws


def multipart(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> aiohttp.FormData:
    """A Discord upload: `payload_json` and `files[n]` parts, as discord.py sends them."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for n, (filename, data) in enumerate(files):
        form.add_field(
            f"files[{n}]", data, filename=filename, content_type="application/octet-stream"
        )
    return form


async def upload(
    http: aiohttp.ClientSession,
    method: str,
    path: str,
    payload: dict[str, Any],
    files: list[tuple[str, bytes]],
) -> tuple[int, Any]:
    """Status and JSON body of a multipart request."""
    async with http.request(method, path.lstrip("/"), data=multipart(payload, files)) as response:
        return response.status, await response.json()
