"""How many follow-ups each interaction's token may still carry where the bot is not a member.

Discord takes at most 5 follow-up messages per interaction that only a user install authorised
("Create Followup Message": "Apps are limited to 5 followup messages per interaction if it was
initiated from a user-installed app and isn't installed in the server"; a sixth is refused with
JSON code 40094). That is every interaction at a private table (:mod:`bot.core.private_table`).
An interaction's own answer needs at most two of them (a hand opened from the table, a note to
the clicker, an error after a deferral); the courier posts a table again through a token
(a carrier) only while fewer than :data:`CARRIED_PER_TOKEN` were posted through it, so that a
token is never asked for more than Discord gives, and once Discord says a token has none left
it carries nothing more. The count is this process's own, kept in memory for a token's life.
"""

from __future__ import annotations

__all__ = ["CARRIED_PER_TOKEN", "FOLLOWUPS_PER_TOKEN", "TOO_MANY_FOLLOWUPS", "FollowupBudget"]

#: Discord's limit on follow-ups of an interaction only a user install authorised.
FOLLOWUPS_PER_TOKEN = 5
#: Follow-ups the courier posts through one token at most: the rest is left to the
#: interaction's own answer.
CARRIED_PER_TOKEN = FOLLOWUPS_PER_TOKEN - 2
#: Discord's JSON error code for a follow-up past the limit.
TOO_MANY_FOLLOWUPS = 40094


class FollowupBudget:
    """Follow-ups posted through each interaction's token by this process, while the token
    lives (``life`` seconds after ``at``, the interaction's time)."""

    def __init__(self, life: float) -> None:
        self._life = life
        self._spent: dict[str, tuple[int, float]] = {}

    def may_carry(self, token: str) -> bool:
        """Whether one more follow-up may be posted through ``token``."""
        spent = self._spent.get(token)
        return spent is None or spent[0] < CARRIED_PER_TOKEN

    def carried(self, token: str, at: float, now: float) -> None:
        """A follow-up was posted through ``token`` (of an interaction made at ``at``)."""
        count = self._spent.get(token, (0, at))[0]
        self._spent[token] = (count + 1, at)
        self._forget_lapsed(now)

    def exhausted(self, token: str, at: float, now: float) -> None:
        """Discord said ``token`` takes no more follow-ups (40094): it carries nothing more."""
        self._spent[token] = (CARRIED_PER_TOKEN, at)
        self._forget_lapsed(now)

    def _forget_lapsed(self, now: float) -> None:
        lapsed = [t for t, (_, at) in self._spent.items() if now - at >= self._life]
        for token in lapsed:
            del self._spent[token]
