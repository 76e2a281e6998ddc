"""The bot's words, by who reads them.

- :mod:`~bot.core.render.text`: helpers every message uses (names, escaping, splitting);
- :mod:`~bot.core.render.calls`: the channel's calls of the table, from engine events;
- :mod:`~bot.core.render.status`: the table as a whole (``/cribbage status``);
- :mod:`~bot.core.render.lobby`: the lobby message;
- :mod:`~bot.core.render.private`: what one player is told privately (DMs, ``hand``);
- :mod:`~bot.core.render.standings`: the leaderboard and personal stats;
- :mod:`~bot.core.render.rules_help`: ``/cribbage rules``.

Channel text is made only from engine events and the public view (never a seat's view), so a
card still in someone's hand cannot reach the channel by mistake. Private text takes the one
seat's view it is for.
"""
