"""The discard of the day through random sequences (property-based: Hypothesis writes them) of
what eight people do in two servers and outside servers while the days go by: ``/cribbage
daily``, the menu's choice (two of the six cards, as codes or as labels; one, three, one card
twice, a card not dealt, words that are no card) from the menu last shown (perhaps a day old),
today's, another day's or a stamp no menu has, the same choice twice at once, and the stats'
line.

After every call: nothing raised; the answer is ok, or a refusal in one sentence that changed
nothing stored; it fits Discord. The hand is the same for everyone in a server that day; the
board shows only once someone has answered, listing everyone who answered there that day; an
answer is kept once (the first), and asked again the answer kept is shown; the day's answer
ranks the split among all fifteen, marking the one chosen."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from datetime import date, timedelta

from hypothesis import event, note
from hypothesis import strategies as st

from bot.core.base.replies import Answer, User
from bot.core.base.views import DailyPick
from bot.core.daily import daily as daily_module
from bot.core.daily.daily import LATE_PICK, day_of
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card, full_deck
from tests.helpers.answer_checks import check_fits, one_sentence
from tests.helpers.cast import AL, BEA, CY, DEE, EVE, FLO
from tests.helpers.results import ODD
from tests.helpers.sequences import over_sequences
from tests.helpers.service_driver import Clock, make_service

PEOPLE = (AL, BEA, CY, DEE, EVE, FLO, User(7, "Gus"), ODD)
#: The servers of an example (its own two: the store outlives the examples), and none.
SERVERS = (0, 1, None)
#: The stamp a choice is sent with: the menu's the person was last shown there, today's,
#: yesterday's, tomorrow's, and ones no menu has.
STAMPS = ("shown", "today", "yesterday", "tomorrow", "20000101", "99999999", "")
#: What is chosen: two of the six (as codes, as labels, in lower case), one, three, one card
#: twice, a card not dealt with one dealt, words that are no card.
PICKS = ("two", "two", "two", "labels", "lower", "one", "three", "twice", "stranger", "words")
DECK = tuple(full_deck())


@dataclass(frozen=True, slots=True)
class ByWhom:
    """A step of ``who`` (an index into PEOPLE) in server ``server`` (an index into SERVERS)."""

    who: int
    server: int


@dataclass(frozen=True, slots=True)
class Daily(ByWhom):
    """``/cribbage daily``."""


@dataclass(frozen=True, slots=True)
class Choose(ByWhom):
    """The menu's choice: ``what`` (PICKS; ``split`` says which two), sent with ``stamp``
    (STAMPS), once or twice at once."""

    what: str
    split: int
    stamp: str
    twice: bool = False


@dataclass(frozen=True, slots=True)
class Stats(ByWhom):
    """The stats' line of the discard of the day."""


@dataclass(frozen=True, slots=True)
class Later:
    """The clock moves on ``hours``."""

    hours: int


Step = Daily | Choose | Stats | Later

people = st.integers(0, len(PEOPLE) - 1)
servers = st.sampled_from([0, 0, 1, 2])
steps = st.one_of(
    st.builds(Daily, who=people, server=servers),
    st.builds(
        Choose,
        who=people,
        server=servers,
        what=st.sampled_from(PICKS),
        split=st.integers(0, 14),
        stamp=st.sampled_from([*STAMPS, "shown", "shown", "today"]),
        twice=st.integers(0, 5).map(lambda n: n == 0),
    ),
    st.builds(Stats, who=people, server=servers),
    st.builds(Later, hours=st.sampled_from([1, 11, 24, 49])),
)

#: Two servers of each example's own (the store outlives the examples).
GUILDS = itertools.count(700, 10)


def _stamp(day: date) -> str:
    return day.strftime("%Y%m%d")


@dataclass
class Server:
    """One example's servers as the test follows them: each day's hand (as its menu showed
    it), who answered what, and the menu each person was last shown."""

    store: Store
    service: Services
    clock: Clock
    guilds: tuple[int, int] = field(default_factory=lambda: (next(GUILDS), next(GUILDS)))
    hands: dict[tuple[int, str], tuple[str, ...]] = field(default_factory=dict)
    answered: dict[tuple[int, str], dict[int, frozenset[str]]] = field(default_factory=dict)
    menus: dict[tuple[int, int | None], tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def today(self) -> date:
        return self.clock().date()

    async def step(self, step: Step) -> None:
        """Take the step, then check what was answered."""
        if isinstance(step, Later):
            self.clock.advance(hours=step.hours)
            return
        user = PEOPLE[step.who]
        index = SERVERS[step.server]
        guild = None if index is None else self.guilds[index]
        daily = self.service.daily
        if isinstance(step, Stats):
            line = await daily.stats_line(guild, user.id)
            assert line is None or (len(line) < 200 and "\n" not in line), line
            return
        before = await self._stored()
        if isinstance(step, Daily):
            answer = await daily.daily(guild, user)
            await self._check(step, [answer], before)
            if answer.ok:
                assert guild is not None
                self._check_daily(guild, user, answer)
            return
        stamp, codes = self._choice(step, guild)
        if step.twice:
            # The same choice sent twice at once (a double click, two devices).
            answers = list(
                await asyncio.gather(
                    daily.choose(guild, user, stamp, codes),
                    daily.choose(guild, user, stamp, codes),
                )
            )
        else:
            answers = [await daily.choose(guild, user, stamp, codes)]
        await self._check(step, answers, before)
        done = [answer for answer in answers if answer.ok]
        if not done:
            return
        # Today's hand, or yesterday's a moment after midnight (a pick made before it).
        answerable = {_stamp(day_of(moment)) for moment in (self.clock(), self.clock() - LATE_PICK)}
        assert guild is not None and stamp in answerable, (stamp, answerable)
        kept = self.answered.setdefault((guild, stamp), {})
        # Kept once, the first: asked again (or twice at once), the answer kept is shown.
        again = [answer.reply.text == daily_module.ANSWERED for answer in done]
        assert again.count(False) == (0 if user.id in kept else 1), again
        kept.setdefault(user.id, _thrown(codes))
        for answer in done:
            self._check_choice(guild, stamp, user, kept[user.id], answer)

    def _choice(self, step: Choose, guild: int | None) -> tuple[str, tuple[str, ...]]:
        """The stamp and the cards a choice is sent with."""
        today = self.today
        shown = self.menus.get((PEOPLE[step.who].id, guild))
        stamps = {
            "shown": shown[0] if shown else _stamp(today),
            "today": _stamp(today),
            "yesterday": _stamp(today - timedelta(days=1)),
            "tomorrow": _stamp(today + timedelta(days=1)),
        }
        stamp = stamps.get(step.stamp, step.stamp)
        hand = shown[1] if shown else self.hands.get((guild or 0, _stamp(today)), DECK_CODES[:6])
        # (Before any menu, the choice is made of cards that may not be today's.)
        splits = list(itertools.combinations(hand, 2))
        two = splits[step.split % len(splits)]
        stranger = next(c for c in DECK_CODES if c not in hand)
        codes: tuple[str, ...] = {
            "labels": tuple(str(Card.parse(c)) for c in two),
            "lower": tuple(c.lower() for c in two),
            "one": two[:1],
            "three": hand[:3],
            "twice": (two[0], two[0]),
            "stranger": (two[0], stranger),
            "words": ("five", "of hearts"),
        }.get(step.what, two)
        return stamp, codes

    async def _check(self, step: Step, answers: list[Answer], before: object) -> None:
        """Each answer is ok or a refusal in one sentence, and fits Discord; when all are
        refusals, nothing stored changed."""
        for answer in answers:
            event(f"{type(step).__name__.lower()}: {'ok' if answer.ok else 'no'}")
            note(f"{step}: {(answer.reply.text or '(a message)')[:100]!r}")
            assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
            await check_fits(answer)
        if not any(answer.ok for answer in answers):
            assert await self._stored() == before, f"refused, yet changed: {step}"

    def _check_daily(self, guild: int, user: User, answer: Answer) -> None:
        """``/cribbage daily``: today's six cards, the same for everyone in the server, with
        the menu before answering and no board; the answer kept once answered."""
        view = answer.reply.view
        assert view is not None
        today = _stamp(self.today)
        kept = self.answered.get((guild, today), {})
        if user.id in kept:
            assert view.controls_of(DailyPick) is None
            self._check_board(view.content, guild, today)
            return
        pick = view.controls_of(DailyPick)
        assert pick is not None and pick.stamp == today and len(set(pick.cards)) == 6
        assert "Today's board" not in view.content, "the board before answering"
        hand = self.hands.setdefault((guild, today), pick.cards)
        assert pick.cards == hand, "another hand in the same server the same day"
        assert all(str(Card.parse(c)) in view.content for c in hand)
        self.menus[(user.id, guild)] = (pick.stamp, pick.cards)

    def _check_choice(
        self, guild: int, day: str, user: User, thrown: frozenset[str], answer: Answer
    ) -> None:
        """An answer: the split kept (``thrown``) ranked among all fifteen and marked once,
        and the board of the day it answers (``day``)."""
        view = answer.update
        assert view is not None and view.controls_of(DailyPick) is None
        text = view.content
        assert text.count("◀ yours") == 1
        table = [line for line in text.splitlines() if " · " in line and line[:1].isdigit()]
        assert len(table) == 15, text
        marked = next(line for line in table if "◀ yours" in line)
        shown = marked.split(" · ")[0].split(". ", 1)[1]  # ("11. 2♣ 10♠ · 6♥ 7♣ … ◀ yours")
        assert {str(Card.parse(c)) for c in thrown} == set(shown.split()), (marked, thrown)
        self._check_board(text, guild, day)

    def _check_board(self, text: str, guild: int, day: str) -> None:
        """The day's board counts everyone who answered in the server that day."""
        answered = set(self.answered.get((guild, day), {}))
        counted = f"**Today's board** ({len(answered)} answered)"
        assert counted in text or len(text) == 2000, (counted, text)

    async def _stored(self) -> tuple[object, ...]:
        """Every answer kept in the example's servers today and yesterday, and the days each
        person answered there."""
        found: list[object] = []
        for guild in self.guilds:
            for day in (self.today, self.today - timedelta(days=1)):
                found.append(await self.store.daily_board(guild, day.isoformat()))
            for person in PEOPLE:
                found.append(await self.store.daily_days(guild, person.id))
        return tuple(found)


DECK_CODES = tuple(card.code for card in DECK)


def _thrown(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(Card.parse(code).code for code in codes)


#: Everyone shown the day's hand; each kind of wrong choice; Al answers, twice at once, then
#: again otherwise; everyone answers (the board full of names); the next day, yesterday's
#: menu chosen from and today's; the other server and outside servers; a menu chosen from
#: twice at once as the next day begins (a moment after midnight, it answers its own day).
EVERY_DAY: list[Step] = [
    *(Daily(who, 0) for who in range(len(PEOPLE))),
    *(Choose(0, 0, what, 1, "shown") for what in ("one", "three", "twice", "stranger", "words")),
    Choose(0, 0, "two", 0, "20000101"),
    Choose(0, 0, "two", 3, "shown", twice=True),
    Choose(0, 0, "labels", 5, "today"),
    Daily(0, 0),
    *(Choose(who, 0, ("two", "labels", "lower")[who % 3], who, "shown") for who in range(1, 8)),
    Stats(0, 0),
    Later(24),
    Choose(1, 0, "two", 2, "shown"),
    Daily(1, 0),
    Choose(1, 0, "two", 2, "shown"),
    Stats(1, 0),
    Daily(2, 1),
    Choose(2, 1, "two", 9, "tomorrow"),
    Daily(3, 2),
    Choose(3, 2, "two", 9, "today"),
    Stats(3, 2),
    Daily(4, 0),
    Later(12),
    Choose(4, 0, "two", 4, "shown", twice=True),
]


@over_sequences(steps, most=20, examples=50, always=EVERY_DAY)
async def test_any_sequence_of_daily_discards_is_answered_and_kept_once(
    store: Store, sequence: list[Step]
) -> None:
    """Each step of ``sequence`` raises nothing, is answered ok or refused in one sentence
    that changed nothing stored, fits Discord, and keeps the day's rules (see the module)."""
    clock = Clock()
    server = Server(store, make_service(store, clock), clock)
    for step in sequence:
        await server.step(step)
