"""A finished game in one compact record: enough to replay it, kept after the rest is pruned.

A game's snapshot and its action log take some 18 KB for a two-player game; once the game is
long over (the retention period), only its results and this record are kept. The record is
the game's seats' names and options (its rules whole, when they are not the standard game's),
every shuffle it had (:mod:`bot.core.deck.shuffles`) and its
action log, as JSON compressed with zlib: about 1 KB. :func:`restore` replays it into the
game, its tally and its deal log exactly as the last snapshot held them (checked when the
record is made: a game whose replay would differ, or that was begun before shuffles were
recorded, keeps its last snapshot, compressed, instead).

>>> import random
>>> from bot.core.games.deal_log import DealLog
>>> from bot.core.games.tally import Tally
>>> from engine.game import Game
>>> shuffles: list[str] = []
>>> from bot.core.deck.shuffles import RecordingRandom
>>> game, events = Game.new(["Al", "Bea"], rng=RecordingRandom(random.Random(3), shuffles))
>>> _ = game.resign(0)
>>> tally, log = Tally.empty(2), DealLog.start(2)
>>> tally.add(events); log.add(events)
>>> kept = compact(snapshot.encode(game, tally, log, shuffles))
>>> restore(kept).game.to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import json
import random
import zlib
from typing import Any

from bot.core.deck.shuffles import ScriptedRandom, ShufflesExhausted
from bot.core.games import snapshot
from bot.core.games.deal_log import DealLog
from bot.core.games.tally import Tally
from engine.errors import RuleError
from engine.game import Game
from engine.rules import Rules

__all__ = ["ARCHIVE_FORMAT", "ArchiveError", "compact", "restore"]

#: The shape :func:`compact` writes.
ARCHIVE_FORMAT = 1


class ArchiveError(ValueError):
    """A record this code cannot read, or one whose replay fails."""


def _pack(data: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), level=9)


def compact(text: str) -> bytes:
    """The archive record of a game from its last snapshot: its replay (options, shuffles,
    action log), or, when it cannot be replayed to exactly that snapshot, the snapshot."""
    try:
        kept = snapshot.decode(text, random.Random(0))
    except ValueError:
        # Unreadable to this code (damaged, or a newer format): kept as it is.
        return _pack({"format": ARCHIVE_FORMAT, "snapshot": text})
    game = kept.game
    if kept.shuffles is not None:
        record = {
            "format": ARCHIVE_FORMAT,
            "players": list(game.state.players),
            "target": game.state.rules.target,
            "scoring": game.state.rules.scoring.value,
            "counting": game.state.rules.counting.value,
            "shuffles": kept.shuffles,
            "actions": game.actions,
        }
        # A game by other rules than the standard game's for its options keeps them whole
        # (records of standard games stay as they were).
        if not game.state.rules.is_standard:
            record["rules"] = game.state.rules.to_dict()
        if game.state.given_dealer is not None:
            # A following game dealt first by the rule, not a cut (records of the others stay
            # as they were).
            record["dealer"] = game.state.given_dealer
        if kept.seeds is not None:
            record["seeds"] = kept.seeds
        try:
            replayed = _replay(record)
        except (ArchiveError, RuleError, ValueError, KeyError):
            replayed = None
        if (
            replayed is not None
            and replayed.game.to_dict() == game.to_dict()
            and replayed.tally.to_list() == kept.tally.to_list()
        ):
            return _pack(record)
    return _pack({"format": ARCHIVE_FORMAT, "snapshot": text})


def restore(blob: bytes) -> snapshot.Snapshot:
    """The game a record holds, as its last snapshot had it (the deal log's coach lines
    aside: they are private and need no keeping)."""
    try:
        data = json.loads(zlib.decompress(blob))
    except (zlib.error, ValueError) as error:
        raise ArchiveError(f"This is not a game's archive record ({error}).") from None
    if not isinstance(data, dict) or data.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError("This archive record is of a format this code does not read.")
    if "snapshot" in data:
        return snapshot.decode(str(data["snapshot"]), random.Random(0))
    try:
        return _replay(data)
    except (RuleError, ValueError, KeyError) as error:
        raise ArchiveError(f"This archive record does not replay ({error}).") from None


def _replay(data: dict[str, Any]) -> snapshot.Snapshot:
    """Deal again with the recorded shuffles and apply every logged action, keeping the tally
    and the deal log as the game service does."""
    shuffles = [str(deck) for deck in data["shuffles"]]
    rng = ScriptedRandom(shuffles)
    players = [str(name) for name in data["players"]]
    rules = Rules.saved(data, len(players))
    given = data.get("dealer")
    dealer = None if given is None else int(given)
    game, events = Game.new(players, rng=rng, rules=rules, dealer=dealer)
    tally = Tally.empty(game.state.num_players)
    log = DealLog.start(game.state.rules.num_sides)
    tally.add(events)
    log.add(events)
    for action in data["actions"]:
        events = game.apply(action)
        tally.add(events)
        log.add(events)
    if not rng.used_all:
        raise ShufflesExhausted("The game shuffled more often than the replay.")
    seeds = data.get("seeds")
    return snapshot.Snapshot(
        game, tally, log, shuffles, None if seeds is None else [str(s) for s in seeds]
    )
