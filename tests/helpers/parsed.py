"""Python source parsed once a test process.

The static checks (the doors and floors, the store's discipline, the caches, the rules held in
one value, the sizes...) each read the bot's modules as syntax trees, and each parsed them
again: some 10,000 parses a run, 65 s of its CPU. A text is parsed here the first time it is
asked for, and the same tree is handed to every later asker in the process: read it, never
change it.
"""

from __future__ import annotations

import ast
from functools import cache

__all__ = ["parsed"]


@cache
def _tree(source: str) -> ast.Module:
    return ast.parse(source)


def parsed(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source, filename)``, made once a process for each text (``filename`` names
    the source in a syntax error, as ``ast.parse``'s does, and nowhere else)."""
    try:
        return _tree(source)
    except SyntaxError:
        return ast.parse(source, filename)  # raised again, naming the file
