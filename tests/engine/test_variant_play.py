"""Whole games of every variant, played at random, refereed by the reference.

Each game is played by random legal choices, and every card of it is also played on the
reference's :class:`~tests.helpers.reference_cribbage.PlayReferee` (written from the rules,
not from the engine), told only the kept hands, who leads (left of the dealer), the sides as
``docs/variants.md`` gives them and whether the play is one pass (five-card) or every card.
The show is scored by the reference's :func:`~tests.helpers.reference_cribbage.show_score`,
in the order the rules give, and the scores are kept here from what the reference says, so
that the game's end (the moment a side reaches the target, wherever it falls) and its game
points are checked too. Every difference is written down under the rule it breaks; each test
below is one rule, over every variant's games.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import pytest

from engine.cards import Card
from engine.errors import IllegalPlay, NotYourTurn
from engine.events import (
    CountReset,
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
from engine.game import Game
from engine.outcome import Scoring
from engine.phase import Phase
from engine.variants import FIVE_CARD, Variant, named
from tests.helpers.reference_cribbage import PlayMode, PlayReferee, show_score
from tests.helpers.rigging import SIX_NAMES

#: (variant, players, target, scoring): every table the variants offer, a short game and a
#: long where there are two, both scales of game points where offered.
TABLES = [
    ("standard", 2, 121, Scoring.LURCH),
    ("standard", 3, 61, Scoring.SKUNK),
    ("standard", 4, 121, Scoring.SKUNK),
    ("five_card", 2, 61, Scoring.LURCH),
    ("five_card", 2, 61, Scoring.SKUNK),
    ("seven_card", 2, 181, Scoring.LURCH),
    ("five_hand", 5, 121, Scoring.LURCH),
    ("five_hand", 5, 61, Scoring.SKUNK),
    ("six_hand", 6, 121, Scoring.SKUNK),
    ("six_hand_pairs", 6, 61, Scoring.LURCH),
]
GAMES = 12

#: The side of each seat, as docs/variants.md gives them (seat 0 first).
SIDES = {
    ("standard", 2): (0, 1), ("standard", 3): (0, 1, 2), ("standard", 4): (0, 1, 0, 1),
    ("five_card", 2): (0, 1), ("seven_card", 2): (0, 1), ("five_hand", 5): (0, 1, 2, 3, 4),
    ("six_hand", 6): (0, 1, 0, 1, 0, 1), ("six_hand_pairs", 6): (0, 1, 2, 0, 1, 2),
}  # fmt: skip
#: The cards each seat keeps for the play and the show.
KEPT = {"standard": 4, "five_card": 3, "seven_card": 5, "five_hand": 4, "six_hand": 4,
        "six_hand_pairs": 4}  # fmt: skip
#: What the reference calls each point of the play, as the engine names its items.
KINDS = {
    "fifteen": "fifteen", "thirty-one": "thirty_one", "pair": "pair", "pair royal": "pair_royal",
    "double pair royal": "double_pair_royal", "run": "run",
}  # fmt: skip


def game_points(target: int, scoring: Scoring, loser: int) -> int:
    """The game points of a win over a loser on ``loser``, from docs/variants.md's table:
    lurched under half the board (61 of 121, 31 of 61, 91 of 181); on the skunk scale a 121
    game's loser under 91 is skunked (2), under 61 double skunked (3), a 61 game's under 31."""
    if scoring is Scoring.LURCH:
        return 2 if loser < {121: 61, 61: 31, 181: 91}[target] else 1
    if target == 121:
        return 3 if loser < 61 else 2 if loser < 91 else 1
    return 2 if loser < 31 else 1


@dataclass
class Findings:
    """What the games showed: counts of what was checked, and each difference by rule."""

    games: int = 0
    deals: int = 0
    cards: int = 0
    refused: int = 0
    gos: int = 0
    one_pass_ends: int = 0
    shows: int = 0
    ended: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    wrong: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def check(self, rule: str, ok: bool, what: str) -> bool:
        if not ok and len(self.wrong[rule]) < 5:
            self.wrong[rule].append(what)
        return ok


class Table:
    """One game and what the reference says of it."""

    def __init__(self, table: tuple[str, int, int, Scoring], seed: int, found: Findings) -> None:
        name, players, target, scoring = table
        self.name, self.players, self.target, self.scoring = name, players, target, scoring
        self.variant: Variant = named(name)
        self.sides = SIDES[(name, players)]
        self.scores = [0] * (max(self.sides) + 1)
        self.found = found
        self.rng = random.Random(seed)
        self.over = False
        rules = self.variant.rules(players, target, scoring)
        self.game, events = Game.new(SIX_NAMES[:players], rng=random.Random(seed), rules=rules)
        pone = (self.game.state.dealer + 1) % players
        for_last = [e for e in events if isinstance(e, ForLast)]
        expected = [(pone, 3)] if self.variant is FIVE_CARD else []
        found.check(
            "for last",
            [(e.seat, e.points) for e in for_last] == expected,
            f"{name}: {for_last}, expected {expected}",
        )
        for seat, points in expected:
            self.scores[self.sides[seat]] += points

    def run(self) -> None:
        found = self.found
        while not self.over:
            found.deals += 1
            self.deal()
        found.games += 1

    # ------------------------------------------------------------------ one deal

    def deal(self) -> None:
        game, found, n = self.game, self.found, self.players
        dealer = game.state.dealer
        events: list[Event] = []
        for seat in game.pending_discards():
            hand = game.hand(seat)
            events = game.discard(seat, self.rng.sample(hand, game.view(seat).discard_count))
        kept = [list(game.view(seat).kept) for seat in range(n)]
        found.check(
            "the deal",
            all(len(hand) == KEPT[self.name] for hand in kept),
            f"{self.name}: kept {[len(h) for h in kept]}",
        )
        starter = next(e.card for e in events if isinstance(e, StarterCut))
        if starter.rank == 11:
            self.peg("heels", dealer, 2, events, Heels)
            if self.over:
                return
        mode = PlayMode.ONE_PASS if self.variant is FIVE_CARD else PlayMode.ALL_PASSES
        referee = PlayReferee(kept, leader=(dealer + 1) % n, mode=mode, sides=self.sides)
        said_go: set[int] = set()
        passed: set[int] = set()
        while True:
            events = self.play_one(referee, said_go, passed)
            if self.over or referee.finished:
                break
        if self.over:
            return
        # Cards left in hand when the play ended (only a one-pass play leaves any).
        found.one_pass_ends += any(referee.hands)
        self.check_show(dealer, starter, kept, events)

    def play_one(self, referee: PlayReferee, said_go: set[int], passed: set[int]) -> list[Event]:
        game, found, name = self.game, self.found, self.name
        turn = game.state.turn
        if not found.check("legal plays", turn == referee.turn, f"{name}: turn {turn}"):
            self.over = True
            return []
        assert turn is not None
        legal = set(game.playable_cards(turn))
        found.check(
            "legal plays",
            legal == set(referee.playable()),
            f"{name}: playable {sorted(map(str, legal))} at {referee.count}",
        )
        self.try_illegal(referee, turn, legal)
        card = self.rng.choice(sorted(legal, key=Card.sort_key))
        before = game.state.deal_number
        events = game.play(turn, card)
        outcome = referee.play(turn, card)
        found.cards += 1
        played = events[0]
        assert isinstance(played, Played)
        own = [peg for peg in outcome.pegs if peg.reason in KINDS]
        found.check(
            "points of each card",
            sorted((str(i.kind), i.points) for i in played.items)
            == sorted((KINDS[p.reason], p.points) for p in own)
            and played.count == outcome.count,
            f"{name}: {card} on {referee.pile[:-1]} scored {played.items}, expected {own}",
        )
        self.peg("points of each card", turn, sum(p.points for p in own), events, Played)
        if self.over:
            return events
        go_pegs = [peg for peg in outcome.pegs if peg.reason not in KINDS]
        points = [e for e in events if isinstance(e, GoPoint)]
        found.check(
            "go and last card",
            [(e.seat, e.last_card, e.points) for e in points]
            == [(p.seat, p.reason == "last card", p.points) for p in go_pegs],
            f"{name}: {points}, expected {go_pegs}",
        )
        for peg in go_pegs:
            found.gos += 1
            self.peg("go and last card", peg.seat, peg.points, events, GoPoint)
            if self.over:
                return events
        said_go |= {e.seat for e in events if isinstance(e, Go)}
        passed |= set(outcome.passed)
        resets = [e.next_seat for e in events if isinstance(e, CountReset)]
        expected_reset = (
            [outcome.next_seat] if outcome.reset and outcome.next_seat is not None else []
        )
        found.check(
            "go and last card",
            resets == expected_reset,
            f"{name}: reset to {resets}, expected {expected_reset}",
        )
        if outcome.reset or outcome.next_seat is None:
            found.check(
                "go and last card", said_go == passed, f"{name}: go by {said_go}, not {passed}"
            )
            said_go.clear()
            passed.clear()
        ended = outcome.next_seat is None
        found.check(
            "one pass to 31" if self.variant is FIVE_CARD else "every card is played",
            ended == (game.state.phase is not Phase.PLAY or game.state.deal_number != before)
            and (not ended or self.variant is FIVE_CARD or not any(referee.hands)),
            f"{name}: play over {ended}, engine {game.state.phase} deal {game.state.deal_number}",
        )
        return events

    def try_illegal(self, referee: PlayReferee, turn: int, legal: set[Card]) -> None:
        game, found = self.game, self.found
        if self.rng.random() > 0.2:
            return
        too_big = [c for c in game.hand(turn) if c not in legal]
        if too_big:
            card = self.rng.choice(too_big)
            try:
                game.play(turn, card)
            except IllegalPlay:
                found.refused += 1
                found.check("legal plays", referee.why_illegal(turn, card) is not None, str(card))
            else:
                found.check("legal plays", False, f"{card} over 31 was accepted")
        others = [s for s in range(self.players) if s != turn and game.hand(s)]
        if others:
            seat = self.rng.choice(others)
            try:
                game.play(seat, game.hand(seat)[0])
            except NotYourTurn:
                found.refused += 1
            else:
                found.check("legal plays", False, f"seat {seat} played out of turn")

    # ------------------------------------------------------------------ the show and the end

    def check_show(
        self, dealer: int, starter: Card, kept: Sequence[Sequence[Card]], events: list[Event]
    ) -> None:
        n, found = self.players, self.found
        thrown = {card for seat in range(n) for card in self.game.view(seat).discards}
        shown = [e for e in events if isinstance(e, Shown)]
        order = [((dealer + k) % n, False) for k in range(1, n + 1)] + [(dealer, True)]
        found.check(
            "show order",
            [(e.seat, e.crib) for e in shown] == order[: len(shown)]
            and all(thrown <= set(e.cards) and len(e.cards) == 4 for e in shown if e.crib),
            f"{self.name}: shown {[(e.seat, e.crib) for e in shown]}, expected {order}",
        )
        for event in shown:
            found.shows += 1
            cards = event.cards if event.crib else tuple(kept[event.seat])
            found.check(
                "show order",
                event.crib
                or sorted(event.cards, key=Card.sort_key)
                == sorted(kept[event.seat], key=Card.sort_key),
                f"{self.name}: seat {event.seat} showed {event.cards}",
            )
            worth = show_score(cards, starter, crib=event.crib)
            found.check(
                "show order",
                event.score.total == worth,
                f"{self.name}: {cards} with {starter} scored {event.score.total}, not {worth}",
            )
            self.peg("show order", event.seat, worth, events, Shown, at=event)
            if self.over:
                return
        found.check("show order", len(shown) == len(order), f"{self.name}: {len(shown)} shows")

    def peg(
        self,
        rule: str,
        seat: int,
        points: int,
        events: list[Event],
        kind: type[Event],
        at: Event | None = None,
    ) -> None:
        """Score ``points`` to ``seat``'s side here; if that reaches the target the game must
        end right after the event that scored them, won by that side, and nothing follow."""
        side = self.sides[seat]
        self.scores[side] += points
        if self.scores[side] < self.target:
            return
        self.over = True
        self.found.ended[kind.__name__] += 1
        last = at if at is not None else next(e for e in reversed(events) if isinstance(e, kind))
        after = events[events.index(last) + 1 :]
        result = self.game.state.result
        best_other = max(s for i, s in enumerate(self.scores) if i != side)
        expected = game_points(self.target, self.scoring, best_other)
        self.found.check(
            "the game ends the moment a side reaches the target",
            [type(e) for e in after] == [GameOver]
            and result is not None
            and result.winner == side
            and list(result.scores) == self.scores
            and result.game_points == expected
            and self.game.state.phase is Phase.OVER,
            f"{self.name} ({rule}): after {type(last).__name__} came {after}; {result}, "
            f"scores {self.scores}, {expected} game points",
        )


@cache
def refereed(table: tuple[str, int, int, Scoring]) -> Findings:
    found = Findings()
    first = TABLES.index(table) * GAMES
    for seed in range(first, first + GAMES):
        Table(table, seed, found).run()
    return found


def table_id(table: tuple[str, int, int, Scoring]) -> str:
    name, players, target, scoring = table
    return f"{name}-{players}-{target}-{scoring.value}"


#: One worker process plays each table's games once for all the rules checked on them.
pytestmark = pytest.mark.xdist_group("variant_play")


@pytest.fixture(params=TABLES, ids=table_id)
def found(request: pytest.FixtureRequest) -> Findings:
    """What the games of each table the variants offer showed (a rule checked on every table)."""
    table: tuple[str, int, int, Scoring] = request.param
    return refereed(table)


def test_only_the_cards_the_rules_allow_are_playable_by_whoever_is_to_play(found: Findings) -> None:
    assert found.wrong["legal plays"] == [] and found.cards > 100 and found.refused > 10


def test_each_card_pegs_fifteens_31s_pairs_and_runs_as_the_reference_counts(
    found: Findings,
) -> None:
    assert found.wrong["points of each card"] == []


def test_the_go_and_the_last_card_peg_one_and_the_count_starts_again_left_of_the_last_player(
    found: Findings,
) -> None:
    assert found.wrong["go and last card"] == [] and found.gos > 10


@pytest.mark.parametrize("table", [t for t in TABLES if t[0] != "five_card"], ids=table_id)
def test_every_card_is_played_in_every_variant_but_five_card(
    table: tuple[str, int, int, Scoring],
) -> None:
    assert refereed(table).wrong["every card is played"] == []


@pytest.mark.parametrize("table", [t for t in TABLES if t[0] == "five_card"], ids=table_id)
def test_five_card_the_play_is_one_pass_to_31_ending_at_the_first_go(
    table: tuple[str, int, int, Scoring],
) -> None:
    found = refereed(table)
    assert found.wrong["one pass to 31"] == [] and found.one_pass_ends > 10


def test_the_show_goes_left_of_the_dealer_round_to_the_dealer_then_the_crib(
    found: Findings,
) -> None:
    assert found.wrong["show order"] == [] and found.shows > 50
    assert found.wrong["the deal"] == [] and found.wrong["for last"] == []


def test_the_game_ends_the_moment_a_side_reaches_the_target_with_the_game_points_of_the_scale(
    found: Findings,
) -> None:
    assert found.wrong["the game ends the moment a side reaches the target"] == []
    assert found.games == GAMES and sum(found.ended.values()) == GAMES
