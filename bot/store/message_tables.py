"""The store's messages: what every owner keeps on Discord, and what the keeper knows of the
players (their DM channels and latest interactions there, refused DMs, who was last seen in a
server).

This part alone writes the ledger's tables. What goes with another part's change is written in
that change's transaction, as the statements this part makes for it (:class:`~bot.store.queries.
Statement`): a click's answer kept with the move it answers (:func:`keep_answer`, one clause of
a move's one statement on PostgreSQL), an answer that becomes an owner's first message
(:func:`first_answer`: a lobby, a ranked card), and an owner's messages forgotten with it
(:func:`forget_owners`).

A ranked card's record (its player's DM or place, their interaction's token) names the search it
was drawn from and that search's player as the write reads them (``card_entry``, ``card_user``,
which reference the search: migration 040); a search whose player had their data deleted names a
former player and keeps no record, and a write read before the deletion and committed after it
finds the search renamed, and keeps nothing, in whichever process it was made. What is known of a
player (their DM link, the servers they were seen in) is kept only while they are a person the
bot keeps (``people``): once their data is deleted, such a write finds nobody."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.core.base.delivery import AnswerKept
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.store_errors import Raced, decided_again
from bot.core.base.views import MessageRecord
from bot.core.ledger.life import answer_record
from bot.core.ledger.records import DmLink
from bot.core.ledger.transport import PendingPost
from bot.store.database import Dialect, MissingReference
from bot.store.queries import Queries, Statement, marks, not_former, proving_sender
from bot.store.rows import reader

__all__ = ["MessageTables", "first_answer", "forget_owners", "keep_answer"]

_T = TypeVar("_T")

#: The columns of a message an owner keeps, in MessageRecord's order.
_MESSAGE_COLUMNS = (
    "key, channel_id, message_id, digest, token, token_at, token_original, shown_version,"
    " unconfirmed_since"
)
#: What is read of a message: those columns, and none for what a click's answer was made on
#: (``MessageRecord.seen``, which goes with a change and is not written down).
_MESSAGE_READ = f"{_MESSAGE_COLUMNS}, NULL"
#: A MessageRecord from a row of what is read.
_message = reader(MessageRecord)
#: A row written for an interaction's original response whose id is not known (0), through the
#: same token as the row kept: the same message, whose id was learned meanwhile.
_SAME_ANSWER = "(excluded.message_id = 0 AND excluded.token = messages.token)"
#: Messages as last sent, upserted (never over a record of a later version of the owner, unless
#: it is another message: one posted again after the one before was deleted). A message's id,
#: once learned, is never forgotten for a row of the same answer without it.
_KEPT_OVER = (
    " ON CONFLICT (owner, key) DO UPDATE SET channel_id = excluded.channel_id,"
    f" message_id = CASE WHEN {_SAME_ANSWER} THEN messages.message_id"
    " ELSE excluded.message_id END, digest = excluded.digest,"
    " token = excluded.token, token_at = excluded.token_at,"
    " token_original = excluded.token_original, shown_version = excluded.shown_version,"
    " unconfirmed_since = excluded.unconfirmed_since{also}"
    " WHERE messages.shown_version <= excluded.shown_version"
    f" OR (messages.message_id <> excluded.message_id AND NOT {_SAME_ANSWER})"
)
_KEEP_MESSAGES = (
    f"INSERT INTO messages (owner, {_MESSAGE_COLUMNS}) VALUES {{rows}}" + _KEPT_OVER.format(also="")
)
#: A ranked card's record (one), kept as :data:`_KEEP_MESSAGES` keeps a message, with the
#: search it was drawn from and that search's player as read now: none for a search that is
#: gone or a former player's (its parameters: the record's, then the search's id).
_KEEP_CARD = (
    f"INSERT INTO messages (owner, {_MESSAGE_COLUMNS}, card_entry, card_user)"
    " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, e.id, e.user_id FROM ranked_entries e"
    f" WHERE e.id = ? AND {not_former('e.user_id')}"
    + _KEPT_OVER.format(also=", card_user = excluded.card_user")
)
#: A ranked card about to be posted, as :data:`_KEEP_CARD` (its parameters: the post's, then
#: the search's id; {held}: what else must hold for it to be noted).
_PENDING_CARD = (
    "INSERT INTO pending_posts (owner, key, channel_id, since, card_entry, card_user)"
    " SELECT ?, ?, ?, ?, e.id, e.user_id FROM ranked_entries e"
    f" WHERE e.id = ? AND {not_former('e.user_id')}{{held}}"
    " ON CONFLICT (owner, key) DO UPDATE SET channel_id = excluded.channel_id,"
    " since = excluded.since, card_user = excluded.card_user"
)
#: A DM about to be posted ({held}: what else must hold for it to be noted, added with AND to
#: ``WHERE TRUE`` as to the ranked card's own condition).
_PENDING = (
    "INSERT INTO pending_posts (owner, key, channel_id, since) SELECT ?, ?, ?, ? WHERE TRUE{held}"
    " ON CONFLICT (owner, key) DO UPDATE SET channel_id = excluded.channel_id,"
    " since = excluded.since"
)
#: A click on an owner's message answered by updating it: what it shows, and the click's token
#: (if it is the owner's own message, or the one kept without its id yet, and what is kept of
#: it is not of a later version).
_ANSWERED = (
    "UPDATE messages SET channel_id = ?, message_id = ?, digest = ?, token = ?, token_at = ?,"
    " token_original = 1, shown_version = ?, unconfirmed_since = ?"
    " WHERE owner = ? AND key = ? AND message_id IN (?, 0) AND shown_version <= ?"
)
#: A user's DM channel and latest interaction there. The process that sends learns the channel
#: by posting there, with no interaction, while another may have written down the click the
#: player made on that very post: that interaction stays (the sender would otherwise post
#: every hand with its own token, spending the DM's allowance, until the next write down).
_KEEP_TOKEN = "excluded.token IS NULL OR excluded.token_at < dm_links.token_at"
_SET_DM_LINK = (
    "INSERT INTO dm_links (user_id, channel_id, token, token_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (user_id) DO UPDATE SET channel_id = excluded.channel_id,"
    f" token = CASE WHEN {_KEEP_TOKEN} THEN dm_links.token ELSE excluded.token END,"
    f" token_at = CASE WHEN {_KEEP_TOKEN} THEN dm_links.token_at ELSE excluded.token_at END"
)
#: A user's DM link kept only while they are someone the bot keeps (its parameters:
#: ``_SET_DM_LINK``'s, then the user's id again).
_SET_KNOWN_DM_LINK = _SET_DM_LINK.replace(
    "VALUES (?, ?, ?, ?)", "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM people WHERE id = ?)"
)
#: An interaction's answer that became an owner's message (``/cribbage new``'s lobby; a ranked
#: card, with its search and that search's player).
_FIRST_ANSWER = (
    f"INSERT INTO messages (owner, {_MESSAGE_COLUMNS}, card_entry, card_user)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, key) DO NOTHING"
)


def _message_row(owner: Owner, record: MessageRecord) -> tuple[Any, ...]:
    return (
        str(owner),
        str(record.key),
        record.channel_id,
        record.message_id,
        record.digest,
        record.token,
        record.token_at,
        int(record.original),
        record.version,
        record.unconfirmed_since,
    )


def keep_answer(owner: Owner, answer: AnswerKept | None, *, when: str = "") -> Statement:
    """A click's answer kept with the move it answers, in the move's transaction: what the
    owner's message it updated shows (if it is the owner's own message, or the one kept without
    its id yet, and what is kept of it is not of a later version), and the click's token.
    ``when``: a condition of the move's own statement (SQL) it is a clause of, on PostgreSQL
    (its parameters match no row for no answer, so the statement is the same with or
    without)."""
    record = None if answer is None else answer_record(answer)
    return Statement(f"{_ANSWERED} AND {when}" if when else _ANSWERED, _answered_row(owner, record))


def first_answer(
    owner: Owner, answer: AnswerKept, *, card: tuple[int, int] | None = None
) -> Statement:
    """An interaction's answer that became the owner's message (``/cribbage new``'s lobby, a
    ranked card: ``card``, its search and that search's player), in the transaction that makes
    the owner."""
    entry, user = card if card is not None else (None, None)
    return Statement(_FIRST_ANSWER, (*_message_row(owner, answer_record(answer)), entry, user))


def forget_owners(owners: Sequence[Owner]) -> list[Statement]:
    """The owners' messages and pending posts forgotten, in the transaction that deletes the
    owners themselves."""
    named = tuple(str(owner) for owner in owners)
    return [
        Statement(f"DELETE FROM {table} WHERE owner IN ({marks(named)})", named)
        for table in ("messages", "pending_posts")
    ]


def _kept_messages(ordered: Sequence[tuple[Owner, MessageRecord]]) -> tuple[str, list[Any]]:
    """The statement (and its parameters) keeping ``ordered`` (see :data:`_KEEP_MESSAGES`)."""
    rows = ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in ordered)
    params = [value for owner, m in ordered for value in _message_row(owner, m)]
    return _KEEP_MESSAGES.format(rows=rows), params


def _kept_in_one(
    others: Sequence[tuple[Owner, MessageRecord]],
    cards: Sequence[tuple[Owner, MessageRecord]],
    posted: Sequence[tuple[Owner, MessageKey]],
) -> tuple[str, list[Any]]:
    """One statement (PostgreSQL's, each part a data-modifying ``WITH``) keeping ``others``
    (:data:`_KEEP_MESSAGES`) and each ranked card of ``cards`` (:data:`_KEEP_CARD`), and
    forgetting the pending posts ``posted``; and its parameters, in that order."""
    parts: list[str] = []
    params: list[Any] = []
    if others:
        sql, kept = _kept_messages(others)
        parts.append(sql)
        params += kept
    for owner, record in cards:
        parts.append(_KEEP_CARD)
        params += [*_message_row(owner, record), owner.id]
    if posted:
        pairs = sorted((str(owner), str(key)) for owner, key in posted)
        parts.append(
            "DELETE FROM pending_posts WHERE (owner, key) IN ("
            + ", ".join("(?, ?)" for _ in pairs)
            + ")"
        )
        params += [value for pair in pairs for value in pair]
    steps = ", ".join(f"step{i} AS ({sql})" for i, sql in enumerate(parts))
    return f"WITH {steps} SELECT 1", params


def _answered_row(owner: Owner, record: MessageRecord | None) -> tuple[Any, ...]:
    """The parameters of :data:`_ANSWERED` (for no record: ones that match no row)."""
    if record is None:
        return (None, None, None, None, None, None, None, None, None, None, None)
    return (
        record.channel_id,
        record.message_id,
        record.digest,
        record.token,
        record.token_at,
        record.version,
        record.unconfirmed_since,
        str(owner),
        str(record.key),
        record.message_id,
        record.version,
    )


class MessageTables(Queries):
    """The messages owners keep, and what is known of the players' DMs and membership."""

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        """The owner's messages as last sent, by key."""
        rows = await self._read(
            f"SELECT {_MESSAGE_READ} FROM messages WHERE owner = ?", (str(owner),)
        )
        return {record.key: record for record in map(_message, rows)}

    async def set_messages(
        self,
        messages: Sequence[tuple[Owner, MessageRecord]],
        *,
        posted: Sequence[tuple[Owner, MessageKey]] = (),
    ) -> None:
        """Remember messages sent (or edited), of any owners, in one statement (a record of an
        older version of its owner than the one kept is not taken, unless it is another
        message; nor a ranked card's whose search is a former player's, or is no longer as the
        write read it: see the module), and forget that the ``posted`` ones were about to be
        posted, in the same transaction."""
        if not messages:
            return
        # In one order, whoever writes: two processes writing the same rows in other orders
        # could each hold a row the other waits for (PostgreSQL: deadlock detected).
        ordered = sorted(messages, key=lambda item: (str(item[0]), str(item[1].key)))
        cards = [(o, m) for o, m in ordered if o.kind is OwnerKind.RANKED]
        others = [(o, m) for o, m in ordered if o.kind is not OwnerKind.RANKED]
        if self.dialect is Dialect.POSTGRES:
            # One statement, committed by itself: one round trip, and nothing left half done
            # by a process frozen mid-write (SIGSTOP, a paused VM). A transaction of several
            # statements, frozen between them (or between the messages of one, which the
            # server then waits on with no timeout), kept its rows locked against the process
            # taking over, which waited as long, sending nothing.
            async def once() -> None:
                await self.db.execute(*_kept_in_one(others, cards, posted))

            await (_again_if_gone(once) if cards else once())
            return

        async def keep() -> None:
            async with self._writing() as tx:
                if others:
                    await tx.execute(*_kept_messages(others))
                await tx.executemany(_KEEP_CARD, [(*_message_row(o, m), o.id) for o, m in cards])
                if posted:
                    await tx.executemany(
                        "DELETE FROM pending_posts WHERE owner = ? AND key = ?",
                        sorted((str(owner), str(key)) for owner, key in posted),
                    )

        await _again_if_gone(keep)

    async def unconfirmed(self, before: float) -> list[tuple[Owner, int, int]]:
        """The owners (with their versions and channels) with a click's answer kept since
        before ``before`` and still not known to have reached Discord."""
        rows = await self._read(
            "SELECT DISTINCT m.owner, g.version, g.channel_id FROM messages m"
            " JOIN games g ON m.owner = 'game:' || g.id"
            " WHERE m.unconfirmed_since IS NOT NULL AND m.unconfirmed_since < ?",
            (before,),
        )
        return [(Owner.parse(row[0]), int(row[1]), int(row[2])) for row in rows]

    async def forget_look(self, owner: Owner, key: MessageKey, version: int | None) -> None:
        """What the owner's message ``key`` shows is not known after all (an answer kept for
        ``version`` did not reach Discord; None: whatever is kept): it is edited again."""
        if version is None:
            await self.db.execute(
                "UPDATE messages SET digest = '' WHERE owner = ? AND key = ?",
                (str(owner), str(key)),
            )
            return
        await self.db.execute(
            "UPDATE messages SET digest = '' WHERE owner = ? AND key = ? AND shown_version = ?",
            (str(owner), str(key), version),
        )

    async def doubt_look(self, owner: Owner, message_id: int, lost_since: float | None) -> bool:
        """What the owner's message ``message_id`` shows is not known after all (a stale control
        was clicked on it), unless a click's answer to it is still to be confirmed: it is
        edited again. ``lost_since``: kept as an answer that never landed since then, so the
        process that sends, which reads those, finds it (None: this process sends). Whether
        there was such a message."""
        found = await self._read_write(
            "UPDATE messages SET digest = '', unconfirmed_since = ?"
            " WHERE owner = ? AND message_id = ? AND unconfirmed_since IS NULL RETURNING key",
            (lost_since, str(owner), message_id),
        )
        return bool(found)

    async def forget_message(self, owner: Owner, key: MessageKey) -> None:
        """A message that is gone from Discord: it will be sent again."""
        await self.db.execute(
            "DELETE FROM messages WHERE owner = ? AND key = ?", (str(owner), str(key))
        )

    async def set_pending(
        self, owner: Owner, post: PendingPost, *, held_as: str | None = None
    ) -> bool:
        """A DM of the owner is about to be posted (not noted for a ranked card whose search is
        a former player's, or no longer as the write read it: see the module). ``held_as``
        (PostgreSQL's, where several processes share the database): the name the process
        posting it holds the sender's lease under; it is noted only while that process holds
        the lease, proved in the same statement (:func:`~bot.store.queries.proving_sender`: a
        sender deposed meanwhile, its write held up, noted a post it never made after the
        process taking over had looked for lost posts).
        Whether this process may post it: False when it does not hold the lease."""
        ranked = owner.kind is OwnerKind.RANKED
        row = (str(owner), str(post.key), post.channel_id, post.since)
        insert = _PENDING_CARD if ranked else _PENDING
        params = (*row, owner.id) if ranked else row
        if held_as is None:
            sql = insert.format(held="")
        else:
            sql = (
                f"WITH held AS ({proving_sender(self.dialect)}),"
                f" noted AS ({insert.format(held=' AND EXISTS (SELECT 1 FROM held)')})"
                " SELECT count(*) FROM held"
            )
            params = (held_as, *params)

        async def note() -> bool:
            if held_as is None:
                await self.db.execute(sql, params)
                return True
            return bool((await self.db.fetch(sql, params))[0][0])

        return await (_again_if_gone(note) if ranked else note())

    async def pending_posts(self, owner: Owner) -> list[PendingPost]:
        """The owner's DMs that were about to be posted and whose ids were never kept."""
        rows = await self._read(
            "SELECT key, channel_id, since FROM pending_posts WHERE owner = ? ORDER BY since",
            (str(owner),),
        )
        return [
            PendingPost(MessageKey.parse(row["key"]), row["channel_id"], row["since"])
            for row in rows
        ]

    async def clear_pending(self, owner: Owner, key: MessageKey) -> None:
        """Forget a post that was about to be made."""
        await self.db.execute(
            "DELETE FROM pending_posts WHERE owner = ? AND key = ?", (str(owner), str(key))
        )

    async def dm_refusals(self, game_id: int) -> dict[int, int]:
        """Seat -> the deal in which that player's DMs were first refused (none since)."""
        rows = await self._read("SELECT seat, deal FROM dm_refusals WHERE game_id = ?", (game_id,))
        return {row["seat"]: row["deal"] for row in rows}

    async def refuse_dms(self, game_id: int, seat: int, deal: int) -> None:
        """Remember that a player's DMs were refused in ``deal`` (the first deal stays)."""
        await self.db.execute(
            "INSERT INTO dm_refusals (game_id, seat, deal) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO NOTHING",
            (game_id, seat, deal),
        )

    async def dm_link(self, user_id: int) -> DmLink | None:
        """The DM channel with a user and their latest interaction there, if known."""
        rows = await self._read(
            "SELECT user_id, channel_id, token, token_at FROM dm_links WHERE user_id = ?",
            (user_id,),
        )
        return DmLink(*rows[0]) if rows else None

    async def set_dm_link(self, link: DmLink) -> None:
        """Remember the DM channel with a user (and their latest interaction there: a link
        without one, or with an older one, keeps the interaction kept), while they are someone
        the bot keeps: not once their data was deleted, even by another process as this was
        written (then nothing is kept)."""
        try:
            await self.db.execute(
                _SET_KNOWN_DM_LINK,
                (link.user_id, link.channel_id, link.token, link.token_at, link.user_id),
            )
        except MissingReference:
            return  # (their data deleted as it was written: nothing of it is kept)

    async def member_seen(self, guild_id: int, user_id: int) -> float | None:
        """When ``user_id`` was last known to be a member of ``guild_id`` (None: never)."""
        rows = await self._read(
            "SELECT seen_at FROM members_seen WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return float(rows[0][0]) if rows else None

    async def saw_member(self, guild_id: int, user_id: int, at: float) -> None:
        """Note that ``user_id`` was a member of ``guild_id`` at ``at`` (a later note stays),
        while they are someone the bot keeps (as :meth:`set_dm_link`)."""
        try:
            await self.db.execute(
                "INSERT INTO members_seen (guild_id, user_id, seen_at) SELECT ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM people WHERE id = ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET seen_at = excluded.seen_at"
                " WHERE members_seen.seen_at < excluded.seen_at",
                (guild_id, user_id, at, user_id),
            )
        except MissingReference:
            return  # (their data deleted as it was written: nothing of it is kept)


async def _again_if_gone(write: Callable[[], Awaitable[_T]]) -> _T:
    """Run ``write`` (of ranked cards' records), and once more if what it referred to was
    gone by its commit (a player's data deleted in another process between its read of their
    search and its commit): the second reads the search anew, a former player's, and keeps
    nothing of theirs (:func:`~bot.core.base.store_errors.decided_again`); what the write that
    went gives."""

    async def once() -> _T:
        try:
            return await write()
        except MissingReference:
            raise Raced() from None

    return await decided_again(once)
