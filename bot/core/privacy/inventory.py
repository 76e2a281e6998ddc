"""What the bot keeps about a person, said once (issue 54, item 7): every table and column of
the database that holds a person's data, what it holds, why, for how long, and what *Send me
my data* and *Delete my data* do with it.

Drawn from it: the file a person is sent and the deletion of their data
(:mod:`bot.store.privacy_tables`), the pruning of ended games (:mod:`bot.store.archive_tables`:
the tables kept only while a game is whole), the words of ``/cribbage privacy``
(:meth:`bot.core.privacy.players.PlayerData.words`) and of the privacy policy's page
(:mod:`bot.web.policy`, handed :func:`policy_lines` by the composition root). Checked against
it by tests: both databases' schemas (a column that may hold a person's id or name, in any
migration, and is in no inventory fails ``tests/bot/store/test_inventory.py``), what a
deletion leaves and a file holds, and ``docs/running.md``'s *Players' data*
(:func:`docs_table`).

>>> sorted(t.name for t in tables_lasting(Lasts.GAME))
['actions', 'dm_refusals', 'hints_taken', 'messages', 'pending_posts']
>>> [c.name for c in columns_for(Request.CLEARED)["ranked_entries"]]
['avatar', 'guild_id', 'channel_id']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum, StrEnum

from bot.core.base.text import period

__all__ = [
    "INVENTORY",
    "NOBODYS",
    "Column",
    "Figures",
    "Holds",
    "Kept",
    "Lasts",
    "Request",
    "Table",
    "columns_for",
    "command_lines",
    "deletion",
    "docs_table",
    "file_tables",
    "not_sent",
    "person_columns",
    "policy_lines",
    "public_lines",
    "request_of",
    "tables_lasting",
]


class Holds(StrEnum):
    """What a column says of a person (as they are told of it)."""

    ID = "your Discord id"
    NAME = "the name you play under"
    PICTURE = "your picture"
    PLACE = "where you played from"
    DM = "your DM channel with the bot"
    TOKEN = "an interaction of yours, to answer through"
    #: Names within a game's saved state or archive record (JSON, compressed or not).
    INSIDE = "your name, within a game's record"
    #: Written when the person's data is deleted, in place of their id (:mod:`.keyed`).
    KEYED = "a keyed hash of your Discord id"


class Request(StrEnum):
    """What *Delete my data* does to a column, in the words of ``docs/running.md``."""

    #: The row goes.
    DELETED = "deleted"
    #: A former player's id, or the name *Former player*, put in its place: the row stays
    #: whole for the other people it is about.
    FORMER = "a former player in their place"
    #: Emptied (NULL, or 0 for a column that may not be NULL).
    CLEARED = "cleared"
    #: Their name replaced by *Former player* inside the record.
    RENAMED = "their name replaced"
    #: Nothing at once: it goes when the game is pruned.
    PRUNED = "goes with the game's pruning"
    #: Kept for the person whose row it is, so that it still holds: a former player's id and
    #: name put in place of theirs, and a keyed hash of their id (the table's ``Holds.KEYED``
    #: column) by which the row still knows them.
    KEYED = "a former player in their place, their id kept as a keyed hash"


class Lasts(Enum):
    """How long something is kept."""

    #: While the game is kept whole: until it is pruned, ``RETENTION_DAYS`` after it ends.
    GAME = "game"
    #: Until the person has it deleted, or the server's data goes (``LEFT_SERVER_DAYS`` after
    #: the bot was removed from it); what was played outside servers, until deleted.
    SERVER = "server"
    #: Until the person has it deleted (it is no server's).
    YOURS = "yours"


@dataclass(frozen=True, slots=True)
class Column:
    """A column that holds something of a person."""

    name: str
    holds: Holds
    request: Request
    #: Why what it holds is not in the person's file ("": it is). For an id, the rows that
    #: name them only there are not sent; for any other column, the column is left out.
    unsent: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """A table that holds a person's data, with the columns that name or describe them (a
    table whose rows are theirs by another key, a game's seat, has none)."""

    name: str
    columns: tuple[Column, ...] = ()
    #: What the person's file calls the rows that name them (None: not sent, ``unsent`` why).
    file: str | None = None
    unsent: str = ""


@dataclass(frozen=True, slots=True)
class Kept:
    """One kind of thing kept about a person, as they are told of it, and where it is."""

    #: What it is, as a heading ("The games you play").
    what: str
    #: What it holds, after the heading (Discord markdown).
    detail: str
    why: str
    lasts: Lasts
    tables: tuple[Table, ...]
    #: Who sees it beyond the person and the players of their games ("": nobody).
    public: str = ""
    #: What of it outlives the person's deletion, kept for another (its ``Request.KEYED``
    #: columns; "": nothing).
    outlives: str = ""


def _ids(request: Request, *names: str) -> tuple[Column, ...]:
    """Columns of people's ids, each treated as ``request`` says."""
    return tuple(Column(name, Holds.ID, request) for name in names)


def _named(request: Request, id_: str = "user_id", name: str = "name") -> tuple[Column, ...]:
    """A person's id and the name beside it, both treated as ``request`` says."""
    return (Column(id_, Holds.ID, request), Column(name, Holds.NAME, request))


#: Everything kept about a person.
INVENTORY: tuple[Kept, ...] = (
    Kept(
        "The games you play",
        "your seat and the name you play under, and each game's result",
        "to run the games you start or join, and to show how each went (its page,"
        " `/cribbage status`)",
        Lasts.SERVER,
        (
            Table(
                "seats",
                _named(Request.FORMER, name="display_name"),
                file="games",
            ),
            Table(
                "results",
                _named(Request.FORMER, name="display_name"),
                file="results",
            ),
            Table(
                "games",
                (
                    Column("creator_id", Holds.ID, Request.FORMER),
                    Column("snapshot", Holds.INSIDE, Request.RENAMED),
                    # How a game ended without a result: "Al cancelled the game."
                    Column("end_note", Holds.INSIDE, Request.RENAMED),
                ),
                unsent="each game they sat in is sent from its seat, as `games`",
            ),
            Table(
                "game_archives",
                (Column("record", Holds.INSIDE, Request.RENAMED),),
                unsent="a game's record holds every player's cards",
            ),
            Table(
                "presence",
                _ids(Request.FORMER, "user_id"),
                unsent="where they sit at a game or search now: the games are sent as `games`",
            ),
            Table(
                "people",
                _ids(Request.FORMER, "id"),
                unsent="their id alone, which every row sent names",
            ),
        ),
    ),
    Kept(
        "Each game's moves and the bot's messages of it",
        "the cards you were dealt, threw and played, and the bot's messages of the game (in"
        " your DMs, their ids, to edit them)",
        "to deal, check and score every move, show each player only their own cards, and keep"
        " the game and its messages going across restarts",
        Lasts.GAME,
        (
            Table("actions", unsent="every player's moves, an opponent's discards among them"),
            Table("dm_refusals", unsent="the deal a seat's DMs were first refused in: the game's"),
            Table(
                "hints_taken",
                unsent="how many hints each seat asked for: the game's, and its result keeps it",
            ),
            Table(
                "messages",
                (
                    Column("channel_id", Holds.DM, Request.PRUNED),
                    Column("token", Holds.TOKEN, Request.PRUNED),
                    # A ranked card's: the search it was drawn from and its player as read.
                    Column("card_user", Holds.ID, Request.PRUNED),
                ),
                unsent="the bot's own messages, by their ids",
            ),
            Table(
                "pending_posts",
                (
                    Column("channel_id", Holds.DM, Request.PRUNED),
                    Column("card_user", Holds.ID, Request.PRUNED),
                ),
                unsent="the bot's own messages, by their ids",
            ),
        ),
    ),
    Kept(
        "Your ratings and records",
        "in each server (and outside servers), worked out from your results, and your head to"
        " head with each opponent",
        "for the leaderboards and `/cribbage stats` you and the other players ask for",
        Lasts.SERVER,
        (
            Table(
                "standings",
                _named(Request.DELETED, "player_id"),
                file="standings",
            ),
            Table(
                "rating_changes",
                _ids(Request.DELETED, "player_id"),
                file="rating_changes",
            ),
            Table(
                "rivals",
                (
                    Column("user_id", Holds.ID, Request.DELETED),
                    Column(
                        "opponent_id",
                        Holds.ID,
                        Request.DELETED,
                        unsent="an opponent's side of the same games",
                    ),
                ),
                file="head_to_head",
            ),
        ),
    ),
    Kept(
        "Reviews of your play",
        "each decision of a finished game beside the expert's",
        "for `/cribbage review` and the line your stats show of it",
        Lasts.SERVER,
        (Table("reviews", _ids(Request.DELETED, "user_id"), file="reviews"),),
    ),
    Kept(
        "Your answers to the discard of the day",
        "and so your streaks",
        "for the day's board in your server",
        Lasts.SERVER,
        (
            Table(
                "daily_answers",
                _named(Request.DELETED),
                file="daily_discards",
            ),
        ),
    ),
    Kept(
        "The tournaments you enter or run",
        "your entry (a club night's Interested and check-in too), your pairings and how each"
        " went, and the tournaments and clubs you organised, won or cancelled",
        "to run each round and show the standings and the champion",
        Lasts.SERVER,
        (
            Table(
                "tournament_entrants",
                _named(Request.FORMER),
                file="tournament_entries",
            ),
            Table(
                "tournament_pairings",
                _ids(Request.FORMER, "player_a", "player_b", "winner"),
                file="tournament_pairings",
            ),
            Table(
                "tournaments",
                _ids(Request.FORMER, "organiser_id", "champion_id", "cancelled_by"),
                file="tournaments",
            ),
            Table("night_people", _named(Request.FORMER), file="club_nights"),
            Table("clubs", _ids(Request.FORMER, "organiser_id"), file="clubs"),
        ),
    ),
    Kept(
        "Your ranked searches (and where you made them) and matches",
        "the name and picture you play under, where you searched from, who you played, how"
        " each match went and your rating in each season",
        "to pair players of like skill wherever they are, show both places each match's tables,"
        " and rank the ladder, whose final standings and champions stay as they were",
        Lasts.YOURS,
        (
            Table(
                "ranked_entries",
                (
                    *_named(Request.FORMER),
                    Column("avatar", Holds.PICTURE, Request.CLEARED),
                    Column("guild_id", Holds.PLACE, Request.CLEARED),
                    Column("channel_id", Holds.PLACE, Request.CLEARED),
                    Column(
                        "last_opponent",
                        Holds.ID,
                        Request.FORMER,
                        unsent="another player's search",
                    ),
                ),
                file="ranked_searches",
            ),
            Table(
                "ranked_matches",
                _ids(Request.FORMER, "player_a", "player_b", "winner", "abandoned_by"),
                file="ranked_matches",
            ),
            Table(
                "ranked_games",
                _ids(Request.FORMER, "winner"),
                unsent="who won each game of a match: the games are sent as `games`",
            ),
            Table(
                "ranked_ratings",
                _named(Request.FORMER),
                file="ranked_ratings",
            ),
        ),
        public="your ranked name and rating are on the ladder, which every server sees",
    ),
    Kept(
        "Your rating changes and whom you blocked",
        "how your ranked rating moved, match by match, and whom you blocked, with their names"
        " (and a block another player made of you)",
        "to rate each match and never pair you with a player you blocked, or who blocked you",
        Lasts.YOURS,
        (
            Table(
                "ranked_changes",
                _ids(Request.DELETED, "user_id"),
                file="ranked_rating_changes",
            ),
            Table(
                "ranked_blocks",
                (
                    Column("user_id", Holds.ID, Request.DELETED),
                    Column(
                        "blocked_id",
                        Holds.ID,
                        Request.KEYED,
                        unsent="another player's block is theirs",
                    ),
                    Column("name", Holds.NAME, Request.KEYED),
                    Column(
                        "blocked_key",
                        Holds.KEYED,
                        Request.KEYED,
                        unsent="a player you blocked who had their data deleted: theirs",
                    ),
                ),
                file="ranked_blocks",
            ),
        ),
        outlives="a block of you",
    ),
    Kept(
        "Your settings (the coach, your DM channel)",
        "the coach on or off, when `/cribbage help` offered you a first game to learn on, and"
        " the DM channel your hands are sent to, with your latest interaction there (Discord"
        " lets it be used for 15 minutes)",
        "to send your hands to you and answer in your DMs",
        Lasts.YOURS,
        (
            Table("user_settings", _ids(Request.DELETED, "user_id"), file="settings"),
            Table(
                "dm_links",
                (
                    Column("user_id", Holds.ID, Request.DELETED),
                    Column("channel_id", Holds.DM, Request.DELETED),
                    Column(
                        "token",
                        Holds.TOKEN,
                        Request.DELETED,
                        unsent="a credential, dead within 15 minutes",
                    ),
                ),
                file="dm_link",
            ),
        ),
    ),
    Kept(
        "The servers you were seen in",
        "when a move you made by DM had to be checked against a server's members, and when",
        "so that a game of a server is played by its members, without asking Discord each time",
        Lasts.SERVER,
        (
            Table(
                "members_seen",
                _ids(Request.DELETED, "user_id"),
                file="seen_in_servers",
            ),
        ),
    ),
)

#: Columns that may look like a person's (a Discord id, a name) but hold no one's: by column
#: name in every table, or ``table.column``. The tables of the bot's own running (its
#: processes, leases, migrations) name no person at all.
NOBODYS: Mapping[str, str] = {
    "id": "a row's own number",
    "game_id": "a game",
    "match_id": "a ranked match",
    "tournament_id": "a tournament",
    "club_id": "a club of nights",
    "night_id": "a club's night",
    "event_id": "a server's scheduled event",
    "voice_id": "a voice channel",
    "clubs.name": "a club's name, as its moderator named it",
    "nights.note": "why a night was called off (it names nobody)",
    "entry_a": "a ranked search (its row)",
    "entry_b": "a ranked search (its row)",
    "entry_id": "a ranked search (its row)",
    "card_entry": "a ranked search (its row), whose card a message is",
    "guild_id": "a server",
    "channel_id": "a channel, thread or DM as the place of a game or message",
    "thread_id": "a tournament's thread",
    "post_id": "a tournament's message",
    "message_id": "one of the bot's messages",
    "owner": "what a message is of (a game, a tournament, a ranked match's place)",
    "num_players": "how many seats a game has",
    "ranked_games.ended_by": "how a game of a match ended",
    "games.rematch_of": "the game whose rematch a game is",
    "games.series": "the first game of a game's series",
    "daily_secrets.secret": "a server's secret for the discard of the day",
    "bot_processes.holder": "a process of the bot",
    "bot_processes.host": "a machine the bot runs on",
    "leases.name": "a lease's name",
    "leases.holder": "a process of the bot",
    "schema_migrations.name": "a migration",
    "bot_secrets.name": "one of the bot's secrets",
    "user_settings.version": "which change of a coach setting this is (at least its time)",
}


@dataclass(frozen=True, slots=True)
class Figures:
    """This bot's figures, which say how long things are kept."""

    #: How long an ended game is kept whole (``RETENTION_DAYS``).
    retention: timedelta
    #: How long a game nobody moves in lasts (``IDLE_EXPIRY_DAYS``).
    idle_expiry: timedelta
    #: How long a server's data outlives the bot's removal from it (``LEFT_SERVER_DAYS``).
    grace: timedelta


def how_long(lasts: Lasts, figures: Figures) -> str:
    """How long something that ``lasts`` so is kept, with this bot's figures."""
    match lasts:
        case Lasts.GAME:
            return (
                f"kept whole for {period(figures.retention)} after the game ends, then only"
                " its results and a compact record of its moves"
            )
        case Lasts.SERVER:
            return (
                "kept until you delete your data, or the server's data goes"
                f" ({period(figures.grace)} after the bot leaves it)"
            )
        case Lasts.YOURS:
            return "kept until you delete your data"


def command_lines(figures: Figures) -> list[str]:
    """What ``/cribbage privacy`` says is kept and for how long (a line each, by how long),
    and who else sees what is public."""
    lines = []
    for lasts in (Lasts.SERVER, Lasts.GAME, Lasts.YOURS):
        which = [kept.what for kept in INVENTORY if kept.lasts is lasts]
        listed = _listed(which)
        lines.append(f"• {listed[0].upper()}{listed[1:]}: {how_long(lasts, figures)}.")
    lines += [_sentence(kept.public) for kept in INVENTORY if kept.public]
    return lines


#: What becomes of what outlives a person's deletion (:attr:`Kept.outlives`), in their words.
_KEYED_KEPT = (
    "kept for whoever made it, so that it still holds, with you shown as a former player and"
    " your id as a keyed hash (which can't be turned back into your id, but knows you should"
    " you search again)"
)


def policy_lines(figures: Figures) -> tuple[str, ...]:
    """What the privacy policy's page says is kept: one line each (Discord markdown, which
    the page draws), what it holds, who else sees it, why and how long (and what of it
    outlives the person's deletion)."""
    lines = []
    for kept in INVENTORY:
        line = f"**{kept.what}**: {kept.detail}."
        if kept.public:
            line += f" {_sentence(kept.public)}"
        line += f" Why: {kept.why}. How long: {how_long(kept.lasts, figures)}."
        if kept.outlives:
            line += f" Once you delete your data, {kept.outlives} is {_KEYED_KEPT}."
        lines.append(line)
    return tuple(lines)


def public_lines() -> tuple[str, ...]:
    """Who sees what beyond a person and the players of their games, a sentence each."""
    return tuple(_sentence(kept.public) for kept in INVENTORY if kept.public)


def _sentence(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}."


def request_of(kept: Kept) -> Request:
    """What *Delete my data* does to ``kept`` as a whole: :attr:`Request.DELETED` (it goes),
    :attr:`Request.FORMER` (it stays for the other people it is about, a former player in
    the person's place, what else it said of them cleared or renamed) or
    :attr:`Request.PRUNED` (it goes with each game's pruning). What of it outlives the
    person's deletion for another (:attr:`Request.KEYED`, :attr:`Kept.outlives`) is said
    apart."""
    requests = {c.request for t in kept.tables for c in t.columns} - {Request.KEYED}
    if Request.FORMER in requests:
        return Request.FORMER
    if requests == {Request.DELETED}:
        return Request.DELETED
    return Request.PRUNED


def deletion() -> str:
    """What *Delete my data* does, once confirmed and the open games ended: what goes, what
    stays for others (what of a kind of thing outlives it among them), what goes later
    (sentences)."""
    gone = [k.what for k in INVENTORY if request_of(k) is Request.DELETED]
    stay = [k.what for k in INVENTORY if request_of(k) is Request.FORMER]
    later = [k.what for k in INVENTORY if request_of(k) is Request.PRUNED]
    stay += [f"{k.outlives} (your id in it a keyed hash)" for k in INVENTORY if k.outlives]
    cleared = {c.holds.value: None for c in _columns() if c.request is Request.CLEARED}
    return (
        f"Deleted: {_listed(gone)}. Kept for the other players, with you shown as a former"
        f" player ({_listed(list(cleared), last=' and ')} cleared): {_listed(stay)}. Gone as"
        f" each game is pruned: {_listed(later)}."
    )


def _listed(items: list[str], last: str = "; ") -> str:
    """Items in a sentence, lower case: separated by semicolons (an item may hold an "and"
    of its own), or the last joined by ``last``."""
    lowered = [item[0].lower() + item[1:] for item in items]
    if len(lowered) < 2:
        return "".join(lowered)
    return "; ".join(lowered[:-1]) + last + lowered[-1]


# -- what the store and the tests read -------------------------------------------------------
def _tables() -> list[Table]:
    return [table for kept in INVENTORY for table in kept.tables]


def _columns() -> list[Column]:
    return [column for table in _tables() for column in table.columns]


def person_columns() -> dict[str, dict[str, Column]]:
    """Every column that holds something of a person, by table."""
    found: dict[str, dict[str, Column]] = {}
    for table in _tables():
        for column in table.columns:
            found.setdefault(table.name, {})[column.name] = column
    return found


def columns_for(request: Request) -> dict[str, list[Column]]:
    """The columns *Delete my data* treats so, by table, in the inventory's order."""
    found: dict[str, list[Column]] = {}
    for table in _tables():
        for column in table.columns:
            if column.request is request:
                found.setdefault(table.name, []).append(column)
    return found


def file_tables() -> list[Table]:
    """The tables whose rows naming a person are sent in their file."""
    return [table for table in _tables() if table.file is not None]


def not_sent() -> dict[str, str]:
    """What a person's file leaves out, and why: by table, or ``table.column``."""
    found = {table.name: table.unsent for table in _tables() if table.file is None}
    for table in file_tables():
        found |= {f"{table.name}.{c.name}": c.unsent for c in table.columns if c.unsent}
    return found


def tables_lasting(lasts: Lasts) -> list[Table]:
    """The tables of what is kept so long."""
    return [table for kept in INVENTORY if kept.lasts is lasts for table in kept.tables]


def docs_table() -> str:
    """The table ``docs/running.md`` shows under *Players' data* (a test checks it is this):
    each table holding a person's data, what is kept in it, how long, its name in their file,
    and what their deletion does to each column."""
    lasting = {
        Lasts.GAME: "until the game is pruned",
        Lasts.SERVER: "until deleted, or the server's data goes",
        Lasts.YOURS: "until deleted",
    }
    rows = [
        "| table | what (as the person is told) | kept | in their file as | *Delete my data* |",
        "| --- | --- | --- | --- | --- |",
    ]
    for kept in INVENTORY:
        for table in kept.tables:
            file = f"`{table.file}`" if table.file else "not sent"
            done = "; ".join(f"`{c.name}`: {c.request}" for c in table.columns) or "-"
            rows.append(
                f"| `{table.name}` | {kept.what.lower()} | {lasting[kept.lasts]} | {file} |"
                f" {done} |"
            )
    return "\n".join(rows)
