"""What every message a game owns must show in a given state of the game, drawn by the test.

A `Rendering` is one message as it must look: its text, its controls (written from the engine's
state, independently of the bot: the crib select while the seat owes a discard, one button per
card held on its turn with the unplayable ones disabled, nothing otherwise), the cards its text
must name, and for a table message the board picture with the scores its description must
name. `owed_views` gives every message of a game in one state: the table messages (drawn with
the renderer over the events the test replayed, laid out as the bot lays them out), each
person's hand message of this deal and the closed one of the deal before.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.base.text import Names
from bot.core.base.views import laid_out
from bot.core.deck.seeded import Seal
from bot.core.games.chances import chances
from bot.core.games.endings import Ended, Ending
from bot.core.messages.hand import closed_hand_text, coach_text, hand_text
from bot.core.messages.table import deal_layout, deal_text, result_line
from engine.cards import Card, cards_str
from engine.events import Dealt, Event, Shown
from engine.game import Game
from engine.outcome import final_scores
from engine.phase import Phase
from engine.players.win_chance import holds
from engine.views import PublicView
from fakediscord import Attachment, Message
from fakediscord.model import walk_components, words_of
from tests.helpers.replay import Replay
from tests.helpers.table_facts import scores_after

__all__ = [
    "HandControls",
    "Rendering",
    "closed_hand",
    "controls_of",
    "current_hand",
    "ending_of",
    "last_coach",
    "live_controls",
    "owed_views",
    "table_views",
]

#: A message's controls, reduced to what a player can see and use: per select
#: ("select", custom id, ((value, label), ...), min, max, disabled), per button
#: ("button", custom id, label, disabled).
HandControls = tuple[tuple[Any, ...], ...]
PNG = b"\x89PNG\r\n\x1a\n"


def controls_of(components: list[dict[str, Any]]) -> HandControls:
    """The controls of a message's components, in order."""
    found: list[tuple[Any, ...]] = []
    for item in walk_components(components):  # in rows, or nested in a V2 layout
        disabled = bool(item.get("disabled"))
        if item.get("type") == 3:
            options = tuple((o["value"], o["label"]) for o in item.get("options", []))
            low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
            found.append(("select", item["custom_id"], options, low, high, disabled))
        elif item.get("type") == 2:
            found.append(("button", item.get("custom_id"), item.get("label"), disabled))
    return tuple(found)


def live_controls(message: Message) -> bool:
    """Whether the message still has a control a player could use."""
    return any(not control[-1] for control in controls_of(message.components))


@dataclass(frozen=True)
class Rendering:
    """One message as it must look."""

    content: str
    controls: HandControls = ()
    #: Cards the text must name (a hand's own: what it holds, or what it kept).
    cards: tuple[Card, ...] = ()
    #: The board picture: each side's name and score, as its description must say them.
    board: tuple[tuple[str, int], ...] | None = None

    def mismatch_in(
        self,
        content: str,
        components: list[dict[str, Any]],
        attachments: Iterable[Attachment],
        *,
        words: bool = True,
    ) -> str | None:
        """Why a message with these parts does not look like this (None when it does): its
        text is its content, or the text displays of its Components V2 layout. Without
        ``words`` (another release drew it, in its own words) the text is not compared, only
        the controls, the cards it must name and the board."""
        content = words_of(content, components)
        if words and content != self.content:
            return f"it reads {content!r}, not {self.content!r}"
        shown = controls_of(components)
        if shown != self.controls:
            return f"its controls are {shown}, not {self.controls}"
        if self.cards and cards_str(self.cards) not in content:
            return f"it does not show {cards_str(self.cards)}"
        return _board_mismatch(list(attachments), self.board, words=words)

    def mismatch(self, message: Message | None, *, words: bool = True) -> str | None:
        """Why `message` does not look like this (None when it does; ``words`` as for
        `mismatch_in`)."""
        if message is None:
            return "the message is not there"
        return self.mismatch_in(
            message.content, message.components, message.attachments, words=words
        )


def _board_mismatch(
    attachments: list[Attachment], board: tuple[tuple[str, int], ...] | None, *, words: bool
) -> str | None:
    if board is None:
        return f"it has attachments {attachments}" if attachments else None
    if len(attachments) != 1:
        return f"it has {len(attachments)} attachments, not the board"
    picture = attachments[0]
    if not picture.data.startswith(PNG):
        return "the board is not a PNG"
    said = picture.description or ""
    if not words:
        return None
    missing = [f"{name}: {score}" for name, score in board if f"{name}: {score}" not in said]
    return f"the board's description {said!r} does not say {missing}" if missing else None


# -- hands ------------------------------------------------------------------------------------


def _controls(game: Game, seat: int, game_id: int, version: int, hint: bool) -> HandControls:
    """A hand's controls (``hint``: the table offers *Hint*, after them)."""
    view = game.view(seat)
    if view.phase is Phase.DISCARD and seat in view.pending_discards:
        options = tuple((c.code, str(c)) for c in view.hand)
        count = view.discard_count
        select_id = f"crib:{game_id}:discard:{view.deal_number}"
        hinted = f"crib:{game_id}:hint:{view.deal_number}"
        made: HandControls = (("select", select_id, options, count, count, False),)
    elif view.phase is Phase.PLAY and view.turn == seat:
        playable = set(view.playable)
        prefix = f"crib:{game_id}:play:{version}:"
        hinted = f"crib:{game_id}:hint:{version}"
        made = tuple(("button", prefix + c.code, str(c), c not in playable) for c in view.hand)
    else:
        return ()
    return (*made, ("button", hinted, "💡 Hint", False)) if hint else made


def current_hand(
    game: Game,
    seat: int,
    game_id: int,
    version: int,
    channel_id: int,
    coach: str | None,
    *,
    hint: bool = False,
) -> Rendering:
    """The seat's hand message for the deal being played (`coach`: the coach's line about the
    deal before, when the player gets one; ``hint``: the table offers *Hint*)."""
    view = game.view(seat)
    assert view.phase is not Phase.OVER, "a finished game's hands are closed: closed_hand"
    said = coach_text(view.deal_number - 1, coach) if coach else None
    shown = view.hand if view.phase is Phase.PLAY or seat in view.pending_discards else view.kept
    return Rendering(
        hand_text(view, channel_id, said), _controls(game, seat, game_id, version, hint), shown
    )


def closed_hand(
    channel_id: int,
    deal: int,
    kept: tuple[Card, ...],
    coach: tuple[int, str] | None = None,
    ending: str | None = None,
    again: tuple[int, str] | None = None,
) -> Rendering:
    """A hand message once its deal is over: what the seat kept and no controls; in the deal
    the game ended in, ``ending`` (:func:`ending_of`) and ``coach``, the last coach's line
    (the deal it is about, the line: :func:`last_coach`), and ``again``, where the game offers
    a rematch (its id, the label of its button: "🔁 Rematch", "🔁 Play again"), that one
    button, pressed from the DM. (During the game the coach's line on a deal rides on the
    next deal's hand message alone.)"""
    said = coach_text(*coach) if coach else None
    controls: HandControls = ()
    if again is not None:
        game_id, label = again
        controls = (("button", f"crib:{game_id}:rematch:hand", label, False),)
    return Rendering(closed_hand_text(channel_id, deal, kept, said, ending), controls, kept)


def last_coach(
    lines: Mapping[tuple[int, int], str], deal: int, seat: int, *, shown: bool = False
) -> tuple[int, str] | None:
    """The coach's line a finished game's last hand message ends on: on its last deal, or
    (that deal never ``shown``) on the deal before. A seat dealt short (five and six players)
    has no line on a deal it threw nothing in, and once that deal is shown, none at all."""
    for about in (deal,) if shown else (deal, deal - 1):
        line = lines.get((about, seat))
        if line:
            return about, line
    return None


def ending_of(game: Game, resigned: int | None) -> str | None:
    """How a finished game ended, as its last hand messages say it (None while it goes on;
    ``resigned``: the seat that resigned, if one did)."""
    result = game.state.result
    if result is None:
        return None
    return result_line(Names.of(game.public_view()), result, _resigned(resigned))


def _resigned(seat: int | None) -> Ended | None:
    """A game the seat ``seat`` resigned (None: played out, or not over)."""
    return None if seat is None else Ended(Ending.RESIGNED, seat)


# -- the table --------------------------------------------------------------------------------


def _sides(view: PublicView) -> list[str]:
    """Each side's name as plain text (partners sit opposite: "Al & Cy")."""
    n = view.num_sides
    return [
        " & ".join(view.players[s] for s in range(side, len(view.players), n)) for side in range(n)
    ]


def _seal(
    game: Game, events: Sequence[Event], seeds: Sequence[str] | None, deal: int
) -> Seal | None:
    """A deal's sealed shuffle as the table must show it: the seal (SHA-256 of the deal's
    seed, the one after the cut's shuffles) from the deal on, the seed once the crib was shown
    or the next deal dealt; for an unsealed game, that it has none."""
    if seeds is None:
        return Seal(None, None)  # a game begun before shuffles were sealed: nothing to check
    at = len(game.state.cut_rounds) + deal - 1
    if at >= len(seeds):
        return None
    seed = seeds[at]
    shown = deal < game.state.deal_number or any(isinstance(e, Shown) and e.crib for e in events)
    return Seal(hashlib.sha256(bytes.fromhex(seed)).hexdigest(), seed if shown else None)


def table_views(
    game: Game,
    deals: Mapping[int, list[Event]],
    *,
    resigned: int | None = None,
    seeds: Sequence[str] | None = None,
    launch: int | None = None,
) -> dict[str, Rendering]:
    """The game's table messages (``table:N``, ``result``) for the deals in
    `deals` (deal 0 holds the cut for deal), as they must read now: the deal's calls and where
    the play stands (with the deal's seal, and its seed once shown, given the game's
    ``seeds``), its show with the board picture, and the result with the final board.
    ``launch``: the game's id, while the Activity is on (the live deal's table then offers
    *Play at the table*)."""
    view = game.public_view()
    names = Names.of(view)
    sides = _sides(view)
    over = game.state.phase is Phase.OVER
    found: dict[str, Rendering] = {}
    for deal in sorted(d for d in deals if d >= 1):
        events = deals[deal]
        live = deal == game.state.deal_number and not over
        text = deal_text(
            names,
            events,
            view,
            live=live,
            opening=deals.get(0, ()) if deal == 1 else (),
            ended=_resigned(resigned),
            chances=_chances(view, deal, events, deals),
            seal=_seal(game, events, seeds, deal),
        )
        shown = text.show and not text.result  # the result carries the last board
        board = tuple(zip(sides, scores_after(events, view), strict=True)) if shown else None
        opens: HandControls = ()
        if launch is not None and live:
            opens = (("button", f"crib:{launch}:lobby:table", "Play at the table", False),)
        found[f"table:{deal}"] = Rendering(
            laid_out(deal_layout(text)).content, controls=opens, board=board
        )
        if text.result:
            # (The winner's peg in the game hole, as the result says the win.)
            winner = None if view.result is None else view.result.winner
            scores = final_scores(view.scores, winner, view.target)
            final = tuple(zip(sides, scores, strict=True))
            found["result"] = Rendering(text.result, board=final)
    return found


def _chances(
    view: PublicView, deal: int, events: list[Event], deals: Mapping[int, list[Event]]
) -> tuple[str, ...] | None:
    """Each player's chance to win as ``deal``'s show left the scores, once the next deal is
    dealt, between two players of the standard game, where the tables hold (who deals next:
    that deal's own event)."""
    dealt = next((e for e in deals.get(deal + 1, ()) if isinstance(e, Dealt)), None)
    if dealt is None or not holds(view.rules):
        return None
    return chances(scores_after(events, view), view.target, dealt.dealer)


def owed_views(
    replay: Replay,
    version: int,
    *,
    game_id: int,
    channel_id: int,
    hands: Iterable[int],
    coach: Mapping[tuple[int, int], str],
    launch: bool = False,
    again: str | None = None,
    hint: bool = False,
) -> dict[str, Rendering]:
    """Every message the game owes in the replayed state at `version`, by key: the tables of
    this deal and the one before, and the hand messages of the seats in `hands` (the people
    whose DMs are open); `coach` holds the coach's lines those people get, by (deal, seat).
    ``launch``: the Activity is on; ``again``: the label of the result's rematch button
    ("🔁 Rematch", "🔁 Play again"), where the game offers one (its last hand messages
    offer it too); ``hint``: its hands offer *Hint* (against the computer alone)."""
    game = replay.game
    deal = game.state.deal_number
    over = game.state.phase is Phase.OVER
    shown = {d: e for d, e in replay.deals.items() if d >= deal - 1 or d == 0}
    found = table_views(
        game,
        shown,
        resigned=replay.resigned,
        seeds=replay.seeds,
        launch=game_id if launch else None,
    )
    if "result" in found:
        # Every game the bot deals records its shuffles, so its result offers a review.
        review: tuple[tuple[str, str, str, bool], ...] = (
            ("button", f"crib:review:{game_id}", "🔍 Review", False),
        )
        if again is not None:
            review += (("button", f"crib:{game_id}:rematch", again, False),)
        found["result"] = dataclasses.replace(found["result"], controls=review)
    for seat in hands:
        if over:
            kept = replay.kept(deal, seat)
            ending = ending_of(game, replay.resigned)
            last = last_coach(coach, deal, seat, shown=deal in replay.shown)
            offered = None if again is None else (game_id, again)
            closed = closed_hand(channel_id, deal, kept, last, ending, offered)
            found[f"hand:{deal}:{seat}"] = closed
        else:
            said = coach.get((deal - 1, seat))
            now = current_hand(game, seat, game_id, version, channel_id, said, hint=hint)
            found[f"hand:{deal}:{seat}"] = now
        # The deal before is closed, over or not: a game can end in a deal begun and ended
        # by the computer's answers to one move (a seat dealt only the four it keeps throws
        # nothing), and the move's deal's hand was then last seen open.
        if deal - 1 >= 1:
            kept = replay.kept(deal - 1, seat)
            closed = closed_hand(channel_id, deal - 1, kept)
            found[f"hand:{deal - 1}:{seat}"] = closed
    return found
