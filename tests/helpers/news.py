"""A ledger's ear for tests of what a change's publisher tells it
(:class:`~bot.core.base.delivery.MessageNews`): it keeps what it was told, in order."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.base.delivery import AnswerKept
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord

__all__ = ["NewsHeard", "Told"]


@dataclass(frozen=True)
class Told:
    """One thing told: ``what`` (``"here"``, ``"elsewhere"``, ``"late"``, ``"way clear"``), of
    whom, and the click's answer, if any."""

    what: str
    owner: Owner
    record: AnswerKept | MessageRecord | None = None


@dataclass
class NewsHeard:
    """Keeps every piece of news, as the ledger would be told it."""

    told: list[Told] = field(default_factory=list)

    def answer_kept(self, owner: Owner, answer: AnswerKept) -> None:
        self.told.append(Told("here", owner, answer))

    def answer_kept_elsewhere(self, owner: Owner, record: MessageRecord) -> None:
        self.told.append(Told("elsewhere", owner, record))

    def heard_late(self, owner: Owner) -> None:
        self.told.append(Told("late", owner))

    async def way_clear(self, owner: Owner, key: MessageKey) -> None:
        self.told.append(Told("way clear", owner))
