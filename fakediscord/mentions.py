"""Who a message notifies: the mentions in its text, as far as its `allowed_mentions` lets them.

Discord parses user (`<@id>`, `<@!id>`), role (`<@&id>`) and `@everyone`/`@here` mentions in a
new message's content and Components V2 text displays (never in embeds); `allowed_mentions`
narrows which of them notify: `parse` names the kinds that all may (`users`, `roles`,
`everyone`), `users` and `roles` list the ids that may beyond those. Without `allowed_mentions`
every mention notifies. An ephemeral message notifies no one, and an edit notifies no one anew.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from fakediscord.errors import Refusal, error_tree, form_error, merge_trees

__all__ = ["Pings", "check_allowed_mentions", "pings"]

_MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|@(everyone|here)\b")
_KINDS = ("roles", "users", "everyone")
#: Discord's limit on the ids in `allowed_mentions.users` (and `.roles`).
MAX_IDS = 100


@dataclass(frozen=True)
class Pings:
    """Whom one message notified when it was posted."""

    users: frozenset[int] = field(default_factory=frozenset)
    roles: frozenset[int] = field(default_factory=frozenset)
    everyone: bool = False  # @everyone or @here


def check_allowed_mentions(allowed: Any) -> None:
    """Raise `DiscordError` 50035 for an `allowed_mentions` Discord refuses: an unknown kind in
    `parse`, more than 100 ids, or `users` (`roles`) both parsed and listed."""
    if allowed is None:
        return
    errors: dict[str, Any] = {}

    def refuse(path: str, code: str, message: str) -> None:
        merge_trees(errors, error_tree(f"allowed_mentions.{path}", code, message))

    if not isinstance(allowed, dict):
        raise form_error("allowed_mentions", "MODEL_TYPE_CONVERT", "Only dictionaries may be used.")
    parse = allowed.get("parse") or []
    for n, kind in enumerate(parse):
        if kind not in _KINDS:
            refuse(f"parse.{n}", "BASE_TYPE_CHOICES", f"Value must be one of {_KINDS}.")
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if len(listed) > MAX_IDS:
            refuse(kind, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_IDS} or fewer in length.")
        if listed and kind in parse:
            refuse(kind, "SET_TYPE_ALREADY_CONTAINS_VALUE", f"parse already has {kind}.")
    if errors:
        raise Refusal.INVALID_FORM.error(errors)


def pings(text: str, allowed: dict[str, Any] | None) -> Pings:
    """Whom a new message saying ``text`` notifies, given its ``allowed_mentions``."""
    users: set[int] = set()
    roles: set[int] = set()
    everyone = False
    for found in _MENTION.finditer(text):
        user, role, crowd = found.groups()
        if user is not None:
            users.add(int(user))
        elif role is not None:
            roles.add(int(role))
        elif crowd is not None:
            everyone = True
    if allowed is None:
        return Pings(frozenset(users), frozenset(roles), everyone)
    parse = set(allowed.get("parse") or [])
    listed_users = {int(u) for u in allowed.get("users") or []}
    listed_roles = {int(r) for r in allowed.get("roles") or []}
    return Pings(
        users=frozenset(users if "users" in parse else users & listed_users),
        roles=frozenset(roles if "roles" in parse else roles & listed_roles),
        everyone=everyone and "everyone" in parse,
    )
