"""Every deal's final table, however far the game has gone on before it could be sent.

The channel's tables are the game's record: each deal's calls and its show, itemised. A deal's
table is drawn from the deal log, which keeps the current deal and the two before
(:mod:`bot.core.games.deal_log`); a game played faster than the channel takes messages (Discord:
5 new ones in 5 s: a game against the computer, a bot that comes back to a backlog after an
outage) may go three deals past a table before its last edit, or its post, could go. A newer
deal may supersede a table's *live* look, never the deal's own final table: the log keeps the
version each deal was dealt at, for every deal, so a table the log dropped is known to show its
final look (drawn at a version from its next deal's on) or not (:func:`behind`); one that does
not is drawn again from the game told again (:func:`told_again`: dealt again from its recorded
shuffles, every logged action applied in turn, its log keeping every deal), once, and sent in
its deal's place among the tables.

At a private table (one message, edited through interactions' tokens) a deal's table is a look
of that message: the deal before's show stays above the current deal while it is played, and
every deal the look last shown missed (:func:`unseen`) is shown there too, so nobody misses a
show, whatever the pace.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

from bot.core.base.keys import MessageKey
from bot.core.base.views import MessageRecord
from bot.core.deck.shuffles import ScriptedRandom
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Loaded
from engine.game import Game
from engine.rules import Rules

__all__ = ["behind", "dealt_again", "finishing", "told_again", "unseen"]


def behind(log: DealLog, sent: Mapping[MessageKey, MessageRecord]) -> list[int]:
    """The deals ``log`` no longer keeps whose table is not known to show its final look: never
    sent, or last drawn before the next deal was dealt (``sent``: what each message shows, as
    the ledger keeps it). A deal dealt before the versions were kept is left as it was."""
    kept = [d for d in log.deals if d >= 1]
    if not kept:
        return []
    return _not_final(log, sent, range(1, min(kept)))


def finishing(log: DealLog, sent: Mapping[MessageKey, MessageRecord]) -> list[int]:
    """The deals ``log`` still keeps, over (the next deal dealt), whose table is not known to
    show its final look yet: their final tables, drawn now from the log, are kept for when the
    log drops them (no need to tell the game again then)."""
    return _not_final(log, sent, [d for d in log.deals if d >= 1 and d + 1 in log.deals])


def _not_final(
    log: DealLog, sent: Mapping[MessageKey, MessageRecord], deals: Iterable[int]
) -> list[int]:
    """Those of ``deals`` whose table was never sent, or last drawn before the next deal was
    dealt (a deal dealt before the versions were kept: taken as final)."""
    late: list[int] = []
    for deal in deals:
        following = log.began.get(deal + 1)
        if following is None:
            continue
        record = sent.get(MessageKey.table(deal))
        if record is None or record.version < following:
            late.append(deal)
    return late


def unseen(log: DealLog, deal_now: int, shown: MessageRecord | None) -> list[int]:
    """At a private table, the deals before the current one (``deal_now``) whose final look the
    table may never have shown: every deal from the one played when the look it shows now
    (``shown``) was drawn. Empty when that look was drawn in the current deal, or when the
    versions its deals were dealt at are not known (a game dealt before they were kept)."""
    if shown is None or not log.began:
        return []
    drawn_in = max((d for d, version in log.began.items() if version <= shown.version), default=1)
    return list(range(drawn_in, deal_now))


async def told_again(loaded: Loaded) -> DealLog | None:
    """The game's deal log as it would be had it kept every deal: the game dealt again from its
    recorded shuffles and every logged action applied in turn (the engine gives each action the
    events it gave the first time), on a worker thread (a long game's replay takes some
    milliseconds of work that would hold up every other game's messages). None for a game
    begun before its shuffles were recorded."""
    if loaded.shuffles is None:
        return None
    game = loaded.game
    # (Copied here: the game goes on in this thread meanwhile.)
    players, actions, shuffles = list(game.state.players), list(game.actions), list(loaded.shuffles)
    told = await asyncio.to_thread(
        _replayed, players, game.state.rules, game.state.given_dealer, shuffles, actions
    )
    told.began = dict(loaded.log.began)
    return told


def _replayed(
    players: list[str],
    rules: Rules,
    dealer: int | None,
    shuffles: list[str],
    actions: list[dict[str, Any]],
) -> DealLog:
    """The deal log of a game dealt again from ``shuffles`` with ``actions`` applied."""
    again, told = dealt_again(players, rules, dealer, ScriptedRandom(shuffles))
    for action in actions:
        told.add(again.apply(action))
    return told


def dealt_again(
    players: list[str], rules: Rules, dealer: int | None, rng: ScriptedRandom
) -> tuple[Game, DealLog]:
    """A game dealt again from ``rng`` (its recorded shuffles), no action applied yet, and its
    deal log, which keeps every deal (the one way a game is told again: here for its final
    tables, and for its page, :class:`~bot.core.messages.spectator.DealHistory`)."""
    again, first = Game.new(players, rng=rng, rules=rules, dealer=dealer)
    log = DealLog.start(again.state.rules.num_sides, every_deal=True)
    log.add(first)
    return again, log
