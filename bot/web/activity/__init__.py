"""The game as an Activity: a page inside Discord (the Embedded App SDK), served by the game
pages' server.

``sessions`` signs who a page belongs to, ``identity`` is what the server asks of Discord to
know it (the OAuth2 code grant, the person, the Activity's instance), ``state`` draws the
channel's game as one person may see it, and ``server`` serves the page, its live updates and
the moves made from it. The page itself is built from ``activity/`` at the repository's root
(``bash activity/build.sh``: the SDK from npm, bundled by esbuild) into ``static/``, which is
committed, so ``pip install`` alone serves it.
"""
