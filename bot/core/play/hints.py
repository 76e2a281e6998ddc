"""A hint when you ask: what the expert would do in your place, said to you alone.

A hand's *Hint* (on the hand by DM, ``/cribbage hand``'s private copy, a private table's hand,
the table inside Discord) asks the expert for its choice in the asker's seat as it stands
(:mod:`engine.hint`): one line (at a learner's table, a second says what its figures mean), the
click's own answer, seen by the asker alone; nothing else is sent, and the game does not
change. Where hints are given is one decision
(:mod:`bot.core.messages.hinting`). The seat's view is read on the game's sequence; the
expert thinks outside it, in the worker process where its plays are made
(:meth:`~bot.core.games.computer.ComputerPlayers.hint`), so neither the loop nor the table
waits on it. The same position gives the same hint (its play-outs are seeded by the game,
its version and the seat), and each hint is counted for the seat: the result and the review
say the game was played with hints.
"""

from __future__ import annotations

import hashlib

from bot.core.base import refusals
from bot.core.base.entry import answers
from bot.core.base.refusals import Refused, StaleControl
from bot.core.base.replies import Answer, Click, User
from bot.core.games.computer import ComputerPlayers
from bot.core.games.games import Games, OnGames
from bot.core.games.records import GameRecord
from bot.core.messages.hinting import hint_refusal
from bot.core.messages.lesson import hint_figures, learning
from engine.hint import NOTHING_TO_DECIDE
from engine.phase import Phase
from engine.views import SeatView

__all__ = ["HINT_MARK", "Hints", "hint_seed"]

#: What a hint's answer begins with.
HINT_MARK = "💡 Hint:"


def hint_seed(game_id: int, version: int, seat: int) -> int:
    """The seed of a hint's play-outs: the same position (game, version, seat) gives the same
    hint, however often it is asked."""
    digest = hashlib.blake2b(f"{game_id}:{version}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _current(click: Click, record: GameRecord, view: SeatView) -> bool:
    """Whether a *Hint* belongs to the moment the game is at: a discard's names its deal,
    a play's the game's version (as the controls beside it do)."""
    if view.phase is Phase.DISCARD:
        return click.stamp == view.deal_number
    return click.stamp == record.version


class Hints(OnGames):
    """The expert's hints, asked for from a hand."""

    def __init__(self, games: Games, computers: ComputerPlayers) -> None:
        self._games = games
        self._computers = computers

    @answers
    async def hint(self, click: Click, user: User, *, guild_id: int | None) -> Answer:
        """The hint for ``user``'s seat at the game ``click`` names (made in the server
        ``guild_id``; None: outside servers), privately: the expert's choice and why, or
        why none is given (not at this table, nothing to decide now, an older hand)."""

        async def body(record: GameRecord) -> tuple[SeatView, int, int, bool]:
            refusal = hint_refusal(record)
            if refusal is not None:
                raise Refused(refusal)
            loaded, seat = self._games.loaded.seated(record, user)
            view = loaded.game.view(seat)
            if not _current(click, record, view):
                raise StaleControl(refusals.STALE_HINT, record.id)
            return view, seat, hint_seed(record.id, record.version, seat), learning(record)

        games = self._games
        found = await games.by_id(click.game_id, body, user=user, guild_id=guild_id)
        view, seat, seed, learner = found
        try:
            said = await self._computers.hint(view, seed)
        except ValueError:
            raise Refused(NOTHING_TO_DECIDE) from None
        await self._games.store.take_hint(click.game_id, seat)
        line = f"{HINT_MARK} {said.line}."
        # A learner is told what the figures mean; a player who chose a table is not.
        figures = hint_figures(said.kind, said.line) if learner else ""
        return Answer.say(f"{line}\n{figures}" if figures else line)
