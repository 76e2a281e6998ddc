"""The messages a game keeps: the table in the channel, each player's hand, the lobby, a private
table's copies, and the pictures they name, drawn from the stored game for the ledger; and the
other views of a game drawn as the messages are (the same words, controls, board and chances):
a spectator's table on the game's page (:mod:`~bot.core.messages.spectator`), one reader's
Activity (:mod:`~bot.core.messages.activity`, its status :mod:`~bot.core.messages.presence`),
and the board's picture (:mod:`~bot.core.messages.boards`), which the outer layers read through
``services.pages`` (:mod:`bot.core.pages`) or name as values.
"""
