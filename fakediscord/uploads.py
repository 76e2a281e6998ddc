"""File uploads: `multipart/form-data` bodies, and the attachments of a new or edited message.

A request with files is `multipart/form-data` with a `payload_json` part (the JSON body) and
`files[n]` parts. The JSON's `attachments` array (`{id, filename, description}`) describes the
parts by their index `n`, and on an edit also lists the message's attachments to keep by their
snowflake id; those not listed are removed. Discord's limits: 10 MiB per file (413 / 40005),
10 files per message (400 / 30015), and the Attach Files permission in a server channel for the
bot token (403 / 50013).
"""

from __future__ import annotations

import json
import mimetypes
import re
import struct
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from fakediscord.errors import Refusal, form_error
from fakediscord.model import Attachment, World

MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_FILES = 10
ATTACH_FILES = 1 << 15
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FILE_PART = re.compile(r"files\[(\d+)\]$")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
ATTACHMENT_SCHEME = "attachment://"


@dataclass
class Upload:
    """One file part of a multipart request, before it becomes an attachment."""

    index: int
    filename: str
    data: bytes


async def read_body(request: web.Request, *, limit_size: bool) -> tuple[Any, list[Upload]]:
    """The JSON body, or `payload_json` and the file parts of a multipart upload."""
    if request.content_type.startswith("multipart/"):
        body: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):  # nested multipart: Discord never sends it
                continue
            if part.name == "payload_json":
                body = _json(await part.text())
                continue
            data = bytes(await part.read(decode=False))
            if limit_size and len(data) > MAX_FILE_BYTES:
                raise Refusal.TOO_LARGE.error()
            numbered = _FILE_PART.match(part.name or "")
            index = int(numbered.group(1)) if numbered else len(uploads)
            uploads.append(Upload(index, part.filename or "file", data))
        return body, uploads
    if request.can_read_body or request.body_exists:  # (read already: kept by aiohttp)
        text = await request.text()
        return (_json(text) if text else {}), []
    return {}, []


def _json(text: str) -> Any:
    """A JSON body, or Discord's 400 / 50109 for one that is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        raise Refusal.INVALID_JSON.error() from None


def attachment_list(
    world: World,
    base_url: str,
    body: dict[str, Any],
    uploads: list[Upload],
    existing: list[Attachment],
    *,
    limit_count: bool,
) -> list[Attachment] | None:
    """The message's attachments after this request, or None when they do not change.

    `body` is the message body (for an interaction callback, its `data`); `existing` the
    message's attachments now (empty for a new message). New attachments are kept in `world`
    and served under `base_url`.
    """
    by_index = {u.index: u for u in uploads}
    if "attachments" not in body:
        if not uploads:
            return None
        result = [*existing, *(_attachment(world, base_url, u, {}) for u in uploads)]
    else:
        result = []
        kept = {a.id: a for a in existing}
        used: set[int] = set()
        for n, meta in enumerate(body.get("attachments") or []):
            try:
                ref = int(meta.get("id"))
            except (TypeError, ValueError):
                raise form_error(
                    f"attachments.{n}.id", "ATTACHMENT_NOT_FOUND", "Attachment data not found"
                ) from None
            if ref in by_index and ref not in used:
                used.add(ref)
                result.append(_attachment(world, base_url, by_index[ref], meta))
            elif ref in kept:
                result.append(kept[ref])
            else:
                raise form_error(
                    f"attachments.{n}", "ATTACHMENT_NOT_FOUND", "Attachment data not found"
                )
        # Parts the array does not describe are still uploaded, as Discord does.
        result.extend(_attachment(world, base_url, u, {}) for u in uploads if u.index not in used)
    if limit_count and len(result) > MAX_FILES:
        raise Refusal.TOO_MANY_FILES.error()
    return result


def stored_name(name: str) -> str:
    """The name Discord gives an uploaded file: every character but ASCII letters, digits,
    dots, dashes and underscores becomes an underscore, and leading underscores go ("image
    two.png" is kept as "image_two.png"; discord-api-docs issues 2102 and 4847). The name as
    uploaded is then the attachment's `title` (Attachment Object; discord-api-docs #6945)."""
    cleaned = _UNSAFE.sub("_", name).lstrip("_")
    return cleaned or "unknown"


def check_references(
    components: list[dict[str, Any]], embeds: list[dict[str, Any]], attachments: list[Attachment]
) -> None:
    """Refuse (400 / 50035) an `attachment://NAME` that names none of the message's files by
    the name Discord stored: a media gallery's, thumbnail's or file component's media, or an
    embed's image or thumbnail (Reference, Uploading Files: "attachment://filename.png"; the
    name must be the stored one, discord-api-docs #2102)."""
    names = {a.filename for a in attachments}
    found: list[tuple[str, str]] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{path}.{key}" if path else key)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, f"{path}.{index}")
        elif isinstance(node, str) and node.startswith(ATTACHMENT_SCHEME):
            found.append((path, node[len(ATTACHMENT_SCHEME) :]))

    walk(components, "components")
    walk(embeds, "embeds")
    for path, name in found:
        if name not in names:
            raise form_error(
                path,
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"No attachment named {name} in this message.",
            )


def _attachment(world: World, base_url: str, upload: Upload, meta: dict[str, Any]) -> Attachment:
    attachment_id = world.ids.next()
    uploaded = str(meta.get("filename") or upload.filename)
    filename = stored_name(uploaded)
    width, height = png_size(upload.data)
    guessed, _ = mimetypes.guess_type(filename)
    content_type = "image/png" if width is not None else guessed or "application/octet-stream"
    path = f"attachments/{attachment_id}/{filename}"
    attachment = Attachment(
        id=attachment_id,
        filename=filename,
        content_type=content_type,
        data=upload.data,
        url=f"{base_url}/{path}",
        proxy_url=f"{base_url}/media/{path}",
        description=meta.get("description"),
        width=width,
        height=height,
        title=uploaded if uploaded != filename else None,
    )
    world.attachments[attachment_id] = attachment
    return attachment


def png_size(data: bytes) -> tuple[int | None, int | None]:
    """Width and height from a PNG's header, or (None, None) if `data` is not a PNG."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        return None, None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)
