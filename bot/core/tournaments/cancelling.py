"""A tournament cancelled before its end, by its organiser or a moderator: ``/cribbage
tournament cancel`` asks first, privately, and its Yes cancels (the games being played end
without a result, and unrated; the message keeps the standings so far and says who cancelled
it; the threads are archived). The tournament's other calls are
:class:`~bot.core.tournaments.tournaments.Tournaments`'.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, User
from bot.core.base.views import ConfirmControls, MessageView
from bot.core.tournaments.records import TournamentRecord, TournamentStatus
from bot.core.tournaments.tournaments import ENDED, Tournaments, TournamentStore, organiser_only

__all__ = ["Cancellations"]


class Cancellations:
    """``/cribbage tournament cancel``, its question's Yes and No, and a cancel at once."""

    def __init__(
        self, tournaments: Tournaments, store: TournamentStore, now: Callable[[], float]
    ) -> None:
        """``tournaments``: where a command's or a button's tournament is found, and its
        change published."""
        self._tournaments = tournaments
        self._store = store
        self._now = now

    @property
    def faults(self) -> Faults:
        """Where the faults its calls meet are noted (the tournaments')."""
        return self._tournaments.faults

    @answers
    async def cancel(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """Cancel this channel's tournament at once (its organiser or a moderator), before or
        while it is played: games being played end without a result (and unrated), the
        message keeps the standings so far and says who cancelled it, the threads are archived.
        ``/cribbage tournament cancel`` asks first: :meth:`ask_cancel`."""
        record = await self._tournaments.here(channel_id)
        return await self._cancel(record, user, moderator)

    @answers
    async def ask_cancel(self, channel_id: int, user: User, *, moderator: bool) -> Answer:
        """``/cribbage tournament cancel``: asks first, privately, with Yes and No
        (:meth:`confirm_cancel`); nothing changes yet."""
        record = await self._tournaments.here(channel_id)
        _may_cancel(record, user, moderator)
        playing = (
            " The games being played end at once, without a result."
            if record.status is TournamentStatus.RUNNING
            else ""
        )
        text = (
            f"Cancel this tournament?{playing} The standings so far stay on its message, and "
            "no champion is crowned. It can't be taken back."
        )
        view = MessageView(text, controls=ConfirmControls(record.id, "cancel_tournament"))
        return Answer.say(text, view=view)

    @answers
    async def confirm_cancel(
        self, tournament_id: int, user: User, yes: bool, *, moderator: bool, guild_id: int | None
    ) -> Answer:
        """The answer to :meth:`cancel`'s question: Yes cancels the tournament (games being
        played end without a result, and unrated; the message keeps the standings so far and
        says who cancelled it; the threads are archived), No leaves it; either way the
        question's message says so, without its buttons."""
        if not yes:
            return Answer.in_place("The tournament goes on.")
        record = await self._tournaments.found(tournament_id, guild_id)
        done = await self._cancel(record, user, moderator)
        return Answer.in_place(done.reply.text)

    async def _cancel(self, record: TournamentRecord, user: User, moderator: bool) -> Answer:
        _may_cancel(record, user, moderator)
        if not await self._store.cancel_tournament(record.id, by=user.id, now=self._now()):
            raise Refused(ENDED)
        await self._tournaments.changed(record.id)
        playing = (
            " The games being played end here, without a result."
            if record.status is TournamentStatus.RUNNING
            else ""
        )
        return Answer.say(f"The tournament is cancelled.{playing}", ephemeral=False)


def _may_cancel(record: TournamentRecord, user: User, moderator: bool) -> None:
    """Refuse unless ``user`` may cancel ``record`` (its organiser, or a moderator) and it has
    not ended."""
    if not moderator and user.id != record.organiser_id:
        raise Refused(organiser_only(record))
    if record.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise Refused(ENDED)
