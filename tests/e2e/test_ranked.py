"""Ranked play across servers, end to end: players in two servers (one that invited the bot, one
that did not) and in a DM through their user install queue, are matched, and play a whole best
of three, each from where they queued; every version of every message each of them (and anyone
watching their place) sees is checked for the other's hidden cards; the ratings and the ladder
after; a second match from the DM, left by its player (a loss, and a wait before the next).
A block holds after the blocked player has their data deleted, and is lifted as a former
player's.

The bot runs in the test's process on a core whose every deal is rigged to score high (each
player is dealt a hand of fives and jacks, or of fours and sixes, and a five is cut): the games
are whole games to 121, in half the deals."""

from __future__ import annotations

import random
from collections.abc import Callable, MutableSequence
from datetime import timedelta
from typing import Any

from bot.core.base.owners import Owner
from bot.core.ranked.records import EntryStatus
from bot.core.ranked.words import NOTHING_TO_LEAVE
from bot.core.services import Services
from bot.store import Store
from engine.cards import parse_cards
from fakediscord import Channel, FakeDiscord, Interaction, Message, User
from fakediscord.testing import BotLauncher
from tests.helpers.bot_db import rows
from tests.helpers.core_build import build_core
from tests.helpers.in_process import everywhere
from tests.helpers.private_driver import uninvited_server
from tests.helpers.ranked_driver import Place, RankedDriver, entry_of, left_the_match, match_games
from tests.helpers.table_driver import World, until

#: Every shuffle puts these on top: the cut gives seat 0 a five and seat 1 a four (seat 1
#: deals first), then the pone is dealt 5♥ 5♦ J♠ J♣ 10♥ K♣, the dealer 4♥ 4♦ 6♥ 6♦ 5♣ 3♣ (one
#: card at a time, the pone first), and the starter is 5♠.
_PONE, _DEALER = parse_cards("5H 5D JS JC 10H KC"), parse_cards("4H 4D 6H 6D 5C 3C")
_TOP = [card for pair in zip(_PONE, _DEALER, strict=True) for card in pair] + list(
    parse_cards("5S")
)


class _HighDeals(random.Random):
    """Deals every hand of the game rigged (see :data:`_TOP`); the rest of the deck in order."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        rest = [card for card in x if card not in _TOP]
        x[:] = [*_TOP, *rest]


def _rigged(store: Store) -> Services:
    """The core on ``store``, its deals rigged."""
    return build_core(store, idle_expiry=timedelta(days=7), rng_factory=_HighDeals)


async def _picked(
    fd: FakeDiscord, user: User, place: Channel, command: str, typed: str, names: list[str]
) -> Interaction:
    """``user`` types ``typed`` in ``command``'s player option at ``place``, is offered the
    players ``names`` (in that order), and sends the command with the first."""
    offered = await fd.autocomplete(user, place, f"{command} player:{typed}")
    assert [c["name"] for c in offered] == names, offered
    return await fd.slash(user, place, f"{command} player:{offered[0]['value']}")


def _counted(world: World, match_id: int, number: int) -> Callable[[], int | None]:
    """Whether game ``number`` of the match is counted: its winner."""
    return lambda: match_games(world.database, match_id)[number - 1][2]


def _decided(world: World, match_id: int, number: int) -> Callable[[], str | None]:
    """Whether the match, game ``number`` counted, is ``"finished"`` or goes on (``"next"``:
    its next game is opened); None while neither is written."""

    def decided() -> str | None:
        (status,) = rows(
            world.database, "SELECT status FROM ranked_matches WHERE id = ?", (match_id,)
        )[0]
        if status == "finished":
            return "finished"
        return "next" if len(match_games(world.database, match_id)) > number else None

    return decided


async def test_three_places_queue_and_a_whole_best_of_three_is_played_apart(
    world: World, bots: BotLauncher
) -> None:
    async with everywhere(bots, world.database, _rigged):
        await _three_places(world)


async def _three_places(world: World) -> None:
    fd = world.fd
    al, bea, cy, di = world.players
    lounge = uninvited_server(fd, bea, di)  # a server that did not invite the bot
    fd.install_app(cy)
    dm = fd.private_channel(cy, di)  # a DM between people: the bot is not in it
    # Bea searches first; Al is paired with her at once; Cy, in a DM, waits meanwhile.
    searching = await fd.slash(bea, lounge, "/cribbage ranked play")
    assert not searching.ephemeral and "looking for a ranked opponent" in searching.words()
    assert searching.original is not None
    assert "Stop searching" in [b["label"] for b in searching.original.buttons()]
    paired = await fd.slash(al, world.general, "/cribbage ranked play")
    assert "Ranked match: Al against Bea" in paired.words(), paired.words()
    waiting = await fd.slash(cy, dm, "/cribbage ranked play")
    assert "looking for a ranked opponent" in waiting.words()
    again = await fd.slash(al, world.general, "/cribbage ranked play")
    assert again.ephemeral and "already" in again.words()
    _, status, match_id = entry_of(world.database, al)
    assert status == EntryStatus.MATCHED and match_id is not None
    # Bea waited, so she sits first in every game.
    (first,) = rows(world.database, "SELECT player_a FROM ranked_matches WHERE id = ?", (match_id,))
    assert first[0] == bea.id
    places = [Place(bea, lounge, [di]), Place(al, world.general, [world.spectator])]
    driver = RankedDriver(fd, world.database, places, match_id, rng=random.Random(49))
    games = 0
    while True:
        await driver.next_game()
        games += 1
        # The opponent is named at each place, never where they play from.
        for seat in range(len(places)):
            table = driver.table_now(seat)
            assert table is not None and "Ranked match" in table.words()
            assert "lounge" not in table.words() and "general" not in table.words()
        await driver.play_out()
        await until(fd, _counted(world, match_id, driver.number))
        # The game is counted first, then the match decided or the next game opened: wait
        # for one of them (read at once, a match just won still looked unfinished).
        then = await until(fd, _decided(world, match_id, driver.number))
        if then == "finished":
            break
    assert games in (2, 3)
    driver.check_now()
    assert driver.cards_seen > 100, "the hidden-card check looked at the cards shown"
    (winner, wins_a, wins_b) = rows(
        world.database,
        "SELECT winner, wins_a, wins_b FROM ranked_matches WHERE id = ?",
        (match_id,),
    )[0]
    assert sorted((wins_a, wins_b)) == [games - 2, 2]
    won, lost = (al, bea) if winner == al.id else (bea, al)
    # Both places' last table says who won the match, and the ranked ratings.
    for seat in (0, 1):

        def decided(seat: int = seat) -> Message | None:
            table = driver.table_now(seat)
            return table if table is not None and "wins the ranked match" in table.words() else None

        final = await until(fd, decided)
        assert f"{won.name} wins the ranked match 2–{games - 2}" in final.words()
        assert "game point" not in final.words(), final.words()
        assert "Ranked ratings — " in final.words()
    # The ratings: one match each, the winner above; both entries are free again.
    ratings = {
        int(u): (float(mu), int(m))
        for u, mu, m in rows(world.database, "SELECT user_id, mu, matches FROM ranked_ratings")
    }
    assert ratings[won.id][1] == ratings[lost.id][1] == 1
    assert ratings[won.id][0] > 25.0 > ratings[lost.id][0]
    assert entry_of(world.database, al)[1] == entry_of(world.database, bea)[1] == "done"
    # The ladder: nobody ranked before five matches; each reader's place and latest match.
    ladder = await fd.slash(won, world.general if won is al else lounge, "/cribbage ranked ladder")
    words = ladder.words()
    assert "Ranked ladder" in words and "Nobody is ranked this season yet" in words, words
    assert "placing: 4 more matches before a rank" in words, words
    assert f"Won 2–{games - 2} against **{lost.name}**" in words, words
    # Al blocks Bea, from the list of the players he met.
    blocked = await _picked(fd, al, world.general, "/cribbage ranked block", "B", ["Bea"])
    assert blocked.ephemeral and "won't be matched with **Bea** again" in blocked.words()
    # Cy waited in the DM all along, matched with nobody; Al is matched with her now (his
    # last opponent was Bea), from the DM to the server.
    assert entry_of(world.database, cy)[1] == "searching"
    rematch = await fd.slash(al, world.general, "/cribbage ranked play")
    assert "Ranked match: Al against Cy" in rematch.words(), rematch.words()
    # Each card names the opponent's ranked rating: Al's, paired at once, as it answers him
    # (never edited to say it after); Cy's, who waited, once edited to say the pairing.
    assert "Cy's ranked rating: none yet (5 placement matches" in rematch.words()
    cy_card = waiting.original
    assert cy_card is not None
    await until(fd, lambda: "Al's ranked rating: " in cy_card.words() or None)
    assert "placing: 4 more matches before a rank" in cy_card.words(), cy_card.words()
    assert rematch.original is not None and not rematch.original.history
    _, _, second = entry_of(world.database, cy)
    assert second is not None and second != match_id
    # Bea searches again (nobody is waiting now), and stops from her card's button: its
    # answer is the card, in place.
    again = await fd.slash(bea, lounge, "/cribbage ranked play")
    assert again.original is not None and "looking for a ranked opponent" in again.words()
    stopped = await fd.click(bea, again.original, label="Stop searching")
    assert stopped.response is not None and stopped.response.type == 7
    assert "Bea stopped searching" in again.original.words()
    # A stopped search is no dead end: the card offers the next one.
    assert [b["label"] for b in again.original.buttons()] == ["🔎 Find a ranked match"]
    assert entry_of(world.database, bea)[1] == "stopped"

    games_now = await until(fd, lambda: match_games(world.database, second))
    # The game's table comes to the DM, through Cy's own interaction (the bot is not there).
    cy_table = Owner.place(games_now[0][1], 0)  # (she waited: she sits first)
    await until(
        fd,
        lambda: rows(
            world.database,
            "SELECT message_id FROM messages WHERE owner = ? AND key = 'lobby' AND message_id > 0",
            (str(cy_table),),
        ),
    )
    assert any("Ranked match" in m.words() for m in fd.visible_to(di, dm)), "Di sees the table"
    # Cy leaves: asked first, then a loss, and a wait before the next search.
    left = await left_the_match(fd, cy, dm, asks="Leave your ranked match against **Al**")
    # The answer says when the leaver may search again (leaving makes them wait).
    assert left.startswith(
        "You left the match: Al wins it 1–0 (with the game being played). "
        "Your next ranked search can start <t:"
    ), left
    await until(
        fd,
        lambda: rows(
            world.database,
            "SELECT how FROM ranked_matches WHERE id = ? AND status = 'finished'",
            (second,),
        ),
    )
    await until(fd, lambda: match_games(world.database, second)[0][3] == "left")
    nothing = await fd.slash(cy, dm, "/cribbage ranked leave")
    assert nothing.words() == NOTHING_TO_LEAVE
    wait = await fd.slash(cy, dm, "/cribbage ranked play")
    assert wait.ephemeral and "your next search waits until" in wait.words(), wait.words()


async def test_a_ranked_player_goes_by_their_own_name_not_a_servers_nickname(
    world: World, bots: BotLauncher
) -> None:
    # Al is "Al of the Lodge" in the server he searches from. Bea, a stranger playing from
    # her DM, saw him by that server's nickname, and so did the ladder of every server: the
    # name a member has in one server, where a ranked player is known by their own Discord
    # display name wherever they search (and nobody sees where their opponent plays from).
    await bots.process(database=world.database)
    fd, (al, bea, _, _) = world.fd, world.players
    server = world.general.guild
    member = None if server is None else server.member(al)
    assert member is not None
    member.nick = "Al of the Lodge"
    dm = fd.dm_channel(bea)
    await fd.slash(al, world.general, "/cribbage ranked play")
    paired = await fd.slash(bea, dm, "/cribbage ranked play")
    assert "Bea against Al" in paired.words() and "Lodge" not in paired.words(), paired.words()
    _, _, match_id = entry_of(world.database, al)
    assert match_id is not None
    driver = RankedDriver(fd, world.database, [Place(al, world.general), Place(bea, dm)], match_id)
    await driver.next_game()
    table = driver.table_now(1)
    assert table is not None and "Al" in table.words() and "Lodge" not in table.words()
    assert rows(world.database, "SELECT name FROM ranked_entries WHERE user_id = ?", (al.id,)) == [
        ("Al",)
    ]


async def test_a_block_holds_after_the_blocked_player_deletes_their_data(
    world: World, bots: BotLauncher
) -> None:
    # Bea blocks Al, whom she is playing; Al has his data deleted (leaving the match). His
    # next search is still never paired with hers, though the block keeps no trace of his id;
    # her unblock list offers him as a former player, and lifting it pairs them.
    await bots.process(database=world.database)
    fd, (al, bea, _, _) = world.fd, world.players
    dm = fd.dm_channel(bea)
    await fd.slash(al, world.general, "/cribbage ranked play")
    paired = await fd.slash(bea, dm, "/cribbage ranked play")
    assert "Bea against Al" in paired.words(), paired.words()
    blocked = await _picked(fd, bea, dm, "/cribbage ranked block", "A", ["Al"])
    assert "won't be matched with **Al** again" in blocked.words(), blocked.words()
    asked = await fd.slash(al, world.general, "/cribbage privacy")
    assert asked.original is not None and "a block of you" in asked.words(), asked.words()
    await fd.click(al, asked.original, label="Delete my data")
    done = await fd.click(al, asked.original, label="Yes, delete my data")
    assert "Your data is deleted" in done.words(), done.words()
    assert not any(al.id in r for r in rows(world.database, "SELECT * FROM ranked_blocks"))
    await until(fd, lambda: entry_of(world.database, bea)[1] == "done")

    again = await fd.slash(al, world.general, "/cribbage ranked play")
    assert "looking for a ranked opponent" in again.words(), again.words()
    hers = await fd.slash(bea, dm, "/cribbage ranked play")
    assert "looking for a ranked opponent" in hers.words(), hers.words()
    lifted = await _picked(fd, bea, dm, "/cribbage ranked unblock", "", ["Former player"])
    assert "**Former player** may be matched with you again" in lifted.words(), lifted.words()
    # The queue's sweep pairs them now (nothing else kept them apart).
    await until(fd, lambda: entry_of(world.database, al)[1] == "matched")
    assert entry_of(world.database, bea)[1] == "matched"


async def test_a_newcomers_ladder_says_how_to_start_once(world: World, bots: BotLauncher) -> None:
    # Before any match: the ladder said "A rank takes 5 matches" and then "five matches make
    # the first rank", and the newcomer's own line ended there, with no next step.
    await bots.process(database=world.database)
    al = world.players[0]
    ladder = await world.fd.slash(al, world.general, "/cribbage ranked ladder")
    words = ladder.words()
    assert "Nobody is ranked this season yet." in words and "five matches" not in words, words
    assert "A rank takes 5 matches in the season." in words, words
    assert (
        "**Al** hasn't played a ranked match in " in words
        and ": `/cribbage ranked play` finds you an opponent." in words
    ), words
