"""Ranked play across servers: the queue, best-of-three matches played apart (each player where
they queued), the turn clock, and a global ladder with monthly seasons.

Start with :mod:`bot.core.ranked.wing`, which puts the parts together; the calls the Discord
layer makes are :mod:`bot.core.ranked.ranked`'s.
"""
