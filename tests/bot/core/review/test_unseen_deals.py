"""A game that ends before its last deal's crib is shown (a resignation, a ranked clock run out
or a player leaving their match, a side pegging out or counting out): the cards of that deal
nobody saw (what each seat threw, and kept but never played) stay unseen on every surface that
draws the finished game (its page and replay, the review of another player, /cribbage verify,
the Activity, the table, a player's data file), each drawing from one rule, engine.seen; a
player's own cards stay theirs to see."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.core.base.replies import Click
from bot.core.base.views import HandControls, ReviewPages
from bot.core.deck.shuffles import ScriptedRandom
from bot.core.games.endings import Ending
from bot.core.games.games import Loaded
from bot.core.messages.projection import deal_seal
from bot.core.messages.spectator import table_seen
from bot.core.review.replay import DealReplay, GameReplay, replay
from bot.core.services import Services
from bot.store import Store
from bot.web.pages import replay_page
from engine.cards import Card
from engine.events import Played, Shown, StarterCut
from engine.game import Game
from engine.pegging import score_pegging
from engine.phase import Phase
from engine.review import review_game
from tests.helpers.activity_states import activity_state
from tests.helpers.cast import in_server
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    Choose,
    Clock,
    Transcript,
    click_of,
    drive,
    first_choice,
    make_service,
    open_table,
)

USERS = (AL, BEA)


@pytest.fixture
def service(store: Store, clock: Clock) -> Services:
    """The core, its shuffles sealed (so /cribbage verify has seeds to show or keep)."""
    return make_service(store, clock, sealing=True)


def _dealt(loaded: Loaded, deal: int) -> list[tuple[Card, ...]]:
    """Each seat's hand as ``deal`` was dealt (the game dealt again from its shuffles)."""
    game = loaded.game
    assert loaded.shuffles is not None
    again, _ = Game.new(
        list(game.state.players), rng=ScriptedRandom(list(loaded.shuffles)), rules=game.state.rules
    )
    for action in game.actions:
        if again.state.deal_number == deal:
            break
        again.apply(action)
    assert again.state.deal_number == deal
    return [again.hand(seat) for seat in range(again.state.num_players)]


def _seen_in(loaded: Loaded, deal: int) -> set[Card]:
    """The cards ``deal``'s events showed (worked out here, apart from the rule under test)."""
    events = loaded.log.events(deal)
    seen = {e.card for e in events if isinstance(e, Played | StarterCut)}
    return seen | {c for e in events if isinstance(e, Shown) for c in e.cards}


def _unseen(loaded: Loaded, told: GameReplay) -> dict[int, set[Card]]:
    """Per seat, the cards of the deal the game ended in that the table never saw."""
    deal = told.deals[-1].number
    seen = _seen_in(loaded, deal)
    return {seat: set(hand) - seen for seat, hand in enumerate(_dealt(loaded, deal))}


@dataclass(frozen=True)
class Ended:
    """A finished game: what it sent, as loaded, told again, and per seat the cards of the
    deal it ended in that the table never saw."""

    table: Transcript
    loaded: Loaded
    told: GameReplay
    unseen: dict[int, set[Card]]

    @property
    def hidden(self) -> set[Card]:
        """Every seat's unseen cards."""
        return set().union(*self.unseen.values())

    @property
    def game_id(self) -> int:
        return self.loaded.record.id

    def page_part(self, deal: DealReplay) -> str:
        """``deal``'s part of the game's page; the deal the game ended in must hold none of
        the cards it never showed (the calls in it are the channel's)."""
        page = replay_page(table_seen(self.loaded.record, self.loaded), self.told, "/g/1/x", {})
        start = page.index(f'<section class="deal" aria-labelledby="deal{deal.number}">')
        part = page[start : page.index("</section>", start)]
        if deal is self.told.deals[-1]:
            shown = [str(c) for c in self.hidden if str(c) in part]
            assert not shown, f"unseen {shown} on the page: {part[:400]}"
        return part


async def _loaded(service: Services, game_id: int) -> Loaded:
    record = await service.games.record(game_id)
    assert record is not None
    return service.games.loaded.load(record)


async def _ended(service: Services, table: Transcript) -> Ended:
    loaded = await _loaded(service, table.outcomes[0].game_id or 0)
    told = replay(loaded)
    assert told is not None
    return Ended(table, loaded, told, _unseen(loaded, told))


async def _ended_in_deal_2(service: Services, ending: Ending) -> Ended:
    """A game whose first deal was shown through, ended (by ``ending``) in the play of its
    second."""
    table = await open_table(service, list(USERS), target=121)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, list(USERS), stop_after=14)
    game = (await _loaded(service, game_id)).game
    assert game.state.deal_number == 2 and game.state.phase is Phase.PLAY and game.state.series
    await table.record(BEA.id, await service.moves.resign(CHANNEL, BEA, ending))
    return await _ended(service, table)


async def _played_out(service: Services, choose: Choose | None = None) -> Ended:
    """A 61-point game played to its end (each choice ``choose``'s, or the plainest)."""
    table = await open_table(service, list(USERS), target=61)
    await drive(service, table, list(USERS), choose=choose)
    return await _ended(service, table)


def _cards_in(data: Any) -> Iterator[str]:
    """The card codes an Activity's state holds, wherever (``card_json``'s ``code``)."""
    if isinstance(data, dict):
        if "code" in data and "label" in data:
            yield str(data["code"])
        for value in data.values():
            yield from _cards_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from _cards_in(value)


@pytest.mark.parametrize("ending", [Ending.RESIGNED, Ending.CLOCK, Ending.LEFT])
async def test_the_page_of_a_game_ended_in_the_play_shows_only_what_was_seen(
    service: Services, ending: Ending
) -> None:
    ended = await _ended_in_deal_2(service, ending)
    first, last = ended.told.deals
    assert all(ended.unseen.values()), "(each seat threw two cards nobody saw)"
    # The page: none of them in the deal's part, and why.
    assert "Not shown: the game ended before the show." in ended.page_part(last)
    assert "Not shown" not in ended.page_part(first)
    # The replay it is drawn from: the shown deal whole, the last only as far as it was seen.
    assert [len(h) for h in first.hands] == [6, 6] and first.shown
    assert last.discards == [(), ()] and not last.shown
    assert {c for hand in last.hands for c in hand} == {
        e.card for e in ended.loaded.log.events(2) if isinstance(e, Played)
    }


async def test_the_table_and_verify_keep_the_unshown_deal_s_cards_and_seed(
    service: Services,
) -> None:
    ended = await _ended_in_deal_2(service, Ending.CLOCK)
    game_id, table = ended.game_id, ended.table
    # The table and the result, as the channel has them.
    said = table.table(game_id, 2) + table.messages[(game_id, "result")].view.content
    assert not [str(c) for c in ended.hidden if str(c) in said], said
    # /cribbage verify: the first deal's seed is shown, the last's stays secret.
    checked = (await service.shuffles.check(in_server(), CHANNEL, game_id, viewer=AL.id)).reply
    assert "Deal 1: ✅" in checked.text
    assert "Deal 2: sealed" in checked.text and "stays secret" in checked.text


async def test_the_activity_at_the_end_shows_each_reader_only_what_they_saw(
    service: Services,
) -> None:
    ended = await _ended_in_deal_2(service, Ending.LEFT)
    loaded, unseen = ended.loaded, ended.unseen
    # The Activity of someone not seated, and of each player: their own cards alone, and the
    # last show said to be the first deal's (deal 2 was never shown; it said "The show", as
    # if of deal 2).
    for seat, viewer in ((None, 0), (0, AL.id), (1, BEA.id)):
        state = activity_state(loaded.record, loaded, viewer)
        assert state["show"]["deal"] == 1
        shown = set(_cards_in(state.pop("show")))
        assert shown <= {c.code for c in _seen_in(loaded, 1)}
        others = ended.hidden if seat is None else unseen[1 - seat]
        assert not set(_cards_in(state)) & {c.code for c in others}, (viewer, state)
        if seat is not None:  # what they kept and threw, theirs to see still
            assert {c.code for c in unseen[seat]} <= set(_cards_in(state)), state


async def test_the_review_of_another_player_shows_no_deal_its_crib_did_not_show(
    service: Services,
) -> None:
    ended = await _ended_in_deal_2(service, Ending.RESIGNED)
    game_id = ended.game_id
    # Al looks at Bea's review, and the game's page draws it for anyone: deal 1 alone.
    report = await service.reviews.report(ended.loaded.record, 1)
    assert {d.deal for d in report.decisions} == {1}
    opened = await service.reviews.review(in_server(), CHANNEL, AL, game_id, BEA)
    view = opened.reply.view
    pages = view.controls_of(ReviewPages) if view is not None else None
    assert opened.ok and pages is not None, opened.reply.text
    texts = [opened.reply.text + (view.content if view else "")]
    for page in range(1, pages.pages):
        turned = (await service.reviews.page(in_server(), AL, game_id, pages.seat, page)).update
        assert turned is not None
        texts.append(turned.content)
    # (No page of deal 2, nor a mistake of it; the summary says it is left out.)
    assert not [t for t in texts if "**Deal 2**" in t or "Deal 2:" in t]
    # Bea's own review keeps her decisions of deal 2 (her own cards are hers to see).
    own = await service.reviews.review(in_server(), CHANNEL, BEA, game_id)
    assert own.ok and own.reply.view is not None
    mine = own.reply.view.controls_of(ReviewPages)
    assert mine is not None and mine.pages > pages.pages


async def test_the_review_of_another_player_says_which_deal_it_leaves_out(
    service: Services,
) -> None:
    # Seen in the playground: Bea's review of Al's game read "50% (9 of 18 decisions)" where
    # Al's own read "45% (10 of 22)", with nothing to say a deal was left out.
    ended = await _ended_in_deal_2(service, Ending.RESIGNED)
    theirs = await service.reviews.review(in_server(), CHANNEL, AL, ended.game_id, BEA)
    assert theirs.ok and theirs.reply.view is not None
    summary = theirs.reply.view.content
    assert "Deal 2 is left out: Bea's cards in it were never shown." in summary, summary
    own = await service.reviews.review(in_server(), CHANNEL, BEA, ended.game_id)
    assert own.ok and own.reply.view is not None
    assert "left out" not in own.reply.view.content, own.reply.view.content


async def test_a_deal_counted_out_before_the_crib_shows_only_what_was_seen(
    service: Services,
) -> None:
    ended = await _played_out(service)
    last = ended.told.deals[-1]
    events = ended.loaded.log.events(last.number)
    assert any(isinstance(e, Shown) for e in events), "(it ends in the show: a hand counts out)"
    assert not any(isinstance(e, Shown) and e.crib for e in events) and ended.hidden
    assert "Not shown: the game ended before the crib was shown." in ended.page_part(last)
    assert not {c for hand in last.hands for c in hand} & ended.hidden and not last.shown


async def test_a_deal_pegged_out_shows_only_the_cards_played(store: Store, clock: Clock) -> None:
    # Each player pegs all they can: this 61-point game ends in its last deal's play.
    service = make_service(store, clock, seed=1, sealing=True)

    async def pegging(controls: HandControls) -> Click:
        if controls.kind != "play":
            return first_choice(controls)
        game = (await _loaded(service, controls.game_id)).game
        cards = [Card.parse(c.code) for c in controls.cards if c.enabled]
        best = max(
            cards, key=lambda c: score_pegging([*game.state.series, c], game.state.rules).total
        )
        return click_of(controls, best.code)

    ended = await _played_out(service, pegging)
    last = ended.told.deals[-1]
    events = ended.loaded.log.events(last.number)
    assert not any(isinstance(e, Shown) for e in events), "(pegged out in the play)"
    assert ended.hidden
    assert "Not shown: the game ended before the show." in ended.page_part(last)
    played = {e.card for e in events if isinstance(e, Played)}
    assert {c for hand in last.hands for c in hand} == played and not last.shown
    checked = (
        await service.shuffles.check(in_server(), CHANNEL, ended.game_id, viewer=AL.id)
    ).reply
    assert f"Deal {last.number}: sealed" in checked.text and "stays secret" in checked.text


@pytest.mark.parametrize("ending", [Ending.RESIGNED, Ending.PLAYED])
async def test_the_page_the_review_and_the_seal_agree_on_the_deals_shown(
    service: Services, ending: Ending
) -> None:
    # One rule (engine.seen) says which deals were shown through: the page's deals told
    # whole, the deals whose decisions another player's review shows, the seeds shown.
    played = ending is Ending.PLAYED
    ended = await (_played_out(service) if played else _ended_in_deal_2(service, ending))
    loaded, told = ended.loaded, ended.told
    game = loaded.game
    assert loaded.shuffles is not None
    paged = {deal.number for deal in told.deals if deal.shown}
    reviewed = review_game(
        game.state.players,
        game.actions,
        rng=ScriptedRandom(list(loaded.shuffles)),
        seats={0},
        seed=1,
        rules=game.state.rules,
        samples=1,
    ).shown
    seeds = {
        deal
        for deal in range(1, game.state.deal_number + 1)
        if (seal := deal_seal(game, loaded.log, loaded.seeds, deal)) and seal.seed is not None
    }
    assert paged == reviewed == seeds == set(range(1, game.state.deal_number))


async def test_a_players_data_file_holds_no_card_of_another_they_did_not_see(
    service: Services,
) -> None:
    ended = await _ended_in_deal_2(service, Ending.RESIGNED)
    await service.reviews.review_all(ended.loaded.record)
    unseen = ended.unseen
    for seat, user in enumerate(USERS):
        with zipfile.ZipFile(io.BytesIO((await service.privacy.data_file(user)).data)) as kept:
            sent = json.loads(kept.read("cribbage-data.json"))
        # Each game from its seat: what the game was, never its state or its moves.
        assert [row["seat"] for row in sent["games"]] == [seat]
        assert not {"snapshot", "actions"} & set(sent["games"][0])
        # Their review: their own decisions, their own cards; nothing of the other's unseen.
        [review] = sent["reviews"]
        assert review["seat"] == seat and review["data"]["shown"] == [1]
        decisions = review["data"]["decisions"]
        assert {d["seat"] for d in decisions} == {seat}
        last = json.dumps([d for d in decisions if d["deal"] == 2])
        assert not [c.code for c in unseen[1 - seat] if f'"{c.code}"' in last], last
