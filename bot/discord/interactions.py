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
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
from discord import app_commands

from bot.core.base.places import BUTTON_ASKS, Resolved
from bot.core.base.replies import Answer, Choice, Click, Clicked, Reply, User
from bot.core.base.views import HAND_BUTTON, TABLE_BUTTON, MessageView
from bot.core.ports import DmLink
from bot.core.services import Services
from bot.core.vocabulary import ANSWER_WINDOW, DEFER_AFTER, Fault, InteractionAges, Owner, OwnerKind
from bot.discord.members import DiscordMembers
from bot.discord.places import (
    ONLY_YOU_SEE_THIS,
    activity_runs_in,
    answers_only_privately,
    ask_of,
    bot_is_member,
    cannot_post,
    is_moderator,
    place_of,
)
from bot.discord.rendering import clip, message_payload

__all__ = [
    "LAUNCH_REFUSED",
    "NO_TABLE",
    "NO_TABLE_ON_STAGE",
    "RESTARTING",
    "SORRY",
    "DiscordIO",
    "io_of",
    "is_organiser",
    "known_error_text",
    "run_here",
    "send_error",
    "user_of",
]

log = logging.getLogger(__name__)

#: What a user sees when something failed on our side (the traceback goes to the log).
SORRY = "Sorry, something went wrong on my side. Please try again."
#: What a user sees while the bot is shutting down.
RESTARTING = "I'm restarting — try again in a few seconds."
#: *Play at the table* (or the Entry Point command) where Discord would not open the Activity.
LAUNCH_REFUSED = (
    "Discord couldn't open the table here: play with the buttons and `/cribbage` commands."
)
#: *Play at the table* in a stage channel's chat, where Discord runs no Activity.
NO_TABLE_ON_STAGE = (
    "Discord has no Activities in stage channels, so the table can't open here: play with the"
    " buttons and `/cribbage` commands, or open a game in a voice or text channel to play at"
    " the table."
)
#: *Play at the table* (or the Entry Point command) where the Activity is off.
NO_TABLE = (
    "The table inside Discord isn't open on this bot (its owner hasn't set up the Activity): "
    "play here with the buttons and `/cribbage` commands."
)
#: Discord's code for an interaction it no longer takes an answer to (past its window).
UNKNOWN_INTERACTION = 10062
#: Marks (in ``Interaction.extras``) a command deferred publicly: its "thinking" message
#: becomes the answer, visible to the channel.
PUBLIC_DEFERRAL = "cribbage:public-deferral"

#: A call on the core, made once the interaction is known to be ours to answer.
Call = Callable[[], Awaitable[Answer]]
#: A command's call on what it acts on (:class:`~bot.core.base.places.Resolved`).
Act = Callable[[Resolved], Awaitable[Answer]]


def io_of(interaction: discord.Interaction[Any]) -> DiscordIO:
    """What answers the bot's interactions (the client's ``io``, made in its ``setup_hook``)."""
    return cast(DiscordIO, interaction.client.io)


def clicked_of(interaction: discord.Interaction[Any]) -> Clicked | None:
    """The message a component was used on, and the interaction's token, for the core."""
    message = interaction.message
    if message is None or message.channel is None:
        return None
    return _reached(interaction, message)


def _reached(interaction: discord.Interaction[Any], message: discord.Message) -> Clicked:
    """``message`` (the one clicked, or one sent as the interaction's answer) as the core
    keeps it: where it is, its id, and the interaction's token, whose webhook reaches it."""
    return Clicked(message.channel.id, message.id, interaction.token)


def _about(answer: Answer) -> Owner | None:
    """What an answer is about (the owner of the messages it touched), if anything."""
    return None if answer.sequel is None else answer.sequel.owner


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The acting user as the core knows them: id and the name shown at the table."""
    return User(interaction.user.id, interaction.user.display_name)


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


async def offered(
    interaction: discord.Interaction[Any], find: Awaitable[list[Choice]]
) -> list[app_commands.Choice[str]]:
    """An autocomplete's list: what ``find`` offers, at most Discord's 25; nothing while the
    store is out of reach (the fault noted once, as a call's is), since an autocomplete has
    no answer that could say so."""
    try:
        found = await find
    except Fault as fault:
        io_of(interaction).services.games.faults.note(fault)
        return []
    return [app_commands.Choice(name=c.name, value=c.value) for c in found[:25]]


async def run_here(
    interaction: discord.Interaction[Any],
    act: Act,
    *,
    ephemeral: bool = True,
    named: bool = False,
) -> None:
    """A command: ``act`` on what it acts on for the person who used it where they used it,
    by the command's scope (:meth:`WhichGame.run <bot.core.which_game.WhichGame.run>`), or its
    refusal; ``ephemeral``: how its answer will be seen; ``named``: it names its game (by
    number), which no place decides."""
    which, place = io_of(interaction).services.which, place_of(interaction)
    ask, user_id = None if named else ask_of(interaction), interaction.user.id
    await io_of(interaction).command(
        interaction, lambda: which.run(ask, place, user_id, act), ephemeral=ephemeral
    )


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


async def _in_time(interaction: discord.Interaction[Any], sending: Awaitable[None]) -> None:
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


#: The answer to a click on another person's privacy buttons.
NOT_YOUR_DATA = "These buttons are someone else's: use `/cribbage privacy` for yours."


class DiscordIO:
    """Runs core calls for interactions and answers them (the bot's :class:`Clicks` too)."""

    def __init__(
        self,
        services: Services,
        members: DiscordMembers,
        *,
        remember_dm: Callable[[DmLink], Awaitable[None]],
        defer_after: float = DEFER_AFTER,
        activity: bool = False,
    ) -> None:
        """``remember_dm``: keeps a player's DM channel with the bot and their latest
        interaction there (the ledger's DM links). ``activity``: the game's Activity is on
        (*Play at the table* and the Entry Point command open it)."""
        self.services = services
        self._remember_dm_link = remember_dm
        self.activity = activity
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
        await self._entered(interaction, self._commanded(interaction, call, ephemeral))

    async def _commanded(
        self, interaction: discord.Interaction[Any], call: Call, ephemeral: bool
    ) -> None:
        private_only = answers_only_privately(interaction)
        answer = await self._call(
            interaction, call, update=False, ephemeral=ephemeral or private_only
        )
        if answer is None:
            return
        if private_only and not answer.reply.ephemeral:
            # Discord would show it to this user alone anyway: say so, rather than let them
            # think the channel saw it.
            answer = dataclasses.replace(answer, reply=_only_yours(answer.reply))
        sending = _in_time(interaction, self._reply(interaction, answer.reply))
        if not await self._landed(answer, sending, "a command's answer did not reach Discord (%s)"):
            return
        shown = None
        try:
            sequel = answer.sequel
            if answer.ok and sequel is not None and sequel.key and answer.reply.view is not None:
                # The answer is one of an owner's messages (/cribbage new's lobby): its id.
                message = await interaction.original_response()
                shown = _reached(interaction, message)
        except discord.HTTPException:
            await self.services.answered(answer, landed=False, shown=None)
            raise
        await self.services.answered(answer, landed=True, shown=shown)
        moved = answer.ok and answer.sequel is not None
        await self._carry(interaction, _about(answer) if moved else None, moved=moved)

    async def _carry(
        self,
        interaction: discord.Interaction[Any],
        owner: Owner | None,
        *,
        moved: bool,
        shown: Clicked | None = None,
    ) -> None:
        """An interaction was answered where a table is reached through tokens alone: its token
        may post the table again there once no other token reaches it (a game left for more
        than 15 minutes, resumed by whatever comes next: a move, a refused click or command, a
        hand asked for). That is a private table (where the bot is not a member), or a ranked
        player's place (wherever it is). ``owner``: what it is about (None: the player's
        ranked place here, or the channel's open game, if any); ``moved``: it made a move (see
        :meth:`PrivateResume.answered`); ``shown``: its original response, when known without
        asking Discord."""
        if interaction.channel is None or not interaction.response.is_done():
            return  # (an interaction never answered has no webhook to post through)
        services, user_id = self.services, interaction.user.id
        try:
            owner = owner or await services.which.carried(place_of(interaction), user_id)
            if owner is None or owner.kind not in (OwnerKind.PLACE, OwnerKind.GAME):
                return
            if owner.kind is OwnerKind.GAME and bot_is_member(interaction):
                return  # (the bot's own token reaches a server's tables)
            if shown is None:
                shown = _reached(interaction, await interaction.original_response())
            if owner.kind is OwnerKind.PLACE:
                await services.ranked.calls.carry(owner, shown, moved=moved)
            else:
                await services.resume.answered(owner, shown, moved=moved)
        except discord.HTTPException as error:
            log.warning("an answer at a private table could not be read back (%s)", error)
        except Fault as fault:
            self.services.games.faults.note(fault)  # the answer itself went; said in the log

    async def own_hand(self, interaction: discord.Interaction[Any], call: Call) -> None:
        """``/cribbage hand``: the hand, privately, as the command's answer, which the bot keeps
        up to date through the command's token from then on: at a private table or a ranked
        place, that seat's hand message; at a server's game, a copy of the one by DM."""
        await self._entered(interaction, self._own_hand_typed(interaction, call))

    async def _own_hand_typed(self, interaction: discord.Interaction[Any], call: Call) -> None:
        answer = await self._call(interaction, call, update=False, ephemeral=True)
        if answer is None:
            return
        self.services.opening(answer)
        try:
            await _in_time(interaction, self._reply(interaction, answer.reply))
            if not answer.ok or answer.reply.view is None:
                await self._carry(interaction, None, moved=False)
                return
            message = await interaction.original_response()
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("a hand asked for did not reach Discord (%s)", error)
            await self.services.opened(answer, shown=None, clicked=None)
            return
        shown = _reached(interaction, message)
        await self.services.opened(answer, shown=shown, clicked=None)
        await self._carry(interaction, _about(answer), moved=False)

    async def hand_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A hand's control: the crib select, a card button, a count menu, Muggins!."""
        user, guild_id = user_of(interaction), interaction.guild_id
        clicked = clicked_of(interaction)
        moves = self.services.moves
        await self.click(interaction, lambda: moves.click(click, user, clicked, guild_id=guild_id))

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, action: str
    ) -> None:
        """A lobby button or the lobby's "Add computer" menu."""
        if action == HAND_BUTTON:
            await self._entered(interaction, self._own_hand(interaction, game_id))
            return
        if action == TABLE_BUTTON:
            await self.launch(interaction)
            return
        user, guild_id = user_of(interaction), interaction.guild_id
        moderator = is_moderator(interaction)
        clicked = clicked_of(interaction)
        lobbies, which, place = self.services.lobbies, self.services.which, place_of(interaction)
        # (Join is refused where /cribbage join would be: where the clicker's ranked match is.)
        await self.click(
            interaction,
            lambda: which.run(
                BUTTON_ASKS.get(action),
                place,
                user.id,
                lambda _: lobbies.click(
                    game_id, action, user, clicked, guild_id=guild_id, moderator=moderator
                ),
            ),
        )

    async def launch(self, interaction: discord.Interaction[Any]) -> None:
        """*Play at the table*, or the Entry Point command: open the Activity for whoever
        acted, in this channel (answered with ``LAUNCH_ACTIVITY``; the Activity finds the
        channel's game itself, and who may see what there)."""
        await self._entered(interaction, self._launched(interaction))

    async def _launched(self, interaction: discord.Interaction[Any]) -> None:
        if not self.activity:
            await send_error(interaction, NO_TABLE)
            return
        if not activity_runs_in(interaction.channel):
            # (The App Launcher is not offered there; a table's button may be, where the
            # channel was not known when it was drawn.)
            await send_error(interaction, NO_TABLE_ON_STAGE)
            return

        async def launch() -> None:
            await interaction.response.launch_activity()

        try:
            await _in_time(interaction, launch())
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("the Activity could not be launched (%s)", error)
            if not interaction.response.is_done():
                await send_error(interaction, LAUNCH_REFUSED)

    async def _own_hand(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A private table's *Your hand*: the click is answered by a deferred update of the
        table (so its token may edit the table), then the hand goes to the clicker alone as
        the click's ephemeral follow-up; both are reached through that token from then on."""
        user, guild_id = user_of(interaction), interaction.guild_id
        table = self.services.table
        answer = await self._call(
            interaction,
            lambda: table.own_hand(game_id, user, guild_id=guild_id),
            update=True,
            ephemeral=True,
        )
        if answer is None:
            return
        view = answer.reply.view
        if not answer.ok or view is None:
            await self._reply(interaction, answer.reply)
            await self._carry(interaction, None, moved=False)
            return
        self.services.opening(answer)
        try:
            if not interaction.response.is_done():

                async def defer() -> None:
                    await interaction.response.defer()

                await _in_time(interaction, defer())
            payload = await message_payload(view, editing=False)
            sent = await interaction.followup.send(ephemeral=True, wait=True, **payload)
        except (discord.HTTPException, TimeoutError) as error:
            log.warning("a hand opened from the table did not reach Discord (%s)", error)
            await self.services.opened(answer, shown=None, clicked=None)
            return
        shown = _reached(interaction, sent)
        await self.services.opened(answer, shown=shown, clicked=clicked_of(interaction))
        # (Clicked on the table, the click's token now edits it, and nothing more is done;
        # on an older copy of it, the table comes back if no token reaches it. The deferred
        # update made the clicked message the click's original response.)
        await self._carry(interaction, _about(answer), moved=False, shown=clicked_of(interaction))

    async def ranked_click(
        self, interaction: discord.Interaction[Any], entry_id: int, action: str
    ) -> None:
        """A ranked card's *Stop searching* or *Play the expert instead*: the card is updated in
        place; the expert's game is opened at the card's place (where the bot is not a member,
        the click's token carries its table there)."""
        user, place = user_of(interaction), place_of(interaction)
        ranked, clicked = self.services.ranked.calls, clicked_of(interaction)
        if action != "expert":
            await self.click(interaction, lambda: ranked.stop(entry_id, user, clicked))
            return
        lacking = cannot_post(interaction)
        if lacking is not None:
            await send_error(interaction, lacking)
            return
        await self.click(interaction, lambda: ranked.expert(entry_id, user, clicked, place=place))
        # (At a private place the expert's game is a private table: this token posts it.)
        await self._carry(interaction, None, moved=False, shown=clicked)

    async def click(self, interaction: discord.Interaction[Any], call: Call) -> None:
        """A click on a control: run ``call`` and answer it (in place, or with a reply)."""
        await self._entered(interaction, self._clicked(interaction, call))

    async def data_file(self, interaction: discord.Interaction[Any], subject: int) -> None:
        """*Send me my data* (``/cribbage privacy``): everything kept about the person who
        clicked, as a file in a reply only they see (the interaction is deferred first: a
        long record takes a while to gather). Someone else's button is refused."""

        async def send() -> None:
            user = user_of(interaction)
            if subject != user.id:
                await send_error(interaction, NOT_YOUR_DATA)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            made = await self.services.privacy.data_file(user)
            attached = discord.File(io.BytesIO(made.data), filename=made.filename)
            await interaction.followup.send(made.line, file=attached, ephemeral=True)

        await self._entered(interaction, send())

    async def _clicked(self, interaction: discord.Interaction[Any], call: Call) -> None:
        answer = await self._call(interaction, call, update=True, ephemeral=True)
        if answer is None:
            return
        # Answer by updating the clicked message itself (free of the global limit), when the
        # answer is an update of it.
        update = answer.update if answer.ok and interaction.message is not None else None

        async def send() -> None:
            if update is None:
                await self._reply(interaction, answer.reply)
                return
            await _in_time(interaction, self._update(interaction, update))
            if answer.note:
                # Said to the clicker alone (an interaction follow-up: outside the limit).
                await interaction.followup.send(answer.note, ephemeral=True)

        warning = "a click's answer did not reach Discord (%s); its message is edited"
        if not await self._landed(answer, send(), warning):
            return
        # (A refused stale control: the message clicked, which may show an older look.)
        on = update is not None or (answer.stale is not None and interaction.message is not None)
        shown = clicked_of(interaction) if on else None
        await self.services.answered(answer, landed=True, shown=shown)
        # Only now may its webhook carry the player's next hand: Discord knows no webhook of an
        # interaction before its answer has landed (404 / 10015), and on the internet a hand
        # posted through it while the answer is on its way often lands first.
        await self._remember_dm(interaction)
        if not answer.ok or answer.sequel is None:
            # A move's answer keeps its token with the message it updated; anything else
            # brings a private table back, should no token reach it any more.
            await self._carry(interaction, None, moved=False)

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
            await self.services.answered(answer, landed=False, shown=None)
            return False
        except BaseException:
            await self.services.answered(answer, landed=False, shown=None)
            raise
        return True

    async def _entered(self, interaction: discord.Interaction[Any], work: Awaitable[None]) -> None:
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

    async def _remember_dm(self, interaction: discord.Interaction[Any]) -> None:
        """A click in a DM, answered: its webhook may post the player's next hand there, for
        free."""
        channel = interaction.channel
        if interaction.guild_id is not None or channel is None or not bot_is_member(interaction):
            return  # (a DM between people or a group DM is no DM with the bot)
        link = DmLink(interaction.user.id, channel.id, interaction.token, time.time())
        await self._remember_dm_link(link)

    # -- calling the core ---------------------------------------------------------------------
    async def _call(
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
        if isinstance(error, Fault):
            self.services.games.faults.note(error)
            await send_error(interaction, str(error))
            return
        text = known_error_text(error)
        if text is None:
            log.error("error handling an interaction from %s", interaction.user.id, exc_info=error)
            text = SORRY
        await send_error(interaction, text)

    # -- answering ----------------------------------------------------------------------------
    async def _reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
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
    async def shut_down(self, timeout: float) -> None:
        """Take no new moves and let the ones in flight finish (at most ``timeout`` seconds)."""
        self.closing = True
        if self._in_flight:
            await asyncio.wait(list(self._in_flight), timeout=timeout)
