"""Every deal of a game on the record: each deal's final table against the game's own record.

The channel's tables are the game's record: each deal's calls and its show, itemised. A newer
deal may supersede a table's *live* look while quick players (or the computer) move on, never
the deal's own final table. :func:`recorded_deals` replays a game from what the bot stored of
it (its shuffles and its action log, never its deal log, which keeps three deals), and
:func:`table_problems` reads each deal's final table against those events, line by line
(:func:`~tests.helpers.table_facts.check_calls`): one line a deal whose table is missing,
doubled, or behind (still live, or short of its show). A lesson's table says beside its calls
the rules first met in its deal: those are read too (:func:`lesson_problems`). At a private
table (one message, edited through interactions' tokens) a deal's final table is a look of
that one message: :func:`private_problems` finds, for each deal, a look that shows it whole.

:func:`FullSpeed` plays a game the way the issue that asked for this played it: a *Hint* before
each decision, then the move the moment it is offered.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from bot.core.deck.shuffles import ScriptedRandom
from bot.core.games.snapshot import decode
from bot.core.messages.lesson import RULES, rules_met
from engine.events import Dealt, Event, GameOver
from engine.game import Game
from engine.views import PublicView
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from tests.helpers.bot_db import Database, logged_actions, rows
from tests.helpers.delivery_checks import first_look, live_ids
from tests.helpers.table_facts import check_calls

__all__ = [
    "FullSpeed",
    "Recorded",
    "channel_tables",
    "lesson_problems",
    "private_problems",
    "recorded_deals",
    "table_problems",
]

#: A lesson's note on a table begins so (:mod:`bot.core.messages.lesson`).
NOTE = "📘 "
#: The first deal's table begins with the cut for deal.
CUT = "Cut for deal"
#: A deal's table names it at the start of a line.
HEADER = re.compile(r"^\*\*Deal (\d+)\*\* —", re.MULTILINE)


@dataclass(frozen=True)
class Recorded:
    """A game as its own record tells it: the events of each deal (0: the cut for deal), and
    the table's view of the game as stored now (names, rules, phase)."""

    view: PublicView
    deals: dict[int, list[Event]]
    over: bool

    def finished(self) -> list[int]:
        """The deals whose table is final: every deal before the current one, and the last
        once the game is over."""
        last = max(self.deals)
        return [d for d in sorted(self.deals) if d >= 1 and (d < last or self.over)]

    def events(self, deal: int) -> list[Event]:
        """What ``deal``'s table calls (the first deal's begins with the cut for deal)."""
        return [*self.deals.get(0, []), *self.deals[1]] if deal == 1 else self.deals[deal]


def recorded_deals(database: Database, game_id: int) -> Recorded:
    """The game dealt again from its stored shuffles, every logged action applied in turn: the
    events of every deal, whatever the bot's deal log still keeps."""
    [(stored,)] = rows(database, "SELECT snapshot FROM games WHERE id = ?", (game_id,))
    snapshot = decode(stored, random.Random(0))
    game = snapshot.game
    assert snapshot.shuffles is not None, "a game dealt since its shuffles are recorded"
    again, first = Game.new(
        list(game.state.players),
        rng=ScriptedRandom(list(snapshot.shuffles)),
        rules=game.state.rules,
        dealer=game.state.given_dealer,
    )
    deals: dict[int, list[Event]] = {0: []}
    deal = 0

    def add(events: Iterable[Event]) -> None:
        nonlocal deal
        for event in events:
            if isinstance(event, Dealt):
                deal = event.deal_number
                deals[deal] = []
            deals[deal].append(event)

    add(first)
    for action in logged_actions(database, game_id):
        add(again.apply(action))
    over = any(isinstance(e, GameOver) for e in deals[deal])
    return Recorded(game.public_view(), deals, over)


def channel_tables(fd: FakeDiscord, channel: Channel) -> dict[int, list[Message]]:
    """Each deal's table messages in ``channel``, by deal (a table's first look names it: the
    first deal's after the cut for deal)."""
    found: dict[int, list[Message]] = {}
    for message in fd.messages(channel):
        if message.ephemeral or message.deleted:
            continue
        named = HEADER.search(first_look(message).words())
        if named is not None:
            found.setdefault(int(named[1]), []).append(message)
    return found


def _calls_problem(recorded: Recorded, deal: int, text: str) -> str | None:
    """Why ``text`` is not ``deal``'s final table, if it is not (its lesson notes aside)."""
    lines = [line for line in text.splitlines() if not line.startswith(NOTE)]
    try:
        check_calls(recorded.events(deal), "\n".join(lines), recorded.view, live=False)
    except AssertionError as unmet:
        last = [line for line in lines if line.strip()][-1:]
        ends = last[0][:70] if last else "(empty)"
        return f"deal {deal}'s table is behind (it ends {ends!r}; {str(unmet)[:300]})"
    return None


def table_problems(fd: FakeDiscord, channel: Channel, recorded: Recorded) -> list[str]:
    """One line for each finished deal whose table in ``channel`` is missing, posted more than
    once, or not its final table (its calls and its show as the game's record says them)."""
    tables = channel_tables(fd, channel)
    problems: list[str] = []
    for deal in recorded.finished():
        found = tables.get(deal, [])
        if not found:
            problems.append(f"deal {deal}'s table is missing")
            continue
        if len(found) > 1:
            problems.append(f"deal {deal}'s table was posted {len(found)} times")
        problem = _calls_problem(recorded, deal, found[-1].words())
        if problem is not None:
            problems.append(problem)
    return problems


def lesson_problems(fd: FakeDiscord, channel: Channel, recorded: Recorded) -> list[str]:
    """One line for each rule a lesson met and never explained on the table of the deal it was
    first met in (its final table says it beside the calls)."""
    tables = channel_tables(fd, channel)
    taught: set[str] = set()
    problems: list[str] = []
    for deal in recorded.finished():
        found = tables.get(deal, [])
        text = found[-1].words() if found else ""
        for event in recorded.events(deal):
            for rule in rules_met(event):
                if rule in taught or (rule == "seal"):
                    continue
                taught.add(rule)
                if f"{NOTE}**{RULES[rule][0]}**" not in text:
                    problems.append(f"deal {deal}'s table never explained {rule!r}")
    return problems


def private_problems(table: Message, recorded: Recorded) -> list[str]:
    """At a private table (one message, every deal's table a look of it): one line for each
    finished deal that no look of the message showed whole, its calls and its show."""
    looks = [*(look.words() for look in table.history), table.words()]
    problems: list[str] = []
    for deal in recorded.finished():
        header = f"**Deal {deal}** —"
        shown = [_section(words, header) for words in looks if header in words]
        if not shown:
            problems.append(f"deal {deal}'s table was never shown")
        elif all(_calls_problem(recorded, deal, text) is not None for text in shown):
            why = _calls_problem(recorded, deal, shown[-1])
            problems.append(f"deal {deal}'s table was never shown whole: {why}")
    return problems


def _section(words: str, header: str) -> str:
    """A deal's own lines in a look of a private table: from its header (the first deal's:
    from the cut for deal before it) to the next deal's (or the end), without the table's
    other lines (the result, the deal's rule)."""
    at = words.index(header)
    cut = words.rfind(CUT, 0, at)
    opening = words[cut:at].splitlines() if header == "**Deal 1** —" and cut >= 0 else []
    first, *rest = words[at:].splitlines()
    kept = [*opening, first]
    for line in rest:
        if line.startswith(("**Deal ", "🏆", "— — —")):
            break
        kept.append(line)
    return "\n".join(kept)


@dataclass
class FullSpeed:
    """One person at a game against the computer, as fast as the bot answers: on each hand
    that offers a move, a *Hint* first (its answer awaited), then the move at once (a select's
    first cards, a random card), each on the look it was offered on. ``hands`` reads the
    person's hand messages now (their DMs, or their private answers at a private table)."""

    fd: FakeDiscord
    user: User
    hands: Callable[[], Sequence[Message]]
    over: Callable[[], bool]
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    hints: bool = True
    moves: int = 0
    #: Every move's interaction, as answered.
    clicks: list[Interaction] = field(default_factory=list)
    _used: set[tuple[int, int]] = field(default_factory=set)

    def _offered(self) -> Message | None:
        for message in reversed(self.hands()):
            if (message.id, len(message.history)) in self._used or message.deleted:
                continue
            ids = live_ids(message.components)
            if any(":discard:" in i or ":play:" in i for i in ids):
                return message
        return None

    def _next(self) -> Message | bool | None:
        return self._offered() or self.over() or None

    async def play(self, most: int = 400) -> None:
        """Play until the game is over (at most ``most`` moves)."""
        fd = self.fd
        while self.moves < most:
            found = await fd.wait_for(self._next, timeout=120, stall=20)
            if found is True:
                return
            assert isinstance(found, Message)
            self._used.add((found.id, len(found.history)))
            ids = live_ids(found.components)
            hint = next((i for i in ids if ":hint:" in i), None)
            if self.hints and hint is not None:
                await fd.click(self.user, found, hint)
            select = next((s for s in found.selects() if ":discard:" in s["custom_id"]), None)
            if select is not None and select["custom_id"] in live_ids(found.components):
                values = [o["value"] for o in select["options"]][: int(select["min_values"])]
                clicked = await fd.select(self.user, found, select["custom_id"], values)
            else:
                cards = sorted(i for i in live_ids(found.components) if ":play:" in i)
                if not cards:
                    continue  # (the hint's answer moved it on: look again)
                clicked = await fd.click(self.user, found, self.rng.choice(cards))
            self.clicks.append(clicked)
            self.moves += 1
        raise AssertionError(f"the game was not over after {most} moves")
