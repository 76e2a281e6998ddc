"""The bot's database: every query (``store``, in one part per job), the two databases it runs
on (``sqlite``, the default, and ``postgres``), their migrations (``migrate``), what is derived
from the results (``standings``), and the processes' coordination on PostgreSQL (``cluster``).

The values it reads and writes are :mod:`bot.core.standings.records`; its refusals are
:mod:`bot.core.storage`'s errors, raised here and answered where a call enters the core.
"""

from bot.store.database import Dialect, NewerSchema, migrations
from bot.store.store import Store, is_postgres_url

__all__ = ["Dialect", "NewerSchema", "Store", "is_postgres_url", "migrations"]
