"""``python -m bot ratings``: recompute the ratings from the stored results.

Every rating, per-player total and head to head is derived from the ``results`` table, in the
order the results were recorded. ``--check`` recomputes them and says whether the stored
numbers are reproduced exactly (exit status 1 if not); ``--rebuild`` also stores the recomputed
numbers in their place. The database is ``--database`` (a SQLite file's path or a PostgreSQL URL),
or the one the bot's settings name (``DATABASE_URL`` or ``DATABASE_PATH``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.store.standings import Replayed
from bot.tools import DONE, FAILED, counted, run_on_database, tool_parser


def differences(stored: Replayed, recomputed: Replayed) -> list[str]:
    """What differs between the stored numbers and the recomputed ones, one line each."""
    lines = []
    tables: list[tuple[str, Mapping[Any, object], Mapping[Any, object]]] = [
        ("standings", stored.standings, recomputed.standings),
        ("head to head", stored.rivals, recomputed.rivals),
    ]
    for what, mine, theirs in tables:
        for key in sorted(mine.keys() | theirs.keys()):
            if mine.get(key) != theirs.get(key):
                lines.append(f"{what} {key}: stored {mine.get(key)}, recomputed {theirs.get(key)}")
    if stored.changes != recomputed.changes:
        changed = sum(a != b for a, b in zip(stored.changes, recomputed.changes, strict=False))
        lines.append(
            f"rating changes: {len(stored.changes)} stored, {len(recomputed.changes)}"
            f" recomputed, {changed} of them different"
        )
    return lines


async def run(database: str | Path, *, write: bool) -> int:
    """Check (and with ``write``, rebuild) the ratings in ``database`` (a path or a URL);
    prints what it found and returns the exit status."""
    async with await Store.open(database) as store:
        stored = await store.stored_ratings()
        recomputed = await store.replay_ratings()
        differ = differences(stored, recomputed)
        games = len({c.game_id for c in recomputed.changes})
        print(
            f"{counted(games, 'rated game')}: {counted(len(recomputed.standings), 'standing')},"
            f" {counted(len(recomputed.changes), 'rating change')},"
            f" {counted(len(recomputed.rivals), 'head-to-head row')}."
        )
        if not differ:
            print("The stored numbers are reproduced exactly.")
        else:
            print(f"{counted(len(differ), 'difference')} from the stored numbers:")
            for line in differ[:20]:
                print(f"  {line}")
        if write:
            await store.rebuild_ratings()
            print("Stored the recomputed numbers.")
            return DONE
        return FAILED if differ else DONE


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = tool_parser("python -m bot ratings", __doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="recompute and compare only")
    action.add_argument("--rebuild", action="store_true", help="recompute and store")
    parser.add_argument(
        "--database",
        help="a SQLite file or a postgresql:// URL (default: DATABASE_URL or DATABASE_PATH)",
    )
    args = parser.parse_args(argv)
    return run_on_database(args.database, lambda database: run(database, write=args.rebuild))
