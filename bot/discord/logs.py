"""The bot's logging: discord.py's handler at the configured level, without the two warnings
about voice support (the bot plays no audio, so their advice to install PyNaCl and davey is
noise at every start)."""

from __future__ import annotations

import logging

import discord

__all__ = ["VOICE_WARNINGS", "configure_logging", "quiet_voice_warnings"]

#: discord.py 2.7 logs these from ``discord.client`` when a client is made (``Client.__init__``)
#: and the optional voice libraries are missing.
VOICE_LOGGER = "discord.client"
VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)


class _NoVoiceWarnings(logging.Filter):
    """Drops exactly discord.py's two "not installed, voice will NOT be supported" records."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == VOICE_LOGGER and record.msg in VOICE_WARNINGS)


_FILTER = _NoVoiceWarnings()


def quiet_voice_warnings() -> None:
    """Silence the two voice warnings, and nothing else (idempotent)."""
    logger = logging.getLogger(VOICE_LOGGER)
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)


def configure_logging(level: str) -> None:
    """discord.py's log handler on the root logger at ``level`` (a name from
    ``bot.settings.LOG_LEVELS``), with the voice warnings silenced."""
    quiet_voice_warnings()
    discord.utils.setup_logging(level=logging.getLevelNamesMapping()[level])
