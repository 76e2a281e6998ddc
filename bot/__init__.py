"""The Discord bot: slash commands and components over the game service.

This package's ``__init__`` stays empty on purpose: the Discord-free core (``bot.store``,
``bot.service``, ``bot.render``) is imported by tests that must not pull in discord.py.
Run the bot with ``python -m bot`` (see ``bot.__main__``).
"""
