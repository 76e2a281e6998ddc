"""The README as the tests read it: its sections, the local playground's commands (as the
playground's help lists them), and the walk through the playground it gives a newcomer."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord.playground import HELP

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str, level: str = "##") -> str:
    """The README's section of that title (a ``##`` one, or ``###``), to the next of its level
    or above."""
    start = README.index(f"\n{level} {title}\n")
    ends = [README.find(f"\n{'#' * n} ", start + 1) for n in range(2, len(level) + 1)]
    ends = [end for end in ends if end != -1]
    return README[start : min(ends) if ends else None]


def playground_commands() -> list[str]:
    """The words that start each of the playground's commands, as its help lists them."""
    commands: list[str] = []
    for line in HELP.splitlines():
        if line.startswith("   "):
            continue  # a description wrapped onto another line
        usage = re.split(r"\s{2,}", line.strip())[0]
        if usage.startswith("/"):
            continue  # the slash commands, typed as in Discord
        for form in usage.split("|"):
            words = form.split()
            # "mod on": the second word is part of the command; "click [mN] K" takes arguments.
            commands.append(" ".join(words[:2]) if words[0] == "mod" else words[0])
    commands += re.findall(r"`(\w+)` lists", HELP)
    return commands


def walk_through(step: int | None = None) -> list[str]:
    """What "A first walk through it" has a newcomer type, in its order (``step``: in that
    numbered step alone): each quoted line that is a slash command or one of the playground's
    commands (a quoted choice such as `seven_card` is not typed alone)."""
    first_words = {command.split()[0] for command in playground_commands()}
    text = section("A first walk through it", "###")
    if step is not None:
        steps = re.split(r"\n(?=\d+\. )", text)
        text = next(part for part in steps if part.startswith(f"{step}. "))
    quoted = re.findall(r"`([^`]+)`", text)
    lines = [" ".join(q.split()) for q in quoted]  # (a line wrapped inside its quotes)
    return [line for line in lines if line.startswith("/") or line.split()[0] in first_words]
