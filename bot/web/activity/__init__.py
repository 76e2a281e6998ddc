"""The game as an Activity: a page inside Discord (the Embedded App SDK), served by the game
pages' server.

``sessions`` signs who a page belongs to, ``identity`` is what the server asks of Discord to
know it (the OAuth2 code grant, the person, the Activity's instance), ``state`` draws the
channel's game as one person may see it, ``server`` serves the page and its live updates,
``acts`` is what a reader does at the table (moves, a new game, a review) and ``http`` the
requests' bodies and the answers' headers and refusals. The page itself is built from
``activity/`` at the repository's root (``bash activity/build.sh``: the SDK from npm, bundled
by esbuild) into ``static/``, which is committed, so ``pip install`` alone serves it.
"""
