"""The messages a game keeps: the table in the channel, each player's hand, the lobby, a private
table's copies, and the pictures they name, drawn from the stored game for the ledger.
"""
