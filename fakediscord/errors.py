"""Errors the emulator answers with, and errors its test API raises.

`DiscordError` is what a REST handler raises to send Discord's own error body
(`{"message", "code"}`) with an HTTP status, made from `Refusal`, the table of Discord's
refusals; the codes are the ones Discord documents, so the real client turns them into the
same exceptions (`NotFound`, `Forbidden`, ...) it would in production.
"""

from __future__ import annotations

from enum import Enum, unique
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


@unique
class Refusal(Enum):
    """What Discord refuses a request with: its HTTP status, its JSON code and its message,
    as Discord answers them (`error()` is what a handler raises). Each is in the table of
    fakediscord/README.md's "Discord's refusals" with its source (a test holds the two
    alike); in order of code."""

    #: The bot's token is wrong (or an OAuth2 bearer token unknown, revoked or expired).
    UNAUTHORIZED = (401, 0, "401: Unauthorized")
    #: A route Discord does not have, or an Activity instance unknown or ended.
    NOT_FOUND = (404, 0, "404: Not Found")
    #: The channel does not exist.
    UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
    #: The server does not exist.
    UNKNOWN_GUILD = (404, 10004, "Unknown Guild")
    #: The user is not a member of that server (or thread).
    UNKNOWN_MEMBER = (404, 10007, "Unknown Member")
    #: The message does not exist, was deleted, or is not reachable this way.
    UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
    #: No such user.
    UNKNOWN_USER = (404, 10013, "Unknown User")
    #: No interaction webhook for this token (or it was never acknowledged).
    UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
    #: The interaction was answered too late or never existed.
    UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
    #: No such scheduled event in that server.
    UNKNOWN_EVENT = (404, 10070, "Unknown Guild Scheduled Event")
    #: More than 10 attachments on one message (`uploads.MAX_FILES`).
    TOO_MANY_FILES = (400, 30015, "Maximum number of attachments in a message reached (10)")
    #: A server's 101st scheduled event not yet over (`events.MOST_UNDER_WAY`).
    TOO_MANY_EVENTS = (
        400,
        30038,
        "Maximum number of uncompleted guild scheduled events reached (100)",
    )
    #: A file over the upload limit.
    TOO_LARGE = (413, 40005, "Request entity too large")
    #: A second initial response to the same interaction.
    ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
    #: A sixth follow-up of an interaction only a user install authorised.
    TOO_MANY_FOLLOWUPS = (
        400,
        40094,
        "This interaction has hit the maximum number of follow up messages",
    )
    #: The bot cannot see that channel, or is not in that server.
    MISSING_ACCESS = (403, 50001, "Missing Access")
    #: Deleting someone else's message in a DM.
    DM_CHANNEL = (403, 50003, "Cannot execute action on a DM channel")
    #: Editing a message the bot did not write.
    NOT_THE_AUTHOR = (403, 50005, "Cannot edit a message authored by another user")
    #: A message with no content, embeds, components or files.
    EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
    #: The user does not accept direct messages from the bot.
    CANNOT_DM = (403, 50007, "Cannot send messages to this user")
    #: The bot lacks a permission it needs here (Send Messages, Attach Files, Manage ...).
    MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
    #: The action is not one this kind of channel takes.
    WRONG_CHANNEL_TYPE = (400, 50024, "Cannot execute action on this channel type")
    #: The interaction token expired (15 minutes) or is wrong.
    INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
    #: A DM opened with someone who is no user.
    INVALID_RECIPIENT = (400, 50033, "Invalid Recipient(s)")
    #: The body breaks one of Discord's limits; its `errors` tree says where (`form_error`).
    INVALID_FORM = (400, 50035, "Invalid Form Body")
    #: An operation an archived thread does not take (editing a message, adding a member,
    #: changing it without reopening it).
    ARCHIVED_THREAD = (400, 50083, "Thread is archived")
    #: A body that is not JSON.
    INVALID_JSON = (400, 50109, "The request body contains invalid JSON.")
    #: A second thread started from one message.
    THREAD_ALREADY_MADE = (400, 160004, "A thread has already been created for this message")
    #: A locked thread takes messages only from those with Manage Threads (Discord gives the
    #: code, not the status: 403, as for the other refusals by permission).
    THREAD_LOCKED = (403, 160005, "Thread is locked")

    def __init__(self, status: int, code: int, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message

    def error(self, errors: dict[str, Any] | None = None) -> DiscordError:
        """This refusal, to raise (with `errors`: Discord's tree of what is wrong where)."""
        return DiscordError(self.status, self.code, self.message, errors)


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
    return Refusal.INVALID_FORM.error(error_tree(path, code, message))


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
