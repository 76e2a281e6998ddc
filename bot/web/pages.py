"""The game pages as HTML: plain pages written on the server, one small script for the rest.

- A game in progress (or a lobby): the spectator page, the channel's messages as the channel
  shows them and the board as the pegs stand
  (:class:`~bot.core.messages.spectator.TableSeen`); the script swaps in each new look the
  server sends (server-sent events).
- A game that has ended: the replay (:class:`~bot.core.review.replay.GameReplay`), deal by deal with
  every hand, what went to the crib (of a deal the game ended in before its crib was shown,
  only the cards played and shown, and why the rest are not), the starter, each call with the
  board after it (the arrow keys step through them; each step is a link too, so it works
  without the script), and the shows item by item; then the channel's messages as they ended.
- The review of both sides goes under the replay (:func:`replay_page`'s ``review``, from
  :func:`bot.web.server.review_source`); a game with none (too old) shows none.

Everything a player typed (their names) is escaped; Discord's markdown in the channel's
messages is turned into the same emphasis here. The pages follow the system's light or dark
theme and fit a phone's width.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import UTC, datetime

from bot.core.base.recent import Recent
from bot.core.base.views import ESCAPED_CHARACTERS, BoardPicture, MessageView
from bot.core.messages.boards import board_alt, board_size
from bot.core.messages.spectator import TableSeen
from bot.core.review.replay import DealReplay, GameReplay, ShowReplay
from engine.cards import Card, Suit
from engine.scoring import ScoreItem, ScoreKind

__all__ = [
    "SCRIPT",
    "document",
    "home_page",
    "league_page",
    "markdown_html",
    "markdown_line",
    "message_html",
    "not_found_page",
    "replay_page",
    "spectator_page",
    "table_fragment",
    "with_league",
]

_STYLE = """
:root { color-scheme: light dark; --bg: #fbfaf7; --fg: #1d1c1a; --muted: #55524c;
  --card: #ffffff; --line: #d8d3c8; --accent: #0b5cad; --red: #b3261e; --now: #fff1c2; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #15171a; --fg: #ebe8e2; --muted: #b5b0a6; --card: #1f2226; --line: #3a3e44;
    --accent: #8cc4ff; --red: #ff8a80; --now: #3d3622; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 860px; margin: 0 auto; padding: 12px; overflow-wrap: anywhere; }
h1 { font-size: 1.35rem; margin: 0.2em 0; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.2em 0 0.4em; }
a { color: var(--accent); }
a:focus-visible, [tabindex]:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.status { color: var(--muted); margin: 0 0 0.8em; }
.board { width: 100%; max-width: 800px; height: auto; display: block; border-radius: 6px; }
figure { margin: 0 0 1em; }
figcaption { color: var(--muted); font-size: 0.9rem; }
.msg { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 10px 12px; margin: 0 0 10px; overflow-wrap: anywhere; }
.msg p { margin: 0; }
code { font-size: 0.95em; }
.red { color: var(--red); }
.deal { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
  padding: 4px 12px 10px; margin: 0 0 14px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid var(--line);
  vertical-align: top; overflow-wrap: break-word; }
/* Headings, cards and scores keep their words whole (a narrow column would break them
   anywhere); only a player's name, at the head of a row, may break wherever it must. */
tbody th { overflow-wrap: anywhere; }
ol.steps { padding-left: 1.6em; margin: 0.4em 0; }
ol.steps a { color: var(--fg); text-decoration: none; display: block; border-radius: 4px;
  padding: 1px 4px; }
ol.steps a[aria-current="step"] { background: var(--now); font-weight: 600; }
.viewer { position: sticky; top: 0; background: var(--bg); padding-top: 4px; z-index: 1; }
/* The board stuck over the calls takes at most 45% of the window (five players' board is
   nearly square: at full width it filled a desktop's window, hiding every call), and a call
   scrolled to (its link, the keys) stops below it, not under it (the script measures it). */
.viewer .board { max-height: 45vh; width: auto; max-width: 100%; }
ol.steps a { scroll-margin-top: calc(45vh + 6em); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
.nav { display: flex; gap: 8px; flex-wrap: wrap; margin: 4px 0; }
.nav a { border: 1px solid var(--line); border-radius: 6px; padding: 2px 10px; }
"""

#: The pages' one script: live updates for the spectator page (server-sent events) and
#: stepping through a replay with the keyboard.
SCRIPT = """
(function () {
  "use strict";
  var live = document.querySelector("[data-live]");
  if (live && window.EventSource) {
    var latest = document.getElementById("latest");
    // Said when the server is too busy to follow the game for this page (it answered 503).
    var paused = document.createElement("p");
    paused.className = "status";
    paused.setAttribute("role", "status");
    paused.hidden = true;
    live.parentNode.insertBefore(paused, live);
    var follow = function () {
      var source = new EventSource(live.getAttribute("data-live"));
      source.addEventListener("open", function () { paused.hidden = true; });
      source.addEventListener("table", function (event) {
        live.innerHTML = event.data;
        // Screen readers hear the newest line, not the whole table again.
        var lines = live.querySelectorAll("article.msg p");
        if (latest && lines.length) { latest.textContent = lines[lines.length - 1].textContent; }
      });
      source.addEventListener("over", function () { source.close(); location.reload(); });
      source.addEventListener("error", function () {
        // A lost connection is tried again by the browser; a refusal (503: too many pages
        // open) closes the stream: say so, and try again in a minute or so.
        if (source.readyState !== EventSource.CLOSED) { return; }
        paused.textContent = "Live updates are paused: the server is busy. " +
          "This page tries again in a minute (or reload it).";
        paused.hidden = false;
        setTimeout(follow, 45000 + Math.random() * 30000);
      });
    };
    follow();
  }
  var steps = Array.prototype.slice.call(document.querySelectorAll("ol.steps a"));
  var board = document.getElementById("step-board");
  if (!steps.length || !board) { return; }
  var caption = document.getElementById("step-text");
  var at = steps.findIndex(function (a) { return a.getAttribute("aria-current") === "step"; });
  function show(i, focus) {
    if (i < 0 || i >= steps.length) { return; }
    if (at >= 0) { steps[at].removeAttribute("aria-current"); }
    at = i;
    var step = steps[i];
    step.setAttribute("aria-current", "step");
    board.src = step.getAttribute("data-board");
    board.alt = step.getAttribute("data-alt");
    caption.textContent = step.textContent;
    history.replaceState(null, "", step.getAttribute("href"));
    var viewer = board.closest(".viewer");
    if (viewer) { step.style.scrollMarginTop = (viewer.offsetHeight + 8) + "px"; }
    if (focus) { step.focus({preventScroll: true}); }
    step.scrollIntoView({block: "nearest"});
  }
  steps.forEach(function (a, i) {
    a.addEventListener("click", function (event) { event.preventDefault(); show(i, true); });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var moves = {ArrowRight: 1, ArrowDown: 1, j: 1, ArrowLeft: -1, ArrowUp: -1, k: -1};
    if (event.key in moves) { event.preventDefault(); show(at + moves[event.key], true); }
    else if (event.key === "Home") { event.preventDefault(); show(0, true); }
    else if (event.key === "End") { event.preventDefault(); show(steps.length - 1, true); }
  });
})();
"""

#: A character escape() protected in a name: the page shows it as typed.
_ESCAPED = re.compile(rf"\\([{re.escape(ESCAPED_CHARACTERS)}])")
_HELD = re.compile("\x00(\\d+)\x00")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_MENTION = re.compile(r"&lt;[@#][!&]?(\d+)&gt;")
_URL = re.compile(r"&lt;(https?://[^\s&]+)&gt;")
#: A Discord timestamp (``<t:1767269100:t>``), which Discord shows in each reader's own time:
#: a page shows it in UTC, said so, in a ``<time>`` element a script may show otherwise.
_TIMESTAMP = re.compile(r"&lt;t:(\d{1,12})(?::([tTdDfFR]))?&gt;")


def _inline(text: str, people: dict[int, str]) -> str:
    """One line of Discord markdown as HTML: **bold**, `code`, mentions (by name), links;
    what markdown escaping protected (a name typed with asterisks) stays as typed."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(1))
        return f"\x00{len(held) - 1}\x00"

    out = html.escape(_ESCAPED.sub(hold, text))
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _URL.sub(r'<a href="\1" rel="noreferrer">\1</a>', out)
    out = _MENTION.sub(lambda m: "@" + html.escape(people.get(int(m.group(1)), "someone")), out)
    out = _TIMESTAMP.sub(_time, out)
    return _HELD.sub(lambda m: html.escape(held[int(m.group(1))]), out)


def _time(found: re.Match[str]) -> str:
    """A Discord timestamp as a page shows it: the time in UTC (with the date, but for the
    styles that show a time alone, ``t`` and ``T``)."""
    moment = datetime.fromtimestamp(int(found.group(1)), UTC)
    style = found.group(2) or "f"
    said = moment.strftime("%H:%M UTC" if style in "tT" else "%d %b %Y, %H:%M UTC")
    return f'<time datetime="{moment.isoformat()}">{said}</time>'


def markdown_line(text: str) -> str:
    """One line of Discord markdown (**bold**, `code`, links) as HTML."""
    return _inline(text, {})


def message_html(view: MessageView, people: dict[int, str] | None = None) -> str:
    """One channel message as an HTML block, a paragraph per line."""
    known = people or {}
    lines = (_inline(line, known) for line in view.content.split("\n") if line.strip())
    return "".join(f"<p>{line}</p>" for line in lines)


def markdown_html(text: str) -> str:
    """Text in Discord's markdown (what the bot says) as an HTML block, escaped."""
    return message_html(MessageView(text))


def _card(card: Card) -> str:
    red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
    return f'<span class="red">{card}</span>' if red else str(card)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(_card(c) for c in cards) or "—"


def _document(title: str, body: str) -> str:
    robots = '<meta name="robots" content="noindex, nofollow">'
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">{robots}'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main>"
        '<script src="/page.js" defer></script></body></html>'
    )


def document(title: str, body: str) -> str:
    """A whole page of the server's, in the pages' style, with ``body`` (HTML) in its main."""
    return _document(title, body)


def _figure(board: BoardPicture, src: str, caption: str, *, image_id: str = "") -> str:
    """The board picture (its size given, so the page does not jump as it loads)."""
    ident = f' id="{image_id}"' if image_id else ""
    width, height = board_size(board)
    return (
        f'<figure><img class="board"{ident} src="{html.escape(src)}"'
        f' alt="{html.escape(board_alt(board))}" width="{width}" height="{height}">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def table_fragment(seen: TableSeen, board_src: str, people: dict[int, str]) -> str:
    """What the live part of the spectator page shows: where the game stands, the board and
    the channel's messages (swapped in whole at each change)."""
    state = "Waiting in the lobby" if seen.board is None else "Live"
    parts = [
        f'<div data-version="{seen.version}">',
        f'<p class="status">{state}: this page shows what the channel sees and follows the '
        "game as it is played. Once it is over, every hand shown can be replayed here.</p>",
    ]
    if seen.board is not None:
        parts.append(_figure(seen.board, board_src, "The board as the pegs stand."))
    if seen.earlier_deals:
        parts.append(f'<p class="status">{_earlier(seen.earlier_deals)}</p>')
    for view in seen.messages:
        parts.append(f'<article class="msg">{message_html(view, people)}</article>')
    parts.append("</div>")
    return "".join(parts)


def spectator_page(seen: TableSeen, path: str, people: dict[int, str]) -> str:
    """The page of a game in progress (or a lobby), following it live."""
    fragment = table_fragment(seen, f"{path}/board.png?v={seen.version}", people)
    body = (
        f"<h1>{html.escape(seen.title)}</h1>"
        f'<div id="table" data-live="{html.escape(path)}/live?v={seen.version}">'
        f'{fragment}</div><p id="latest" class="sr-only" aria-live="polite"></p>'
    )
    return _document(seen.title, body)


_KIND_NAMES = {
    ScoreKind.FIFTEEN: "Fifteen",
    ScoreKind.THIRTY_ONE: "Thirty-one",
    ScoreKind.PAIR: "Pair",
    ScoreKind.PAIR_ROYAL: "Pair royal",
    ScoreKind.DOUBLE_PAIR_ROYAL: "Double pair royal",
    ScoreKind.RUN: "Run",
    ScoreKind.FLUSH: "Flush",
    ScoreKind.NOBS: "Nobs",
}


def _items(items: Sequence[ScoreItem]) -> str:
    if not items:
        return "<li>Nothing</li>"
    return "".join(
        f"<li>{_KIND_NAMES.get(item.kind, str(item.kind))}: {_cards(item.cards)}"
        f" — {item.points}</li>"
        for item in items
    )


def _show(names: Sequence[str], show: ShowReplay) -> str:
    whose = f"{names[show.seat]}'s {'crib' if show.crib else 'hand'}"
    points = str(show.points)
    if show.claimed is not None:
        # Counted by hand: the owner pegged the claim (or the value, for one over it), so
        # the hand's worth alone would not add up to the score beside it.
        points += f" (claimed {show.claimed})" + (f" — {show.wrong}" if show.wrong else "")
    return (
        f'<tr><th scope="row">{html.escape(whose)}</th>'
        f"<td>{_cards(show.cards)} + {_card(show.starter)}<ul>{_items(show.items)}</ul></td>"
        f"<td>{html.escape(points)}</td><td>{show.total}</td></tr>"
    )


def _step_link(replay: GameReplay, path: str, index: int) -> str:
    step = replay.steps[index]
    alt = board_alt(replay.board(index))
    return (
        f'<li><a id="s{index}" href="?step={index}#s{index}"'
        f' data-board="{html.escape(path)}/board.png?step={index}"'
        f' data-alt="{html.escape(alt)}">{_inline(step.text, {})}</a></li>'
    )


def _unseen(deal: DealReplay) -> str:
    """Why a deal whose crib was never shown shows only some of its cards, or none."""
    if deal.starter is None:
        said = "the game ended before the show, before any card of this deal was seen."
    elif deal.shows:
        said = (
            "the game ended before the crib was shown. Here are only the cards the table saw: "
            "those played, the starter and the hands counted."
        )
    else:
        said = (
            "the game ended before the show. Here are only the cards the table saw: those "
            "played and the starter."
        )
    return f'<p class="status">Not shown: {said}</p>'


def _deal(replay: GameReplay, deal: DealReplay, steps: Sequence[str]) -> str:
    names = replay.names
    rows = "".join(
        f'<tr><th scope="row">{html.escape(names.raw[seat])}</th><td>{_cards(hand)}</td>'
        f"<td>{_cards(deal.discards[seat]) if deal.shown else 'not shown'}</td></tr>"
        for seat, hand in enumerate(deal.hands)
    )
    held = "Dealt" if deal.shown else "Seen"
    unseen = "" if deal.shown else _unseen(deal)
    dealer = html.escape(names.raw[deal.dealer])
    starter = _card(deal.starter) if deal.starter is not None else "not cut"
    shows = "".join(_show(names.raw, s) for s in deal.shows)
    show_table = (
        "<table><caption>The show</caption><thead><tr><th>Whose</th><th>Cards and items</th>"
        f"<th>Points</th><th>Score</th></tr></thead><tbody>{shows}</tbody></table>"
        if shows
        else ""  # (the deal's note says why: see _unseen)
    )
    return (
        f'<section class="deal" aria-labelledby="deal{deal.number}">'
        f'<h2 id="deal{deal.number}">Deal {deal.number} — {dealer} deals</h2>'
        f"<table><thead><tr><th>Player</th><th>{held}</th><th>To the crib</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>{unseen}<p>Starter: {starter}</p>"
        f'<ol class="steps" start="{deal.first_step + 1}">'
        f"{''.join(steps[deal.first_step : deal.last_step + 1])}</ol>{show_table}</section>"
    )


def replay_page(
    seen: TableSeen,
    replay: GameReplay | None,
    path: str,
    people: dict[int, str],
    *,
    step: int | None = None,
    review: str | None = None,
) -> str:
    """The page of a game that has ended: the replay (when the game can be replayed), the
    review of both sides when there is one (``review``: its HTML), and the channel's last
    messages. The page but the step shown is drawn once per replay and kept (a replay's page
    is asked for again at each step chosen without the script)."""
    if replay is None or not replay.steps:
        return _document(seen.title, _replay_body(seen, None, path, people, review))
    key = (seen.game_id, seen.version, path, review)
    kept = _PAGES.get(key)
    if kept is None or kept[0] is not replay:
        kept = (replay, _document(seen.title, _replay_body(seen, replay, path, people, review)))
        _PAGES.keep(key, kept)
    last = len(replay.steps) - 1
    current = last if step is None else max(0, min(step, last))
    caption = f'<span id="step-text">{_inline(replay.steps[current].text, {})}</span>'
    figure = _figure(
        replay.board(current), f"{path}/board.png?step={current}", caption, image_id="step-board"
    )
    mark = f'<a id="s{current}" '
    page = kept[1].replace(_FIGURE, figure, 1)
    return page.replace(mark, f'{mark}aria-current="step" ', 1)


#: Where a replay's kept page takes the board of the step shown (markup no escaped text can be).
_FIGURE = "<board-here>"
#: Replays' pages kept (by game, version, path and review), with the replay drawn.
_PAGES_KEPT = 16
_PAGES: Recent[tuple[int, int, str, str | None], tuple[GameReplay, str]] = Recent(_PAGES_KEPT)


def _replay_body(
    seen: TableSeen,
    replay: GameReplay | None,
    path: str,
    people: dict[int, str],
    review: str | None,
) -> str:
    parts = [f"<h1>{html.escape(seen.title)}</h1>"]
    if replay is not None:
        every = "every hand" if all(d.shown for d in replay.deals) else "every hand the table saw"
        parts.append(
            f'<p class="status">The game is over: {every} is shown. Step through the calls '
            "with the arrow keys (or j and k, Home and End), or choose one.</p>"
        )
        parts.append(f'<div class="viewer">{_FIGURE}</div>')
        items = [_step_link(replay, path, i) for i in range(len(replay.steps))]
        if replay.opening:
            parts.append(f'<ol class="steps">{"".join(items[: replay.opening])}</ol>')
        parts.extend(_deal(replay, deal, items) for deal in replay.deals)
    else:
        parts.append(
            '<p class="status">The game is over. It cannot be replayed hand by hand (it ended '
            "before it was played out, or was begun before the bot recorded its shuffles); "
            "here is what the channel saw.</p>"
        )
    if review:
        parts.append(f'<section aria-labelledby="review"><h2 id="review">Review</h2>{review}')
        parts.append("</section>")
    parts.append('<h2 id="channel">What the channel saw</h2>')
    if seen.earlier_deals:
        above = " (and step by step in the replay above)" if replay and replay.steps else ""
        parts.append(f'<p class="status">{_earlier(seen.earlier_deals, above)}</p>')
    parts.extend(
        f'<article class="msg">{message_html(view, people)}</article>' for view in seen.messages
    )
    return "".join(parts)


def _earlier(deals: int, above: str = "") -> str:
    """What a page says of the first ``deals`` deals, whose tables it cannot show (a game
    begun before its shuffles were recorded, whose deals the stored log let go cannot be
    dealt again): they are in the channel's history."""
    shown = "deal" if deals == 1 else f"{deals} deals"
    return (
        f"The channel's messages as they stand: the tables of the first {shown} are further "
        f"up its history{above}, not here."
    )


#: One player's line of a league's table: name, league points, nights played and won, game
#: points.
LeagueRow = tuple[str, int, int, int, int]


def league_page(
    name: str,
    seasons: Sequence[tuple[str, int, Sequence[LeagueRow]]],
    champions: Sequence[tuple[str, str, int]],
) -> str:
    """A club's league page: this season's table and the last's (each with its name and the
    nights played), and each season's champion; everyone's names escaped."""
    title = f"{name} league"
    parts = [f"<h1>{html.escape(title)}</h1>"]
    parts.append(
        '<p class="status">A night\'s winner scores as many league points as the night had'
        " players, the last 1; the season's champion has the most (then nights won, then game"
        " points). A season is a calendar quarter.</p>"
    )
    for index, (season, played, rows) in enumerate(seasons):
        heading = "This season" if index == 0 else "Last season"
        nights = f"{played} night{'s' if played != 1 else ''} played"
        parts.append(f"<h2>{heading}: {html.escape(season)} ({nights})</h2>")
        if not rows:
            parts.append("<p>No night played yet.</p>")
            continue
        body = "".join(
            f'<tr><td>{place}</td><th scope="row">{html.escape(who)}</th><td>{points}</td>'
            f"<td>{played_nights} ({won} won)</td><td>{game_points}</td></tr>"
            for place, (who, points, played_nights, won, game_points) in enumerate(rows, 1)
        )
        parts.append(
            '<table><thead><tr><th scope="col">#</th><th scope="col">Player</th>'
            '<th scope="col">Points</th><th scope="col">Nights</th>'
            '<th scope="col">Game points</th></tr></thead>'
            f"<tbody>{body}</tbody></table>"
        )
    parts.append("<h2>Champions</h2>")
    if champions:
        listed = "".join(
            f"<li>{html.escape(season)}: {html.escape(who)} ({points} league points)</li>"
            for season, who, points in champions
        )
        parts.append(f"<ul>{listed}</ul>")
    else:
        parts.append("<p>None yet: the first is crowned when a season ends.</p>")
    return _document(title, "".join(parts))


def with_league(page: str, night: str, href: str) -> str:
    """A game's page naming the club night it was played for, with its league's link, under
    its heading."""
    note = (
        f'<p class="status">Played for {html.escape(night)}:'
        f' <a href="{html.escape(href)}">its league table</a>.</p>'
    )
    return page.replace("</h1>", "</h1>" + note, 1)


def not_found_page(reason: str) -> str:
    """The page for a link that leads nowhere (tampered with, cut short, or a game no longer
    kept): one sentence, and nothing about any game."""
    body = f"<h1>Page not found</h1><p>{html.escape(reason)}</p>"
    return _document("Page not found", body)


def home_page(*, policy: bool = True) -> str:
    """The server's front page: no list of games, only where their pages are found (and,
    with ``policy``, the privacy policy and the terms)."""
    body = (
        "<h1>Cribbage game pages</h1><p>Each game has its own page: follow the link in the "
        "game's table message on Discord.</p>"
    )
    if policy:
        body += (
            '<p><a href="/privacy">Privacy policy</a> · <a href="/terms">Terms of service</a></p>'
        )
    return _document("Cribbage game pages", body)
