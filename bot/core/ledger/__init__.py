"""The ledger: every Discord message an owner keeps, from a saved change to what Discord shows.

Start with :mod:`bot.core.ledger.life`, which tells a message's life in one place. Beside it:

- ``life``: the model: what each message should show, what it shows, what is on its way
  (sends and clicks' answers), what reaches the store;
- ``ledger``: :class:`MessageLedger`, the model kept and drawn, with a part for each job, each
  handed to whoever needs it where the bot is assembled: ``shown`` (what each message shows),
  ``writes`` (what reaches the store), ``answers`` (clicks' answers), ``copies`` (copies that
  interactions' tokens reach), ``touches`` (what a takeover looks at again);
- ``routes``: which way a message goes (a pure function: the bot's token or an interaction's,
  edit or post);
- ``transport``: what the Discord layer does for it: carry one attempt under a fence, and say
  how it went;
- ``keeper``: when: follows the feed, coalesces, paces, retries, takes over from another
  sender; beside it ``lanes`` (per channel and lane one task, and the timers), ``attempts``
  (one message sent the ways its route names, under the fence), ``hands`` (the players' hands
  and their private copies, prompts first), ``takeover`` (after another sender; lost posts)
  and ``outage`` (Discord not taking requests for a while: said once, and what waited sent as
  soon as it takes them again);
- ``pacer``: Discord's rate limits as buckets, kept before a request rather than learnt from
  a 429;
- ``tokens``: what is known of interactions' tokens: the players' DM links, follow-ups per
  token.

Discord's clocks and limits, and the bot's choices made from them, are in
:mod:`bot.core.base.timing`. The wings never import this package: they draw their messages and
tell the ledger what their changes mean for them through the port,
:mod:`bot.core.base.delivery`, which the ledger's parts implement.
"""

from bot.core.ledger.attempts import AlwaysSender, Lease
from bot.core.ledger.keeper import MessageKeeper
from bot.core.ledger.lanes import Lane
from bot.core.ledger.ledger import MessageLedger
from bot.core.ledger.life import Owing
from bot.core.ledger.pacer import Pacer
from bot.core.ledger.transport import RequestKind

__all__ = [
    "AlwaysSender",
    "Lane",
    "Lease",
    "MessageKeeper",
    "MessageLedger",
    "Owing",
    "Pacer",
    "RequestKind",
]
