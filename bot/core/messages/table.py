"""The table in the channel: one message per deal, the calls of that deal said as players say
them, where the play stands now, and at the end the show, item by item, and the scores.

"Bea plays 5♥ (count 15) — fifteen for 2 (Bea: 17)" (every play calls the count, and a scoring
one says the side's running score, set apart from its name: a name may end in a number),
"Al plays 9♦ (count 24)", "Go — Bea pegs 1 (Bea: 18)", the starter and his heels, every hand
and the crib counted, the result. Made from the deal's events and the public view only, so a card
still in someone's hand cannot reach the channel by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import assert_never

from bot.core.base.text import Names, and_list, plural, tagged
from bot.core.base.views import MAX_LAID_OUT, MAX_MESSAGE
from bot.core.deck.seeded import Seal, verify_command
from bot.core.games.chances import chances_line
from bot.core.games.endings import Ended, said
from engine import events as ev
from engine.cards import Card, cards_str
from engine.counting import Counting
from engine.outcome import EndReason, GameResult, ResultKind, conceded_to, final_scores
from engine.phase import Phase
from engine.rules import PlayEnd, Rules
from engine.speech import number_word, say_pegging, say_score
from engine.views import PublicView

__all__ = [
    "LEFT_OUT",
    "NOT_SEALED",
    "PLAY_OVER",
    "DealText",
    "claim_wrong",
    "deal_layout",
    "deal_text",
    "fits_whole",
    "one_message",
    "resign_question",
    "result_line",
    "scores_line",
    "standing_text",
]

#: How many deals' texts are kept as told (:func:`deal_text`): a game's every deal is drawn
#: again on each change of it, and a bot runs many games at once.
DEALS_KEPT = 512
#: Said in place of the plays that scored nothing when a deal's table is too long for them.
LEFT_OUT = "_(the plays that scored nothing are left out, to keep the deal in one message)_"
#: Said under the deal, where a sealed shuffle's seal would be, in a game begun before
#: shuffles were sealed (it has no seed to show, so nobody can check its deals).
NOT_SEALED = (
    "🔒 No sealed shuffle: this game began before the bot sealed its shuffles, so its deals "
    "can't be checked."
)


def _played(names: Names, event: ev.Played) -> str:
    said = say_pegging(event.items, event.points)
    # Players call the count with every card ("five", "eleven", "fifteen two").
    called = f"{names.seat(event.seat)} plays {event.card} (count {event.count})"
    if said:
        return f"{called} — {said} ({tagged(names.side(event.side), event.score)})"
    return called


def _go_point(names: Names, event: ev.GoPoint) -> str:
    label = "Last card" if event.last_card else "Go"
    return (
        f"{label} — {names.seat(event.seat)} pegs {event.points}"
        f" ({tagged(names.side(event.side), event.score)})"
    )


def _whose(names: Names, seat: int, crib: bool) -> str:
    owner = names.seat(seat)
    return f"{owner}'s crib" if crib else f"{owner}'s hand"


#: What the table adds when a hand scores one of the two rarest counts (76 and 4 of the
#: 12,994,800 hand and starter combinations).
RARE_HANDS = {28: " — 🎉 **a 28!**", 29: " — 🎉 **a 29, the perfect hand!**"}


def _shown(names: Names, event: ev.Shown, manual: bool) -> str:
    what = _whose(names, event.seat, event.crib)
    said = say_score(event.score)
    # A 28 or 29 is rare among four cards and the starter, not among five (seven-card).
    rare = RARE_HANDS.get(event.score.total, "") if len(event.cards) == 4 else ""
    if event.claimed is not None:
        # The breakdown after a claim (manual counting): the claim was pegged already.
        wrong = claim_wrong(event)
        return f"{what} counted: {said}{f' — {wrong}' if wrong else ''}{rare}"
    if manual:
        # Counting by hand, a hand shown without a claim is one the clock counted: its owner
        # did not claim in time, and it is pegged in full.
        return (
            f"Time ran out: {what} counted for them: {cards_str(event.cards)} + starter "
            f"{event.starter} — {said} ({tagged(names.side(event.side), event.total)}){rare}"
        )
    return (
        f"{what}: {cards_str(event.cards)} + starter {event.starter} — {said}"
        f" ({tagged(names.side(event.side), event.total)}){rare}"
    )


def claim_wrong(event: ev.Shown) -> str:
    """What a hand's claim got wrong, as the table says it after the breakdown ("4 points
    missed", "claimed 3 points over"); empty for a claim that was right, or no claim."""
    if event.missed:
        return f"{plural(event.missed, 'point')} missed"
    if event.over:
        return f"claimed {plural(event.over, 'point')} over"
    return ""


def _claimed(names: Names, event: ev.Claimed) -> str:
    # A claim over the value is pegged back to it (the points over go to the opponents).
    back = f" and pegs the {event.pegged} it is worth" if event.over else ""
    return (
        f"{_whose(names, event.seat, event.crib)}: {cards_str(event.cards)} + starter "
        f"{event.starter} — {names.seat(event.seat)} claims {event.points}{back}"
        f" ({tagged(names.side(event.side), event.score)})"
    )


def _overclaimed(names: Names, event: ev.Overclaimed) -> str:
    return (
        f"Too many! {names.seat(event.seat)} pegs the {plural(event.points, 'point')}"
        f" {names.seat(event.owner)} claimed over ({tagged(names.side(event.side), event.score)})"
    )


def _mugginsed(names: Names, event: ev.Mugginsed) -> str:
    return (
        f"Muggins! {names.seat(event.seat)} takes the {plural(event.points, 'point')}"
        f" {names.seat(event.owner)} missed ({tagged(names.side(event.side), event.score)})"
    )


def _cut(names: Names, event: ev.CutForDeal) -> str:
    if not event.rounds:
        # The first deal given by the rule for a following game (a rematch of two players).
        dealer = names.seat(event.dealer)
        return f"No cut for deal — {dealer} lost the game before, so {dealer} deals first."
    rounds = [
        ", ".join(tagged(names.seat(s), card) for s, card in enumerate(cards) if card is not None)
        for cards in event.rounds
    ]
    said = " — a tie for lowest, cut again: ".join(rounds)
    return f"Cut for deal — {said}. {names.seat(event.dealer)} cuts lowest and deals first."


def _dealt(names: Names, event: ev.Dealt, rules: Rules) -> str:
    """The deal's line, as the rules deal each seat its share: "Al deals 6 each; everyone
    puts 2 cards in Al's crib."; seats dealt fewer are named ("Al deals 5 each (4 to Al);
    everyone else puts 1 card in Al's crib.", with six players "Al deals 5 each (4 to Flo and
    Al); Bea, Cy, Di and Ed put 1 card each in Al's crib.")."""
    dealer = names.seat(event.dealer)
    order = [(event.dealer + k) % rules.seats for k in range(1, rules.seats + 1)]
    dealt = {seat: rules.dealt(seat, event.dealer) for seat in order}
    thrown = {seat: rules.to_crib(seat, event.dealer) for seat in order}
    extra = ", and the top card of the deck joins it" if event.crib_from_deck else ""
    each = max(set(dealt.values()), key=lambda n: (list(dealt.values()).count(n), n))
    fewer = [seat for seat in order if dealt[seat] != each]
    shares = f"{each} each" + "".join(
        f" ({n} to {and_list(names.seat(s) for s in fewer if dealt[s] == n)})"
        for n in sorted({dealt[s] for s in fewer}, reverse=True)
    )
    throwers = [seat for seat in order if thrown[seat]]
    amounts = {thrown[seat] for seat in throwers}
    if len(amounts) != 1:
        # No rules the books give throw different numbers of cards; said seat by seat.
        throws = (
            and_list(f"{names.seat(s)} puts {plural(thrown[s], 'card')}" for s in throwers)
            + f" in {dealer}'s crib"
        )
    else:
        cards = plural(amounts.pop(), "card")
        if len(throwers) == len(order):
            throws = f"everyone puts {cards} in {dealer}'s crib"
        elif throwers == [s for s in order if s != event.dealer]:
            throws = f"everyone else puts {cards} in {dealer}'s crib"
        else:
            who = and_list(names.seat(s) for s in throwers)
            throws = f"{who} put {cards} each in {dealer}'s crib"
    return f"**Deal {event.deal_number}** — {dealer} deals {shares}; {throws}{extra}."


def _for_last(names: Names, event: ev.ForLast) -> str:
    """Points pegged at the start of the game, as players say them: "Bea takes three for
    last (Bea: 3)." (five-card cribbage's three to the first dealer's opponent)."""
    return (
        f"{names.seat(event.seat)} takes {number_word(event.points)} for last"
        f" ({tagged(names.side(event.side), event.score)})."
    )


#: Said when the play of a one-pass game (five-card cribbage) ends at its first go or 31 with
#: cards still held: they are not played.
PLAY_OVER = "That ends the play (one series to 31): the cards still held are not played."


def _play_over(
    event: ev.Played | ev.GoPoint, after: Sequence[ev.Event], rules: Rules, played: int
) -> list[str]:
    """:data:`PLAY_OVER` when ``event`` (followed by ``after``, the next event if any) ended a
    one-pass play with cards still held (``played``: cards played so far in the deal, this
    one included) and the game goes on."""
    if rules.play_end is not PlayEnd.FIRST_GO or played >= rules.seats * rules.kept:
        return []
    if any(isinstance(next_event, ev.GameOver) for next_event in after):
        return []
    if isinstance(event, ev.GoPoint):
        ended = not event.last_card
    else:
        ended = event.count == rules.points.max_count
    return [PLAY_OVER] if ended else []


def _starter(names: Names, event: ev.StarterCut, heels: ev.Heels | None) -> str:
    if heels is None:
        return f"Starter: {event.card}."
    return (
        f"Starter: {event.card} — his heels, {names.seat(heels.seat)} pegs {heels.points}"
        f" ({tagged(names.side(heels.side), heels.score)})."
    )


def result_line(names: Names, result: GameResult, ended: Ended | None = None) -> str:
    """The end of a game: "🏆 Al wins 121-84 — a skunk, 2 game points", the winner's score
    the game hole however far the last count went past it (:func:`~bot.core.base.text.
    final_scores`: "🏆 Bea wins 61-47", never 62). A game lost by a
    concession (``ended`` names it and its seat: resigned, the clock, leaving, a deletion)
    ended below the target, so each score is named, the winner's first, after how it ended
    (:func:`bot.core.games.endings.said`): "Bea resigned — 🏆 Al wins, a lurch, 2 game points
    (Al: 40, Bea: 10)", "Bea's clock ran out — 🏆 Al wins, …". With three players each
    loser's score is named, highest first: "🏆 Al wins 61 to Cy's 53 and Bea's 34", "(Bea:
    40, Cy: 30, Al: 20)". A ranked match's game (``ended.in_match``) names no game points,
    which count for nothing there: "🏆 Al wins 121-84"."""
    winner = names.side(result.winner)
    verb = names.verb("wins", "win")
    losers = sorted(
        (s for s in range(len(result.scores)) if s != result.winner),
        key=lambda s: (-result.scores[s], s),
    )
    # (The winner's score at the game hole, as players say it: a win at 61, not "62".)
    final = final_scores(result.scores, result.winner, names.rules.target)
    won = final[result.winner]
    if len(losers) == 1:
        scores = f"{won}-{final[losers[0]]}"
    else:
        scores = f"{won} to " + and_list(f"{names.side(s)}'s {final[s]}" for s in losers)
    # A game resigned ends below the target, where the winner may trail: each score named.
    standing = ", ".join(tagged(names.side(s), final[s]) for s in [result.winner, *losers])
    points = plural(result.game_points, "game point")
    kinds = {
        "skunk": "a skunk, ",
        "double_skunk": "a double skunk, ",
        "lurch": "a lurch, ",
    }
    worth = f"{kinds.get(result.kind, '')}{points}"
    in_match = ended is not None and ended.in_match
    if ended is not None and ended.seat is not None:
        # A concession is a loss at the scores as they stand, with the game points they give.
        how = said(ended.ending, names.seat(ended.seat))
        given = "" if in_match else f", {worth}"
        return f"{how} — 🏆 {winner} {verb}{given} ({standing})"
    return f"🏆 {winner} {verb} {scores}" + ("" if in_match else f" — {worth}")


def resign_question(names: Names, view: PublicView, seat: int, *, ranked: bool = False) -> str:
    """What ``/cribbage resign`` asks before it resigns: "Resign this game? It is a loss at
    the scores as they stand: Al: 40 · Bea: 52 (to 121); …" (with partners: for your side,
    your partner's consent not needed). In a ``ranked`` match's game, what it is worth there:
    a game of the match (game points count for nothing in it)."""
    side = view.sides[seat]
    partners = view.rules.partners
    whose = f" for {names.side(side)} (a resignation is yours alone)" if partners else ""
    standing = standing_text(names, view.scores, view.target)
    # Who would win, and what it is worth: as the engine scores a resignation (a lurch or
    # skunk at the scores now).
    winner = conceded_to(view.scores, side)
    result = view.rules.result(view.scores, winner, EndReason.RESIGNED)
    worth = _WORTH[result.kind].format(
        winner=names.side(winner), points=plural(result.game_points, "game point")
    )
    if ranked:
        worth = _RANKED_WORTH.format(winner=names.side(winner))
    return (
        f"Resign this game{whose}? It is a loss at the scores as they stand: {standing}; "
        f"{worth}. It can't be taken back."
    )


#: What a resignation would give the winner in a ranked match's game.
_RANKED_WORTH = (
    "{winner} would win this game of your ranked match (the first to win two takes the match)"
)
#: What a resignation would give the winner, by the kind of win it is at the scores now.
_WORTH = {
    ResultKind.WIN: "{winner} would win {points}",
    ResultKind.LURCH: "{winner} would win by a lurch, {points}",
    ResultKind.SKUNK: "{winner} would win by a skunk, {points}",
    ResultKind.DOUBLE_SKUNK: "{winner} would win by a double skunk, {points}",
}


def standing_text(names: Names, scores: Sequence[int], target: int) -> str:
    """Every side's score, each set apart from its name: "Al: 45 · Bea: 38 (to 121)"."""
    parts = " · ".join(tagged(names.side(s), score) for s, score in enumerate(scores))
    return f"{parts} (to {target})"


def scores_line(names: Names, scores: Sequence[int], target: int) -> str:
    """Every side's score: "Scores — Al: 45 · Bea: 38 (to 121)"."""
    return f"Scores — {standing_text(names, scores, target)}"


@dataclass(frozen=True, slots=True)
class DealText:
    """A deal as the channel shows it: the play (with where it stands now, while it goes on)
    and, once counted, the show (with the scores after it); the result if the game ended."""

    play: str
    show: str
    result: str
    #: The play without the calls that scored nothing (plays and "says go"), for a deal too
    #: long to say them all beside its show.
    brief: str = ""
    #: The show in parts, one after the other: each hand and the crib (with its claim and any
    #: muggins when counting by hand), then the lines after them (the scores, the chances);
    #: ``show`` is these parts, a line each.
    show_parts: tuple[str, ...] = ()
    #: Where the play stands now (a live table's last line of its play, the phase's own line;
    #: empty otherwise), which a laid-out table shows apart from the calls.
    status: str = ""


def _status(names: Names, view: PublicView) -> str:
    """Where the deal stands now, for a live table."""
    match view.phase:
        case Phase.DISCARD:
            waiting = and_list(names.seat(s) for s in view.pending_discards)
            return f"Waiting for {waiting} to put cards in the crib."
        case Phase.PLAY:
            series = cards_str(view.series) if view.series else "nothing played yet"
            turn = f" — {names.seat(view.turn)} to play." if view.turn is not None else "."
            return f"**Count {view.count}** ({series}){turn}"
        case Phase.SHOW:
            return _counting(names, view)
        case Phase.OVER:
            return ""
        case _:
            assert_never(view.phase)


def _counting(names: Names, view: PublicView) -> str:
    """Where a manual show stands: a claim open to muggins, and whose count is next."""
    lines = []
    if view.muggins is not None:
        owner = names.seat(view.muggins.seat)
        lines.append(f"{owner} claimed {view.muggins.claimed} — an opponent may call **Muggins!**")
    turn = view.count_turn
    if turn is not None:
        what = "the crib" if turn.crib else "their hand"
        lines.append(
            f"Waiting for {names.seat(turn.seat)} to count {what}: {cards_str(turn.cards)}"
            f" + starter {view.starter}."
        )
    return "\n".join(lines)


@dataclass
class _Told:
    """A deal's events as its table says them: the calls of the play, the show's groups of
    lines (a hand or the crib each, in the order counted) and the result, if the game ended
    (what :func:`deal_text` says after them: where the deal stands, the seed, the scores)."""

    play: list[str] = field(default_factory=list)
    #: The indexes in ``play`` of calls that scored nothing (left out of the brief form).
    quiet: set[int] = field(default_factory=set)
    hands: list[list[str]] = field(default_factory=list)
    result: str = ""

    @classmethod
    def of(
        cls,
        names: Names,
        events: Sequence[ev.Event],
        rules: Rules,
        seal: Seal | None,
        ended: Ended | None,
    ) -> _Told:
        """The deal's events told, by the game's ``rules``."""
        told = cls()
        play, quiet, hands = told.play, told.quiet, told.hands
        played = 0
        for i, event in enumerate(events):
            match event:
                case ev.Dealt():
                    play.append(_dealt(names, event, rules))
                    if seal is not None and seal.seal is None:
                        play.append(NOT_SEALED)
                    elif seal is not None:
                        play.append(f"🔒 Shuffle sealed: SHA-256 `{seal.seal}`")
                case ev.Discarded():
                    pass  # who is still to discard is said by the status line
                case ev.StarterCut():
                    after = events[i + 1] if i + 1 < len(events) else None
                    heels = after if isinstance(after, ev.Heels) else None
                    play.append(_starter(names, event, heels))
                case ev.Heels():
                    pass  # said with the starter
                case ev.Played():
                    played += 1
                    if not event.points:
                        quiet.add(len(play))
                    play.append(_played(names, event))
                    play += _play_over(event, events[i + 1 : i + 2], rules, played)
                case ev.Go():
                    quiet.add(len(play))
                    play.append(f"{names.seat(event.seat)} says go")
                case ev.GoPoint():
                    play.append(_go_point(names, event))
                    play += _play_over(event, events[i + 1 : i + 2], rules, played)
                case ev.CountReset():
                    play.append(f"The count starts again; {names.seat(event.next_seat)} leads")
                case ev.Shown():
                    # A breakdown after a claim belongs with the claim; any other show is a hand.
                    if event.claimed is None or not hands:
                        hands.append([])
                    hands[-1].append(_shown(names, event, rules.counting is Counting.MANUAL))
                case ev.Claimed():
                    hands.append([_claimed(names, event)])
                case ev.Mugginsed() | ev.Overclaimed():
                    if not hands:
                        hands.append([])  # (said alone, as a replay says each event)
                    said = (
                        _mugginsed(names, event)
                        if isinstance(event, ev.Mugginsed)
                        else _overclaimed(names, event)
                    )
                    hands[-1].append(said)
                case ev.GameOver():
                    told.result = result_line(names, event.result, ended)
                case ev.CutForDeal():
                    play.append(_cut(names, event))
                case ev.ForLast():
                    play.append(_for_last(names, event))
                case _:
                    assert_never(event)
        return told


def deal_text(
    names: Names,
    events: Sequence[ev.Event],
    view: PublicView,
    *,
    live: bool,
    opening: Sequence[ev.Event] = (),
    ended: Ended | None = None,
    chances: Sequence[str] | None = None,
    seal: Seal | None = None,
    closing: str | None = None,
) -> DealText:
    """The text of one deal's table from its events; ``view`` is the table now (for the
    discard count and, when ``live``, the line that says where the play stands); ``ended``:
    how the game ended, for its result (a concession is said where it came, in the deal);
    ``closing``: how a game that ended without a result ended (cancelled, expired, a
    tournament's forfeit), said where the live table said what it waited for; ``chances``,
    each side's chance to win once the deal is over, said after the scores; ``seal``: the
    deal's sealed shuffle (its seal under the deal, its seed at the show once shown; for a game
    begun before shuffles were sealed, :data:`NOT_SEALED` under the deal). ``opening``: the
    events before the first deal (the cut for deal, and the points for last where the rules
    give them), said first on the first deal's table."""
    told = (*opening, *events)
    status = closing if closing else _status(names, view) if live else ""
    return _told_text(
        (names.raw, names.rules),
        view.rules,
        told,
        _scores_after(told, view),
        status=status,
        # At a manual show the table waits on the show, so that is where it says so.
        in_show=bool(status) and view.phase is Phase.SHOW,
        ended=ended,
        chances=None if chances is None else tuple(chances),
        seal=seal,
    )


@lru_cache(maxsize=DEALS_KEPT)
def _told_text(
    named: tuple[tuple[str, ...], Rules],
    rules: Rules,
    events: tuple[ev.Event, ...],
    scores: tuple[int, ...],
    *,
    status: str,
    in_show: bool,
    ended: Ended | None,
    chances: tuple[str, ...] | None,
    seal: Seal | None,
) -> DealText:
    """:func:`deal_text` from values alone (the latest :data:`DEALS_KEPT` kept): a deal over
    is told the same on every change of its game, each deal's table drawn again to see which
    changed (some 0.5 ms each, for every deal so far)."""
    names = Names(*named)
    told = _Told.of(names, events, rules, seal, ended)
    play, hands, result = told.play, told.hands, told.result
    show: list[str] = []
    if status:
        (show if in_show else play).append(status)
    if seal is not None and seal.seed is not None and seal.seal is not None:
        show.append(_seed_line(seal.seed, seal.seal, events, rules))
    if result and ended is not None and ended.seat is not None:
        # A concession can come at any moment of a deal: the deal's own table says it ended
        # there, and how (the result message says it too, below the last deal).
        (show if show or hands else play).append(result)
    if (show or hands) and not result:
        # The scores after this deal's show (the deal that ended the game has the result instead).
        show.append(scores_line(names, scores, rules.target))
        if chances is not None:
            sides = [names.side(side) for side in range(len(chances))]
            show.append(chances_line(sides, chances))
    brief = [line for i, line in enumerate(play) if i not in told.quiet]
    if told.quiet:
        brief.append(LEFT_OUT)
    parts = tuple("\n".join(lines) for lines in hands)
    if show:
        parts += ("\n".join(show),)
    return DealText(
        "\n".join(play),
        "\n".join(parts),
        result,
        "\n".join(brief),
        show_parts=parts,
        status=status if play and play[-1] == status else "",
    )


def one_message(text: DealText, limit: int = MAX_MESSAGE) -> str:
    """A deal's table as one message of at most ``limit`` characters: the play, then the show.
    When both do not fit, the plays that scored nothing give way (the brief form); if even
    that is too long, the play is cut short from its end, and the show last of all, so the
    deal never needs a second message (its show does not move part-way through the deal)."""
    together = "\n\n".join(part for part in (text.play, text.show) if part)
    if len(together) <= limit:
        return together
    show = text.show[:limit]
    room = limit - len(show) - 2
    play = text.brief if len(text.brief) <= room else text.brief[: max(room - 1, 0)] + "…"
    return "\n\n".join(part for part in (play if room > 0 else "", show) if part)


def deal_layout(text: DealText, limit: int = MAX_LAID_OUT) -> tuple[tuple[str, ...], ...]:
    """A deal's table laid out in parts (:func:`bot.core.base.views.laid_out`): the play, then
    each part of the show set apart, within ``limit`` characters in all. The rules of
    :func:`one_message` hold: when everything does not fit, the plays that scored nothing give
    way; if even that is too long, the play is cut short from its end, and the show last of
    all, so the deal never needs a second message."""
    shows = tuple(p for p in text.show_parts if p)
    if len(text.play) + sum(len(p) for p in shows) <= limit:
        return (_apart(text.play, text.status), *((p,) for p in shows))
    if fits_whole(text, limit):
        return (_apart(text.brief, text.status), *((p,) for p in shows))
    kept: list[str] = []
    used = 0
    for part in shows:
        part = part[: limit - used]
        if part:
            kept.append(part)
            used += len(part)
    room = limit - used
    play = text.brief[: max(room - 1, 0)] + "…"
    return ((play if room > 0 else "",), *((p,) for p in kept))


def fits_whole(text: DealText, limit: int = MAX_LAID_OUT) -> bool:
    """Whether :func:`deal_layout` lays the deal out within ``limit`` with every call that
    scored and its whole show (the plays that scored nothing perhaps left out): nothing cut
    short."""
    shows = sum(len(p) for p in text.show_parts if p)
    return min(len(text.play), len(text.brief)) + shows <= limit


def _apart(play: str, status: str) -> tuple[str, ...]:
    """The play's calls, and the line that says where it stands apart from them (the two
    texts hold the same characters as ``play`` but the line break between them)."""
    calls = play.removesuffix(status)
    if not status or calls == play:
        return (play,)
    return (calls.removesuffix("\n"), status) if calls else (status,)


def _seed_line(seed: str, seal: str, events: Sequence[ev.Event], rules: Rules) -> str:
    """The deal's seed, once shown, with the command that checks the deal, complete as it
    runs: the seed and seal, the game's players (and variant), the starter and each hand
    shown, from the dealer's left to the dealer (docs/shuffle.md)."""
    dealt = next((e for e in events if isinstance(e, ev.Dealt)), None)
    starter = next((e.card for e in events if isinstance(e, ev.StarterCut)), None)
    kept = {e.seat: e.cards for e in events if isinstance(e, ev.Shown) and not e.crib}
    hands: list[Sequence[Card]] = []
    if dealt is not None and len(kept) == rules.seats:
        order = [(dealt.dealer + k) % rules.seats for k in range(1, rules.seats + 1)]
        hands = [kept[seat] for seat in order]
    command = verify_command(seed, seal, rules, starter, hands)
    return f"🔓 Shuffle seed: `{seed}` — check the deal: `{command}`"


def _scores_after(events: Sequence[ev.Event], view: PublicView) -> tuple[int, ...]:
    """The scores when the deal's show ended (or as it stands, while a manual show goes on):
    every side shows a hand, so each side's last points of the deal say its score then (the
    view may be of a later deal, whose heels or play moved on)."""
    scores = list(view.scores)
    for event in events:
        scored = ev.points_scored(event)
        if scored is not None:
            scores[scored.side] = scored.total
    return tuple(scores)
