"""The game pages in the browser: a page per game, to watch it live or replay it.

``links`` signs and checks the pages' addresses, ``pages`` writes the HTML (from what the
channel sees, :mod:`bot.core.messages.spectator`, and the replay of a finished game,
:mod:`bot.core.review.replay`), ``server`` serves them with aiohttp and follows the change feed to
push each change to the pages open on it. ``activity`` is the game as an Activity inside
Discord, on the same server and the same feed.
"""
