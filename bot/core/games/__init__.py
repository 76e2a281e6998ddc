"""Games: their lobbies, deals and moves, the computer seats, the clock, and what is kept of each
game (its records and its store's part).
"""
