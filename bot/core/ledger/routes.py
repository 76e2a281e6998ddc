"""Which way a message goes to Discord: a pure function of what is known of it.

A message is edited where it is, or posted; through an interaction's token (its webhook: outside
the bot's global rate limit, good for 15 minutes, and the only way at all where the bot is not a
member), or with the bot's own token. :func:`route` names the ways to try, in order, as
:class:`Attempt` values, each with the record to keep once it went; the ledger's keeper tries them
through the Discord layer (:class:`~bot.core.ledger.transport.Transport`) and moves on to the next
when one cannot be used (a token Discord calls dead, a message found deleted). Nothing here waits,
sends or remembers: given the same facts it gives the same route.

The choices, by where the message is:

- **A click's answer on its way to it** (kept with its move, not yet known to have landed): an edit
  now could land first and then be overwritten by the answer's older look. If this process sends
  that answer, wait until it is heard to land; if another process does, edit through the answer's
  own token, which reaches the message only once the answer has landed (Discord: 404 / 10015
  before), and otherwise look again in a moment.
- **In a server's channel or the bot's DM**: edit through the token of the latest click on it
  while that lives, else with the bot's token; a message found deleted, or never sent, is posted
  with the bot's token and a nonce made from the owner and the key (Discord gives back the same
  message for a post sent again after a crash). A DM is posted as a follow-up of the player's latest
  interaction in that DM while its token lives (no nonce: the ledger notes the post first); a
  channel's message as a follow-up of the freshest click the owner kept in that channel (the
  Start on the lobby), whose token then edits it too: a game's table costs the bot's token
  nothing for its first 15 minutes.
- **Where the bot is not a member** (a private table: ``Owed.way`` is ``Through.TOKENS``):
  through tokens alone. A hand of a new deal takes over its player's hand of a deal before
  (``Owed.fallbacks``); the table, once no token reaches it, is posted again as a follow-up of
  the game's freshest interaction.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from bot.core.base.delivery import Owed, live, token_lives
from bot.core.base.keys import HAND, VIA, MessageKey
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.timing import ANSWER_LANDS_WITHIN, ANSWER_RETRY
from bot.core.base.views import MessageRecord
from bot.core.ledger.records import DmLink
from bot.core.ledger.transport import Attempt, Way

__all__ = [
    "Carrying",
    "Facts",
    "Route",
    "answer_on_its_way",
    "carrier_among",
    "post_nonce",
    "route",
    "through",
]


@dataclass(frozen=True, slots=True)
class Route:
    """The attempts, in order; and, if none of them goes (or there are none), when to look
    again (``hold`` seconds; None: not until something else happens, such as the game's next
    interaction bringing a token)."""

    attempts: tuple[Attempt, ...]
    hold: float | None = None


def through(copy: MessageRecord, keep: MessageRecord | None = None) -> Attempt:
    """Edit the message ``copy`` is of through the token that reaches it (its original response
    or a follow-up of that interaction); ``keep``: what is kept once it went (``copy``)."""
    return Attempt(
        Way.EDIT_THROUGH,
        copy if keep is None else keep,
        channel_id=copy.channel_id,
        message_id=copy.message_id,
        token=copy.token,
        token_at=copy.token_at,
        original=copy.original,
    )


def _post_through(
    key: MessageKey,
    channel_id: int,
    digest: str,
    token: str | None,
    token_at: float | None,
    *,
    urgent: bool = False,
) -> Attempt:
    """Post the message ``key`` (showing ``digest``) in ``channel_id`` as a follow-up of the
    interaction whose ``token`` (given at ``token_at``) reaches that channel."""
    keep = MessageRecord(key, channel_id, 0, digest, token, token_at)
    return Attempt(
        Way.POST_THROUGH,
        keep,
        channel_id=channel_id,
        token=token,
        token_at=token_at,
        urgent=urgent,
    )


@dataclass(frozen=True, slots=True)
class Facts:
    """What a route is chosen from, besides the message: the owner's messages as kept now
    (``sent``, by key), the player's DM link (for a DM), the tokens Discord called dead,
    whether a click's answer is one this process sends (``mine``), whether a token may carry one
    more follow-up (``may_carry``), and the time."""

    owner: Owner
    channel_id: int
    sent: Mapping[MessageKey, MessageRecord]
    now: float
    mine: Callable[[MessageRecord], bool]
    may_carry: Callable[[str], bool]
    link: DmLink | None = None
    lapsed: frozenset[str] = frozenset()


def answer_on_its_way(record: MessageRecord | None, now: float) -> bool:
    """Whether ``record`` is a click's answer kept with its move that is not yet known to have
    reached Discord, and may still (Discord takes an answer within its window)."""
    return (
        record is not None
        and record.unconfirmed_since is not None
        and now - record.unconfirmed_since < ANSWER_LANDS_WITHIN
    )


@dataclass(frozen=True, slots=True)
class Carrying:
    """The interaction whose token posts a place's message (a place where the bot is not a
    member, or a server channel's table): ``via``, the record to keep under
    :data:`~bot.core.base.keys.VIA` (None: none is ready); ``waits``: one would be, once a
    click's answer on its way to its message has landed (a post through its token before then
    is refused)."""

    via: MessageRecord | None
    waits: bool = False


def carrier_among(found: Iterable[MessageRecord], channel_id: int, now: float) -> Carrying:
    """The freshest of the interactions ``found`` (what their answers showed) whose token still
    reaches ``channel_id`` (it may post a follow-up there) and whose answer is not on its way,
    as a carrier: the place's message is posted through it."""
    reaching = [r for r in found if live(r, now) and r.channel_id == channel_id]
    ready = [r for r in reaching if not answer_on_its_way(r, now)]
    if not ready:
        return Carrying(None, waits=bool(reaching))
    best = max(ready, key=lambda r: r.token_at or 0.0)
    return Carrying(
        MessageRecord(
            VIA, best.channel_id, best.message_id, "", best.token, best.token_at, best.original
        )
    )


def post_nonce(owner: Owner, key: MessageKey, replacing: int | None) -> str:
    """The nonce a message is posted with (Discord's ``enforce_nonce``): the same for the same
    message of an owner, so a post sent again after the process died before keeping its id
    gives back the message Discord made, not a second one. A message posted again because the
    one before was deleted (``replacing`` its id) gets another nonce. 24 characters (Discord
    takes 25). (A game's nonces are what they were before messages had owners of other kinds.)

    >>> table = MessageKey.table(1)
    >>> post_nonce(Owner.game(3), table, None) == post_nonce(Owner.game(3), table, 0)
    True
    """
    named = str(owner.id) if owner.kind is OwnerKind.GAME else str(owner)
    text = f"{named}/{key}/{replacing or 0}".encode()
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def route(owed: Owed, known: MessageRecord | None, facts: Facts) -> Route:
    """The ways to make Discord show ``owed``, whose copy sent before is ``known`` (as the
    owner was drawn; ``facts.sent`` has it as kept now, which may hold a click's answer heard
    since)."""
    digest = owed.view.digest()
    if owed.tokens_only:
        return _by_token(owed, known, digest, facts)
    answering = _answering(owed, known, facts)
    if answering is not None:
        return _after_answer(answering, digest, facts)
    if owed.user_id is None:
        return _to_channel(owed, known, digest, facts)
    return _to_dm(owed, known, digest, facts)


def _answering(owed: Owed, known: MessageRecord | None, facts: Facts) -> MessageRecord | None:
    """The click's answer to this message that may still be on its way (kept with its move:
    as the message was when the owner was drawn, or as it is kept now), if any."""
    for record in (known, facts.sent.get(owed.key)):
        if record is not None and answer_on_its_way(record, facts.now):
            return record
    return None


def _through_answer(answer: MessageRecord, key: MessageKey, digest: str) -> Attempt:
    """Edit the message a click's answer is on its way to, through that answer's own token
    (it reaches the message only once the answer has landed)."""
    assert answer.token is not None
    return through(
        answer, dataclasses.replace(answer, key=key, digest=digest, unconfirmed_since=None)
    )


def _after_answer(answering: MessageRecord, digest: str, facts: Facts) -> Route:
    """A message whose click's answer may still be on its way is edited only once that answer
    has landed, so that it never lands over the edit: this process's own, once heard; another
    process's, through its own token (and later if that reaches nothing yet)."""
    if facts.mine(answering) or not live(answering, facts.now):
        return Route((), hold=ANSWER_RETRY)
    return Route((_through_answer(answering, answering.key, digest),), hold=ANSWER_RETRY)


def _edits(owed: Owed, known: MessageRecord, digest: str, facts: Facts) -> list[Attempt]:
    """Edit ``known`` through the latest token that reaches it while it lives, else with the
    bot's token (a DM's edit is urgent: it is what the player acts on)."""
    attempts = []
    dm = owed.user_id is not None
    if live(known, facts.now) and known.token not in facts.lapsed:
        attempts.append(through(known, dataclasses.replace(known, key=owed.key, digest=digest)))
    if not known.message_id:
        # An interaction's answer whose id never came (it landed too late, say): its token
        # alone could reach it, as its original response; the bot's cannot name it.
        return attempts
    # (A channel's message is edited in the owner's channel; a DM where it was posted.)
    channel_id = known.channel_id if dm else facts.channel_id
    keep = MessageRecord(owed.key, channel_id, known.message_id, digest)
    if dm:
        # (What the token reached is kept with the bot's edit too: it may still edit it.)
        keep = dataclasses.replace(keep, token=known.token, token_at=known.token_at)
    attempts.append(
        Attempt(
            Way.EDIT_AS_BOT,
            keep,
            channel_id=channel_id,
            message_id=known.message_id,
            urgent=dm,
        )
    )
    return attempts


def _to_channel(owed: Owed, known: MessageRecord | None, digest: str, facts: Facts) -> Route:
    """Edit the message where it is; post it as a follow-up of the freshest interaction of the
    owner's whose token reaches the channel (a Start pressed on its lobby: outside the global
    limit, and the token then edits it too while it lives); else with the bot's token. A
    message never sent waits for such a click's answer this process has on its way (a
    follow-up before it lands is refused). Not through a click on a hand: at a lesson, whose
    table is in its learner's DM, the bot's own token is what learns that DM closed, and the
    lesson goes on privately."""
    attempts = [] if known is None else _edits(owed, known, digest, facts)
    clicked = [r for r in facts.sent.values() if r.key.name != HAND and r.token not in facts.lapsed]
    carrying = carrier_among(clicked, facts.channel_id, facts.now)
    via = carrying.via
    if via is not None:
        attempts.append(_post_through(owed.key, facts.channel_id, digest, via.token, via.token_at))
    elif known is None and carrying.waits and any(_answers_here(clicked, facts)):
        return Route((), hold=ANSWER_RETRY)
    nonce = post_nonce(facts.owner, owed.key, known.message_id if known else None)
    keep = MessageRecord(owed.key, facts.channel_id, 0, digest)
    attempts.append(Attempt(Way.POST_AS_BOT, keep, channel_id=facts.channel_id, nonce=nonce))
    return Route(tuple(attempts))


def _answers_here(clicked: Iterable[MessageRecord], facts: Facts) -> Iterable[bool]:
    """For each click answer on its way among ``clicked`` in the owner's channel: whether this
    process sends it (asking marks it awaited: the owner is drawn again the moment it is
    heard)."""
    for record in clicked:
        if record.channel_id == facts.channel_id and answer_on_its_way(record, facts.now):
            yield facts.mine(record)


def _to_dm(owed: Owed, known: MessageRecord | None, digest: str, facts: Facts) -> Route:
    assert owed.user_id is not None
    attempts = [] if known is None else _edits(owed, known, digest, facts)
    link = facts.link
    if (
        link is not None
        and link.channel_id is not None
        and link.token is not None
        and token_lives(link.token, link.token_at, facts.now)
        and link.token not in facts.lapsed
    ):
        attempts.append(
            _post_through(owed.key, link.channel_id, digest, link.token, link.token_at, urgent=True)
        )
    channel = link.channel_id if link is not None else None
    nonce = post_nonce(facts.owner, owed.key, known.message_id if known else None)
    keep = MessageRecord(owed.key, channel or 0, 0, digest)
    attempts.append(
        Attempt(
            Way.POST_AS_BOT,
            keep,
            channel_id=channel,
            user_id=owed.user_id,
            nonce=nonce,
            urgent=True,
        )
    )
    return Route(tuple(attempts))


def _by_token(owed: Owed, known: MessageRecord | None, digest: str, facts: Facts) -> Route:
    """Where the bot is not a member its own token reaches nothing (Discord: 403 / 50001), so
    nothing here uses it. A message is edited through the freshest live token of an
    interaction on it. A hand of a new deal takes over its player's hand of a deal before
    (their own ephemeral message, through its token). The table, when no live token reaches
    it any more, is posted again as a follow-up of the game's freshest interaction (a token
    carries a few such posts at most: ``facts.may_carry``). A message a click's answer may
    still be on its way to is edited only through that answer's own token, when another
    process sends it, and else a moment later."""
    now = facts.now
    waiting = [
        r for r in (known, *facts.sent.values()) if r is not None and answer_on_its_way(r, now)
    ]
    hold = ANSWER_RETRY if waiting else None

    def busy(record: MessageRecord) -> bool:
        return any(r.message_id == record.message_id for r in waiting)

    def usable(record: MessageRecord | None) -> bool:
        return (
            record is not None
            and record not in waiting
            and live(record, now)
            and record.token not in facts.lapsed
        )

    def after_answer(targets: Iterable[MessageRecord]) -> Route:
        ids = {t.message_id for t in targets}
        attempts = tuple(
            _through_answer(answer, owed.key, digest)
            for answer in waiting
            if answer.message_id in ids
            and not facts.mine(answer)
            and live(answer, now)
            and answer.token not in facts.lapsed
        )
        return Route(attempts, hold=hold)

    if owed.user_id is not None:
        mine = [facts.sent[k] for k in (owed.key, *owed.fallbacks) if k in facts.sent]
        if known is not None and known not in mine:
            mine.append(known)
        if any(busy(r) for r in mine):
            return after_answer(mine)
        carriers = sorted(
            (r for r in mine if usable(r)), key=lambda r: r.token_at or 0.0, reverse=True
        )
        return Route(
            tuple(
                through(carrier, dataclasses.replace(carrier, key=owed.key, digest=digest))
                for carrier in carriers
            ),
            hold=hold,
        )
    if known is not None and busy(known):
        return after_answer([known])
    attempts: list[Attempt] = []
    if known is not None and usable(known):
        attempts.append(through(known, dataclasses.replace(known, digest=digest)))
    carriers = sorted(
        (r for r in facts.sent.values() if usable(r) and facts.may_carry(r.token or "")),
        key=lambda r: r.token_at or 0.0,
        reverse=True,
    )
    attempts += [
        _post_through(owed.key, carrier.channel_id, digest, carrier.token, carrier.token_at)
        for carrier in carriers
    ]
    return Route(tuple(attempts), hold=hold)
