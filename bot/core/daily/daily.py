"""The discard of the day: six cards and a seat, the same for everyone in a server that day.

``/cribbage daily`` deals them (privately) with a menu to choose the two for the crib; each
person answers once a day. The answer is the choice's expected points, as the one judge of a
discard counts them (:mod:`engine.players.judge`: the kept hand's average over every starter,
plus the crib's by role, or minus it for the pone, and the kept cards' worth in the play; a
day's hand has no score, so its points decide) against the best, its rank among the fifteen
splits, and the full table of all fifteen, part by part; then
the server's board of the day's answers, which nobody sees before answering. ``/cribbage
stats`` shows the streak of days in a row answered.

The cards follow from the server's secret (random, made on first use and kept) and the date:
the seed of the day is HMAC-SHA256(secret, "<server id>:<YYYY-MM-DD>"), its deck is dealt by
the procedure of :mod:`bot.core.deck.seeded` (the first six cards), and its last byte's low bit says
the seat (1: dealer). Nobody can work out another day's hand, nor another server's.

>>> hand = daily_hand("00" * 32, 1, date(2026, 1, 1))
>>> len(hand.cards), hand.dealer in (True, False)
(6, True)
>>> hand == daily_hand("00" * 32, 1, date(2026, 1, 1)) != daily_hand("00" * 32, 2, date(2026, 1, 1))
True
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from bot.core.base.places import DAILY_NEEDS_A_SERVER
from bot.core.base.replies import Answer, User
from bot.core.base.text import escape, fitted, shown_until
from bot.core.base.timing import ANSWER_WINDOW, CLOCK_SKEW
from bot.core.base.views import DailyPick, MessageView
from bot.core.daily.records import DailyAnswer, DailyRecords
from bot.core.deck.seeded import deck_from_seed
from engine.cards import Card, cards_str
from engine.coach import as_shown, shown_total
from engine.coach import one_decimal as _number
from engine.players.judge import SplitWorth, judge_discard
from engine.rules import Rules

__all__ = ["DailyDiscard", "DailyHand", "daily_hand", "day_of", "streaks"]

NOT_TODAY = "That was another day's hand: use `/cribbage daily` for today's."
ANSWERED = "You already chose today's discard; here it is again."
PICK_TWO = "Choose two of today's six cards for the crib."
#: Answers the board lists.
BOARD_SHOWN = 15
#: How long after midnight a pick of the day before is still that day's answer: a choice made
#: at 23:59:59 reaches the bot a moment after midnight, and one made longer ago than this is
#: past Discord's answer window (:func:`~bot.core.base.timing.too_late`) and never answered.
LATE_PICK = timedelta(seconds=ANSWER_WINDOW + CLOCK_SKEW)


def day_of(moment: datetime) -> date:
    """The day (UTC) a moment belongs to: whose hand it deals, whose board an answer joins,
    and the day a streak counts (every reader gets the same hand, wherever they are).

    >>> from datetime import timezone
    >>> day_of(datetime(2026, 3, 1, 1, 30, tzinfo=timezone(timedelta(hours=3))))
    datetime.date(2026, 2, 28)
    """
    return moment.astimezone(UTC).date()


def _next_day(day: date) -> float:
    """When the hand of the day after ``day`` is dealt, as a Unix time."""
    return datetime.combine(day + timedelta(days=1), time(), UTC).timestamp()


def _stamp(day: date) -> str:
    """The day a pick names (its menu's), ``YYYYMMDD``."""
    return day.strftime("%Y%m%d")


@dataclass(frozen=True, slots=True)
class DailyHand:
    """A server's hand of the day: six cards and whether you deal (the crib is yours)."""

    day: date
    cards: tuple[Card, ...]
    dealer: bool

    @property
    def rules(self) -> Rules:
        """The rules the hand is dealt and judged by: the standard two-player game's."""
        return Rules.standard(2)


def daily_hand(secret: str, guild_id: int, day: date) -> DailyHand:
    """The hand of ``day`` in server ``guild_id`` with secret ``secret`` (see the module)."""
    seed = hmac.new(
        bytes.fromhex(secret), f"{guild_id}:{day.isoformat()}".encode(), hashlib.sha256
    ).digest()
    dealt = Rules.standard(2).others.dealt
    cards = tuple(sorted(deck_from_seed(seed)[:dealt], key=Card.sort_key))
    return DailyHand(day, cards, bool(seed[-1] & 1))


def _gap(points: float, best: float) -> str:
    """How far a choice is behind the best, as the difference of the two figures shown (5.0
    against 6.6 is −1.6, never −1.5 from the unrounded values)."""
    return _number(as_shown(points) - as_shown(best))


def _seat(hand: DailyHand) -> str:
    if hand.dealer:
        return "You deal: the crib is yours."
    return "You are the pone: the crib is theirs."


@functools.lru_cache(maxsize=256)
def _choices(hand: DailyHand) -> tuple[SplitWorth, ...]:
    """The fifteen splits, best first, as the judge values them (about 4 ms: kept for the
    day's hands, so each answer after the first in a server costs nothing)."""
    rules = hand.rules
    sign = 1 if hand.dealer else -1
    judged = judge_discard(hand.cards, rules.others.to_crib, crib_sign=sign, rules=rules)
    # Ranked by the totals the table shows (the sums of their rounded parts), so that no row
    # reads more than the one above it; splits that show the same total keep the judge's
    # order. The judge's best leads all the same where those sums put another a tenth above
    # it (1 hand in 400): whoever throws it is told it is the best, as the hint says.
    ranked = sorted(judged.splits, key=lambda split: -round(shown_total(split), 1))
    best = next(s for s in ranked if s.thrown == judged.best.thrown)
    return (best, *(s for s in ranked if s is not best))


def _part(value: float) -> str:
    """A part added to the sum: ``+ 3.4``, ``− 0.5``."""
    return f"{'−' if as_shown(value) < 0 else '+'} {_number(abs(value))}"


def _worth(split: SplitWorth) -> str:
    total = _number(shown_total(split))
    return f"{_number(split.hand)} {_part(split.crib)} {_part(split.play)} = **{total}**"


def _table(choices: Sequence[SplitWorth], chosen: frozenset[Card]) -> list[str]:
    """All fifteen splits, best first; the chosen one marked."""
    lines = ["Rank · throw · keep · hand ± crib ± play = expected"]
    for rank, choice in enumerate(choices, start=1):
        mark = " ◀ yours" if frozenset(choice.thrown) == chosen else ""
        thrown = cards_str(sorted(choice.thrown, key=Card.sort_key))
        kept = cards_str(sorted(choice.kept, key=Card.sort_key))
        lines.append(f"{rank}. {thrown} · {kept} · {_worth(choice)}{mark}")
    return lines


def _board(answers: Sequence[DailyAnswer]) -> list[str]:
    """Today's board: its heading, then the first :data:`BOARD_SHOWN` answers."""
    lines = [f"**Today's board** ({len(answers)} answered)"]
    for answer in answers[:BOARD_SHOWN]:
        thrown = cards_str(Card.parse(code) for code in answer.thrown.split())
        lines.append(
            f"{answer.rank}. {escape(answer.name)} threw {thrown} — {_number(answer.points)} "
            f"({_gap(answer.points, answer.best)})"
        )
    return lines


def _more(left: int) -> str:
    return f"… and {left} more"


def streaks(days: Sequence[str], today: date) -> tuple[int, int]:
    """(the current streak, the longest) of days in a row among ``days`` (ISO dates, oldest
    first); the current one still counts on a day not yet answered, if yesterday was.

    >>> streaks(["2026-01-01", "2026-01-02", "2026-01-04", "2026-01-05"], date(2026, 1, 6))
    (2, 2)
    >>> streaks(["2026-01-01", "2026-01-02", "2026-01-03"], date(2026, 1, 5))
    (0, 3)
    """
    longest = run = 0
    last: date | None = None
    for text in days:
        day = date.fromisoformat(text)
        run = run + 1 if last is not None and day - last == timedelta(days=1) else 1
        longest = max(longest, run)
        last = day
    current = run if last is not None and today - last <= timedelta(days=1) else 0
    return current, longest


class DailyDiscard:
    """Deals each server's hand of the day and takes everyone's one answer."""

    def __init__(self, store: DailyRecords, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock

    def _today(self) -> date:
        return day_of(self._clock())

    def _picked(self, stamp: str) -> date | None:
        """The day whose hand a pick stamped ``stamp`` answers: today's, or yesterday's in the
        moment (:data:`LATE_PICK`) after midnight; None: another day's, too late."""
        now = self._clock()
        days = (day_of(now), day_of(now - LATE_PICK))
        return next((day for day in days if _stamp(day) == stamp), None)

    async def _hand(self, guild_id: int, day: date) -> DailyHand:
        secret = await self._store.daily_secret(guild_id, secrets.token_hex(32))
        return daily_hand(secret, guild_id, day)

    async def daily(self, guild_id: int | None, user: User) -> Answer:
        """Today's hand with the menu to choose the crib's two; once answered, the answer."""
        if guild_id is None:
            return Answer.refuse(DAILY_NEEDS_A_SERVER)
        day = self._today()
        hand = await self._hand(guild_id, day)
        given = await self._store.daily_answer(guild_id, day.isoformat(), user.id)
        if given is not None:
            return Answer.say("", view=await self._answered(hand, given))
        text = (
            f"**Discard of the day** — {day.isoformat()}\n"
            f"Your six cards: **{cards_str(hand.cards)}**. {_seat(hand)}\n"
            "Choose two for the crib — once: everyone in this server gets the same hand today, "
            "and the board of their answers shows once you have answered.\n"
            f"The next hand comes {shown_until(_next_day(day))}."
        )
        pick = DailyPick(_stamp(day), tuple(c.code for c in hand.cards))
        return Answer.say("", view=MessageView(text, controls=pick))

    async def choose(
        self, guild_id: int | None, user: User, stamp: str, codes: Sequence[str]
    ) -> Answer:
        """``user`` throws ``codes`` from the hand of the day ``stamp`` (YYYYMMDD) names: kept
        once; the message they chose on shows the answer."""
        if guild_id is None:
            return Answer.refuse(DAILY_NEEDS_A_SERVER)
        day = self._picked(stamp)
        if day is None:
            return Answer.refuse(NOT_TODAY)
        # A pick that names no two cards is refused before the hand is dealt: dealing makes
        # the server's secret on its first use, and a refusal changes nothing.
        try:
            thrown = frozenset(Card.parse(code) for code in codes)
        except ValueError:
            return Answer.refuse(PICK_TWO)
        if len(thrown) != 2 or len(codes) != 2:
            return Answer.refuse(PICK_TWO)
        hand = await self._hand(guild_id, day)
        if not thrown <= set(hand.cards):
            return Answer.refuse(PICK_TWO)
        choices = _choices(hand)
        rank = next(i for i, c in enumerate(choices, start=1) if frozenset(c.thrown) == thrown)
        answer = DailyAnswer(
            guild_id=guild_id,
            day=day.isoformat(),
            user_id=user.id,
            name=user.name,
            thrown=" ".join(c.code for c in sorted(thrown, key=Card.sort_key)),
            # The totals as the table of splits shows them (the sum of its rounded parts).
            points=shown_total(choices[rank - 1]),
            best=shown_total(choices[0]),
            rank=rank,
            answered_at=self._clock().timestamp(),
        )
        kept = await self._store.save_daily(answer)
        if not kept:
            found = await self._store.daily_answer(guild_id, day.isoformat(), user.id)
            assert found is not None
            view = await self._answered(hand, found, note=ANSWERED)
            return Answer(reply=Answer.say(ANSWERED).reply, update=view)
        return Answer(reply=Answer.say("").reply, update=await self._answered(hand, answer))

    async def _answered(self, hand: DailyHand, given: DailyAnswer, note: str = "") -> MessageView:
        choices = _choices(hand)
        chosen = frozenset(Card.parse(code) for code in given.thrown.split())
        thrown = cards_str(sorted(chosen, key=Card.sort_key))
        if given.rank == 1:
            verdict = f"**{thrown}** is the best choice: {_number(given.points)} expected."
        else:
            verdict = (
                f"**{thrown}**: {_number(given.points)} expected, rank **{given.rank}** of "
                f"{len(choices)}; the best was "
                f"{cards_str(sorted(choices[0].thrown, key=Card.sort_key))}: "
                f"{_number(given.best)} ({_gap(given.points, given.best)})."
            )
        board = await self._store.daily_board(given.guild_id, given.day)
        head = f"**Discard of the day** — {given.day}: {cards_str(hand.cards)}. {_seat(hand)}"
        # Every line but the board's rows stays (each a group of its own, the splits' table
        # too); the board gives up its last rows where names are long enough to need it.
        kept = [[line] for line in (note, head, verdict, *_table(choices, chosen)) if line]
        hidden = max(0, len(board) - BOARD_SHOWN)
        return MessageView(
            fitted([*kept, _board(board)], left=[*[0] * len(kept), hidden], more=_more)
        )

    async def stats_line(self, guild_id: int | None, user_id: int) -> str | None:
        """The stats' line of a person's discards of the day (None before their first)."""
        if guild_id is None:
            return None
        days = await self._store.daily_days(guild_id, user_id)
        if not days:
            return None
        current, longest = streaks([day for day, _ in days], self._today())
        best = sum(1 for _, rank in days if rank == 1)
        return (
            f"**Discard of the day** {len(days)} answered, {best} best · streak {current} "
            f"(longest {longest})"
        )
