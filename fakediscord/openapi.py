"""Discord's own description of its HTTP API, the first judge of every request.

Discord publishes its API as an OpenAPI 3.1 document generated from the API itself
(github.com/discord/discord-api-spec, `specs/openapi.json`, MIT). The emulator reads it (the
copy built into `discord_api.json` from the npm package that carries it, or Discord's own file
named by `FAKEDISCORD_OPENAPI`) and holds every REST request to it before any handler runs: the
path's parameters, the query's and the body's (JSON, or a multipart upload's `payload_json`).
A request it refuses is answered as Discord answers one: 400 with code 50035, "Invalid Form
Body", and an `errors` tree naming each field and what is wrong with it.

Where Discord's documentation says the API takes more than the description, the emulator takes
it too, and only that (`LENIENCIES`, each with its source; `fakediscord/README.md` lists them).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from fakediscord.errors import Refusal

#: The description the emulator judges by unless `FAKEDISCORD_OPENAPI` names another file.
BUILT = Path(__file__).with_name("discord_api.json")
#: An environment variable naming an OpenAPI file to judge by instead (Discord's own
#: `specs/openapi.json`, say).
ENVIRONMENT = "FAKEDISCORD_OPENAPI"
_URI = "urn:fakediscord:discord-api"

#: What the API takes beyond its description, with the source that says so.
LENIENCIES: dict[str, str] = {
    "ids as integers": (
        "A snowflake (SnowflakeType: a string of digits in the description) may be sent as a "
        "JSON integer. Discord's docs type ids as `snowflake`, sent as strings so that languages "
        "without 64-bit integers keep them whole (Reference, Snowflakes); the API parses either "
        "form, and discord.py sends integers (`recipient_id` of Create DM, `allowed_mentions`' "
        "`users` and `roles`, `message_reference`'s `message_id`)."
    ),
    "integers as strings": (
        "A field typed as an integer takes a string that parses as one: discord-api-spec's "
        "README, Spec conventions ('Our API accepts strings for int fields if they are parseable "
        "as ints')."
    ),
    "boolean query strings": (
        "A boolean query parameter takes any value: 'True', 'true' and '1' mean true and "
        "anything else false (Reference, Boolean Query Strings)."
    ),
    "unions": (
        "`anyOf` and `oneOf` both mean one of the listed forms (discord-api-spec's README, Spec "
        "conventions); a body that fits more than one is taken."
    ),
    "routes described elsewhere": (
        "`POST /oauth2/token` is described by the OAuth2 documentation (Topics, OAuth2: Token "
        "URL), not by the OpenAPI file; it is judged by its own rules in `activities.py`."
    ),
}

_DIGITS = {"type": "string", "pattern": "^-?[0-9]+$"}


@dataclass(frozen=True)
class Operation:
    """One method on one path of the description: what its parameters and its body must be."""

    method: str
    template: str
    operation_id: str
    path: dict[str, Draft202012Validator]
    query: dict[str, Draft202012Validator]
    body: Draft202012Validator | None
    #: Where the body's schema is in the description (a JSON pointer), for its fast check.
    body_pointer: str | None = None

    @property
    def segments(self) -> tuple[str, ...]:
        """The template's segments (`{name}` for a parameter)."""
        return tuple(self.template.strip("/").split("/"))


@dataclass
class Verdicts:
    """What the judge decided: requests checked, and each refusal (for tests and reports)."""

    checked: int = 0
    by_operation: dict[str, int] = field(default_factory=dict)
    refused: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    undescribed: list[str] = field(default_factory=list)


def _lenient(document: dict[str, Any]) -> dict[str, Any]:
    """The document with `LENIENCIES` applied to its schemas."""
    document = json.loads(json.dumps(document))
    schemas = document.get("components", {}).get("schemas", {})
    snowflake = schemas.get("SnowflakeType")
    if snowflake is not None:
        schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}

    def widen(node: Any) -> Any:
        if isinstance(node, list):
            return [widen(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: widen(value) for key, value in node.items()}
        kinds = node.get("type")
        numeric = {"integer", "number"}
        if "const" in node or "enum" in node:
            return node  # a discriminator (a component's or an option's `type`): as described
        if (isinstance(kinds, str) and kinds in numeric) or (
            isinstance(kinds, list) and numeric & set(kinds)
        ):
            return {"anyOf": [node, _DIGITS]}
        return node

    document["components"] = {**document.get("components", {}), "schemas": widen(schemas)}
    read: dict[str, Any] = _any_of(document)
    return read


def _any_of(node: Any) -> Any:
    """``node`` with every ``oneOf`` read as ``anyOf`` (leniency "unions": a body that fits
    more than one form is taken)."""
    if isinstance(node, list):
        return [_any_of(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {"anyOf" if key == "oneOf" else key: _any_of(value) for key, value in node.items()}


class Judge:
    """Discord's OpenAPI description of its HTTP API, asked of each request."""

    def __init__(self, document: dict[str, Any], source: str) -> None:
        self.source = source
        self.document = _lenient(document)
        resource = DRAFT202012.create_resource(self.document)
        self._registry: Registry[Any] = Registry().with_resource(_URI, resource)
        self._operations: dict[str, list[Operation]] = {}
        self._compiled: dict[str, Callable[[Any], bool]] = {}
        self._folder: Path | None = None
        #: Each parameter schema's verdict on each value asked (see `_takes`).
        self._taken: dict[tuple[int, str], bool] = {}
        for template, item in self.document.get("paths", {}).items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method == "parameters" or not isinstance(operation, dict):
                    continue
                self._operations.setdefault(method.upper(), []).append(
                    self._operation(method.upper(), template, operation, shared)
                )
        for found in self._operations.values():
            # A literal segment wins over a parameter (`messages/@original` over
            # `messages/{message_id}`), as the API routes them.
            found.sort(key=lambda o: [s.startswith("{") for s in o.segments])

    def _validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{_URI}#{pointer}"}, registry=self._registry)

    def _operation(
        self, method: str, template: str, operation: dict[str, Any], shared: list[Any]
    ) -> Operation:
        escaped = template.replace("~", "~0").replace("/", "~1")
        base = f"/paths/{escaped}/{method.lower()}"
        path: dict[str, Draft202012Validator] = {}
        query: dict[str, Draft202012Validator] = {}
        for index, parameter in enumerate(operation.get("parameters", [])):
            where = path if parameter.get("in") == "path" else query
            if parameter.get("in") in ("path", "query"):
                where[parameter["name"]] = self._validator(f"{base}/parameters/{index}/schema")
        item = f"/paths/{escaped}/parameters"
        for index, parameter in enumerate(shared):
            if parameter.get("in") == "path" and parameter["name"] not in path:
                path[parameter["name"]] = self._validator(f"{item}/{index}/schema")
        body, pointer = None, None
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            pointer = f"{base}/requestBody/content/application~1json/schema"
            body = self._validator(pointer)
        operation_id = str(operation.get("operationId", ""))
        return Operation(method, template, operation_id, path, query, body, pointer)

    def _fits(self, operation: Operation, body: Any) -> bool:
        """Whether ``body`` fits the operation's schema, by its compiled check (the first
        time an operation is asked, its schema is compiled). A body that does not fit is then
        read again by jsonschema, whose errors say where: the compiled check only spares a
        valid body (nearly every request) jsonschema's slower walk."""
        if operation.body_pointer is None:
            return False
        return self._check(operation.body_pointer)(body)

    def _check(self, pointer: str) -> Callable[[Any], bool]:
        """The compiled check of the schema at ``pointer``, compiled (or loaded) the first
        time it is asked."""
        fits = self._compiled.get(pointer)
        if fits is None:
            definition = {**self.document, "$schema": _DRAFT7, "$ref": f"#{pointer}"}
            folder = self._checks_folder()
            kept = None if folder is None else folder / hashlib.sha256(pointer.encode()).hexdigest()
            try:
                fits = _compiled_check(definition, kept)
            except fastjsonschema.JsonSchemaDefinitionException:
                fits = _never
            self._compiled[pointer] = fits
        return fits

    def _checks_folder(self) -> Path | None:
        """Where the compiled checks are kept for the processes after this one: beside the
        emulator's bytecode (as Python keeps a module's), one folder per description, this
        module and fastjsonschema's version; None where no bytecode is written. Making a check
        (fastjsonschema writes it as Python, hundreds of kilobytes for a message's body, then
        Python compiles that) took 0.1 to 0.25 s of CPU, in every process that judged that
        request (each test process, each playground); loading one kept, about a millisecond."""
        if sys.dont_write_bytecode:
            return None
        if self._folder is None:
            digest = hashlib.sha256()
            for path in (Path(self.source), Path(__file__)):
                with contextlib.suppress(OSError):
                    digest.update(path.read_bytes())
            tag = f"{fastjsonschema.VERSION} {sys.implementation.cache_tag}"
            digest.update(tag.encode())
            here = Path(__file__).resolve().parent
            prefix = sys.pycache_prefix
            base = Path(prefix, *here.parts[1:]) if prefix else here / "__pycache__"
            self._folder = base / f"openapi-checks-{digest.hexdigest()[:16]}"
        return self._folder

    def keep_checks(self) -> int:
        """Compile every operation's check of its body now, kept for the processes after this
        one (a set-up's, before the tests' processes start); how many there are."""
        pointers = {o.body_pointer for found in self._operations.values() for o in found}
        kept = [self._check(pointer) for pointer in pointers if pointer is not None]
        return len(kept)

    def _takes(self, validator: Draft202012Validator, value: str) -> bool:
        """Whether a parameter's schema takes ``value`` from a URL in one of its readings:
        worked out by jsonschema once per schema and value (a test's requests name the same
        channels and messages again and again; the schemas live as long as the judge)."""
        key = (id(validator), value)
        taken = self._taken.get(key)
        if taken is None:
            taken = self._taken[key] = _any_valid(validator, _readings(value))
        return taken

    def operation(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation `method` `path` (without `/api/v10`) is, and its path's parameters."""
        segments = path.strip("/").split("/")
        for operation in self._operations.get(method.upper(), []):
            template = operation.segments
            if len(template) != len(segments):
                continue
            values: dict[str, str] = {}
            for expected, given in zip(template, segments, strict=True):
                if expected.startswith("{") and expected.endswith("}"):
                    values[expected[1:-1]] = given
                elif expected != given:
                    break
            else:
                return operation, values
        return None

    def errors(
        self, operation: Operation, values: Mapping[str, str], query: Mapping[str, str], body: Any
    ) -> dict[str, Any]:
        """Discord's `errors` tree for what the request breaks (empty when it breaks nothing)."""
        tree: dict[str, Any] = {}
        for name, value in values.items():
            validator = operation.path.get(name)
            if validator is not None and not self._takes(validator, value):
                _put(tree, [name], "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
        for name, value in query.items():
            validator = operation.query.get(name)
            if validator is not None and not self._takes(validator, value):
                _put(tree, [name], "BASE_TYPE_INVALID", f'Value "{value}" is not valid here.')
        if operation.body is not None and body is not _NO_BODY:
            fits = self._fits(operation, body)
            if not fits or os.environ.get(CROSS_CHECK):
                leaves = list(_leaves(operation.body.iter_errors(body)))
                if fits and leaves:
                    raise AssertionError(
                        f"the compiled check took a body jsonschema refuses ({operation.template}:"
                        f" {leaves[0].message}): the compiled check is more lenient here"
                    )
                for leaf in leaves:
                    _put(tree, *_described(leaf))
        return tree


#: An environment variable that, set, has every body read by jsonschema too and fails a
#: request the compiled check took though jsonschema refuses it (for a sweep: the compiled
#: check must never be the more lenient).
CROSS_CHECK = "FAKEDISCORD_OPENAPI_CROSS_CHECK"
_DRAFT7 = "http://json-schema.org/draft-07/schema#"


def _compiled_check(definition: dict[str, Any], kept: Path | None) -> Callable[[Any], bool]:
    """A compiled check of ``definition`` (fastjsonschema: the description uses no keyword
    draft 7 lacks, and formats are not checked, as jsonschema does not check them), loaded
    from the file ``kept`` when a process before this one made it, else made and kept there
    (a file that cannot be read as one is made again)."""
    code = None
    if kept is not None:
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            code = marshal.loads(kept.read_bytes())
    if code is None:
        source = fastjsonschema.compile_to_code(definition, use_formats=False)
        code = compile(source, "<the OpenAPI description's check>", "exec")
        if kept is not None:
            with contextlib.suppress(OSError):
                kept.parent.mkdir(parents=True, exist_ok=True)
                # Written whole under another name, then renamed: a process reading it never
                # finds half of one.
                making = kept.with_name(f"{kept.name}.{os.getpid()}")
                making.write_bytes(marshal.dumps(code))
                making.replace(kept)
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # (fastjsonschema's own code for the description's schema)
    validate: Callable[[Any], Any] = namespace["validate"]

    def fits(body: Any) -> bool:
        try:
            validate(body)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return True

    return fits


def _never(_: Any) -> bool:
    return False


_NO_BODY = object()
#: Pass as `body` to `check` for a request that carries none.
NO_BODY: Any = _NO_BODY


def check(
    judge: Judge,
    verdicts: Verdicts,
    method: str,
    path: str,
    query: Mapping[str, str],
    body: Any,
) -> None:
    """Raise `DiscordError` 400 / 50035 if the description refuses the request; note it."""
    found = judge.operation(method, path)
    if found is None:
        verdicts.undescribed.append(f"{method} {path}")
        return
    operation, values = found
    verdicts.checked += 1
    key = f"{method} {operation.template}"
    verdicts.by_operation[key] = verdicts.by_operation.get(key, 0) + 1
    tree = judge.errors(operation, values, query, body)
    if tree:
        verdicts.refused.append((f"{method} {path}", tree))
        raise Refusal.INVALID_FORM.error(tree)


@cache
def _load(path: str) -> Judge:
    with open(path, encoding="utf-8") as file:
        document = json.load(file)
    return Judge(document, path)


def load(path: str | os.PathLike[str] | None = None) -> Judge:
    """The judge for `path`, else the file `FAKEDISCORD_OPENAPI` names, else the built copy
    (read once per process)."""
    chosen = path or os.environ.get(ENVIRONMENT) or BUILT
    return _load(str(Path(chosen).resolve()))


def _readings(text: str) -> list[Any]:
    """What a string from a URL may stand for: itself, a number, a boolean."""
    readings: list[Any] = [text]
    try:
        readings.append(int(text))
    except ValueError:
        with contextlib.suppress(ValueError):
            readings.append(float(text))
    readings.append(text in ("True", "true", "1"))
    return readings


def _any_valid(validator: Draft202012Validator, readings: Iterable[Any]) -> bool:
    return any(validator.is_valid(reading) for reading in readings)


def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """The errors that say what is wrong: inside a union, those of the form the value meant;
    for a value whose `type` no form has, that one error."""
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            kinds = _unknown_kind(error)
            if kinds:
                yield ValidationError(
                    "no form has this type",
                    validator="union",
                    validator_value=kinds,
                    instance=error.instance,
                    path=error.absolute_path,
                )
            else:
                yield from _leaves(_meant(error))
        else:
            yield error


def _unknown_kind(error: ValidationError) -> list[Any]:
    """The `type` values a union's forms take, when the value's is none of them (else [])."""
    if not isinstance(error.instance, dict) or "type" not in error.instance:
        return []
    depth = len(error.absolute_path)
    kinds: list[Any] = []
    branches: dict[int, bool] = {}
    for inner in error.context or []:
        branch = int(inner.relative_schema_path[0])
        missed = len(inner.absolute_path) == depth + 1 and inner.absolute_path[-1] == "type"
        branches[branch] = branches.get(branch, False) or missed
        allowed: Any = inner.validator_value
        if missed and inner.validator == "const":
            kinds.append(allowed)
        elif missed and inner.validator == "enum":
            kinds.extend(allowed)
    if not branches or not all(branches.values()):
        return []
    return sorted(set(kinds), key=lambda k: (not isinstance(k, int), str(k).zfill(20)))


def _meant(error: ValidationError) -> list[ValidationError]:
    """The errors of the union's branch the value meant: not one of another kind (`null` for a
    value), one whose `type` discriminator it has, then the one it misses least (the fewest
    errors, the deepest)."""
    branches: dict[int, list[ValidationError]] = {}
    for inner in error.context or []:
        branches.setdefault(int(inner.relative_schema_path[0]), []).append(inner)
    depth = len(error.absolute_path)

    def missed_discriminator(inner: ValidationError) -> bool:
        return len(inner.absolute_path) == depth + 1 and inner.absolute_path[-1] == "type"

    def wrong_kind(inner: ValidationError) -> bool:
        return len(inner.absolute_path) == depth and inner.validator == "type"

    def rank(found: list[ValidationError]) -> tuple[bool, bool, int, int]:
        leaves = list(_leaves(found))
        return (
            any(wrong_kind(e) for e in found),
            any(missed_discriminator(e) for e in found),
            len(leaves),
            -max(len(e.absolute_path) for e in leaves),
        )

    ranked = sorted(branches.values(), key=rank)
    return ranked[0]


def _described(error: ValidationError) -> tuple[list[Any], str, str]:
    """Where `error` is (a path of keys), Discord's code for it, and its message."""
    path = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    kind = error.validator
    value: Any = error.instance
    bound: Any = error.validator_value
    if kind == "required":
        missing = [key for key in bound if key not in (value or {})]
        return (
            [*path, missing[0] if missing else "_"],
            "BASE_TYPE_REQUIRED",
            ("This field is required"),
        )
    if kind in ("maxLength", "minLength", "maxItems", "minItems", "maxProperties"):
        low = schema.get("minLength", schema.get("minItems"))
        high = schema.get("maxLength", schema.get("maxItems", schema.get("maxProperties")))
        if low is not None and high is not None:
            return path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        if high is not None:
            return path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length."
        return path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length."
    if kind == "maximum":
        return (
            path,
            "NUMBER_TYPE_MAX",
            (f"int value should be less than or equal to {error.validator_value}."),
        )
    if kind == "minimum":
        return (
            path,
            "NUMBER_TYPE_MIN",
            (f"int value should be greater than or equal to {error.validator_value}."),
        )
    if kind in ("const", "enum"):
        choices = [bound] if kind == "const" else list(bound)
        shown = ", ".join(json.dumps(choice) for choice in choices)
        return path, "BASE_TYPE_CHOICES", f"Value must be one of ({shown})."
    if kind == "union":
        shown = ", ".join(str(k) for k in bound)
        return path, "UNION_TYPE_CHOICES", f'Value of field "type" must be one of ({shown}).'
    if kind == "pattern":
        return path, "STRING_TYPE_REGEX", "String value did not match validation regex."
    if kind == "type":
        expected = bound if isinstance(bound, list) else [bound]
        if "object" in expected:
            return path, "DICT_TYPE_CONVERT", "Only dictionaries may be used."
        if "array" in expected:
            return path, "LIST_TYPE_CONVERT", "Only iterables may be used."
        if "boolean" in expected:
            return path, "BASE_TYPE_BOOLEAN", "Must be either true or false."
        if "integer" in expected or "number" in expected:
            return path, "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.'
        return path, "BASE_TYPE_STRING", f'Could not interpret "{value}" as string.'
    return path, "BASE_TYPE_INVALID", f"Invalid value ({error.message[:80]})."


def _put(tree: dict[str, Any], path: list[Any], code: str, message: str) -> None:
    """Add one error at `path` to Discord's nested `errors` tree."""
    node = tree
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})
