"""Checks made before a SQLite file is opened, so that what would corrupt it is refused.

:func:`check_file` runs before SQLite opens the file: SQLite writes to a file it is given
(a journal beside it, a header if it is empty), so a file that is not a SQLite database, or
one cut short, is refused on its first bytes alone and left exactly as it was. It raises
:class:`~bot.core.storage.UnusableStore` with one sentence saying what to do.
"""

from __future__ import annotations

from pathlib import Path

from bot.core.storage import UnusableStore

__all__ = ["HEADER", "check_file"]

#: The first 16 bytes of every SQLite 3 database file.
HEADER = b"SQLite format 3\x00"
#: The size of the database header (the first page holds it).
HEADER_SIZE = 100


def check_file(path: Path) -> None:
    """Refuse a path SQLite must not open: a directory, a file in a folder that does not
    exist, a file that is not a SQLite database, or one shorter than its header says. A path
    with no file (or an empty file) is fine: it becomes a new database. Only reads."""
    if path.is_dir():
        raise UnusableStore(
            "it is a directory, not a file: give the path of the database file, "
            f"such as {path / 'cribbage.db'}."
        )
    folder = path.parent
    if not folder.is_dir():
        raise UnusableStore(
            f"its folder {folder} does not exist: create it, or choose another path."
        )
    if not path.exists():
        return
    if not path.is_file():
        raise UnusableStore("it is not a regular file: choose the path of a database file.")
    size = path.stat().st_size
    if size == 0:
        return
    with path.open("rb") as file:
        header = file.read(HEADER_SIZE)
    if not header.startswith(HEADER[: len(header)]):
        raise UnusableStore(
            "it is not a SQLite database (its first bytes are not SQLite's header), so it was "
            "left as it is: move it away, or choose another path."
        )
    expected = _size_in_header(header)
    if len(header) < HEADER_SIZE or (expected is not None and size < expected):
        shown = f" ({size:,} of {expected:,} bytes)" if expected else ""
        raise UnusableStore(
            f"the file is shorter than its header says{shown}: it was truncated or damaged. "
            "Restore it from a backup, or choose another path."
        )


def _size_in_header(header: bytes) -> int | None:
    """The file size the header promises (page size times pages), when the header says it
    reliably (its "valid for" counter matches the change counter), else None."""
    if len(header) < HEADER_SIZE:
        return None
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65_536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if header[24:28] != header[92:96] or pages == 0:
        return None
    return page_size * pages
