"""The expert: the strongest computer level.

* **Discard** (:mod:`engine.players.expert_discard`): the kept hand's exact average over the
  unseen starters, the crib by the role tables (the other crib cards thrown by a sensible
  opponent, suits counted) and, with two players, what the kept ranks are worth in the
  play; near the end of a two-player game, of the splits best by those, the one with the
  best chance to win through the whole deal (:func:`engine.players.endgame.split_chance`).
* **Play** (:mod:`engine.players.expert_play`): every card it may play is followed to the
  end of the play against :data:`SAMPLES` guesses at the other hands (drawn to fit every
  card seen, every go said and, with two players, what a sensible opponent keeps and plays),
  and the best average wins. Against one opponent the rest of the play is searched: the
  opponent plays each guessed hand by the club player's rules of thumb, and the expert
  chooses its own later cards as well as it can from what it will have seen by then
  (:mod:`engine.players.play_search`); with more seats every seat plays them out by the
  rules of thumb. Near the end of a two-player game a play-out is worth the
  chance to win from where it leaves the scores, through the show (its own hand as it is,
  the opponent's as guessed, the crib by its chances) and the next deal
  (:mod:`engine.players.endgame`), so pegging out, and keeping the opponent from pegging
  out, come first.
* The role tables, the pegging table, the keep model of the guesses and the chance to win
  are the standard two-player game's (each table says the rules it holds for). In any
  other game (three players or more, five-card or seven-card cribbage) it does without
  them: the crib by the one- and two-card crib table (any crib of four), no pegging value
  in the discard, guesses weighed by the play alone, and points rather than the chance to
  win near the end (reaching the target in a play-out still counts as the game). Partners'
  points and crib count as the seat's own. With four other hands or more still held
  (five- and six-hand) each card is played out against :data:`CROWDED_SAMPLES` guesses.
  The hand's value and the play-outs follow the rules themselves.

It decides from its view alone with the injected random source: the same view and seed give
the same choice.
"""

from __future__ import annotations

import random

from engine.cards import Card
from engine.players.base import playable
from engine.players.deliberation import Deliberating, Deliberation, Part, Weighed, ranked
from engine.players.endgame import play_end_chance
from engine.players.expert_play import GuessOutcome, play_values
from engine.players.judge import DiscardJudgement, SplitWorth, judge_view, needs_of
from engine.players.pegging_ai import immediate_points
from engine.views import SeatView

__all__ = ["CROWDED_HANDS", "CROWDED_SAMPLES", "SAMPLES", "ExpertPlayer", "endgame_outcome"]

#: Guesses at the other hands each candidate card is played out against.
SAMPLES = 256
#: With this many other hands still held or more (five- and six-hand), each card is played
#: out against :data:`CROWDED_SAMPLES` guesses instead. Guessing four or five hands and
#: playing them all out costs several times what it does at four players (about 30 ms a
#: play, p99 150 ms, against 9 and 30), and a table of several computer seats waits on each
#: of them in turn; by the expert's own play-out values (1,024 guesses as the judge, 300
#: five-hand plays) a quarter of the guesses costs it about 0.02 points a play.
CROWDED_HANDS = 4
CROWDED_SAMPLES = 32


def endgame_outcome(view: SeatView) -> GuessOutcome | None:
    """Near the end of a two-player game: what a play-out against a guess is worth is the
    chance to win from the scores it leaves, through the show and the next deal, with the
    seat's own hand, the guessed hand and the crib's chances
    (:func:`engine.players.endgame.play_end_chance`; 1 for pegging out, 0 for the opponent
    pegging out). None otherwise."""
    needs = needs_of(
        view.scores, sides=view.sides, seat=view.seat, target=view.target, rules=view.rules
    )
    return None if needs is None else play_end_chance(view)


class ExpertPlayer(Deliberating):
    """Role tables and pegging values in the discard; play-outs in the play; the game's
    end in both (see the module). Each choice is the first option of its deliberation
    (:mod:`engine.players.deliberation`), which a hint says in words."""

    name = "expert"

    def __init__(self, *, samples: int = SAMPLES) -> None:
        self.samples = samples

    def weigh_discards(self, view: SeatView, rng: random.Random) -> Deliberation[tuple[Card, ...]]:
        """Every split by its expected points (hand, crib, play), best first; or near the end
        the few best splits by the chance to win: the one judge of a discard's judgement
        (:func:`engine.players.judge.judge_view`), which the coach and the review say too."""
        judged = judge_view(view)
        options = tuple(_weighed(split, judged) for split in judged.weighed)
        return Deliberation(options, judged.measure)

    def samples_for(self, view: SeatView) -> int:
        """The guesses each card is played out against: fewer when four other hands or more
        are still held (see :data:`CROWDED_SAMPLES`)."""
        others = sum(1 for seat, held in enumerate(view.hand_sizes) if held and seat != view.seat)
        return min(self.samples, CROWDED_SAMPLES) if others >= CROWDED_HANDS else self.samples

    def weigh_plays(self, view: SeatView, rng: random.Random) -> Deliberation[Card]:
        """Each card (one of each rank) by its play-outs' worth (see the module); between
        cards worth the same (a game won either way, say) the one that scores more now."""
        playable(view)  # refuse a view with nothing to play before valuing nothing
        outcome = endgame_outcome(view)
        values = play_values(view, rng, samples=self.samples_for(view), per_guess=outcome)
        best = max(value for _, value in values)
        tied = [i for i, (_, value) in enumerate(values) if value >= best - 1e-12]
        chosen = max(tied, key=lambda i: immediate_points(view, values[i][0]))
        options = [Weighed(card, value, (("playouts", value),)) for card, value in values]
        return ranked(options, "points" if outcome is None else "chance", chosen)


def _weighed(split: SplitWorth, judged: DiscardJudgement) -> Weighed[tuple[Card, ...]]:
    """A split as an option worth its value in the judgement's measure, with its parts: the
    hand, the crib where a table weighs it for the rules, and the play where the pegging
    table does."""
    parts: list[tuple[Part, float]] = [("hand", split.hand)]
    if judged.crib_weighed:
        parts.append(("crib", split.crib))
    if split.play:
        parts.append(("play", split.play))
    return Weighed(split.thrown, judged.value(split), tuple(parts))
