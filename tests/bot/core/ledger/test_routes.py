"""Which way a message in a server's channel goes (bot.core.ledger.routes.route): through the
token of a click made there while it lives (outside the bot token's global limit), else with
the bot's token."""

from __future__ import annotations

from bot.core.base.delivery import Owed
from bot.core.base.keys import LOBBY, MessageKey
from bot.core.base.owners import Owner
from bot.core.base.views import MessageRecord, MessageView
from bot.core.ledger.routes import Facts, route
from bot.core.ledger.transport import Way

CHANNEL = 10
NOW = 1000.0
TABLE = MessageKey.table(1)
#: The lobby as the Start's answer left it: its token may post in the channel.
STARTED = MessageRecord(LOBBY, CHANNEL, 5, "lobby", "start-token", NOW - 1, original=True)


def _facts(*sent: MessageRecord, mine: bool = True) -> Facts:
    return Facts(
        Owner.game(1),
        CHANNEL,
        {record.key: record for record in sent},
        NOW,
        mine=lambda _: mine,
        may_carry=lambda _: True,
    )


def test_a_new_table_is_posted_through_the_starts_token_then_with_the_bots() -> None:
    chosen = route(Owed(TABLE, MessageView("deal 1")), None, _facts(STARTED))
    ways = [(a.way, a.token) for a in chosen.attempts]
    assert ways == [(Way.POST_THROUGH, "start-token"), (Way.POST_AS_BOT, None)]


def test_the_table_posted_so_is_edited_through_that_token() -> None:
    posted = MessageRecord(TABLE, CHANNEL, 6, "deal 1", "start-token", NOW - 1)
    chosen = route(Owed(TABLE, MessageView("deal 1, Al discarded")), posted, _facts(STARTED))
    first = chosen.attempts[0]
    assert first.way is Way.EDIT_THROUGH and first.token == "start-token"


def test_a_new_table_waits_for_the_starts_answer_this_process_has_on_its_way() -> None:
    on_its_way = MessageRecord(
        LOBBY, CHANNEL, 5, "lobby", "start-token", NOW, original=True, unconfirmed_since=NOW
    )
    chosen = route(Owed(TABLE, MessageView("deal 1")), None, _facts(on_its_way))
    assert chosen.attempts == () and chosen.hold is not None
    # Another process's answer: this one cannot hear it land, and posts with its own token.
    chosen = route(Owed(TABLE, MessageView("deal 1")), None, _facts(on_its_way, mine=False))
    assert [a.way for a in chosen.attempts] == [Way.POST_AS_BOT]


def test_with_no_live_token_in_the_channel_the_bots_token_posts() -> None:
    lapsed = MessageRecord(LOBBY, CHANNEL, 5, "lobby", "start-token", NOW - 3600, original=True)
    elsewhere = MessageRecord(MessageKey.hand(1, 0), 99, 7, "hand", "dm-token", NOW - 1)
    chosen = route(Owed(TABLE, MessageView("deal 1")), None, _facts(lapsed, elsewhere))
    assert [a.way for a in chosen.attempts] == [Way.POST_AS_BOT]


def test_a_lessons_table_in_its_learners_dm_is_not_posted_through_a_hands_click() -> None:
    # (Its learner's hand is in the same DM: the bot's own token learns when that DM closes.)
    clicked_hand = MessageRecord(MessageKey.hand(1, 0), CHANNEL, 7, "hand", "dm-token", NOW - 1)
    chosen = route(Owed(MessageKey.table(2), MessageView("deal 2")), None, _facts(clicked_hand))
    assert [a.way for a in chosen.attempts] == [Way.POST_AS_BOT]


def test_a_message_whose_id_never_came_is_never_edited_with_the_bots_token() -> None:
    """Issue 67, item 4: the answer to `/cribbage new` came too late (Discord made nothing), so
    the lobby's record never learnt its message's id (0); the sender tried to edit it with the
    bot's token, `PATCH /channels/{id}/messages/0`. Only the answer's token could reach it, as
    its original response: through that, and else it is posted."""
    unknown = MessageRecord(LOBBY, CHANNEL, 0, "", "new-token", NOW - 1, original=True)
    chosen = route(Owed(LOBBY, MessageView("lobby")), unknown, _facts(unknown))
    assert [a.message_id for a in chosen.attempts if a.way is Way.EDIT_AS_BOT] == []
    assert chosen.attempts[0].way is Way.EDIT_THROUGH
    assert chosen.attempts[-1].way is Way.POST_AS_BOT
    # Its token lapsed too: posted.
    lapsed = MessageRecord(LOBBY, CHANNEL, 0, "", "new-token", NOW - 3600, original=True)
    chosen = route(Owed(LOBBY, MessageView("lobby")), lapsed, _facts(lapsed))
    assert [a.way for a in chosen.attempts] == [Way.POST_AS_BOT]
