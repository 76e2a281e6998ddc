"""The deck's procedure: each deal sealed by a seed drawn in secret (``seeded``), and every
shuffle recorded as it is made so a finished game can be replayed (``shuffles``). It stands on
the engine alone; the games, their review and the discard of the day deal through it.
"""
