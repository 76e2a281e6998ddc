"""A server's standings asked for in random ways (property-based: Hypothesis writes the
requests), over a few months of finished games of every variant and table (tests.helpers.
results.a_league): ``/cribbage leaderboard`` of each table and variant (and of tables and
variants there are not) at pages in range and out of it, the Previous, Next and other-table
buttons of the last page shown, and ``/cribbage stats`` (with the reviews' and the daily
discard's lines, as the command adds them) and head to head, of people with games, without
any, against themselves, on this server, another and outside servers, read in a channel or
another.

After every request: nothing raised; the answer is ok, or a refusal in one sentence; nothing
stored changed; the answer fits Discord (its text, its buttons, its charts); a leaderboard
page is one that exists, with buttons to pages that exist."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import event, note
from hypothesis import strategies as st

from bot.core.base.replies import Answer, User
from bot.core.base.views import MessageView, PageControls
from bot.core.review.report import add_lines
from bot.core.services import Services
from bot.discord.components import controls_view
from bot.store import Store
from engine.variants import listed
from tests.helpers.answer_checks import check_fits, one_sentence
from tests.helpers.cast import AL, BEA, CY, DEE, GUILD
from tests.helpers.results import LEAGUE, ODD, a_league
from tests.helpers.sequences import over_sequences

GUS = User(7, "Gus")  # (no game anywhere)
#: Whose standings are asked for: people with games in every table, in some, in none.
PEOPLE = (AL, BEA, CY, DEE, GUS, ODD, LEAGUE[0], LEAGUE[12])
#: Where: this server, one with no games, outside servers (DMs and group DMs).
GUILDS = (GUILD, GUILD + 1, None)
#: The variants asked for: each registered one, and names no variant has.
VARIANTS = (*(v.name for v in listed()), "nine_card", "", "STANDARD")
#: Pages: the first ones, one past the end, the most a button's custom id holds (six
#: digits), and one before the first (no button makes it).
PAGES = (0, 1, 2, 3, 999_999, -1)
#: A leaderboard button's custom id, as the Discord layer reads it back.
PAGE_BUTTON = re.compile(r"crib:board:(people|computer):(\d{1,6})(?::([a-z_]{1,32}))?$")


@dataclass(frozen=True, slots=True)
class Board:
    """``/cribbage leaderboard`` of ``table`` and ``variant``, or a page button's click."""

    guild: int | None
    table: str
    page: int
    variant: str


@dataclass(frozen=True, slots=True)
class Button:
    """A click on one of the enabled buttons (``which``, counted round) under the last
    leaderboard page shown."""

    which: int


@dataclass(frozen=True, slots=True)
class Stats:
    """``/cribbage stats`` of ``who`` (against ``against``), asked in channel ``here``."""

    guild: int | None
    who: int
    against: int | None
    here: int | None


Request = Board | Button | Stats

requests = st.one_of(
    st.builds(
        Board,
        guild=st.sampled_from(GUILDS),
        table=st.sampled_from(["people", "people", "computer", "computer", "bots", ""]),
        page=st.sampled_from(PAGES),
        variant=st.sampled_from(VARIANTS),
    ),
    st.builds(Button, which=st.integers(0, 2)),
    st.builds(
        Stats,
        guild=st.sampled_from(GUILDS),
        who=st.integers(0, len(PEOPLE) - 1),
        against=st.none() | st.integers(0, len(PEOPLE) - 1),
        here=st.none() | st.sampled_from([1000, 10_000]),
    ),
)


def _buttons(view: MessageView) -> list[tuple[str, int, str | None]]:
    """The enabled buttons under a leaderboard page, as the clicks they make: (table, page,
    variant), read back from their custom ids."""
    made = controls_view(view)
    assert made is not None
    found = []
    for row in made.to_components():
        for button in row["components"]:
            if button.get("disabled"):
                continue
            match = PAGE_BUTTON.match(button["custom_id"])
            assert match is not None, button["custom_id"]
            found.append((match[1], int(match[2]), match[3]))
    return found


@dataclass
class Reader:
    """Someone reading the standings: the leaderboard page last shown (whose buttons they
    may click)."""

    store: Store
    service: Services
    shown: Board | None = None
    buttons: tuple[tuple[str, int, str | None], ...] = ()

    async def ask(self, request: Request) -> None:
        """Make the request, then check its answer and that nothing stored changed."""
        before = await self._stored()
        if isinstance(request, Button):
            if not self.buttons or self.shown is None:
                return
            table, page, variant = self.buttons[request.which % len(self.buttons)]
            # (A custom id without a variant is a button sent before variants: the standard.)
            request = Board(self.shown.guild, table, page, variant or "standard")
            kind = "button"
        else:
            kind = type(request).__name__.lower()
        answer = await self._answer(request)
        event(f"{kind}: {'ok' if answer.ok else 'no'}")
        note(f"{request}: {answer.reply.text[:200]!r}")
        assert answer.ok or one_sentence(answer.reply.text), answer.reply.text
        await check_fits(answer)
        assert await self._stored() == before, f"{request} changed the standings"
        if isinstance(request, Board) and answer.ok:
            self._check_page(request, answer)

    async def _answer(self, request: Board | Stats) -> Answer:
        standings = self.service.standings
        if isinstance(request, Board):
            return await standings.leaderboard(
                request.guild,
                table=request.table,  # type: ignore[arg-type]  # (a custom id, read as text)
                page=request.page,
                variant=request.variant,
            )
        who = PEOPLE[request.who]
        against = None if request.against is None else PEOPLE[request.against]
        answer = await standings.stats(request.guild, who, against, here=request.here)
        if against is not None:
            return answer
        # As /cribbage stats adds them: the reviews' accuracy, the discard of the day.
        answer = await self.service.reviews.with_stats(answer, request.guild, who.id)
        daily = await self.service.daily.stats_line(request.guild, who.id)
        return add_lines(answer, [daily] if daily else [])

    def _check_page(self, asked: Board, answer: Answer) -> None:
        """A leaderboard page is a page there is (the last, for one past it; the first, for
        one before), the reply and the clicked message's new look alike, and its buttons go
        to pages there are."""
        view = answer.reply.view
        assert view is not None and answer.update == view
        pages = view.controls_of(PageControls)
        assert pages is not None and 0 <= pages.page < pages.pages
        assert pages.table == asked.table and pages.variant == asked.variant
        if 0 <= asked.page < pages.pages:
            assert pages.page == asked.page
        else:
            assert pages.page == (0 if asked.page < 0 else pages.pages - 1)
        if "page " in view.content:
            assert f"page {pages.page + 1} of {pages.pages}" in view.content
        self.shown = asked
        self.buttons = tuple(_buttons(view))
        assert all(
            0 <= page < pages.pages or table != asked.table for table, page, _ in self.buttons
        )

    async def _stored(self) -> tuple[object, ...]:
        """The server's standings (both tables) and a head to head."""
        return (
            await self.store.ranking(GUILD, limit=100),
            await self.store.ranking(GUILD, vs_computer=True, limit=100),
            await self.store.rival(GUILD, AL.id, BEA.id),
        )


#: Every table of every variant at its first page and past its last, each button under the
#: second page of the people's table, a page before the first; the stats of the odd name
#: (games in every variant and table), of someone with none, head to head both ways and
#: against oneself, on this server, outside servers and on one without games.
EVERYTHING: list[Request] = [
    *(
        Board(GUILD, table, page, variant.name)
        for variant in listed()
        for table in ("people", "computer")
        for page in (0, 999_999)
    ),
    Board(GUILD, "people", 1, "standard"),
    Button(0),
    Button(1),
    Button(2),
    Board(GUILD, "people", -1, "standard"),
    Stats(GUILD, PEOPLE.index(ODD), None, 1000),
    Stats(GUILD, PEOPLE.index(GUS), None, None),
    Stats(GUILD, 0, 1, None),
    Stats(GUILD, 1, 0, 1000),
    Stats(GUILD, 0, 0, None),
    Stats(None, 0, None, None),
    Stats(None, 0, 1, None),
    Stats(GUILD + 1, PEOPLE.index(ODD), None, None),
]


@over_sequences(requests, most=12, examples=40, always=EVERYTHING)
async def test_any_request_for_the_standings_is_answered_within_discords_limits(
    store: Store, service: Services, sequence: list[Request]
) -> None:
    """Over a league of finished games, each request of ``sequence`` raises nothing, is
    answered ok or refused in one sentence, changes nothing stored and fits Discord; a
    leaderboard page is one there is, with buttons to pages there are."""
    await a_league(store)
    reader = Reader(store, service)
    for request in sequence:
        await reader.ask(request)
