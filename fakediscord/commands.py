"""The slash-command schema the bot synced, and turning a typed line into an interaction's data.

`/cribbage play card:5H` is read the way the Discord client reads it: the command, then any
subcommand group and subcommand, then `name:value` options, each value converted to the option's
type (integers, booleans, users with `resolved` users and members, channels, roles) and checked
against its choices and bounds. A line Discord's client would refuse raises `EmulatorUsageError`.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from fakediscord import payloads
from fakediscord.errors import EmulatorUsageError
from fakediscord.model import Channel, Guild, Role, Snowflakes, User, World

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)


class CommandRegistry:
    """Commands synced globally and per guild, with the ids the emulator gave them."""

    def __init__(self, ids: Snowflakes) -> None:
        self._ids = ids
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sync_count = 0

    def replace(
        self, app_id: int, guild_id: int | None, commands: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Bulk overwrite (PUT): keep ids of commands whose name is unchanged, as Discord does."""
        old = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        stored = [self._entry(app_id, guild_id, command, old_ids) for command in commands]
        if guild_id is None:
            self.global_commands = stored
        else:
            self.guild_commands[guild_id] = stored
        self.sync_count += 1
        return copy.deepcopy(stored)

    def add_global(self, app_id: int, command: dict[str, Any]) -> None:
        """Add one global command (what Discord makes itself: an Activity's default Entry
        Point command)."""
        self.global_commands.append(self._entry(app_id, None, command, {}))

    def _entry(
        self,
        app_id: int,
        guild_id: int | None,
        command: dict[str, Any],
        old_ids: dict[tuple[str, int], str],
    ) -> dict[str, Any]:
        """A command as stored: its id (kept for an unchanged name and type), its version and
        Discord's defaults."""
        entry = copy.deepcopy(command)
        key = (entry["name"], entry.get("type", 1))
        entry["id"] = old_ids.get(key) or str(self._ids.next())
        entry["application_id"] = str(app_id)
        entry.setdefault("type", 1)
        entry.setdefault("description", "")
        entry.setdefault("options", [])
        entry.setdefault("default_member_permissions", None)
        entry.setdefault("dm_permission", True)
        entry.setdefault("nsfw", False)
        entry["version"] = str(self._ids.next())
        if guild_id is not None:
            entry["guild_id"] = str(guild_id)
        return entry

    def entry_point(self) -> dict[str, Any] | None:
        """The app's Entry Point command (a global ``PRIMARY_ENTRY_POINT``, type 4), if any."""
        return next((c for c in self.global_commands if c.get("type") == 4), None)

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        """The commands registered globally (None) or in one guild."""
        if guild_id is None:
            return copy.deepcopy(self.global_commands)
        return copy.deepcopy(self.guild_commands.get(guild_id, []))

    def find(self, name: str, guild: Guild | None) -> dict[str, Any] | None:
        """The chat-input command called `name` as seen from `guild` (its own commands first)."""
        candidates = []
        if guild is not None:
            candidates.extend(self.guild_commands.get(guild.id, []))
        candidates.extend(self.global_commands)
        for command in candidates:
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        return None

    def names(self, guild: Guild | None) -> list[str]:
        """Names of the chat-input commands available in `guild` (or in DMs)."""
        found: list[str] = []
        if guild is not None:
            found.extend(c["name"] for c in self.guild_commands.get(guild.id, []))
        found.extend(c["name"] for c in self.global_commands)
        return sorted(set(found))


@dataclass
class TypedCommand:
    """A typed slash-command line resolved against the synced schema."""

    command: dict[str, Any]
    path: list[str]
    options: list[dict[str, Any]]
    resolved: dict[str, dict[str, Any]] = field(default_factory=dict)
    focused: dict[str, Any] | None = None

    def data(self) -> dict[str, Any]:
        """The interaction's `data` object."""
        data: dict[str, Any] = {
            "id": self.command["id"],
            "name": self.command["name"],
            "type": 1,
            "options": self.options,
        }
        if "guild_id" in self.command:
            data["guild_id"] = self.command["guild_id"]
        if self.resolved:
            data["resolved"] = self.resolved
        return data

    @property
    def qualified_name(self) -> str:
        """The command as Discord names it, e.g. `cribbage play`."""
        return " ".join([self.command["name"], *self.path])


class ChoicesOffered(EmulatorUsageError):
    """An option with fixed choices was asked to autocomplete: the client lists its choices
    instead (no interaction is sent). ``option`` is its schema."""

    def __init__(self, option: dict[str, Any]) -> None:
        super().__init__(f"Option {option['name']} has fixed choices.")
        self.option = option


def parse_line(
    line: str,
    registry: CommandRegistry,
    world: World,
    channel: Channel,
    user: User,
    *,
    focus: bool = False,
) -> TypedCommand:
    """Turn `/name [group] [sub] opt:value ...` into interaction data, as the client would.

    With `focus=True` (autocomplete), the last option typed is the focused one and is sent as
    the raw text typed so far (a trailing `?` is dropped); if none is typed yet, the first
    option with autocomplete is focused with an empty value.
    """
    text = line.strip()
    if not text.startswith("/"):
        raise EmulatorUsageError(f"A slash command starts with /, not {_quoted(text)}")
    words = text[1:].split(None, 1)
    if not words:
        raise EmulatorUsageError("Type a command name after '/'.")
    name, rest = words[0], (words[1] if len(words) > 1 else "")
    guild = channel.guild
    command = registry.find(name, guild)
    if command is None:
        synced = ", ".join(f"/{n}" for n in registry.names(guild)) or "none"
        raise EmulatorUsageError(f"/{name} is not a synced command here (synced: {synced})")
    check_available(command, channel, user, world.owner.bot_user)
    schema: list[dict[str, Any]] = command.get("options") or []
    path: list[str] = []
    while schema and schema[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        parts = rest.split(None, 1)
        choices = [o["name"] for o in schema]
        if not parts or parts[0] not in choices:
            got = f" (not {_quoted(parts[0])})" if parts else ""
            raise EmulatorUsageError(
                f"/{' '.join([name, *path])} needs one of: {', '.join(choices)}{got}"
            )
        sub = next(o for o in schema if o["name"] == parts[0])
        path.append(sub["name"])
        rest = parts[1] if len(parts) > 1 else ""
        schema = sub.get("options") or []
    typed = TypedCommand(command=command, path=path, options=[])
    values = _split_options(rest, schema)
    built = _build_options(values, schema, world, guild, typed, focus)
    # Nest the options under the subcommand group / subcommand they belong to.
    nested = built
    parent_schema: list[dict[str, Any]] = command.get("options") or []
    wrappers = []
    for part in path:
        option = next(o for o in parent_schema if o["name"] == part)
        wrappers.append({"name": part, "type": option["type"]})
        parent_schema = option.get("options") or []
    for wrapper in reversed(wrappers):
        wrapper["options"] = nested
        nested = [wrapper]
    typed.options = nested
    return typed


def _quoted(text: str) -> str:
    """What someone typed, quoted for a message to them (not as a Python string)."""
    return f'"{text}"'


def check_available(command: dict[str, Any], channel: Channel, user: User, bot: User) -> None:
    """Refuse a command the Discord client would not offer this user here."""
    name = command["name"]
    contexts = command.get("contexts")
    if channel.is_private:
        # Only a user install reaches a conversation the bot is not in: the command must allow
        # user installs and private channels, and this person must have installed the app.
        if 1 not in (command.get("integration_types") or [0]):
            raise EmulatorUsageError(f"/{name} cannot be installed to a user")
        if contexts is None or 2 not in contexts:
            raise EmulatorUsageError(f"/{name} cannot be used in DMs between people")
        if not user.installed:
            raise EmulatorUsageError(f"{user.name} has not installed the app")
        return
    if channel.guild is None:
        if command.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
            raise EmulatorUsageError(f"/{name} cannot be used in DMs")
        return
    if contexts is not None and 0 not in contexts:
        raise EmulatorUsageError(f"/{name} cannot be used in a server")
    if channel.guild.member(bot) is None:
        # A server that did not invite the bot: only a user install reaches it.
        if 1 not in (command.get("integration_types") or [0]):
            raise EmulatorUsageError(f"/{name} cannot be installed to a user")
        if not user.installed:
            raise EmulatorUsageError(f"{user.name} has not installed the app")
    required = command.get("default_member_permissions")
    member = channel.guild.member(user)
    if required is not None and member is not None:
        perms = member.permissions
        if not perms & (1 << 3) and (perms & int(required)) != int(required):
            raise EmulatorUsageError(f"/{name} needs permissions {user.name} does not have")


def _split_options(rest: str, schema: list[dict[str, Any]]) -> list[tuple[str, str]]:
    names = [re.escape(o["name"]) for o in schema]
    if not rest.strip():
        return []
    if not names:
        raise EmulatorUsageError(f"This command takes no options, not {_quoted(rest.strip())}")
    pattern = re.compile(r"(?:^|(?<=\s))(" + "|".join(names) + r"):")
    matches = list(pattern.finditer(rest))
    if not matches or rest[: matches[0].start()].strip():
        known = [o["name"] for o in schema]
        first = next((o["name"] for o in schema if o.get("required")), known[0])
        raise EmulatorUsageError(
            f"Options are typed as name:value, such as {first}:{rest.split()[0]}"
            f" (options: {', '.join(known)})"
        )
    values = []
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(rest)
        value = rest[match.end() : end].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values.append((match.group(1), value))
    return values


def _build_options(
    values: list[tuple[str, str]],
    schema: list[dict[str, Any]],
    world: World,
    guild: Guild | None,
    typed: TypedCommand,
    focus: bool,
) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in schema}
    seen = [n for n, _ in values]
    for dup in {n for n in seen if seen.count(n) > 1}:
        raise EmulatorUsageError(f"Option {dup} is given twice.")
    focused_name: str | None = None
    if focus:
        if values:
            focused_name = values[-1][0]
            last_name, last_value = values[-1]
            values = [*values[:-1], (last_name, last_value.removesuffix("?").rstrip())]
        else:
            auto = [o for o in schema if o.get("autocomplete")]
            if not auto:
                raise EmulatorUsageError("No option of this command has autocomplete.")
            focused_name = auto[0]["name"]
            values = [(focused_name, "")]
        if not by_name[focused_name].get("autocomplete"):
            if by_name[focused_name].get("choices"):
                raise ChoicesOffered(by_name[focused_name])
            raise EmulatorUsageError(f"Option {focused_name} has no autocomplete.")
    built = []
    for name, raw in values:
        option = by_name[name]
        if name == focused_name:
            entry = {"name": name, "type": option["type"], "value": raw, "focused": True}
            typed.focused = entry
        else:
            try:
                value = _convert(option, raw, world, guild, typed)
            except EmulatorUsageError:
                if not focus:
                    raise
                value = raw  # while autocompleting, other options are sent as typed
            entry = {"name": name, "type": option["type"], "value": value}
        built.append(entry)
    if not focus:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in seen]
        if missing:
            raise EmulatorUsageError(f"Missing required option(s): {', '.join(missing)}")
    return built


def _convert(
    option: dict[str, Any], raw: str, world: World, guild: Guild | None, typed: TypedCommand
) -> Any:
    kind = option["type"]
    name = option["name"]
    value: Any
    if kind in (STRING, INTEGER, NUMBER) and option.get("choices"):
        for choice in option["choices"]:
            if raw.lower() in (str(choice["name"]).lower(), str(choice["value"]).lower()):
                return choice["value"]
        # What to type for each, with the label the client shows beside it.
        typed_as = [
            f"{name}:{c['value']}"
            + (f" ({c['name']})" if str(c["name"]) != str(c["value"]) else "")
            for c in option["choices"]
        ]
        raise EmulatorUsageError(
            f"{name}: {_quoted(raw)} is not one of the choices; type {', '.join(typed_as)}"
        )
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(raw) <= high:
            raise EmulatorUsageError(f"{name}: length must be between {low} and {high}")
        return raw
    if kind in (INTEGER, NUMBER):
        try:
            value = int(raw) if kind == INTEGER else float(raw)
        except ValueError:
            kind_name = "a whole number" if kind == INTEGER else "a number"
            raise EmulatorUsageError(f"{name}: {_quoted(raw)} is not {kind_name}") from None
        if "min_value" in option and value < option["min_value"]:
            raise EmulatorUsageError(f"{name}: must be at least {option['min_value']}")
        if "max_value" in option and value > option["max_value"]:
            raise EmulatorUsageError(f"{name}: must be at most {option['max_value']}")
        return value
    if kind == BOOLEAN:
        lowered = raw.lower()
        if lowered in ("true", "yes", "y", "1", "on"):
            return True
        if lowered in ("false", "no", "n", "0", "off"):
            return False
        raise EmulatorUsageError(f"{name}: {_quoted(raw)} is not true or false")
    if kind == USER or (kind == MENTIONABLE and not raw.startswith("<@&")):
        target = _find_user(raw, world, guild)
        if target is None and kind == MENTIONABLE:
            return _resolve_role(raw, guild, typed, name)
        if target is None:
            raise EmulatorUsageError(f"{name}: no user called {_quoted(raw)}")
        typed.resolved.setdefault("users", {})[str(target.id)] = payloads.user(target)
        membership = guild.member(target) if guild else None
        if membership is not None:
            typed.resolved.setdefault("members", {})[str(target.id)] = payloads.member(
                membership, with_user=False, with_permissions=True
            )
        return str(target.id)
    if kind in (ROLE, MENTIONABLE):
        return _resolve_role(raw, guild, typed, name)
    if kind == CHANNEL:
        channel = _find_channel(raw, world, guild)
        if channel is None:
            raise EmulatorUsageError(f"{name}: no channel called {_quoted(raw)}")
        entry = {k: v for k, v in payloads.channel(channel).items() if k != "permission_overwrites"}
        entry["permissions"] = str((1 << 41) - 1)
        typed.resolved.setdefault("channels", {})[str(channel.id)] = entry
        return str(channel.id)
    raise EmulatorUsageError(f"{name}: options of type {kind} cannot be typed in the emulator")


def _find_user(raw: str, world: World, guild: Guild | None) -> User | None:
    match = re.fullmatch(r"<@!?(\d+)>", raw)
    if match:
        return world.users.get(int(match.group(1)))
    wanted = raw.removeprefix("@").lower()
    for candidate in world.users.values():
        if candidate.name.lower() == wanted and (guild is None or guild.member(candidate)):
            return candidate
    return None


def _find_channel(raw: str, world: World, guild: Guild | None) -> Channel | None:
    match = re.fullmatch(r"<#(\d+)>", raw)
    if match:
        return world.channels.get(int(match.group(1)))
    wanted = raw.removeprefix("#").lower()
    pool = guild.channels.values() if guild else world.channels.values()
    return next((c for c in pool if c.name.lower() == wanted), None)


def _resolve_role(raw: str, guild: Guild | None, typed: TypedCommand, name: str) -> str:
    role: Role | None = None
    if guild is not None:
        match = re.fullmatch(r"<@&(\d+)>", raw)
        for candidate in (guild.everyone, guild.moderator_role):
            wanted = raw.removeprefix("@").lower()
            if (match and int(match.group(1)) == candidate.id) or candidate.name.lower() == wanted:
                role = candidate
    if role is None:
        raise EmulatorUsageError(f"{name}: no role called {_quoted(raw)}")
    typed.resolved.setdefault("roles", {})[str(role.id)] = payloads.role(role)
    return str(role.id)
