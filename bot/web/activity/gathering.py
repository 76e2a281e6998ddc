"""Who has a table open, as far as Discord says: the people *Deal everyone in* may seat.

The page knows who has the table open from its SDK (``getInstanceConnectedParticipants`` and
its update event), and sends the ids it shows when its person presses *Deal everyone in*. But
the page runs on the person's machine, and anyone can send any ids: what a session may claim
is only *which of the people Discord lists in its own instance* it means. So the server asks
Discord, with the bot's token, who is in the session's instance now (the same lookup as the
sign-in's), and requires that the instance still runs in the session's channel and that the
person pressing is in it; it seats only the ids Discord lists (an id Discord does not list,
someone who left meanwhile or one made up, is left out); and it names them as Discord names
them to the bot (a server member's display name there), never as the page does. The page's
list only narrows Discord's, so nobody is dealt in whom the presser did not see at the table.
"""

from __future__ import annotations

from typing import Any

from bot.core.base.replies import User
from bot.web.activity.identity import ActivityDiscord, ActivityRefused
from bot.web.activity.sessions import Session

__all__ = ["MOST_NAMED", "NOT_IN_ACTIVITY", "people_here"]

#: The most people a page may name at once (far past any table: a table seats six).
MOST_NAMED = 25
#: What the page says when Discord does not list the person in the Activity they claim.
NOT_IN_ACTIVITY = "Discord doesn't list you in this Activity: close it and open it again."


def _claimed(ids: Any) -> list[int]:
    """The ids a page sent, in its order, each once: a list of at most :data:`MOST_NAMED`
    snowflakes written as strings (``ValueError`` for anything else)."""
    if not isinstance(ids, list) or len(ids) > MOST_NAMED:
        raise ValueError("not a list of ids")
    found: list[int] = []
    for text in ids:
        if not isinstance(text, str) or not text.isascii() or not text.isdigit():
            raise ValueError("not an id")
        if not 0 < len(text) <= 20:
            raise ValueError("not an id")
        if int(text) not in found:
            found.append(int(text))
    return found


async def people_here(discord: ActivityDiscord, session: Session, ids: Any) -> list[User]:
    """The people among ``ids`` (what the page sent) whom Discord lists in ``session``'s
    instance now, in the page's order, named as Discord names them to the bot. Raises
    ``ValueError`` for ``ids`` that are not a list of ids, and :class:`ActivityRefused` when the
    instance is gone, runs elsewhere or lists not the session's person (403), or Discord did
    not answer as it should (502)."""
    claimed = _claimed(ids)
    place = await discord.place(session.instance_id)
    if (
        place is None
        or place.channel_id != session.channel_id
        or session.user_id not in place.users
    ):
        raise ActivityRefused(NOT_IN_ACTIVITY, status=403)
    confirmed = [i for i in claimed if i in place.users]
    names = await discord.names(confirmed, session.guild_id)
    return [User(i, names[i]) for i in confirmed if i in names]
