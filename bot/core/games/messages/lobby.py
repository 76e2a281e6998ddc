"""The lobby message: who is seated, and what the table is waiting for."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.rules_help import RULE_NAMES as _RULE_NAMES
from bot.core.base.text import escape, plural
from bot.core.games.records import GameStatus
from engine.counting import Counting
from engine.rules import Rules
from engine.variants import Variant, title_unless_standard

__all__ = ["lobby_text", "partners_text", "table_kind", "teams_text"]

_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def partners_text(names: Sequence[str], rules: Rules) -> str:
    """Who partners whom at a full table, by the names given (escaped for a message, plain for
    a page): "Al & Cy against Bea & Dee" (teams of three, "Al & Cy & Eve against …"; three
    teams of two, "… against … against …")."""
    return " against ".join(" & ".join(names[s] for s in side) for side in rules.sides)


def _partners(rules: Rules) -> str:
    """Where partners sit, by seat number: "Partners sit opposite: seats 1 & 3 against 2 &
    4." (three teams of two: "… 1 & 4 against 2 & 5 against 3 & 6."; teams of three sit in
    alternate seats: "Teams sit in alternate seats: 1 & 3 & 5 against 2 & 4 & 6.")."""
    seats = " against ".join(" & ".join(str(s + 1) for s in side) for side in rules.sides)
    half = rules.seats // 2
    opposite = all(len(side) == 2 and side[1] - side[0] == half for side in rules.sides)
    if opposite:
        return f"Partners sit opposite: seats {seats}."
    return f"Teams sit in alternate seats: {seats}."


def teams_text(rules: Rules) -> str | None:
    """How the players are sided, in words, when sides are teams: "two teams of three",
    "three teams of two", "two teams of two" (None: each plays for themselves)."""
    if not rules.partners:
        return None
    count, size = len(rules.sides), max(len(side) for side in rules.sides)
    return f"{_NUMBERS.get(count, str(count))} teams of {_NUMBERS.get(size, str(size))}"


def table_kind(rules: Rules, variant: Variant | None = None) -> str:
    """What a table plays, in a line, as its lobby names it: "Seven-card cribbage, 2 players,
    to 181", "Six-hand cribbage, 6 players in two teams of three, to 121" (the standard game:
    "Cribbage, 4 players in two teams of two, to 121")."""
    title = title_unless_standard(variant) or "Cribbage"
    teams = teams_text(rules)
    players = f"{rules.seats} players" + (f" in {teams}" if teams else "")
    return f"{title}, {players}, to {rules.target}"


#: The last line of a lobby that is no longer open, by what became of the game.
_CLOSED = {
    GameStatus.ACTIVE: "The game has started.",
    GameStatus.FINISHED: "The game has started.",
    GameStatus.CANCELLED: "This game was cancelled.",
    GameStatus.EXPIRED: "This game ended: nobody moved for too long.",
}


def lobby_text(
    creator: str,
    names: Sequence[str],
    rules: Rules,
    state: GameStatus = GameStatus.LOBBY,
    occasion: str | None = None,
    variant: Variant | None = None,
) -> str:
    """The lobby message of a table playing by ``rules`` (its players, target and options,
    and who partners whom) as it reads while the game is in ``state``; it says who opened
    the game, or what it is played for (``occasion``: a tournament's round), and the
    variant it is played in (``variant``, named unless it is the standard game)."""
    num_players = rules.seats
    seated = ", ".join(escape(n) for n in names) if names else "nobody"
    counted = (
        "you count your hands (muggins)" if rules.counting is Counting.MANUAL else "auto counting"
    )
    title = title_unless_standard(variant)
    kind = f"{title}, " if title else ""
    head = (
        f"**Cribbage** — {kind}{num_players} players, to {rules.target};"
        f" {_RULE_NAMES[rules.scoring]}, {counted}."
        f" {escape(occasion) if occasion else f'Opened by {escape(creator)}'}."
    )
    partners = f" {_partners(rules)}" if rules.partners else ""
    lines = [head + partners, f"Seated ({len(names)}/{num_players}): {seated}"]
    if rules.partners and len(names) == num_players:
        pairs = f"Partners: {partners_text([escape(n) for n in names], rules)}."
        if state is GameStatus.LOBBY:
            pairs += f" {escape(creator)} can press **Change partners** for another pairing."
        lines.append(pairs)
    if state is not GameStatus.LOBBY:
        lines.append(_CLOSED[state])
    elif missing := num_players - len(names):
        lines.append(
            f"Waiting for {plural(missing, 'more player')}: press **Join**"
            f" (or {escape(creator)} can add a computer player)."
        )
    else:
        lines.append("The table is full: press **Start** to deal.")
    return "\n".join(lines)
