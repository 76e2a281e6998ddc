"""The outer layers' vocabulary: the values the Discord layer and the web pages carry between
people and the core, and the fixed words and choices they offer.

Besides :class:`~bot.core.services.Services`, the ports (:mod:`bot.core.ports`), a message's
look (:mod:`bot.core.base.views`) and what a person did and is answered
(:mod:`bot.core.base.replies`), these are what an outer layer names:

- who keeps messages (:class:`Owner`, :class:`OwnerKind`), a fault the core reports
  (:class:`Fault`), a refusal (:class:`Refused`);
- a stored game (:class:`GameRecord`, :class:`GameStatus`, :class:`Loaded`) and its deal log
  (:class:`DealLog`); a ranked place and season (:class:`PlaceKind`, :class:`LadderSeason`);
- Discord's timing as the core counts it (:data:`DEFER_AFTER`, :data:`ANSWER_WINDOW`,
  :class:`InteractionAges`) and a message's length (:data:`MAX_MESSAGE`), names as a message
  writes them (:class:`Names`, :func:`plural`), and whether a place is apart
  (:func:`is_apart`);
- what the commands offer: the computer's levels (:data:`LEVELS`, :data:`DEFAULT_LEVEL`,
  :data:`LEVEL_BLURBS`, :func:`level_name`), the rules' topics (:data:`HELP`), a tournament's
  formats and seats (:data:`DEFAULT_FORMAT`, :data:`TOURNAMENT_SEATS`), the cards a hand count
  may name (:func:`complete_cards`) and a review's lines (:func:`add_lines`).

Each is defined in its wing; this module gathers the outer layers' words, no more.
"""

from __future__ import annotations

from bot.core.base.apart import is_apart
from bot.core.base.choices import (
    DEFAULT_FORMAT,
    DEFAULT_LEVEL,
    LEVEL_BLURBS,
    TOURNAMENT_SEATS,
    LadderSeason,
    level_name,
)
from bot.core.base.faults import Fault
from bot.core.base.owners import Owner, OwnerKind
from bot.core.base.places import PlaceKind
from bot.core.base.refusals import Refused
from bot.core.base.text import Names, plural
from bot.core.base.timing import ANSWER_WINDOW, DEFER_AFTER, InteractionAges
from bot.core.base.views import MAX_MESSAGE
from bot.core.games.computer import LEVELS
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Loaded
from bot.core.games.hand_count import complete_cards
from bot.core.games.records import GameRecord, GameStatus
from bot.core.games.rules_help import HELP
from bot.core.review.review import add_lines

__all__ = [
    "ANSWER_WINDOW",
    "DEFAULT_FORMAT",
    "DEFAULT_LEVEL",
    "DEFER_AFTER",
    "HELP",
    "LEVELS",
    "LEVEL_BLURBS",
    "MAX_MESSAGE",
    "TOURNAMENT_SEATS",
    "DealLog",
    "Fault",
    "GameRecord",
    "GameStatus",
    "InteractionAges",
    "LadderSeason",
    "Loaded",
    "Names",
    "Owner",
    "OwnerKind",
    "PlaceKind",
    "Refused",
    "add_lines",
    "complete_cards",
    "is_apart",
    "level_name",
    "plural",
]
