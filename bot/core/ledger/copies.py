"""Copies of the owners' messages that interactions' tokens reach.

An interaction's token may edit its answer and post follow-ups for 15 minutes. So a message
reached through one can be kept up to date through it, besides (or, where the bot is not a
member, instead of) the bot's own token:

- **Private copies** (``Life.mirrors``): a player's answers that show their hand (a move by
  command, ``/cribbage hand``), kept up to date while their tokens live.
- **Older copies** (``Life.older``): a message posted again (a private table's table, once no
  token reaches it) leaves its older copy behind; one clicked again gives a token that reaches
  it, and it is closed through it.
- **Carriers**: the latest interaction about an owner (kept under the key ``via``), whose token
  may post the owner's table again where the bot is not a member; and a place of a game played
  apart that has no way in yet, given the freshest interaction of its player's that reaches it
  (:func:`~bot.core.ledger.routes.carrier_among` picks it). This is the port
  :class:`~bot.core.base.delivery.Carriers`, which the wings call.
- **Hands asked for** (``Life.opening``): a player asked for their hand where the bot is not a
  member, and the answer that shows it is on its way: it may be in front of them before the
  bot hears that it went, so nothing drawn meanwhile says they have none.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from bot.core.base.delivery import WayIn
from bot.core.base.keys import VIA, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked
from bot.core.base.timing import ANSWER_LANDS_WITHIN, TOKEN_USABLE
from bot.core.base.views import MessageRecord
from bot.core.ledger.life import Lives, reached
from bot.core.ledger.routes import carrier_among
from bot.core.ledger.shown import Shown
from bot.core.ledger.writes import WriteBehind

__all__ = ["Copies"]


class Copies:
    """The copies of the owners' messages that live tokens reach, and the tokens that reach
    the messages themselves (the carriers: :class:`~bot.core.base.delivery.Carriers`)."""

    def __init__(
        self, lives: Lives, shown: Shown, writes: WriteBehind, now: Callable[[], float]
    ) -> None:
        self._lives = lives
        self._shown = shown
        self._writes = writes
        self._now = now

    def opening(self, owner: Owner, key: MessageKey) -> None:
        """Its player asked for the owner's message ``key`` (their hand, at a private table)
        and the answer that shows it is on its way: until it is heard to have gone
        (:meth:`opened`), or not (:meth:`not_opened`), it is taken as reaching them."""
        self._lives.of(owner).life(key).opening = self._now()

    def not_opened(self, owner: Owner, key: MessageKey) -> None:
        """The answer that was to show the owner's message ``key`` to its player did not go:
        what is drawn no longer takes it as reaching them."""
        life = self._lives.find(owner, key)
        if life is not None and life.opening is not None:
            life.opening = None
            self._lives.look_again(owner)

    def asked(self, owner: Owner) -> frozenset[MessageKey]:
        """The keys of the owner's messages whose players asked for them, the answers that
        show them still on their way (:meth:`opening`)."""
        entry = self._lives.get(owner)
        if entry is None:
            return frozenset()
        now = self._now()
        return frozenset(
            key
            for key, life in entry.lives.items()
            if life.opening is not None and now - life.opening < ANSWER_LANDS_WITHIN
        )

    async def opened(
        self,
        owner: Owner,
        key: MessageKey,
        shown: Clicked,
        digest: str,
        version: int,
        *,
        clicked: Clicked | None,
        on: MessageKey,
        original: bool = False,
    ) -> None:
        """A click on the owner's message ``on`` (a private table's *Your hand*; ``clicked``)
        was answered by a private message of its own, the owner's message ``key`` (``shown``,
        showing ``digest``, drawn at ``version``): that click's token may edit both for 15
        minutes (the clicked message is its original response, the new one its follow-up).
        ``original``: ``shown`` is the interaction's original response (``/cribbage hand``'s
        answer; nothing was clicked). A click on an older copy of ``on`` (posted over since)
        gives a token that reaches that copy: it is closed through it."""
        now = self._now()
        record = reached(shown, key, digest, now, original=original, version=version)
        await self._shown.sent(owner, [record])
        self._lives.of(owner).life(key).opening = None
        if clicked is None:
            return
        table = (await self._shown.kept(owner)).get(on)
        if table is None:
            return
        if table.message_id != clicked.message_id:
            self.reached_older(owner, on, clicked)
            return
        refreshed = dataclasses.replace(table, token=clicked.token, token_at=now, original=True)
        self._shown.keep_and_write(owner, refreshed)

    def reached_older(self, owner: Owner, key: MessageKey, clicked: Clicked) -> None:
        """An interaction on an older copy of the owner's message ``key`` (one posted over, at
        a private table) was answered: its token reaches that copy for a while, and the copy
        is closed through it (it shows the message as it is, without controls)."""
        life = self._lives.of(owner).life(key)
        life.older[clicked.message_id] = reached(clicked, key, "", self._now())
        self._lives.look_again(owner)

    def older(self, owner: Owner, key: MessageKey) -> list[MessageRecord]:
        """The older copies of the owner's message ``key`` that a live token reaches."""
        life = self._lives.find(owner, key)
        if life is None:
            return []
        life.passing(self._now())
        return list(life.older.values())

    def closed_older(self, owner: Owner, copy: MessageRecord) -> None:
        """An older copy was closed (or cannot be reached any more): nothing more is sent to
        it."""
        life = self._lives.find(owner, copy.key)
        if life is not None:
            life.older.pop(copy.message_id, None)

    async def mirrored(
        self, owner: Owner, key: MessageKey, shown: Clicked, digest: str, version: int
    ) -> None:
        """An interaction's answer (``shown``) is a private copy of the owner's message ``key``
        showing ``digest``: kept up to date through its token while that lives (looked at at
        once: the owner may have changed while the answer was on its way).

        It is written down before anything is drawn on it: Discord lets no one list a
        player's ephemeral messages, so a copy given controls and then lost with the process
        (killed before the write-behind's turn) would offer them, used, until its token
        lapsed; written first, whoever sends next keeps it up to date."""
        self.keep_mirror(owner, reached(shown, key, digest, self._now(), version=version))
        await self._writes.flush()
        self._lives.look_again(owner)

    def keep_mirror(self, owner: Owner, copy: MessageRecord) -> None:
        """``copy``, a private copy of the owner's message ``copy.key``, shows what it says:
        kept, and written down beside that message (whoever sends after a restart keeps it up
        to date too; a copy whose token reaches it no more is written down without it)."""
        self._lives.of(owner).life(copy.key).mirrors[copy.message_id] = copy
        self._write_copy(owner, copy)

    def _write_copy(self, owner: Owner, copy: MessageRecord) -> None:
        # (Whether a click's answer to it landed is this process's to know: not written.)
        written = dataclasses.replace(
            copy,
            key=copy.key.copy_at(copy.message_id),
            unconfirmed_since=None,
        )
        self._writes.write(owner, written)

    def mirrors(
        self, owner: Owner, key: MessageKey, before: Iterable[MessageKey] = ()
    ) -> list[MessageRecord]:
        """The private copies of the owner's message ``key`` a live token reaches, with those
        of the messages it takes over (``before``: a player's hand of the deal before, whose
        copies follow their hand into the new deal)."""
        entry = self._lives.get(owner)
        if entry is None:
            return []
        now = self._now()
        life = entry.life(key)
        for old in before:
            moved = entry.lives.get(old)
            if moved is not None and moved.mirrors:
                for copy in moved.mirrors.values():
                    if copy.message_id not in life.mirrors:
                        self.keep_mirror(owner, dataclasses.replace(copy, key=key))
                    # (Written down under its new key alone.)
                    self._write_copy(owner, dataclasses.replace(copy, token=None, token_at=None))
                moved.mirrors.clear()
        life.passing(now)
        return list(life.mirrors.values())

    def mirror_sent(self, owner: Owner, record: MessageRecord) -> None:
        """A private copy was edited to show what ``record`` says."""
        life = self._lives.of(owner).life(record.key)
        if record.message_id in life.mirrors:
            self.keep_mirror(owner, record)

    def mirror_lost(self, owner: Owner, copy: MessageRecord) -> None:
        """A private copy cannot be reached any more (or was closed): nothing more is sent to
        it."""
        life = self._lives.find(owner, copy.key)
        if life is not None:
            life.mirrors.pop(copy.message_id, None)
        self._write_copy(owner, dataclasses.replace(copy, token=None, token_at=None))

    async def carrier(
        self, owner: Owner, shown: Clicked, *, check: MessageKey | None = None
    ) -> None:
        """An interaction about the owner was answered (``shown``: its answer, and the
        interaction's token): where the bot is not a member, that token may post the owner's
        table again once no other reaches it (kept under the key ``via``, which nothing draws).

        ``check``: the key of a message only tokens reach (a private table's table) that the
        answer did not touch. Its token may have lapsed without the bot knowing (Discord's clock
        is its own), and nothing would try it before the game next changes: it is sent again
        now, which edits it through its token while that lives (showing what it shows) and
        otherwise posts it again through this one."""
        await self._shown.sent(owner, [reached(shown, VIA, "", self._now())])
        known = None if check is None else (await self._shown.kept(owner)).get(check)
        if known is not None and known.token != shown.token and known.digest:
            # In memory only: a look forgotten here costs at most one edit of what it shows.
            self._shown.keep(owner, dataclasses.replace(known, digest=""))
        self._lives.look_again(owner)

    async def wanting(self, places: Sequence[Owner], table: MessageKey) -> list[Owner]:
        """Those of ``places`` with no way in yet: neither their message ``table`` posted nor a
        carrier kept."""
        return [p for p in places if not {table, VIA} & set(await self._shown.kept(p))]

    async def way_in(self, place: Owner, channel_id: int, sources: Sequence[Owner]) -> WayIn:
        """Give ``place`` (in ``channel_id``) its first way in: the freshest interaction among
        the messages of ``sources`` (its player's card, their place at the game before) whose
        token still reaches that channel, kept as its carrier (its table is posted through
        it)."""
        found: list[MessageRecord] = []
        for source in sources:
            found += (await self._shown.kept(source)).values()
        carrying = carrier_among(found, channel_id, self._now())
        if carrying.via is None:
            return WayIn.WAITS if carrying.waits else WayIn.NONE
        await self._shown.sent(place, [carrying.via])
        return WayIn.GIVEN

    async def reach(self, owners: Sequence[Owner], channel_id: int) -> float | None:
        """Until when an interaction's token among the messages of ``owners`` reaches
        ``channel_id``: the freshest one's lapse (None: none ever did, or each was called
        dead, which keeps it without its token)."""
        given = [
            record.token_at
            for owner in owners
            for record in (await self._shown.kept(owner)).values()
            if record.token is not None
            and record.token_at is not None
            and record.channel_id == channel_id
        ]
        return max(given) + TOKEN_USABLE if given else None

    async def tokens_lapsed(self, owner: Owner, tokens: Iterable[str]) -> None:
        """Discord said these interactions' tokens may no longer reach the owner's messages
        (past their 15 minutes): the messages they reached are kept without them."""
        dead = set(tokens)
        changed = False
        for record in list((await self._shown.kept(owner)).values()):
            if record.token is not None and record.token in dead:
                lapsed = dataclasses.replace(record, token=None, token_at=None, original=False)
                self._shown.keep_and_write(owner, lapsed)
                changed = True
        if changed:
            self._lives.look_again(owner)  # what is drawn may say so (a mention on the table)
