"""The bot's logging: discord.py's handler at the configured level, without the two warnings
about voice support (the bot plays no audio, so their advice to install PyNaCl and davey is
noise at every start), and start-up's lines held back until start-up gets through."""

from __future__ import annotations

import logging

import discord

__all__ = ["VOICE_WARNINGS", "HeldLog", "configure_logging", "quiet_voice_warnings"]

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


class _Holder(logging.Handler):
    """Keeps every record it is given, to be shown (or not) later."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class HeldLog:
    """The root logger's output held back while the bot starts.

    A start that fails ends in one line for whoever runs it, so the lines on the way (the
    database opened, logging in) must not come before it: :meth:`drop` then shows only the
    warnings and errors held. A start that gets through shows everything held, in order and
    with its own times, on :meth:`release`. Either restores the root logger's handlers; the
    first of them to be called decides, and later calls do nothing.
    """

    def __init__(self) -> None:
        self._root = logging.getLogger()
        self._handlers = list(self._root.handlers)
        self._holder = _Holder()
        for handler in self._handlers:
            self._root.removeHandler(handler)
        self._root.addHandler(self._holder)

    def release(self) -> None:
        """Start-up got through: show what was held, and log as usual from now on."""
        self._end(logging.NOTSET)

    def drop(self) -> None:
        """Start-up failed: show only the warnings and errors held, and log as usual."""
        self._end(logging.WARNING)

    def _end(self, lowest: int) -> None:
        if self._holder not in self._root.handlers:
            return
        self._root.removeHandler(self._holder)
        for handler in self._handlers:
            self._root.addHandler(handler)
        for record in self._holder.records:
            if record.levelno >= lowest:
                for handler in self._handlers:
                    if record.levelno >= handler.level:
                        handler.handle(record)
        self._holder.records.clear()
