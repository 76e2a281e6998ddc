"""discord.py's two warnings about voice support are silenced, and nothing else is (issue 10,
item 5): the bot plays no audio, so "PyNaCl is not installed" and "davey is not installed" are
noise at every start, in the bot and in the playground."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.discord.logs import VOICE_WARNINGS, quiet_voice_warnings


def test_only_the_two_voice_warnings_are_silenced(caplog: pytest.LogCaptureFixture) -> None:
    quiet_voice_warnings()
    quiet_voice_warnings()  # twice changes nothing
    client_log = logging.getLogger("discord.client")
    with caplog.at_level(logging.INFO):
        for message in sorted(VOICE_WARNINGS):
            client_log.warning(message)
        client_log.warning("PyNaCl is not installed, voice will NOT be supported!")
        client_log.warning("logging in using static token")
        logging.getLogger("discord.gateway").warning(next(iter(VOICE_WARNINGS)))
    said = [(r.name, r.getMessage()) for r in caplog.records]
    assert said == [
        ("discord.client", "PyNaCl is not installed, voice will NOT be supported!"),
        ("discord.client", "logging in using static token"),
        ("discord.gateway", next(iter(VOICE_WARNINGS))),
    ]


def test_they_are_the_warnings_discord_py_gives(caplog: pytest.LogCaptureFixture) -> None:
    # discord.py warns once per process, when a client is made without the voice libraries.
    quiet_voice_warnings()
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = True
    with caplog.at_level(logging.INFO):
        discord.Client(intents=discord.Intents.none())
    assert not [r for r in caplog.records if "voice will NOT be supported" in r.getMessage()]
    assert not discord.VoiceClient.warn_nacl and not discord.VoiceClient.warn_dave, (
        "discord.py took its warning turns (and they were silenced)"
    )
