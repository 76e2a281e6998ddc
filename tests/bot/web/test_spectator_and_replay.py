"""What a game's page is drawn from: the channel's messages while it is played (no hand, no
card still held), and once it is over the whole game told again with every hand."""

from __future__ import annotations

import dataclasses
import html
import random
from itertools import pairwise

import pytest

from bot.core.base.replies import Answer, Click, User
from bot.core.base.text import Names, plural
from bot.core.base.views import ReviewPages
from bot.core.games.chances import chances, chances_line
from bot.core.games.games import Loaded
from bot.core.messages.game_messages import ratings_line
from bot.core.messages.spectator import DealHistory, table_seen
from bot.core.pages import GamePages
from bot.core.review.replay import replay
from bot.core.services import Services
from bot.store import Store
from bot.web.pages import replay_page, spectator_page
from engine.phase import Phase
from engine.scoring import score_hand
from tests.bot.core.games.test_counting import (
    CLAIM_VALUES,
    a_count_worth_something,
    first_count,
    manual_table,
    worth,
)
from tests.helpers.cast import EVE, FLO, in_server
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    DEE,
    Clock,
    drive,
    finished_game,
    make_service,
    open_table,
    owed_now,
)


async def _loaded(service: Services, game_id: int) -> Loaded:
    record = await service.games.record(game_id)
    assert record is not None
    return service.games.loaded.load(record)


async def test_the_page_shows_what_the_channel_is_owed_and_no_held_card(
    service: Services, store: Store
) -> None:
    table = await open_table(service, [AL, BEA], target=121)
    game_id = table.outcomes[0].game_id or 0
    looked = 0

    async def check(outcome: Answer, user: User) -> None:
        nonlocal looked
        loaded = await _loaded(service, game_id)
        seen = table_seen(loaded.record, loaded, await ratings_line(store, loaded.record))
        channel = [o.view for o in await owed_now(service, game_id) if o.user_id is None]
        shown = [v for v in channel if v in seen.messages]
        assert list(seen.messages) == shown, "the page shows the channel's messages, in order"
        assert seen.board is not None and seen.version == loaded.record.version
        game = loaded.game
        if game.state.phase is Phase.OVER or game.state.deal_number < 2:
            return  # (the cut for deal may name a card dealt later)
        held = {str(c) for seat in range(game.state.num_players) for c in game.hand(seat)}
        current = seen.messages[-1].content
        assert f"**Deal {game.state.deal_number}**" in current
        # The show of this deal has not happened: no card still in a hand is on the page.
        assert not [card for card in held if card in current], current
        page = spectator_page(seen, "/g/1/x", {})
        assert "Live" in page and "data-live" in page
        assert replay(loaded) is None, "no replay of a game still going"
        looked += 1

    await drive(service, table, [AL, BEA], check=check)
    assert looked > 20


async def test_the_page_shows_every_deal_the_channel_keeps_as_the_game_goes(
    service: Services, store: Store
) -> None:
    """The stored game keeps its last three deals (what its messages are drawn from); the
    channel keeps every deal's table, the first with the cut for deal. The page, drawn as
    the game goes (its deals dealt again from the shuffles, taken on move by move), shows
    the channel's messages, all of them, in its order: the lobby, every deal's table as the
    channel shows it now, the result."""
    table = await open_table(service, [AL, BEA], target=121)
    game_id = table.outcomes[0].game_id or 0
    deals_seen = 0

    async def check(outcome: Answer, user: User) -> None:
        nonlocal deals_seen
        record = await service.games.record(game_id)
        assert record is not None
        seen = await service.pages.seen(record)
        assert [v.content for v in seen.messages] == table.channel(game_id)
        assert seen.earlier_deals == 0
        # Taken on move by move, or dealt again from the first shuffle: the same page.
        fresh = GamePages(service.games, store, service.coach, service.reviews, service.leagues)
        assert (await fresh.seen(record)).messages == seen.messages
        deals_seen = max(deals_seen, sum("**Deal " in v.content for v in seen.messages))

    await drive(service, table, [AL, BEA], check=check)
    assert deals_seen >= 6, "the page went past the three deals the stored game keeps"
    record = await service.games.record(game_id)
    assert record is not None
    first = (await service.pages.seen(record)).messages[1].content
    assert first.startswith("Cut for deal") or "Cut for deal" in first, first


async def test_a_game_begun_before_its_shuffles_were_recorded_says_where_its_first_deals_are(
    service: Services,
) -> None:
    """Its deals the stored game let go cannot be dealt again: the live page says they are
    further up the channel's history (rather than showing three deals as the whole game)."""
    table = await open_table(service, [AL, BEA], target=121)
    game_id = table.outcomes[0].game_id or 0

    async def check(outcome: Answer, user: User) -> None:
        loaded = await _loaded(service, game_id)
        if loaded.log.deal < 5 or loaded.game.state.phase is Phase.OVER:
            return
        old = dataclasses.replace(loaded, shuffles=None)
        seen = table_seen(loaded.record, DealHistory().whole(old))
        assert seen.earlier_deals == loaded.log.deal - 3
        page = spectator_page(seen, "/g/1/x", {})
        assert f"the tables of the first {seen.earlier_deals} deals are further up its" in page
        raise _Enough

    with pytest.raises(_Enough):
        await drive(service, table, [AL, BEA], check=check)


class _Enough(Exception):
    """A driven game has shown what the test looks for."""


async def test_an_ended_game_is_told_again_with_every_hand(service: Services) -> None:
    _, game_id = await finished_game(service)
    loaded = await _loaded(service, game_id)
    told = replay(loaded)
    assert told is not None
    game = loaded.game
    assert game.state.result is not None
    # The last step is the result, and its pegs are the final scores.
    assert "wins" in told.steps[-1].text and told.steps[-1].winner == game.state.result.winner
    assert tuple(front for front, _ in told.steps[-1].pegs) == game.state.scores
    assert len(told.deals) == game.state.deal_number
    # Every deal whose crib was shown is told whole (the deal the game ended in before its
    # crib's show only as far as it was seen: tests/bot/core/review/test_unseen_deals.py).
    assert all(deal.shown for deal in told.deals[:-1])
    for deal in (d for d in told.deals if d.shown):
        for hand, thrown in zip(deal.hands, deal.discards, strict=True):
            assert len(hand) == 6 and len(thrown) == 2 and set(thrown) <= set(hand)
        for show in deal.shows:
            assert show.points == sum(item.points for item in show.items)
            assert show.points == score_hand(show.cards, show.starter, crib=show.crib).total
    # A step's board: the pegs never go backwards.
    fronts = [tuple(front for front, _ in step.pegs) for step in told.steps]
    assert all(a[s] <= b[s] for a, b in pairwise(fronts) for s in range(2))
    seen = table_seen(loaded.record, loaded)
    assert seen.over
    step = random.Random(3).randrange(len(told.steps))
    page = replay_page(seen, told, "/g/1/x", {}, step=step)
    assert f'id="s{step}" aria-current="step" href="?step={step}#s{step}"' in page
    assert page.count('aria-current="step" href') == 1
    assert page.count('class="deal"') == game.state.deal_number
    assert "data-live" not in page


@pytest.mark.parametrize("people", [3, 4])
async def test_every_hand_of_three_and_four_is_told(service: Services, people: int) -> None:
    users = [AL, BEA, CY, DEE][:people]
    _, game_id = await finished_game(service, users)
    loaded = await _loaded(service, game_id)
    told = replay(loaded)
    assert told is not None and told.deals
    assert all(deal.shown for deal in told.deals[:-1])
    for deal in (d for d in told.deals if d.shown):
        assert [len(hand) for hand in deal.hands] == [5] * people
        assert all(
            len(thrown) == 1 and set(thrown) <= set(hand)
            for hand, thrown in zip(deal.hands, deal.discards, strict=True)
        )
    assert tuple(front for front, _ in told.steps[-1].pegs) == loaded.game.state.scores


async def test_a_resignation_is_told_as_the_channel_said_it(service: Services) -> None:
    table = await open_table(service, [AL, BEA], target=121)
    await drive(service, table, [AL, BEA], stop_after=5)
    game_id = table.outcomes[0].game_id or 0
    resigned = await service.moves.resign(CHANNEL, BEA)
    assert resigned.ok, resigned.reply.text
    told = replay(await _loaded(service, game_id))
    assert told is not None and told.steps[-1].text.startswith("Bea resigned — 🏆 Al wins")


async def test_the_replay_and_the_review_say_each_deals_chances_to_win(
    service: Services,
) -> None:
    _, game_id = await finished_game(service)
    told = replay(await _loaded(service, game_id))
    assert told is not None
    for deal in told.deals:
        step = told.steps[deal.first_step]
        # Said as the deal begins, from the scores then and its dealer, and on its board.
        fronts = [front for front, _ in step.pegs]
        said = chances(fronts, 61, deal.dealer)
        assert said is not None and step.chances == said
        assert step.text.endswith(chances_line(["Al", "Bea"], said)), step.text
        assert told.board(deal.first_step).chances == said
        assert all(s.chances is None for s in told.steps[deal.first_step + 1 : deal.last_step + 1])
    # The review's page of each deal says them too, with its board.
    first = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    view = first.reply.view
    pages = view.controls_of(ReviewPages) if view is not None else None
    assert first.ok and pages is not None, first.reply.text
    for page in range(1, pages.pages):
        turned = await service.reviews.page(in_server(), AL, game_id, pages.seat, page)
        shown = turned.update
        assert shown is not None and shown.board is not None
        assert shown.board.chances is not None
        assert chances_line(["Al", "Bea"], shown.board.chances) in shown.content


async def test_five_card_three_for_last_is_a_step_of_the_replay(service: Services) -> None:
    # Five-card cribbage pegs three for last before the first deal: the channel says it under
    # the cut for deal, and the replay lists it there too, a step that can be chosen.
    opened, game_id = await finished_game(service, variant="five_card")
    loaded = await _loaded(service, game_id)
    told = replay(loaded)
    assert told is not None
    said = [i for i, step in enumerate(told.steps) if "takes three for last" in step.text]
    assert said == [1] and told.opening == 2 == told.deals[0].first_step
    assert "takes three for last" in opened.table(loaded.record.id, 1)
    page = replay_page(table_seen(loaded.record, loaded), told, "/g/1/x", {}, step=1)
    # Every step is a link on the page, once; the one asked for is the current one.
    for index in range(len(told.steps)):
        assert page.count(f'href="?step={index}#s{index}"') == 1, index
    assert 'id="s1" aria-current="step"' in page
    assert "takes three for last" in page.split('id="s1"', 1)[1].split("</a>", 1)[0]


async def test_the_boards_before_the_first_deal_mark_who_deals_first(service: Services) -> None:
    users = [AL, BEA, CY, DEE]
    _, game_id = await finished_game(service, users)
    loaded = await _loaded(service, game_id)
    told = replay(loaded)
    assert told is not None and told.opening >= 1
    first = told.deals[0].dealer
    assert first != 0, "(the seed makes Dee deal first, not the first seat)"
    # The cut for deal says who deals first; its board marks that side's crib, as deal 1's.
    for step in range(told.opening + 1):
        assert told.steps[step].dealer == first, told.steps[step].text
        assert told.board(step).dealer == loaded.game.public_view().sides[first]


@pytest.mark.parametrize(
    ("variant", "seated", "title"),
    [
        ("standard", 4, "Al & Cy v Bea & Dee, to 121"),
        ("six_hand", 6, "Al & Cy & Eve v Bea & Dee & Flo, six-hand cribbage to 121"),
        ("six_hand_pairs", 6, "Al & Dee v Bea & Eve v Cy & Flo, six-hand cribbage in pairs to 121"),
        ("five_hand", 5, "Al v Bea v Cy v Dee v Eve, five-hand cribbage to 121"),
        ("seven_card", 2, "Al v Bea, seven-card cribbage to 181"),
    ],
)
async def test_the_pages_title_names_the_sides_as_the_table_does(
    service: Services, variant: str, seated: int, title: str
) -> None:
    # Teams are one side each, as the lobby's "Partners: Al & Cy & Eve against Bea & Dee &
    # Flo." says, not six players each for themselves; a variant is named.
    users = [AL, BEA, CY, DEE, EVE, FLO][:seated]
    target = int(title.rsplit(" ", 1)[1])
    opened = await open_table(service, users, target=target, variant=variant)
    loaded = await _loaded(service, opened.outcomes[0].game_id or 0)
    seen = table_seen(loaded.record, loaded)
    assert seen.title == title
    assert f"<h1>{html.escape(title)}</h1>" in spectator_page(seen, "/g/1/x", {})
    names = Names.of(loaded.game.public_view())
    assert seen.title.rsplit(", ", 1)[0] == " v ".join(
        names.side(side) for side in range(names.num_sides)
    )


async def test_a_claim_over_a_hands_value_is_told_again_with_its_points_over(
    store: Store, clock: Clock
) -> None:
    """A replay says each event alone: the points over pegged for a claim too high (issue 54)
    are a step of their own, their pegs the taker's."""
    table, game_id, game, counter = await first_count(store, clock)
    value, claimed = worth(game), max(CLAIM_VALUES)
    other = BEA if counter is AL else AL
    assert (await table.service.moves.count(CHANNEL, counter, claimed)).ok
    assert (await table.service.moves.resign(CHANNEL, counter)).ok
    told = replay(await _loaded(table.service, game_id))
    assert told is not None
    over = plural(claimed - value, "point")
    [step] = [s for s in told.steps if s.text.startswith("Too many!")]
    assert step.text.startswith(f"Too many! {other.name} pegs the {over} {counter.name} claimed")
    seat = (AL, BEA).index(other)
    assert step.pegs[seat][0] == game.state.scores[seat] + claimed - value


async def test_a_manual_games_page_says_each_claim_beside_the_hands_worth(
    store: Store, clock: Clock
) -> None:
    """The page's show table of a game counted by hand says what each owner claimed and what
    the claim got wrong, as the table said it: the hand's worth alone beside a score its
    owner's claim moved (a short claim let stand) did not add up."""
    service = make_service(store, clock, seed=3)
    table, game_id = await manual_table(service, store)
    game, owner = await a_count_worth_something(table, [AL, BEA], game_id)
    other = BEA if owner is AL else AL
    value = worth(game)
    assert (await table.record(owner.id, await service.moves.count(CHANNEL, owner, 0))).ok
    # The opponent lets the short claim stand (No muggins): it is pegged as claimed.
    stamp = table.latest[other.id].stamp
    stand = await service.moves.click(Click(game_id, "pass", stamp), other, guild_id=None)
    assert stand.ok, stand.reply.text
    assert (await service.moves.resign(CHANNEL, owner)).ok
    loaded = await _loaded(service, game_id)
    told = replay(loaded)
    assert told is not None
    [show] = [s for s in told.deals[-1].shows if s.seat == (AL, BEA).index(owner)]
    assert (show.points, show.claimed) == (value, 0)
    said = f"{owner.name}'s hand counted: "
    assert any(s.text.startswith(said) and s.text.endswith(show.wrong) for s in told.steps)
    page = replay_page(table_seen(loaded.record, loaded), told, "/g/1/x", {})
    missed = html.escape(f"{value} (claimed 0) — {plural(value, 'point')} missed")
    assert f"<td>{missed}</td><td>{show.total}</td>" in page
