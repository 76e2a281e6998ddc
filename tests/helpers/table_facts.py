"""What the channel's table messages must say, written two ways.

`check_calls` reads a table message line by line against the engine's events, independently of
the renderer: every call names the player and the card and says the count, or the points with
the caller's running score; go, last card, the starter and his heels; every hand and crib of
the show with its cards and the engine's own words for its score; the live line that says
where the play stands; the scores after the show.

(`tests.helpers.expected_views` has what the table messages must read exactly, drawn with the
renderer over the same events.)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.core.base.text import escape
from bot.core.messages.table import LEFT_OUT
from engine.cards import cards_str
from engine.events import (
    CountReset,
    CutForDeal,
    Dealt,
    Event,
    ForLast,
    GameOver,
    Go,
    GoPoint,
    Heels,
    Played,
    Shown,
    StarterCut,
)
from engine.phase import Phase
from engine.players.win_chance import holds
from engine.rules import PlayEnd
from engine.speech import say_pegging, say_score
from engine.views import PublicView

__all__ = [
    "check_calls",
    "check_result",
    "scores_after",
    "side_names",
]


def side_names(view: PublicView) -> list[str]:
    """Each side's name as the channel writes it (partners sit opposite: "Al & Cy")."""
    names = [escape(p) for p in view.players]
    sides = view.num_sides
    return [" & ".join(names[s] for s in range(side, len(names), sides)) for side in range(sides)]


def _facts(event: Event, after: Event | None, seat: list[str], side: list[str]) -> list[str]:
    """The words one event's line must hold (empty: the event has no line of its own)."""
    match event:
        case CutForDeal():
            cards = [str(c) for cut in event.rounds for c in cut if c is not None]
            return ["Cut for deal —", *cards, f"{seat[event.dealer]} cuts lowest"]
        case Dealt():
            return [f"**Deal {event.deal_number}**", f"{seat[event.dealer]} deals"]
        case ForLast():
            return [f"{seat[event.seat]} takes", "for last", f"({side[event.side]}: {event.score})"]
        case StarterCut():
            facts = [f"Starter: {event.card}"]
            if isinstance(after, Heels):
                scored = (
                    f"{seat[after.seat]} pegs {after.points} ({side[after.side]}: {after.score})"
                )
                facts += ["his heels", scored]
            return facts
        case Played():
            # Every play calls the count; one that scores says it, and the side's score.
            called = f"{seat[event.seat]} plays {event.card} (count {event.count})"
            if event.points:
                said = say_pegging(event.items, event.points)
                return [f"{called} — {said}", f"({side[event.side]}: {event.score})"]
            return [called]
        case Go():
            return [f"{seat[event.seat]} says go"]
        case GoPoint():
            label = "Last card" if event.last_card else "Go"
            return [
                label,
                f"{seat[event.seat]} pegs {event.points} ({side[event.side]}: {event.score})",
            ]
        case CountReset():
            return [f"{seat[event.next_seat]} leads"]
        case Shown():
            whose = f"{seat[event.seat]}'s {'crib' if event.crib else 'hand'}"
            return [
                whose,
                f"{cards_str(event.cards)} + starter {event.starter}",
                say_score(event.score),
                f"({side[event.side]}: {event.total})",
            ]
        case _:
            return []


def _ends_one_pass(so_far: Sequence[Event], after: Event | None, view: PublicView) -> bool:
    """Whether the last of ``so_far`` (a deal's events) ended a one-pass play (five-card
    cribbage) at its go or 31 while someone still held cards, the game going on: the table
    then says the play is over."""
    rules = view.rules
    event = so_far[-1]
    if rules.play_end is not PlayEnd.FIRST_GO or isinstance(after, GameOver):
        return False
    played = sum(isinstance(e, Played) for e in so_far)
    if played == len(view.players) * rules.kept:
        return False
    if isinstance(event, GoPoint):
        return not event.last_card
    return isinstance(event, Played) and event.count == 31


def _live_facts(view: PublicView, seat: list[str]) -> list[str]:
    if view.phase is Phase.DISCARD:
        return ["Waiting for", *(seat[s] for s in view.pending_discards), "crib"]
    if view.phase is Phase.PLAY:
        facts = [f"**Count {view.count}**", *(str(c) for c in view.series)]
        if view.turn is not None:
            facts.append(f"{seat[view.turn]} to play")
        return facts
    return []


def scores_after(events: Sequence[Event], view: PublicView) -> list[int]:
    """Each side's score when a deal's show ended (every side shows a hand every deal)."""
    scores = list(view.scores)
    for event in events:
        if isinstance(event, Shown):
            scores[event.side] = event.total
    return scores


def check_calls(events: Sequence[Event], text: str, view: PublicView, *, live: bool) -> None:
    """`text` (a deal's table message, its show included) has one line per call of `events`,
    in order, each saying what the engine says, then (when `live`) where the play stands and
    (after the show, unless the game ended in this deal) the scores, or the resignation that
    ended the game: and no other line. A deal too long for one message leaves out the calls
    that scored nothing, and says so in a line of its own."""
    seat = [escape(p) for p in view.players]
    side = side_names(view)
    wanted: list[list[str]] = []
    brief = LEFT_OUT in text
    for i, event in enumerate(events):
        if brief and (isinstance(event, Go) or (isinstance(event, Played) and not event.points)):
            continue
        after = events[i + 1] if i + 1 < len(events) else None
        facts = _facts(event, after, seat, side)
        if facts:
            wanted.append(facts)
        if _ends_one_pass(events[: i + 1], after, view):
            wanted.append(["That ends the play", "not played"])
    if live and view.phase is not Phase.OVER:
        wanted.append(_live_facts(view, seat))
    ended = any(isinstance(e, GameOver) for e in events)
    over = next((e for e in events if isinstance(e, GameOver)), None)
    if over is not None and over.result.reason == "resigned":
        # A resignation is said on the deal's own table: who resigned, who wins.
        wanted.append(["resigned — 🏆", side[over.result.winner]])
    if any(isinstance(e, Shown) for e in events) and not ended:
        scores = scores_after(events, view)
        wanted.append(["Scores —", *(f"{side[s]}: {score}" for s, score in enumerate(scores))])
        if not live and holds(view.rules):
            # Once the next deal is dealt, two players' chances to win from there.
            wanted.append(["Chances to win —", f"{side[0]}: ", " · ", f"{side[1]}: ", "%"])
            _check_chances(text)
    lines = [line for line in text.splitlines() if line.strip() and line != LEFT_OUT]
    # The deal's seal and seed (checked to the digit by the expected views): one of each; or,
    # in a game begun before shuffles were sealed, the one line that says so.
    sealed = [
        line
        for line in lines
        if line.startswith(("🔒 Shuffle sealed", "🔓 Shuffle seed", "🔒 No sealed shuffle"))
    ]
    assert len(sealed) == len(set(line[:2] for line in sealed)) <= 2, text
    lines = [line for line in lines if line not in sealed]
    assert len(lines) == len(wanted), (wanted, text)
    for facts, line in zip(wanted, lines, strict=True):
        for fact in facts:
            assert fact in line, (fact, line, text)


def _check_chances(text: str) -> None:
    """The two chances add up to all there is: whole percents summing to 100, or one side
    above 99% and the other under 1%."""
    found = re.search(r"Chances to win — .+: (\S+)% · .+: (\S+)%$", text, re.MULTILINE)
    assert found is not None, text
    first, second = found.groups()
    if {first, second} == {">99", "<1"}:
        return
    assert int(first) + int(second) == 100 and 1 <= int(first) <= 99, text


def check_result(event: GameOver, text: str, target: int | None = None) -> None:
    """The result line says the winner's score first, then the others' (highest first; with
    three players each after its name: "61 to Cy's 53 and Bea's 34"), and the game points;
    with ``target``, a win pegged past it said at the game hole ("61", never "62")."""
    result = event.result
    losers = sorted(
        (s for s in range(len(result.scores)) if s != result.winner),
        key=lambda s: (-result.scores[s], s),
    )
    pegged = result.scores[result.winner]
    won = str(pegged if target is None or result.reason == "resigned" else min(pegged, target))
    if result.reason == "resigned":
        # After a resignation each score is named, the winner's first, as they stood:
        # "(Al: 7, Bea: 9)", "(Bea: 40, Cy: 30, Al: 20)".
        stood = ", ".join([r"[^(]+: (\d+)"] * len(result.scores))
        named = re.search(rf"\({stood}\)", text)
        assert named is not None, text
        wanted = [result.scores[result.winner], *(result.scores[s] for s in losers)]
        assert [int(n) for n in named.groups()] == wanted, text
    elif len(losers) == 1:
        assert f"{won}-{result.scores[losers[0]]}" in text, text
    else:
        wanted = [result.scores[s] for s in losers]
        # "61 to Cy's 53, Di's 40 and Bea's 34", as many as there are losing sides.
        listed = ", ".join([r".+'s (\d+)"] * (len(losers) - 1))
        said = re.search(rf"{won} to {listed} and .+'s (\d+)", text)
        assert said is not None, text
        assert [int(n) for n in said.groups()] == wanted, text
    points = result.game_points
    assert f"{points} game point{'s' if points != 1 else ''}" in text, text
