"""``python -m bot --local``'s settings: the playground makes its own what it must (the token,
a scratch database, Discord the emulator, its pages), and takes the rest from the environment
as the bot would (issue 54: it ignored ``OPS_PORT``, so ``/metrics`` could not be seen without
a real token, and ranked's 60 s clock could not be changed), with a ranked clock one person
playing every seat can keep up with where nothing sets it."""

from __future__ import annotations

import pytest

from bot.__main__ import PLAYGROUND_CLOCKS, playground_settings
from bot.settings import DEFAULT_RANKED_TURN_SECONDS, MAX_RANKED_TURN_SECONDS, SettingsError


def test_the_playground_takes_ops_port_and_the_clocks_from_the_environment() -> None:
    settings = playground_settings({"OPS_PORT": "9123", "RANKED_TURN_SECONDS": "90"})
    assert (settings.ops_port, settings.ranked_turn_seconds) == (9123, 90)


def test_the_playgrounds_ranked_clock_is_long_enough_for_one_person_at_every_seat() -> None:
    settings = playground_settings({"RANKED_TURN_SECONDS": " "})
    playground = float(PLAYGROUND_CLOCKS["RANKED_TURN_SECONDS"])
    assert settings.ranked_turn_seconds == playground == MAX_RANKED_TURN_SECONDS
    assert settings.ranked_turn_seconds > DEFAULT_RANKED_TURN_SECONDS


def test_what_the_playground_makes_its_own_is_not_read() -> None:
    production = {
        "DISCORD_TOKEN": "a-real-token",
        "DATABASE_URL": "postgresql://cribbage@db/cribbage",
        # (Some shards here and others elsewhere need PostgreSQL: not the playground's case.)
        "SHARD_COUNT": "4",
        "SHARD_IDS": "0-1",
        "WEB_PORT": "not a port",
    }
    settings = playground_settings(production)
    assert settings.discord_token is None and settings.database_url is None
    assert settings.shard_ids is None and settings.web_port is None


def test_a_setting_it_reads_is_refused_as_the_bot_refuses_it() -> None:
    with pytest.raises(SettingsError, match="OPS_PORT"):
        playground_settings({"OPS_PORT": "99999"})
