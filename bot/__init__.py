"""The Discord bot: slash commands and components over the Discord-free core.

Three packages, imported in one direction: ``bot.discord`` (the client, commands, components
and the courier) calls ``bot.core`` (games, messages, standings, tournaments, reviews: every
rule of what the bot says and does), which keeps its records in ``bot.store`` (the database).
This ``__init__`` stays empty on purpose, so tests of the core never pull in discord.py. Run
the bot with ``python -m bot`` (see ``bot.__main__``).
"""
