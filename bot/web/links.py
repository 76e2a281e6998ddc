"""Unguessable addresses for the game pages: ``/g/<game id>/<signature>``, and a club's league
page: ``/l/<club id>/<signature>``.

The signature is an HMAC-SHA256 of the game's id under the bot's ``WEB_SECRET``, cut to 128
bits and written in URL-safe base64 (22 characters): knowing one game's link tells nothing
about another's, so a game in a private channel cannot be found by counting ids. Checking
compares in constant time.

>>> links = PageLinks("a secret of sixteen+", "https://crib.example")
>>> path = links.path(12)
>>> path.startswith("/g/12/"), len(path.rsplit("/", 1)[1])
(True, 22)
>>> links.check(12, path.rsplit("/", 1)[1]), links.check(13, path.rsplit("/", 1)[1])
(True, False)
>>> links.url(12) == "https://crib.example" + path
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["PageLinks"]

#: Bytes of the HMAC kept in a link (128 bits: far beyond guessing).
_SIGNATURE_BYTES = 16


class PageLinks:
    """Signs and checks the game pages' links; ``public_url`` (None: no public address) is
    where people reach the server."""

    def __init__(self, secret: str, public_url: str | None = None) -> None:
        self._key = secret.encode()
        self.public_url = None if public_url is None else public_url.rstrip("/")

    def signature(self, game_id: int, *, kind: str = "game") -> str:
        """The signature of ``game_id``'s page (``kind`` "league": a club's league's)."""
        mac = hmac.new(self._key, f"{kind}:{game_id}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:_SIGNATURE_BYTES]).rstrip(b"=").decode()

    def check(self, game_id: int, signature: str, *, kind: str = "game") -> bool:
        """Whether ``signature`` is ``game_id``'s (a ``kind``'s)."""
        mine = self.signature(game_id, kind=kind)
        return hmac.compare_digest(mine.encode(), signature.encode())

    def path(self, game_id: int) -> str:
        """The page's path on the server."""
        return f"/g/{game_id}/{self.signature(game_id)}"

    def url(self, game_id: int) -> str | None:
        """The page's address for people (None without a public URL)."""
        return None if self.public_url is None else self.public_url + self.path(game_id)

    def league_path(self, club_id: int) -> str:
        """A club's league page's path on the server: ``/l/<club id>/<signature>``."""
        return f"/l/{club_id}/{self.signature(club_id, kind='league')}"

    def league_url(self, club_id: int) -> str | None:
        """A club's league page's address for people (None without a public URL)."""
        return None if self.public_url is None else self.public_url + self.league_path(club_id)
