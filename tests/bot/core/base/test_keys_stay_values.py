"""A message's key stays a value to the store's edge (issue 55): in the core it is a
:class:`~bot.core.base.keys.MessageKey` everywhere (records, protocols, parameters); its text is
made and read in ``bot/store`` alone (and what a post's nonce is made from)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers.parsed import parsed

# Read as syntax trees, each file parsed once in one process (tests/helpers/parsed.py).
pytestmark = pytest.mark.xdist_group("sources")

CORE = Path(__file__).resolve().parents[4] / "bot" / "core"
#: The one module that makes a key from its text, and its text from a key.
KEYS = CORE / "base" / "keys.py"
#: What is made of a key, or of a message named by one.
MADE_WITH_A_KEY = frozenset({"Owed", "MessageRecord", "AnswerKept", "PendingPost"})


def _annotated(tree: ast.AST) -> list[tuple[str, ast.expr, int]]:
    """Every annotated name in ``tree``: parameters and fields (and annotated variables)."""
    found: list[tuple[str, ast.expr, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.append((node.arg, node.annotation, node.lineno))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append((node.target.id, node.annotation, node.lineno))
    return found


def _named_by_a_literal(func: str, call: ast.Call) -> bool:
    """Whether ``call`` gives a record, an owed message or a call's sequel a key as a literal."""
    if func in MADE_WITH_A_KEY:
        return bool(call.args) and isinstance(call.args[0], ast.Constant)
    return func == "Sequel" and any(
        k.arg == "key" and isinstance(k.value, ast.Constant) and k.value.value is not None
        for k in call.keywords
    )


def _keys_as_text(source: str) -> list[str]:
    """Where ``source`` carries a message key as text: a ``key`` (or ``keys``, ``*_key``)
    annotated ``str``; what is sent or kept by key, mapped from ``str``; a key made from text
    or made text; a record, an owed message or a call's sequel given a key as a literal."""
    tree = parsed(source)
    found = []
    for name, annotation, line in _annotated(tree):
        text = ast.unparse(annotation)
        if "key" in name.lower() and "str" in text:
            found.append(f"{line}: {name}: {text}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            text = ast.unparse(node)
            if text.startswith(("dict[str, ", "Mapping[str, ")) and any(
                kind in text for kind in ("MessageRecord", "Owed", "Life")
            ):
                found.append(f"{node.lineno}: {text}")
        if not isinstance(node, ast.Call):
            continue
        func = ast.unparse(node.func)
        if func == "MessageKey.parse":
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif func == "str" and node.args:
            made = ast.unparse(node.args[0])
            if made.startswith("MessageKey") or made.endswith((".key", "_key")) or made == "key":
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif _named_by_a_literal(func, node):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_check_sees_a_key_carried_as_text() -> None:
    source = (
        "def f(key: str, on_key: str | None, sent: Mapping[str, MessageRecord]) -> None:\n"
        "    named = MessageKey.parse(key)\n"
        "    text = str(MessageKey.hand(1, 0)) + str(record.key)\n"
        "    Owed('result', view)\n"
        "    Sequel(owner, 1, 2, key='lobby')\n"
        "class R:\n"
        "    key: str\n"
    )
    assert len(_keys_as_text(source)) == 9, _keys_as_text(source)
    assert _keys_as_text("def f(key: MessageKey, token: str) -> None:\n    Owed(RESULT, v)\n") == []


def test_no_message_key_is_text_in_the_core() -> None:
    found = {
        str(path.relative_to(CORE)): carried
        for path in sorted(CORE.rglob("*.py"))
        if path != KEYS and (carried := _keys_as_text(path.read_text(encoding="utf-8")))
    }
    assert found == {}
