"""The environment variables the bot's settings read, as :meth:`Settings.from_env` looks
them up: the one list the tests that hold ``.env.example`` and the docs to the settings use."""

from __future__ import annotations

from bot.settings import Settings

__all__ = ["settings_read"]


class _Watched(dict[str, str]):
    """An empty environment that notes every variable the settings look up."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked.append(key)
        return default


def settings_read() -> list[str]:
    """Every variable :meth:`Settings.from_env` reads, in the order it reads them."""
    env = _Watched()
    Settings.from_env(env)
    return env.asked
