"""``python -m bot.verify``: the name table messages posted before ``python -m bot verify`` gave
this check, kept so that those messages still say something that works (see
:mod:`bot.tools.verify`)."""

from __future__ import annotations

import sys

from bot.tools.verify import main

if __name__ == "__main__":
    sys.exit(main())
