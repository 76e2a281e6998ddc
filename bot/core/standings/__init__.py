"""Standings: ratings from each finished game, the leaderboard, a player's stats and charts, head
to head.
"""
