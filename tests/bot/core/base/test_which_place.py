"""Which game a command acts on, for a person, in a place: every command in every kind of place
with each kind of game the person has there (a game of the place, a ranked game played apart
from there, none), against a table written out here (its two long groups, the commands of one
reach each, drawn from the code's scopes); then what a control of a game tells someone it is
not theirs (issue 54)."""

from __future__ import annotations

import doctest
import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.base import places as places_module
from bot.core.base.places import (
    DAILY_NEEDS_A_SERVER,
    GAMES_NOT_IN_MY_DMS,
    NEEDS_THE_BOT,
    NO_GAME_IN_MY_DMS,
    NO_HALL_OF_FAME_HERE,
    NO_LEADERBOARD_HERE,
    NO_PRIVATE_SEARCH,
    NO_PUBLIC_TABLE,
    NO_THREADS_IN_VOICE,
    OTHERS_RANKED,
    RANKED_DEALING,
    RANKED_DECIDED,
    RANKED_ELSEWHERE,
    RANKED_HERE,
    RANKED_NEXT_GAME,
    RANKED_NOT_A_LOBBY,
    SEARCH_WAITS,
    SEARCHING_HERE,
    SEATED_HERE,
    TOURNAMENTS_NEED_A_CHANNEL,
    Ask,
    Facts,
    Here,
    Place,
    Reach,
    Resolved,
    Spot,
    control_refusal,
    resolve,
)
from bot.core.base.refusals import (
    NOT_A_PLAYER,
    OTHER_SERVER,
    busy,
    game_over,
    no_game,
    nothing_to_look_up,
)

SERVER, ELSEWHERE = 1, 2
#: One place of each kind (the thread is #10's; the server without the bot is another).
PLACES = {
    Spot.CHANNEL: Place(Spot.CHANNEL, 10, SERVER),
    Spot.THREAD: Place(Spot.THREAD, 11, SERVER, parent_id=10),
    Spot.VOICE_CHAT: Place(Spot.VOICE_CHAT, 12, SERVER),
    Spot.BOT_DM: Place(Spot.BOT_DM, 13),
    Spot.PRIVATE: Place(Spot.PRIVATE, 14),
    Spot.UNINVITED: Place(Spot.UNINVITED, 15, ELSEWHERE),
}
#: The channel of the ranked game played apart.
RANKED_GAME = -30

#: The kinds of game the person has in the place.
PLACE_GAME, RANKED, NONE = "a game of the place", "a ranked game played apart", "none"
#: A ranked match played from the place between two of its games (the last over).
BETWEEN = "a ranked match between games"
KINDS = (PLACE_GAME, RANKED, BETWEEN, NONE)


def facts(kind: str, place: Place) -> Facts:
    """What the store says of a person with ``kind`` of game in ``place``."""
    if kind == PLACE_GAME:
        return Facts(seated_here=True)
    if kind in (RANKED, BETWEEN):
        return Facts(
            ranked_from=place.channel_id,
            matched=True,
            ranked_game=RANKED_GAME,
            ranked_over=kind == BETWEEN,
        )
    return Facts()


#: What a command acts on: the place's game (or the place, for a command about the person),
#: the ranked game, a tournament in the thread's channel; else the refusal's sentence.
HERE, THE_RANKED_GAME, THE_THREADS_CHANNEL = "here", "the ranked game", "the thread's channel"
ALL_SPOTS = tuple(Spot)
SERVERS = (Spot.CHANNEL, Spot.THREAD, Spot.VOICE_CHAT, Spot.UNINVITED)


def everywhere(outcome: str, **but: str) -> dict[Spot, str]:
    """``outcome`` in every kind of place, but those named (by the Spot's member name)."""
    table = dict.fromkeys(ALL_SPOTS, outcome)
    table.update({Spot[name]: said for name, said in but.items()})
    return table


def reaching(reach: Reach) -> tuple[Ask, ...]:
    """The commands the code gives ``reach``: a group the table draws from the code rather than
    listing it again. A command moved to or from the group is still caught: it is then named
    twice, or not at all (``test_the_table_names_every_command_once``)."""
    return tuple(ask for ask in Ask if ask.scope.reach is reach)


# The table: per group of commands (written out here, not read from the rules, but for the two
# long groups of one reach each), per kind of game, per kind of place.
_LOBBY = {
    PLACE_GAME: everywhere(HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
    NONE: everywhere(HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
    RANKED: everywhere(RANKED_HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
    BETWEEN: everywhere(RANKED_HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
}
_PLAYS = {
    PLACE_GAME: everywhere(HERE),
    NONE: everywhere(HERE, BOT_DM=NO_GAME_IN_MY_DMS),
    RANKED: everywhere(THE_RANKED_GAME),
    # (Not "There's no game in this channel": the match goes on.)
    BETWEEN: everywhere(RANKED_NEXT_GAME),
}
_ANYWHERE = dict.fromkeys(KINDS, everywhere(HERE))
_TOURNAMENT_SPOTS = {
    "BOT_DM": TOURNAMENTS_NEED_A_CHANNEL,
    "PRIVATE": TOURNAMENTS_NEED_A_CHANNEL,
    "UNINVITED": NEEDS_THE_BOT,
}
EXPECTED: dict[tuple[Ask, ...], dict[str, dict[Spot, str]]] = {
    (Ask.NEW, Ask.JOIN, Ask.START): _LOBBY,
    (Ask.LEAVE, Ask.CANCEL): {
        PLACE_GAME: everywhere(HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
        NONE: everywhere(HERE, BOT_DM=GAMES_NOT_IN_MY_DMS),
        RANKED: everywhere(RANKED_NOT_A_LOBBY, BOT_DM=GAMES_NOT_IN_MY_DMS),
        BETWEEN: everywhere(RANKED_NOT_A_LOBBY, BOT_DM=GAMES_NOT_IN_MY_DMS),
    },
    (Ask.HAND, Ask.DISCARD, Ask.PLAY, Ask.COUNT, Ask.STATUS, Ask.RESIGN): _PLAYS,
    # (By number a review or a check names its game; without one, no game in the bot's DM
    # is the review's own sentence: give the number. Between a match's games, the game just
    # over.)
    (Ask.REVIEW, Ask.VERIFY): {
        PLACE_GAME: everywhere(HERE),
        NONE: everywhere(HERE),
        RANKED: everywhere(THE_RANKED_GAME),
        BETWEEN: everywhere(THE_RANKED_GAME),
    },
    (Ask.STATS,): _ANYWHERE,
    (Ask.LEADERBOARD,): dict.fromkeys(
        KINDS,
        everywhere(HERE, BOT_DM=NO_LEADERBOARD_HERE, PRIVATE=NO_LEADERBOARD_HERE),
    ),
    (Ask.HALL_OF_FAME,): dict.fromkeys(
        KINDS,
        everywhere(HERE, BOT_DM=NO_HALL_OF_FAME_HERE, PRIVATE=NO_HALL_OF_FAME_HERE),
    ),
    (Ask.DAILY,): dict.fromkeys(
        KINDS,
        everywhere(HERE, BOT_DM=DAILY_NEEDS_A_SERVER, PRIVATE=DAILY_NEEDS_A_SERVER),
    ),
    (Ask.CLUB_TIMEZONE,): dict.fromkeys(
        KINDS,
        everywhere(HERE, BOT_DM=TOURNAMENTS_NEED_A_CHANNEL, PRIVATE=TOURNAMENTS_NEED_A_CHANNEL),
    ),
    (Ask.TOURNAMENT_NEW, Ask.TOURNAMENT_START, Ask.CLUB_NIGHT): dict.fromkeys(
        KINDS,
        everywhere(
            HERE,
            THREAD=TOURNAMENTS_NEED_A_CHANNEL,
            VOICE_CHAT=NO_THREADS_IN_VOICE,
            **_TOURNAMENT_SPOTS,
        ),
    ),
    reaching(Reach.TOURNAMENT): dict.fromkeys(
        KINDS,
        everywhere(
            HERE,
            THREAD=THE_THREADS_CHANNEL,
            VOICE_CHAT=NO_THREADS_IN_VOICE,
            **_TOURNAMENT_SPOTS,
        ),
    ),
    # (A second search while matched is ranked play's own refusal: "already in a match".)
    (Ask.RANKED_PLAY,): {
        PLACE_GAME: everywhere(SEATED_HERE),
        NONE: everywhere(HERE),
        RANKED: everywhere(HERE),
        BETWEEN: everywhere(HERE),
    },
    reaching(Reach.ANYWHERE): _ANYWHERE,
}
CELLS = [
    (ask, kind, spot, outcome)
    for asks, table in EXPECTED.items()
    for ask in asks
    for kind, row in table.items()
    for spot, outcome in row.items()
    # (The bot's DM holds no game of its own.)
    if not (spot is Spot.BOT_DM and kind == PLACE_GAME)
]


def _outcome(found: Resolved, place: Place) -> str:
    """A resolution as the table writes it."""
    if found.refusal is not None:
        return found.refusal
    if found.channel_id == RANKED_GAME:
        assert found.guild_id is None
        return THE_RANKED_GAME
    if place.parent_id is not None and found.channel_id == place.parent_id:
        assert found.guild_id == place.guild_id
        return THE_THREADS_CHANNEL
    assert (found.channel_id, found.guild_id) == (place.channel_id, place.guild_id)
    return HERE


@pytest.mark.parametrize("ask", [a for a in Ask if a.scope.reach is Reach.PLAYS])
def test_in_the_bots_dm_a_players_commands_act_on_their_lesson_there(ask: Ask) -> None:
    dm = PLACES[Spot.BOT_DM]
    assert _outcome(resolve(ask, dm, Facts(lesson_here=True)), dm) == HERE
    assert _outcome(resolve(ask, dm, Facts()), dm) == NO_GAME_IN_MY_DMS


def test_the_table_names_every_command_once() -> None:
    named = [ask for asks in EXPECTED for ask in asks]
    assert sorted(named) == sorted(Ask) and len(named) == len(set(named))


@pytest.mark.parametrize(("ask", "kind", "spot", "outcome"), CELLS)
def test_every_command_in_every_place_with_each_kind_of_game(
    ask: Ask, kind: str, spot: Spot, outcome: str
) -> None:
    place = PLACES[spot]
    assert _outcome(resolve(ask, place, facts(kind, place)), place) == outcome


@pytest.mark.parametrize("spot", ALL_SPOTS)
def test_a_ranked_game_played_from_elsewhere_is_not_this_places(spot: Spot) -> None:
    # Cy plays ranked from #10: elsewhere her commands are the place's, but in the bot's DM,
    # where no other game is, she is told where hers is.
    place = PLACES[spot]
    away = Facts(ranked_from=99, matched=True, ranked_game=RANKED_GAME)
    expected = RANKED_ELSEWHERE if spot is Spot.BOT_DM else HERE
    assert _outcome(resolve(Ask.HAND, place, away), place) == expected
    lobby = GAMES_NOT_IN_MY_DMS if spot is Spot.BOT_DM else HERE
    assert _outcome(resolve(Ask.JOIN, place, away), place) == lobby


@pytest.mark.parametrize("spot", [s for s in ALL_SPOTS if s is not Spot.BOT_DM])
def test_where_a_search_waits_no_other_game_is_opened_or_joined(spot: Spot) -> None:
    place = PLACES[spot]
    searching = Facts(ranked_from=place.channel_id)
    for ask in (Ask.NEW, Ask.JOIN, Ask.START):
        assert resolve(ask, place, searching).refusal == SEARCHING_HERE
    for ask in (Ask.LEAVE, Ask.CANCEL, Ask.HAND, Ask.STATUS, Ask.REVIEW):
        assert _outcome(resolve(ask, place, searching), place) == HERE


def test_before_a_matchs_first_game_is_dealt_its_players_commands_wait_for_it() -> None:
    place = PLACES[Spot.PRIVATE]
    matched = Facts(ranked_from=place.channel_id, matched=True)
    for ask in (Ask.HAND, Ask.PLAY, Ask.STATUS, Ask.RESIGN, Ask.REVIEW):
        assert resolve(ask, place, matched).refusal == RANKED_DEALING


def test_a_game_over_that_decided_the_match_says_so_not_that_the_next_is_dealt() -> None:
    place = PLACES[Spot.CHANNEL]
    over = replace(facts(BETWEEN, place), decided=True)
    for ask in (Ask.HAND, Ask.PLAY, Ask.STATUS, Ask.RESIGN):
        assert resolve(ask, place, over).refusal == RANKED_DECIDED
    assert _outcome(resolve(Ask.REVIEW, place, over), place) == THE_RANKED_GAME


def test_where_apps_may_answer_only_privately_nothing_is_opened_nor_searched_for() -> None:
    place = Place(Spot.UNINVITED, 15, ELSEWHERE, only_private=True)
    assert resolve(Ask.NEW, place).refusal == NO_PUBLIC_TABLE
    assert resolve(Ask.RANKED_PLAY, place).refusal == NO_PRIVATE_SEARCH
    assert resolve(Ask.JOIN, place).refusal is None  # (a seat: its answer is the clicker's)


def test_a_control_that_names_its_game_needs_no_commands_rule() -> None:
    for place in PLACES.values():
        assert _outcome(resolve(None, place, facts(RANKED, place)), place) == HERE


# -- controls -------------------------------------------------------------------------------------
#: (played apart, seated, a private table, the game's server, the control's server) -> refusal
CONTROLS = {
    # A ranked game: its players' alone, wherever they are.
    (True, True, True, None, SERVER): None,
    (True, True, True, None, None): None,
    (True, False, True, None, SERVER): OTHERS_RANKED,
    (True, False, True, None, None): OTHERS_RANKED,
    # A server's game: that server's (who may do what there is the game's to say).
    (False, False, False, SERVER, SERVER): None,
    (False, False, False, SERVER, ELSEWHERE): OTHER_SERVER,
    (False, True, False, SERVER, None): None,  # (a player's hand, by DM)
    (False, False, False, SERVER, None): NOT_A_PLAYER,
    # A private table: anyone there may take a free seat.
    (False, False, True, None, None): None,
    (False, False, True, ELSEWHERE, ELSEWHERE): None,
}


@pytest.mark.parametrize(("case", "refusal"), CONTROLS.items())
def test_a_control_of_a_game_is_refused_to_whom_it_is_not(
    case: tuple[bool, bool, bool, int | None, int | None], refusal: str | None
) -> None:
    apart, seated, private, game_guild, guild_id = case
    found = control_refusal(
        game_guild=game_guild, private=private, apart=apart, seated=seated, guild_id=guild_id
    )
    assert found == refusal


def test_every_kind_of_place_and_game_is_in_the_table() -> None:
    seen = {(kind, spot) for _, kind, spot, _ in CELLS}
    wanted = set(itertools.product(KINDS, ALL_SPOTS))
    assert seen == wanted - {(PLACE_GAME, Spot.BOT_DM)}


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(places_module).failed == 0


# -- the docs -------------------------------------------------------------------------------------
DOCS = Path(__file__).resolve().parents[4] / "docs"
#: Where a command works with no game of its own, with a ranked game played from there only,
#: or not at all.
YES, RANKED_ONLY, NO = "✓", "your ranked game", "—"
#: Where a person's ranked game and their lesson are played (the bot's DM), and where the
#: hands of their games in servers come (issue 68, item 7).
RANKED_OR_LESSON = "your ranked game or lesson"
RANKED_LESSON_OR_HAND = "your ranked game, lesson, or the game whose hand is there"


def _cell(ask: Ask, place: Place) -> str:
    if resolve(ask, place).refusal is None:
        return YES
    if resolve(ask, place, facts(RANKED, place)).refusal:
        return NO
    lesson = resolve(ask, place, Facts(lesson_here=True)).refusal is None
    hand = resolve(ask, place, Facts(hands_here=((10, 1),))).refusal is None
    if lesson and hand:
        return RANKED_LESSON_OR_HAND
    return RANKED_OR_LESSON if lesson else RANKED_ONLY


def where_table() -> str:
    """docs/players.md's table of where each command works, from the resolver: a row for each
    run of commands that work in the same places (in the order of their reach)."""
    rows: list[tuple[list[Ask], list[str]]] = []
    for reach in Reach:
        asks = [ask for ask in Ask if ask.scope.reach is reach]
        cells = [_cell(asks[0], PLACES[spot]) for spot in ALL_SPOTS]
        if rows and rows[-1][1] == cells:
            rows[-1][0].extend(asks)
        else:
            rows.append((asks, cells))
    lines = [
        "| commands | " + " | ".join(spot.value for spot in ALL_SPOTS) + " |",
        "| --- |" + " :-: |" * len(ALL_SPOTS),
    ]
    for asks, cells in rows:
        names = ", ".join(f"`{ask.value}`" for ask in asks)
        lines.append(f"| {names} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def test_the_players_guide_shows_where_each_command_works_as_the_resolver_says() -> None:
    guide = (DOCS / "players.md").read_text(encoding="utf-8")
    assert where_table() in guide, where_table()


@pytest.mark.parametrize("spot", SERVERS)
def test_a_moderators_cancel_is_about_the_places_game_not_theirs(spot: Spot) -> None:
    # A moderator whose ranked match is played here cancels the game someone else plays
    # here (the lobby's Cancel button did already); with none here, theirs is no lobby.
    place = replace(PLACES[spot], moderator=True)
    theirs = facts(RANKED, place)
    assert _outcome(resolve(Ask.CANCEL, place, replace(theirs, here=Here.OPEN)), place) == HERE
    assert resolve(Ask.CANCEL, place, theirs).refusal == RANKED_NOT_A_LOBBY
    # Leaving is about their own seat, whoever they are; and a player who is not a moderator
    # is told how a ranked game ends.
    assert resolve(Ask.LEAVE, place, replace(theirs, here=Here.OPEN)).refusal == (
        RANKED_NOT_A_LOBBY
    )
    player = PLACES[spot]
    assert resolve(Ask.CANCEL, player, replace(theirs, here=Here.OPEN)).refusal == (
        RANKED_NOT_A_LOBBY
    )


#: How each kind of place is named in a sentence.
NAMED = {
    Spot.CHANNEL: "this channel",
    Spot.THREAD: "this thread",
    Spot.VOICE_CHAT: "this voice channel's chat",
    Spot.PRIVATE: "this conversation",
    Spot.UNINVITED: "this channel",
}


@pytest.mark.parametrize("spot", list(NAMED))
def test_what_the_place_holds_is_said_in_its_own_words(spot: Spot) -> None:
    # Issue 54: "There's no game in this channel" in a DM or group DM; "Start one with
    # /cribbage new" to someone whose search waits there (where /cribbage new is refused);
    # /cribbage verify told "no game to review".
    place = PLACES[spot]
    where = NAMED[spot]
    empty, over, open_ = Facts(here=Here.EMPTY), Facts(here=Here.OVER), Facts(here=Here.OPEN)
    for ask in (Ask.JOIN, Ask.LEAVE, Ask.HAND, Ask.STATUS, Ask.RESIGN):
        assert resolve(ask, place, empty).refusal == no_game(where)
        assert _outcome(resolve(ask, place, open_), place) == HERE
    for ask in (Ask.JOIN, Ask.CANCEL, Ask.HAND, Ask.PLAY, Ask.RESIGN):
        assert resolve(ask, place, over).refusal == game_over(where)
    assert _outcome(resolve(Ask.STATUS, place, over), place) == HERE  # (the last game's look)
    for ask in (Ask.REVIEW, Ask.VERIFY):
        assert resolve(ask, place, empty).refusal == nothing_to_look_up(where)
        assert _outcome(resolve(ask, place, over), place) == HERE
    assert resolve(Ask.NEW, place, open_).refusal == busy(where)
    assert _outcome(resolve(Ask.NEW, place, over), place) == HERE
    searching = Facts(ranked_from=place.channel_id, here=Here.EMPTY)
    for ask in (Ask.LEAVE, Ask.CANCEL, Ask.HAND, Ask.STATUS):
        assert resolve(ask, place, searching).refusal == SEARCH_WAITS
    assert _outcome(resolve(Ask.HAND, place, replace(searching, here=Here.OPEN)), place) == HERE


@pytest.mark.parametrize("spot", ALL_SPOTS)
def test_where_a_search_waits_a_players_command_says_it_waits_there(spot: Spot) -> None:
    # The bot's DM said "You have no game in my DMs (only a ranked match searched for here is
    # played here)" to someone whose search waits there, where every other place says it waits.
    place = PLACES[spot]
    searching = Facts(ranked_from=place.channel_id, here=Here.EMPTY)
    for ask in (Ask.HAND, Ask.PLAY, Ask.STATUS, Ask.RESIGN):
        assert resolve(ask, place, searching).refusal == SEARCH_WAITS


@pytest.mark.parametrize("spot", ALL_SPOTS)
def test_a_ranked_match_over_is_its_places_last_game_for_its_player(spot: Spot) -> None:
    place = PLACES[spot]
    over = Facts(here=Here.OVER, ranked_last=-6)
    for ask in (Ask.STATUS, Ask.REVIEW, Ask.VERIFY):
        assert resolve(ask, place, over) == Resolved(-6, None)
    if spot is not Spot.BOT_DM:
        assert resolve(Ask.HAND, place, over).refusal == game_over(NAMED[spot])
        assert _outcome(resolve(Ask.NEW, place, over), place) == HERE


def test_in_the_bots_dm_no_game_to_look_up_is_said_of_my_dms() -> None:
    place = PLACES[Spot.BOT_DM]
    said = resolve(Ask.REVIEW, place, Facts(here=Here.EMPTY)).refusal
    assert said == nothing_to_look_up("my DMs")
