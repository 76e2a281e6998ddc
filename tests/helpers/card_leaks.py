"""Which cards a message shows, which cards a user may not know, and a watch that looks at every
version of every message a user can see, once, for a card hidden from them.

A message shows a card by its label (``5♥`` in the text, a button, a select option or an
attachment's description) or by its code in a custom id or an option's value (``5H``). A user
may not know the cards others hold or put in the crib until they are played or shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, cards_str
from engine.events import Claimed, CutForDeal, Event, Played, Shown, StarterCut
from engine.game import Game
from fakediscord import Attachment, Channel, FakeDiscord, Message, User
from fakediscord.model import walk_components

__all__ = [
    "COACH_LINE",
    "LeakWatch",
    "cards_asked",
    "cards_in_text",
    "cards_named",
    "hidden_from",
    "public_cards",
    "revealed_by",
]

CARD_SYMBOLS = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")
CARD_CODES = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([CDHS])(?![0-9A-Za-z])")
#: The coach's line on a hand message, about the discard of an earlier deal.
COACH_LINE = re.compile(r"^Coach, deal (\d+): .*$", re.MULTILINE)
#: A hand message once its deal is over: "…, deal N is over." and then "You kept …; the show
#: is …", naming the cards its reader kept in deal N (the edit may come after the next deal).
DEAL_OVER = re.compile(r", deal (\d+) is over\.$", re.MULTILINE)
KEPT_LINE = re.compile(r"^You kept .*; the show is .*$", re.MULTILINE)
#: A hand's first line ("Cribbage in #general, deal 2." or, at a private table, "Your hand,
#: deal 2."): the deal a version of a private copy of the hand speaks of.
HAND_HEADER = re.compile(r"\A(?:Cribbage in <#\d+>|Your hand), deal (\d+)\.$", re.MULTILINE)
#: The cut for first deal on the first deal's table (its cards go back into the deck).
CUT_LINE = re.compile(r"^Cut for deal — .*$", re.MULTILINE)
_SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_in_text(text: str) -> set[Card]:
    """Every card written as players see it (`5♥`, `10♦`) in `text`."""
    return {Card.parse(rank + _SUITS[suit]) for rank, suit in CARD_SYMBOLS.findall(text)}


def _codes(text: str) -> set[Card]:
    return {Card.parse(rank + suit) for rank, suit in CARD_CODES.findall(text)}


#: A card's code as a person may type it: the bot reads either case ("5h" is 5♥).
TYPED_CODES = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([CDHS])(?![0-9A-Za-z])", re.IGNORECASE)


def cards_asked(text: str) -> set[Card]:
    """Every card a request's ``text`` names, as the bot reads what people type: any card
    :func:`cards_named` finds, and codes in lower case too (an answer may name a card its
    asker named, "You named 5♥ twice.", whatever case they typed it in)."""
    typed = {Card.parse(rank.upper() + suit.upper()) for rank, suit in TYPED_CODES.findall(text)}
    return cards_named(text) | typed


#: A card in words, as the Activity names it for screen readers ("5 of hearts").
CARD_WORDS = re.compile(r"(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)")
_WORD_RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}


def cards_named(text: str) -> set[Card]:
    """Every card `text` names in any way: its label (`5♥`), its code (`5H`) or in words
    (`5 of hearts`), as the Activity's data does."""
    found = cards_in_text(text) | _codes(text)
    for rank, suit in CARD_WORDS.findall(text):
        found.add(Card.parse(_WORD_RANKS.get(rank, rank) + suit[0].upper()))
    return found


def _cards_in_parts(
    text: str, components: list[dict[str, Any]], attachments: Iterable[Attachment]
) -> set[Card]:
    # ``text`` holds the text displays of a Components V2 layout already (its coach and cut
    # lines taken out); every other component, however deeply nested, is read here.
    found = cards_in_text(text)
    for item in walk_components(components):
        found |= cards_in_text(str(item.get("label", "")))
        found |= cards_in_text(str(item.get("placeholder", "")))
        found |= _codes(str(item.get("custom_id", "")).split(":")[-1])
        for option in item.get("options", []):
            found |= cards_in_text(str(option.get("label", "")))
            found |= cards_in_text(str(option.get("description", "")))
            found |= _codes(str(option.get("value", "")))
        for shown in item.get("items", []):  # a media gallery's pictures and their alt text
            found |= cards_in_text(str(shown.get("description", "")))
    for attachment in attachments:
        found |= cards_in_text(attachment.description or "")
    return found


def hidden_from(game: Game, seat: int | None) -> set[Card]:
    """Cards `seat` (None: a spectator) may not know: others' held cards and crib cards, the
    crib's cards from the pack (three players: nobody threw them), and, until the starter is
    cut, the pack it will be cut from. (Not the pack after the cut: a step that ends the deal
    is checked against the game before it and after it, and the next deal's hands come from
    that pack.)"""
    hidden: set[Card] = set()
    for other in range(game.state.num_players):
        if other == seat:
            continue
        hidden |= set(game.hand(other))
        hidden |= set(game.view(other).discards)
    places = game.card_places()
    thrown = {code for discards in places["discards"] for code in discards}
    hidden |= {Card.parse(code) for code in places["crib"] if code not in thrown}
    if places["starter"] is None:
        hidden |= {Card.parse(code) for code in places["deck"]}
    return hidden


def public_cards(game: Game) -> set[Card]:
    """Cards everyone at the table may know now: played this deal, the starter, the hands
    shown, and those laid face up at a manual show (the hand to count next, and the one whose
    claim is open to muggins)."""
    view = game.public_view()
    known = {card for played in view.played for card in played} | set(view.series)
    if view.starter is not None:
        known.add(view.starter)
    if view.count_turn is not None:
        known |= set(view.count_turn.cards)
    for shown in view.last_show:
        known |= {*shown.cards, shown.starter}
    window = view.muggins
    if window is not None:
        places = game.card_places()
        laid = places["crib"] if window.crib else places["kept"][window.seat]
        known |= {Card.parse(code) for code in laid}
    return known


def revealed_by(events: Iterable[Event]) -> set[Card]:
    """Cards made public by these events."""
    cards: set[Card] = set()
    for event in events:
        if isinstance(event, Played | StarterCut):
            cards.add(event.card)
        elif isinstance(event, Shown | Claimed):
            # (A hand claimed with manual counting is laid face up with its claim.)
            cards |= set(event.cards) | {event.starter}
        elif isinstance(event, CutForDeal):
            for cut in event.rounds:
                cards |= {card for card in cut if card is not None}
    return cards


@dataclass
class _Version:
    text: str
    components: list[dict[str, Any]]
    attachments: list[Attachment]


def _versions(message: Message, start: int = 0) -> list[_Version]:
    """The states the message has had from the ``start``-th on (0: its first), oldest first,
    the current one last (a message's states are its history and the current one: they count
    ``len(message.history) + 1``). Only those are read: a message edited a hundred times is
    looked at after each edit."""
    if start > len(message.history):
        return []
    found = [_Version(v.words(), v.components, v.attachments) for v in message.history[start:]]
    found.append(_Version(message.text(), message.components, message.attachments))
    return found


def _private_to(message: Message, user: User) -> bool:
    """Whether only `user` (and the bot) can see `message`: an ephemeral answer for them, or a
    message in their DM with the bot (where a hand is sent when it is not an answer)."""
    if message.ephemeral_for is not None:
        return message.ephemeral_for.id == user.id
    channel = message.channel
    return channel.is_dm and channel.recipient is not None and channel.recipient.id == user.id


@dataclass
class LeakWatch:
    """Looks at every version of every message each viewer can see (in `channel` and their
    DMs), each once, for cards hidden from that viewer.

    `seat_of` maps a viewer's user id to their seat (spectators have none). Two kinds of line
    name cards that by now may be in someone's hand without telling anything about it: the cut
    for first deal (the cards go back into the deck), checked against `cut`, and a coach's line
    ("Coach, deal N: ..."), which names the cards its reader was dealt in deal N, checked
    against `dealt(seat, N)`, as is a hand message's "You kept …" once its deal N is over. And
    a message about an earlier deal may name what that deal
    made public (`public`).
    """

    fd: FakeDiscord
    channel: Channel
    viewers: list[User]
    seat_of: dict[int, int]
    dealt: Callable[[int, int], set[Card]]
    cut: set[Card] = field(default_factory=set)
    #: Cards a message may name whatever anyone holds now: a finished deal's table names the
    #: cards its show made public, though the table may be edited after the next deal began
    #: and those cards are back in someone's hand.
    public: Callable[[Message], set[Card]] = lambda message: set()
    #: The cards deal N made public so far (played, the starter, the shows): what a version of
    #: a private copy of a hand (an ephemeral answer, or a message in its reader's DM) headed
    #: "…, deal N." may name besides its reader's own cards of that deal, though it is looked
    #: at later (an edit that crossed another and landed after the deal moved on), when those
    #: cards are back in someone's hand.
    made_public: Callable[[int], set[Card]] = lambda deal: set()
    #: Card mentions looked at (so a test can see the check was not vacuous).
    cards_seen: int = 0
    versions_seen: int = 0
    _checked: dict[tuple[int, int], int] = field(default_factory=dict)

    def _visible(self, user: User) -> list[Message]:
        return [*self.fd.visible_to(user, self.channel), *self.fd.dms(user)]

    def check(self, secret: Callable[[int | None], set[Card]]) -> None:
        """Check every version not looked at yet; `secret(seat)` is what that seat may not
        know (None: a spectator)."""
        for user in self.viewers:
            seat = self.seat_of.get(user.id)
            hidden = secret(seat)
            for message in self._visible(user):
                start = self._checked.get((user.id, message.id), 0)
                for version in _versions(message, start):
                    self._check_version(user, seat, hidden, message, version)
                self._checked[(user.id, message.id)] = len(message.history) + 1

    def _check_version(
        self, user: User, seat: int | None, hidden: set[Card], message: Message, version: _Version
    ) -> None:
        self.versions_seen += 1
        text = version.text

        # Lines that may name cards someone holds now, each checked against what it may name.
        def own(deal: int) -> set[Card]:
            return self.dealt(seat, deal) if seat is not None else set()

        checked = [(m, own(int(m.group(1))), "coach line") for m in COACH_LINE.finditer(text)]
        checked += [(m, self.cut, "cut for deal") for m in CUT_LINE.finditer(text)]
        over = DEAL_OVER.search(text)
        if over is not None:
            kept = own(int(over.group(1)))
            checked += [(m, kept, "kept cards") for m in KEPT_LINE.finditer(text)]
        rest = text
        for line, allowed, what in checked:
            named = cards_in_text(line.group(0))
            self.cards_seen += len(named)
            beyond = cards_str(sorted(named - allowed, key=lambda c: c.index))
            assert not beyond, f"{user.name}'s {what} names {beyond}: {message!r}"
            rest = rest.replace(line.group(0), "")
        shown = _cards_in_parts(rest, version.components, version.attachments)
        self.cards_seen += len(shown)
        leaked = shown & hidden
        if leaked:  # (what a message may name is read only when it names a hidden card)
            leaked -= self.public(message)
            header = HAND_HEADER.match(text)
            mine = _private_to(message, user)
            if header is not None and mine:
                deal = int(header.group(1))
                leaked -= own(deal) | self.made_public(deal)
        said = cards_str(sorted(leaked, key=lambda c: c.index))
        assert not leaked, f"{user.name} could see {said} in {message!r}: {text!r}"

    def mark_all(self) -> None:
        """Take every version shown so far as looked at (what a test checked by hand)."""
        for user in self.viewers:
            for message in self._visible(user):
                self._checked[(user.id, message.id)] = len(message.history) + 1
