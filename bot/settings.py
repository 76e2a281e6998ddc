"""Settings from the environment (and a ``.env`` file in the working directory, when there is
one: :func:`load_env_file`)."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

from dotenv import load_dotenv

from bot.core.games.housekeeping import RETENTION
from bot.core.messages.game_messages import REMIND_AFTER
from bot.core.play.moves import COUNT_TIMEOUT, MUGGINS_WINDOW
from bot.core.privacy.servers import GRACE
from bot.core.ranked.turns import LONGEST_TURN, TURN_SECONDS

__all__ = ["ENV_FILE", "Settings", "SettingsError", "StartupError", "load_env_file"]

#: The settings file, read from the working directory: where the bot is run from, as
#: python-dotenv's own ``dotenv run`` and twelve-factor hosts read it, and where a relative
#: ``DATABASE_PATH`` (``./cribbage.db``) lies too. Never the package's folder (python-dotenv's
#: ``load_dotenv()`` alone would look beside the code that calls it, then in its parents).
ENV_FILE = ".env"


def load_env_file(path: str | Path | None = None) -> None:
    """Fill the variables the environment leaves unset from ``path`` (default: :data:`ENV_FILE`
    in the working directory), if there is such a file; a variable set already wins."""
    load_dotenv(dotenv_path=Path.cwd() / ENV_FILE if path is None else path, override=False)


_N = TypeVar("_N", int, float)

DEFAULT_DATABASE_PATH = "./cribbage.db"
DEFAULT_IDLE_EXPIRY_DAYS = 7.0
#: The game timings' defaults are the core's own (written once, there).
DEFAULT_TURN_REMINDER_SECONDS = REMIND_AFTER.total_seconds()
DEFAULT_MEMBER_CHECK_SECONDS = 600.0
DEFAULT_MUGGINS_SECONDS = MUGGINS_WINDOW.total_seconds()
DEFAULT_COUNT_TIMEOUT_SECONDS = COUNT_TIMEOUT.total_seconds()
#: How long a ranked turn lasts (the turn clock's own: a move not made in time loses the game),
#: and the longest it may be set to (the turn clock's own: a player's interactions' tokens
#: must reach them when their turn comes).
DEFAULT_RANKED_TURN_SECONDS = TURN_SECONDS
MAX_RANKED_TURN_SECONDS = LONGEST_TURN
#: How long after the gateway's READY the bot waits for the next server (GUILD_CREATE) before
#: it counts every server as come and brings the games up to date: discord.py's default, and
#: the longest the setting may say.
DEFAULT_GUILD_READY_SECONDS = 2.0
MAX_GUILD_READY_SECONDS = 60.0
#: How long Discord's gateway may send nothing, not even a heartbeat's acknowledgement, before
#: the bot takes the connection as dead ("zombied"), closes it and resumes: discord.py's
#: default, and the bounds of the setting (above Discord's heartbeat interval, about 41 s, or
#: a quiet connection is closed between two heartbeats; less only against an emulator that
#: asks for heartbeats more often).
DEFAULT_HEARTBEAT_TIMEOUT_SECONDS = 60.0
MIN_HEARTBEAT_TIMEOUT_SECONDS = 1.0
MAX_HEARTBEAT_TIMEOUT_SECONDS = 600.0
#: The shortest and longest idle time before a game is ended: an hour, a year.
MIN_IDLE_EXPIRY_DAYS = 1 / 24
MAX_IDLE_EXPIRY_DAYS = 365.0
#: How long an ended game is kept whole before only its results and a compact record of it
#: are kept, and the bounds of that setting (a day, ten years).
DEFAULT_RETENTION_DAYS = RETENTION / timedelta(days=1)
MIN_RETENTION_DAYS = 1.0
MAX_RETENTION_DAYS = 3650.0
#: The levels ``LOG_LEVEL`` may name, quietest last.
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: How ``DATABASE_URL`` names a SQLite file (``sqlite:///relative.db``,
#: ``sqlite:////absolute/path.db``) and a PostgreSQL database.
SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: The address the game pages are served on when only WEB_PORT is set (this machine only; a
#: proxy in front, or WEB_HOST=0.0.0.0, opens them to others).
DEFAULT_WEB_HOST = "127.0.0.1"
#: The shortest secret that signs the pages' links (a shorter one could be guessed).
MIN_WEB_SECRET = 16
#: How long a server's data is kept after the bot was removed from it (the bot may be
#: invited back meanwhile), and the bounds of that setting (a day, a year).
DEFAULT_LEFT_SERVER_DAYS = GRACE / timedelta(days=1)
MIN_LEFT_SERVER_DAYS = 1.0
MAX_LEFT_SERVER_DAYS = 365.0
#: The longest contact the privacy policy may name.
MAX_CONTACT = 200


class StartupError(Exception):
    """The bot cannot start as it is set up: ``str()`` is one line for whoever runs it, naming
    the setting and what to do; ``status`` is the exit status (2: fix a setting or a file, 1:
    Discord could not be reached or refused)."""

    def __init__(self, line: str, status: int = 2) -> None:
        super().__init__(line)
        self.status = status


class SettingsError(StartupError, ValueError):
    """A setting has a value that cannot be used; the message names the setting."""

    def __init__(self, line: str) -> None:
        super().__init__(line, 2)


def _optional(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _read(kind: Callable[[str], _N], name: str, value: str, what: str) -> _N:
    """``value`` of the setting ``name`` read as ``kind`` (``int`` or ``float``), or a
    :class:`SettingsError` that says it must be ``what``."""
    try:
        return kind(value)
    except ValueError:
        raise SettingsError(f"{name} must be {what}, not {value!r}.") from None


def _optional_int(env: Mapping[str, str], name: str) -> int | None:
    value = _optional(env, name)
    return None if value is None else _read(int, name, value, "a number (a Discord id)")


def _seconds(env: Mapping[str, str], name: str, default: float, *, or_none: bool = False) -> float:
    """Seconds from 5 to 86400 (``or_none``: 0 too, meaning none at all)."""
    value = _optional(env, name)
    if value is None:
        return default
    seconds = _read(float, name, value, "a number of seconds")
    if or_none and seconds == 0:
        return 0.0
    if not 5 <= seconds <= 86_400:
        low = "0, or between 5" if or_none else "between 5"
        raise SettingsError(f"{name} must be {low} and 86400 seconds, not {value!r}.")
    return seconds


def _seconds_within(
    env: Mapping[str, str], name: str, default: float, low: float, high: float
) -> float:
    """Seconds from ``low`` to ``high``, fractions of one included (the servers of a small bot
    come within milliseconds of READY)."""
    value = _optional(env, name)
    if value is None:
        return default
    seconds = _read(float, name, value, "a number of seconds")
    if not low <= seconds <= high:
        raise SettingsError(f"{name} must be from {low:g} to {high:g} seconds, not {value!r}.")
    return seconds


def _days(
    env: Mapping[str, str], name: str, default: float, low: float, high: float, shown: str
) -> float:
    """A finite number of days from ``low`` to ``high`` (``shown`` says the low end in words):
    ``inf`` or ``1e10`` would overflow the date arithmetic later, and a tiny value would end
    (or prune) every game at start-up."""
    value = _optional(env, name)
    if value is None:
        return default
    days = _read(float, name, value, "a number of days")
    if not (math.isfinite(days) and low <= days <= high):
        raise SettingsError(
            f"{name} must be a number of days from {shown} to {high:.0f}, not {value!r}."
        )
    return days


def _log_level(env: Mapping[str, str], name: str) -> str:
    """One of :data:`LOG_LEVELS` (in any case); anything else is refused, not replaced."""
    value = _optional(env, name)
    if value is None:
        return "INFO"
    level = value.upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"{name} must be one of {', '.join(LOG_LEVELS)}, not {value!r}.")
    return level


def _database_url(env: Mapping[str, str]) -> tuple[str, str | None]:
    """The SQLite path and, for PostgreSQL, the URL, from ``DATABASE_URL`` (or the older
    ``DATABASE_PATH``, a SQLite file's path)."""
    url = _optional(env, "DATABASE_URL")
    path = _optional(env, "DATABASE_PATH")
    if url is None:
        return path or DEFAULT_DATABASE_PATH, None
    if path is not None:
        raise SettingsError(
            "Set DATABASE_URL or DATABASE_PATH, not both (DATABASE_URL=sqlite:///file.db is "
            "the same as DATABASE_PATH=file.db)."
        )
    if url.startswith(POSTGRES_SCHEMES):
        return DEFAULT_DATABASE_PATH, url
    if url.startswith(SQLITE_SCHEME) and len(url) > len(SQLITE_SCHEME):
        return url.removeprefix(SQLITE_SCHEME), None
    raise SettingsError(
        "DATABASE_URL must be sqlite:///path/to/file.db or postgresql://user@host/database,"
        f" not {url!r}."
    )


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0,1`` or ``0-3``): the shards this process runs."""
    count_text = _optional(env, "SHARD_COUNT")
    ids_text = _optional(env, "SHARD_IDS")
    if count_text is None:
        if ids_text is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has).")
        return None, None
    count = _read(int, "SHARD_COUNT", count_text, "a whole number")
    if not 1 <= count <= 1024:
        raise SettingsError(f"SHARD_COUNT must be between 1 and 1024, not {count_text!r}.")
    if ids_text is None:
        return count, None
    ids: set[int] = set()
    try:
        for part in ids_text.split(","):
            first, dash, last = part.strip().partition("-")
            ids.update(range(int(first), int(last if dash else first) + 1))
    except ValueError:
        raise SettingsError(
            f"SHARD_IDS must be shard numbers like 0,1 or 0-3, not {ids_text!r}."
        ) from None
    if not ids or min(ids) < 0 or max(ids) >= count:
        raise SettingsError(
            f"SHARD_IDS must be shard numbers from 0 to {count - 1} (SHARD_COUNT is {count}),"
            f" not {ids_text!r}."
        )
    return count, tuple(sorted(ids))


def _web(env: Mapping[str, str]) -> tuple[str, int | None, str | None, str | None]:
    """``WEB_HOST``, ``WEB_PORT``, ``PUBLIC_URL`` and ``WEB_SECRET``: the game pages are served
    only when ``WEB_PORT`` is set, and then need the secret that signs their links (kept
    across restarts, so the links in the table messages stay good)."""
    host = _optional(env, "WEB_HOST") or DEFAULT_WEB_HOST
    port_text = _optional(env, "WEB_PORT")
    public = _optional(env, "PUBLIC_URL")
    secret = _optional(env, "WEB_SECRET")
    if port_text is None:
        if public is not None:
            raise SettingsError(
                "PUBLIC_URL needs WEB_PORT (the port the game pages are served on)."
            )
        return host, None, None, None
    port = _read(int, "WEB_PORT", port_text, "a port number")
    if not 1 <= port <= 65535:
        raise SettingsError(f"WEB_PORT must be between 1 and 65535, not {port_text!r}.")
    if secret is None or len(secret) < MIN_WEB_SECRET:
        raise SettingsError(
            f"WEB_PORT needs WEB_SECRET, at least {MIN_WEB_SECRET} characters that nobody can "
            "guess (it signs the game pages' links), e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'`."
        )
    if public is not None and not public.startswith(("http://", "https://")):
        raise SettingsError(f"PUBLIC_URL must start with http:// or https://, not {public!r}.")
    return host, port, None if public is None else public.rstrip("/"), secret


def _ops(env: Mapping[str, str]) -> tuple[str, int | None]:
    """``OPS_HOST`` and ``OPS_PORT``: health, readiness and metrics on a port of their own
    (this machine only unless ``OPS_HOST`` says otherwise)."""
    host = _optional(env, "OPS_HOST") or DEFAULT_WEB_HOST
    port_text = _optional(env, "OPS_PORT")
    if port_text is None:
        return host, None
    port = _read(int, "OPS_PORT", port_text, "a port number")
    if not 1 <= port <= 65535:
        raise SettingsError(f"OPS_PORT must be between 1 and 65535, not {port_text!r}.")
    return host, port


def _contact(env: Mapping[str, str]) -> str | None:
    """``PRIVACY_CONTACT``: how people reach whoever runs the bot about their data (an address,
    or a support server's invite), named by the privacy policy and ``/cribbage privacy``."""
    contact = _optional(env, "PRIVACY_CONTACT")
    if contact is not None and (len(contact) > MAX_CONTACT or not contact.isprintable()):
        raise SettingsError(
            f"PRIVACY_CONTACT must be one line of at most {MAX_CONTACT} characters (an e-mail "
            "address, or an invite to your support server)."
        )
    return contact


def _client_secret(env: Mapping[str, str], web_port: int | None) -> str | None:
    """``CLIENT_SECRET``: the application's OAuth2 client secret, with which the game pages'
    server exchanges an Activity's authorization code (so it is served only with the pages)."""
    secret = _optional(env, "CLIENT_SECRET")
    if secret is not None and web_port is None:
        raise SettingsError(
            "CLIENT_SECRET needs WEB_PORT (and WEB_SECRET): the Activity is served by the game "
            "pages' server."
        )
    return secret


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    discord_token: str | None = None
    database_path: str = DEFAULT_DATABASE_PATH
    #: A PostgreSQL database's URL (then ``database_path`` is not used), from DATABASE_URL.
    database_url: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    idle_expiry_days: float = DEFAULT_IDLE_EXPIRY_DAYS
    turn_reminder_seconds: float = DEFAULT_TURN_REMINDER_SECONDS
    muggins_seconds: float = DEFAULT_MUGGINS_SECONDS
    count_timeout_seconds: float = DEFAULT_COUNT_TIMEOUT_SECONDS
    ranked_turn_seconds: float = DEFAULT_RANKED_TURN_SECONDS
    retention_days: float = DEFAULT_RETENTION_DAYS
    member_check_seconds: float = DEFAULT_MEMBER_CHECK_SECONDS
    #: discord.py's ``guild_ready_timeout``: how long after READY the bot waits for one more
    #: server before ``on_ready`` (when it brings the games up to date after a start).
    guild_ready_seconds: float = DEFAULT_GUILD_READY_SECONDS
    #: discord.py's ``heartbeat_timeout``: how long the gateway may say nothing before the
    #: bot closes the connection as zombied and resumes.
    heartbeat_timeout_seconds: float = DEFAULT_HEARTBEAT_TIMEOUT_SECONDS
    #: How many shards the bot has in all, and which of them this process runs (None: every
    #: shard, or no sharding at all when ``shard_count`` is None too).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: The game pages (:mod:`bot.web`): served on ``web_host``:``web_port`` when the port is
    #: set (0: any free port), their links signed with ``web_secret``; the table messages
    #: link to them when ``public_url`` (where people reach the server) is set.
    web_host: str = DEFAULT_WEB_HOST
    web_port: int | None = None
    public_url: str | None = None
    web_secret: str | None = None
    #: The application's OAuth2 client secret (the developer portal's *OAuth2* page): with it
    #: (and the game pages) the Activity is served and launched (:mod:`bot.web.activity`).
    client_secret: str | None = None
    #: Health, readiness and metrics (:mod:`bot.ops`): on ``ops_host``:``ops_port`` when the
    #: port is set (0: any free port); health and readiness also beside the game pages.
    ops_host: str = DEFAULT_WEB_HOST
    ops_port: int | None = None
    #: How long a server's data is kept after the bot was removed from it.
    left_server_days: float = DEFAULT_LEFT_SERVER_DAYS
    #: How people reach whoever runs the bot about their data (the privacy policy names it).
    privacy_contact: str | None = None

    @property
    def left_server_grace(self) -> timedelta:
        """How long a server's data is kept after the bot was removed from it."""
        return timedelta(days=self.left_server_days)

    @property
    def activity(self) -> bool:
        """Whether the Activity is on: the game pages are served and the client secret set."""
        return self.client_secret is not None and self.web_port is not None

    @property
    def database(self) -> str:
        """What :meth:`bot.store.Store.open` is given: the PostgreSQL URL, or the SQLite path."""
        return self.database_url or self.database_path

    @property
    def database_name(self) -> str:
        """The setting that names the database, for messages (``DATABASE_URL`` or the path)."""
        return "DATABASE_URL" if self.database_url else "DATABASE_PATH"

    @property
    def database_label(self) -> str:
        """How a start-up line names the database: the setting, and the file (never the
        PostgreSQL URL itself, which may hold a password)."""
        if self.database_url:
            return "DATABASE_URL (PostgreSQL)"
        return f"{self.database_name}={self.database_path}"

    @property
    def several_processes(self) -> bool:
        """Whether other processes run the rest of the bot's shards."""
        return self.shard_ids is not None and self.shard_count != len(self.shard_ids)

    @property
    def idle_expiry(self) -> timedelta:
        """How long a game may sit without a move before it is ended."""
        return timedelta(days=self.idle_expiry_days)

    @property
    def retention(self) -> timedelta:
        """How long an ended game is kept whole before it is pruned to its results and one
        compact record that replays it."""
        return timedelta(days=self.retention_days)

    @property
    def turn_reminder(self) -> timedelta:
        """How long the table waits on a player before reminding them it is their turn."""
        return timedelta(seconds=self.turn_reminder_seconds)

    @property
    def ranked_turn(self) -> timedelta:
        """How long a player of a ranked match has for each move before their clock runs out
        (which loses the game)."""
        return timedelta(seconds=self.ranked_turn_seconds)

    @property
    def member_check(self) -> timedelta:
        """How long a player seen in a game's server (or found there by asking Discord) counts
        as a member before a move by DM asks Discord again."""
        return timedelta(seconds=self.member_check_seconds)

    @property
    def muggins_window(self) -> timedelta:
        """With manual counting: how long opponents may call muggins after every claim, right
        or short (a wrong call costs the caller only the chance to call it again)."""
        return timedelta(seconds=self.muggins_seconds)

    @property
    def count_timeout(self) -> timedelta:
        """With manual counting: how long a player may take to claim before the bot counts
        their hand for them (with no muggins)."""
        return timedelta(seconds=self.count_timeout_seconds)

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, *, dotenv_path: str | None = None
    ) -> Settings:
        """Read the settings from ``env`` (default: ``os.environ`` after loading the working
        directory's ``.env``, or ``dotenv_path``: :func:`load_env_file`).

        A ``.env`` file never overrides a variable that is already set.
        """
        if env is None:
            load_env_file(dotenv_path)
            env = os.environ
        database_path, database_url = _database_url(env)
        shard_count, shard_ids = _shards(env)
        web_host, web_port, public_url, web_secret = _web(env)
        ops_host, ops_port = _ops(env)
        if shard_ids is not None and shard_count != len(shard_ids) and database_url is None:
            raise SettingsError(
                "Running some shards here and others in another process needs a database they "
                "share: set DATABASE_URL=postgresql://... (SQLite is one process's file)."
            )
        return cls(
            discord_token=_optional(env, "DISCORD_TOKEN"),
            database_path=database_path,
            database_url=database_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            web_host=web_host,
            web_port=web_port,
            public_url=public_url,
            web_secret=web_secret,
            client_secret=_client_secret(env, web_port),
            ops_host=ops_host,
            ops_port=ops_port,
            privacy_contact=_contact(env),
            dev_guild_id=_optional_int(env, "DEV_GUILD_ID"),
            log_level=_log_level(env, "LOG_LEVEL"),
            discord_api_base=_optional(env, "DISCORD_API_BASE"),
            discord_gateway_url=_optional(env, "DISCORD_GATEWAY_URL"),
            **_periods(env),
            **_clocks(env),
        )


def _periods(env: Mapping[str, str]) -> dict[str, float]:
    """The settings counted in days: how long a server's data outlives the bot's removal,
    how long a game may sit idle, how long ended games are kept."""
    return {
        "left_server_days": _days(
            env,
            "LEFT_SERVER_DAYS",
            DEFAULT_LEFT_SERVER_DAYS,
            MIN_LEFT_SERVER_DAYS,
            MAX_LEFT_SERVER_DAYS,
            "1",
        ),
        "idle_expiry_days": _days(
            env,
            "IDLE_EXPIRY_DAYS",
            DEFAULT_IDLE_EXPIRY_DAYS,
            MIN_IDLE_EXPIRY_DAYS,
            MAX_IDLE_EXPIRY_DAYS,
            f"1 hour ({MIN_IDLE_EXPIRY_DAYS:.3f})",
        ),
        "retention_days": _days(
            env,
            "RETENTION_DAYS",
            DEFAULT_RETENTION_DAYS,
            MIN_RETENTION_DAYS,
            MAX_RETENTION_DAYS,
            "1",
        ),
    }


def _clocks(env: Mapping[str, str]) -> dict[str, float]:
    """The settings counted in seconds: the games' clocks (a reminder, muggins, a count, a
    ranked turn), a member's check, and the gateway's waits."""
    return {
        "turn_reminder_seconds": _seconds(
            env, "TURN_REMINDER_SECONDS", DEFAULT_TURN_REMINDER_SECONDS
        ),
        "muggins_seconds": _seconds(env, "MUGGINS_SECONDS", DEFAULT_MUGGINS_SECONDS),
        "member_check_seconds": _seconds(
            env, "MEMBER_CHECK_SECONDS", DEFAULT_MEMBER_CHECK_SECONDS, or_none=True
        ),
        "count_timeout_seconds": _seconds(
            env, "COUNT_TIMEOUT_SECONDS", DEFAULT_COUNT_TIMEOUT_SECONDS
        ),
        "ranked_turn_seconds": _seconds_within(
            env, "RANKED_TURN_SECONDS", DEFAULT_RANKED_TURN_SECONDS, 5.0, MAX_RANKED_TURN_SECONDS
        ),
        "guild_ready_seconds": _seconds_within(
            env, "GUILD_READY_SECONDS", DEFAULT_GUILD_READY_SECONDS, 0.0, MAX_GUILD_READY_SECONDS
        ),
        "heartbeat_timeout_seconds": _seconds_within(
            env,
            "HEARTBEAT_TIMEOUT_SECONDS",
            DEFAULT_HEARTBEAT_TIMEOUT_SECONDS,
            MIN_HEARTBEAT_TIMEOUT_SECONDS,
            MAX_HEARTBEAT_TIMEOUT_SECONDS,
        ),
    }
