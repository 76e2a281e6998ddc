"""Errors the emulator answers with, and errors its test API raises.

`DiscordError` is what a REST handler raises to send Discord's own error body
(`{"message", "code"}`) with an HTTP status; the codes are the ones Discord documents, so the
real client turns them into the same exceptions (`NotFound`, `Forbidden`, ...) it would in
production.
"""

from __future__ import annotations

from typing import Any


class DiscordError(Exception):
    """An HTTP error answered the way Discord answers it: a status and a JSON `{message, code}`."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} (code {code}): {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unknown_interaction() -> DiscordError:
    """10062: the interaction was answered too late or never existed."""
    return DiscordError(404, 10062, "Unknown interaction")


def already_acknowledged() -> DiscordError:
    """40060: a second initial response to the same interaction."""
    return DiscordError(400, 40060, "Interaction has already been acknowledged.")


def unknown_message() -> DiscordError:
    """10008: the message does not exist, was deleted, or is not reachable this way."""
    return DiscordError(404, 10008, "Unknown Message")


def unknown_channel() -> DiscordError:
    """10003: the channel does not exist."""
    return DiscordError(404, 10003, "Unknown Channel")


def unknown_user() -> DiscordError:
    """10013: no such user."""
    return DiscordError(404, 10013, "Unknown User")


def unknown_member() -> DiscordError:
    """10007: the user is not a member of that server (or thread)."""
    return DiscordError(404, 10007, "Unknown Member")


def wrong_channel_type() -> DiscordError:
    """50024: the action is not one this kind of channel takes."""
    return DiscordError(400, 50024, "Cannot execute action on this channel type")


def unknown_webhook() -> DiscordError:
    """10015: no interaction webhook for this token (or it was never acknowledged)."""
    return DiscordError(404, 10015, "Unknown Webhook")


def invalid_webhook_token() -> DiscordError:
    """50027: the interaction token expired (15 minutes) or is wrong."""
    return DiscordError(401, 50027, "Invalid Webhook Token")


def too_many_followups() -> DiscordError:
    """40094: a sixth follow-up of an interaction only a user install authorised."""
    return DiscordError(
        400, 40094, "This interaction has hit the maximum number of follow up messages"
    )


def cannot_dm() -> DiscordError:
    """50007: the user does not accept direct messages from the bot."""
    return DiscordError(403, 50007, "Cannot send messages to this user")


def missing_access() -> DiscordError:
    """50001: the bot cannot see that channel."""
    return DiscordError(403, 50001, "Missing Access")


def missing_permissions() -> DiscordError:
    """50013: the bot lacks a permission it needs here (Attach Files, Manage Messages)."""
    return DiscordError(403, 50013, "Missing Permissions")


def unauthorized() -> DiscordError:
    """401 with code 0: the bot token is wrong."""
    return DiscordError(401, 0, "401: Unauthorized")


def invalid_form(errors: dict[str, Any]) -> DiscordError:
    """50035: the request body breaks one of Discord's limits; `errors` says where."""
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def error_tree(path: str, code: str, message: str) -> dict[str, Any]:
    """Discord's `errors` tree for one field: the dotted `path` ("components.0.custom_id", as
    discord.py prints it) nested key by key, as Discord sends it (Reference, Error Messages:
    `{"components": {"0": {"custom_id": {"_errors": [{"code", "message"}]}}}}`)."""
    tree: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for key in reversed([part for part in path.split(".") if part]):
        tree = {key: tree}
    return tree


def merge_trees(into: dict[str, Any], tree: dict[str, Any]) -> dict[str, Any]:
    """Add `tree`'s errors to `into` (both Discord `errors` trees); returns `into`."""
    for key, value in tree.items():
        if key == "_errors":
            into.setdefault("_errors", []).extend(value)
        else:
            merge_trees(into.setdefault(key, {}), value)
    return into


def errors_at(tree: dict[str, Any], path: str) -> list[dict[str, Any]]:
    """The errors an `errors` tree gives for the dotted `path` (empty when none)."""
    node: Any = tree
    for key in (part for part in path.split(".") if part):
        if not isinstance(node, dict) or key not in node:
            return []
        node = node[key]
    return list(node.get("_errors", [])) if isinstance(node, dict) else []


def form_error(path: str, code: str, message: str) -> DiscordError:
    """50035 for one field: `path` (dotted) names it, `code` and `message` say what is wrong."""
    return invalid_form(error_tree(path, code, message))


def empty_message() -> DiscordError:
    """50006: a message with no content, embeds, components or files."""
    return DiscordError(400, 50006, "Cannot send an empty message")


class EmulatorUsageError(Exception):
    """A test asked the emulator for something a Discord user could not do.

    For example clicking a button that is not on the message, choosing a select option that
    does not exist, or typing a slash command that was never synced.
    """


class NoResponse(AssertionError):
    """The bot did not answer an interaction in time."""


class BotStalled(TimeoutError):
    """A wait with a ``stall`` bound ended: the bot made no request for that long."""


class BotFailure(AssertionError):
    """The bot under test logged an error, raised in a handler or its client task died."""
