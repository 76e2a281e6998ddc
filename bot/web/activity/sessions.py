"""Who an Activity's page belongs to: a session the server signs once Discord has said who the
person is and where the Activity runs.

The page gets its session from ``POST api/token`` (the SDK's authorization code exchanged with
Discord, the person looked up with the token, the instance looked up with the bot's token:
:mod:`bot.web.activity.server`) and shows it with every request after (``Authorization:
Bearer``; the live socket's first message). It names the person (id, name, avatar), the
channel and server the Activity runs in, and when it stops being good; it is an HMAC-SHA256
under the pages' ``WEB_SECRET``, so the server keeps nothing per person and any of the bot's
processes can check it, and a changed one is refused.

>>> keys = Sessions("a secret of sixteen+", clock=lambda: 1000.0)
>>> token = keys.sign(Session(5, "Al", None, 77, 9, "i-1", expires=5000.0))
>>> keys.read(token) == Session(5, "Al", None, 77, 9, "i-1", expires=5000.0)
True
>>> keys.read(token[:-2] + "xx") is None, keys.read("junk") is None
(True, True)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

__all__ = ["SESSION_SECONDS", "Session", "Sessions"]

#: How long a session is good for; the page then asks Discord again, without asking the person
#: (the SDK's ``authorize`` with ``prompt: none``).
SESSION_SECONDS = 6 * 3600.0
#: The longest session token read (anything longer is not one of ours).
_MAX_TOKEN = 1024


@dataclass(frozen=True, slots=True)
class Session:
    """One person at one Activity: their Discord id, the name the table shows, their avatar's
    hash (None: Discord's default), the channel (and server: None in a DM or group DM) the
    Activity runs in, its instance, and when the session ends (Unix time)."""

    user_id: int
    name: str
    avatar: str | None
    channel_id: int
    guild_id: int | None
    instance_id: str
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Signs and reads sessions under ``secret`` (the clock decides which have ended)."""

    def __init__(self, secret: str, *, clock: Callable[[], float] = time.time) -> None:
        self._key = hashlib.sha256(b"activity-session:" + secret.encode()).digest()
        self._clock = clock

    def new(
        self,
        user_id: int,
        name: str,
        avatar: str | None,
        channel_id: int,
        guild_id: int | None,
        instance_id: str,
    ) -> Session:
        """A session from now on."""
        ends = self._clock() + SESSION_SECONDS
        return Session(user_id, name, avatar, channel_id, guild_id, instance_id, ends)

    def sign(self, session: Session) -> str:
        """The token of ``session``: its fields, then their signature."""
        body = _b64(json.dumps(asdict(session), separators=(",", ":")).encode())
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return f"{body}.{_b64(mac)}"

    def read(self, token: str) -> Session | None:
        """The session ``token`` names, if it is ours, unchanged and not ended (else None)."""
        # Ours are base64 and a dot: ASCII. (A header of bytes that are not UTF-8 reaches here
        # as lone surrogates, which no encoding takes.)
        if len(token) > _MAX_TOKEN or not token.isascii() or token.count(".") != 1:
            return None
        body, mac = token.split(".")
        want = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        try:
            if not hmac.compare_digest(want, _unb64(mac)):
                return None
            fields = json.loads(_unb64(body))
            session = Session(**fields)
        except (ValueError, TypeError, binascii.Error):
            return None
        if session.expires <= self._clock():
            return None
        return session
