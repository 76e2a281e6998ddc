"""Reviews of finished games: each decision beside the expert's, made by themselves once a game
ends, the replay of a game and the check of its shuffles.
"""
