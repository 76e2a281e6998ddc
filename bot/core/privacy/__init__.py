"""A person's data on request, and a server's once the bot has left it (issue 50, item 4):
what is kept and for how long, a file of all of it, its deletion after a confirmation
(:mod:`bot.core.privacy.players`), and the servers' data after a grace period
(:mod:`bot.core.privacy.servers`)."""
