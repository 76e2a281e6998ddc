"""A table's options in the store: the columns of ``games`` that hold its
:class:`~bot.core.games.records.Options`, their one reader and their one writer (no other code
names them: ``tests/bot/core/games/test_options_whole.py``).
"""

from __future__ import annotations

import dataclasses

from bot.core.games.records import Options
from bot.store.database import Row
from engine.counting import Counting
from engine.outcome import Scoring

__all__ = ["OPTION_COLUMNS", "options_of", "options_params"]

#: The columns of ``games`` that hold a table's :class:`Options`, named as its fields: read by
#: :func:`options_of`, written from :func:`options_params`.
OPTION_COLUMNS = tuple(field.name for field in dataclasses.fields(Options))


def options_of(row: Row) -> Options:
    """A table's options from a row of its columns (:data:`OPTION_COLUMNS`; flags as SQLite
    keeps them, 0 and 1)."""
    return Options(
        num_players=row["num_players"],
        target=row["target"],
        vs_computer=bool(row["vs_computer"]),
        scoring=Scoring(row["scoring"]),
        counting=Counting(row["counting"]),
        variant=row["variant"],
        hints=bool(row["hints"]),
    )


def options_params(options: Options) -> tuple[object, ...]:
    """A table's options as the values of its columns, in :data:`OPTION_COLUMNS`' order."""
    return (
        options.num_players,
        options.target,
        int(options.vs_computer),
        str(options.scoring),
        str(options.counting),
        options.variant,
        int(options.hints),
    )
