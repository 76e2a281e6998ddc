"""What a person's Discord status says while they are at the table: the rich presence the page
sets with the SDK's ``setActivity`` (a partial activity object), drawn from the stored game for
one reader, or None for none (no game open at the table: it is cleared).

It names the game and where it stands, and nothing private: the variant ("Cribbage",
"Six-hand cribbage"), the deal and the scores, the reader's side first when they play ("deal 4
· 63–58"), or that the lobby waits to deal; whether they play or watch; the party (the seats
taken of the table's seats: Discord shows "(2 of 4)"); and since when (the game's opening). No
card, no name of a player, a server or a tournament (a ranked game's opponent plays from
another server: nothing of theirs is in it).

>>> from bot.core.games.records import GameStatus, Options, SeatRecord
>>> lobby = GameRecord(7, 5, 9, GameStatus.LOBBY, 10, Options(4, 121), None, 1, 1700000000.0,
...                    1700000000.0, (SeatRecord(0, 10, "Al"), SeatRecord(1, 11, "Bea")))
>>> presence_of(lobby, None, 10)["details"], presence_of(lobby, None, 10)["party"]["size"]
('Cribbage · waiting to deal', [2, 4])
"""

from __future__ import annotations

from typing import Any

from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord, GameStatus
from engine.variants import named, title_unless_standard

__all__ = ["PLAYING", "WATCHING", "presence_of"]

#: The activity types a presence is set with (SET_ACTIVITY takes Playing, Listening, Watching
#: and Competing): a player's, and a watcher's.
PLAYING, WATCHING = 0, 3


def presence_of(
    record: GameRecord | None, loaded: Loaded | None, viewer: int
) -> dict[str, Any] | None:
    """The presence ``viewer`` has at ``record``'s table (None: no game open there)."""
    if record is None or record.status not in (GameStatus.LOBBY, GameStatus.ACTIVE):
        return None
    title = title_unless_standard(named(record.options.variant)) or "Cribbage"
    seat = record.seat_of(viewer)
    presence: dict[str, Any] = {
        "type": PLAYING,
        "details": f"{title} · waiting to deal",
        "state": "In the lobby",
        # (Not secret: Discord groups the people of one party by it.)
        "party": {
            "id": f"cribbage-{record.id}",
            "size": [len(record.seats), record.options.num_players],
        },
        # Milliseconds, as the activity object's timestamps are.
        "timestamps": {"start": int(record.created_at * 1000)},
    }
    if record.status is GameStatus.LOBBY or loaded is None:
        return presence
    view = loaded.game.public_view()
    sides = list(range(view.num_sides))
    if seat is not None:
        # A player's own side first: "63–58" is their 63.
        mine = view.sides[seat]
        sides = [mine, *(s for s in sides if s != mine)]
    scores = "–".join(str(view.scores[s]) for s in sides)
    presence.update(
        type=PLAYING if seat is not None else WATCHING,
        details=f"{title} · deal {view.deal_number} · {scores}",
        state="Playing" if seat is not None else "Watching",
    )
    return presence
