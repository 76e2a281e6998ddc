"""A review's report, drawn: the summary of a player's decisions in a game (their accuracy, the
chances they lost, the biggest mistakes), a page per deal with its board, and the lines a
review adds to ``/cribbage stats``. Pure drawing, from the engine's
:class:`~engine.review.GameReview` and the game's record: :class:`~bot.core.review.review.Reviews`
finds the game and makes the review, this module says it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.base.replies import Answer
from bot.core.base.text import Names, escape, tagged
from bot.core.base.views import MAX_MESSAGE, BoardPicture, MessageView, ReviewPages
from bot.core.games.chances import chances, chances_line
from bot.core.games.computer import without_tables
from bot.core.games.records import GameRecord, Options
from engine.cards import Card, cards_str
from engine.coach import as_shown, shown_sum
from engine.coach import one_decimal as _number
from engine.outcome import Scoring
from engine.review import Decision, GameReview

__all__ = [
    "MISTAKES_SHOWN",
    "UNSEALED_LINE",
    "ReviewReport",
    "accuracy_line",
    "add_lines",
    "build_report",
    "page_view",
    "review_caveat",
]

#: The biggest mistakes the summary page lists.
MISTAKES_SHOWN = 5

#: The review's summary of a game begun before shuffles were sealed.
UNSEALED_LINE = (
    "This game began before the bot sealed its shuffles, so its deals can't be checked "
    "(`python -m bot verify` needs a deal's seed)."
)


@dataclass(frozen=True, slots=True)
class ReviewReport:
    """A review as its pages show it: whose it is, the sides' names and the options the
    table was played by, every decision that may be shown, and its figures."""

    game_id: int
    seat: int
    player: str
    sides: tuple[str, ...]
    side: int
    #: The options the table was played by, as its record keeps them (the board's target and
    #: lines are drawn from them).
    options: Options
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
    options: Options,
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
        options=options,
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
        chances(at_start, report.options.target, first.dealer)
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
        report.options.target,
        "lurch" if report.options.scoring is Scoring.LURCH else "skunk",
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
