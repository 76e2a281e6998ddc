"""A started game as the store keeps it: the engine's state and the per-seat tally, as JSON.

``{"format": 1, "game": Game.to_dict(), "tally": [per-seat totals]}``. Written and read only
here, so a change of shape is made in one place, and a snapshot of a format this code does not
know is refused instead of half-read.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from bot.core.tally import Tally
from engine.game import Game

__all__ = ["SNAPSHOT_FORMAT", "Snapshot", "SnapshotError", "decode", "encode"]

#: The shape written by :func:`encode`; :func:`decode` reads only this one.
SNAPSHOT_FORMAT = 1


class SnapshotError(ValueError):
    """A stored snapshot this code cannot read (a newer format, or not a snapshot at all)."""


@dataclass(slots=True)
class Snapshot:
    """A started game: the engine's state and where each seat's points came from."""

    game: Game
    tally: Tally


def encode(game: Game, tally: Tally) -> str:
    """The snapshot of ``game`` and ``tally`` as compact JSON."""
    return json.dumps(
        {"format": SNAPSHOT_FORMAT, "game": game.to_dict(), "tally": tally.to_list()},
        separators=(",", ":"),
    )


def decode(text: str, rng: random.Random) -> Snapshot:
    """Rebuild a snapshot written by :func:`encode`; the game draws from ``rng`` from now on.

    Raises :class:`SnapshotError` for another format.
    """
    data = json.loads(text)
    found = data.get("format") if isinstance(data, dict) else None
    if found != SNAPSHOT_FORMAT:
        raise SnapshotError(
            f"This game was saved in snapshot format {found!r}; this version of the bot reads "
            f"format {SNAPSHOT_FORMAT}."
        )
    return Snapshot(Game.from_dict(data["game"], rng=rng), Tally.from_list(data["tally"]))
