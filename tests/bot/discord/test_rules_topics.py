"""``/cribbage rules`` offers every topic it has, and its overview names them; the topic of the
commands names every command a player reaches it for: the topics and the commands are written
once (``RULES_TOPICS``, the ``/cribbage`` group) and the menus and words are checked against
them."""

from __future__ import annotations

import re

from discord import app_commands

from bot.core.base.choices import DEFAULT_LEVEL, LEVEL_BLURBS
from bot.core.base.views import HAND_BUTTON, LOBBY_LABELS
from bot.core.games.rules_help import HELP, RULES_TOPICS
from bot.discord.feature_commands import RULE_TOPICS
from tests.helpers.commands import the_commands


def test_the_menu_offers_every_topic_the_rules_have_in_their_order() -> None:
    assert [value for _, value in RULE_TOPICS] == list(RULES_TOPICS)
    rules = the_commands().get_command("rules")
    assert isinstance(rules, app_commands.Command)
    [topic] = rules.parameters
    assert [choice.value for choice in topic.choices] == list(RULES_TOPICS)


def test_the_overview_names_every_other_topic_in_order() -> None:
    listed = RULES_TOPICS["overview"].split("Topics: ", 1)[1]
    assert re.findall(r"`([\w-]+)`", listed) == [t for t in RULES_TOPICS if t != "overview"]


def test_the_topic_of_the_commands_names_every_command_but_help() -> None:
    # /cribbage help sends players to it for more commands: each command, and each family
    # by one of its commands (`/cribbage ranked play`), but /cribbage help itself.
    said = RULES_TOPICS["commands"]
    missing = [
        command.name
        for command in the_commands().commands
        if command.name != "help" and f"`/cribbage {command.name}" not in said
    ]
    assert missing == []
    # The help said the topic had "every command", where it has one of each family.
    assert HELP.endswith("`/cribbage rules topic:commands` — more commands.")


def test_the_help_says_where_a_hand_opens_in_a_dm_or_group_dm() -> None:
    # Where the bot is not a member there are no DMs: the hand opens from the table's button,
    # named as it is labelled. /cribbage help said only "Your hand comes by DM".
    button = f"**{LOBBY_LABELS[HAND_BUTTON]}**"
    for said in (HELP, RULES_TOPICS["commands"]):
        line = next(line for line in said.splitlines() if "comes by DM" in line)
        assert "group DM" in line and button in line, line


def test_help_says_which_computer_plays_unless_you_choose_and_how_to_choose_a_gentler_one() -> None:
    [line] = [line for line in HELP.splitlines() if "vs_computer:True`" in line]
    assert f"the {DEFAULT_LEVEL} one" in line, line
    assert re.findall(r"`(\w+)`", line.split("difficulty:", 1)[1])[: len(LEVEL_BLURBS)] == list(
        LEVEL_BLURBS
    ), line
    assert "`easy` is the gentlest" in line


def test_the_rules_overview_sends_a_newcomer_to_the_lesson() -> None:
    assert "Never played? `/cribbage learn`" in RULES_TOPICS["overview"]
