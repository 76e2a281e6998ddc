"""Message nonces, as Discord keeps them for ``POST /channels/{id}/messages``.

A nonce (an integer, or a string of at most 25 characters) comes back on the message. With
``enforce_nonce`` Discord checks it for uniqueness "in the past few minutes": when the same
author created a message with the same nonce, that message is returned and no new one is made.
A bot uses it to post exactly once across a crash. Discord does not say how long it remembers;
the emulator remembers for two minutes, so a bot that passes here relies on no more than that.
"""

from __future__ import annotations

from typing import Any

from fakediscord.errors import Refusal
from fakediscord.limits import _error
from fakediscord.model import Clock

__all__ = ["MAX_NONCE", "NONCE_WINDOW", "Nonces"]

#: The longest nonce string Discord takes.
MAX_NONCE = 25
#: How long a nonce is remembered for ``enforce_nonce`` (seconds).
NONCE_WINDOW = 120.0


class Nonces:
    """The nonces of recent messages, by author."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._seen: dict[tuple[int, str], tuple[int, float]] = {}

    @staticmethod
    def of(body: dict[str, Any]) -> str | None:
        """The body's nonce as a string (None: none); 50035 if Discord would refuse it."""
        nonce = body.get("nonce")
        if nonce is None:
            return None
        if isinstance(nonce, bool) or not isinstance(nonce, int | str):
            raise Refusal.INVALID_FORM.error(
                _error("nonce", "BASE_TYPE_REQUIRED", "Must be a string or int.")
            )
        text = str(nonce)
        if isinstance(nonce, str) and len(text) > MAX_NONCE:
            raise Refusal.INVALID_FORM.error(
                _error("nonce", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_NONCE} or fewer in length.")
            )
        return text

    def earlier(self, author_id: int, nonce: str | None, enforce: bool) -> int | None:
        """The id of the author's message made with this nonce within the window, if
        ``enforce_nonce`` asks to reuse it."""
        if nonce is None or not enforce:
            return None
        found = self._seen.get((author_id, nonce))
        if found is None or self._clock.now() - found[1] > NONCE_WINDOW:
            return None
        return found[0]

    def remember(self, author_id: int, nonce: str | None, message_id: int) -> None:
        """A message was made with this nonce."""
        if nonce is None:
            return
        now = self._clock.now()
        if len(self._seen) > 10_000:  # keep the book small: drop what the window forgot
            self._seen = {k: v for k, v in self._seen.items() if now - v[1] <= NONCE_WINDOW}
        self._seen[(author_id, nonce)] = (message_id, now)
