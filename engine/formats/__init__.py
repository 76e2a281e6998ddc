"""Tournament formats, one strategy each, and the registry of them by name.

Each module here other than :mod:`~engine.formats.base` is one format that registers itself
(``@register``); importing this package imports every one of them, so a new format (double
elimination, Monrad, ...) is one new file in this folder, and the bot offers it, stores it
and runs it without another change. See :mod:`engine.formats.base` for what a format does.

>>> [f.name for f in listed()]
['swiss', 'round_robin', 'knockout']
"""

from __future__ import annotations

import importlib
import pkgutil

# The package's names are base's, listed once, in base.__all__ (asyncio's package does the same).
from engine.formats import base
from engine.formats.base import *  # noqa: F403

__all__ = base.__all__

for _module in pkgutil.iter_modules(__path__):  # noqa: F405 (the package's own)
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")
