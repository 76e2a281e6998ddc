"""What the bot does through REST: messages created, edited and deleted, interaction responses.

Each operation enforces Discord's rules (limits, deadlines, tokens, visibility) and raises
Discord's refusal (`errors.Refusal`) where one is broken; the REST handlers in `rest.py` call
these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakediscord import payloads
from fakediscord.counters import Counters
from fakediscord.errors import (
    Refusal,
    form_error,
)
from fakediscord.interactions import (
    ALLOWED_CALLBACKS,
    AUTOCOMPLETE_RESULT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    LAUNCH_ACTIVITY,
    MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    USER_INSTALL_FOLLOWUPS,
    Callback,
    Interaction,
)
from fakediscord.limits import COMPONENTS_V2, check_choices, check_laid_out, check_message
from fakediscord.mentions import check_allowed_mentions, pings
from fakediscord.model import (
    EPHEMERAL,
    LOADING,
    Attachment,
    Channel,
    Message,
    User,
    iso_now,
    requested_now,
    words_of,
)
from fakediscord.shared import SharedState
from fakediscord.switches import Limits
from fakediscord.threads import check_edit, check_post
from fakediscord.uploads import Upload, attachment_list, check_references

GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15


class BotSide(SharedState):
    """The bot-facing half of `FakeDiscord` (mixed in; the state lives on `FakeDiscord`)."""

    limits: Limits
    counters: Counters

    if TYPE_CHECKING:
        # Provided by FakeDiscord (or the other half); declared for the type checker only.
        @property
        def base_url(self) -> str: ...

        def _notify(self) -> None: ...

        def _spawn(self, coro: Any) -> None: ...

    def _store(self, message: Message) -> None:
        message.channel.messages.append(message)
        self.world.messages[message.id] = message
        self._notify()

    def _bot_is_in(self, channel: Channel) -> bool:
        """Whether the bot is in ``channel``'s conversation (not a DM between people, a group
        DM or a server that did not invite it), so hears of what happens there."""
        if channel.is_private:
            return False
        return channel.guild is None or channel.guild.member(self.bot_user) is not None

    def _intents(self, channel: Channel) -> int:
        # The intents of the session (shard) that gets this channel's events.
        session = self.gateway.route(channel.guild.id if channel.guild is not None else None)
        return session.intents if session is not None else 0

    async def _dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral or not self._bot_is_in(message.channel):
            # No gateway events come from a conversation the bot is not in.
            return
        intents = self._intents(message.channel)
        wanted = DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES
        if not intents & wanted:
            return
        data = payloads.message(message)
        if not intents & MESSAGE_CONTENT and message.author is not self.bot_user:
            data.update(content="", embeds=[], attachments=[], components=[])
        await self.gateway.dispatch(event, data)

    def _count_new(self, message: Message) -> None:
        if message.ephemeral or message.author is not self.bot_user:
            return
        channel = message.channel
        if channel.is_private:
            self.counters.private_messages[channel.id] += 1
        elif channel.is_dm and channel.recipient is not None:
            self.counters.dm_messages[channel.recipient.id] += 1
        elif not channel.is_dm:
            self.counters.channel_messages[channel.id] += 1

    def _attachments(
        self, body: dict[str, Any], files: list[Upload], existing: list[Attachment]
    ) -> list[Attachment] | None:
        # The message's attachments after this request (None: unchanged); see uploads.py.
        limited = self.limits.uploads
        return attachment_list(
            self.world, self.base_url, body, files, existing, limit_count=limited
        )

    def _answer(
        self,
        interaction: Interaction,
        body: dict[str, Any],
        files: list[Upload],
        ephemeral: bool,
        *,
        flags: int | None = None,
    ) -> Message:
        """A message of the bot's in answer to ``interaction``, in its channel (seen only by
        the user who acted when ``ephemeral``, or whenever Discord makes its answers so: a user
        install without Use External Apps in a server that did not install the app)."""
        ephemeral = ephemeral or interaction.answers_privately
        return self._create_message(
            interaction.channel,
            self.bot_user,
            body,
            files,
            interaction=interaction,
            ephemeral_for=interaction.user if ephemeral else None,
            flags=flags,
        )

    def _create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any],
        files: list[Upload],
        *,
        interaction: Interaction | None = None,
        ephemeral_for: User | None = None,
        flags: int | None = None,
    ) -> Message:
        if channel.deleted:
            raise Refusal.UNKNOWN_CHANNEL.error()
        check_message(body, has_files=bool(files) or flags is not None)
        check_allowed_mentions(body.get("allowed_mentions"))
        if check_post(channel, author):
            self.world.on_channel_updated(channel)  # the message reopened the thread
        attachments = self._attachments(body, files, [])
        check_references(
            list(body.get("components") or []), list(body.get("embeds") or []), attachments or []
        )
        message = Message(
            id=self.world.ids.next(),
            channel=channel,
            author=author,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=attachments or [],
            flags=(int(body.get("flags") or 0) if flags is None else flags) & ~EPHEMERAL,
            ephemeral_for=ephemeral_for,
        )
        if ephemeral_for is not None:
            message.flags |= EPHEMERAL
        else:
            text = words_of(message.content, message.components)
            message.pinged = pings(text, body.get("allowed_mentions"))
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_name = interaction.name
            message.interaction_type = interaction.type
            if interaction.source_message is not None:
                message.interacted_message_id = interaction.source_message.id
            message.webhook_id = self.application_id
        self._store(message)
        self._count_new(message)
        self._spawn(self._dispatch_message("MESSAGE_CREATE", message))
        return message

    def _edit_message(
        self, message: Message, body: dict[str, Any], files: list[Upload], *, way: str
    ) -> None:
        """Edit `message`; `way` (rest, webhook, callback) is how, for `fd.counters.edits`."""
        check_message(body, editing=True, was_v2=bool(message.flags & COMPONENTS_V2))
        check_allowed_mentions(body.get("allowed_mentions"))
        if message.deleted:
            raise Refusal.UNKNOWN_MESSAGE.error()
        check_edit(message.channel, message.author)
        attachments = attachment_list(
            self.world,
            self.base_url,
            body,
            files,
            message.attachments,
            limit_count=self.limits.uploads,
        )
        content = str(body["content"] or "") if "content" in body else message.content
        embeds = list(body["embeds"] or []) if "embeds" in body else message.embeds
        components = list(body["components"] or []) if "components" in body else message.components
        attachments = message.attachments if attachments is None else attachments
        if int(body.get("flags") or 0) & COMPONENTS_V2 and not message.flags & COMPONENTS_V2:
            check_laid_out(content, embeds)  # a plain message laid out loses its text
        if not (content or embeds or components or attachments):
            raise Refusal.EMPTY_MESSAGE.error()
        check_references(components, embeds, attachments)
        message.history.append(message.version())
        message.content, message.embeds, message.components = content, embeds, components
        message.attachments = attachments
        # A message may become V2 by an edit; it never stops being one (refused above).
        message.flags |= int(body.get("flags") or 0) & COMPONENTS_V2
        # Editing a deferred placeholder turns it into the real response.
        message.flags &= ~LOADING
        message.edited_timestamp = iso_now()
        message.requested_timestamp = requested_now()
        self.counters.edits[way] += 1
        self._notify()
        self._spawn(self._dispatch_message("MESSAGE_UPDATE", message))

    def _delete_message(self, message: Message, *, way: str) -> None:
        """Delete `message`; `way` (rest, webhook) is how, for `fd.counters.deletes`."""
        if message.deleted:
            raise Refusal.UNKNOWN_MESSAGE.error()
        message.deleted = True
        self.counters.deletes[way] += 1
        self._notify()
        if not message.ephemeral and self._bot_is_in(message.channel):
            data = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
            wanted = DIRECT_MESSAGES if message.channel.is_dm else GUILD_MESSAGES
            if self._intents(message.channel) & wanted:
                self._spawn(self.gateway.dispatch("MESSAGE_DELETE", data))

    def _interaction_callback(
        self, interaction_id: int, token: str, body: dict[str, Any], files: list[Upload]
    ) -> dict[str, Any]:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            raise Refusal.UNKNOWN_INTERACTION.error()
        if interaction.response is not None:
            raise Refusal.ALREADY_ACKNOWLEDGED.error()
        if self.clock.now() - interaction.created_at > self.response_deadline:
            interaction.late = True
            self._notify()
            raise Refusal.UNKNOWN_INTERACTION.error()
        kind = int(body.get("type", 0))
        data = dict(body.get("data") or {})
        if kind not in ALLOWED_CALLBACKS.get(interaction.type, set()):
            raise Refusal.INVALID_FORM.error(
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": "Invalid interaction response type",
                            }
                        ]
                    }
                }
            )
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message: Message | None = None
        if kind == MESSAGE:
            message = self._answer(interaction, data, files, ephemeral)
            interaction.original = message
        elif kind == DEFERRED_MESSAGE:
            message = self._answer(interaction, {}, [], ephemeral, flags=LOADING)
            interaction.original = message
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = interaction.source_message
            if message is None:
                raise Refusal.INVALID_FORM.error(
                    {
                        "type": {
                            "_errors": [{"code": "NO_MESSAGE", "message": "No message to update"}]
                        }
                    }
                )
            if kind == UPDATE_MESSAGE:
                self._edit_message(message, data, files, way="callback")
            else:
                interaction.edits_when_deferred = len(message.history)
            interaction.original = message
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            check_choices(choices)
            interaction.choices = choices
        elif kind == LAUNCH_ACTIVITY:
            # "Only available for apps with Activities enabled" (Interaction Callback Type).
            if not self.activities.enabled:
                raise form_error(
                    "type",
                    "INTERACTION_RESPONSE_TYPE_INVALID",
                    "This application has no Activity to launch.",
                )
            refused = self.activities.refusal(interaction.user, interaction.channel)
            if refused is not None:
                # Not where Discord opens an Activity (a stage channel): the exact answer is
                # undocumented.
                raise form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID", refused)
            interaction.activity_instance = self.activities.launch(
                interaction.user, interaction.channel
            )
        elif kind == MODAL:
            if len(str(data.get("custom_id", ""))) > 100 or not data.get("title"):
                raise form_error(
                    "data", "MODAL_INVALID", "A modal needs a title and a custom id under 100."
                )
            interaction.modal = data
        interaction.response = Callback(type=kind, data=data, message=message)
        interaction.answered_at = self.clock.now()
        interaction.answered.set()
        self._notify()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None and kind != DEFERRED_UPDATE:
            result["resource"]["message"] = payloads.message(message)
        if interaction.activity_instance is not None:
            result["interaction"]["activity_instance_id"] = interaction.activity_instance.id
            result["resource"]["activity_instance"] = {"id": interaction.activity_instance.id}
        return result

    def _interaction_by_token(self, token: str) -> Interaction:
        interaction = self._by_token.get(token)
        if interaction is None:
            raise Refusal.UNKNOWN_WEBHOOK.error()
        if interaction.token_lapsed:
            raise Refusal.INVALID_WEBHOOK_TOKEN.error()
        return interaction

    def _followup(self, token: str, body: dict[str, Any], files: list[Upload]) -> Message:
        interaction = self._interaction_by_token(token)
        if interaction.response is None:
            raise Refusal.UNKNOWN_WEBHOOK.error()
        if (
            self.limits.followups
            and interaction.user_installed_only
            and interaction.followups_made >= USER_INSTALL_FOLLOWUPS
        ):
            # Discord: "Apps are limited to 5 followup messages per interaction if it was
            # initiated from a user-installed app and isn't installed in the server".
            raise Refusal.TOO_MANY_FOLLOWUPS.error()
        original = interaction.original
        if (
            interaction.response.type == DEFERRED_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
            and not interaction.followups
        ):
            # Discord turns the first follow-up after a "thinking" defer into the response,
            # with the deferral's visibility whatever its flags say (once the "thinking"
            # message is deleted, a follow-up is a message of its own, flags and all).
            self._edit_message(original, body, files, way="webhook")
            interaction.followups_made += 1
            return original
        ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        message = self._answer(interaction, body, files, ephemeral)
        if original is not None:
            message.original_response_id = original.id
        interaction.followups.append(message)
        interaction.followups_made += 1
        self._notify()
        return message

    def _webhook_message(self, token: str, message_id: str) -> Message:
        interaction = self._interaction_by_token(token)
        if interaction.response is None:
            # Until the interaction is answered its webhook has nothing (as for a follow-up).
            raise Refusal.UNKNOWN_WEBHOOK.error()
        if message_id == "@original":
            message = interaction.original
        else:
            candidates = [interaction.original, *interaction.followups]
            message = next(
                (m for m in candidates if m is not None and str(m.id) == message_id), None
            )
        if message is None or message.deleted:
            raise Refusal.UNKNOWN_MESSAGE.error()
        return message
