"""What the tests share: rigged decks, chosen views, clocks and users, and the drivers that play
whole games through the service (``service_driver``) and through fakediscord (``table_driver``).
Import them as ``tests.helpers.<module>``."""
