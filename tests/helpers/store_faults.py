"""A store that fails as a full disk makes it fail, for the tests of what the bot says then."""

from __future__ import annotations

from bot.store import Store
from bot.store.sqlite import SqliteDatabase

__all__ = ["fill_up"]


async def fill_up(store: Store) -> None:
    """Make the database's storage full, as the driver reports it: SQLite may grow no more
    pages; PostgreSQL fails every write of a game with ``disk_full`` (53100), word for word
    as it does when the disk is full.

    A test's SQLite file has room to spare in its pages; with pages of 512 bytes (the file
    rebuilt, which leaves no free page) a game's snapshot spills onto pages of its own, and
    SQLite writes a changed one to new pages before it frees the old: every move needs a new
    page, and there is none. (Changing the page size needs the file to itself: no other
    connection may be open on it.)"""
    db = store.db
    if isinstance(db, SqliteDatabase):
        connection = db.connection
        async with db._lock:  # between the units of work of a bot running on it
            await connection.execute("PRAGMA journal_mode = DELETE")
            await connection.execute("PRAGMA page_size = 512")
            await connection.execute("VACUUM")
            await connection.execute("PRAGMA journal_mode = WAL")
            [(pages,)] = await connection.execute_fetchall("PRAGMA page_count")
            [(free,)] = await connection.execute_fetchall("PRAGMA freelist_count")
            assert free == 0
            [(cap,)] = await connection.execute_fetchall(f"PRAGMA max_page_count = {int(pages)}")
            assert cap == pages
        return
    await db.execute(
        "CREATE FUNCTION crib_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " RAISE EXCEPTION 'could not extend file \"base/16384/16390\": No space left on device'"
        " USING ERRCODE = 'disk_full', HINT = 'Check free disk space.'; END $$"
    )
    for table in ("games", "actions", "seats"):
        await db.execute(
            f"CREATE TRIGGER crib_disk_full BEFORE INSERT OR UPDATE ON {table}"
            " FOR EACH ROW EXECUTE FUNCTION crib_disk_full()"
        )
