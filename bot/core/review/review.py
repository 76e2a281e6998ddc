"""The review of a game: each of a player's decisions beside the expert's, page by page.

``/cribbage review [game] [player]`` and the *Review* button on a game's result open it,
privately: a summary page (accuracy, the points given up, the biggest mistakes first), then
one page per deal (the discard and each play, with the board as the deal began). The review
itself is made in the worker process (:meth:`bot.core.worker.thinking.WorkerThinking.review`; in a
thread where there is none, as in tests), once, and kept with the game in the store; a review
of a game still going covers the deals already over and is made again when more are.

What a review may show: the reviewed player's own cards as they held them and the public
table (the count, the cards played, the starter); never another hand, the deck, or what an
opponent threw. The decisions of someone else are shown only once the game is over, and only
from deals whose crib was shown (so every card in them was seen). While a game goes on only
its players may review it, each their own decisions.

:func:`build_report` makes the pages' data (:class:`ReviewReport`) from a review, and
:func:`page_view` draws one page for Discord; a web page can draw the same report its way.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.base.owners import is_row_id
from bot.core.base.places import OTHERS_RANKED, Place, Spot
from bot.core.base.refusals import Refused, nothing_to_look_up
from bot.core.base.replies import Answer, User
from bot.core.base.text import Names, escape, tagged
from bot.core.base.views import MAX_MESSAGE, BoardPicture, MessageView, ReviewPages
from bot.core.games import archive
from bot.core.games.chances import chances, chances_line
from bot.core.games.computer import without_tables
from bot.core.games.games import Games, Loaded
from bot.core.games.membership import EveryoneStays, Membership
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.storage import Archives
from bot.core.games.tally import counting_said
from bot.core.messages.hinting import hints_line
from bot.core.review.records import ReviewRecords, ReviewRow
from bot.core.worker.review_work import ReviewRequest, make_review
from bot.core.worker.thinking import WorkerThinking
from engine.cards import Card, cards_str
from engine.coach import as_shown, shown_sum
from engine.coach import one_decimal as _number
from engine.outcome import Scoring
from engine.players.win_chance import holds
from engine.review import Decision, GameReview

__all__ = [
    "MISTAKES_SHOWN",
    "NOT_IN_MY_DMS",
    "NOT_IN_THIS_CONVERSATION",
    "NO_SUCH_GAME",
    "ReviewReport",
    "Reviews",
    "accuracy_line",
    "add_lines",
    "build_report",
    "not_found",
    "page_view",
    "players_only",
]

log = logging.getLogger(__name__)


def players_only(record: GameRecord) -> bool:
    """Whether the review of ``record``'s game is its players' alone, wherever it is shown
    (``/cribbage review``, its page in the browser): a game played apart (ranked), each of
    whose places was its own player's and is nobody else's to see. Anyone who can see the
    place of any other game may see any player's review of it once it is over."""
    return not record.seating.shared


#: The biggest mistakes the summary page lists.
MISTAKES_SHOWN = 5
#: The latest reviewed games ``/cribbage stats`` adds up.
STATS_GAMES = 10

#: Where a game is found: where it was played (and a ranked game by its players anywhere).
_FOUND_WHERE_PLAYED = (
    "a game is reviewed and checked where it was played, a server's in that server and a DM's "
    "or group DM's in that conversation"
)
#: A game asked for that is not found (or not to be shown) where it was asked, by the place:
#: in a server; a DM or group DM; the bot's DM, where only a player's ranked games are found.
#: The same words whether the game exists elsewhere or not: asking for every number tells
#: nothing of the games played elsewhere.
NO_SUCH_GAME = "I can't find that game in this server."
NOT_IN_THIS_CONVERSATION = f"I can't find that game in this conversation: {_FOUND_WHERE_PLAYED}."
NOT_IN_MY_DMS = (
    "I can't find that game in my DMs, where only your ranked games are found: "
    f"{_FOUND_WHERE_PLAYED}."
)


def not_found(place: Place) -> str:
    """What a game asked for in ``place`` that is not found there is told, naming the place.

    >>> not_found(Place(Spot.THREAD, 11, guild_id=1)) == NO_SUCH_GAME
    True
    >>> not_found(Place(Spot.BOT_DM, 20)) == NOT_IN_MY_DMS
    True
    """
    if place.guild_id is not None:
        return NO_SUCH_GAME
    return NOT_IN_MY_DMS if place.spot is Spot.BOT_DM else NOT_IN_THIS_CONVERSATION


NOT_STARTED = "That game never got to the deal, so there is nothing to review."
TOO_OLD = (
    "That game began before the bot recorded its shuffles, so it can't be reviewed, and its "
    "shuffle can't be checked."
)
#: The review's summary of a game begun before shuffles were sealed.
UNSEALED_LINE = (
    "This game began before the bot sealed its shuffles, so its deals can't be checked "
    "(`python -m bot verify` needs a deal's seed)."
)
STILL_GOING = "That game is still going: only its players can review it before it ends."
OWN_ONLY = "While the game goes on, you can review only your own decisions."
NOT_A_PLAYER = "That person didn't play in that game."
NOTHING_YET = "Nothing to review yet: the first deal of that game isn't over."
NO_GAME_HERE = nothing_to_look_up("this channel")


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """A review as its pages show it: whose it is, the sides' names and the rule for the
    board, every decision that may be shown, and its figures."""

    game_id: int
    seat: int
    player: str
    sides: tuple[str, ...]
    side: int
    target: int
    rule: str
    partners: bool
    final: bool
    deals: int
    decisions: tuple[Decision, ...]
    #: Whether the game's shuffles were sealed (False: begun before, its deals can't be
    #: checked).
    sealed: bool = True
    #: Said on the summary of a variant's review where the expert's tables of the standard
    #: two-player game do not hold (empty: they do, or the game is the standard one).
    caveat: str = ""
    #: Whether the expert's chances to win hold for the game's rules (the standard
    #: two-player game, :func:`engine.players.win_chance.holds`): a deal's page says each
    #: side's chance only then.
    chances: bool = True
    #: The sides' scores as each deal began (:attr:`engine.review.GameReview.began`).
    began: tuple[tuple[int, ...], ...] = ()
    #: Who played the game with hints (:func:`bot.core.messages.hinting.hints_line`; empty:
    #: nobody asked, and the table offered none but against the computer).
    hinted: str = ""
    #: What the player's claims came to, counting by hand (:func:`~bot.core.games.tally.
    #: counting_said`; empty: the bot counted, or the game goes on).
    counted: str = ""
    #: Deals of the player's left out of a review another person reads: deals whose crib was
    #: never shown, the player's cards of them never seen (the summary says which).
    unseen_deals: tuple[int, ...] = ()

    @property
    def accuracy(self) -> float | None:
        """The share of decisions within the margin of the best (None with none)."""
        if not self.decisions:
            return None
        return sum(1 for d in self.decisions if d.close) / len(self.decisions)

    @property
    def points_given_up(self) -> float:
        """Expected points given up in all (decisions valued in points)."""
        return sum(d.loss for d in self.decisions if d.unit == "points")

    @property
    def chance_given_up(self) -> float:
        """Chance to win given up in all (decisions near the end, valued by it)."""
        return sum(d.loss for d in self.decisions if d.unit == "chance")

    @property
    def deal_pages(self) -> tuple[int, ...]:
        """The deals that have a page: those with a decision to show, in order."""
        return tuple(sorted({d.deal for d in self.decisions}))

    @property
    def pages(self) -> int:
        """The summary and one page per deal."""
        return 1 + len(self.deal_pages)

    def mistakes(self) -> list[Decision]:
        """The decisions that gave something up, biggest first (chance to win counted as
        points at 100 points for the whole game)."""
        wrong = [d for d in self.decisions if not d.close]
        return sorted(wrong, key=lambda d: -(d.loss * 100 if d.unit == "chance" else d.loss))


def build_report(
    review: GameReview,
    *,
    game_id: int,
    seat: int,
    player: str,
    names: Names,
    sides: int,
    side: int,
    target: int,
    rule: str,
    final: bool,
    others: bool,
    sealed: bool = True,
    caveat: str = "",
    chances: bool = True,
    hinted: str = "",
    counted: str = "",
) -> ReviewReport:
    """The pages' data of ``review`` (of ``seat``, named ``player``, on ``side``). With
    ``others`` (the person looking is not that player) only deals whose crib was shown are
    kept. ``sealed``: whether the game's shuffles were sealed (the summary says when not);
    ``chances``: whether the expert's chances to win hold for the game (its deal pages say
    them only then); ``hinted``: who played it with hints, and ``counted``: what the player's
    claims came to counting by hand, as its summary says them."""
    decisions = tuple(d for d in review.of(seat) if not others or d.deal in review.shown)
    unseen = sorted({d.deal for d in review.of(seat)} - {d.deal for d in decisions})
    return ReviewReport(
        game_id=game_id,
        seat=seat,
        player=player,
        sides=tuple(names.typed_side(s) for s in range(sides)),
        side=side,
        target=target,
        rule=rule,
        partners=names.partners,
        final=final,
        deals=review.deals,
        decisions=decisions,
        sealed=sealed,
        caveat=caveat,
        chances=chances,
        began=review.began,
        hinted=hinted,
        counted=counted,
        unseen_deals=tuple(unseen),
    )


def review_caveat(record: GameRecord) -> str:
    """What the summary of a review of ``record``'s game says when it is a game the expert's
    two-player tables were not built for (empty otherwise): the review judges by the expert,
    and the expert plays such a game without them
    (:func:`bot.core.games.computer.without_tables`, which the lobby's note draws on too)."""
    game = without_tables(record)
    if game is None:
        return ""
    return (
        f"In {game} the expert's tables for the two-player standard game do "
        "not hold: the best choices here weigh the crib by the one-card table and count "
        "points, not the chance to win, so take these figures as a guide."
    )


def _percent(value: float) -> str:
    return f"{round(value * 100)}%"


def _chance_lost(value: float) -> str:
    """A loss of the chance to win, as the wins in 100 games it gives up (a percentage point
    each): never "0 wins", which reads as if nothing was lost, nor "percentage points of the
    chance to win", which reads badly."""
    points = value * 100
    if points < 0.5:
        return "under 1 win in 100 games"
    shown = round(points)
    return f"{shown} win{'s' if shown != 1 else ''} in 100 games"


def _loss(decision: Decision) -> str:
    if decision.unit == "chance":
        return _chance_lost(decision.loss)
    if decision.kind == "discard":
        # The difference of the two figures the deal's page shows, so that the summary's
        # mistake and the page say the same points given up.
        chosen, best = _discard_figures(decision)
        return f"{_number(best - chosen)} points"
    return f"{_number(decision.loss)} points"


def _discard_figures(decision: Decision) -> tuple[float, float]:
    """A discard's split and the best split, each as the sum of its parts as shown ("8.0 −
    4.7 + 0.5 = 3.8"; a review kept from before the parts were recorded has the best split's
    value alone)."""
    chosen = shown_sum(decision.kept_hand, decision.kept_crib, decision.kept_play)
    if decision.best_hand or decision.best_crib or decision.best_play:
        return chosen, shown_sum(decision.best_hand, decision.best_crib, decision.best_play)
    return chosen, as_shown(decision.best_value)


def _cards(cards: Sequence[Card]) -> str:
    return cards_str(sorted(cards, key=Card.sort_key))


def _headline(decision: Decision) -> str:
    """A decision in a few words: "Deal 3, discard 9♣ 2♦", "Deal 5, 4♦ at count 11"."""
    if decision.kind == "discard":
        return f"Deal {decision.deal}: threw {_cards(decision.chosen)}"
    where = "led" if decision.count == 0 else f"at count {decision.count}"
    return f"Deal {decision.deal}: {decision.chosen[0]} {where}"


def _value(decision: Decision, value: float) -> str:
    if decision.unit == "chance":
        return f"{_percent(value)} to win"
    return f"{_number(value)}"


def _summary(report: ReviewReport) -> str:
    who = escape(report.player)
    state = "" if report.final else f" (deals 1-{report.deals}; the game goes on)"
    lines = [f"**Review of game {report.game_id} — {who}**{state}"]
    unseen = _unseen_line(report)
    accuracy = report.accuracy
    if accuracy is None:
        lines.append(
            unseen
            or f"Nothing to judge: {who} made no choice in this game (it ended before the first"
            " discard, or every card was forced)."
        )
        if not report.sealed:
            lines.append(UNSEALED_LINE)
        return "\n".join(lines)
    close = sum(1 for d in report.decisions if d.close)
    given = f"{_number(report.points_given_up)} expected points"
    if report.chance_given_up > 0:
        given += f" and {_chance_lost(report.chance_given_up)}"
    lines.append(
        f"Accuracy **{_percent(accuracy)}** ({close} of {len(report.decisions)} decisions within "
        f"half a point of the expert's best) · given up to the expert's choices: {given}."
    )
    if report.hinted:
        lines.append(report.hinted)
    if report.counted:
        # A claim is no decision the expert judges (its best is the hand's value): what the
        # claims missed or claimed over is said apart.
        lines.append(report.counted)
    if unseen:
        lines.append(unseen)
    mistakes = report.mistakes()[:MISTAKES_SHOWN]
    if mistakes:
        lines.append("**Biggest mistakes**")
        for decision in mistakes:
            best = _cards(decision.best)
            lines.append(f"• {_headline(decision)} — best {best} ({_loss(decision)} given up)")
    else:
        lines.append("No mistakes: every decision was within the margin of the best.")
    if not report.sealed:
        lines.append(UNSEALED_LINE)
    if report.caveat:
        lines.append(report.caveat)
    lines.append("Use **Next** for each deal, decision by decision.")
    return "\n".join(lines)


def _unseen_line(report: ReviewReport) -> str:
    """What the summary says of the deals left out (empty: none): "Deal 6 is left out: Al's
    cards in it were never shown." (their figures would tell what the table never saw)."""
    deals = report.unseen_deals
    if not deals:
        return ""
    numbers = ", ".join(str(d) for d in deals[:-1])
    if len(deals) == 1:
        named, them = f"Deal {deals[0]} is", "it"
    else:
        named, them = f"Deals {numbers} and {deals[-1]} are", "them"
    return f"{named} left out: {escape(report.player)}'s cards in {them} were never shown."


def _decision_line(decision: Decision, who: str) -> str:
    """One decision on a deal's page."""
    mark = "✅" if decision.close else "❌"
    if decision.kind == "discard":
        kept = [c for c in decision.held if c not in decision.chosen]
        # (Whose decisions these are, the viewer's or not: the crib is for or against them.)
        crib = f"the crib (for {who})" if decision.kept_crib >= 0 else f"the crib (against {who})"
        sign = "+" if decision.kept_crib >= 0 else "−"
        # The total as the sum of the parts shown ("8.0 − 4.7 + 0.5 = 3.8"), the play's
        # where the judge counted it (:mod:`engine.players.judge`).
        chosen, best = _discard_figures(decision)
        play = ""
        if as_shown(decision.kept_play) != 0.0:
            sign_of_play = "−" if decision.kept_play < 0 else "+"
            play = f" {sign_of_play} {_number(abs(decision.kept_play))} in the play"
        said = (
            f"{mark} **Discard** from {_cards(decision.held)}: {who} threw "
            f"{_cards(decision.chosen)}, kept {_cards(kept)} — "
            f"{_number(decision.kept_hand)} in hand {sign} {_number(abs(decision.kept_crib))} "
            f"in {crib}{play} = {_number(chosen)}"
        )
        if decision.unit == "chance":
            # Near the end the chance to win decides, as the hint and the coach say it.
            said += f", {_value(decision, decision.chosen_value)}"
        if decision.was_best:
            return f"{said}, the best split."
        if decision.unit == "chance":
            return (
                f"{said}; best was to throw {_cards(decision.best)}: "
                f"{_value(decision, decision.best_value)} ({_loss(decision)} given up)."
            )
        # What was given up is the difference of the two figures shown.
        return (
            f"{said}; best was to throw {_cards(decision.best)}: "
            f"{_number(best)} ({_loss(decision)} given up)."
        )
    series = f" ({cards_str(decision.series)})" if decision.series else ""
    where = "to lead" if decision.count == 0 else f"at count {decision.count}{series}"
    said = (
        f"{mark} **Play** {where}, holding {_cards(decision.held)}: {who} played "
        f"{decision.chosen[0]} — {_value(decision, decision.chosen_value)}"
    )
    if decision.was_best:
        return f"{said}, the expert's choice."
    return (
        f"{said}; the expert plays {decision.best[0]}: "
        f"{_value(decision, decision.best_value)} ({_loss(decision)} given up)."
    )


def _deal_page(report: ReviewReport, deal: int) -> tuple[str, BoardPicture | None]:
    decisions = [d for d in report.decisions if d.deal == deal]
    first = decisions[0]
    # The scores as the deal began (the first decision may come in the play: a seat dealt
    # only the cards it keeps throws nothing); a review kept before they were recorded has
    # its first decision's.
    at_start = report.began[deal - 1] if deal <= len(report.began) else first.scores
    scores = " · ".join(
        tagged(escape(name), score) for name, score in zip(report.sides, at_start, strict=False)
    )
    starter = next((d.starter for d in decisions if d.starter is not None), None)
    head = f"**Deal {deal}** — {scores}"
    if starter is not None:
        head += f" · starter {starter}"
    lines = [head]
    # Each side's chance to win as the deal began, where the tables hold (the standard
    # two-player game: see bot.core.games.chances).
    said = (
        chances(at_start, report.target, first.dealer)
        if report.chances and not report.partners
        else None
    )
    if said is not None:
        lines.append(chances_line([escape(side) for side in report.sides], said))
    lines.append("(Play values are the points your side is expected to peg less the other's.)")
    for decision in decisions:
        lines.append(_decision_line(decision, escape(report.player)))
    board = BoardPicture(
        report.sides,
        tuple((score, score) for score in at_start),
        report.target,
        "lurch" if report.rule == Scoring.LURCH.value else "skunk",
        dealer=None if said is None else first.dealer,
        partners=report.partners,
        chances=said,
    )
    return "\n".join(lines), board


def page_view(report: ReviewReport, page: int) -> MessageView:
    """Page ``page`` of the review (0: the summary; then one a deal), with Previous / Next
    (a page out of range shows the last one); a review of one page has nothing to turn."""
    page = max(0, min(page, report.pages - 1))
    if page == 0:
        text, board = _summary(report), None
    else:
        text, board = _deal_page(report, report.deal_pages[page - 1])
    footer = f"\nPage {page + 1} of {report.pages}"
    controls = ReviewPages(report.game_id, report.seat, page, report.pages)
    if report.pages == 1:
        # (Previous and Next would be one button twice: Discord refuses two of one id.)
        return MessageView(text[:MAX_MESSAGE], board=board)
    return MessageView(text[: MAX_MESSAGE - len(footer)] + footer, board=board, controls=controls)


def accuracy_line(totals: Sequence[tuple[int, int, int, float]]) -> str | None:
    """The stats' line of the latest reviewed games: (game, decisions, accurate, given up)."""
    decisions = sum(t[1] for t in totals)
    if not decisions:
        return None
    accurate = sum(t[2] for t in totals)
    given = sum(t[3] for t in totals) / len(totals)
    games = len(totals)
    return (
        f"**Accuracy** {_percent(accurate / decisions)} over the last {games} reviewed "
        f"game{'s' if games != 1 else ''} ({_number(given)} expected points given up a game)"
    )


def add_lines(answer: Answer, lines: Sequence[str]) -> Answer:
    """``answer`` with ``lines`` added to its text (and its message's), if they fit."""
    if not lines or not answer.ok:
        return answer
    extra = "\n" + "\n".join(lines)
    reply = answer.reply
    if len(reply.text) + len(extra) > MAX_MESSAGE:
        return answer
    view = reply.view
    if view is not None:
        view = dataclasses.replace(view, content=view.content + extra)
    return dataclasses.replace(
        answer, reply=dataclasses.replace(reply, text=reply.text + extra, view=view)
    )


class ReviewStore(ReviewRecords, Archives, Protocol):
    """What the reviews need of the store."""

    async def hints_taken(self, game_id: int) -> dict[int, int]: ...


Maker = Callable[[ReviewRequest], Awaitable[GameReview]]


class Reviews:
    """Opens reviews: finds the game and the seat, refuses what may not be shown, makes the
    review in the worker (or reads the one kept) and draws its pages."""

    def __init__(
        self,
        games: Games,
        store: ReviewStore,
        clock: Callable[[], datetime],
        thinking: WorkerThinking | None = None,
        sight: Membership | None = None,
    ) -> None:
        """``sight``: who can see a server's channel (a game is shown to its players and to
        those who can see where it was played; default: everyone sees every channel)."""
        self._games = games
        self._sight: Membership = sight or EveryoneStays()
        self._store = store
        self._clock = clock
        self._make: Maker = (
            thinking.review
            if thinking is not None
            else lambda request: asyncio.to_thread(make_review, request)
        )
        # (game, seat) -> the review being made now, so two asking at once share it.
        self._making: dict[tuple[int, int], asyncio.Task[ReviewRow]] = {}

    async def review(
        self,
        place: Place,
        channel_id: int | None,
        user: User,
        game_id: int | None = None,
        player: User | None = None,
        page: int = 0,
    ) -> Answer:
        """The review of ``player``'s (default: the user's) decisions in game ``game_id``
        (default: the latest game in ``channel_id``: the place's, or the ranked game a player
        plays from there), asked for in ``place``, at ``page``."""
        try:
            record = await self.find(place, channel_id, game_id, viewer=user.id)
            report = await self._report(record, user, player)
        except Refused as refused:
            return Answer.refuse(str(refused))
        return Answer.say("", view=page_view(report, page))

    async def page(self, place: Place, user: User, game_id: int, seat: int, page: int) -> Answer:
        """Another page of a review already open (a Previous / Next click in ``place``): the
        click's message is updated to it. Checked again as the first page was."""
        try:
            record = await self.find(place, None, game_id, viewer=user.id)
            if not 0 <= seat < len(record.seats):
                raise Refused(NOT_A_PLAYER)
            report = await self._report(record, user, None, seat=seat)
        except Refused as refused:
            return Answer.refuse(str(refused))
        return Answer(reply=Answer.say("").reply, update=page_view(report, page))

    async def report(
        self, record: GameRecord, seat: int, viewer: User | None = None
    ) -> ReviewReport:
        """The review of ``seat`` in ``record``'s game as data, for another way of drawing it
        (a web page): as ``viewer`` may see it (None: someone who did not play). Raises
        :class:`~bot.core.base.refusals.Refused` with the sentence where it may not be shown."""
        if not 0 <= seat < len(record.seats):
            raise Refused(NOT_A_PLAYER)
        return await self._report(record, viewer or User(0, ""), None, seat=seat)

    async def review_all(self, record: GameRecord) -> bool:
        """Make and keep the final review of every person's seat in ``record``'s finished
        game (one at a time; those kept already are left as they are). False, with nothing
        made, for a game begun before shuffles were recorded (it cannot be dealt again).
        Raises :class:`~bot.core.base.faults.UnreadableGame` for a snapshot that cannot be read."""
        loaded = await self.load(record)
        if loaded.shuffles is None:
            return False
        for seat in record.seats:
            if not seat.is_computer:
                await self._row(record, loaded, seat.seat, None)
        return True

    async def stats_line(self, guild_id: int | None, user_id: int) -> str | None:
        """The accuracy line of ``/cribbage stats`` (None before any reviewed game)."""
        return accuracy_line(await self._store.review_totals(guild_id, user_id, last=STATS_GAMES))

    async def with_stats(self, answer: Answer, guild_id: int | None, user_id: int) -> Answer:
        """``/cribbage stats``'s answer with the accuracy line added (when there is one)."""
        line = await self.stats_line(guild_id, user_id)
        return add_lines(answer, [line] if line else [])

    async def find(
        self,
        place: Place,
        channel_id: int | None,
        game_id: int | None,
        *,
        viewer: int | None = None,
    ) -> GameRecord:
        """Game ``game_id`` (None: the latest game in ``channel_id``), asked for in ``place``
        by ``viewer``; raises :class:`~bot.core.base.refusals.Refused` for one that does not
        exist, is of another server than the place's, was played outside servers (a DM or
        group DM) in another conversation than the place (such a game is its conversation's,
        as a server's is its members'), or was played in a channel or thread ``viewer``
        cannot see and is not a player of: then in the very words for a game that does not
        exist there (:func:`not_found`, naming the place), so that asking for every number
        tells nothing of the games played elsewhere. A game played apart (a ranked game) is
        found for its players alone, wherever they ask (anyone else is told it is someone
        else's ranked game)."""
        store = self._games.store
        if game_id is None:
            if channel_id is None:
                raise Refused(NO_GAME_HERE)
            record = await store.last_game_in_channel(channel_id)
            if record is None:
                raise Refused(NO_GAME_HERE)
        else:
            record = await store.get_game(game_id) if is_row_id(game_id) else None
        if record is not None and players_only(record):
            # (Its players review it wherever they are.)
            if viewer is None or record.seat_of(viewer) is None:
                raise Refused(OTHERS_RANKED)
            return record
        here = place.channel_id
        if (
            record is None
            or record.guild_id != place.guild_id
            or (record.guild_id is None and record.channel_id != here)
        ):
            raise Refused(not_found(place))
        if (
            viewer is not None
            and record.guild_id is not None
            and record.channel_id != here
            and all(seat.user_id != viewer for seat in record.seats)
            and not await self._sight.sees(record.guild_id, viewer, record.channel_id)
        ):
            raise Refused(not_found(place))
        return record

    async def load(self, record: GameRecord, *, not_dealt: str = NOT_STARTED) -> Loaded:
        """The started game of ``record``, from its snapshot or its archive record; a game
        that never got to the deal (neither: a lobby, or one cancelled or expired in its
        lobby) is refused with ``not_dealt``, the caller's words for it."""
        if record.snapshot is not None:
            return self._games.loaded.load(record)
        kept = await self._store.archived(record.id)
        if kept is None:
            raise Refused(not_dealt)
        found = await asyncio.to_thread(archive.restore, kept)
        return Loaded(record, found.game, found.tally, found.log, found.shuffles, found.seeds)

    async def _report(
        self, record: GameRecord, user: User, player: User | None, *, seat: int | None = None
    ) -> ReviewReport:
        mine = next((s.seat for s in record.seats if s.user_id == user.id), None)
        if seat is None:
            if player is None or player.id == user.id:
                seat = mine
            else:
                seat = next((s.seat for s in record.seats if s.user_id == player.id), None)
                if seat is None:
                    raise Refused(NOT_A_PLAYER)
        if record.status is GameStatus.LOBBY:
            raise Refused(NOT_STARTED)
        loaded = await self.load(record)
        game = loaded.game
        over = loaded.over
        if not over:
            if mine is None:
                raise Refused(STILL_GOING)
            if seat != mine:
                raise Refused(OWN_ONLY)
        if seat is None:
            # Someone who did not play, once the game is over: the first person's decisions.
            seat = next((s.seat for s in record.seats if not s.is_computer), 0)
        if loaded.shuffles is None:
            raise Refused(TOO_OLD)
        through = None if over else game.deal_number - 1
        if through is not None and through < 1:
            raise Refused(NOTHING_YET)
        row = await self._row(record, loaded, seat, through)
        review = GameReview.from_dict(json.loads(row.data))
        view = game.public_view()
        names = Names.of(view)
        return build_report(
            review,
            game_id=record.id,
            seat=seat,
            player=record.seats[seat].name,
            names=names,
            sides=view.num_sides,
            side=view.sides[seat],
            target=view.target,
            rule=view.scoring.value,
            final=over,
            others=seat != mine,
            sealed=loaded.seeds is not None,
            caveat=review_caveat(record),
            chances=holds(view.rules),
            hinted=hints_line(record, await self._store.hints_taken(record.id)),
            # The tally is the whole game's: said once it is over, as the review then is.
            counted=counting_said(loaded.tally.seats[seat]) if over else "",
        )

    async def _row(
        self, record: GameRecord, loaded: Loaded, seat: int, through: int | None
    ) -> ReviewRow:
        """The kept review of ``seat``, made now if none covers ``through`` (None: the
        whole game)."""
        kept = await self._store.review(record.id, seat)
        if kept is not None and (kept.final or (through is not None and kept.deals >= through)):
            return kept
        key = (record.id, seat)
        task = self._making.get(key)
        if task is None:
            task = asyncio.ensure_future(self._made(record, loaded, seat, through))
            self._making[key] = task
            task.add_done_callback(lambda done: self._made_done(key, done))
        return await asyncio.shield(task)

    def _made_done(self, key: tuple[int, int], task: asyncio.Task[ReviewRow]) -> None:
        """A review being made is done: forget it. Its failure was already given to whoever
        waited for it; one nobody waits for any more (they stopped, or the bot is stopping:
        the store closed under it) is said here, as a warning, not left unretrieved."""
        self._making.pop(key, None)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.warning("the review of game %s, seat %s, was not made: %r", *key, error)

    async def _made(
        self, record: GameRecord, loaded: Loaded, seat: int, through: int | None
    ) -> ReviewRow:
        game = loaded.game
        assert loaded.shuffles is not None
        request = ReviewRequest.of(
            game, loaded.shuffles, seat=seat, through_deal=through, seed=record.id
        )
        review = await self._make(request)
        mine = review.of(seat)
        row = ReviewRow(
            game_id=record.id,
            seat=seat,
            user_id=record.seats[seat].user_id,
            guild_id=record.guild_id,
            deals=review.deals,
            final=through is None,
            decisions=len(mine),
            accurate=sum(1 for d in mine if d.close),
            given_up=sum(d.loss for d in mine if d.unit == "points"),
            data=json.dumps(review.to_dict(), separators=(",", ":")),
            made_at=self._clock().timestamp(),
        )
        await self._store.save_review(row)
        return row
