"""``/cribbage privacy``: what the bot keeps about a person and for how long, a file of all of
it sent to them alone, and its deletion once they confirm.

Deleting a person's data: first every game they sit in is ended as they would end it (a game
being played is resigned, a loss; a lobby is left), and they leave the tournaments they are
in (withdrawn from a running one), so no table or round waits on them. Then, in one
transaction (:meth:`~bot.core.privacy.records.PrivacyRecords.forget_player`), what is theirs
alone goes (settings, DM link, standings, rating changes, head to head, reviews of their play,
daily answers), and in what stays whole for other people (the games they played, with every
move, their results, the tournaments they were in) they become a *former player*: an id drawn
from :data:`~bot.core.games.records.FORMER_PLAYERS` in place of theirs and the name
:data:`FORMER_NAME`, in the games' saved states, archive records and end notes too; a block
another player made of them stays so, their id kept only as a keyed hash (:mod:`.keyed`), and
still holds when they search again. Their opponents' ratings stay as they were and a replay of
every result still gives them (``python -m bot ratings --check``); the former player's own
are not kept.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import zipfile
import zlib
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.base.entry import answers
from bot.core.base.faults import Faults
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer, User
from bot.core.base.text import period, plural
from bot.core.base.views import ConfirmControls, MessageView, PrivacyControls
from bot.core.games.endings import Ending
from bot.core.games.games import Games
from bot.core.games.records import former_player
from bot.core.privacy.inventory import Figures, command_lines, deletion, not_sent
from bot.core.privacy.keyed import fresh_secret
from bot.core.privacy.records import FormerPlayer, PrivacyRecords

__all__ = [
    "FORMER_NAME",
    "DataFile",
    "PlayerData",
    "renamed_archive",
    "renamed_note",
    "renamed_snapshot",
]

#: How a player who had their data deleted is shown in the games they played.
FORMER_NAME = "Former player"
#: The largest file sent (Discord's limit for an attachment, 10 MiB, less room to spare).
FILE_LIMIT = 9 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class DataFile:
    """Everything kept about a person, as a file to send them: its name, its bytes, and one
    line to send with it."""

    filename: str
    data: bytes
    line: str


def renamed_snapshot(text: str, seats: Sequence[int], name: str = FORMER_NAME) -> str:
    """A game's saved state with the names of ``seats`` replaced by ``name`` (text that is not
    a snapshot this code knows is left as it is)."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    game = data.get("game") if isinstance(data, dict) else None
    players = game.get("players") if isinstance(game, dict) else None
    if not isinstance(players, list):
        return text
    for seat in seats:
        if 0 <= seat < len(players):
            players[seat] = name
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _said(typed: str) -> str:
    """A pattern for a name as a note says it: as typed, or with any of its marks escaped with
    a backslash (as :func:`~bot.core.base.text.escape` writes it, or wrote it in the note's
    time, when it escaped fewer of them)."""
    return "".join(
        re.escape(ch) if ch.isalnum() or ch.isspace() else rf"\\?{re.escape(ch)}" for ch in typed
    )


def renamed_note(text: str, user_id: int, names: Iterable[str], name: str = FORMER_NAME) -> str:
    """A game's end note (how it ended without a result, as its channel was told) with each
    mention of ``user_id`` and each of ``names`` (as a note says them: escaped, or as typed)
    replaced by ``name``, in one pass, a name replaced only where it stands as a whole.

    >>> renamed_note("Al left and closed the lobby.", 1, ["Al"])
    'Former player left and closed the lobby.'
    >>> renamed_note("The tournament was cancelled by <@1>: Alba wins.", 1, ["Al"])
    'The tournament was cancelled by Former player: Alba wins.'
    """
    forms = [_said(typed) for typed in sorted(set(names), key=len, reverse=True) if typed]
    mention = rf"<@!?{user_id}>"
    if not forms:
        return re.sub(mention, name, text)
    return re.sub(rf"{mention}|(?<!\w)(?:{'|'.join(forms)})(?!\w)", name, text)


def renamed_archive(record: bytes, seats: Sequence[int], name: str = FORMER_NAME) -> bytes:
    """A game's archive record with the names of ``seats`` replaced by ``name``."""
    try:
        data = json.loads(zlib.decompress(record))
    except (zlib.error, ValueError):
        return record
    if not isinstance(data, dict):
        return record
    players = data.get("players")
    if isinstance(players, list):
        for seat in seats:
            if 0 <= seat < len(players):
                players[seat] = name
    elif isinstance(data.get("snapshot"), str):
        data["snapshot"] = renamed_snapshot(data["snapshot"], seats, name)
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), level=9)


class PlayerData:
    """``/cribbage privacy`` and what its buttons do."""

    def __init__(
        self,
        store: PrivacyRecords,
        games: Games,
        *,
        resign: Callable[[int, User, Ending], Awaitable[Answer]],
        leave: Callable[[int, User], Awaitable[Answer]],
        withdraw: Callable[[int, User], Awaitable[Answer]],
        settle: Callable[[Answer], Awaitable[None]],
        quit_ranked: Callable[[User], Awaitable[Answer]] | None = None,
        forgotten: Callable[[int], None],
        retention: timedelta,
        idle_expiry: timedelta,
        grace: timedelta,
        policy_url: str | None = None,
        contact: str | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        draw: Callable[[int], int] = secrets.randbelow,
    ) -> None:
        """``resign`` and ``leave``: a player's resignation of the game being played in a
        channel (its ending given: their data deleted), and their leaving its lobby;
        ``withdraw``: their withdrawal from the tournament of a channel (leaving it, before it
        starts); ``settle``: what is done with such an answer (none reached anyone);
        ``quit_ranked``: their ranked search stopped, or their ranked match left (a loss), at
        once; ``forgotten``: what is kept in memory of a person whose data was deleted, let
        go; ``retention``, ``idle_expiry`` and ``grace``: how long ended games are kept whole,
        idle ones last, and a server's data outlives the bot's leaving; ``policy_url``: the
        privacy policy's address; ``contact``: how to reach whoever runs the bot."""
        self._store = store
        self._games = games
        self._resign, self._leave, self._settle = resign, leave, settle
        self._withdraw = withdraw
        self._quit_ranked = quit_ranked
        self._forgotten = forgotten
        self._figures = Figures(retention, idle_expiry, grace)
        self._policy, self._contact = policy_url, contact
        self._clock, self._draw = clock, draw
        self.faults: Faults = games.faults

    def words(self) -> str:
        """What ``/cribbage privacy`` says (drawn from :mod:`bot.core.privacy.inventory`)."""
        figures = self._figures
        lines = [
            "**What this bot keeps about you, and for how long**",
            *command_lines(figures),
            "It reads none of your messages and keeps no list of a server's members. A game"
            f" nobody moves in for {period(figures.idle_expiry)} is ended.",
            "**Send me my data**: a file of all of it, sent here to you alone.",
            "**Delete my data**: once you confirm, a game you are playing is resigned first."
            f" {deletion()}",
        ]
        if self._policy is not None:
            lines.append(f"Privacy policy: {self._policy}")
        if self._contact is not None:
            lines.append(f"Questions: {self._contact}")
        return "\n".join(lines)

    @answers
    async def explain(self, user: User) -> Answer:
        """``/cribbage privacy``: what is kept and for how long, privately, with the buttons
        that send the file and that delete it."""
        view = MessageView(self.words(), controls=PrivacyControls(user.id))
        return Answer.say(view.content, view=view)

    @answers
    async def ask_forget(self, subject: int, user: User) -> Answer:
        """*Delete my data*: the question, in place, with Yes and No; nothing changes yet."""
        _own(subject, user)
        question = (
            "Delete everything this bot keeps about you? First a game you are playing is"
            " resigned (a loss), a lobby you sit in is left, you withdraw from the tournaments"
            f" you are in, and a ranked search stops (a ranked match is left, a loss). {deletion()}"
            " This can't be taken back."
        )
        view = MessageView(question, controls=ConfirmControls(user.id, "forget"))
        return Answer(Answer.say(question).reply, update=view)

    @answers
    async def confirm_forget(self, subject: int, user: User, yes: bool) -> Answer:
        """The answer to :meth:`ask_forget`: Yes ends their open games and deletes their data
        (the question's message says what was done), No keeps it."""
        _own(subject, user)
        if not yes:
            return Answer.in_place("Nothing was deleted.")
        if self._quit_ranked is not None:
            # (A ranked match left is lost; its game still open is resigned below.)
            quit_ranked = await self._quit_ranked(user)
            await self._settle(quit_ranked)
        ended = 0
        for game_id, channel_id, status in await self._store.open_seats(user.id):
            if status == "active":
                # (Their game's result says why it ended: their data was deleted.)
                answer = await self._resign(channel_id, user, Ending.DELETED)
            else:
                answer = await self._leave(channel_id, user)
            await self._settle(answer)
            if not answer.ok and await self._still_seated(game_id, user.id):
                raise Refused(
                    f"Your game in <#{channel_id}> could not be ended ({answer.reply.text}),"
                    " so nothing was deleted: end it there, then ask again."
                )
            ended += 1
        for channel_id in await self._store.open_entries(user.id):
            answer = await self._withdraw(channel_id, user)
            await self._settle(answer)
            if not answer.ok:
                raise Refused(
                    f"You could not be withdrawn from the tournament in <#{channel_id}>"
                    f" ({answer.reply.text}), so nothing was deleted: withdraw there, then ask"
                    " again."
                )
        former = FormerPlayer(
            former_player(self._draw),
            FORMER_NAME,
            renamed_snapshot,
            renamed_archive,
            lambda note, names: renamed_note(note, user.id, (user.name, *names)),
        )
        forgotten = await self._store.forget_player(user.id, former, fresh_secret=fresh_secret())
        games = forgotten.games
        for game_id in games:
            self._games.loaded.drop(game_id)  # (a copy in memory still has their name)
        for change in forgotten.changes:
            self._games.feed.publish(change)  # (a tournament's message named them)
        self._forgotten(user.id)
        said = "Your data is deleted."
        if ended:
            said += f" {ended} game{'s were' if ended > 1 else ' was'} ended first."
        if games:
            kept = (
                "game you played stays"
                if len(games) == 1
                else f"{len(games)} games you played stay"
            )
            said += f" The {kept} for your opponents, with you shown as a former player."
        return replace(Answer.in_place(said), forgotten=True)

    async def _still_seated(self, game_id: int, user_id: int) -> bool:
        """Whether ``user_id`` still sits at the open game ``game_id``: a game ended meanwhile
        by someone else (the referee resigning a ranked game its player just left) needs no
        ending from them."""
        return any(game == game_id for game, _, _ in await self._store.open_seats(user_id))

    async def data_file(self, user: User) -> DataFile:
        """Everything kept about ``user``, as a ZIP file holding one JSON file (the reviews'
        every decision left out when the whole would not fit in one Discord attachment)."""
        found = await self._store.player_data(user.id)
        about: dict[str, Any] = {
            "user_id": user.id,
            "made_at": self._clock().isoformat(timespec="seconds"),
            "about": (
                "Everything this cribbage bot keeps about you, table by table. Times are"
                " seconds since 1970-01-01 UTC. The games you sat in are kept whole for your"
                " opponents too (their moves are theirs)."
            ),
            "not_in_this_file": not_sent(),
        }
        data = _zipped({**about, **found})
        if len(data) > FILE_LIMIT:
            for review in found.get("reviews", []):
                review.pop("data", None)
            about["left_out"] = "Each review's decision by decision (too large for one file)."
            data = _zipped({**about, **found})
        kept = sum(len(rows) for rows in found.values())
        line = (
            f"Everything this bot keeps about you: {plural(kept, 'record')}, in"
            f" {plural(len(found['games']), 'game')} and the rest (a ZIP file holding one JSON"
            " file)."
        )
        return DataFile(f"cribbage-data-{user.id}.zip", data, line)


def _own(subject: int, user: User) -> None:
    """Refuse a click on someone else's privacy buttons."""
    if subject != user.id:
        raise Refused("These buttons are someone else's: use `/cribbage privacy` for yours.")


def _zipped(content: dict[str, Any]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("cribbage-data.json", json.dumps(content, indent=1, ensure_ascii=False))
    return out.getvalue()
