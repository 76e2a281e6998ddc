"""What one person's Activity shows of a channel's game, as plain data for its page (JSON).

Drawn from the stored game alone, for one reader: a player gets the game's public view and
their own seat's view (``Game.view(seat)``: their hand, what they kept and threw, what they may
play), and the controls the hand messages give them (:func:`~bot.core.messages.prompts.
hand_controls`, the same decisions); anyone else gets the public view only, as the channel does.
So no card still in someone else's hand, in the crib or in the deck can reach a page that may
not see it: nothing else here reads a hidden card.

The calls are the channel's own (the deal's table, :func:`~bot.core.messages.table.
deal_text`), the show is the public view's last show item by item, the chances are the board's
(:mod:`bot.core.games.chances`), the coach's line is the player's own, and the result is the
result message's line. Text that carries Discord's markdown is sent as HTML, made by the
``html`` the page's server gives (``bot.web.pages.message_html``: escaped); names are sent as
typed, for the page to set as text. What the person's Discord status says is
:func:`~bot.core.messages.presence.presence_of`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.core.base.choices import LEVEL_BLURBS, level_name
from bot.core.base.places import GAMES_NOT_IN_MY_DMS
from bot.core.base.replies import User
from bot.core.base.text import Names, plural
from bot.core.base.views import LOBBY_LABELS, HandControls, LobbyControls
from bot.core.games.chances import chances
from bot.core.games.deal_log import DealLog
from bot.core.games.everyone import lobby_seen
from bot.core.games.games import Loaded
from bot.core.games.lobby import partners_text, table_kind, teams_text
from bot.core.games.records import GameRecord, GameStatus, Options
from bot.core.games.series import again_of, match_thread
from bot.core.messages.boards import board_lines
from bot.core.messages.hand import coach_text
from bot.core.messages.lesson import coach_for
from bot.core.messages.presence import presence_of
from bot.core.messages.projection import owes_move
from bot.core.messages.prompts import hand_controls
from bot.core.messages.spectator import title_of
from bot.core.messages.table import deal_text, result_line
from engine import events as ev
from engine.cards import Card, Suit
from engine.phase import Phase
from engine.players import LEVELS
from engine.players.win_chance import holds
from engine.scoring import Score, ScoreKind
from engine.speech import say_pegging, say_score
from engine.variants import Variant, listed, named
from engine.views import PublicView, SeatView

__all__ = [
    "CARD_NAMES",
    "activity_state",
    "card_json",
    "card_name",
    "no_game_of_its_own",
    "options_json",
    "variant_choice",
]

_RANKS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
#: The longest message the SDK's ``shareLink`` takes.
SHARE_MOST = 1000
_SUITS = {
    Suit.CLUBS: "clubs",
    Suit.DIAMONDS: "diamonds",
    Suit.HEARTS: "hearts",
    Suit.SPADES: "spades",
}
#: How a card is named for a screen reader ("5 of hearts", "queen of spades").
CARD_NAMES = r"(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)"
_KINDS = {
    ScoreKind.FIFTEEN: "Fifteen",
    ScoreKind.THIRTY_ONE: "Thirty-one",
    ScoreKind.PAIR: "Pair",
    ScoreKind.PAIR_ROYAL: "Three of a kind",
    ScoreKind.DOUBLE_PAIR_ROYAL: "Four of a kind",
    ScoreKind.RUN: "Run",
    ScoreKind.FLUSH: "Flush",
    ScoreKind.NOBS: "Nobs",
}


def card_name(card: Card) -> str:
    """A card in words, for screen readers: ``5 of hearts``, ``king of clubs``."""
    return f"{_RANKS.get(card.rank, str(card.rank))} of {_SUITS[card.suit]}"


def card_json(card: Card, *, playable: bool | None = None) -> dict[str, Any]:
    """A card for the page: its code (what a move names), label, name in words, colour."""
    data: dict[str, Any] = {
        "code": card.code,
        "label": str(card),
        "alt": card_name(card),
        "red": card.suit in (Suit.HEARTS, Suit.DIAMONDS),
    }
    if playable is not None:
        data["playable"] = playable
    return data


def _cards(cards: Sequence[Card]) -> list[dict[str, Any]]:
    return [card_json(c) for c in cards]


#: Text in Discord's markdown as HTML, for the page (the page's server gives it).
Html = Callable[[str], str]


def _html(html: Html, text: str) -> str:
    return html(text) if text else ""


def _items(score: Score) -> list[dict[str, Any]]:
    return [
        {
            "kind": _KINDS.get(item.kind, str(item.kind)),
            "cards": _cards(item.cards),
            "points": item.points,
        }
        for item in score.items
    ]


def _show(names: Names, shown: Sequence[ev.Shown]) -> list[dict[str, Any]]:
    """The show hand by hand, every item: what was counted (and claimed, counting by hand)."""
    hands = []
    for event in shown:
        owner = names.raw[event.seat]
        hands.append(
            {
                "seat": event.seat,
                "whose": f"{owner}'s crib" if event.crib else f"{owner}'s hand",
                "crib": event.crib,
                "cards": _cards(event.cards),
                "starter": card_json(event.starter),
                "items": _items(event.score),
                "said": say_score(event.score),
                "points": event.score.total,
                "claimed": event.claimed,
                "missed": event.missed,
                "over": event.over,
                "total": event.total,
            }
        )
    return hands


def _caption(names: Names, events: Sequence[ev.Event]) -> str | None:
    """The last call, in a few words: "Bea: fifteen for 2", "Go — Al pegs 1"; a muggins
    called on the last claim, or the points over pegged for it, is said while that claim's
    hand is shown."""
    claims = [i for i, e in enumerate(events) if isinstance(e, ev.Claimed)]
    wrong = (ev.Mugginsed, ev.Overclaimed)
    taken = [e for e in events[claims[-1] :] if isinstance(e, wrong)] if claims else []
    if taken:
        last = taken[-1]
        points = plural(last.points, "point")
        if isinstance(last, ev.Overclaimed):
            owner = names.raw[last.owner]
            return f"Too many! {names.raw[last.seat]} pegs the {points} {owner} claimed over"
        return f"Muggins! {names.raw[last.seat]} takes the {points} {names.raw[last.owner]} missed"
    for event in reversed(events):
        match event:
            case ev.Played():
                # The count called with every card, and what it scored, if anything.
                said = say_pegging(event.items, event.points)
                scored = f", {said}" if said else ""
                return f"{names.raw[event.seat]} plays {event.card} — {event.count}{scored}"
            case ev.GoPoint():
                label = "Last card" if event.last_card else "Go"
                return f"{label} — {names.raw[event.seat]} pegs {event.points}"
            case ev.Heels():
                return f"His heels — {names.raw[event.seat]} pegs {event.points}"
            case ev.Shown():
                whose = "crib" if event.crib else "hand"
                return f"{names.raw[event.seat]}'s {whose}: {say_score(event.score)}"
            case ev.Claimed():
                return f"{names.raw[event.seat]} claims {event.points}"
            case ev.Mugginsed():
                return f"Muggins! {names.raw[event.seat]} takes {event.points}"
            case ev.Overclaimed():
                return f"Too many! {names.raw[event.seat]} pegs {event.points}"
            case ev.StarterCut():
                return f"Starter: {event.card}"
    return None


def _chances(log: DealLog, view: PublicView) -> list[str] | None:
    """Each side's chance to win as this deal began (the standard two-player game only,
    where the tables hold)."""
    if not holds(view.rules) or view.phase is Phase.OVER:
        return None
    deal = view.deal_number
    start = log.pegs_after(deal - 1) if deal > 1 else [(0, 0), (0, 0)]
    if start is None:
        return None
    said = chances([front for front, _ in start], view.target, view.sides[view.dealer])
    return None if said is None else list(said)


def _act(controls: HandControls | None, view: SeatView) -> dict[str, Any] | None:
    """What the reader may do now, from their hand's controls."""
    if controls is None:
        return None
    act: dict[str, Any] = {"kind": controls.kind, "stamp": controls.stamp, "hint": controls.hint}
    if controls.kind == "discard":
        act["pick"] = controls.pick
    if controls.kind == "count":
        turn = view.count_turn
        act["claims"] = list(controls.claims)
        act["muggins"] = controls.muggins
        act["crib"] = bool(turn and turn.crib)
    return act


def _seats(
    record: GameRecord, loaded: Loaded | None, viewer: int, avatars: Mapping[int, str]
) -> list[dict[str, Any]]:
    view = loaded.game.public_view() if loaded is not None else None
    active = loaded is not None and record.status is GameStatus.ACTIVE
    seats = []
    for seat in record.seats:
        data: dict[str, Any] = {
            "seat": seat.seat,
            "name": seat.name,
            "computer": seat.is_computer,
            "you": seat.user_id == viewer,
            # (Whom the page's list of the people at the table finds seated.)
            "user": None if seat.user_id is None else str(seat.user_id),
            "avatar": None if seat.user_id is None else avatars.get(seat.user_id),
        }
        if view is not None and loaded is not None:
            data.update(
                side=view.sides[seat.seat],
                dealer=view.dealer == seat.seat,
                waiting=active and owes_move(loaded.game, seat.seat),
                held=view.hand_sizes[seat.seat],
                played=_cards(view.played[seat.seat]),
            )
        seats.append(data)
    return seats


def _lobby(record: GameRecord, viewer: int, series: str, html: Html) -> dict[str, Any]:
    """The lobby as the chat's lobby has it (its words, its buttons with their labels, its
    computer menu), less what this reader may not press, and for its creator what *Deal
    everyone in* would play for each number of players (:func:`~bot.core.messages.
    lobby_seen`)."""
    seen = lobby_seen(record, User(viewer, ""), series)
    controls = seen.view.controls
    assert isinstance(controls, LobbyControls)
    # (A seat a rematch keeps for someone is not taken until they take it.)
    taken = sum(1 for s in record.seats if not s.held)
    free = taken < record.options.num_players
    # A full table of teams says who partners whom, as the chat's lobby does.
    teams = record.options.rules.partners and not free
    return {
        "seated": record.seat_of(viewer) is not None,
        "creator": record.creator_id == viewer,
        "free": record.options.num_players - taken,
        "html": _html(html, seen.view.content),
        "buttons": [{"action": b, "label": LOBBY_LABELS[b]} for b in controls.buttons],
        "partners": partners_text([s.name for s in record.seats], record.options.rules)
        if teams
        else None,
        "levels": [
            {"level": level, "name": level_name(level), "blurb": LEVEL_BLURBS[level]}
            for level in controls.levels
        ],
        "everyone": {str(n): kind for n, kind in seen.everyone.items()},
    }


def options_json(options: Options) -> dict[str, Any]:
    """A table's options as the page shows them: its players, target, rules for game points
    and counting, its variant (its name and title), how its sides sit (``teams``), what it
    plays in the lobby's words (``kind``) and the board's lines."""
    variant = named(options.variant)
    rules = options.rules
    return {
        "players": options.num_players,
        "target": options.target,
        "scoring": str(options.scoring),
        "counting": str(options.counting),
        "variant": variant.name,
        "title": variant.title,
        "teams": teams_text(rules),
        # What the table plays, as its lobby in the chat names it.
        "kind": table_kind(rules, variant),
        # The board's lines, as the chat's board picture draws them: [hole, name], a loser
        # short of the hole being caught ([[91, "lurch"]] at 181).
        "lines": [[hole, name] for hole, name in board_lines(rules)],
    }


def variant_choice(variant: Variant) -> dict[str, Any]:
    """A variant as a new game's choices offer it (``/cribbage new variant:``): its name,
    title, players, lengths of game, whether the skunk scale may be chosen, and how each
    number of players sits (``teams``: "two teams of three", or None), and what a table of it
    plays for each number of players and length, in the lobby's words (``kinds``, by
    ``"players:target"``: "Cribbage, 4 players in two teams of two, to 121")."""
    return {
        "name": variant.name,
        "title": variant.title,
        "description": variant.description,
        "seats": list(variant.seats),
        "targets": list(variant.targets),
        "skunk": variant.skunk,
        "teams": {str(n): teams_text(variant.rules(n)) for n in variant.seats},
        "kinds": {
            f"{n}:{target}": table_kind(variant.rules(n, target), variant)
            for n in variant.seats
            for target in variant.targets
        },
    }


def _manual_show(view: PublicView) -> dict[str, Any]:
    """What a manual show waits on: the hand to be counted next (``counting``) and the claim
    muggins may still be called on (``muggins``), each None when there is none."""
    turn, window = view.count_turn, view.muggins
    return {
        "counting": None
        if turn is None
        else {
            "seat": turn.seat,
            "crib": turn.crib,
            "cards": _cards(turn.cards),
            # Its owner may not claim yet: muggins may still be called on the claim before.
            "waits": window is not None and window.holds(turn.seat, view.sides),
        },
        "muggins": None
        if window is None
        else {
            "seat": window.seat,
            "crib": window.crib,
            "claimed": window.claimed,
            "callers": list(window.callers(view.sides)),
        },
    }


def _played_out(
    record: GameRecord, loaded: Loaded, viewer: int, coach: bool, html: Html
) -> dict[str, Any]:
    """A started game as the reader may see it."""
    game, log = loaded.game, loaded.log
    view = game.public_view()
    names = Names.of(view)
    deal = view.deal_number
    events = log.events(deal)
    over = view.phase is Phase.OVER or record.status is not GameStatus.ACTIVE
    # The last show is this deal's once its show began (a game can end before, in the play:
    # then it is still the deal before's, and says so).
    counted = any(isinstance(e, ev.Shown | ev.Claimed) for e in events)
    shown_deal = deal if view.phase is Phase.SHOW or counted else deal - 1
    text = deal_text(names, events, view, live=not over)
    state: dict[str, Any] = {
        "phase": view.phase.value,
        "deal": deal,
        "dealer": view.dealer,
        "sides": [
            {
                "side": side,
                "name": names.typed_side(side),
                "score": view.scores[side],
                "back": log.pegs[side][1] if side < len(log.pegs) else 0,
            }
            for side in range(view.num_sides)
        ],
        "count": view.count,
        "series": _cards(view.series),
        "starter": None if view.starter is None else card_json(view.starter),
        "crib": {"owner": view.dealer, "size": view.crib_size},
        "calls": [_html(html, line) for line in text.play.split("\n") if line],
        # (Once the game is over its last call is said no more: the result, and a rematch's
        # lobby after it, stand alone.)
        "caption": None if over else _caption(names, events),
        "show": {"deal": shown_deal, "hands": _show(names, view.last_show)},
        **_manual_show(view),
        "chances": _chances(log, view),
        "result": None,
    }
    if game.state.result is not None:
        result = game.state.result
        line = result_line(names, result, record.ended(game))
        state["result"] = {
            "said": line,
            "html": _html(html, line),
            "winner": result.winner,
            "points": result.game_points,
            "scores": list(result.scores),
        }
    seat = record.seat_of(viewer)
    if seat is None:
        return state
    own = game.view(seat)
    playable = set(own.playable)
    state["hand"] = [
        card_json(c, playable=c in playable if view.phase is Phase.PLAY else None) for c in own.hand
    ]
    state["kept"] = _cards(own.kept)
    state["discards"] = _cards(own.discards)
    if not over:
        state["act"] = _act(hand_controls(own, record), own)
    said = log.coach.get(seat) if coach and log.coach_deal in (deal, deal - 1) else None
    state["coach"] = None if said is None else coach_for(record, coach_text(log.coach_deal, said))
    return state


def no_game_of_its_own(record: GameRecord | None, *, bots_dm: bool) -> str | None:
    """Why the table offers no game of its own where ``record`` is the channel's game (None:
    it may open one): the bot's own DM (``bots_dm``), where ``/cribbage new`` is refused as it
    is at the table, or a tournament match's thread, whose director deals the next game and
    ends one opened there meanwhile."""
    return GAMES_NOT_IN_MY_DMS if bots_dm else match_thread(record)


def activity_state(
    record: GameRecord | None,
    loaded: Loaded | None,
    viewer: int,
    *,
    html: Html,
    coach: bool = True,
    avatars: Mapping[int, str] | None = None,
    can_open: bool = True,
    bots_dm: bool = False,
    page: str | None = None,
    shareable: bool = True,
    series: str = "",
    continues: str = "",
) -> dict[str, Any]:
    """What ``viewer``'s Activity shows of ``record`` (the channel's open game, or its last
    one; None: it never had one), ``loaded`` once it was dealt. ``html``: markdown as HTML for
    the page; ``coach``: the viewer's coach is on; ``avatars``: the avatars' addresses known,
    by user id; ``can_open``: a new game may be opened
    from the Activity here (the bot is a member where it runs; elsewhere only a command
    opens one); ``page``: the game's page in the browser, if the pages have a public address;
    ``shareable``: its result may be shared from the table (not a ranked game's, played apart
    with someone from another place). ``bots_dm``: the table is in the bot's own DM. Where
    :func:`no_game_of_its_own` says why, ``open.closed`` says it, and no choices are
    offered. ``presence`` is what the viewer's Discord status says
    (:mod:`bot.core.messages.presence`); a finished game's ``result.share`` what *Share* posts
    (the result's line, and the page); ``series``: the line of the series a finished game's
    result says, with it; ``continues``: the one the game continues (a rematch's), on its
    lobby and on its table while it is played (``series_line``), as the chat's say it."""
    known = avatars or {}
    state: dict[str, Any] = {
        "game": None,
        "version": 0,
        "status": "none",
        "open": {
            "here": can_open,
            "levels": [[lv, level_name(lv)] for lv in LEVELS],
        },
        "presence": presence_of(record, loaded, viewer),
    }
    closed = no_game_of_its_own(record, bots_dm=bots_dm)
    if closed is not None:
        state["open"].update(here=False, closed=closed)
    elif record is None or record.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
        # A new game's choices are shown: those of /cribbage new.
        state["open"]["variants"] = [variant_choice(v) for v in listed()]
    if record is None:
        return state
    state.update(
        game=record.id,
        version=record.version,
        status=record.status.value,
        title=title_of(record),
        options=options_json(record.options),
        seats=_seats(record, loaded, viewer, known),
        you=record.seat_of(viewer),
        end_note=_html(html, record.end_note or ""),
    )
    if not record.seating.shared:
        # A ranked game, played apart: nobody at this table watches it (they see the
        # channel's own game), so the page names no one as watching.
        state["apart"] = True
    if record.status is GameStatus.LOBBY:
        state["lobby"] = _lobby(record, viewer, continues, html)
        return state
    if record.status is GameStatus.ACTIVE:
        # (Over, the result says the series with this game: rematch.series.)
        state["series_line"] = _html(html, continues) or None
    if loaded is not None:
        state.update(_played_out(record, loaded, viewer, coach, html))
        state["review"] = record.status is GameStatus.FINISHED and loaded.shuffles is not None
        result = state.get("result")
        if result is not None and shareable and record.status is GameStatus.FINISHED:
            # (A message of Discord's: markdown, as the line is written; at most 1,000
            # characters, as SHARE_LINK takes.)
            result["share"] = (result["said"] + (f"\n{page}" if page else ""))[:SHARE_MOST]
        state["rematch"] = _rematch(record, viewer, series, html)
    return state


def _rematch(record: GameRecord, viewer: int, series: str, html: Html) -> dict[str, Any] | None:
    """What the result offers ``viewer`` to play again, as its message in the chat does:
    *Rematch* or *Play again* (None: nothing), and the series the game continued (HTML, or
    None). Only its players may ask for it (as the lobby offers nobody a button its rules
    would refuse them): someone who watched sees the series, and no button."""
    again = again_of(record)
    if again is None:
        return None
    if record.seat_of(viewer) is None:
        label = None
    else:
        label = "Play again" if again == "again" else "Rematch"
    return {"label": label, "series": _html(html, series) or None}
