"""A click's answer heard out of step with what this process sent of the same message: made by
another process and heard after this process edited the message for a later move, or heard
before the record of the message's post came (the player clicked it the moment it was posted,
while the keeper was still sending the rest). Either way that answer may land after what this
process sent (Discord applies whichever arrives last), so the message is taken as showing the
answer until it is known to have landed, and the keeper edits it again then. Forgotten, the
player is left with the older look and no controls while the game waits on them (seen with
two processes in ``benchmarks/bot_load.py``).

And this process's own answers heard to land late: after the player clicked the message again
(the last Join's landing, heard once the Start was answered, confirms the Join's look alone),
or with an edit waiting on them (sent the moment the answer is heard)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

import pytest

from bot.core.base.delivery import AnswerKept
from bot.core.base.faults import Faults
from bot.core.base.feed import Change, ChangeFeed
from bot.core.base.keys import MessageKey
from bot.core.base.owners import Owner
from bot.core.base.replies import Clicked, Sequel
from bot.core.base.timing import REQUEST_LANDS_WITHIN
from bot.core.base.views import MessageRecord
from bot.core.ledger import MessageLedger
from bot.core.ledger.life import Send, answer_record
from bot.core.ledger.transport import Attempt, Way

OWNER = Owner.game(7)
NOW = datetime(2026, 3, 1, tzinfo=UTC)
#: The play's controls, which this process (the one that sends) put on the hand at version 5.
PLAY = MessageRecord(MessageKey.parse("hand:1:0"), 900, 5001, "digest-of-the-play", version=5)


class Store:
    """Keeps what it is told, and nothing of the other process's writes."""

    def __init__(self) -> None:
        self.rows: dict[MessageKey, MessageRecord] = {}

    async def messages(self, owner: Owner) -> dict[MessageKey, MessageRecord]:
        return dict(self.rows)

    async def set_messages(
        self, records: Sequence[tuple[Owner, MessageRecord]], *, posted: Sequence[Any] = ()
    ) -> None:
        self.rows.update({record.key: record for _, record in records})


def _answer(version: int) -> MessageRecord:
    """The discard's answer another process sends to the hand, kept with its move."""
    return MessageRecord(
        PLAY.key,
        900,
        5001,
        "digest-of-the-answer",
        "token-of-the-click",
        NOW.timestamp(),
        True,
        version,
        unconfirmed_since=NOW.timestamp(),
    )


def _told(record: MessageRecord) -> AnswerKept:
    """A click's answer as the wing that kept it tells the ledger (of which the ledger makes
    ``record`` again)."""
    assert record.token is not None and record.unconfirmed_since is not None
    clicked = Clicked(record.channel_id, record.message_id, record.token)
    told = AnswerKept(record.key, clicked, record.digest, record.version, record.unconfirmed_since)
    assert answer_record(told) == record
    return told


async def _sender() -> tuple[ChangeFeed, MessageLedger]:
    feed = ChangeFeed()
    ledger = MessageLedger(Store(), feed, lambda: NOW, shared=True, faults=Faults())  # type: ignore[arg-type]
    await ledger.shown.kept(OWNER)  # drawn once: from then on kept in memory with every change
    await ledger.shown.sent(OWNER, [PLAY])
    assert (await ledger.shown.kept(OWNER))[PLAY.key] == PLAY
    return feed, ledger


async def test_an_older_answer_from_another_process_heard_late_is_taken_as_shown() -> None:
    feed, ledger = await _sender()
    ledger.answers.answer_kept_elsewhere(OWNER, _answer(4))
    feed.publish(Change(OWNER, 4, 900))
    kept = (await ledger.shown.kept(OWNER))[PLAY.key]
    assert kept == _answer(4), "the hand may show the answer: it is edited again once it lands"
    assert not ledger.answers.sends_answer(OWNER, kept), "the other process sends it"


async def test_a_later_answer_from_another_process_is_kept_as_before() -> None:
    feed, ledger = await _sender()
    ledger.answers.answer_kept_elsewhere(OWNER, _answer(6))
    feed.publish(Change(OWNER, 6, 900))
    assert (await ledger.shown.kept(OWNER))[PLAY.key] == _answer(6)


async def test_an_answer_of_this_process_never_replaces_a_later_look() -> None:
    # This process hears its own moves as it saves them: an older answer of its own is one
    # it made before that later look, and has been accounted for.
    feed, ledger = await _sender()
    ledger.answers.answer_kept(OWNER, _told(_answer(4)))
    feed.publish(Change(OWNER, 4, 900))
    assert (await ledger.shown.kept(OWNER))[PLAY.key] == PLAY


#: The hand of a new deal as posted at version 3, its record still to come (the keeper is
#: sending the rest of the game's messages).
POSTED = MessageRecord(
    MessageKey.parse("hand:1:0"), 900, 5001, "digest-of-the-discard-menu", version=3
)


async def _posting() -> tuple[ChangeFeed, MessageLedger]:
    feed = ChangeFeed()
    ledger = MessageLedger(Store(), feed, lambda: NOW, shared=True, faults=Faults())  # type: ignore[arg-type]
    await ledger.shown.kept(OWNER)
    return feed, ledger


@pytest.mark.parametrize("elsewhere", [True, False], ids=["other process", "this process"])
async def test_an_answer_to_a_post_heard_before_its_record_is_kept_over_it(
    elsewhere: bool,
) -> None:
    feed, ledger = await _posting()
    if elsewhere:
        ledger.answers.answer_kept_elsewhere(OWNER, _answer(4))
    else:
        ledger.answers.answer_kept(OWNER, _told(_answer(4)))
    feed.publish(Change(OWNER, 4, 900))
    await ledger.shown.sent(OWNER, [POSTED])
    assert (await ledger.shown.kept(OWNER))[POSTED.key] == _answer(4)
    assert ledger.answers.sends_answer(OWNER, _answer(4)) is not elsewhere


async def test_an_answer_to_a_private_copy_heard_before_the_post_is_dropped() -> None:
    feed, ledger = await _posting()
    copy = dataclasses.replace(_answer(4), message_id=7777)  # /cribbage hand's copy, clicked
    ledger.answers.answer_kept_elsewhere(OWNER, copy)
    feed.publish(Change(OWNER, 4, 900))
    await ledger.shown.sent(OWNER, [POSTED])
    assert (await ledger.shown.kept(OWNER))[POSTED.key] == POSTED


async def _answer_heard_while_editing() -> tuple[ChangeFeed, MessageLedger]:
    """The hand was posted (at version 3); the keeper draws version 5 and edits the hand, and
    the discard's answer (version 4) is heard while that edit is on its way."""
    feed, ledger = await _posting()
    await ledger.shown.sent(OWNER, [POSTED])
    ledger.answers.answer_kept_elsewhere(OWNER, _answer(4))
    feed.publish(Change(OWNER, 4, 900))
    return feed, ledger


async def test_an_edit_made_while_an_answer_to_it_was_heard_of_is_taken_as_overwritten() -> None:
    _, ledger = await _answer_heard_while_editing()
    await ledger.shown.sent(OWNER, [dataclasses.replace(PLAY, version=5)])
    kept = (await ledger.shown.kept(OWNER))[PLAY.key]
    assert kept == _answer(4), "the answer may land over the edit: edited again once it has"


async def test_an_edit_made_through_the_answers_own_token_is_what_the_message_shows() -> None:
    # The courier edits through the answer's token once it knows of that answer: the edit
    # reaches the message only after the answer has landed.
    _, ledger = await _answer_heard_while_editing()
    edited = dataclasses.replace(_answer(4), digest=PLAY.digest, version=5, unconfirmed_since=None)
    await ledger.shown.sent(OWNER, [edited])
    assert (await ledger.shown.kept(OWNER))[PLAY.key] == edited


#: A private table's lobby: Bea's Join answered (version 1), then Al's Start (version 2) made
#: the moment Bea's Join showed on Discord, before this process heard that answer land.
LOBBY = MessageRecord(
    MessageKey.parse("lobby"), 900, 5002, "digest-of-the-lobby-when-open", version=0
)


def _lobby_answer(version: int, token: str) -> MessageRecord:
    return dataclasses.replace(
        LOBBY,
        digest=f"digest-of-the-lobby-at-{version}",
        token=token,
        token_at=NOW.timestamp(),
        original=True,
        version=version,
        unconfirmed_since=NOW.timestamp(),
    )


def _landed(version: int, token: str, *, kept: bool = True) -> tuple[Sequel, bool, Clicked]:
    """The answer of ``version`` (through ``token``; ``kept`` with its move) landed."""
    sequel = Sequel(OWNER, 900, version, LOBBY.key, kept=kept)
    return sequel, True, Clicked(900, LOBBY.message_id, token)


async def test_an_answer_heard_to_land_after_a_later_click_leaves_that_ones_on_its_way() -> None:
    # On the internet an answer's way back takes as long as its way there: the player sees
    # the Join and presses Start before the bot hears the Join landed. Taken as the Start's
    # landing, the lobby was edited through the Start's token before Discord knew its webhook
    # (404 / 10015), and a private table's table was posted again below the lobby.
    feed = ChangeFeed()
    store = Store()
    ledger = MessageLedger(store, feed, lambda: NOW, faults=Faults())  # type: ignore[arg-type]
    await ledger.shown.kept(OWNER)
    await ledger.shown.sent(OWNER, [LOBBY])
    join, start = _lobby_answer(1, "token-of-the-join"), _lobby_answer(2, "token-of-the-start")
    for answer in (join, start):
        ledger.answers.answer_kept(OWNER, _told(answer))
        feed.publish(Change(OWNER, answer.version, 900))
    await ledger.answers.answered(*_landed(1, "token-of-the-join"), join.digest)
    kept = (await ledger.shown.kept(OWNER))[MessageKey.parse("lobby")]
    assert kept == start and ledger.answers.sends_answer(OWNER, kept), "the Start's is on its way"
    # /cribbage new's answer (version 0, not kept with a move) heard last of all says where
    # the lobby is, and nothing of what it shows now.
    await ledger.answers.answered(*_landed(0, "token-of-the-command", kept=False), LOBBY.digest)
    await ledger.writes.flush()
    assert (await ledger.shown.kept(OWNER))[MessageKey.parse("lobby")] == start
    assert store.rows[LOBBY.key].token != "token-of-the-command", "nor writes it down"
    await ledger.answers.answered(*_landed(2, "token-of-the-start"), start.digest)
    assert (await ledger.shown.kept(OWNER))[MessageKey.parse("lobby")] == dataclasses.replace(
        start, unconfirmed_since=None
    )


@pytest.mark.parametrize("waited", [True, False], ids=["a send waited", "nothing waited"])
async def test_a_send_that_waited_on_this_processs_answer_is_drawn_again_the_moment_it_lands(
    waited: bool,
) -> None:
    # A private table's Start is answered "The game has started." and the lobby then edited
    # into the table, at the same version: nothing newer says to draw it again, and the table
    # waited for the hold's timer (half a second; most of a start's wait on the internet).
    feed = ChangeFeed()
    ledger = MessageLedger(Store(), feed, lambda: NOW, faults=Faults())  # type: ignore[arg-type]
    await ledger.shown.kept(OWNER)
    await ledger.shown.sent(OWNER, [LOBBY])
    start = _lobby_answer(2, "token-of-the-start")
    ledger.answers.answer_kept(OWNER, _told(start))
    feed.publish(Change(OWNER, 2, 900))
    if waited:
        assert ledger.answers.sends_answer(OWNER, start)  # (asked by the route that holds the edit)
    heard: list[Change] = []
    feed.subscribe(heard.append)
    await ledger.answers.answered(*_landed(2, "token-of-the-start"), start.digest)
    assert heard == ([Change(OWNER, 2, 900)] if waited else [])


#: The turn's look (version 5) the keeper sends to the hand, and the answer to the click made on
#: it (version 6), heard while that send was on its way.
def _clicked_on_the_turn() -> MessageRecord:
    return dataclasses.replace(_answer(6), seen=5)


async def test_an_edit_whose_look_the_click_was_made_on_landed_before_that_click() -> None:
    # The message showed an older look (4) when the turn's look went: a click made on the
    # turn's look was made after that edit landed, so its answer lands after it (issue 46).
    feed, ledger = await _posting()
    await ledger.shown.sent(OWNER, [dataclasses.replace(PLAY, version=4)])
    ledger.shown.sending_look(OWNER, PLAY.key, 5)
    ledger.answers.answer_kept_elsewhere(OWNER, _clicked_on_the_turn())
    feed.publish(Change(OWNER, 6, 900))
    await ledger.shown.sent(OWNER, [PLAY])
    assert (await ledger.shown.kept(OWNER))[PLAY.key] == _clicked_on_the_turn()


async def test_an_edit_drawing_again_a_look_the_message_may_show_may_land_over_its_click() -> None:
    # After a restart: the answer that gave the turn's look (5) was taken as lost, but it had
    # landed; the player clicked it while the look was sent again, and that click's answer
    # (6) may have landed before the look sent again did. The hand is edited again.
    feed, ledger = await _posting()
    await ledger.shown.sent(OWNER, [dataclasses.replace(PLAY, digest="")])
    ledger.shown.sending_look(OWNER, PLAY.key, 5)
    ledger.answers.answer_kept_elsewhere(OWNER, _clicked_on_the_turn())
    feed.publish(Change(OWNER, 6, 900))
    await ledger.shown.sent(OWNER, [PLAY])
    kept = (await ledger.shown.kept(OWNER))[PLAY.key]
    assert kept == dataclasses.replace(_clicked_on_the_turn(), digest=""), "edited again"


class _Watched(asyncio.Event):
    """An edit's coming back that says when someone began to wait for it (``awaited``)."""

    def __init__(self) -> None:
        super().__init__()
        self.awaited = asyncio.Event()

    async def wait(self) -> Literal[True]:
        self.awaited.set()
        return await super().wait()


def _edit_on_its_way(ledger: MessageLedger, *, written: float | None) -> Send:
    """An edit of the hand by the bot's token, on its way (``written`` to the network then, on
    the event loop's clock; None: waiting for its turn)."""
    send = Send(Attempt(Way.EDIT_AS_BOT, PLAY, 900, PLAY.message_id), 1, 0.0, written=written)
    ledger.sending(OWNER, PLAY.key, send)
    return send


async def test_a_clicks_answer_goes_once_an_edit_of_its_message_already_written_is_back() -> None:
    # After a restart the hand is edited again (what it showed was not known), and the player
    # clicks the look that was there all along: the answer goes once that edit is back, so
    # it lands over it, never under it.
    _, ledger = await _sender()
    send = _edit_on_its_way(ledger, written=asyncio.get_running_loop().time())
    send.back = back = _Watched()
    answer = asyncio.ensure_future(ledger.answers.way_clear(OWNER, PLAY.key))
    # Until the answer waits for something: the edit's coming back, or nothing (done).
    awaited = asyncio.ensure_future(back.awaited.wait())
    await asyncio.wait({answer, awaited}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    awaited.cancel()
    assert back.awaited.is_set() and not answer.done(), "the answer waits for the edit on its way"
    ledger.sending(OWNER, PLAY.key, None)
    send.back.set()
    await asyncio.wait_for(answer, 1.0)


async def test_a_clicks_answer_waits_for_no_edit_that_has_surely_landed_or_waits_its_turn() -> None:
    _, ledger = await _sender()
    long_ago = asyncio.get_running_loop().time() - REQUEST_LANDS_WITHIN
    for written in (None, long_ago):
        _edit_on_its_way(ledger, written=written)
        await asyncio.wait_for(ledger.answers.way_clear(OWNER, PLAY.key), 0.1)
    await asyncio.wait_for(ledger.answers.way_clear(Owner.game(8), PLAY.key), 0.1)
