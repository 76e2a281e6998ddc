"""Turning interactions into calls on the core, and their answers into interaction responses.

The flow for every command and click: call the core (answering within Discord's 3 seconds,
deferring with the final answer's visibility if the call is slow), then answer: a click on a
message an owner keeps (the lobby, a hand) is answered by updating that message (an
interaction response, outside the bot's global rate limit), anything else with a reply. The
answer is then handed back to the core with whether it landed
(:meth:`bot.core.services.Services.answered`), which does what follows from it. Whatever the
call changed reaches the owners' messages through the change feed and the keeper, not through
here. While the bot shuts down it takes no new moves, so nothing is half done.

Known errors become one short ephemeral sentence; anything else is logged with its traceback and
the user gets a short apology. Nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.core.base.replies import Answer, Choice, Clicked, Reply, User
from bot.core.base.timing import ANSWER_WINDOW, DEFER_AFTER, InteractionAges
from bot.core.base.views import MessageView
from bot.core.faces import DiscordFace
from bot.discord.members import DiscordMembers
from bot.discord.places import (
    ONLY_YOU_SEE_THIS,
    activity_runs_in,
    answers_only_privately,
    bot_is_member,
    place_of,
)
from bot.discord.rendering import clip, message_payload

__all__ = [
    "RESTARTING",
    "SORRY",
    "DiscordIO",
    "clicked_of",
    "in_time",
    "is_organiser",
    "known_error_text",
    "own_identity",
    "reached",
    "send_error",
    "user_of",
]

log = logging.getLogger(__name__)

#: What a user sees when something failed on our side (the traceback goes to the log).
SORRY = "Sorry, something went wrong on my side. Please try again."
#: What a user sees while the bot is shutting down.
RESTARTING = "I'm restarting — try again in a few seconds."
#: Discord's code for an interaction it no longer takes an answer to (past its window).
UNKNOWN_INTERACTION = 10062
#: Marks (in ``Interaction.extras``) a command deferred publicly: its "thinking" message
#: becomes the answer, visible to the channel.
PUBLIC_DEFERRAL = "cribbage:public-deferral"

#: A call on the core, made once the interaction is known to be ours to answer.
Call = Callable[[], Awaitable[Answer]]


def clicked_of(interaction: discord.Interaction[Any]) -> Clicked | None:
    """The message a component was used on, and the interaction's token, for the core."""
    message = interaction.message
    if message is None or message.channel is None:
        return None
    return reached(interaction, message)


def reached(interaction: discord.Interaction[Any], message: discord.Message) -> Clicked:
    """``message`` (the one clicked, or one sent as the interaction's answer) as the core
    keeps it: where it is, its id, and the interaction's token, whose webhook reaches it."""
    return Clicked(message.channel.id, message.id, interaction.token)


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The acting user as the core knows them: id and the name shown at the table (in a
    server, their nickname there)."""
    return User(interaction.user.id, interaction.user.display_name)


def own_identity(interaction: discord.Interaction[Any]) -> tuple[User, str]:
    """The acting user as every place knows them, and their picture's address: their own
    Discord display name (their global name, else their username) and picture, never a
    server's nickname or picture for them. A ranked player goes by these wherever they search,
    so their opponent and the ladder, which every server sees, learn nothing of the server
    they searched from."""
    person = interaction.user
    picture = person.avatar or person.default_avatar
    return User(person.id, person.global_name or person.name), str(picture.url)


def _let_go(kwargs: dict[str, Any]) -> None:
    """Let discord.py forget the view just sent. Every control the bot sends is a dynamic item,
    dispatched by its custom id's template whatever view it came in, so the view is of no use
    once sent; but discord.py keeps an ephemeral answer's view, with a task, for 15 minutes
    (its timeout for a view without one): thousands of them at a busy hour (the soak, issue
    33). Stopping a view of dynamic items alone removes no template (``ViewStore.remove_view``
    touches a message's items only when it had others)."""
    view = kwargs.get("view")
    if isinstance(view, discord.ui.view.BaseView) and all(
        isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable()
        for item in view.walk_children()
    ):
        view.stop()


def is_organiser(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may run tournaments here: Manage Server or Manage Events."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_events)


def known_error_text(error: BaseException) -> str | None:
    """The sentence to show for an error a user can cause, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel, not in DMs."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down a little: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.TransformerError):
        return "I couldn't understand one of the options; please choose from the list."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here."
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return "That command has changed; Discord will offer the new one in a moment."
    return None


async def _unshare(interaction: discord.Interaction[Any]) -> None:
    """Before a private answer to a command deferred publicly: delete the public "thinking"
    message, which the first follow-up would otherwise become (keeping its visibility, as
    Discord does), so the answer goes as a message of its own, seen only by the user."""
    if interaction.extras.pop(PUBLIC_DEFERRAL, False):
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()


async def in_time(interaction: discord.Interaction[Any], sending: Awaitable[None]) -> None:
    """Send an interaction's first answer (a click's or a command's) while Discord still takes
    it: within
    :data:`ANSWER_WINDOW` of the interaction (discord.py's retries of a 429 or a server error
    included); past it, give up with ``TimeoutError``. An answer that follows a deferral has its
    token's 15 minutes."""
    if interaction.response.is_done():
        await sending
        return
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    left = ANSWER_WINDOW - age
    if left <= 0:
        if asyncio.iscoroutine(sending):
            sending.close()
        raise TimeoutError(f"the click is {age:.1f} s old")
    try:
        await asyncio.wait_for(sending, timeout=left)
    except TimeoutError:
        raise TimeoutError(f"not taken within Discord's {ANSWER_WINDOW:.0f} s") from None


def _only_yours(reply: Reply) -> Reply:
    """``reply``, meant for everyone, as the private answer Discord makes of it where the app
    may answer only privately: saying so first."""
    text = f"{ONLY_YOU_SEE_THIS}\n\n{reply.text}" if reply.text else ONLY_YOU_SEE_THIS
    view = reply.view
    if view is not None and view.layout:
        layout = ((ONLY_YOU_SEE_THIS,), *view.layout)
        content = "\n".join(t for group in layout for t in group)
        view = dataclasses.replace(view, layout=layout, content=content)
    elif view is not None:
        view = dataclasses.replace(view, content=f"{ONLY_YOU_SEE_THIS}\n\n{view.content}")
    return dataclasses.replace(reply, text=text, view=view, ephemeral=True)


async def send_error(interaction: discord.Interaction[Any], text: str) -> None:
    """Tell the user ``text`` privately, whether or not the interaction was answered yet."""
    try:
        if interaction.response.is_done():
            await _unshare(interaction)
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        # The interaction expired or was answered elsewhere; nothing more we can do for it.
        log.warning("could not deliver an error message to %s", interaction.user.id)


class DiscordIO:
    """Runs core calls for interactions and answers them: every command and every click."""

    def __init__(
        self,
        services: DiscordFace,
        members: DiscordMembers,
        *,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        """``services``: the core the calls are made on (its answers handed back to it)."""
        self.services = services
        #: Who is still a member of which server (seen in interactions, else asked of Discord).
        self.members = members
        #: Seconds a call may take before the interaction is deferred.
        self.defer_after = defer_after
        self._in_flight: set[asyncio.Task[Any]] = set()
        self.closing = False
        #: The ages the interactions reached this process at (for the clocks' skew).
        self._ages = InteractionAges()

    # -- entry points -------------------------------------------------------------------------
    async def command(
        self, interaction: discord.Interaction[Any], call: Call, *, ephemeral: bool = True
    ) -> None:
        """A slash command: run ``call`` and answer it (``ephemeral``: how its answer will be
        seen, which a slow call's deferral must know in advance)."""
        await self.entered(interaction, self._commanded(interaction, call, ephemeral))

    async def _commanded(
        self, interaction: discord.Interaction[Any], call: Call, ephemeral: bool
    ) -> None:
        private_only = answers_only_privately(interaction)
        answer = await self.call(
            interaction, call, update=False, ephemeral=ephemeral or private_only
        )
        if answer is None:
            return
        if private_only and not answer.reply.ephemeral:
            # Discord would show it to this user alone anyway: say so, rather than let them
            # think the channel saw it.
            answer = dataclasses.replace(answer, reply=_only_yours(answer.reply))
        sending = in_time(interaction, self.reply(interaction, answer.reply))
        if not await self._landed(answer, sending, "a command's answer did not reach Discord (%s)"):
            return
        shown = None
        try:
            sequel = answer.sequel
            if answer.ok and sequel is not None and sequel.key and answer.reply.view is not None:
                # The answer is one of an owner's messages (/cribbage new's lobby): its id.
                message = await interaction.original_response()
                shown = reached(interaction, message)
        except discord.HTTPException:
            await self.services.sequels.answered(answer, landed=False, shown=None)
            raise
        await self.services.sequels.answered(answer, landed=True, shown=shown)
        moved = answer.ok and answer.sequel is not None
        await self.carry(interaction, answer if moved else None, moved=moved)

    async def carry(
        self,
        interaction: discord.Interaction[Any],
        answer: Answer | None,
        *,
        moved: bool,
        shown: Clicked | None = None,
    ) -> None:
        """An interaction was answered (with ``answer``: None, or one about nothing): where a
        table is reached through tokens alone its token may post the table again once no other
        token reaches it, as the core decides (:meth:`Services.carry`). ``moved``: it made a
        move; ``shown``: its original response, when known without asking Discord."""
        if interaction.channel is None or not interaction.response.is_done():
            return  # (an interaction never answered has no webhook to post through)

        async def original() -> Clicked:
            if shown is not None:
                return shown
            return reached(interaction, await interaction.original_response())

        place, user_id = place_of(interaction), interaction.user.id
        try:
            await self.services.sequels.carry(place, user_id, answer, original, moved=moved)
        except discord.HTTPException as error:
            log.warning("an answer at a private table could not be read back (%s)", error)

    async def click(self, interaction: discord.Interaction[Any], call: Call) -> None:
        """A click on a control: run ``call`` and answer it (in place, or with a reply)."""
        await self.entered(interaction, self._clicked(interaction, call))

    async def offered(
        self, interaction: discord.Interaction[Any], find: Awaitable[list[Choice]]
    ) -> list[app_commands.Choice[str]]:
        """An autocomplete's list: what ``find`` offers, at most Discord's 25 (nothing while
        the store is out of reach: :meth:`Services.offer`)."""
        found = await self.services.sequels.offer(find)
        return [app_commands.Choice(name=c.name, value=c.value) for c in found[:25]]

    async def _clicked(self, interaction: discord.Interaction[Any], call: Call) -> None:
        answer = await self.call(interaction, call, update=True, ephemeral=True)
        if answer is None:
            return
        # Answer by updating the clicked message itself (free of the global limit), when the
        # answer is an update of it.
        update = answer.update if answer.ok and interaction.message is not None else None

        async def send() -> None:
            if update is None:
                await self.reply(interaction, answer.reply)
                return
            await in_time(interaction, self._update(interaction, update))
            if answer.note:
                # Said to the clicker alone (an interaction follow-up: outside the limit).
                await interaction.followup.send(answer.note, ephemeral=True)

        warning = "a click's answer did not reach Discord (%s); its message is edited"
        if not await self._landed(answer, send(), warning):
            return
        # (A refused stale control: the message clicked, which may show an older look.)
        on = update is not None or (answer.stale is not None and interaction.message is not None)
        shown = clicked_of(interaction) if on else None
        await self.services.sequels.answered(answer, landed=True, shown=shown)
        # Only now may its webhook carry the player's next hand: Discord knows no webhook of an
        # interaction before its answer has landed (404 / 10015), and on the internet a hand
        # posted through it while the answer is on its way often lands first.
        await self._remember_dm(interaction, answer)
        if not answer.ok or answer.sequel is None:
            # A move's answer keeps its token with the message it updated; anything else
            # brings a private table back, should no token reach it any more.
            await self.carry(interaction, None, moved=False)
        elif answer.sequel.key is None:
            # A move answered on a message its game does not keep (a resignation's question,
            # asked by a command maybe more than 15 minutes before): its token is kept with
            # nothing, and is the one that reaches a private table now.
            await self.carry(interaction, answer, moved=True, shown=shown)

    async def _landed(self, answer: Answer, sending: Awaitable[None], warning: str) -> bool:
        """Send ``answer`` (``sending``), and whether it landed; if it did not, or is not known
        to have, the core is told (and ``warning`` logged with the error Discord gave).

        The move stands either way (it is saved), and what the messages show is brought to it
        by the keeper. Nothing waits on this answer, and nothing retries it once Discord would
        no longer take it."""
        try:
            await sending
        except (discord.HTTPException, TimeoutError) as error:
            log.warning(warning, error)
            await self.services.sequels.answered(answer, landed=False, shown=None)
            return False
        except BaseException:
            await self.services.sequels.answered(answer, landed=False, shown=None)
            raise
        return True

    async def entered(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
        """Run an interaction's work, counted so that shutting down waits for it; errors become
        a sentence for the user (components' errors never reach the command tree's handler)."""
        self.members.saw(interaction)  # one from a server is proof of membership, for free
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        if self._ages.too_late(age):
            # Discord has already shown the user "This interaction failed" (the process was
            # frozen, or its event loop held up): what it asked for is not done, so a retry
            # by the user is not refused for something they never saw happen.
            if asyncio.iscoroutine(work):
                work.close()
            log.info(
                "an interaction from %s reached the bot %.1f s after it was made, past "
                "Discord's answer window: nothing done",
                interaction.user.id,
                age,
            )
            return
        self._ages.note(age)
        if self.closing:
            if asyncio.iscoroutine(work):
                work.close()
            await send_error(interaction, RESTARTING)
            return
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def _remember_dm(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        """A click in a DM, answered (with ``answer``): its webhook may post the player's next
        hand there, for free."""
        channel = interaction.channel
        if interaction.guild_id is not None or channel is None or not bot_is_member(interaction):
            return  # (a DM between people or a group DM is no DM with the bot)
        await self.services.sequels.dm_answered(
            interaction.user.id, channel.id, interaction.token, answer
        )

    # -- calling the core ---------------------------------------------------------------------
    async def call(
        self,
        interaction: discord.Interaction[Any],
        call: Call,
        *,
        update: bool,
        ephemeral: bool,
    ) -> Answer | None:
        """Run ``call``; defer the interaction if it takes long; None if it failed (reported)."""
        task = asyncio.ensure_future(call())
        try:
            done, _ = await asyncio.wait({task}, timeout=self.defer_after)
            if not done:
                # Keep the interaction alive: a slow call must not cost the user their action.
                try:
                    if update:
                        await interaction.response.defer()
                    else:
                        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
                        interaction.extras[PUBLIC_DEFERRAL] = not ephemeral
                except discord.NotFound as error:
                    if error.code != UNKNOWN_INTERACTION:
                        raise
                    # Past Discord's window already (the event loop was held up): the call
                    # goes on, and its answer, which cannot land, is taken as lost.
                    log.info(
                        "an interaction from %s could not be deferred in time",
                        user_of(interaction).id,
                    )
            return await task
        except Exception as error:
            await self.report(interaction, error)
            return None

    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Show a known error as its sentence; log anything else with its traceback. A fault
        met outside a call on the core (the store failing while a DM is remembered, say) is
        noted once per cause and game, and said as the core says it."""
        said = self.services.sequels.fault_said(error)
        if said is not None:
            await send_error(interaction, said)
            return
        text = known_error_text(error)
        if text is None:
            log.error("error handling an interaction from %s", interaction.user.id, exc_info=error)
            text = SORRY
        await send_error(interaction, text)

    # -- answering ----------------------------------------------------------------------------
    async def reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        if reply.view is not None:
            here = activity_runs_in(interaction.channel)
            kwargs = await message_payload(reply.view, editing=False, activity_here=here)
        else:
            kwargs = {"content": clip(reply.text)}
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)
            _let_go(kwargs)
            return
        if reply.ephemeral:
            await _unshare(interaction)
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)
        _let_go(kwargs)

    async def _update(self, interaction: discord.Interaction[Any], view: MessageView) -> None:
        """Edit the message the clicked component is on: in the answer (type 7), or, when the
        click was already deferred because the call was slow, through the original."""
        here = activity_runs_in(interaction.channel)
        kwargs = await message_payload(view, editing=True, activity_here=here)
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)

    # -- shutdown -----------------------------------------------------------------------------
    async def idle(self) -> None:
        """Wait until no interaction is being handled here: each call answered, and what
        follows its answer done (the core told, the computer's reply made)."""
        while self._in_flight:
            await asyncio.wait(list(self._in_flight))

    async def shut_down(self, timeout: float) -> None:
        """Take no new moves and let the ones in flight finish (at most ``timeout`` seconds)."""
        self.closing = True
        if self._in_flight:
            await asyncio.wait(list(self._in_flight), timeout=timeout)
