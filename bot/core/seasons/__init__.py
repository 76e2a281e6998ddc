"""Seasons and the hall of fame: a server's month, its champions, famous hands and tournament
winners.
"""
