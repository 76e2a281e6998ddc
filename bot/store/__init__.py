"""The bot's database: every query, the migrations and the version checks (SQLite today).

The values it reads and writes are :mod:`bot.core.records`; its refusals are
:mod:`bot.core.storage`'s errors, raised here and answered by the service.
"""

from bot.store.sqlite import Store, migrations

__all__ = ["Store", "migrations"]
