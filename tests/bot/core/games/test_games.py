"""Whole games through the service for 2, 3 and 4 players, driven from the prompts the
players are sent; hidden cards never reach the channel or another player."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.core.base.faults import Faults
from bot.core.base.keys import RESULT
from bot.core.base.replies import Answer, Click, User
from bot.core.base.views import HandControls, MessageView
from bot.core.games.games import LoadedGames
from bot.core.games.records import GameChange, GameStatus
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card
from tests.helpers.cast import AL, BEA, CHANNEL, CY, DEE, GUILD, PLAYERS
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    drive,
    game_owner,
    load,
    make_service,
    open_table,
    seeded,
)

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
# Where a card may be named in the channel: the card just played, the cards of the count (all
# played), the starter, the cut for deal, and the show (whose cards are public by then).
PUBLIC_PLACES = (
    re.compile(r"^\*\*Count \d+\*\* \((?:(?:10|[2-9AJQK])[♣♦♥♠] ?)*\)", re.M),
    re.compile(r"^Cut for deal — .*$", re.M),
    re.compile(r"^.+'s (?:hand|crib): .*$", re.M),
    re.compile(r" plays (?:10|[2-9AJQK])[♣♦♥♠]"),
    re.compile(r"^Starter: (?:10|[2-9AJQK])[♣♦♥♠]", re.M),
)


def assert_channel_hides_hands(messages: Sequence[str]) -> None:
    for message in messages:
        rest = message
        for place in PUBLIC_PLACES:
            rest = place.sub("", rest)
        assert not CARD.search(rest), message


def cards_in(text: str) -> set[Card]:
    return {Card.parse(m) for m in CARD.findall(text)}


COACH_LINE = re.compile(r"^Coach, deal \d+: .*$", re.M)


def private_checker(store: Store, table: Transcript, users: Sequence[User]):  # type: ignore[no-untyped-def]
    """After every move: the channel names only public cards; each person's hand message for
    the deal names only their own cards and the public ones, with exactly their hand on its
    controls; a coach's line names only cards that person was dealt in the deal it is about."""
    seats = {u.id: i for i, u in enumerate(users)}
    dealt: dict[tuple[int, int], set[Card]] = {}  # (deal, seat) -> the cards the seat was dealt

    async def check(outcome: Answer, actor: User) -> None:
        assert outcome.game_id is not None
        assert_channel_hides_hands(table.channel(outcome.game_id))
        game = await load(store, outcome.game_id)
        deal = game.state.deal_number
        for user in users:
            seat = seats[user.id]
            view = game.view(seat)
            own = set(view.hand) | set(view.kept) | set(view.discards)
            dealt.setdefault((deal, seat), set()).update(own)
            sent = table.messages.get((outcome.game_id, f"hand:{deal}:{seat}"))
            if sent is None or game.state.result is not None:
                continue
            text = sent.view.content
            for line in COACH_LINE.findall(text):
                assert cards_in(line) <= dealt.get((deal - 1, seat), set()), line
            rest = COACH_LINE.sub("", text)
            public = {c for played in view.played for c in played} | set(view.series)
            if view.starter is not None:
                public.add(view.starter)
            assert cards_in(rest) <= own | public, text
            controls = sent.view.hand
            if controls is None:
                continue
            assert {Card.parse(c.code) for c in controls.cards} == set(view.hand)
            enabled = {Card.parse(c.code) for c in controls.cards if c.enabled}
            if controls.kind == "play":
                assert enabled == set(view.playable) and view.turn == view.seat
            else:
                assert controls.pick == view.discard_count

    return check


def show_order_ok(channel: Sequence[str], names: Sequence[str]) -> None:
    """After each deal's play, hands are shown from the dealer's left round to the dealer,
    then the crib."""
    dealer = None
    shown: list[str] = []
    for line in "\n".join(channel).splitlines():
        deal = re.match(r"\*\*Deal \d+\*\* — (\w+) deals", line)
        show = re.match(r"^(\w+)'s (hand|crib):", line)
        if deal:
            if shown:
                check_order(shown, dealer, names)
            dealer, shown = deal.group(1), []
        elif show:
            shown.append(f"{show.group(1)} {show.group(2)}")
    if shown:
        check_order(shown, dealer, names, complete=False)


def check_order(shown: list[str], dealer: str | None, names: Sequence[str], complete=True) -> None:  # type: ignore[no-untyped-def]
    assert dealer is not None
    d = names.index(dealer)
    expected = [f"{names[(d + k) % len(names)]} hand" for k in range(1, len(names) + 1)]
    expected.append(f"{dealer} crib")
    if complete:
        assert shown == expected
    else:
        assert shown == expected[: len(shown)]


@pytest.mark.parametrize(
    ("players", "target", "seed"),
    [(2, 121, 1), (2, 61, 2), (3, 121, 3), (4, 121, 4), (4, 61, 5)],
)
async def test_whole_game(store: Store, clock: Clock, players: int, target: int, seed: int) -> None:
    service = make_service(store, clock, seed=seed)
    users = PLAYERS[:players]
    table = await open_table(service, users, target=target)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    assert_channel_hides_hands(table.channel(game_id))
    check = private_checker(store, table, users)
    await drive(service, table, users, check=check)

    record = await store.get_game(game_id)
    assert record is not None and record.status == "finished"
    game = await load(store, game_id)
    result = game.state.result
    assert result is not None and max(result.scores) >= target
    # The action log holds exactly the engine's actions, each once.
    assert [json.loads(a) for a in await store.actions(game_id)] == game.actions
    channel = table.channel(game_id)
    assert "wins" in channel[-1] or "win" in channel[-1]
    show_order_ok(channel, [u.name for u in users])

    rows = {r.user_id: r for r in await store.results(game_id)}
    assert set(rows) == {u.id for u in users}
    for seat, user in enumerate(users):
        row = rows[user.id]
        assert row.won == (game.side_of(seat) == result.winner)
        assert row.score == result.scores[game.side_of(seat)]
    # Every point a side scored is in its players' tallies (pegging + hand + crib).
    for side in range(game.state.rules.num_sides):
        members = [u.id for s, u in enumerate(users) if game.side_of(s) == side]
        total = sum(
            rows[m].pegging_points + rows[m].hand_points + rows[m].crib_points for m in members
        )
        assert total == result.scores[side]


async def test_game_continues_after_a_restart(tmp_path: Path, clock: Clock) -> None:
    path = tmp_path / "restart.db"
    store = await Store.open(path)
    service = make_service(store, clock, seed=11)
    table = await open_table(service, [AL, BEA])
    await drive(service, table, [AL, BEA], stop_after=15)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    before = await load(store, game_id)
    await store.close()

    store = await Store.open(path)
    try:
        service = make_service(store, clock, seed=12)
        table.service = service  # the same Discord, a new bot
        again = await load(store, game_id)
        assert again.to_dict() == before.to_dict()
        # The prompts sent before the restart still work.
        await drive(service, table, [AL, BEA])
        game = await load(store, game_id)
        assert game.state.result is not None
        assert len(await store.actions(game_id)) == len(game.actions)
        # The tallies survived the restart: every point is accounted for.
        rows = await store.results(game_id)
        for side, score in enumerate(game.state.result.scores):
            points = [r.pegging_points + r.hand_points + r.crib_points for r in rows]
            assert points[side] == score
    finally:
        await store.close()


async def test_a_game_drawn_while_its_last_move_is_saved_is_drawn_ended_once_saved(
    store: Store, service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Alone, the process takes the game it keeps in memory as current. The keeper drew the game
    # (its table, due a moment) while the last move was being saved: read from the store, the
    # game as it was before that move was kept, and the ended game was drawn so for good. Its
    # table's last look and its result were never sent (unpaced benchmark runs: a game in 20,
    # one run in two).
    table = await open_table(service, [AL, BEA])
    owner = game_owner(table.outcomes[0].game_id)
    save = store.save
    during: list[int] = []

    async def saving(game_id: int, version: int, change: GameChange, **kwargs: Any) -> int:
        if change.status is GameStatus.FINISHED:
            owing = await service.ledger.owed(owner)  # (drawn while the move is saved)
            assert owing is not None
            during.append(owing.version)
        return await save(game_id, version, change, **kwargs)

    monkeypatch.setattr(store, "save", saving)
    await drive(service, table, [AL, BEA])
    assert during, "the last move was saved"
    owing = await service.ledger.owed(owner)
    assert owing is not None and owing.version == during[0] + 1
    assert RESULT in [o.key for o in owing.owed], "the ended game is drawn"


async def test_a_game_read_before_a_save_and_loaded_after_it_is_not_kept(
    store: Store, service: Services
) -> None:
    table = await open_table(service, [AL, BEA])
    stored_record = await store.get_game(table.outcomes[0].game_id or 0)
    assert stored_record is not None
    games = LoadedGames(seeded(1), Faults())
    games.load(stored_record)
    assert games.record(stored_record.id) == stored_record
    games.saved(stored_record.id, stored_record.version + 1)
    assert games.record(stored_record.id) is None, "the copy before the save is forgotten"
    games.load(stored_record)  # read before the save, loaded after it
    assert games.record(stored_record.id) is None, "and none of that version is kept again"


async def test_two_clicks_at_once_one_applies(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    await drive(service, table, [AL, BEA], stop_after=2)  # both discarded: the play begins
    ((user_id, prompt),) = [(u, p) for u, p in table.latest.items() if p.kind == "play"]
    user = AL if user_id == AL.id else BEA
    code = next(c.code for c in prompt.cards if c.enabled)
    before = len(await store.actions(prompt.game_id))
    first, second = await asyncio.gather(
        service.moves.click(
            Click(prompt.game_id, "play", prompt.stamp, (code,)), user, guild_id=None
        ),
        service.moves.click(
            Click(prompt.game_id, "play", prompt.stamp, (code,)), user, guild_id=None
        ),
    )
    assert sorted([first.ok, second.ok]) == [False, True]
    refused = second if first.ok else first
    assert "out of date" in refused.reply.text and refused.sequel is None
    assert len(await store.actions(prompt.game_id)) == before + 1


async def test_two_discards_at_once_one_applies(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    prompt = table.latest[AL.id]
    codes = [c.code for c in prompt.cards[:2]]
    first, second = await asyncio.gather(
        service.moves.click(
            Click(prompt.game_id, "discard", prompt.stamp, tuple(codes)), AL, guild_id=None
        ),
        service.moves.click(
            Click(prompt.game_id, "discard", prompt.stamp, tuple(codes)), AL, guild_id=None
        ),
    )
    assert sorted([first.ok, second.ok]) == [False, True]
    assert len(await store.actions(prompt.game_id)) == 1


async def test_partners_win_together(store: Store, clock: Clock) -> None:
    service = make_service(store, clock, seed=21)
    table = await open_table(service, PLAYERS)
    await drive(service, table, PLAYERS)
    assert re.search(r"(Al & Cy|Bea & Dee) win ", table.channel()[-1])
    rows = {r.user_id: r.won for r in await store.results(table.outcomes[0].game_id or 0)}
    assert rows[AL.id] == rows[CY.id] and rows[BEA.id] == rows[DEE.id]
    assert rows[AL.id] != rows[BEA.id]


async def _hand_by_command(
    service: Services, user: User
) -> tuple[MessageView, HandControls | None]:
    """``/cribbage hand`` by ``user``: its answer, and the controls the copy it makes is given
    by the keeper's first edit (the owed hand's), once the copy is written down."""
    outcome = await service.table.hand(CHANNEL, user)
    view, sequel = outcome.reply.view, outcome.sequel
    assert outcome.reply.ephemeral and view is not None and sequel is not None
    assert view.hand is None, "no control before the copy is written down"
    assert sequel.key is not None and sequel.mirror == view.digest()
    owing = await service.ledger.owed(sequel.owner)
    assert owing is not None
    hand = next(o.view for o in owing.owed if o.key == sequel.key)
    assert hand.content == view.content
    return view, hand.hand


async def test_hand_gives_the_controls_of_the_moment(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA])
    _, controls = await _hand_by_command(service, AL)
    assert controls is not None and controls.kind == "discard"
    assert controls.cards == table.latest[AL.id].cards
    await drive(service, table, [AL, BEA], stop_after=2)
    ((mover_id, prompt),) = [(u, p) for u, p in table.latest.items() if p.kind == "play"]
    mover = AL if mover_id == AL.id else BEA
    waiter = BEA if mover is AL else AL
    _, mine = await _hand_by_command(service, mover)
    assert mine is not None and mine.kind == "play" and mine.stamp == prompt.stamp
    waiting, none = await _hand_by_command(service, waiter)
    assert none is None
    assert f"{mover.name} to play" in waiting.content


async def test_autocomplete_offers_your_cards_and_only_legal_plays(
    store: Store, service: Services
) -> None:
    table = await open_table(service, [AL, BEA])
    hand = [c.code for c in table.latest[AL.id].cards]
    offered = await service.table.autocomplete_discard(CHANNEL, AL.id, "")
    assert [c.value for c in offered] == [f"{a} {b}" for a, b in itertools.combinations(hand, 2)]
    first = hand[0]
    pairs = await service.table.autocomplete_discard(CHANNEL, AL.id, f"{first} ")
    assert [c.value for c in pairs] == [f"{first} {code}" for code in hand[1:]]
    assert await service.table.autocomplete_play(CHANNEL, AL.id, "") == []  # not the play yet
    assert await service.table.autocomplete_discard(CHANNEL, 999, "") == []  # not a player
    await drive(service, table, [AL, BEA], stop_after=2)
    ((mover_id, prompt),) = [(u, p) for u, p in table.latest.items() if p.kind == "play"]
    other = BEA.id if mover_id == AL.id else AL.id
    legal = [c.code for c in prompt.cards if c.enabled]
    assert [c.value for c in await service.table.autocomplete_play(CHANNEL, mover_id, "")] == legal
    assert await service.table.autocomplete_play(CHANNEL, other, "") == []
    assert await service.table.autocomplete_discard(CHANNEL, AL.id, "") == []  # already discarded


async def test_closed_dms_are_told_once_a_deal_in_the_channel(
    store: Store, service: Services
) -> None:
    table = Transcript(service, dms_closed={BEA.id})
    await table.record(AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL))
    await table.record(BEA.id, await service.lobbies.join(CHANNEL, BEA))
    started = await table.record(AL.id, await service.lobbies.start(CHANNEL, AL))
    game_id = started.game_id
    assert game_id is not None
    notices = [line for line in table.channel(game_id) if f"<@{BEA.id}>" in line]
    assert notices == [
        f"<@{BEA.id}>, I can't send you direct messages, so for the rest of this game use "
        "`/cribbage hand` here to see your cards and play. Allow direct messages from this "
        "server's members to get your hands by DM from your next game."
    ]
    assert table.hand(game_id, BEA.id) is None, "no hand by DM this deal"
    assert table.hand(game_id, AL.id) is not None
    # The refusal is remembered: drawing the game again owes no second notice.
    owing = await service.ledger.owed(game_owner(game_id))
    assert owing is not None
    assert not [o for o in owing.owed if o.due(owing.sent.get(o.key))]


async def test_status_shows_the_table_without_hands(service: Services) -> None:
    await open_table(service, [AL, BEA])
    outcome = await service.table.status(CHANNEL)
    assert outcome.ok and outcome.reply.ephemeral, "private unless shown to the channel"
    assert "Deal 1" in outcome.reply.text and "waiting for" in outcome.reply.text
    assert not CARD.search(outcome.reply.text)
    assert outcome.reply.view is not None and outcome.reply.view.board is not None
    shown = await service.table.status(CHANNEL, public=True)
    assert not shown.reply.ephemeral and shown.reply.text == outcome.reply.text


async def test_resign_is_a_recorded_loss(store: Store, service: Services) -> None:
    table = await open_table(service, [AL, BEA, CY])
    outcome = await table.record(BEA.id, await service.moves.resign(CHANNEL, BEA))
    assert outcome.ok and outcome.game_id is not None
    result = table.messages[(outcome.game_id, "result")].view.content
    assert result.startswith("Bea resigned — 🏆")
    rows = {r.user_id: r.won for r in await store.results(table.outcomes[0].game_id or 0)}
    assert rows[BEA.id] is False and sum(rows.values()) == 1
    # The channel is free again, and status shows how the last game ended.
    status = await service.table.status(CHANNEL)
    assert "The last game here is over." in status.reply.text
    assert "/cribbage new" in status.reply.text
    assert (await service.lobbies.new_game(None, CHANNEL, CY)).ok


@pytest.mark.exhaustive
@pytest.mark.parametrize("seed", range(100, 160))
async def test_many_games_keep_hands_hidden(store: Store, clock: Clock, seed: int) -> None:
    """The long form of test_whole_game: 60 seeds x 2, 3 and 4 players x 121 and 61."""
    for players in (2, 3, 4):
        for target in (121, 61):
            service = make_service(store, clock, seed=seed)
            users = PLAYERS[:players]
            channel = players * 10 + (target == 61)
            table = await open_table(service, users, target=target, channel=channel)
            await drive(service, table, users, check=private_checker(store, table, users))
            show_order_ok(table.channel(), [u.name for u in users])
            game = await load(store, table.outcomes[0].game_id or 0)
            assert game.state.result is not None
