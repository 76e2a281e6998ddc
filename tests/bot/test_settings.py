"""Settings from the environment and from a .env file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path

import pytest

from bot.core.base.timing import TOKEN_USABLE
from bot.core.ranked.turns import MOVES_IN_A_ROW, REACH_ALLOWANCE
from bot.settings import MAX_RANKED_TURN_SECONDS, Settings, SettingsError
from tests.helpers.settings_read import example_comment, settings_read


def test_defaults_when_nothing_is_set() -> None:
    settings = Settings.from_env({})
    assert settings.discord_token is None
    assert settings.database_path == "./cribbage.db"
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.idle_expiry == timedelta(days=7)
    assert settings.discord_api_base is None and settings.discord_gateway_url is None


def test_every_setting_is_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": " abc ",
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
            "DISCORD_API_BASE": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            "IDLE_EXPIRY_DAYS": "0.5",
        }
    )
    assert settings == Settings(
        discord_token="abc",
        database_path="/tmp/x.db",
        dev_guild_id=123,
        log_level="DEBUG",
        discord_api_base="http://127.0.0.1:8080/api/v10",
        discord_gateway_url="ws://127.0.0.1:8080/gateway",
        idle_expiry_days=0.5,
    )
    assert settings.idle_expiry == timedelta(hours=12)


def test_blank_values_count_as_unset() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "  ", "DEV_GUILD_ID": ""})
    assert settings.discord_token is None and settings.dev_guild_id is None


@pytest.mark.parametrize(
    ("name", "value"),
    [("DEV_GUILD_ID", "guild"), ("IDLE_EXPIRY_DAYS", "week"), ("IDLE_EXPIRY_DAYS", "0")],
)
def test_bad_values_name_the_setting(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


def test_dotenv_file_fills_unset_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DATABASE_PATH=/data/crib.db\nLOG_LEVEL=warning\n")
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    monkeypatch.setenv("LOG_LEVEL", "ERROR")  # the environment wins over the file
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "IDLE_EXPIRY_DAYS"):
        monkeypatch.delenv(name, raising=False)
    try:
        settings = Settings.from_env(dotenv_path=str(env_file))
        assert settings.database_path == "/data/crib.db"
        assert settings.log_level == "ERROR"
    finally:
        # load_dotenv wrote it straight into os.environ: drop it without telling monkeypatch,
        # which would otherwise put the file's value back at teardown for every later test.
        os.environ.pop("DATABASE_PATH", None)


#: The settings read within bounds: each one's name, how it is read, its value when unset,
#: values taken (and what each is read as), and values refused (and what the refusal says).
_WITHIN_BOUNDS = [
    pytest.param(
        "TURN_REMINDER_SECONDS",
        lambda s: s.turn_reminder,
        timedelta(seconds=60),
        {"5": timedelta(seconds=5)},
        dict.fromkeys(("4", "86401", "soon", "nan", "inf"), "TURN_REMINDER_SECONDS"),
        id="the turn reminder's delay",
    ),
    pytest.param(
        "MEMBER_CHECK_SECONDS",
        lambda s: s.member_check,
        timedelta(minutes=10),
        # 0: Discord is asked before every move by DM.
        {"30": timedelta(seconds=30), "0": timedelta(0)},
        {
            **dict.fromkeys(
                ("3", "86401", "nan", "-1"), "MEMBER_CHECK_SECONDS must be 0, or between 5"
            ),
            "always": "MEMBER_CHECK_SECONDS must be a number of seconds",
        },
        id="how long membership is taken as seen",
    ),
    pytest.param(
        "GUILD_READY_SECONDS",
        lambda s: s.guild_ready_seconds,
        2.0,  # discord.py's own
        {"0.05": 0.05, "0": 0.0},
        {
            **dict.fromkeys(
                ("-0.5", "61", "nan", "inf"), "GUILD_READY_SECONDS must be from 0 to 60"
            ),
            "soon": "GUILD_READY_SECONDS must be a number of seconds",
        },
        id="how long the bot waits for its servers after ready",
    ),
    pytest.param(
        "HEARTBEAT_TIMEOUT_SECONDS",
        lambda s: s.heartbeat_timeout_seconds,
        60.0,  # discord.py's own
        {"2.5": 2.5},
        dict.fromkeys(
            ("0.5", "601", "nan", "inf"), "HEARTBEAT_TIMEOUT_SECONDS must be from 1 to 600"
        ),
        id="how long the gateway may say nothing",
    ),
    pytest.param(
        "RETENTION_DAYS",
        lambda s: s.retention,
        timedelta(days=30),
        {"1": timedelta(days=1), "3650": timedelta(days=3650)},
        dict.fromkeys(("0.5", "3651", "inf", "nan", "forever", "-3"), "RETENTION_DAYS"),
        id="retention, in days",
    ),
]


@pytest.mark.parametrize(("name", "read", "unset", "taken", "refused"), _WITHIN_BOUNDS)
def test_a_setting_within_bounds(
    name: str,
    read: Callable[[Settings], object],
    unset: object,
    taken: Mapping[str, object],
    refused: Mapping[str, str],
) -> None:
    """The setting ``name``, as ``read`` finds it: ``unset`` when it is not set, each value of
    ``taken`` read as it maps to, each of ``refused`` refused with a message its pattern
    finds."""
    assert read(Settings.from_env({})) == unset
    for value, found in taken.items():
        assert read(Settings.from_env({name: value})) == found, value
    for value, says in refused.items():
        with pytest.raises(SettingsError, match=says):
            Settings.from_env({name: value})


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e10", "1e-300", "0.01", "366", "-1"])
def test_idle_expiry_is_a_finite_time_between_an_hour_and_a_year(value: str) -> None:
    with pytest.raises(SettingsError, match="IDLE_EXPIRY_DAYS") as refused:
        Settings.from_env({"IDLE_EXPIRY_DAYS": value})
    assert "365" in str(refused.value) and "hour" in str(refused.value)


@pytest.mark.parametrize(("value", "days"), [("0.0417", 0.0417), ("1", 1.0), ("365", 365.0)])
def test_idle_expiry_within_the_range_is_taken(value: str, days: float) -> None:
    assert Settings.from_env({"IDLE_EXPIRY_DAYS": value}).idle_expiry_days == days


@pytest.mark.parametrize("value", ["verbose", "INF0", "5", "warn ing"])
def test_an_unknown_log_level_is_refused_with_the_valid_ones(value: str) -> None:
    with pytest.raises(SettingsError, match="LOG_LEVEL") as refused:
        Settings.from_env({"LOG_LEVEL": value})
    for level in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        assert level in str(refused.value)


def test_log_levels_are_read_in_any_case() -> None:
    assert Settings.from_env({"LOG_LEVEL": "warning"}).log_level == "WARNING"
    assert Settings.from_env({"LOG_LEVEL": " Error "}).log_level == "ERROR"


@pytest.mark.parametrize(
    ("url", "path", "postgres"),
    [
        ("sqlite:///games.db", "games.db", None),
        ("sqlite:////var/lib/crib/games.db", "/var/lib/crib/games.db", None),
        ("postgresql://bot@db:5432/crib", "./cribbage.db", "postgresql://bot@db:5432/crib"),
        ("postgres://bot@db/crib", "./cribbage.db", "postgres://bot@db/crib"),
    ],
)
def test_database_url_names_a_sqlite_file_or_a_postgresql_database(
    url: str, path: str, postgres: str | None
) -> None:
    settings = Settings.from_env({"DATABASE_URL": url})
    assert (settings.database_path, settings.database_url) == (path, postgres)
    assert settings.database == (postgres or path)


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": "mysql://db/crib"},
        {"DATABASE_URL": "sqlite:///"},
        {"DATABASE_URL": "sqlite:///a.db", "DATABASE_PATH": "b.db"},
    ],
)
def test_a_database_url_that_cannot_be_used_is_refused(env: dict[str, str]) -> None:
    with pytest.raises(SettingsError, match="DATABASE_URL"):
        Settings.from_env(env)


def test_shards_are_read_as_a_count_and_this_process_s_ids() -> None:
    pg = {"DATABASE_URL": "postgresql://db/crib"}
    assert Settings.from_env({}).shard_count is None
    every = Settings.from_env({"SHARD_COUNT": "4"})
    assert (every.shard_count, every.shard_ids, every.several_processes) == (4, None, False)
    some = Settings.from_env({**pg, "SHARD_COUNT": "4", "SHARD_IDS": "0, 2-3"})
    assert (some.shard_ids, some.several_processes) == ((0, 2, 3), True)
    whole = Settings.from_env({"SHARD_COUNT": "2", "SHARD_IDS": "0-1"})
    assert whole.several_processes is False


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "DATABASE_URL=postgresql"),
    ],
)
def test_shard_settings_that_cannot_be_used_are_refused(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError, match=says):
        Settings.from_env(env)


def _refused_with_a_range(name: str) -> bool:
    """Whether ``name`` refuses ``-1`` saying the range it takes."""
    try:
        Settings.from_env({name: "-1"})
    except SettingsError as refused:
        return re.search(r"(?:between|from) .+? (?:and|to) [\d.]+", str(refused)) is not None
    return False


#: Every setting that refuses a number out of its range: drawn from the settings read, where
#: a list written here left RANKED_TURN_SECONDS out.
@pytest.mark.parametrize("name", [n for n in settings_read() if _refused_with_a_range(n)])
def test_env_example_gives_every_numeric_settings_range(name: str) -> None:
    # Issue 25: .env.example said no range for some settings that refuse values out of one.
    example = (Path(__file__).parents[2] / ".env.example").read_text(encoding="utf-8")
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({name: "-1"})
    bounds = re.search(r"(?:between|from) (.+?) (?:and|to) ([\d.]+)", str(refused.value))
    assert bounds is not None, refused.value
    said = example_comment(example, name)
    for number in [*re.findall(r"\d+(?:\.\d+)?", bounds.group(1)), bounds.group(2)]:
        assert re.search(rf"(?<![\d.]){re.escape(number)}(?!\.?\d)", said), (number, said)


def test_the_game_pages_are_off_unless_a_port_is_set() -> None:
    settings = Settings.from_env({"WEB_SECRET": "s" * 16})
    assert settings.web_port is None and settings.public_url is None


def test_the_game_pages_settings_are_read() -> None:
    web = {"WEB_HOST": "0.0.0.0", "WEB_PORT": "8080", "PUBLIC_URL": "https://crib.example/"}
    settings = Settings.from_env({**web, "WEB_SECRET": "a secret of some length"})
    assert (settings.web_host, settings.web_port) == ("0.0.0.0", 8080)
    assert settings.public_url == "https://crib.example"
    assert settings.web_secret == "a secret of some length"


def test_the_activity_is_on_with_the_client_secret_and_the_game_pages() -> None:
    pages = {"WEB_PORT": "8080", "WEB_SECRET": "a secret of some length"}
    assert not Settings.from_env(pages).activity
    settings = Settings.from_env({**pages, "CLIENT_SECRET": "from the portal"})
    assert settings.activity and settings.client_secret == "from the portal"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"CLIENT_SECRET": "from the portal"}, "WEB_PORT"),
        ({"WEB_PORT": "8080"}, "WEB_SECRET"),
        ({"WEB_PORT": "8080", "WEB_SECRET": "short"}, "WEB_SECRET"),
        ({"WEB_PORT": "http", "WEB_SECRET": "s" * 16}, "WEB_PORT"),
        ({"WEB_PORT": "70000", "WEB_SECRET": "s" * 16}, "WEB_PORT"),
        ({"PUBLIC_URL": "https://crib.example"}, "WEB_PORT"),
        ({"WEB_PORT": "80", "WEB_SECRET": "s" * 16, "PUBLIC_URL": "crib.example"}, "PUBLIC_URL"),
    ],
)
def test_bad_game_pages_settings_are_refused(env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_env(env)


def test_the_muggins_window_is_said_to_follow_every_claim() -> None:
    # Issue 25: these still said muggins was offered only after a short claim; every claim,
    # right or short, opens the window now (a wrong call costs only the chance to call it).
    root = Path(__file__).parents[2]
    comment = example_comment(
        (root / ".env.example").read_text(encoding="utf-8"), "MUGGINS_SECONDS"
    )
    service = (root / "docs" / "bot-service.md").read_text(encoding="utf-8")
    section = service[service.index("## Manual counting and muggins") :]
    section = section[: section.index("\n## ")]
    docstring = Settings.muggins_window.__doc__ or ""
    stale = []
    for where, text in (
        (".env.example", comment),
        ("Settings.muggins_window", docstring),
        ("docs/bot-service.md", section),
    ):
        flat = " ".join(text.replace("#", " ").split())
        says_every_claim = "every claim" in flat or "right or short" in flat
        says_short = any(
            f"{before} a short claim" in flat for before in ("after", "on", "opponent of")
        )
        if not says_every_claim or says_short or "only the chance" not in flat:
            stale.append(where)
    assert stale == []


def test_health_metrics_and_privacy_settings() -> None:
    # Issue 50: health, readiness and metrics on a port of their own; the privacy contact.
    default = Settings.from_env({})
    assert default.ops_port is None and default.ops_host == "127.0.0.1"
    assert default.left_server_days == 30 and default.privacy_contact is None
    chosen = Settings.from_env(
        {
            "OPS_PORT": "9108",
            "OPS_HOST": "0.0.0.0",
            "LEFT_SERVER_DAYS": "7",
            "PRIVACY_CONTACT": "privacy@example.org",
        }
    )
    assert (chosen.ops_host, chosen.ops_port) == ("0.0.0.0", 9108)
    assert chosen.left_server_grace.days == 7 and chosen.privacy_contact == "privacy@example.org"
    for env, named in (
        ({"OPS_PORT": "nine"}, "OPS_PORT"),
        ({"OPS_PORT": "70000"}, "OPS_PORT"),
        ({"LEFT_SERVER_DAYS": "0"}, "LEFT_SERVER_DAYS"),
        ({"PRIVACY_CONTACT": "x" * 201}, "PRIVACY_CONTACT"),
        ({"PRIVACY_CONTACT": "two\nlines"}, "PRIVACY_CONTACT"),
    ):
        with pytest.raises(SettingsError) as refused:
            Settings.from_env(env)
        assert named in str(refused.value)


def test_a_ranked_turn_is_never_set_longer_than_a_waiting_players_token_reaches_them() -> None:
    """A ranked place is reached only through its player's own interactions' tokens, good for
    15 minutes after their last move: the other player's moves in a row (four cards while they
    have said go) must fit in that, or a turn comes that nothing can show them, and its clock
    loses them the game. RANKED_TURN_SECONDS took up to 86,400 (and the playground set 600)."""
    longest = MAX_RANKED_TURN_SECONDS
    assert MOVES_IN_A_ROW * (longest + REACH_ALLOWANCE) <= TOKEN_USABLE
    assert Settings.from_env({"RANKED_TURN_SECONDS": f"{longest:g}"}).ranked_turn_seconds == longest
    with pytest.raises(SettingsError, match=f"RANKED_TURN_SECONDS must be from 5 to {longest:g}"):
        Settings.from_env({"RANKED_TURN_SECONDS": "600"})
    root = Path(__file__).parents[2]
    running = (root / "docs" / "running.md").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert f"5 to {longest:g}, default 60" in " ".join(running.split())
    assert f"a ranked move has {longest:g} s there" in " ".join(readme.split())


def test_the_env_file_is_read_from_the_working_directory(tmp_path: Path) -> None:
    """Issue 68, item 9: ``.env`` was read from the package's folder (python-dotenv's
    ``load_dotenv()`` looks beside the code that calls it), while ``DATABASE_PATH`` is
    relative to the working directory: it is read where the bot is run from, as python-dotenv's
    own ``dotenv run`` and twelve-factor hosts read it."""
    (tmp_path / ".env").write_text("DATABASE_PATH=./from-the-env-file.db\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_"))}
    env["PYTHONPATH"] = str(Path(__file__).parents[2])
    done = subprocess.run(
        [sys.executable, "-m", "bot", "health"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,  # a bound for a hung run, not a speed
    )
    assert done.returncode == 2, done.stderr
    assert "No database at ./from-the-env-file.db" in done.stderr, done.stderr
