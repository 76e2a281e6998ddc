"""Discord's limits on what a message may carry, checked before anything is stored.

A message that breaks one is refused with 400 / code 50035 ("Invalid Form Body") and an
`errors` tree naming the field, as Discord does; the real client raises `HTTPException`.
"""

from __future__ import annotations

from typing import Any

from fakediscord.errors import Refusal, error_tree, merge_trees

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
#: Characters of one slash command's names, descriptions and choices together.
MAX_COMMAND_SIZE = 8000
COMPONENTS_V2 = 1 << 15

BUTTON = 2
SELECT_TYPES = (3, 5, 6, 7, 8)

# Components V2 (a message flagged IS_COMPONENTS_V2): Discord's "Component Reference".
ROW, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
#: Components a V2 message may hold in all, nested ones included.
MAX_V2_COMPONENTS = 40
#: Characters of every text display of a V2 message together.
MAX_V2_TEXT = 4000
MAX_SECTION_TEXTS = 3
MAX_GALLERY_ITEMS = 10
#: What may stand at the top of a V2 message, and inside a container.
V2_TOP_LEVEL = {ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = {ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR}


def _error(path: str, code: str, message: str) -> dict[str, Any]:
    # Discord nests errors by path: {"components": {"0": {"_errors": [...]}}}.
    return error_tree(path, code, message)


class _Errors(dict[str, Any]):
    """An `errors` tree that `update` merges into, key by key (two errors under one field)."""

    def update(self, *others: Any, **more: Any) -> None:
        for other in (*others, more):
            merge_trees(self, dict(other))


def check_message(
    body: dict[str, Any],
    *,
    has_files: bool = False,
    editing: bool = False,
    was_v2: bool = False,
) -> None:
    """Raise `DiscordError` 50035/50006 if the message body breaks a Discord limit
    (``was_v2``: an edit of a message sent with IS_COMPONENTS_V2, which stays so)."""
    errors: dict[str, Any] = _Errors()
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        errors.update(
            _error("content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
        )
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.update(
            _error("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
        )
    total = sum(_embed_size(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        errors.update(
            _error("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if was_v2 and "flags" in body and body["flags"] is not None and not flags & COMPONENTS_V2:
        errors.update(
            _error(
                "flags",
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message.",
            )
        )
    if flags & COMPONENTS_V2 or was_v2:
        errors.update(_check_v2(body, components))
    else:
        errors.update(_check_rows(components))
    if errors:
        raise Refusal.INVALID_FORM.error(errors)
    if not editing and not has_files and not (content or embeds or components or body.get("poll")):
        raise Refusal.EMPTY_MESSAGE.error()


def check_choices(choices: list[Any]) -> None:
    """Raise `DiscordError` 50035 if an autocomplete answer's choices break Discord's limits:
    at most 25, each with a name of 1 to 100 characters and a value (a string value of at
    most 100 characters)."""
    errors: dict[str, Any] = _Errors()
    if len(choices) > MAX_CHOICES:
        errors.update(
            _error(
                "data.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length."
            )
        )
    bad_length = f"Must be between 1 and {MAX_CHOICE_TEXT} in length."
    for n, choice in enumerate(choices):
        at = f"data.choices.{n}"
        if not isinstance(choice, dict):
            errors.update(_error(at, "MODEL_TYPE_CONVERT", "Only dictionaries may be used."))
            continue
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_TEXT:
            errors.update(_error(f"{at}.name", "BASE_TYPE_BAD_LENGTH", bad_length))
        value = choice.get("value")
        if value is None:
            errors.update(_error(f"{at}.value", "BASE_TYPE_REQUIRED", "This field is required"))
        elif isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
            errors.update(
                _error(
                    f"{at}.value",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICE_TEXT} or fewer in length.",
                )
            )
    if errors:
        raise Refusal.INVALID_FORM.error(errors)


def command_size(command: dict[str, Any]) -> int:
    """What counts toward `MAX_COMMAND_SIZE`: the command's name and description, every
    option's (subcommands and groups included), every choice's name and value, each field at
    its longest localization (Discord, Application Commands, Slash Commands)."""

    def longest(node: dict[str, Any], key: str) -> int:
        shown = [str(node.get(key) or "")]
        shown.extend(str(v) for v in (node.get(f"{key}_localizations") or {}).values())
        return max(len(text) for text in shown)

    def option(node: dict[str, Any]) -> int:
        size = longest(node, "name") + longest(node, "description")
        for choice in node.get("choices") or []:
            size += longest(choice, "name") + len(str(choice.get("value", "")))
        return size + sum(option(inner) for inner in node.get("options") or [])

    return option(command)


def check_command_sizes(commands: list[Any]) -> None:
    """Raise `DiscordError` 50035 for a slash command over `MAX_COMMAND_SIZE` characters."""
    errors: dict[str, Any] = _Errors()
    for index, command in enumerate(commands):
        slash = isinstance(command, dict) and int(command.get("type", 1)) == 1
        if slash and command_size(command) > MAX_COMMAND_SIZE:
            errors.update(
                _error(
                    str(index),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
                )
            )
    if errors:
        raise Refusal.INVALID_FORM.error(errors)


def check_laid_out(content: str, embeds: list[dict[str, Any]]) -> None:
    """Refuse an edit that lays out (IS_COMPONENTS_V2) a plain message but leaves it its
    content or embeds: a V2 message has neither, so the edit must clear them (``null``)."""
    errors: dict[str, Any] = _Errors()
    for legacy, left in (("content", content), ("embeds", embeds)):
        if left:
            errors.update(
                _error(
                    legacy,
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"{legacy} cannot be used with the IS_COMPONENTS_V2 flag.",
                )
            )
    if errors:
        raise Refusal.INVALID_FORM.error(errors)


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for fld in embed.get("fields") or []:
        size += len(fld.get("name") or "") + len(fld.get("value") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def _check_rows(rows: list[dict[str, Any]], at: str | None = None) -> dict[str, Any]:
    # ``at``: one row inside a V2 message (whose custom ids are checked with the rest).
    errors: dict[str, Any] = _Errors()
    if len(rows) > MAX_ROWS:
        errors.update(
            _error("components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
        )
    seen: set[str] = set()
    for r, row in enumerate(rows):
        where = at or f"components.{r}"
        items = row.get("components") or []
        if row.get("type") != 1:
            errors.update(_error(where, "UNION_TYPE_CHOICES", "Top-level component must be a row."))
            continue
        if not items:
            errors.update(_error(where, "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
        if len(items) > MAX_ROW_BUTTONS:
            errors.update(
                _error(
                    f"{where}.components",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
                )
            )
        for i, item in enumerate(items):
            if item.get("type") != BUTTON and item.get("type") not in SELECT_TYPES:
                errors.update(
                    _error(
                        f"{where}.components.{i}",
                        "UNION_TYPE_CHOICES",
                        f"Component type {item.get('type')} is not allowed in a row.",
                    )
                )
        has_select = any(i.get("type") in SELECT_TYPES for i in items)
        if has_select and len(items) > 1:
            errors.update(
                _error(
                    f"{where}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        if at is None:
            for i, item in enumerate(items):
                errors.update(_check_item(item, f"{where}.components.{i}", seen))
    return errors


def _check_v2(body: dict[str, Any], components: list[dict[str, Any]]) -> dict[str, Any]:
    """A V2 message: no content or embeds beside its components, which are checked for what
    may hold what, how many there are (40 in all) and how much text (4000 characters)."""
    errors: dict[str, Any] = _Errors()
    for legacy in ("content", "embeds", "poll", "sticker_ids"):
        if body.get(legacy):
            errors.update(
                _error(
                    legacy,
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"{legacy} cannot be used with the IS_COMPONENTS_V2 flag.",
                )
            )
    counted = {"components": 0, "text": 0}

    def place(nodes: list[dict[str, Any]], allowed: set[int], path: str) -> None:
        for i, node in enumerate(nodes):
            where = f"{path}.{i}"
            kind = node.get("type")
            counted["components"] += 1
            if kind not in allowed:
                errors.update(
                    _error(
                        where, "UNION_TYPE_CHOICES", f"Component type {kind} is not allowed here."
                    )
                )
                continue
            children = node.get("components") or []
            if kind == ROW:
                errors.update(_check_rows([node], where))
                counted["components"] += len(children)
            elif kind == CONTAINER:
                _length(children, 1, MAX_V2_COMPONENTS, f"{where}.components")
                place(children, IN_CONTAINER, f"{where}.components")
            elif kind == SECTION:
                _length(children, 1, MAX_SECTION_TEXTS, f"{where}.components")
                place(children, {TEXT_DISPLAY}, f"{where}.components")
                accessory = node.get("accessory")
                if not isinstance(accessory, dict):
                    errors.update(
                        _error(f"{where}.accessory", "BASE_TYPE_REQUIRED", "This field is required")
                    )
                else:
                    place([accessory], {BUTTON, THUMBNAIL}, f"{where}.accessory")
            elif kind == TEXT_DISPLAY:
                content = str(node.get("content") or "")
                if not content:
                    errors.update(
                        _error(f"{where}.content", "BASE_TYPE_REQUIRED", "This field is required")
                    )
                counted["text"] += len(content)
            elif kind == MEDIA_GALLERY:
                _length(node.get("items") or [], 1, MAX_GALLERY_ITEMS, f"{where}.items")
            elif kind in (THUMBNAIL, FILE):
                key = "media" if kind == THUMBNAIL else "file"
                if not (node.get(key) or {}).get("url"):
                    errors.update(
                        _error(f"{where}.{key}", "BASE_TYPE_REQUIRED", "This field is required")
                    )

    def _length(items: list[Any], low: int, high: int, where: str) -> None:
        if not low <= len(items) <= high:
            errors.update(
                _error(
                    where, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
                )
            )

    place(components, V2_TOP_LEVEL, "components")
    if counted["components"] > MAX_V2_COMPONENTS:
        errors.update(
            _error(
                "components",
                "BASE_TYPE_MAX_LENGTH",
                f"A message may hold {MAX_V2_COMPONENTS} or fewer components in all.",
            )
        )
    if counted["text"] > MAX_V2_TEXT:
        errors.update(
            _error(
                "components",
                "BASE_TYPE_MAX_LENGTH",
                f"Text displays may hold {MAX_V2_TEXT} or fewer characters in all.",
            )
        )
    errors.update(_check_ids(components, "components"))
    return errors


def _check_ids(items: list[dict[str, Any]], where: str) -> dict[str, Any]:
    # Components V2 nest freely; only ids and selects are checked there.
    errors: dict[str, Any] = _Errors()
    seen: set[str] = set()

    def walk(nodes: list[dict[str, Any]], path: str) -> None:
        for i, node in enumerate(nodes):
            errors.update(_check_item(node, f"{path}.{i}", seen))
            walk(node.get("components") or [], f"{path}.{i}.components")
            for single in ("component", "accessory"):
                if isinstance(node.get(single), dict):
                    errors.update(_check_item(node[single], f"{path}.{i}.{single}", seen))

    walk(items, where)
    return errors


def _check_item(item: dict[str, Any], where: str, seen: set[str]) -> dict[str, Any]:
    errors: dict[str, Any] = _Errors()
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if len(custom_id) > MAX_CUSTOM_ID:
            errors.update(
                _error(
                    f"{where}.custom_id",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CUSTOM_ID} or fewer in length.",
                )
            )
        if custom_id in seen:
            errors.update(
                _error(
                    f"{where}.custom_id",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(custom_id)
    kind = item.get("type")
    if kind == BUTTON:
        if len(item.get("label") or "") > MAX_BUTTON_LABEL:
            errors.update(
                _error(
                    f"{where}.label",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_BUTTON_LABEL} or fewer in length.",
                )
            )
        if item.get("style") != 5 and item.get("style") != 6 and not custom_id:
            errors.update(
                _error(f"{where}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
            )
    if kind == 3:
        options = item.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            errors.update(
                _error(
                    f"{where}.options",
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                )
            )
        low = int(item.get("min_values", 1))
        high = int(item.get("max_values", 1))
        if low > high or high > max(len(options), 1) or low < 0:
            errors.update(
                _error(
                    f"{where}.max_values",
                    "BASE_TYPE_BAD_INT",
                    "max_values must be at least min_values and at most the number of options.",
                )
            )
    return errors
