"""Games: a stored game (its sequence, loading and saving), its lobby, its deals and records, the
computer seats, the coach's settings and housekeeping. The moves are made in ``bot.core.play``;
the messages a game keeps are drawn in ``bot.core.messages``.
"""
