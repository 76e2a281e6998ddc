"""The channel's calls of the table: what each engine event sounds like when said aloud.

"Bea plays 5♥ — fifteen for 2 (count 15)", "Go — Al pegs 1 (Al 7)", the starter, every show
item by item, the scores before the next deal and the result. Made from events and the public
view after them only.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, auto
from typing import assert_never

from bot.core.render.text import Names, chunk, plural
from engine.cards import cards_str
from engine.events import (
    Claimed,
    CountReset,
    CutForDeal,
    Dealt,
    Discarded,
    Event,
    GameOver,
    Go,
    GoPoint,
    Heels,
    Mugginsed,
    Played,
    Shown,
    StarterCut,
)
from engine.outcome import GameResult
from engine.phase import Phase
from engine.speech import say_pegging, say_score
from engine.views import PublicView

__all__ = ["call_steps", "result_line", "scores_line"]

#: One applied action: its events and the public view right after it.
CalledStep = tuple[Sequence[Event], PublicView]


def _played(names: Names, event: Played) -> str:
    said = say_pegging(event.items, event.points)
    name = names.seat(event.seat)
    if said:
        return f"{name} plays {event.card} — {said} (count {event.count})"
    return f"{name} plays {event.card} (count {event.count})"


def _go_point(names: Names, event: GoPoint) -> str:
    label = "Last card" if event.last_card else "Go"
    return (
        f"{label} — {names.seat(event.seat)} pegs {event.points}"
        f" ({names.side(event.side)} {event.score})"
    )


def _whose(names: Names, seat: int, crib: bool) -> str:
    owner = names.seat(seat)
    return f"{owner}'s crib" if crib else f"{owner}'s hand"


def _shown(names: Names, event: Shown) -> str:
    what = _whose(names, event.seat, event.crib)
    said = say_score(event.score)
    if event.claimed is not None:
        # The breakdown after a claim: the claim was pegged already.
        missed = f" — {plural(event.missed, 'point')} missed" if event.missed else ""
        return (
            f"{what}: {cards_str(event.cards)} + starter {event.starter} — {said}"
            f" (claimed {event.claimed}{missed})"
        )
    return (
        f"{what}: {cards_str(event.cards)} + starter {event.starter} — {said}"
        f" ({names.side(event.side)} {event.total})"
    )


def _claimed(names: Names, event: Claimed) -> str:
    what = _whose(names, event.seat, event.crib)
    return (
        f"{what}: {cards_str(event.cards)} + starter {event.starter} — "
        f"{names.seat(event.seat)} claims {event.points} ({names.side(event.side)} {event.score})"
    )


def _mugginsed(names: Names, event: Mugginsed) -> str:
    return (
        f"Muggins! {names.seat(event.seat)} takes the {plural(event.points, 'point')}"
        f" {names.seat(event.owner)} missed ({names.side(event.side)} {event.score})"
    )


def _cut(names: Names, event: CutForDeal) -> str:
    rounds = [
        ", ".join(f"{names.seat(s)} {card}" for s, card in enumerate(cards) if card is not None)
        for cards in event.rounds
    ]
    said = " — a tie for lowest, cut again: ".join(rounds)
    return f"Cut for deal: {said}. {names.seat(event.dealer)} cuts lowest and deals first."


def _dealt(names: Names, event: Dealt, discard_count: int) -> str:
    dealer = names.seat(event.dealer)
    cards = plural(discard_count, "card")
    extra = ", and the top card of the deck joins it" if event.crib_from_deck else ""
    return (
        f"**Deal {event.deal_number}** — {dealer} deals {event.hand_size} each. "
        f"Everyone puts {cards} in {dealer}'s crib{extra}: check your DMs, "
        "or use `/cribbage hand`."
    )


def _starter(names: Names, event: StarterCut, heels: Heels | None) -> str:
    leader = names.seat((event.dealer + 1) % len(names.players))
    if heels is not None:
        return (
            f"Starter: {event.card} — his heels, {names.seat(heels.seat)} pegs {heels.points}"
            f" ({names.side(heels.side)} {heels.score}). {leader} leads."
        )
    return f"Starter: {event.card}. {leader} leads."


def result_line(names: Names, result: GameResult) -> str:
    """The end of a game: "🏆 Al wins 121-84 — a skunk, 2 game points"."""
    winner = names.side(result.winner)
    verb = names.verb("wins", "win")
    order = [result.winner] + [s for s in range(len(result.scores)) if s != result.winner]
    scores = "-".join(str(result.scores[s]) for s in order)
    points = plural(result.game_points, "game point")
    kinds = {
        "skunk": "a skunk, ",
        "double_skunk": "a double skunk, ",
        "lurch": "a lurch, ",
    }
    how = "" if result.reason != "resigned" else " by resignation"
    return f"🏆 {winner} {verb} {scores}{how} — {kinds.get(result.kind, '')}{points}"


def scores_line(names: Names, scores: Sequence[int], target: int) -> str:
    """Every side's score: "Scores: Al 45 · Bea 38 (to 121)"."""
    parts = " · ".join(f"{names.side(s)} {score}" for s, score in enumerate(scores))
    return f"Scores: {parts} (to {target})"


class _Kind(Enum):
    """How a call joins its neighbours in the channel."""

    PLAY = auto()  # consecutive plays, goes and resets share one message
    DISCARD = auto()  # consecutive discards share one message, then who is still to discard
    DEAL = auto()  # a new deal: after a show, the scores come first
    SHOW = auto()  # one message per hand counted
    ALONE = auto()  # one message of its own


@dataclass(frozen=True, slots=True)
class _Call:
    kind: _Kind
    text: str
    view: PublicView  # the table right after the action that made the call


def _calls(events: Sequence[Event], view: PublicView) -> Iterator[_Call]:
    """The calls of one action's events, in order."""
    names = Names.of(view)
    for i, event in enumerate(events):
        match event:
            case Played():
                yield _Call(_Kind.PLAY, _played(names, event), view)
            case Go():
                yield _Call(_Kind.PLAY, f"{names.seat(event.seat)} says go", view)
            case GoPoint():
                yield _Call(_Kind.PLAY, _go_point(names, event), view)
            case CountReset():
                line = f"The count starts again; {names.seat(event.next_seat)} leads"
                yield _Call(_Kind.PLAY, line, view)
            case Discarded():
                line = f"{names.seat(event.seat)} puts {plural(event.count, 'card')} in the crib."
                yield _Call(_Kind.DISCARD, line, view)
            case CutForDeal():
                yield _Call(_Kind.ALONE, _cut(names, event), view)
            case Dealt():
                yield _Call(_Kind.DEAL, _dealt(names, event, view.discard_count), view)
            case StarterCut():
                after = events[i + 1] if i + 1 < len(events) else None
                heels = after if isinstance(after, Heels) else None
                yield _Call(_Kind.ALONE, _starter(names, event, heels), view)
            case Heels():
                pass  # said with the starter
            case Shown():
                yield _Call(_Kind.SHOW, _shown(names, event), view)
            case Claimed():
                yield _Call(_Kind.SHOW, _claimed(names, event), view)
            case Mugginsed():
                yield _Call(_Kind.SHOW, _mugginsed(names, event), view)
            case GameOver():
                yield _Call(_Kind.ALONE, result_line(names, event.result), view)
            case _:
                assert_never(event)


def _waiting(view: PublicView) -> str:
    """Who is still to put cards in the crib, after the last discard of a message."""
    if view.phase is not Phase.DISCARD or not view.pending_discards:
        return ""
    names = Names.of(view)
    return f" Waiting for {', '.join(names.seat(s) for s in view.pending_discards)}."


def call_steps(steps: Sequence[CalledStep]) -> list[str]:
    """The channel messages for the actions of one service call, in order (a person's move
    and the computer's answers to it, each with the public view right after it).

    Consecutive plays share one message even across actions, and so do consecutive discards,
    so a computer answering at once (or playing several cards after a go) does not flood the
    channel; the cut, the deal, the starter, each hand counted and the result get their own.
    """
    calls = [call for events, view in steps for call in _calls(events, view)]
    messages: list[str] = []
    previous: _Kind | None = None
    for kind, group in itertools.groupby(calls, key=lambda call: call.kind):
        run = list(group)
        if kind is _Kind.PLAY:
            messages += chunk(call.text for call in run)
        elif kind is _Kind.DISCARD:
            texts = [call.text for call in run]
            texts[-1] += _waiting(run[-1].view)
            messages += chunk(texts)
        else:
            for call in run:
                if kind is _Kind.DEAL and previous is _Kind.SHOW:
                    # Nothing scores between the show and the next deal, so the view's
                    # scores are the scores the show left.
                    view = call.view
                    messages.append(scores_line(Names.of(view), view.scores, view.target))
                messages.append(call.text)
        previous = kind
    return messages
