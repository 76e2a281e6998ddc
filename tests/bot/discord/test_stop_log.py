"""What a stop says of the messages it could not send: one line, however many are owed."""

from __future__ import annotations

from bot.core.base.owners import Owner
from bot.discord.app import UNSENT_NAMED, owed_at_stop


def test_a_few_owners_owed_at_a_stop_are_all_named() -> None:
    said = owed_at_stop([Owner.game(1), Owner.game(2)])
    assert said.startswith("2 owners: ") and str(Owner.game(2)) in said and "more" not in said


def test_thousands_owed_at_a_stop_are_counted_and_a_few_named() -> None:
    owners = [Owner.game(n) for n in range(5_000)]
    said = owed_at_stop(owners)
    assert said.startswith("5000 owners: ")
    assert said.endswith(f" and {5_000 - UNSENT_NAMED} more")
    assert str(Owner.game(UNSENT_NAMED - 1)) in said and str(Owner.game(UNSENT_NAMED)) not in said
    assert len(said) < 1_000
