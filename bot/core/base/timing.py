"""Every fact about time the delivery of messages rests on, each written once.

Discord's own clocks and limits come first, with where Discord says them; then the bot's
choices made from them (each a little inside Discord's, for clocks that differ and requests that
arrive bunched), and the times the bot's own processes agree on (the sender's lease, the
write-behind of what was sent). Whatever needs one of these imports it from here.

>>> TOKEN_USABLE < TOKEN_LIFE and DEFER_AFTER < ANSWER_WINDOW < ANSWER_LANDS_WITHIN
True
>>> CHANNEL_WRITES_TAKEN < CHANNEL_WRITES and GLOBAL_TAKEN < GLOBAL_PER_SECOND
True
"""

from __future__ import annotations

from collections import deque

__all__ = [
    "ANSWER_LANDS_WITHIN",
    "ANSWER_RETRY",
    "ANSWER_WINDOW",
    "CHANNEL_PERIOD",
    "CHANNEL_WRITES",
    "CHANNEL_WRITES_TAKEN",
    "CLOCK_SKEW",
    "DEFER_AFTER",
    "FOLLOWUPS_PER_TOKEN",
    "GLOBAL_PER_SECOND",
    "GLOBAL_TAKEN",
    "LEASE",
    "LEASE_RENEW_EVERY",
    "LEASE_SAFETY",
    "REQUEST_LANDS_WITHIN",
    "TOKEN_LIFE",
    "TOKEN_USABLE",
    "WEBHOOK_PERIOD",
    "WEBHOOK_WRITES",
    "WRITE_BEHIND",
    "InteractionAges",
    "too_late",
]

# -- Discord's facts ----------------------------------------------------------------------------
#: An interaction must be answered within 3 seconds, or Discord shows the user "This
#: interaction failed" and refuses any answer (404, 10062 Unknown interaction). (Discord:
#: "Receiving and Responding", Interactions.)
ANSWER_WINDOW = 3.0
#: An interaction's token works for 15 minutes: follow-ups, and edits of its original response
#: and of its follow-ups; after that 401 / 50027 Invalid Webhook Token. (Discord: same page.)
TOKEN_LIFE = 15 * 60.0
#: Requests with the bot's token, in all, per second (interaction callbacks and interaction
#: webhooks apart). (Discord: "Rate Limits", Global Rate Limit.)
GLOBAL_PER_SECOND = 50
#: New messages in a channel, and edits in a channel, each per 5 seconds. (Discord: "Rate
#: Limits"; the per-route buckets it reports in X-RateLimit-* headers.)
CHANNEL_WRITES = 5
CHANNEL_PERIOD = 5.0
#: Requests through one interaction's webhook (follow-ups and edits), per 2 seconds (the bucket
#: Discord reports for the webhook routes).
WEBHOOK_WRITES = 5
WEBHOOK_PERIOD = 2.0
#: Follow-ups Discord takes per interaction only a user install authorised (40094 after).
#: (Discord: "Create Followup Message".)
FOLLOWUPS_PER_TOKEN = 5

# -- The bot's choices, made from them ----------------------------------------------------------
#: A slow call on the core is deferred this long after the interaction, well inside the window.
DEFER_AFTER = 2.0
#: How far the bot's clock and Discord's may differ (NTP keeps them closer): an interaction is
#: taken as too old to answer only once it is this much past the answer window by the bot's
#: clock, and a token is used only until this long before its life ends.
CLOCK_SKEW = 2.0
#: An interaction's token is used until a minute before Discord's 15 minutes (clocks, and a
#: request that waits for its turn).
TOKEN_USABLE = TOKEN_LIFE - 60.0
#: A click's answer not heard to have reached Discord this long after it was kept is taken as
#: lost (Discord takes it within the answer window; the process that answered writes down that
#: it did a moment later): its message is edited again.
ANSWER_LANDS_WITHIN = ANSWER_WINDOW + 1.0
#: While a click's answer to a message may still be on its way, the message is looked at again
#: this often (an edit sent first would be overwritten by the answer's older look).
ANSWER_RETRY = 0.5
#: Requests the bot allows itself in any one second, in all: requests spaced here can still
#: arrive bunched (a busy event loop: 49 in one second were seen with 45 here on a loaded
#: machine), and discord.py makes a few of its own, so some are kept in hand.
GLOBAL_TAKEN = GLOBAL_PER_SECOND - 8
#: Of a channel's 5 writes per period the bot takes 4: the request that leaves a channel's
#: count at 0 is held by discord.py until the window resets (it sleeps before returning,
#: keeping its place in the global window), so the fifth change waits in the bot instead.
CHANNEL_WRITES_TAKEN = CHANNEL_WRITES - 1

# -- The bot's processes --------------------------------------------------------------------------
#: The sender's lease lapses this long after it was last renewed, by the database's clock; the
#: sender renews it this often, and stops sending this long before it would lapse, by its own
#: clock (for the time the renewal takes to reach the database).
LEASE = 1.5
LEASE_RENEW_EVERY = 0.4
LEASE_SAFETY = 0.25
#: A request written to the network reaches Discord within this long (the network, and
#: Discord's own handling). The sender before stopped writing ``LEASE_SAFETY`` before its lease
#: lapsed, and a process takes the lease only once it has lapsed: it waits the rest of this
#: before it looks at what Discord shows, and by then nothing the one before wrote is still on
#: its way.
REQUEST_LANDS_WITHIN = 0.5
#: What was sent is written to the store this long after it was sent, with whatever else was
#: sent meanwhile (one write for many messages).
WRITE_BEHIND = 0.05


def too_late(age: float, skew: float = 0.0) -> bool:
    """Whether an interaction ``age`` seconds old by the bot's clock is past Discord's answer
    window, given that the bot's clock runs ``skew`` seconds ahead of Discord's (as far as
    it is known), with :data:`CLOCK_SKEW` kept in hand: Discord has already told the user it
    failed, and nothing may be done for it.

    >>> too_late(1.0), too_late(4.5), too_late(5.5), too_late(5.5, skew=1.0)
    (False, False, True, False)
    """
    return age - skew > ANSWER_WINDOW + CLOCK_SKEW


class InteractionAges:
    """How far the bot's clock runs ahead of Discord's, as far as the interactions tell: the
    youngest of the latest ones reached the bot within moments of Discord making it, so its age
    is the skew (plus a little network). An interaction is then judged on its age less that
    (:meth:`too_late`), so a host clock a few seconds off neither refuses every interaction nor
    answers ones Discord has failed.

    >>> ages = InteractionAges()
    >>> ages.too_late(6.0)
    True
    >>> for age in (7.1, 7.0, 7.2):  # a clock 7 s ahead
    ...     ages.note(age)
    >>> ages.too_late(8.0), ages.too_late(13.0)
    (False, True)
    """

    def __init__(self, kept: int = 100) -> None:
        self._ages: deque[float] = deque(maxlen=kept)

    def note(self, age: float) -> None:
        """An interaction reached the bot ``age`` seconds after its id says it was made (by
        the bot's clock)."""
        self._ages.append(age)

    def skew(self) -> float:
        """How far the bot's clock seems ahead of Discord's (0 until an interaction came)."""
        return min(self._ages, default=0.0)

    def too_late(self, age: float) -> bool:
        """Whether an interaction of this age is past Discord's answer window (see
        :func:`too_late`)."""
        return too_late(age, self.skew())
