"""The bot's database: every query (``store``), the two databases it runs on (``sqlite``, the
default, and ``postgres``), their migrations, and what is derived from the results
(``standings``).

The values it reads and writes are :mod:`bot.core.records`; its refusals are
:mod:`bot.core.storage`'s errors, raised here and answered by the service.
"""

from bot.store.database import Dialect, NewerSchema, migrations
from bot.store.store import Store, is_postgres_url

__all__ = ["Dialect", "NewerSchema", "Store", "is_postgres_url", "migrations"]
