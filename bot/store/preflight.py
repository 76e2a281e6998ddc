"""Checks made before a SQLite file is opened, so that what would corrupt it is refused.

:func:`check_file` runs before SQLite opens the file: SQLite writes to a file it is given
(a journal beside it, a header if it is empty), so a file that is not a SQLite database, or
one cut short, is refused on its first bytes alone and left exactly as it was; so is a path on
a read-only file system (a read-only mount), where the bot could not record a move. It raises
:class:`~bot.core.base.store_errors.UnusableStore` with one sentence saying what to do.
:func:`read_only` says why a file SQLite could not write is read-only.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.core.base.store_errors import UnusableStore

__all__ = ["HEADER", "check_file", "check_readable", "read_only"]

#: The first 16 bytes of every SQLite 3 database file.
HEADER = b"SQLite format 3\x00"
#: The size of the database header (the first page holds it).
HEADER_SIZE = 100


def _on_read_only_mount(folder: Path) -> bool:
    """Whether ``folder`` is on a file system mounted read-only (nobody may write there, root
    included)."""
    return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)


def read_only(path: Path) -> str | None:
    """Why the database at ``path`` cannot be written, as a sentence saying what to do, or
    None if neither it nor its folder is read-only. SQLite needs both: it writes the file, and
    beside it the ``-wal`` and ``-shm`` files of WAL mode."""
    folder = path.parent
    if _on_read_only_mount(folder):
        return (
            f"it is on a read-only file system (its folder {folder} is mounted read-only), and "
            "the bot records every move in it: mount it read-write, or choose a path on a "
            "writable disk."
        )
    file = path.exists() and not os.access(path, os.W_OK)
    beside = not os.access(folder, os.W_OK)
    who = "for the user the bot runs as"
    if file and beside:
        return (
            f"the file and its folder {folder} are read-only {who}: make both writable by that "
            "user (SQLite writes the file, and its -wal and -shm files beside it)."
        )
    if file:
        return f"the file is read-only {who}: make it writable by that user."
    if beside:
        what = "the file and its" if not path.exists() else "its"
        return (
            f"its folder {folder} is read-only {who}, and SQLite must create {what} -wal and "
            "-shm files there: make the folder writable by that user."
        )
    return None


def check_file(path: Path) -> None:
    """Refuse a path SQLite must not open: a directory, a file in a folder that does not
    exist or on a read-only file system, a new file in a folder that is read-only, a file
    that is read-only, not a SQLite database, or shorter than its header says. A path with no
    file (or an empty file) is fine: it becomes a new database. Only reads."""
    check_readable(path)
    folder = path.parent
    if _on_read_only_mount(folder) or not path.exists() or not os.access(path, os.W_OK):
        # Refused before SQLite fails on it less clearly ("unable to open database file"),
        # or opens a read-only file and leaves empty -wal and -shm files beside it. (A
        # read-only folder with a writable file is SQLite's to judge: it can use -wal and -shm
        # files already there.)
        why = read_only(path)
        if why is not None:
            raise UnusableStore(why)


def check_readable(path: Path) -> None:
    """Refuse a path whose database cannot be read as it is: a directory, a file in a folder
    that does not exist, or a file that is not a SQLite database or is shorter than its header
    says (what :func:`check_file` refuses but the read-only cases: the maintenance commands
    that only read, ``health`` and ``backup``, need no more). Only reads."""
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
    if path.exists():
        _check_contents(path)


def _check_contents(path: Path) -> None:
    """Refuse a file that is not a SQLite database or is shorter than its header says (an
    empty file is fine)."""
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
