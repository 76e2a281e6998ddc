"""A strict applier of unified diffs (``diff -u``), for the old migration files kept as diffs
against today's (tests/helpers/old_releases.py).

Strict, because what it rebuilds must be what git had to the byte: each hunk applies only at
the line its header names, every context and removed line must be the line found there, the
counts in the header must match the hunk, and hunks come in order without overlapping. Anything
else raises :class:`DiffMismatch` naming the line; there is no fuzz and no offset. Lines are
split at ``\\n`` alone, so a ``\\r`` before it is part of the line, and ``\\ No newline at end
of file`` is honoured on either side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DiffMismatch", "apply_unified_diff"]

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_NO_NEWLINE = "\\ No newline at end of file"


class DiffMismatch(ValueError):
    """The diff does not apply to the text as it is, or is not a well-formed unified diff."""


@dataclass
class _Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    #: Each line of the hunk: its mark (" ", "-" or "+") and its text with its line end.
    body: list[tuple[str, str]]

    def at(self, start: int, count: int) -> int:
        """The index of the hunk's first line on one side (a side with no lines names the line
        it follows)."""
        return start if count == 0 else start - 1


def _lines(text: str) -> list[str]:
    """``text`` split after each ``\\n`` (only), each line keeping its end."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _parse(diff: str) -> list[_Hunk]:
    lines = _lines(diff)
    if len(lines) < 2 or not lines[0].startswith("--- ") or not lines[1].startswith("+++ "):
        raise DiffMismatch("a unified diff starts with a '--- ' and a '+++ ' line")
    hunks: list[_Hunk] = []
    number = 2
    while number < len(lines):
        header = _HUNK.match(lines[number])
        if header is None:
            raise DiffMismatch(
                f"diff line {number + 1}: expected a hunk header, found {lines[number]!r}"
            )
        old_start, old_count, new_start, new_count = (
            int(group) if group is not None else 1 for group in header.groups()
        )
        hunk = _Hunk(old_start, old_count, new_start, new_count, [])
        number += 1
        old_left, new_left = old_count, new_count
        while old_left or new_left:
            if number == len(lines):
                raise DiffMismatch(f"the diff ends inside the hunk {header.group(0)}")
            line = lines[number]
            mark, text = line[:1], line[1:]
            if mark == "\\" and line.rstrip("\n") == _NO_NEWLINE and hunk.body:
                hunk.body[-1] = _cut_newline(hunk.body[-1], number)
            elif mark in (" ", "-") and old_left and (mark == "-" or new_left):
                hunk.body.append((mark, text))
                old_left -= 1
                if mark == " ":
                    new_left -= 1
            elif mark == "+" and new_left:
                hunk.body.append((mark, text))
                new_left -= 1
            else:
                raise DiffMismatch(
                    f"diff line {number + 1}: {line!r} does not fit the hunk {header.group(0)}"
                )
            number += 1
        if number < len(lines) and lines[number].rstrip("\n") == _NO_NEWLINE and hunk.body:
            hunk.body[-1] = _cut_newline(hunk.body[-1], number)
            number += 1
        hunks.append(hunk)
    return hunks


def _cut_newline(entry: tuple[str, str], number: int) -> tuple[str, str]:
    """The line before a ``\\ No newline at end of file`` mark, without its line end."""
    mark, text = entry
    if not text.endswith("\n"):
        raise DiffMismatch(f"diff line {number + 1}: a second 'No newline' mark for one line")
    return mark, text[:-1]


def apply_unified_diff(original: str, diff: str) -> str:
    """``original`` changed as ``diff`` says; raises :class:`DiffMismatch` where a line it
    expects is not the line ``original`` has there (see the module's docstring)."""
    source = _lines(original)
    result: list[str] = []
    read = 0
    for hunk in _parse(diff):
        start = hunk.at(hunk.old_start, hunk.old_count)
        if start < read or start > len(source):
            raise DiffMismatch(
                f"the hunk at line {hunk.old_start} overlaps the one before it or lies past the"
                f" end ({len(source)} lines)"
            )
        result.extend(source[read:start])
        read = start
        if len(result) != hunk.at(hunk.new_start, hunk.new_count):
            raise DiffMismatch(
                f"the hunk at line {hunk.old_start} says it makes line {hunk.new_start},"
                f" but it makes line {len(result) + 1}"
            )
        for mark, text in hunk.body:
            if mark in (" ", "-"):
                found = source[read] if read < len(source) else "(the end of the text)"
                if found != text:
                    raise DiffMismatch(
                        f"line {read + 1}: the diff expects {text!r}, the text has {found!r}"
                    )
                read += 1
            if mark in (" ", "+"):
                result.append(text)
    result.extend(source[read:])
    return "".join(result)
