"""The environment variables the bot's settings read, as :meth:`Settings.from_env` looks
them up, and what ``.env.example`` says of each: what the tests that hold ``.env.example`` and
the docs to the settings read."""

from __future__ import annotations

import re

from bot.settings import Settings

__all__ = ["example_comment", "settings_read"]


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


def example_comment(example: str, name: str) -> str:
    """The comment of .env.example above ``name``'s line (shared by settings set together)."""
    lines = example.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))
    while at > 0 and re.match(r"[A-Z_]+=", lines[at - 1]):
        at -= 1  # a setting set together with this one, under the same comment
    start = at
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    return "\n".join(lines[start:at])
