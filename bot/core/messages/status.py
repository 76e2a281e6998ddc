"""The table as a whole, for ``/cribbage status``: a text board and where the deal stands."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.base.text import Names, and_list, code_cell, code_width, plural, tagged
from bot.core.games.endings import Ended
from bot.core.messages.hand import GAME_ENDED
from bot.core.messages.table import result_line
from engine.cards import cards_str
from engine.phase import Phase
from engine.views import PublicView

__all__ = ["board", "ended_without_result_text", "last_result_text", "status_text"]

_BOARD_WIDTH = 30


def board(names: Names, scores: Sequence[int], target: int) -> str:
    """A text track per side, in a code block: ``Al   ▰▰▰▰▱▱▱▱  45``."""
    sides = [names.typed_side(s) for s in range(len(scores))]
    width = max(code_width(name) for name in sides)
    lines = []
    for side, score in enumerate(scores):
        filled = min(_BOARD_WIDTH, score * _BOARD_WIDTH // target)
        track = "▰" * filled + "▱" * (_BOARD_WIDTH - filled)
        lines.append(f"{code_cell(sides[side], width)}  {track} {score:>3}")
    return "```\n" + "\n".join(lines) + f"\n{'':>{width}}  to {target}\n```"


def status_text(view: PublicView, ended: Ended | None = None) -> str:
    """The public table: board, dealer, phase, whose turn, the count and the series (or how
    the game ended: ``ended``)."""
    names = Names.of(view)
    lines = [board(names, view.scores, view.target)]
    if view.phase is Phase.OVER and view.result is not None:
        lines.append(result_line(names, view.result, ended))
        return "\n".join(lines)
    dealer = names.seat(view.dealer)
    lines.append(f"Deal {view.deal_number} — {dealer} deals and has the crib.")
    if view.phase is Phase.DISCARD:
        waiting = ", ".join(names.seat(s) for s in view.pending_discards)
        lines.append(f"Discarding: waiting for {waiting}.")
    elif view.phase is Phase.SHOW:
        # Manual counting: the show waits for a claim, or for muggins on a short one.
        lines.append(f"The show — starter {view.starter}.")
        # (Whom it waits on: those who may call muggins, and the next owner once they may.)
        window, turn = view.muggins, view.count_turn
        if window is not None:
            owner = names.seat(window.seat)
            callers = and_list(names.seat(seat) for seat in window.callers(view.sides))
            lines.append(f"{owner} claimed {window.claimed}: {callers} may call muggins.")
        if turn is not None:
            what = "the crib" if turn.crib else "their hand"
            if window is not None and window.holds(turn.seat, view.sides):
                lines.append(
                    f"{names.seat(turn.seat)} counts {what} next, once muggins is settled."
                )
            else:
                lines.append(f"{names.seat(turn.seat)} to count {what}.")
    else:
        lines.append(f"The play — starter {view.starter}.")
        if view.turn is not None:
            lines.append(f"{names.seat(view.turn)} to play.")
        series = cards_str(view.series) if view.series else "no cards yet"
        lines.append(f"Count {view.count}: {series}.")
        held = ", ".join(
            tagged(names.seat(s), plural(n, "card")) for s, n in enumerate(view.hand_sizes)
        )
        lines.append(f"Cards left: {held}.")
    return "\n".join(lines)


def last_result_text(
    view: PublicView, ended: Ended | None = None, *, ranked: bool = False, lesson: bool = False
) -> str:
    """``status`` in a channel whose last game has finished: the final board and result, and
    what opens the next (a ``ranked`` game's: another search, which works wherever its players
    are, their DM with the bot included, where ``/cribbage new`` does not; a ``lesson``'s,
    in that DM: another lesson)."""
    return _last_game_over(status_text(view, ended), ranked=ranked, lesson=lesson)


def ended_without_result_text(
    end_note: str | None, *, ranked: bool = False, lesson: bool = False
) -> str:
    """``status`` in a place whose last game ended with no result (cancelled, or nobody moved
    in it for too long): how it ended, in the words its table was told (``end_note``), and
    what opens the next, as :func:`last_result_text` says it. The commands that find that
    game over send the person here (``refusals.game_over``), so it is shown, not denied."""
    return _last_game_over(end_note or GAME_ENDED.capitalize(), ranked=ranked, lesson=lesson)


def _last_game_over(said: str, *, ranked: bool, lesson: bool) -> str:
    if ranked:
        after = "Search for another ranked match with `/cribbage ranked play`."
    elif lesson:
        after = (
            "Deal another lesson with `/cribbage learn`; a whole game is opened with "
            "`/cribbage new` in a server channel, or a DM or group DM with the people you play."
        )
    else:
        after = "Start a new one with `/cribbage new`."
    return f"The last game here is over.\n{said}\n{after}"
