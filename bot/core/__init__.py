"""The Discord-free core of the bot: the game service and everything it returns and renders.

Nothing under ``bot.core`` imports discord.py or a database driver (``tests/bot/test_purity.py``
checks it), so every rule of what the bot says and does can be tested without Discord.
"""
