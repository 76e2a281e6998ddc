"""The search of the rest of a two-player play: it plays by the game's own rules (a known
hand searched on ranks gives what the best line gives in the game itself), it chooses without
seeing the guessed hand, and it is never worth less than the rules-of-thumb play-out."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from engine.cards import PIP_VALUES, Card
from engine.events import GoPoint, Played
from engine.game import Game
from engine.phase import Phase
from engine.players import ClubPlayer
from engine.players.fastscore import peg_scorer
from engine.players.play_search import PlaySearch, scoring_tail
from engine.players.playout import finisher
from engine.rules import PlayEnd, Rules, Share
from tests.helpers.rigging import NAMES

CLUB = ClubPlayer()
#: Five-card cribbage's play: one pass to 31 (three kept each).
ONE_PASS = Rules(dealer=Share(5, 2), others=Share(5, 2), target=61, play_end=PlayEnd.FIRST_GO)
WIN = 100.0


def net(me: int) -> Callable[[Sequence[int], int], float]:
    """Seat ``me``'s points less the other's; pegging out is worth :data:`WIN`."""

    def outcome(points: Sequence[int], winner: int) -> float:
        if winner >= 0:
            return WIN if winner == me else -WIN
        return float(points[me] - points[1 - me])

    return outcome


def pegs(game: Game, seat: int, card: Card, pegged: list[int], needs: Sequence[int]) -> int:
    """Play ``card`` for ``seat``, adding what each side pegs to ``pegged``: the side that
    reaches its ``needs`` first, or -1."""
    for event in game.play(seat, card):
        if isinstance(event, Played | GoPoint):
            pegged[event.side] += event.points
            if pegged[event.side] >= needs[event.side]:
                return event.side
    return -1


def copied(game: Game) -> Game:
    """A copy of ``game`` to play on: saved and restored, four times cheaper than a deep copy
    (its shuffle's source is new: it deals only the next deal, after the play searched)."""
    return Game.from_dict(game.to_dict(), rng=random.Random(0))


def best_line(
    game: Game, me: int, pegged: list[int], needs: Sequence[int], rng: random.Random
) -> float:
    """The game itself played on from here to the end of the deal's play: seat ``me`` tries
    every card at each of its turns, the other seat plays as the club player does; the
    best outcome."""
    deal = game.state.deal_number
    turn = game.state.turn
    assert turn is not None
    view = game.view(turn)
    if turn == me:
        cards = list({card.rank: card for card in view.playable}.values())
    else:
        cards = [CLUB.choose_play(view, rng)]
    values = []
    for card in cards:
        branch = copied(game)
        points = pegged[:]
        winner = pegs(branch, turn, card, points, needs)
        if winner < 0 and branch.state.phase is Phase.PLAY and branch.state.deal_number == deal:
            values.append(best_line(branch, me, points, needs, rng))
        else:
            values.append(net(me)(points, winner))
    return max(values)


STANDARD = Rules.standard(2, target=61)


@pytest.mark.parametrize("rules", [STANDARD, ONE_PASS], ids=["standard", "one pass"])
def test_a_known_hand_is_searched_by_the_games_own_rules(rules: Rules) -> None:
    # Whole games to 61: their last plays peg out now and then.
    rng = random.Random(5)
    peg = peg_scorer(rules.points)
    compared = 0
    for seed in range(8):
        game, _ = Game.new(NAMES[:2], rng=random.Random(seed), rules=rules)
        while game.state.phase is not Phase.OVER:
            if game.state.phase is Phase.DISCARD:
                seat = game.pending_discards()[0]
                game.discard(seat, CLUB.choose_discard(game.view(seat), rng))
                continue
            turn = game.state.turn
            assert turn is not None
            deal = game.state.deal_number
            view = game.view(turn)
            theirs = tuple(sorted(card.rank for card in game.view(1 - turn).hand))
            needs = [game.state.rules.target - score for score in game.state.scores]
            search = PlaySearch(rules, (0, 1), turn, needs)
            for card in {card.rank: card for card in view.playable}.values():
                series = [played.rank for played in view.series] + [card.rank]
                count = view.count + PIP_VALUES[card.rank]
                points = [0, 0]
                points[turn] = peg(series, count)
                if points[turn] >= needs[turn]:
                    continue  # pegged out with this card: nothing left to search
                branch = copied(game)
                pegged = [0, 0]
                winner = pegs(branch, turn, card, pegged, needs)
                if (
                    winner < 0
                    and branch.state.phase is Phase.PLAY
                    and branch.state.deal_number == deal
                ):
                    expected = best_line(branch, turn, pegged, needs, rng)
                else:
                    expected = net(turn)(pegged, winner)
                mine = [other.rank for other in view.hand if other != card]
                found = search.value(mine, [(theirs, 1.0, net(turn))], count, series, points)
                assert found == expected, (seed, view.hand, card, theirs)
                compared += 1
            game.play(turn, CLUB.choose_play(view, rng))
    assert compared > 100, compared


def test_the_seat_chooses_without_seeing_the_guessed_hand() -> None:
    # The seat has played to 24 (Q 4 K) holding 5 and 6; the opponent holds a king or a 9
    # (one guess each), neither fits, so it says go either way. The seat plays one card,
    # takes the go, and the opponent leads its card: the 5 kept makes fifteen on a king,
    # the 6 on a 9. Each guess alone is worth 4 (go, fifteen, last card); together the seat
    # cannot know which card to keep, and the best it can do is 4 on one and 2 on the other.
    search = PlaySearch(Rules(), (0, 1), 1, (121, 121))
    guesses = [((13,), 1.0, net(1)), ((9,), 1.0, net(1))]
    series = [12, 4, 13]
    alone = [search.value([5, 6], [guess], 24, series, [0, 0]) for guess in guesses]
    assert alone == [4.0, 4.0]
    assert search.value([5, 6], guesses, 24, series, [0, 0]) == 6.0


def test_the_search_is_worth_the_play_out_at_least_and_the_seen_hand_at_most() -> None:
    # The rules-of-thumb play-out is one way the seat may choose; seeing each guessed hand
    # is more than it may do.
    rules = Rules.standard(2, target=121)
    peg = peg_scorer(rules.points)
    finish = finisher(rules).finish
    rng = random.Random(11)
    for _ in range(60):
        ranks = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(ranks)
        mine, lead = ranks[:3], ranks[3]
        guesses = [(tuple(sorted(ranks[4 + 3 * i : 7 + 3 * i])), 1.0, net(0)) for i in range(6)]
        series = [lead]
        count = PIP_VALUES[lead]
        points = [peg(series, count), 0]
        search = PlaySearch(rules, (0, 1), 0, (121, 121))
        searched = search.value(mine, guesses, count, series, points)
        seen = sum(search.value(mine, [guess], count, series, points) for guess in guesses)
        played_out = 0.0
        for theirs, _, outcome in guesses:
            pegged = points[:]
            hands = [mine[:], list(theirs)]
            winner = finish(hands, (0, 1), 0, count, series[:], pegged, (121, 121))
            played_out += outcome(pegged, winner)
        assert played_out - 1e-9 <= searched <= seen + 1e-9


def test_the_scoring_tail_scores_as_the_whole_series() -> None:
    rng = random.Random(2)
    peg = peg_scorer(Rules().points)
    for _ in range(2000):
        series = [rng.randint(1, 13) for _ in range(rng.randint(1, 8))]
        tail = scoring_tail(series)
        rank = rng.randint(1, 13)
        assert peg([*tail, rank], 0) == peg([*series, rank], 0)
