"""Play: the services that change a game as people and time act on it: opening games and their
lobbies (``opening``), the moves of a game being played and the computer's answers (``moves``),
the moves time makes (``clock``), and what a person asks of the table (``table_info``). They
stand on ``games`` (the stored game, its rules and records) and ``messages`` (what a move
answers with).
"""
