"""The leak watch of the end-to-end tests (tests.helpers.card_leaks): every version of every
message a viewer sees is looked at once, those made since the last look included."""

from __future__ import annotations

import random

import pytest

from engine.cards import Card
from engine.game import Game
from fakediscord import Channel, FakeDiscord, Message, User
from fakediscord.model import MessageVersion
from tests.helpers.card_leaks import LeakWatch, cards_asked, cards_named, hidden_from


def _edit(message: Message, content: str) -> None:
    """What the emulator does to a message an edit reaches: its state goes to its history."""
    message.history.append(message.version())
    message.content = content


class _Read(MessageVersion):
    """A version already looked at: reading its text again fails the test."""

    def words(self) -> str:
        raise AssertionError(f"a version looked at was read again: {self.content!r}")


def _looked_at(message: Message) -> None:
    """Mark every version in the message's history as looked at (see `_Read`)."""
    message.history[:] = [_Read(**vars(version)) for version in message.history]


def _al_in_general() -> tuple[FakeDiscord, Channel, User, User]:
    """A server's #general with Al in it, and the bot that posts there."""
    fd = FakeDiscord()
    guild = fd.add_guild("Club")
    general = guild.add_text_channel("general")
    al, bot = fd.add_user("Al"), fd.add_user("Bot")
    guild.add_member(al)
    return fd, general, al, bot


def test_each_version_is_looked_at_once_and_a_card_in_any_is_caught() -> None:
    fd, general, al, bot = _al_in_general()
    watch = LeakWatch(fd, general, [al], {al.id: 0}, lambda seat, deal: set())
    hidden = {Card.parse("5H")}
    table = Message(1, general, bot, "Al to play")
    general.messages.append(table)
    watch.check(lambda seat: hidden)
    assert watch.versions_seen == 1
    watch.check(lambda seat: hidden)
    assert watch.versions_seen == 1, "nothing new: nothing looked at again"
    for turn in range(3):
        _edit(table, f"Turn {turn}")
    watch.check(lambda seat: hidden)
    assert watch.versions_seen == 4, "the three edits (the first state was looked at)"
    # Each look reads only what came since the last: the versions looked at are not turned
    # into text again (every look read them all, quadratic in a game's edits).
    _looked_at(table)
    _edit(table, "Turn 3")
    watch.check(lambda seat: hidden)
    assert watch.versions_seen == 5
    # A card hidden from Al, in a version an edit has already replaced, is still caught.
    _edit(table, "Bea holds 5♥")
    _edit(table, "Bea to play")
    with pytest.raises(AssertionError, match="Al could see 5♥"):
        watch.check(lambda seat: hidden)
    watch.mark_all()
    watch.check(lambda seat: hidden)
    assert watch.versions_seen == 6


def test_a_hand_message_over_its_deal_may_name_what_its_reader_kept_then_and_nothing_else() -> None:
    # A hand message edited once its deal is over ("…, deal 3 is over. You kept …") may come
    # after the next deal was dealt, when its cards are in other hands: it is held to what
    # its reader was dealt in the deal it names.
    fd, general, al, bot = _al_in_general()
    dealt = {3: {Card.parse(code) for code in ("3C", "3H", "10C", "KD", "5S", "6S")}}
    watch = LeakWatch(fd, general, [al], {al.id: 0}, lambda seat, deal: dealt.get(deal, set()))
    hidden = {Card.parse("3H"), Card.parse("7H")}  # (deal 4: Bea holds them)
    over = "Cribbage in <#1>, deal 3 is over.\nYou kept 3♣ 3♥ 10♣ K♦; the show is in <#1>."
    hand = Message(1, general, bot, over)
    hand.ephemeral_for = al
    general.messages.append(hand)
    watch.check(lambda seat: hidden)
    assert watch.cards_seen == 4
    _edit(hand, over.replace("K♦", "7♥"))
    with pytest.raises(AssertionError, match="Al's kept cards names 7♥"):
        watch.check(lambda seat: hidden)
    watch.mark_all()
    # Anywhere else the same cards are a leak.
    _edit(hand, "Al, deal 4: Bea holds 3♥")
    with pytest.raises(AssertionError, match="Al could see 3♥"):
        watch.check(lambda seat: hidden)


def test_a_private_copy_of_a_hand_may_name_its_deals_own_and_public_cards_seen_late() -> None:
    # A version of Al's private copy of his deal-1 hand ("Count 10 (Q♦)") may land after
    # deal 2 was dealt (an edit that crossed another), when Q♦ is in Bea's hand: it is held to
    # what deal 1 gave Al and made public, not to deal 2's secrets. (The watch held it to
    # deal 2's and failed a clean run; then, for a copy in Al's DM, the same.) A card deal 1
    # neither gave Al nor showed is caught.
    fd, general, al, bot = _al_in_general()
    dealt = {1: {Card.parse(code) for code in ("QD", "2C", "3C", "4C", "5C", "6C")}}
    shown = {1: {Card.parse("JS"), Card.parse("4H")}}
    watch = LeakWatch(
        fd,
        general,
        [al],
        {al.id: 0},
        lambda seat, deal: dealt.get(deal, set()),
        made_public=lambda deal: shown.get(deal, set()),
    )
    hidden = {Card.parse("QD"), Card.parse("JS"), Card.parse("9H")}  # (deal 2: Bea's)
    copy = Message(1, general, bot, "Cribbage in <#1>, deal 1.\nCount 10 (Q♦); starter 4♥.")
    copy.ephemeral_for = al
    general.messages.append(copy)
    _edit(copy, "Cribbage in <#1>, deal 1.\nCount 20 (Q♦ J♠); starter 4♥.")
    watch.check(lambda seat: hidden)
    assert watch.cards_seen == 5
    _edit(copy, "Cribbage in <#1>, deal 1.\nCount 9 (9♥); starter 4♥.")
    with pytest.raises(AssertionError, match="Al could see 9♥"):
        watch.check(lambda seat: hidden)
    watch.mark_all()
    # The copy the bot sends to Al's DM (not an answer) is as private as one: the same holds.
    dm = fd.world.dm_channel(al)
    sent = Message(3, dm, bot, "Cribbage in <#1>, deal 1.\nCount 8 (Q♦); starter J♠.")
    dm.messages.append(sent)
    watch.check(lambda seat: hidden)
    assert watch.cards_seen == 9
    _edit(sent, "Cribbage in <#1>, deal 1.\nCount 9 (9♥); starter 4♥.")
    with pytest.raises(AssertionError, match="Al could see 9♥"):
        watch.check(lambda seat: hidden)
    watch.mark_all()
    # The same first line on a message for someone else, or the table's, allows nothing.
    table = Message(2, general, bot, "Cribbage in <#1>, deal 1.\nCount 10 (Q♦).")
    general.messages.append(table)
    with pytest.raises(AssertionError, match="Al could see Q♦"):
        watch.check(lambda seat: hidden)


def test_nobody_may_know_the_cribs_card_from_the_pack_nor_the_pack_before_the_cut() -> None:
    # Three players: the pack gives the crib a card that no seat threw, hidden from everyone
    # until the crib is shown; and until the starter is cut, the pack it is cut from.
    game, _ = Game.new(["Al", "Bea", "Cy"], target=121, rng=random.Random(3))
    places = game.card_places()
    (from_pack,) = (Card.parse(code) for code in places["crib"])
    deck = {Card.parse(code) for code in places["deck"]}
    for seat in (None, 0, 1, 2):
        hidden = hidden_from(game, seat)
        assert from_pack in hidden and deck <= hidden
        assert not hidden & set(game.hand(seat) if seat is not None else ())
    for seat in range(3):
        game.discard(seat, game.hand(seat)[:1])
    assert game.public_view().starter is not None
    hidden = hidden_from(game, 0)
    assert from_pack in hidden, "the pack's card stays hidden until the crib is shown"
    assert set(game.view(0).discards) & hidden == set()
    assert set(game.view(1).discards) <= hidden
    # (The pack after the cut is left out: the next deal's hands come from it, and a step that
    # deals them is checked against the game before it too.)
    assert not {Card.parse(code) for code in game.card_places()["deck"]} & hidden


def test_a_card_its_asker_typed_in_lower_case_is_theirs_to_be_told_of() -> None:
    """The bot reads "5h" as 5♥, so an answer naming it ("You named 5♥ twice.") tells the asker
    only what they typed (a fuzzed discard of ["5h", "5h"] was taken for a leak); a leak is
    still read in capitals alone, where "10s" in a sentence is ten seconds, not a card."""
    sent = '{"action": "discard", "values": ["5h", "5h", "10D", "as"]}'
    five, ten, ace = Card.parse("5H"), Card.parse("10D"), Card.parse("AS")
    assert cards_asked(sent) == {five, ten, ace}
    assert cards_named(sent) == {ten}
    assert cards_named("answered in 10s") == set()
