"""The port between the wings and the ledger: what a wing says of its messages, in its own terms.

A wing that keeps messages on Discord (the games, ranked play, the tournaments) never imports the
ledger (:mod:`bot.core.ledger`). It says, through what this module defines:

- **what a message shows**: a :class:`Projector` draws every message of one kind of owner as
  :class:`Owed` values (a :class:`Drawing`), given what was last sent of them;
- **what an answer kept**: a click's answer kept with a change (:class:`AnswerKept`: which
  message, through which interaction, showing what), told to the ledger before the change is
  published (:class:`MessageNews`), which also hears what was heard late;
- **which interaction may carry a message** where the bot is not a member (:class:`Carriers`):
  an interaction answered at a private table or a ranked place, and a place of a new game that
  needs its first way in.

The ledger implements them (its clicks' answers are the news, its copies the carriers), makes its
own records of what they say, and picks the tokens; the core's assembly
(:mod:`bot.core.services`) hands each wing the part it needs.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.replies import Clicked
from bot.core.base.seating import Through
from bot.core.base.timing import TOKEN_USABLE
from bot.core.base.views import MessageRecord, MessageView

__all__ = [
    "AnswerKept",
    "Carriers",
    "Drawing",
    "LedgerPort",
    "MessageNews",
    "Owed",
    "Projector",
    "WayIn",
    "live",
    "token_lives",
]


@dataclass(frozen=True, slots=True)
class Owed:
    """A message the game owes: ``key`` names it for good (``table:3``, ``hand:3:1``), ``user_id``
    is the person it is a DM to (None: the game's channel), ``once`` marks a message that is
    posted once and never edited (a notice, a turn reminder), ``existing`` one that is only
    brought up to date if it was ever sent (a hand message whose deal is over)."""

    key: MessageKey
    view: MessageView
    user_id: int | None = None
    once: bool = False
    existing: bool = False
    #: Sent in this order among the game's owed messages (lower first).
    order: int = field(default=0, compare=False)
    #: How the bot reaches it: with its own token, or (where it is not a member, or at a place
    #: a seat plays apart from) through interactions' tokens alone, never its own (see
    #: :mod:`bot.core.ledger.routes`).
    way: Through = field(default=Through.BOT, compare=False)
    #: The keys of other messages whose interactions' tokens may carry this one where the bot
    #: is not a member (a player's hand of the deals before, for the hand of a new deal).
    fallbacks: tuple[MessageKey, ...] = field(default=(), compare=False)
    #: What an older copy of this message shows once a token reaches it (a table posted
    #: again: the older copy says it moved on, with no controls); None: it has none.
    closed: MessageView | None = field(default=None, compare=False)
    #: What a player's older private copy of this hand shows once a newer one took over (it
    #: is not kept up to date after: it says the hand moved on, with no controls); None: the
    #: hand as it is, without its controls.
    superseded: MessageView | None = field(default=None, compare=False)
    #: Only its private copies are kept up to date (a player's answers that show their hand),
    #: not the message itself (their DMs are closed).
    mirrors_only: bool = field(default=False, compare=False)
    #: What it shows now is its last look (a finished deal's hand), owed only for a while (as
    #: long as the game keeps that deal): it goes as soon as its channel allows, never held
    #: back to leave room for a player's turn, or the deals after it could end first.
    last: bool = field(default=False, compare=False)

    @property
    def tokens_only(self) -> bool:
        """Whether it is reached through interactions' tokens alone (:attr:`way`)."""
        return self.way is Through.TOKENS

    def due(self, sent: MessageRecord | None) -> bool:
        """Whether this has to be sent, given the copy ``sent`` before (if any): a message never
        sent (unless it only exists to be kept up to date), or showing something else (unless
        it is posted once); never one whose private copies alone are kept up to date."""
        if self.mirrors_only:
            return False
        if sent is None:
            return not self.existing
        return not self.once and not self.view.shows(sent.digest)


@dataclass(frozen=True, slots=True)
class Drawing:
    """What an owner's messages should show now, in sending order, drawn at the owner's
    ``version``, and when to draw them again because time alone changes them (a reminder
    falls due), if ever; ``again``: once what is owed now shows, the owner owes another look
    (a private table showing the deals its last look missed, a few at a time)."""

    channel_id: int
    version: int
    owed: tuple[Owed, ...]
    check_at: float | None = None
    again: bool = False


class Projector:
    """Draws the messages of one kind of owner from the stored owner. :meth:`draw` and
    :meth:`to_reconcile` are each kind's own; the rest have nothing to do unless a kind's
    messages need it (a game's: changed by moves, DMs)."""

    async def draw(
        self, owner: Owner, now: float, sent: Mapping[MessageKey, MessageRecord]
    ) -> Drawing | None:
        """What ``owner``'s messages should show at ``now``, given what was last sent of them
        (``sent``, by key) (None: it has none any more)."""
        raise NotImplementedError

    async def to_reconcile(self, now: float) -> list[tuple[Owner, int]]:
        """The owners (and their channels) whose messages may be owed something after a stop:
        what is brought up to date at start-up."""
        raise NotImplementedError

    def moving(self, owner: Owner) -> bool:
        """Whether ``owner`` is being changed in this process right now (its change follows on
        the feed once saved)."""
        return False

    async def dms_refused(self, owner: Owner, user_id: int) -> None:
        """Discord refused a DM of ``owner`` to ``user_id``: what it draws from now on says so
        (in the channel instead, say)."""

    def sending_again(self) -> None:
        """This process sends again after another did: forget what was kept in memory of the
        owners (another process may have learnt more meanwhile)."""


@dataclass(frozen=True, slots=True)
class AnswerKept:
    """A click's answer kept with a change, as the wing that made the change says it: the
    owner's message ``key``, reached through ``clicked`` (the interaction whose original
    response it is: a message id of 0 until the answer tells it), shows ``digest``, drawn at
    the owner's ``version``, once the answer lands; the click was answered at ``at``. ``seen``:
    the version of the look the click was made on, when its control names it. The ledger and
    the store make their records of it."""

    key: MessageKey
    clicked: Clicked
    digest: str
    version: int
    at: float
    seen: int | None = None


class MessageNews(Protocol):
    """What the ledger is told of a change before it is published: a change says what changed,
    nothing of the messages, so whoever publishes it tells the ledger first what it means for
    them, and every subscriber hears the change with the ledger already knowing. The ledger
    implements it (its clicks' answers); a change's publishers call it, then publish."""

    def answer_kept(self, owner: Owner, answer: AnswerKept) -> None:
        """A click's answer, kept with the change of ``owner`` about to be published (its
        message ``answer.key``, the look it gives), is on its way from this process."""

    def answer_kept_elsewhere(self, owner: Owner, record: MessageRecord) -> None:
        """The same, made by another process (its record, as that process announced it): that
        process sends it."""

    def heard_late(self, owner: Owner) -> None:
        """Changes of ``owner`` may have been missed (the change about to be published was
        heard late, from a catch-up): what its messages show is read again."""

    async def way_clear(self, owner: Owner, key: MessageKey) -> None:
        """A click's answer to the owner's message ``key``, kept with a change just published,
        is about to go: returns once no send of this process to that message, already written,
        can still land after it (its response came back, or it was written
        :data:`~bot.core.base.timing.REQUEST_LANDS_WITHIN` ago). Discord shows whichever of
        two edits lands last, and an edit drawn before the move (after a restart, when what
        the message showed was not known) must not land over the move's answer."""


class WayIn(Enum):
    """What giving a place its first way in came to (:meth:`Carriers.way_in`)."""

    #: An interaction's token now carries the place's messages: they are to be drawn again.
    GIVEN = "given"
    #: One will, once a click's answer on its way to that interaction's message has landed (a
    #: post through its token before then is refused): look again in a moment.
    WAITS = "waits"
    #: No interaction that reaches the place is known.
    NONE = "none"


class Carriers(Protocol):
    """Which interactions' tokens may carry an owner's messages where the bot is not a member
    (a private table, a ranked place): the ledger implements it (its copies), and picks the
    token."""

    async def carrier(
        self, owner: Owner, shown: Clicked, *, check: MessageKey | None = None
    ) -> None:
        """An interaction about ``owner`` was answered (``shown``: its answer and token): its
        token may carry the owner's messages once no other reaches them. ``check``: the key of
        a message only tokens reach that the answer did not touch, sent again now in case its
        own token lapsed."""

    async def wanting(self, places: Sequence[Owner], table: MessageKey) -> list[Owner]:
        """Those of ``places`` with no way in yet: neither their message ``table`` posted nor
        a carrier."""
        ...

    async def way_in(self, place: Owner, channel_id: int, sources: Sequence[Owner]) -> WayIn:
        """Give ``place`` (in ``channel_id``) its first way in: the freshest interaction among
        the messages of ``sources`` whose token still reaches that channel."""
        ...

    async def reach(self, owners: Sequence[Owner], channel_id: int) -> float | None:
        """Until when an interaction's token among the messages of ``owners`` reaches
        ``channel_id`` (may still post or edit there): the freshest one's lapse (None: none
        ever did, or each was called dead)."""
        ...


def token_lives(token: str | None, token_at: float | None, now: float) -> bool:
    """Whether the token of an interaction made at ``token_at`` may still be used at ``now``."""
    return token is not None and token_at is not None and now - token_at < TOKEN_USABLE


def live(record: MessageRecord | None, now: float) -> bool:
    """Whether an interaction's token may still reach the message ``record`` is of."""
    return record is not None and token_lives(record.token, record.token_at, now)


@dataclass(frozen=True, slots=True)
class LedgerPort:
    """The ledger's parts a wing's wiring hands on (the root makes it from the ledger: no wing
    imports the ledger): what its calls' answers keep told to it (``news``), the interactions
    that carry a table reached through tokens (``carriers``), where a wing's projector is
    handed to it (``draw_with``), the messages an interaction asked to be kept up to date
    (``asked``), an owner forgotten (``forget``), whether an owner's messages are all sent
    (``settled``)."""

    news: MessageNews
    carriers: Carriers
    draw_with: Callable[[OwnerKind, Projector], None]
    asked: Callable[[Owner], Collection[MessageKey]]
    forget: Callable[[Owner], None]
    settled: Callable[[Owner], Awaitable[bool]]
