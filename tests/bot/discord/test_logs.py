"""discord.py's two warnings about voice support are silenced, and nothing else is (issue 10,
item 5): the bot plays no audio, so "PyNaCl is not installed" and "davey is not installed" are
noise at every start, in the bot and in the playground."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.discord.logs import VOICE_WARNINGS, HeldLog, quiet_voice_warnings


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


def _root_with_a_list_handler() -> tuple[logging.Logger, list[str], logging.Handler]:
    root = logging.getLogger()
    said: list[str] = []

    class Listing(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(f"{record.levelname} {record.getMessage()}")

    handler = Listing(level=logging.INFO)
    root.addHandler(handler)
    return root, said, handler


@pytest.mark.parametrize("ending", ["release", "drop"])
def test_start_up_lines_wait_and_a_failed_start_shows_only_its_warnings(ending: str) -> None:
    # A start that fails ends in one line (issue 25, item 2): "database ready" and "logging
    # in" must not come before it; a start that gets through shows them, in order.
    root, said, handler = _root_with_a_list_handler()
    level = root.level
    root.setLevel(logging.DEBUG)
    try:
        held = HeldLog()
        log = logging.getLogger("bot.discord.app")
        log.debug("below the handler's level")
        log.info("database sqlite ready")
        log.warning("an interaction endpoint URL is set")
        assert said == [], "held back"
        held.release() if ending == "release" else held.drop()
        held.drop()  # the first ending decides
        log.info("after")
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    shown = ["WARNING an interaction endpoint URL is set", "INFO after"]
    if ending == "release":
        shown.insert(0, "INFO database sqlite ready")
    assert said == shown
