"""A test's own record of a game, replayed from the bot's action log: the events of every deal,
the cards each seat was dealt, the coach's line about each discard, who resigned.

The events are the engine's, got by applying each logged action to a copy of the stored game,
so what the table must say never comes from the bot's own deal log (which is checked against
them instead). A copy cannot know the bot's next shuffle: once an action deals again, the rest
(the computer's discards in the new deal) are taken as the `Discarded` events they must be, and
the copy starts again from the stored game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from bot.core.deck.seeded import SeedDealer
from engine.cards import Card
from engine.coach import review_view
from engine.events import CutForDeal, Dealt, Discarded, Event, ForLast, GameOver, Shown
from engine.game import Game
from engine.phase import Phase
from engine.views import SeatView
from tests.helpers.bot_db import Database, Snapshot, logged_actions, read_game

__all__ = ["Replay"]


class _StoredSeeds(random.Random):
    """Gives the bot's stored seeds, in order, to a :class:`SeedDealer`, which shuffles by
    them as the bot's did."""

    def __init__(self, seeds: list[str]) -> None:
        super().__init__(0)
        self._seeds = [bytes.fromhex(seed) for seed in seeds]

    def randbytes(self, n: int) -> bytes:
        """The next stored seed (of ``n`` bytes, as a shuffle's)."""
        seed = self._seeds.pop(0)
        assert len(seed) == n
        return seed


@dataclass
class Replay:
    """The events of a game by deal (0 holds the cut for deal), replayed from its log."""

    #: The people's seats (every other seat is the computer's).
    people: Collection[int]
    game: Game
    deals: dict[int, list[Event]]
    #: Logged actions replayed so far.
    actions: int = 0
    #: (deal, seat) -> the cards that seat was dealt.
    dealt: dict[tuple[int, int], set[Card]] = field(default_factory=dict)
    #: (deal, seat) -> the coach's line about a person's discard, as the engine reviews it:
    #: :attr:`coach_lines`, made from the views kept at each show when first looked at.
    _coach_lines: dict[tuple[int, int], str] = field(default_factory=dict)
    #: The people's views at each show not reviewed yet, with the scores the deal began at.
    _unreviewed: list[tuple[int, SeatView, tuple[int, ...] | None]] = field(default_factory=list)
    #: The deals whose show began (the coach's lines about them were made, for every person
    #: who threw: a seat dealt short has none).
    shown: set[int] = field(default_factory=set)
    #: deal -> the sides' scores as it was dealt (those its discards were made at).
    began: dict[int, tuple[int, ...]] = field(default_factory=dict)
    resigned: int | None = None
    #: The computer seats that answer a person's move in a version of their own, saved after
    #: the person's (levels that think at length: see ``bot.core.games.computer.answers_later``).
    later: Collection[int] = ()
    #: The seed of each shuffle, as the bot stored them (None when its shuffles are not sealed).
    seeds: list[str] | None = None

    @classmethod
    def begin(
        cls, snap: Snapshot, actions: list[dict[str, Any]], people: Collection[int]
    ) -> Replay:
        """The game as dealt: the cut and the first deal are not actions (they are checked
        against the stored game), the computer's discards are its first logged actions."""
        game, log = snap.game, snap.log
        assert game is not None and log is not None
        cut = list(log.events(0))
        # The cut, then the points for last where the rules give them (five-card cribbage).
        assert isinstance(cut[0], CutForDeal), cut
        assert all(isinstance(e, ForLast) for e in cut[1:]), cut
        assert len(cut) == 1 + bool(game.state.rules.points_for_last), cut
        assert [list(r) for r in cut[0].rounds] == [list(r) for r in game.state.cut_rounds]
        assert all(a["seat"] not in people for a in actions), actions
        if snap.seeds is not None:
            first = cls._first_deal(snap, actions)
            replay = cls(people, game, {0: cut, 1: first}, len(actions))
            replay.began[1] = tuple(game.state.scores)
            replay.seeds = snap.seeds
            replay._remember_dealt(game)
            return replay
        assert all(a["type"] == "discard" for a in actions), actions
        dealt = Dealt(
            dealer=game.state.dealer,
            deal_number=1,
            hand_size=game.state.rules.others.dealt,
            crib_from_deck=game.state.rules.crib_from_pack > 0,
        )
        discards = [Discarded(seat=a["seat"], count=len(a["cards"])) for a in actions]
        assert list(log.events(1)) == [dealt, *discards], log.events(1)
        replay = cls(people, game, {0: cut, 1: [dealt, *discards]}, len(actions))
        replay.began[1] = tuple(game.state.scores)
        replay.seeds = snap.seeds
        replay._remember_dealt(game)
        return replay

    @staticmethod
    def _first_deal(snap: Snapshot, actions: list[dict[str, Any]]) -> list[Event]:
        """The first deal's events, from the game dealt again by the bot's seeds and the
        computer's first actions applied to it (its discards, and with five or six players
        its first plays when a computer leads); the stored game and log must agree."""
        game, log = snap.game, snap.log
        assert game is not None and log is not None and snap.seeds is not None
        names = list(game.public_view().players)
        rng = SeedDealer(_StoredSeeds(snap.seeds))
        fresh, opening = Game.new(names, rng=rng, rules=game.state.rules)
        split = next(i for i, e in enumerate(opening) if isinstance(e, Dealt))
        assert opening[:split] == list(log.events(0)), opening
        first = opening[split:]
        for action in actions:
            first += fresh.apply(action)
        assert list(log.events(1)) == first, log.events(1)
        assert fresh.state.scores == game.state.scores and fresh.state.phase == game.state.phase
        assert all(fresh.hand(s) == game.hand(s) for s in range(game.state.num_players))
        return first

    @property
    def deal(self) -> int:
        """The deal whose events come in now."""
        return max(self.deals)

    def advance(
        self,
        snap: Snapshot,
        new: list[dict[str, Any]],
        on_version: Callable[[int], None] | None = None,
    ) -> list[Event]:
        """Apply the `new` logged actions, which took the game to `snap`; their events. The
        bot's stored deal log and the public state must agree with them.

        Each person's action and the computer's answers to it are one version of the game
        (two when a seat of ``later`` answers): `on_version(version)` is called with the replay
        standing at each version it passes through (the last one being `snap`'s).
        """
        assert snap.game is not None and snap.log is not None
        self.seeds = snap.seeds
        # With the bot's seeds the copy deals the next deal as the bot did, and replays the
        # computer's moves in it too (with five and six players a computer may lead the new
        # deal's play before a person acts).
        shuffles = self._next_shuffles()
        rng = random.Random(0) if shuffles is None else SeedDealer(shuffles)
        game = Game.from_dict(self.game.to_dict(), rng=rng)
        events: list[Event] = []
        dealt = False
        version = snap.version - self._versions(new)
        answer_apart = False
        for action in new:
            person = action["seat"] in self.people
            if (person and action is not new[0] and not dealt) or (answer_apart and not person):
                # The computer's answers to the last person's move are in, or the person's
                # move was saved alone before a computer's answer: a version passed.
                self._at(game, version, on_version)
            if person or answer_apart:
                version += 1
            answer_apart = False
            if dealt and shuffles is None:
                assert action["type"] == "discard" and action["seat"] not in self.people, action
                step: list[Event] = [Discarded(seat=action["seat"], count=len(action["cards"]))]
            else:
                views = {s: game.view(s) for s in range(game.state.num_players)}
                deal = game.state.deal_number
                step = game.apply(action)
                if any(isinstance(e, Shown) for e in step):
                    self._review(deal, views)
                if any(isinstance(e, Dealt) for e in step):
                    self.began[game.state.deal_number] = tuple(game.state.scores)
                dealt = dealt or any(isinstance(e, Dealt) for e in step)
                answer_apart = person and self._answers_apart(game)
            if action["type"] == "resign" and any(isinstance(e, GameOver) for e in step):
                self.resigned = action["seat"]
            self._add(step)
            events += step
        if not dealt or shuffles is not None:
            assert (
                game.state.scores == snap.game.state.scores
                and game.state.count == snap.game.state.count
            )
            assert (
                game.state.series == snap.game.state.series
                and game.state.phase == snap.game.state.phase
            )
        for deal in snap.log.deals:
            assert list(snap.log.events(deal)) == self.deals[deal], f"deal {deal}'s stored log"
        self.actions += len(new)
        self._at(snap.game, snap.version, on_version)
        self._remember_dealt(snap.game)
        return events

    def catch_up(self, database: Database, game_id: int) -> Snapshot:
        """:meth:`advance` over what the bot logged since the last look, on the game as saved
        with it (the snapshot and the log are read until they agree: a computer's answer saved
        apart may come in between the two reads); that snapshot."""
        while True:
            new = logged_actions(database, game_id)[self.actions :]
            snap = read_game(database, game_id)
            if snap.actions == self.actions + len(new):
                break
        self.advance(snap, new)
        return snap

    def _next_shuffles(self) -> _StoredSeeds | None:
        """The seeds of the shuffles after the game as replayed so far (the next deal's
        first), when the bot stored them that far; None otherwise."""
        if self.seeds is None:
            return None
        at = len(self.game.state.cut_rounds) + self.game.state.deal_number
        return _StoredSeeds(self.seeds[at:]) if at < len(self.seeds) else None

    def _answers_apart(self, game: Game) -> bool:
        """Whether a computer answers the move that led to ``game`` in a version of its own."""
        return game.state.phase is Phase.PLAY and game.state.turn in self.later

    def _versions(self, new: list[dict[str, Any]]) -> int:
        """How many versions of the game the `new` actions made: one per person's move, and
        one per computer's answer saved apart from it."""
        game = Game.from_dict(self.game.to_dict(), rng=random.Random(0))
        count = 0
        for i, action in enumerate(new):
            person = action["seat"] in self.people
            count += person
            step = game.apply(action)
            if any(isinstance(e, Dealt) for e in step):
                break  # the rest are the computer's discards in the new deal
            count += person and i + 1 < len(new) and self._answers_apart(game)
        return count

    def _at(self, game: Game, version: int, on_version: Callable[[int], None] | None) -> None:
        self.game = game
        if on_version is not None:
            on_version(version)

    def _add(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Dealt):
                self.deals[event.deal_number] = []
            self.deals[self.deal].append(event)

    def _review(self, deal: int, views: dict[int, SeatView]) -> None:
        """Keep the people's views at ``deal``'s show for :attr:`coach_lines` (a view is a
        snapshot: the review is the same whenever it is made)."""
        began = self.began.get(deal)
        self.shown.add(deal)
        self._unreviewed += [(deal, v, began) for s, v in views.items() if s in self.people]

    @property
    def coach_lines(self) -> dict[tuple[int, int], str]:
        """(deal, seat) -> the coach's line about that person's discard, as the engine reviews
        it: every show so far. Made when looked at, and for the people alone (the computer
        gets no line): the drivers of a private table and of a ranked match never look, and
        every seat's were made at every show."""
        while self._unreviewed:
            deal, view, began = self._unreviewed.pop(0)
            review = review_view(view, scores=began)
            if review is not None:
                self._coach_lines[(deal, view.seat)] = review.line()
        return self._coach_lines

    def _remember_dealt(self, game: Game) -> None:
        for seat in range(game.state.num_players):
            view = game.view(seat)
            cards = set(view.kept) | set(view.discards) if view.kept else set(view.hand)
            self.dealt.setdefault((game.state.deal_number, seat), set()).update(cards)

    def dealt_to(self, seat: int, deal: int) -> set[Card]:
        """The cards `seat` was dealt in `deal` (as far as the replay saw them)."""
        return self.dealt.get((deal, seat), set())

    def kept(self, deal: int, seat: int) -> tuple[Card, ...]:
        """The cards `seat` kept in `deal`, as its show said (empty if it never showed)."""
        for event in self.deals.get(deal, []):
            if isinstance(event, Shown) and event.seat == seat and not event.crib:
                return event.cards
        return ()

    def result(self) -> GameOver | None:
        """The end of the game, once it has come."""
        return next((e for e in self.deals[self.deal] if isinstance(e, GameOver)), None)
