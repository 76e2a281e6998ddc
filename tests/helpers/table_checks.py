"""The checks a :class:`~tests.helpers.table_driver.TableDriver` makes of what Discord shows: that
every message the game keeps caught up with the game (``settle``, ``expect_current``), showing
what the replayed game looked like at its version and never an older one; that the lobby, the
tables and each person's DMs are as they should be, nothing posted twice; that no hidden card
reached anyone who may not see it. :class:`TableChecks` holds them, for the driver that plays.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from bot.core.messages.lesson import COACH_FIGURES
from engine.cards import Card
from engine.events import Event
from engine.game import Game
from engine.phase import Phase
from fakediscord import BotStalled, Channel, FakeDiscord, Message, User
from fakediscord.interactions import STALL, WAIT_AT_MOST
from fakediscord.model import words_of
from tests.helpers.bot_db import (
    Database,
    OwnedMessage,
    Snapshot,
    ratings_line,
    rows,
)
from tests.helpers.card_leaks import LeakWatch, hidden_from, revealed_by
from tests.helpers.delivery_checks import offers_control, posted_twice, used_control
from tests.helpers.expected_views import Rendering, live_controls, owed_views
from tests.helpers.replay import Replay
from tests.helpers.table_facts import check_calls, check_result

#: A test waits on the bot (a message brought up to date, a move saved) for as long as the bot
#: keeps working: it calls the bot stalled once it has made no request to Discord for STALL
#: seconds (the emulator's, `fakediscord.interactions.STALL`, which its own waits use). How far
#: the table trails, and how fast the bot catches up, is measured by benchmarks/bot_load.py,
#: never by a test's clock.
#: The most one wait lasts while the bot keeps working without getting there (a game left
#: behind while others are served): the emulator's own bound on such a wait.
CATCH_UP = WAIT_AT_MOST

T = TypeVar("T")


async def until(
    fd: FakeDiscord,
    predicate: Callable[[], T | None],
    timeout: float = CATCH_UP,
    *,
    stall: float | None = STALL,
) -> T:
    """`fd.wait_for`, typed for predicates that give None (or another falsy value) until the
    thing they wait for is there; returns that thing. It waits while the bot keeps working
    (see STALL; ``stall=None`` for a bot that is meant to sit idle meanwhile), at most
    `timeout` seconds."""
    value: Any = await fd.wait_for(predicate, timeout=timeout, stall=stall)
    return cast(T, value)


def why_unmet(waited: TimeoutError, limit: float) -> str:
    """Why a wait on the bot ended unmet: it stopped working, or it never got there."""
    if isinstance(waited, BotStalled):
        return f"it stopped (no request to Discord for {STALL} s)"
    return f"it kept working for {limit} s without getting there"


@dataclass
class ShownVersions:
    """How far the versions of one message were checked: how many, and the latest state of
    the game (index into the key's renderings) one of them showed."""

    versions: int = 0
    state: int = 0


class TableChecks:
    """What the driver checks of the messages (mixed into :class:`TableDriver`, whose fields
    they read)."""

    # The driver's fields and readings these checks use (TableDriver declares and fills them).
    fd: FakeDiscord
    channel: Channel
    database: Database
    game_id: int
    seats: dict[int, User]
    dm_closed: set[int]
    coach_off: set[int]
    launch: bool
    catch_up: float
    created: dict[int, list[tuple[int | str, int]]]
    replay: Replay | None
    release_words: bool
    _copies_of_another_release: set[int]
    _watch: LeakWatch | None
    _states: dict[str, list[Rendering]]
    _shown: dict[int, ShownVersions]
    _counted: set[int]
    _called: set[int]
    _unseen: tuple[Game, list[Event]] | None
    _about: dict[int, int]

    if TYPE_CHECKING:

        def owned(self) -> dict[str, OwnedMessage]: ...

        def message(
            self, key: str, owned: dict[str, OwnedMessage] | None = None
        ) -> Message | None: ...

        def table_text(self, deal: int) -> str: ...

        def sync(self) -> Snapshot: ...

    def behind(self, snap: Snapshot) -> list[str]:
        """What Discord does not show of `snap` yet (empty: every message is up to date)."""
        return self._mismatches(snap)

    async def expect_current(self, timeout: float | None = None) -> Snapshot:
        """Whatever happened (a test acted by hand, the bot was killed and restarted): replay
        the stored game's new actions, and wait until every player's view of it (table, hands)
        matches it (while the bot keeps working, at most `timeout` seconds: see STALL); no
        hidden card shown anywhere."""
        snap = self.sync()
        assert snap.game is not None and self._unseen is not None
        before, events = self._unseen
        self._unseen = None
        await self.settle(snap, timeout)
        self._check_leaks(before, snap.game, revealed_by(events))
        return snap

    # -- what the messages must show --------------------------------------------------------

    def _expect(self, version: int) -> None:
        """Add what every message of the game must show at `version` (where the replay stands)
        to the states it may show."""
        assert self.replay is not None
        hands = [s for s, user in self.seats.items() if user.id not in self.dm_closed]
        coach = self.coach_lines()
        views = owed_views(
            self.replay,
            version,
            game_id=self.game_id,
            channel_id=self.channel.id,
            hands=hands,
            coach=coach,
            launch=self.launch,
            # (Read once the game is over: only a result offers it.)
            again=self._again() if self.replay.game.state.phase is Phase.OVER else None,
            hint=self.hints(),
        )
        line = ratings_line(self.database, self.game_id) if "result" in views else ""
        if line:
            # The result ends with each person's new rating, as the bot stored it.
            result = views["result"]
            views["result"] = dataclasses.replace(result, content=f"{result.content}\n{line}")
        for key, view in views.items():
            states = self._states.setdefault(key, [])
            if not states or states[-1] != view:
                states.append(view)

    def hints(self) -> bool:
        """Whether the game's hands offer *Hint*: against the computer alone (none of the
        tables driven here is opened with ``hints:True``); never at a tournament's game or a
        ranked one (as ``bot.core.messages.hinting`` decides)."""
        [(occasion, channel)] = rows(
            self.database, "SELECT occasion, channel_id FROM games WHERE id = ?", (self.game_id,)
        )
        return occasion is None and channel >= 0 and len(self.seats) == 1

    def coach_lines(self) -> dict[tuple[int, int], str]:
        """The coach's lines each person at the table gets, by (deal, seat): none for one who
        turned the coach off, and at a learner's table (one person against the easy computer
        alone, or a lesson: ``bot.core.messages.lesson.learning``) what its figures mean
        under each."""
        assert self.replay is not None
        found = rows(
            self.database,
            "SELECT g.lesson, s.computer_level FROM games g JOIN seats s ON s.game_id = g.id"
            " WHERE g.id = ? AND s.is_computer = 1",
            (self.game_id,),
        )
        levels = {level for _, level in found}
        learner = any(lesson for lesson, _ in found) or (self.hints() and levels == {"easy"})
        return {
            key: f"{line}\n{COACH_FIGURES}" if learner else line
            for key, line in self.replay.coach_lines.items()
            if key[1] in self.seats and self.seats[key[1]].id not in self.coach_off
        }

    def _again(self) -> str | None:
        """The label of the result's rematch button (and the last hand messages'): *Play
        again* for one person against the computer, *Rematch* between people; none for a
        tournament's game or a ranked one (played apart, below channel zero)."""
        [(occasion, channel)] = rows(
            self.database, "SELECT occasion, channel_id FROM games WHERE id = ?", (self.game_id,)
        )
        if occasion is not None or channel < 0:
            return None
        return "🔁 Play again" if len(self.seats) == 1 else "🔁 Rematch"

    def _check_versions(self) -> None:
        """Every version of every message the game keeps, not looked at yet, is what the game
        was at some state, none older than what the message showed before."""
        for key, row in self.owned().items():
            states = self._states.get(key)
            message = self.fd.world.messages.get(row.message_id)
            if states is None or message is None:
                continue
            seen = self._shown.setdefault(message.id, ShownVersions())
            versions = [(v.content, v.components, v.attachments) for v in message.history]
            versions.append((message.content, message.components, message.attachments))
            for content, components, attachments in versions[seen.versions :]:
                match = next(
                    (
                        i
                        for i in range(seen.state, len(states))
                        if states[i].mismatch_in(
                            content, components, attachments, words=self.release_words
                        )
                        is None
                    ),
                    None,
                )
                if match is None:
                    # (Its words, with a laid-out message's texts; and why it is not the
                    # latest state, as it is compared: without words while another release
                    # draws them.)
                    latest = states[-1].mismatch_in(
                        content, components, attachments, words=self.release_words
                    )
                    raise AssertionError(
                        f"{key} showed what the game never was (or no longer is):"
                        f" {words_of(content, components)!r}; latest: {latest}"
                    )
                seen.state = match
            seen.versions = len(versions)

    # -- the bot caught up --------------------------------------------------------------------

    async def settle(self, snap: Snapshot, timeout: float | None = None) -> None:
        """Wait until every message of the game shows `snap` (tables, board, result, hands,
        notices), then check every version shown so far, and read the table line by line
        against the events."""
        limit = self.catch_up if timeout is None else timeout
        try:
            await until(self.fd, lambda: not self._mismatches(snap), timeout=limit)
        except TimeoutError as waited:
            problems = "\n".join(self._mismatches(snap) + self._dm_history())
            raise AssertionError(
                f"the bot did not catch up: {why_unmet(waited, limit)}:\n{problems}"
            ) from None
        self._check_versions()
        game = snap.game
        assert game is not None and self.replay is not None
        deals = self.replay.deals
        view = game.public_view()
        for deal in sorted(d for d in deals if d >= 1 and d not in self._called):
            live = deal == game.state.deal_number and game.state.phase is not Phase.OVER
            # The first deal's table starts with the cut for deal.
            events = [*deals[0], *deals[1]] if deal == 1 else deals[deal]
            if self.release_words:  # (another release calls the play in its own words)
                check_calls(events, self.table_text(deal), view, live=live)
            if not live:
                self._called.add(deal)  # its table is final: read once
        over = self.replay.result()
        if over is not None:
            result = self.message("result")
            assert result is not None
            # (This release says a win at the game hole; another says the points it pegged.)
            check_result(over, result.words(), view.target if self.release_words else None)

    def _mismatches(self, snap: Snapshot) -> list[str]:
        """What in Discord does not show `snap` yet (empty: the bot has caught up)."""
        game = snap.game
        assert game is not None and self.replay is not None
        owned = self.owned()
        problems: list[str] = []
        problems += self._lobby_problems(owned)
        for key, states in self._states.items():
            latest = states[-1]
            found = self.message(key, owned)
            if found is None and key.startswith("hand:") and game.state.phase is Phase.OVER:
                continue  # a finished game's hands are only closed if they were sent
            problem = latest.mismatch(found, words=self.release_words)
            if problem:
                problems.append(f"{key}: {problem}")
        for seat, user in self.seats.items():
            problems += self._dm_problems(game, seat, user, owned)
        return problems

    def _lobby_problems(self, owned: dict[str, OwnedMessage]) -> list[str]:
        """Why the lobby does not show a game begun: it is not kept (which row, which message),
        or it still shows its buttons (and how it came to: its versions)."""
        row = owned.get("lobby")
        if row is None:
            return [f"no lobby is kept for the game (kept: {sorted(owned)})"]
        lobby = self.fd.world.messages.get(row.message_id)
        if lobby is None or lobby.deleted:
            gone = "deleted" if lobby is not None else "not in Discord"
            return [f"the lobby kept ({row.message_id}) is {gone}"]
        if lobby.components:
            seen = [
                v.words().replace("\n", " / ")[-160:] for v in [*lobby.history, lobby.version()]
            ]
            return [f"the lobby still shows its buttons, after {len(seen)} versions: {seen}"]
        return []

    def _dm_problems(
        self, game: Game, seat: int, user: User, owned: dict[str, OwnedMessage]
    ) -> list[str]:
        deal = game.state.deal_number
        if user.id in self.dm_closed:
            if game.state.phase is Phase.OVER:
                return []
            # This deal's notices: one names everyone known refused, a later refusal has its
            # own (``dm-closed:<deal>:<seat>...``, the seats each names).
            notices = [
                self.message(key, owned)
                for key in owned
                if key.startswith(f"dm-closed:{deal}:") and str(seat) in key.split(":")[2:]
            ]
            if not any(n is not None and f"<@{user.id}>" in n.words() for n in notices):
                return [f"{user.name} was not told in the channel that their DMs are closed"]
            return []
        current = self.message(f"hand:{deal}:{seat}", owned)
        live = [m for m in self.fd.dms(user) if m is not current and live_controls(m)]
        return [f"{user.name} has live controls on older DMs: {live}"] if live else []

    def _dm_history(self) -> list[str]:
        """For a failure's report: each DM message of the players that still has live
        controls, with the key the bot keeps it under (if any) and each version's first line,
        so an orphan says where it came from (a follow-up, a bot post) and what it showed."""
        keys = {row.message_id: key for key, row in self.owned().items()}
        lines: list[str] = []
        for user in self.seats.values():
            for m in self.fd.dms(user):
                if not live_controls(m):
                    continue
                way = "follow-up" if m.webhook_id else "interaction" if m.interaction_id else "bot"
                firsts = [v.words().split("\n", 1)[0] for v in m.history] + [
                    m.words().split("\n", 1)[0]
                ]
                lines.append(
                    f"  {user.name}'s DM {m.id} ({way}, posted {m.timestamp}, kept as "
                    f"{keys.get(m.id, 'nothing')}): {' -> '.join(firsts)}"
                )
        return lines

    def _count_created(self, deal: int) -> None:
        """Count the messages the bot created since the last count, each as the deal its key
        names (``table:3``, ``hand:3:1``), or else as `deal`, the one being played."""
        keys = {row.message_id: row.key for row in self.owned().values()}

        def count(where: int | str, message: Message) -> None:
            self._counted.add(message.id)
            named = keys.get(message.id, "").split(":")
            of = int(named[1]) if len(named) > 1 and named[1].isdigit() else deal
            self.created.setdefault(of, []).append((where, message.id))

        for message in self.fd.messages(self.channel):
            if message.id not in self._counted and not message.ephemeral:
                count("channel", message)
        for user in self.seats.values():
            for message in self.fd.dms(user):
                if message.id not in self._counted:
                    count(user.id, message)

    # -- nothing doubled ----------------------------------------------------------------------

    def check_nothing_doubled(self) -> int:
        """Nothing was posted twice (around a restart, a takeover, a retry over a slow
        network): each deal's table and each person's hand of each deal came once
        (:func:`~tests.helpers.delivery_checks.posted_twice`). How many deals were looked at."""
        assert self.replay is not None
        deals = sorted(d for d in self.replay.deals if d >= 1)
        twice = posted_twice(self.fd, self.channel, self.seats.values(), self.game_id, deals)
        assert not twice, f"posted twice: {twice}"
        return len(deals)

    # -- hidden cards -------------------------------------------------------------------------

    def about_deal(self, message: Message, deal: int) -> None:
        """Take ``message`` (an answer the game keeps no record of) as speaking of ``deal``:
        it may name the cards that deal made public, whoever holds them now."""
        self._about[message.id] = deal

    def _public_in(self, message: Message) -> set[Card]:
        """What a message about deal N may name whoever holds the cards now: a table
        (``table:N``, or an answer taken as about deal N) the cards deal N made public, a hand
        message (``hand:N:seat``, in that seat's DMs) the cards that seat was dealt in deal N."""
        assert self.replay is not None
        if message.id in self._about:
            return self._made_public(self._about[message.id])
        keys = {row.message_id: key for key, row in self.owned().items()}
        kind, *rest = keys.get(message.id, "").split(":")
        if kind == "table" and len(rest) == 1:
            return self._made_public(int(rest[0]))
        if kind == "hand" and len(rest) == 2:
            return self.replay.dealt_to(int(rest[1]), int(rest[0]))
        return set()

    def _made_public(self, deal: int) -> set[Card]:
        """The cards ``deal`` made public so far (played, the starter, the shows)."""
        assert self.replay is not None
        return revealed_by(self.replay.deals.get(deal, []))

    def _check_leaks(self, before: Game, after: Game, revealed: set[Card]) -> None:
        """No version of any message shows anyone a card hidden from them: what others held or
        threw before or after the step, unless the step made it public."""
        assert self._watch is not None

        def secret(seat: int | None) -> set[Card]:
            return (hidden_from(before, seat) | hidden_from(after, seat)) - revealed

        self._watch.check(secret)

    async def _no_control_for(self, before: Snapshot, action: dict[str, Any]) -> None:
        """Wait until no message of the person who made ``action`` (their DMs, their private
        answers in the channel) offers a control for that move any more: the move's answer
        took it off the message clicked, and the bot brings their other copies of the hand up
        to date at once, not with the next move (issue 46: a discard made from `/cribbage
        hand` left the DM's crib select live until the other player discarded). A bot that
        leaves one stops working meanwhile (see STALL)."""
        user = self.seats[action["seat"]]
        used = used_control(self.game_id, before, action)

        if not self.release_words:
            self._copies_of_another_release |= {
                m.id for m in self.fd.messages(self.channel) if m.ephemeral_for is not None
            }

        def offering() -> list[Message]:
            found = offers_control(self.fd, user, self.channel, used)
            return [m for m in found if m.id not in self._copies_of_another_release]

        try:
            await until(self.fd, lambda: not offering(), timeout=self.catch_up)
        except TimeoutError as waited:
            left = [f"{_whence(m)}: {m.words()[:80]!r}" for m in offering()]
            raise AssertionError(
                f"{user.name}'s messages still offer the move made ({action}): "
                f"{why_unmet(waited, self.catch_up)}: {left}"
            ) from None

    async def _shows(
        self, key: str, want: Rendering, find: Callable[[], Message | None] | None = None
    ) -> Message:
        """Wait until the game's message `key` (or the message `find` finds, which `key`
        names in a failure) looks like `want`; that message."""
        found_now = find or (lambda: self.message(key))

        def ready() -> Message | None:
            found = found_now()
            return found if want.mismatch(found, words=self.release_words) is None else None

        try:
            return await until(self.fd, ready, timeout=self.catch_up)
        except TimeoutError as waited:
            problem = want.mismatch(found_now(), words=self.release_words)
            raise AssertionError(f"{key}: {why_unmet(waited, self.catch_up)}: {problem}") from None


def _whence(message: Message) -> str:
    """Which message this is, for a failure: its id, where it is (a DM, or an ephemeral answer
    in the channel) and what made it (a command's answer, by name), with its versions."""
    where = "ephemeral" if message.ephemeral else "DM" if message.channel.is_dm else "channel"
    made = f" answer to {message.interaction_name!r}" if message.interaction_name else ""
    return f"{message.id} ({where}{made}, {len(message.history)} versions)"
