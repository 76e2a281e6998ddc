"""The Discord bot: slash commands and components over the game service.

Three packages, imported in one direction: ``bot.discord`` (the client, commands, components
and sending) calls ``bot.core`` (the Discord-free game service, replies and rendering), which
keeps games in ``bot.store`` (the database). This ``__init__`` stays empty on purpose, so tests
of the core never pull in discord.py. Run the bot with ``python -m bot`` (see ``bot.__main__``).
"""
