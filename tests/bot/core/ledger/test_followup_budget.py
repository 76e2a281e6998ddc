"""Where the bot is not a member, Discord takes 5 follow-ups per interaction: the courier posts
a table through one interaction's token a few times at most, leaving the rest to that
interaction's own answer, and never again once Discord says the token has none left."""

from __future__ import annotations

from bot.core.base.timing import FOLLOWUPS_PER_TOKEN
from bot.core.ledger.tokens import CARRIED_PER_TOKEN, FollowupBudget


def test_a_token_carries_a_few_follow_ups_and_leaves_room_for_its_own_answer() -> None:
    budget = FollowupBudget(life=840.0)
    assert FOLLOWUPS_PER_TOKEN == 5 and 0 < CARRIED_PER_TOKEN <= FOLLOWUPS_PER_TOKEN - 2
    for n in range(CARRIED_PER_TOKEN):
        assert budget.may_carry("a"), n
        budget.carried("a", at=100.0, now=100.0 + n)
    assert not budget.may_carry("a")
    assert budget.may_carry("b"), "each token has its own"


def test_a_token_discord_calls_full_carries_nothing_more() -> None:
    budget = FollowupBudget(life=840.0)
    budget.exhausted("a", at=100.0, now=101.0)
    assert not budget.may_carry("a") and budget.may_carry("b")


def test_what_is_known_of_a_lapsed_token_is_forgotten() -> None:
    budget = FollowupBudget(life=840.0)
    budget.exhausted("old", at=0.0, now=1.0)
    budget.carried("new", at=900.0, now=900.0)
    assert budget.may_carry("old"), "forgotten once it lapsed (it carries nothing then anyway)"
