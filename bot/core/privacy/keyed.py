"""A person's Discord id as it is kept once they have had their data deleted, where what stays
for another person must still know them again: a block another player made of them in ranked
play (:data:`~bot.core.privacy.inventory.Holds.KEYED`), so that it still holds when they
search again.

It is a keyed hash, HMAC-SHA256 of the id under a secret the database keeps (made on first
use, the same in every process and across restarts): it can't be turned back into the id, and
without the secret nobody can tell whose it is by hashing ids.

>>> secret = "00" * 32
>>> keyed_id(secret, 42) == keyed_id(secret, 42) != keyed_id(secret, 43)
True
>>> len(keyed_id(secret, 42))
64
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["fresh_secret", "keyed_id"]


def keyed_id(secret: str, user_id: int) -> str:
    """``user_id``'s keyed hash under ``secret`` (hex), as kept in place of the id."""
    return hmac.new(bytes.fromhex(secret), f"{user_id}".encode(), hashlib.sha256).hexdigest()


def fresh_secret() -> str:
    """A new secret (256 random bits, hex), kept by the database if it had none yet."""
    return secrets.token_hex(32)
