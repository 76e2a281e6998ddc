"""The Discord-free core of the bot, in wings that import one another in one direction only.

- ``base``: what every wing shares (owners and the change feed, message views, replies,
  faults and refusals, timing, the words every message uses, the deck's procedure);
- ``ledger``: a message's life, from a saved change to what Discord shows;
- ``games``: a stored game, its lobby, deals and records, the computer seats, housekeeping;
- ``messages``: the messages a game keeps (its table, hands, status, a private table's), drawn
  from the stored game for the ledger;
- ``play``: opening games, the moves people and time make, what a person asks of the table;
- ``standings``, ``seasons``, ``tournaments``, ``review``, ``daily``: the features built on
  finished and running games;
- ``worker``: the slow decisions, made in another process; ``pictures``: the board and charts;
  ``deck``: the deck's procedure (each deal's seal, each shuffle's record).

``services`` puts one object per job together (each wing wired in its own ``wing.py``, from
the two values of ``settings``); ``store`` names the store as the whole core uses it;
``pages`` is what the web servers read; ``acts`` what a person's command does where they are;
``sequels`` what follows an answer sent; ``sending`` what the process that sends runs. The
outer layers name only what the core's doors define (their contracts in ``faces``, and the
values, protocols and words defined low for them: ``tests/bot/test_doors.py``). Nothing
under ``bot.core`` imports discord.py or a database driver
(``tests/bot/core/test_core_purity.py`` checks it), so every rule of what the bot says and
does can be tested without Discord. ``docs/glossary.md`` gives one meaning for each word
the code uses.
"""
