"""Reviews of games through the core: made once and kept, paged, refused where they would show
what they may not, and added up in the stats."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.core.base.places import Place, Spot
from bot.core.base.replies import Answer, User
from bot.core.base.views import ReviewPages
from bot.core.review import review as reviews
from bot.core.review.report import page_view
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card, parse_cards
from engine.review import Decision, GameReview
from engine.variants import named
from tests.helpers.card_leaks import cards_in_text
from tests.helpers.cast import AL, BEA, CHANNEL, EVE, GUILD, in_server, outside
from tests.helpers.review_reports import report_of
from tests.helpers.service_driver import (
    Clock,
    drive,
    finished_game,
    load,
    make_service,
    open_table,
)


async def _pages(service: Services, user: User, first: Answer) -> list[str]:
    """Every page of the review ``first`` opened, by its Next button."""
    view = first.reply.view
    pages = view.controls_of(ReviewPages) if view is not None else None
    assert first.ok and view is not None and pages is not None, first.reply.text
    texts = [view.content]
    for page in range(1, pages.pages):
        answer = await service.reviews.page(in_server(), user, pages.game_id, pages.seat, page)
        assert answer.ok and answer.update is not None, answer.reply.text
        assert answer.update.controls_of(ReviewPages) == type(pages)(
            pages.game_id, pages.seat, page, pages.pages
        )
        texts.append(answer.update.content)
    return texts


async def test_a_finished_game_is_reviewed_once_kept_and_shows_only_what_was_seen(
    store: Store, service: Services
) -> None:
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    own: set[Card] = set()  # every card Al held
    public: set[Card] = set()  # every card the table showed

    async def watch(outcome: Answer, user: User) -> None:
        game = await load(store, game_id)
        view = game.view(0)
        own.update(view.hand, view.kept, view.discards)
        public.update(card for played in view.played for card in played)
        if view.starter is not None:
            public.add(view.starter)

    await drive(service, table, [AL, BEA], check=watch)
    first = await service.reviews.review(in_server(), CHANNEL, AL)
    texts = await _pages(service, AL, first)
    assert "Accuracy" in texts[0] and "Review of game" in texts[0]
    assert any("**Deal 1**" in text for text in texts[1:])
    for text in texts:
        assert cards_in_text(text) <= own | public, text
    kept = await store.review(game_id, 0)
    assert kept is not None and kept.final and kept.user_id == AL.id
    figures = GameReview.from_dict(json.loads(kept.data)).of(0)
    assert kept.decisions == len(figures) > 0

    # Kept: asked again, it is read, not made.
    async def fail(_request: object) -> GameReview:
        raise AssertionError("made again")

    service.reviews._make = fail
    again = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    assert again.reply.view is not None and again.reply.view.content == texts[0]
    line = await service.reviews.stats_line(GUILD, AL.id)
    assert line is not None and "Accuracy" in line and "last 1 reviewed game" in line


async def test_once_over_anyone_may_see_a_players_review(store: Store, service: Services) -> None:
    _, game_id = await finished_game(service)
    answer = await service.reviews.review(in_server(), CHANNEL, EVE, game_id, BEA)
    assert answer.ok and answer.reply.view is not None
    assert "— Bea**" in answer.reply.view.content
    refused = await service.reviews.review(in_server(), CHANNEL, AL, game_id, EVE)
    assert refused.reply.text == reviews.NOT_A_PLAYER
    # The same as data, for a page: both sides, to someone who did not play.
    record = await store.get_game(game_id)
    assert record is not None
    both = [await service.reviews.report(record, seat) for seat in (0, 1)]
    assert [r.player for r in both] == ["Al", "Bea"] and all(r.final for r in both)
    assert all(r.accuracy is not None and r.pages > 1 for r in both)


async def test_a_game_going_on_is_reviewed_only_by_its_players_up_to_the_last_deal(
    store: Store, service: Services
) -> None:
    table = await open_table(service, [AL, BEA], target=121)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, [AL, BEA], stop_after=1)
    early = await service.reviews.review(in_server(), CHANNEL, AL)
    assert not early.ok and early.reply.text == reviews.NOTHING_YET
    await drive(service, table, [AL, BEA], stop_after=30)
    game = await load(store, game_id)
    assert game.state.deal_number >= 2
    stranger = await service.reviews.review(in_server(), CHANNEL, EVE, game_id)
    assert not stranger.ok and stranger.reply.text == reviews.STILL_GOING
    other = await service.reviews.review(in_server(), CHANNEL, AL, game_id, BEA)
    assert not other.ok and other.reply.text == reviews.OWN_ONLY
    mine = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    assert mine.ok, mine.reply.text
    kept = await store.review(game_id, 0)
    assert kept is not None and not kept.final and kept.deals == game.state.deal_number - 1
    decided = {d.deal for d in GameReview.from_dict(json.loads(kept.data)).decisions}
    assert decided and max(decided) < game.state.deal_number, "nothing of the deal being played"
    # Not counted in the stats before the game is over.
    assert await service.reviews.stats_line(GUILD, AL.id) is None


async def test_a_game_elsewhere_or_nowhere_is_not_found(service: Services) -> None:
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    for answer in (
        await service.reviews.review(in_server(guild=GUILD + 1), CHANNEL, AL, game_id),
        await service.reviews.review(in_server(), CHANNEL, AL, game_id + 1000),
        await service.reviews.review(in_server(), CHANNEL, AL, 2**62),
        await service.reviews.page(in_server(guild=GUILD + 1), AL, game_id, 0, 1),
    ):
        assert not answer.ok and answer.reply.text == reviews.NO_SUCH_GAME
    nowhere = await service.reviews.review(in_server(CHANNEL + 1), CHANNEL + 1, AL)
    assert not nowhere.ok and nowhere.reply.text == reviews.NO_GAME_HERE
    bad_seat = await service.reviews.page(in_server(), AL, game_id, 3, 0)
    assert not bad_seat.ok and bad_seat.reply.text == reviews.NOT_A_PLAYER


async def test_a_game_not_found_outside_servers_is_said_in_the_places_words(
    service: Services,
) -> None:
    # Issue 54: asked for in a DM, a group DM or the bot's DM, a server's game (or none) was
    # "not in this server": the refusal names the place it was asked in, the same words
    # whether the game exists elsewhere or not.
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    said = {
        outside(77): reviews.NOT_IN_THIS_CONVERSATION,
        Place(Spot.BOT_DM, 78): reviews.NOT_IN_MY_DMS,
    }
    for place, sentence in said.items():
        for answer in (
            await service.reviews.review(place, place.channel_id, AL, game_id),
            await service.reviews.review(place, place.channel_id, AL, game_id + 1000),
            await service.reviews.page(place, AL, game_id, 0, 1),
            await service.shuffles.check(place, place.channel_id, game_id, viewer=AL.id),
            await service.shuffles.check(place, place.channel_id, game_id + 1000),
        ):
            assert not answer.ok and answer.reply.text == sentence
        assert "server" not in sentence.partition(":")[0]


async def test_a_pruned_game_is_reviewed_from_its_archive_record(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True, retention=timedelta(days=30))
    _, game_id = await finished_game(service)
    clock.advance(days=31)
    assert await service.housekeeping.prune() == 1
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is None
    answer = await service.reviews.review(in_server(), CHANNEL, BEA, game_id)
    assert answer.ok and answer.reply.view is not None, answer.reply.text
    assert "— Bea**" in answer.reply.view.content and "Accuracy" in answer.reply.view.content


@pytest.mark.parametrize(
    ("variant", "said"),
    [("standard", True), ("five_card", False), ("seven_card", False)],
)
async def test_a_deals_page_says_the_chances_only_where_the_experts_tables_hold(
    service: Services, variant: str, said: bool
) -> None:
    # The chances are the standard two-player game's tables: five-card (one pass, hands of
    # three) and seven-card (hands of six, to 181) read from them were wrong numbers.
    target = named(variant).targets[-1]
    table = await open_table(service, [AL, BEA], target=target, variant=variant)
    await drive(service, table, [AL, BEA], stop_after=40)
    texts = await _pages(service, AL, await service.reviews.review(in_server(), CHANNEL, AL))
    assert len(texts) > 1
    assert all(("Chances to win —" in text) is said for text in texts[1:]), texts
    game_id = table.outcomes[0].game_id or 0
    for page in range(1, len(texts)):
        shown = (await service.reviews.page(in_server(), AL, game_id, 0, page)).update
        assert shown is not None and shown.board is not None
        assert (shown.board.chances is not None) is said


def test_a_deals_page_heads_with_the_scores_the_deal_began_with() -> None:
    # Five-hand's dealer throws nothing: its first decision of deal 2 is a play, made after
    # the heels and some pegging. The page and its board say the scores as the deal began.
    play = Decision(
        deal=2,
        kind="play",
        seat=0,
        dealer=0,
        scores=(14, 9, 11, 6, 12),
        held=tuple(parse_cards("5H 6D 9C KS")),
        chosen=(Card.parse("5H"),),
        best=(Card.parse("6D"),),
        chosen_value=0.5,
        best_value=1.5,
        unit="points",
        count=10,
    )
    began = ((0, 0, 0, 0, 0), (12, 7, 11, 6, 10))
    report = report_of([play], ("Al", "Bea", "Cy", "Dee", "Eve"), target=61, began=began)
    view = page_view(report, 1)
    assert view.content.startswith("**Deal 2** — Al: 12 · Bea: 7 · Cy: 11 · Dee: 6 · Eve: 10"), (
        view.content
    )
    assert view.board is not None
    assert [front for front, _ in view.board.pegs] == [12, 7, 11, 6, 10]
