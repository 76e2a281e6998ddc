"""A started game as the store keeps it: the engine's state, the per-seat tally, the deal
log (what the table shows) and every shuffle so far, as JSON.

``{"format": 3, "game": Game.to_dict(), "tally": [per-seat totals], "log": DealLog.to_dict(),
"shuffles": ["...", ...], "seeds": ["...", ...]}``. Written and read only here, so a change
of shape is made in one place, and a snapshot of a format this code does not know is refused
instead of half-read.
Formats 1 (before the deal log) and 2 (before the shuffles) are still read: a format-1 game
gets an empty log with the pegs at the scores; a game without its shuffles (``None``) goes on
as before, and cannot be replayed from its action log (:mod:`bot.core.games.archive`). ``seeds``
(the secret seed of each shuffle, :mod:`bot.core.deck.seeded`) is there for games begun since
shuffles were sealed; older games have none, and their deals cannot be checked.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from bot.core.deck.seeded import SeedDealer
from bot.core.deck.shuffles import RecordingRandom
from bot.core.games.deal_log import DealLog
from bot.core.games.tally import Tally
from engine.errors import RuleError
from engine.game import Game

__all__ = [
    "SNAPSHOT_FORMAT",
    "DamagedSnapshot",
    "Snapshot",
    "SnapshotError",
    "UnknownFormat",
    "decode",
    "encode",
]

#: The shape written by :func:`encode`; :func:`decode` reads it and the one before.
SNAPSHOT_FORMAT = 3
_READABLE = (1, 2, 3)


class SnapshotError(ValueError):
    """A stored snapshot this code cannot read (a newer format, or not a snapshot at all)."""


class UnknownFormat(SnapshotError):
    """A snapshot of a format this code does not read (written by a newer release)."""


class DamagedSnapshot(SnapshotError):
    """Text that is not a readable snapshot of any format: cut short, changed, not JSON."""


#: What reading a damaged snapshot raises on the way (anything else is a bug, not damage).
_DAMAGE = (ValueError, KeyError, TypeError, IndexError, AttributeError, RuleError)


@dataclass(slots=True)
class Snapshot:
    """A started game: the engine's state, where each seat's points came from, what the
    table has seen, and every shuffle so far (None for a game begun before they were
    recorded) with its seed (None for a game begun before they were sealed)."""

    game: Game
    tally: Tally
    log: DealLog
    shuffles: list[str] | None = None
    seeds: list[str] | None = None


def encode(
    game: Game,
    tally: Tally,
    log: DealLog,
    shuffles: list[str] | None = None,
    seeds: list[str] | None = None,
) -> str:
    """The snapshot as compact JSON."""
    data = {
        "format": SNAPSHOT_FORMAT,
        "game": game.to_dict(),
        "tally": tally.to_list(),
        "log": log.to_dict(),
    }
    if shuffles is not None:
        data["shuffles"] = shuffles
    if seeds is not None:
        data["seeds"] = seeds
    return json.dumps(data, separators=(",", ":"))


def decode(text: str, rng: random.Random) -> Snapshot:
    """Rebuild a snapshot written by :func:`encode`; the game draws from ``rng`` from now on
    (each shuffle recorded with the others, when the game has them).

    Raises :class:`UnknownFormat` for another format, :class:`DamagedSnapshot` for text that
    is not a snapshot (both :class:`SnapshotError`).
    """
    try:
        data = json.loads(text)
    except _DAMAGE as error:
        raise DamagedSnapshot(f"The snapshot is not JSON ({error}).") from None
    found = data.get("format") if isinstance(data, dict) else None
    if not isinstance(found, int) or isinstance(found, bool):
        raise DamagedSnapshot("The snapshot has no format number.")
    if found not in _READABLE:
        raise UnknownFormat(
            f"This game was saved in snapshot format {found!r}; this version of the bot reads "
            f"formats {', '.join(map(str, _READABLE))}."
        )
    try:
        return _read(data, rng)
    except _DAMAGE as error:
        raise DamagedSnapshot(f"The snapshot does not read as a game ({error!r}).") from None


def _read(data: dict[str, Any], rng: random.Random) -> Snapshot:
    """The snapshot in ``data``, of a format this code reads."""
    seeds = data.get("seeds")
    if seeds is not None:
        # Every shuffle to come is sealed too, with the secure source under ``rng``.
        seeds = [str(seed) for seed in seeds]
        rng = SeedDealer(rng.source if isinstance(rng, SeedDealer) else rng, seeds)
    shuffles = data.get("shuffles")
    if shuffles is not None:
        shuffles = [str(deck) for deck in shuffles]
        rng = RecordingRandom(rng, shuffles)
    game = Game.from_dict(data["game"], rng=rng)
    if "log" in data:
        log = DealLog.from_dict(data["log"])
    else:
        log = DealLog(pegs=[(score, score) for score in game.state.scores])
    return Snapshot(game, Tally.from_list(data["tally"]), log, shuffles, seeds)
