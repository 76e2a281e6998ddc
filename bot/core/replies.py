"""What the game service hands back: the reply, the channel lines, the DMs and the lobby.

These values are plain data with no Discord types, so the service can be tested without Discord
and the Discord layer (``bot.discord``) only has to send them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "LOBBY_BUTTONS",
    "CardChoice",
    "Choice",
    "Lobby",
    "Outcome",
    "Prompt",
    "PromptKind",
    "Reply",
    "User",
]

PromptKind = Literal["discard", "play", "info"]
LobbyButton = Literal["join", "leave", "start", "cancel", "remove_computer"]
#: Every lobby button, in the order they are shown.
LOBBY_BUTTONS: tuple[LobbyButton, ...] = ("join", "leave", "start", "cancel", "remove_computer")


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the service needs them: the id and the name to show at the table."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One card on a prompt: ``code`` (``"10D"``, for custom ids and select values), ``label``
    (``"10♦"``) and whether it may be chosen now."""

    code: str
    label: str
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class Prompt:
    """A private message with controls, for one player of one game.

    ``kind`` is ``"discard"`` (a select menu: choose exactly ``pick`` cards for the crib),
    ``"play"`` (one button per card, disabled ones cannot be played now, ``pick`` is 1) or
    ``"info"`` (text and cards only, no controls, ``pick`` is 0).

    ``stamp`` says which moment the controls belong to; pass it back unchanged with the click
    (``GameService.click_discard`` / ``click_play``) so a stale control gets a clear answer.
    """

    user_id: int
    game_id: int
    kind: PromptKind
    text: str
    cards: tuple[CardChoice, ...]
    pick: int
    stamp: int


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to the user who acted. ``controls``, when set, is a prompt to attach to this
    reply (the ``hand`` command's ephemeral fallback for closed DMs)."""

    text: str
    ephemeral: bool = True
    controls: Prompt | None = None


@dataclass(frozen=True, slots=True)
class Lobby:
    """The lobby message of a game: create it when ``message_id`` is None (then report its id
    with ``GameService.lobby_posted``), otherwise edit that message. ``buttons`` lists the
    buttons to show; an empty tuple means the lobby is closed (game started or cancelled).
    ``levels`` are the computer difficulties offered by the "Add computer" menu (empty when no
    seat is free or the lobby is closed); choosing one is ``click_lobby(..., "computer:<level>")``.
    """

    game_id: int
    channel_id: int
    text: str
    buttons: tuple[LobbyButton, ...]
    message_id: int | None = None
    levels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """An autocomplete choice: what the user sees and the value the option receives."""

    name: str
    value: str


@dataclass(slots=True)
class Outcome:
    """Everything one service call wants sent, in the order to send it.

    1. ``reply`` to the user who acted (ephemeral unless it says otherwise);
    2. ``lobby`` to create or edit, if set;
    3. ``channel``: lines for the game's channel ``channel_id``, one message each, in order
       (each at most 2000 characters);
    4. ``prompts``: DMs, one per prompt. When a DM is refused, call
       ``GameService.dm_failed(prompt.game_id, prompt.user_id)`` and send its channel lines.

    ``ok`` is False when the call was refused and nothing changed (``reply`` then says why).
    """

    reply: Reply
    ok: bool = True
    game_id: int | None = None
    channel_id: int | None = None
    channel: list[str] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)
    lobby: Lobby | None = None

    @classmethod
    def refuse(cls, text: str, *, game_id: int | None = None) -> Outcome:
        """A refusal: one ephemeral sentence, nothing else sent, nothing changed."""
        return cls(reply=Reply(text), ok=False, game_id=game_id)
