"""Tournaments: the events, their entrants and rounds, the director that pairs and runs them, and
the live message.
"""
