"""*Deal everyone in* (issue 57): everyone who has a lobby's table open seated, at the table
that seats them all (the variant that seats that many, partners or teams as the chat's lobby
makes them), and dealt; and the lobby as one person at the table sees it, drawn from the
chat's lobby (its words, its buttons, its refusals)."""

from __future__ import annotations

import doctest

import pytest

from bot.core.base import refusals
from bot.core.base.replies import TableAsked, User
from bot.core.games import everyone
from bot.core.games.everyone import everyone_kinds, lobby_seen
from bot.core.games.lobby import lobby_view, offered
from bot.core.services import Services
from engine.variants import MOST_AT_A_TABLE
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, EVE, FLO, GUILD
from tests.helpers.views import controls

GUS = User(7, "Gus")


def test_the_modules_examples_hold() -> None:
    assert doctest.testmod(everyone).failed == 0


@pytest.mark.parametrize(
    ("people", "variant", "kind"),
    [
        ([AL, BEA], "standard", "Cribbage, 2 players, to 121"),
        ([AL, BEA, CY], "standard", "Cribbage, 3 players, to 121"),
        ([AL, BEA, CY, DEE], "standard", "Cribbage, 4 players in two teams of two, to 121"),
        ([AL, BEA, CY, DEE, EVE], "five_hand", "Five-hand cribbage, 5 players, to 121"),
        (
            [AL, BEA, CY, DEE, EVE, FLO],
            "six_hand",
            "Six-hand cribbage, 6 players in two teams of three, to 121",
        ),
    ],
)
async def test_everyone_at_the_table_is_dealt_in_at_the_table_that_seats_them(
    service: Services, people: list[User], variant: str, kind: str
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    assert opened.game_id is not None
    record = await service.games.record(opened.game_id)
    assert record is not None and everyone_kinds(record)[len(people)] == kind
    dealt = await service.dealing_in.deal_in(opened.game_id, AL, people, guild_id=GUILD)
    assert dealt.ok, dealt.reply.text
    record = await service.games.record(opened.game_id)
    assert record is not None and record.status.value == "active"
    assert [s.name for s in record.seats] == [p.name for p in people]
    assert record.options.variant == variant and record.options.num_players == len(people)
    # Partners sit as in the chat's lobby: by seat, opposite (or alternate seats of three).
    loaded = service.games.loaded.load(record)
    assert loaded.game.state.num_players == len(people)


async def test_those_seated_keep_their_seats_and_the_table_its_options_where_it_can(
    service: Services,
) -> None:
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(target=61, scoring="skunk", counting="manual")
    )
    assert opened.game_id is not None
    assert (await service.lobbies.join(CHANNEL, CY)).ok
    # Seen by the page in its order (Al and Cy among them: they keep seats 1 and 2).
    dealt = await service.dealing_in.deal_in(
        opened.game_id, AL, [BEA, CY, AL, DEE, BEA], guild_id=GUILD
    )
    assert dealt.ok, dealt.reply.text
    record = await service.games.record(opened.game_id)
    assert record is not None
    assert [s.name for s in record.seats] == ["Al", "Cy", "Bea", "Dee"]
    assert (record.options.target, str(record.options.scoring), str(record.options.counting)) == (
        61,
        "skunk",
        "manual",
    )


async def test_a_variant_that_seats_fewer_gives_way_with_its_length(service: Services) -> None:
    # Seven-card cribbage is for two, to 181: three at the table play the standard game, to
    # its own 121, lurch (seven-card has no skunk scale to keep).
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(variant="seven_card"))
    assert opened.game_id is not None
    dealt = await service.dealing_in.deal_in(opened.game_id, AL, [BEA, CY], guild_id=GUILD)
    assert dealt.ok, dealt.reply.text
    record = await service.games.record(opened.game_id)
    assert record is not None
    assert (record.options.variant, record.options.num_players, record.options.target) == (
        "standard",
        3,
        121,
    )


async def test_dealing_everyone_in_is_refused_in_the_lobbys_words(service: Services) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    game_id = opened.game_id
    assert game_id is not None
    before = await service.games.record(game_id)

    async def refused(user: User, people: list[User]) -> str:
        answer = await service.dealing_in.deal_in(game_id, user, people, guild_id=GUILD)
        assert not answer.ok
        assert await service.games.record(game_id) == before, "a refusal changes nothing"
        return answer.reply.text

    assert await refused(BEA, [AL, BEA]) == refusals.EVERYONE_CREATOR
    assert await refused(AL, [AL]) == refusals.EVERYONE_SEATED
    seven = [AL, BEA, CY, DEE, EVE, FLO, GUS]
    assert await refused(AL, seven) == refusals.everyone_too_many(7, MOST_AT_A_TABLE)
    # Computers keep their seats, and count.
    assert (await service.lobbies.click(game_id, "computer:easy", AL, guild_id=GUILD)).ok
    assert (await service.lobbies.click(game_id, "add_seat", AL, guild_id=GUILD)).ok
    before = await service.games.record(game_id)
    assert await refused(AL, [BEA, CY, DEE, EVE, FLO]) == refusals.everyone_too_many(7, 6)
    dealt = await service.dealing_in.deal_in(game_id, AL, [BEA, CY, DEE, EVE], guild_id=GUILD)
    assert dealt.ok, dealt.reply.text
    record = await service.games.record(game_id)
    assert (
        record is not None and record.options.variant == "six_hand" and record.seats[1].is_computer
    )
    # Dealt: the lobby is closed, as its Start says.
    again = await service.dealing_in.deal_in(game_id, AL, [FLO], guild_id=GUILD)
    assert not again.ok and again.reply.text == refusals.ALREADY_STARTED


async def test_the_lobby_at_the_table_is_the_chats_less_what_each_person_may_not_press(
    service: Services,
) -> None:
    opened = await service.lobbies.new_game(GUILD, CHANNEL, AL)
    assert opened.game_id is not None
    record = await service.games.record(opened.game_id)
    assert record is not None
    chat = controls(lobby_view(record), type(offered(record, AL)))
    # The opener: what the chat's lobby offers but Leave (theirs closes it: Cancel does).
    mine = offered(record, AL)
    assert set(mine.buttons) <= set(chat.buttons) and "cancel" in mine.buttons
    assert mine.levels == chat.levels
    # Someone at the table without a seat may join; nothing of the opener's is theirs.
    assert offered(record, BEA).buttons == ("join",) and offered(record, BEA).levels == ()
    assert (await service.lobbies.join(CHANNEL, BEA)).ok
    record = await service.games.record(opened.game_id)
    assert record is not None
    # A full table: Bea may start or leave; Cy may still press Join, whose refusal says how
    # the table grows, and the opener may add a seat (and has no free seat for a computer).
    assert offered(record, BEA).buttons == ("leave", "start")
    assert offered(record, CY).buttons == ("join",)
    assert "add_seat" in offered(record, AL).buttons and offered(record, AL).levels == ()
    seen = lobby_seen(record, AL)
    assert seen.view.content == lobby_view(record).content
    assert seen.everyone == {n: everyone_kinds(record)[n] for n in range(3, 7)}
    assert lobby_seen(record, BEA).everyone == {}
