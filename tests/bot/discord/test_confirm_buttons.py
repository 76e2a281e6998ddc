"""The Yes and No under a question asked before something that cannot be taken back (issue
37): each question's buttons carry what they confirm in their custom id, read back as it was
(the ids of questions asked before this release, the resignation's, keep working), and no id
of one names another's action."""

from __future__ import annotations

import re

import pytest

from bot.core.base.views import ConfirmAction
from bot.discord.components import ConfirmButton

ACTIONS: tuple[ConfirmAction, ...] = ("resign", "cancel", "withdraw", "cancel_tournament")


def _parsed(custom_id: str) -> ConfirmButton | None:
    match = re.fullmatch(ConfirmButton.__discord_ui_compiled_template__, custom_id)
    return None if match is None else ConfirmButton.parsed(match)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("yes", [True, False])
def test_each_answer_reads_back_as_it_was_made(action: ConfirmAction, yes: bool) -> None:
    made = ConfirmButton(42, action, yes)
    again = _parsed(str(made.item.custom_id))
    assert again is not None and (again.subject, again.action, again.yes) == (42, action, yes)
    assert made.item.label is not None and made.item.label.startswith("Yes" if yes else "No")


def test_an_older_resignations_id_still_reads() -> None:
    again = _parsed("crib:7:resign:yes")
    assert again is not None and (again.subject, again.action, again.yes) == (7, "resign", True)


@pytest.mark.parametrize(
    "custom_id",
    [
        "crib:7:withdraw:yes",
        "crib:tournament:7:resign:no",
        "crib:tournament:7:join",
        "crib:7:x:yes",
    ],
)
def test_an_id_that_names_no_question_is_not_an_answer(custom_id: str) -> None:
    assert _parsed(custom_id) is None
