"""Which game a command or a control acts on, for a person, in a place: one decision.

A person types a command (or presses a control) somewhere: a place (:class:`Place`), one of
the kinds Discord lets the app be used in (:class:`Spot`): a text channel, a thread or the text
chat of a voice or stage channel in a server that invited the bot, the person's DM with the bot,
a DM or group DM between people, or a server that did not invite the bot (those last two
through the person's own install of the app). Each command has a scope (:data:`SCOPES`: how far
it reaches, :class:`Reach`) and :func:`resolve` says, from the place and what the store says of
the person there (:class:`Facts`), what it acts on (:class:`Resolved`): the place's game, the
ranked game the person plays from there (a game played apart, :mod:`bot.core.base.seating`), a
server's records or tournament, or nothing, with the sentence that says why.

What the scopes say, in short:

- **A game's place holds one game**, which the lobby's commands (``new``, ``join``, ``leave``,
  ``start``, ``cancel``) act on; the bot's DM holds none of those (only a ranked match, and a
  person's lesson, ``/cribbage learn``, are played there).
- **A player's commands act on their game here**: their ranked game where they play it from
  (they searched from here), else the place's game; in their DM with the bot, where the hands
  of their games in servers come, the game whose hand is there (one being played: with
  several, they are told where each is played). A ranked match is known as a whole: before
  its first game is dealt, and between two games (the last over, the next being dealt, or the
  match being decided), its player is told so, not that the place has no game; a review or a
  check then acts on the game just over. Once the match is over, its last game is the place's
  last game for its player (``status``, a review and a check act on it) until another is
  opened there.
- **One game of yours in a place.** A ranked search is refused where the person is seated in a
  game not over (a lobby, or a game being played): the match would be played there too. Where
  their ranked match is played, or their search was made, they open or join no other game,
  and a control that names a game played apart is its two players' alone
  (:func:`control_refusal`). So a command typed there never means two games. A moderator's
  ``cancel`` is about the place's game, not theirs: where their own match is played it
  cancels the game someone else plays there.
- **Records and tournaments are a server's**: stats anywhere (outside servers, the games
  played in DMs and group DMs, ranked games included), the leaderboard, the hall of fame and
  the discard of the day in a server, a tournament in a text channel of a server that invited
  the bot (its games in that channel's threads).

Everything here is a value or a pure function: the store is read by
:class:`bot.core.which_game.WhichGame`, and the Discord layer only says what the place is.

>>> here = Place(Spot.CHANNEL, 10, guild_id=1)
>>> resolve(Ask.HAND, here).channel_id
10
>>> resolve(Ask.HAND, here, Facts(ranked_from=10, matched=True, ranked_game=-30)).channel_id
-30
>>> resolve(Ask.NEW, Place(Spot.BOT_DM, 20)).refusal == GAMES_NOT_IN_MY_DMS
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum, auto

from bot.core.base.refusals import (
    NOT_A_PLAYER,
    OTHER_SERVER,
    busy,
    game_over,
    lesson_waits,
    no_game,
    nothing_to_look_up,
)

__all__ = [
    "ABOUT_GAMES",
    "BUTTON_ASKS",
    "DAILY_NEEDS_A_SERVER",
    "GAMES_NOT_IN_MY_DMS",
    "NEEDS_THE_BOT",
    "NO_FACTS",
    "NO_GAME_IN_MY_DMS",
    "NO_HALL_OF_FAME_HERE",
    "NO_LEADERBOARD_HERE",
    "NO_PRIVATE_SEARCH",
    "NO_PUBLIC_TABLE",
    "NO_THREADS_IN_VOICE",
    "OTHERS_RANKED",
    "RANKED_DEALING",
    "RANKED_DECIDED",
    "RANKED_ELSEWHERE",
    "RANKED_HERE",
    "RANKED_NEXT_GAME",
    "RANKED_NOT_A_LOBBY",
    "SCOPES",
    "SEARCHING_HERE",
    "SEARCH_WAITS",
    "SEATED_HERE",
    "TOURNAMENTS_NEED_A_CHANNEL",
    "Ask",
    "Facts",
    "Here",
    "Place",
    "PlaceKind",
    "Reach",
    "Resolved",
    "Scope",
    "Spot",
    "control_refusal",
    "hands_in_my_dms",
    "resolve",
]


# -- what a place is ------------------------------------------------------------------------
class Spot(StrEnum):
    """The kinds of place the app is used in."""

    #: A text channel of a server that invited the bot.
    CHANNEL = "server channel"
    #: A thread of such a server.
    THREAD = "thread"
    #: The text chat of a voice or stage channel of such a server.
    VOICE_CHAT = "voice chat"
    #: The person's DM with the bot.
    BOT_DM = "the bot's DM"
    #: A DM or group DM between people, through the person's install of the app.
    PRIVATE = "DM or group DM"
    #: A server that did not invite the bot, through the person's install of the app.
    UNINVITED = "server without the bot"


@dataclass(frozen=True, slots=True)
class Place:
    """Where a command or a control was used: what kind of place (``spot``), its channel (a
    thread's own id), its server (None outside servers), a thread's channel (``parent_id``);
    and, of the person there, whether Discord makes every answer to them private
    (``only_private``: a server without the bot whose moderators turned *Use External Apps*
    off for them) and whether they moderate it (``moderator``: Manage Messages there, or
    Manage Server; they may cancel any game of the place)."""

    spot: Spot
    channel_id: int
    guild_id: int | None = None
    parent_id: int | None = None
    only_private: bool = False
    moderator: bool = False

    @property
    def named(self) -> str:
        """The place as a sentence names it ("There's no game in this thread.")."""
        return _NAMED[self.spot]

    @property
    def bot_member(self) -> bool:
        """Whether the bot is a member here (its own token reaches the channel): not in a DM
        or group DM between people, nor a server that did not invite it."""
        return self.spot not in (Spot.PRIVATE, Spot.UNINVITED)


_NAMED = {
    Spot.CHANNEL: "this channel",
    Spot.THREAD: "this thread",
    Spot.VOICE_CHAT: "this voice channel's chat",
    Spot.BOT_DM: "my DMs",
    Spot.PRIVATE: "this conversation",
    Spot.UNINVITED: "this channel",
}


class Here(Enum):
    """What a place holds, as the store says (read for a command that would act on it)."""

    #: A game not over (a lobby, or a game being played).
    OPEN = auto()
    #: No game open, its last one over (finished, cancelled or expired).
    OVER = auto()
    #: No game ever.
    EMPTY = auto()


class PlaceKind(StrEnum):
    """What the place a player queued from is, as far as the bot's token goes."""

    #: A channel of a server that invited the bot.
    SERVER = "server"
    #: Where the bot is not a member: a DM or group DM between people, or a server that did not
    #: invite it, reached through the player's user install.
    PRIVATE = "private"
    #: The player's DM with the bot.
    BOT_DM = "bot_dm"

    @classmethod
    def of(cls, place: Place) -> PlaceKind:
        """The kind of ``place``, as far as the bot's token goes.

        >>> PlaceKind.of(Place(Spot.THREAD, 5, guild_id=1)), PlaceKind.of(Place(Spot.BOT_DM, 6))
        (<PlaceKind.SERVER: 'server'>, <PlaceKind.BOT_DM: 'bot_dm'>)
        """
        if not place.bot_member:
            return cls.PRIVATE
        return cls.BOT_DM if place.spot is Spot.BOT_DM else cls.SERVER


# -- the commands and how far each reaches ------------------------------------------------------
class Reach(Enum):
    """How far a command reaches (the README's table says where each works: :attr:`where`)."""

    #: Opens the place's game (``new``).
    OPENS = auto()
    #: Takes a seat at, or starts, the place's game in its lobby (``join``, ``start``).
    SEATS = auto()
    #: Leaves or ends the place's game (``leave``, ``cancel``).
    ENDS = auto()
    #: A player's look or move at their game here (``hand``, ``play``, ``status``...).
    PLAYS = auto()
    #: A game looked up (``review``, ``verify``): by number anywhere, else as :attr:`PLAYS`.
    LOOKS_UP = auto()
    #: A record (``stats``): a server's, or outside servers the games played in DMs.
    RECORDS = auto()
    #: A server's alone (``leaderboard``, ``halloffame``, ``daily``).
    SERVER = auto()
    #: Opens or starts a tournament: a text channel of a server that invited the bot.
    TOURNAMENT_HOME = auto()
    #: A tournament's other commands: its channel, or its games' threads.
    TOURNAMENT = auto()
    #: A ranked search (``ranked play``): anywhere but a place holding a game of yours.
    SEARCH = auto()
    #: About the person alone: works anywhere.
    ANYWHERE = auto()

    @property
    def where(self) -> str:
        """Where a command of this reach works, as the README's table says it."""
        return _WHERE[self]


_WHERE = {
    Reach.OPENS: "any place but the bot's DM",
    Reach.SEATS: "any place but the bot's DM",
    Reach.ENDS: "any place but the bot's DM",
    Reach.PLAYS: "your game here: the place's, or your ranked game; in the bot's DM, the game "
    "whose hand is there",
    Reach.LOOKS_UP: "anywhere: by number, or your game here",
    Reach.RECORDS: "anywhere: a server's, or outside servers the DMs'",
    Reach.SERVER: "a server",
    Reach.TOURNAMENT_HOME: "a text channel of a server the bot is in",
    Reach.TOURNAMENT: "the tournament's channel, or its threads",
    Reach.SEARCH: "anywhere but where you're in a game",
    Reach.ANYWHERE: "anywhere",
}


class Ask(StrEnum):
    """Every ``/cribbage`` command, by its name under ``/cribbage``; and ``/club``'s, by its
    whole name (``club night``)."""

    NEW = "new"
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    HAND = "hand"
    DISCARD = "discard"
    PLAY = "play"
    COUNT = "count"
    STATUS = "status"
    RESIGN = "resign"
    COACH = "coach"
    LEADERBOARD = "leaderboard"
    STATS = "stats"
    COUNT_HAND = "count-hand"
    DAILY = "daily"
    REVIEW = "review"
    VERIFY = "verify"
    HALL_OF_FAME = "halloffame"
    PRIVACY = "privacy"
    HELP = "help"
    LEARN = "learn"
    RULES = "rules"
    TOURNAMENT_NEW = "tournament new"
    TOURNAMENT_JOIN = "tournament join"
    TOURNAMENT_LEAVE = "tournament leave"
    TOURNAMENT_START = "tournament start"
    TOURNAMENT_CANCEL = "tournament cancel"
    TOURNAMENT_STANDINGS = "tournament standings"
    TOURNAMENT_WITHDRAW = "tournament withdraw"
    TOURNAMENT_RESULT = "tournament result"
    RANKED_PLAY = "ranked play"
    RANKED_LEAVE = "ranked leave"
    RANKED_LADDER = "ranked ladder"
    RANKED_BLOCK = "ranked block"
    RANKED_UNBLOCK = "ranked unblock"
    CLUB_NIGHT = "club night"
    CLUB_CHECKIN = "club checkin"
    CLUB_SKIP = "club skip"
    CLUB_MOVE = "club move"
    CLUB_END = "club end"
    CLUB_LEAGUE = "club league"
    CLUB_TIMEZONE = "club timezone"

    @property
    def scope(self) -> Scope:
        """This command's scope."""
        return SCOPES[self]


# -- the sentences ----------------------------------------------------------------------------
#: A lobby's command in the bot's DM, where no game but a ranked match is played.
GAMES_NOT_IN_MY_DMS = (
    "Games are opened in a server channel or thread, or in a DM or group DM with the people "
    "you play (with the app added to your account): in my DMs only a ranked match is played "
    "(`/cribbage ranked play`)."
)
#: A player's command in the bot's DM, where they play no ranked game.
NO_GAME_IN_MY_DMS = (
    "You have no game in my DMs (only a ranked match searched for here is played here): use "
    "this command where your game is, its server channel or thread, or its DM or group DM."
)


def hands_in_my_dms(channels: Sequence[int]) -> str:
    """A player's command in the bot's DM, where the hands of several games of theirs being
    played came (``channels``: where each is played): which one it means is theirs to say."""
    where = ", ".join(f"<#{channel}>" for channel in channels)
    return (
        f"Your hands of {len(channels)} games are in my DMs: use this command where the game "
        f"is played ({where}), or the controls on its hand here."
    )


#: A player's command in the bot's DM, their ranked game played from another place.
RANKED_ELSEWHERE = (
    "Your ranked game is played where you searched for it: use this command there, below your card."
)
#: A player's command where their ranked match is played, before its first game is dealt.
RANKED_DEALING = (
    "Your ranked match's first game is being dealt: its table comes below your card here in a "
    "moment."
)
#: A player's command where their ranked match is played, between two of its games (the last
#: one over, the next not yet dealt).
RANKED_NEXT_GAME = (
    "Your ranked match's last game is over and its next is being dealt: its table comes here "
    "in a moment."
)
#: The same, the game over having decided the match (its result being written).
RANKED_DECIDED = (
    "Your ranked match's last game decided it: the result comes on your card and that game's "
    "table here in a moment."
)
#: A player's command or ``leave`` where their ranked search waits and no other game of theirs
#: is (not "Start one with /cribbage new", which is refused there).
SEARCH_WAITS = (
    "Your ranked search waits here, and no other game of yours is here: your match's games are "
    "played here once you're paired (`/cribbage ranked leave` stops the search)."
)
#: ``new``, ``join`` or ``start`` (or a lobby's *Join*) where the person's ranked match is played.
RANKED_HERE = (
    "Your ranked match is played here, so another game of yours waits until it's over: open or "
    "join one in another channel, a thread or a DM meanwhile."
)
#: ``leave`` or ``cancel`` where the person's ranked match is played.
RANKED_NOT_A_LOBBY = (
    "Your ranked match is played here, and it isn't left or cancelled like a lobby: "
    "`/cribbage resign` concedes its game, `/cribbage ranked leave` the match (a loss)."
)
#: ``new`` or ``join`` (or a lobby's *Join*) where the person searches for a ranked match.
SEARCHING_HERE = (
    "You're searching for a ranked match from here, and it would be played here: press *Stop "
    "searching* on your card to play another game here, or play it in another channel, a "
    "thread or a DM."
)
#: ``ranked play`` where the person is seated in a game not over.
SEATED_HERE = (
    "You're in a game here, and your ranked match would be played here too: finish it first "
    "(`/cribbage leave` a lobby, `/cribbage resign` a game), or search from another channel, "
    "a thread or a DM."
)
#: A control of a ranked game (its *Your hand*, its *Review*) used by someone not playing it.
OTHERS_RANKED = (
    "That's someone else's ranked game: its hands and its review are its two players' alone."
)
#: ``/cribbage leaderboard`` outside servers: games outside servers are kept per player.
NO_LEADERBOARD_HERE = (
    "Games outside servers have no leaderboard: they are kept per player. `/cribbage stats` "
    "here shows your record in them, and `/cribbage stats against:` your head to head with "
    "a friend; ranked play has its own ladder (`/cribbage ranked ladder`)."
)
#: ``/cribbage halloffame`` outside servers.
NO_HALL_OF_FAME_HERE = (
    "The hall of fame is kept per server (its 28s and 29s, best hands and champions): use "
    "`/cribbage halloffame` in a server. Your own best hands are in `/cribbage stats`."
)
#: ``/cribbage daily`` outside servers: the hand of the day is a server's.
DAILY_NEEDS_A_SERVER = (
    "The discard of the day is dealt per server: everyone in a server gets the same six cards. "
    "Use `/cribbage daily` in a server."
)
#: A tournament command outside a server channel (a DM, a group DM).
TOURNAMENTS_NEED_A_CHANNEL = "Tournaments live in a server channel: use this command there."
#: A tournament command in a server that did not invite the bot: its token starts no thread.
NEEDS_THE_BOT = (
    "Tournaments need the bot invited to this server: each game is played in a thread the "
    "bot starts, and it can't start one in a server it wasn't invited to. Ask someone who "
    "manages the server to invite it."
)
#: ``/cribbage tournament new`` in a voice or stage channel's chat, where Discord starts no
#: thread.
NO_THREADS_IN_VOICE = (
    "Tournament games are played in threads, which Discord doesn't have in voice or stage"
    " channels: use `/cribbage tournament new` in a text channel (a game for tonight is"
    " `/cribbage new`, here)."
)
#: ``/cribbage new`` where Discord lets the app answer only privately (Use External Apps).
NO_PUBLIC_TABLE = (
    "This server lets apps answer only privately here, so nobody else would see the table. "
    "Ask a moderator to allow **Use External Apps**, or to invite the bot to the server."
)
#: ``/cribbage ranked play`` where Discord lets the app answer only privately.
NO_PRIVATE_SEARCH = (
    "This server lets apps answer only privately here, so your match's tables couldn't be "
    "shown. Search from another channel, a DM, or ask a moderator to allow **Use External "
    "Apps**."
)


@dataclass(frozen=True, slots=True)
class Scope:
    """A command's scope: how far it reaches, and for a server's command what it says outside
    servers (``elsewhere``)."""

    reach: Reach
    elsewhere: str = ""


_ANYWHERE = Scope(Reach.ANYWHERE)
_TOURNAMENT = Scope(Reach.TOURNAMENT)
#: Each command's scope.
SCOPES: dict[Ask, Scope] = {
    Ask.NEW: Scope(Reach.OPENS),
    Ask.JOIN: Scope(Reach.SEATS),
    Ask.START: Scope(Reach.SEATS),
    Ask.LEAVE: Scope(Reach.ENDS),
    Ask.CANCEL: Scope(Reach.ENDS),
    **{ask: Scope(Reach.PLAYS) for ask in (Ask.HAND, Ask.DISCARD, Ask.PLAY, Ask.COUNT)},
    Ask.STATUS: Scope(Reach.PLAYS),
    Ask.RESIGN: Scope(Reach.PLAYS),
    Ask.REVIEW: Scope(Reach.LOOKS_UP),
    Ask.VERIFY: Scope(Reach.LOOKS_UP),
    Ask.STATS: Scope(Reach.RECORDS),
    Ask.LEADERBOARD: Scope(Reach.SERVER, NO_LEADERBOARD_HERE),
    Ask.HALL_OF_FAME: Scope(Reach.SERVER, NO_HALL_OF_FAME_HERE),
    Ask.DAILY: Scope(Reach.SERVER, DAILY_NEEDS_A_SERVER),
    Ask.TOURNAMENT_NEW: Scope(Reach.TOURNAMENT_HOME),
    Ask.TOURNAMENT_START: Scope(Reach.TOURNAMENT_HOME),
    Ask.CLUB_NIGHT: Scope(Reach.TOURNAMENT_HOME),
    Ask.CLUB_TIMEZONE: Scope(Reach.SERVER, TOURNAMENTS_NEED_A_CHANNEL),
    **{
        ask: _TOURNAMENT
        for ask in (
            Ask.TOURNAMENT_JOIN,
            Ask.TOURNAMENT_LEAVE,
            Ask.TOURNAMENT_CANCEL,
            Ask.TOURNAMENT_STANDINGS,
            Ask.TOURNAMENT_WITHDRAW,
            Ask.TOURNAMENT_RESULT,
            Ask.CLUB_CHECKIN,
            Ask.CLUB_SKIP,
            Ask.CLUB_MOVE,
            Ask.CLUB_END,
            Ask.CLUB_LEAGUE,
        )
    },
    Ask.RANKED_PLAY: Scope(Reach.SEARCH),
    **{
        ask: _ANYWHERE
        for ask in (
            Ask.COACH,
            Ask.COUNT_HAND,
            Ask.PRIVACY,
            Ask.HELP,
            Ask.LEARN,
            Ask.RULES,
            Ask.RANKED_LEAVE,
            Ask.RANKED_LADDER,
            Ask.RANKED_BLOCK,
            Ask.RANKED_UNBLOCK,
        )
    },
}
#: A lobby's buttons that do what a command does where it matters here: *Join* takes a seat,
#: as ``/cribbage join`` does. (The others name their game, and a person is seated in no game
#: of a place where their ranked match is played.)
BUTTON_ASKS: dict[str, Ask] = {"join": Ask.JOIN}
#: The reaches about a game of the place or the person's (what the store says of the person
#: matters to them).
ABOUT_GAMES = frozenset({Reach.OPENS, Reach.SEATS, Reach.ENDS, Reach.PLAYS, Reach.LOOKS_UP})


# -- what the store says, and the answer --------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Facts:
    """What the store says of the person, as far as a place needs: the channel their live
    ranked entry was made from (``ranked_from``: searching, or ``matched``), the channel of
    their match's latest game (``ranked_game``: None before the first is dealt), whether that
    game is over with the match going on (``ranked_over``: the next is being dealt) or decided
    by it (``decided``: its result being written), whether they are seated in the place's
    game not over (``seated_here``), what the place holds (``here``: None, not read), for a
    command that would act on its game, whether the place is their DM with the bot and
    their lesson is played there, or was its last game (``lesson_here``; ``here`` says
    which), and the channel of the last game of their
    latest ranked match played from here, over, where no game was opened since
    (``ranked_last``: the place's last game, for them); in their DM with the bot, the games
    being played whose hands came there (``hands_here``: each one's channel and server);
    elsewhere, where no game of theirs is open, whether their lesson waits in that DM
    (``lesson_waits``)."""

    ranked_from: int | None = None
    matched: bool = False
    ranked_game: int | None = None
    ranked_over: bool = False
    decided: bool = False
    seated_here: bool = False
    here: Here | None = None
    lesson_here: bool = False
    ranked_last: int | None = None
    hands_here: tuple[tuple[int, int | None], ...] = ()
    lesson_waits: bool = False


#: Nothing known of the person (nothing read).
NO_FACTS = Facts()


@dataclass(frozen=True, slots=True)
class Resolved:
    """What a command acts on: the game in ``channel_id`` (the place's channel, a ranked game's
    channel, or a tournament's channel), of server ``guild_id`` (whose records or tournament:
    None outside servers); or nothing, and ``refusal`` says why."""

    channel_id: int
    guild_id: int | None = None
    refusal: str | None = None
    #: The command was typed where the game's hand message is (the bot's DM, where the hands
    #: of a server's game and of a lesson come): a move's answer need not copy the hand there.
    beside_hand: bool = False

    @property
    def server_id(self) -> int:
        """The server, for a command that reaches a server's alone (refused outside them)."""
        if self.guild_id is None:
            raise ValueError("Only a server's command has a server.")
        return self.guild_id


def _refused(place: Place, why: str) -> Resolved:
    return Resolved(place.channel_id, place.guild_id, why)


def resolve(ask: Ask | None, place: Place, facts: Facts = NO_FACTS) -> Resolved:
    """What ``ask`` acts on for a person in ``place``, given what the store says of them
    (``facts``; none are needed but for the commands about games and the ranked search).
    ``ask`` None: a control that names its game, which needs no command's scope here."""
    here = Resolved(place.channel_id, place.guild_id)
    reach = Reach.ANYWHERE if ask is None else ask.scope.reach
    if reach in (Reach.ANYWHERE, Reach.RECORDS):
        return here
    if reach is Reach.SERVER:
        assert ask is not None
        return here if place.guild_id is not None else _refused(place, ask.scope.elsewhere)
    if reach in (Reach.TOURNAMENT_HOME, Reach.TOURNAMENT):
        return _tournament(place, opening=reach is Reach.TOURNAMENT_HOME)
    if reach is Reach.SEARCH:
        if place.only_private:
            return _refused(place, NO_PRIVATE_SEARCH)
        return _refused(place, SEATED_HERE) if facts.seated_here else here
    if ask is Ask.CANCEL and place.moderator and facts.here is Here.OPEN:
        # A moderator's cancel is about the place's game, not a game of theirs (their own
        # ranked match played from here is no lobby, and not what they mean).
        return here
    assert ask is not None
    return _game(ask, place, facts)


def _game(ask: Ask, place: Place, facts: Facts) -> Resolved:
    """A command about a game: the person's ranked game where they play it from, else the
    place's (see the module's docstring)."""
    reach = ask.scope.reach
    ranked_here = facts.ranked_from == place.channel_id
    if reach in (Reach.PLAYS, Reach.LOOKS_UP):
        if ranked_here and facts.matched:
            if facts.ranked_game is None:
                return _refused(place, RANKED_DEALING)
            if reach is Reach.PLAYS and facts.ranked_over:
                # (A review or a check acts on the game just over.)
                return _refused(place, RANKED_DECIDED if facts.decided else RANKED_NEXT_GAME)
            return Resolved(facts.ranked_game, None)
        if reach is Reach.PLAYS and place.spot is Spot.BOT_DM and facts.hands_here:
            # The DM where the hands of their games in servers come: the game whose hand is
            # there (with several, where each is played).
            if len(facts.hands_here) == 1:
                return Resolved(*facts.hands_here[0], beside_hand=True)
            return _refused(place, hands_in_my_dms([c for c, _ in facts.hands_here]))
        if facts.ranked_last is not None and (reach is Reach.LOOKS_UP or ask is Ask.STATUS):
            # (As on the place's last game over; a move there says it is over.)
            return Resolved(facts.ranked_last, None)
        if reach is Reach.PLAYS and place.spot is Spot.BOT_DM and not facts.lesson_here:
            if ranked_here:
                return _refused(place, SEARCH_WAITS)  # (as anywhere a search waits)
            return _refused(place, RANKED_ELSEWHERE if facts.matched else NO_GAME_IN_MY_DMS)
        found = _places_game(ask, place, facts)
        if place.spot is Spot.BOT_DM and facts.lesson_here and found.refusal is None:
            return Resolved(found.channel_id, found.guild_id, beside_hand=True)  # (the lesson's)
        return found
    if reach is Reach.OPENS and place.only_private:
        return _refused(place, NO_PUBLIC_TABLE)
    if place.spot is Spot.BOT_DM:
        return _refused(place, GAMES_NOT_IN_MY_DMS)
    if ranked_here and facts.matched:
        return _refused(place, RANKED_NOT_A_LOBBY if reach is Reach.ENDS else RANKED_HERE)
    if ranked_here and reach is not Reach.ENDS:
        return _refused(place, SEARCHING_HERE)
    return _places_game(ask, place, facts)


def _places_game(ask: Ask, place: Place, facts: Facts) -> Resolved:
    """A command on the place's game, as the place holds one (``facts.here``; not read: the
    call finds out): a game opened where one is, or a command about a game where none is open,
    is refused in the place's own words (``status``, a review and a check act on the last
    game, over)."""
    reach, held = ask.scope.reach, facts.here
    here = Resolved(place.channel_id, place.guild_id)
    if held is None:
        return here
    if reach is Reach.OPENS:
        return _refused(place, busy(place.named)) if held is Here.OPEN else here
    if held is Here.OPEN:
        return here
    if held is Here.OVER and (reach is Reach.LOOKS_UP or ask is Ask.STATUS):
        return here
    if reach is Reach.LOOKS_UP:
        return _refused(place, nothing_to_look_up(place.named))
    if facts.ranked_from == place.channel_id:
        return _refused(place, SEARCH_WAITS)  # (a match played here is decided before)
    if facts.lesson_waits and reach is Reach.PLAYS:
        # (Their lesson, left in our DM, is what a learner's command here means.)
        return _refused(place, lesson_waits(place.named, over=held is Here.OVER))
    if held is Here.OVER:
        return _refused(place, game_over(place.named, lesson=facts.lesson_here))
    return _refused(place, no_game(place.named))


def _tournament(place: Place, *, opening: bool) -> Resolved:
    """A tournament's server and channel here: a thread's (where its matches are played) is its
    channel's, but none is opened or started there (its home is a channel, whose threads it
    makes); none is in a voice or stage channel's chat (Discord starts no thread there)."""
    if place.guild_id is None:
        return _refused(place, TOURNAMENTS_NEED_A_CHANNEL)
    if not place.bot_member:
        return _refused(place, NEEDS_THE_BOT)
    if place.spot is Spot.VOICE_CHAT:
        return _refused(place, NO_THREADS_IN_VOICE)
    if place.spot is Spot.THREAD:
        if opening or place.parent_id is None:
            return _refused(place, TOURNAMENTS_NEED_A_CHANNEL)
        return Resolved(place.parent_id, place.guild_id)
    return Resolved(place.channel_id, place.guild_id)


# -- a control that names its game --------------------------------------------------------------
def control_refusal(
    *,
    game_guild: int | None,
    private: bool,
    apart: bool,
    seated: bool,
    guild_id: int | None,
) -> str | None:
    """Why a person may not use a control of a game here (None: they may; what they may do is
    the game's to say): a game played apart is its players' alone; a game of a server, that
    server's (``guild_id``: where the control was used, None outside servers); outside
    servers, a game is its players' but at a private table, where anyone there may take a free
    seat. Discord delivers only the custom ids on a message, but nothing else stops a control
    naming another server's game (where a moderator of that server could cancel it).

    >>> control_refusal(game_guild=None, private=True, apart=True, seated=False, guild_id=1)
    "That's someone else's ranked game: its hands and its review are its two players' alone."
    """
    if apart:
        return None if seated else OTHERS_RANKED
    if guild_id is not None:
        if game_guild is not None and guild_id != game_guild:
            return OTHER_SERVER
        return None
    return None if seated or private else NOT_A_PLAYER
