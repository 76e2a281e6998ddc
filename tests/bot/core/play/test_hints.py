"""A hand's *Hint* (issue 56): the expert's choice in the asker's place, said to them alone,
at the tables that offer it (against the computer alone, a lesson, a table whose opener
allowed hints) and refused in one sentence everywhere else (ranked play, a tournament's game,
a table without them); the game does not change, and its result says it was played with
hints."""

from __future__ import annotations

import random

import pytest

from bot.core.base import refusals
from bot.core.base.replies import Answer, Click, TableAsked, User
from bot.core.base.views import HandControls
from bot.core.games.records import Options, Round
from bot.core.messages.lesson import HINT_FIGURES
from bot.core.play.hints import HINT_MARK, hint_seed
from bot.core.review.report import page_view
from bot.core.services import Services
from bot.store import Store
from engine.hint import NOTHING_TO_DECIDE, hint
from engine.players import make_player
from tests.helpers.cast import AL, BEA, CHANNEL, GUILD
from tests.helpers.service_driver import (
    Clock,
    Transcript,
    click_of,
    drive,
    first_choice,
    load,
    make_service,
    open_table,
    ranked_game,
    search_ranked,
)


def _hint_of(controls: HandControls) -> Click:
    return Click(controls.game_id, "hint", controls.stamp)


async def _against_computer(service: Services, level: str = "medium") -> tuple[Transcript, int]:
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(vs_computer=True, level=level, target=61)
    )
    await table.record(AL.id, opened)
    assert opened.game_id is not None
    return table, opened.game_id


async def _ask(service: Services, controls: HandControls, user: User = AL) -> Answer:
    return await service.hints.hint(_hint_of(controls), user, guild_id=GUILD)


async def test_against_the_computer_alone_a_hint_is_the_experts_choice_and_changes_nothing(
    service: Services, store: Store
) -> None:
    table, game_id = await _against_computer(service)
    controls = table.latest[AL.id]
    assert controls.kind == "discard" and controls.hint
    record = await service.games.store.get_game(game_id)
    assert record is not None
    answer = await _ask(service, controls)
    assert answer.ok and answer.reply.ephemeral and answer.update is None
    assert answer.sequel is None, "a hint sends nothing more"
    assert answer.reply.text.startswith(f"{HINT_MARK} keep "), answer.reply.text
    # The expert's own choice, from Al's view as it is, with the hint's seed.
    game = await load(store, game_id)
    seed = hint_seed(game_id, record.version, 0)
    expected = hint(make_player("expert"), game.view(0), random.Random(seed))
    assert answer.reply.text == f"{HINT_MARK} {expected.line}.", "(a learner's says more)"
    # Asked again, the same hint; the game did not move, and the hints are counted.
    assert (await _ask(service, controls)).reply.text == answer.reply.text
    after = await service.games.store.get_game(game_id)
    assert after is not None and after.version == record.version
    assert await service.games.store.hints_taken(game_id) == {0: 2}
    # Thrown as the hint says, the play's hand offers a hint too, of a card.
    thrown = Click(game_id, "discard", controls.stamp, tuple(c.code for c in expected.cards))
    await table.record(AL.id, await service.moves.click(thrown, AL, guild_id=GUILD))
    playing = table.latest.get(AL.id)
    if playing is not None and playing.kind == "play":
        assert playing.hint
        said = await _ask(service, playing)
        assert said.reply.text.startswith(f"{HINT_MARK} play "), said.reply.text


async def test_a_hint_of_an_older_moment_or_with_nothing_to_decide_is_refused(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA], hints=True)
    al, bea = table.latest[AL.id], table.latest[BEA.id]
    assert al.hint and bea.hint
    stale = await service.hints.hint(Click(al.game_id, "hint", al.stamp + 5), AL, guild_id=GUILD)
    assert not stale.ok and stale.reply.text == refusals.STALE_HINT
    thrown = Click(al.game_id, "discard", al.stamp, tuple(c.code for c in al.cards[:2]))
    await table.record(AL.id, await service.moves.click(thrown, AL, guild_id=GUILD))
    waiting = await _ask(service, al)
    assert not waiting.ok and waiting.reply.text == NOTHING_TO_DECIDE
    stranger = await _ask(service, bea, User(99, "Zed"))
    assert not stranger.ok and stranger.reply.text == refusals.NOT_A_PLAYER


async def test_between_people_hints_are_off_unless_the_opener_allowed_them(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA])
    al = table.latest[AL.id]
    assert not al.hint, "no Hint at a table without hints"
    refused = await _ask(service, al)
    assert not refused.ok and refused.reply.text == refusals.HINTS_OFF
    lobby = table.channel()[0]
    assert "hints allowed" not in lobby


async def test_a_table_with_hints_says_so_on_its_lobby_and_its_result(service: Services) -> None:
    table = await open_table(service, [AL, BEA], target=61, hints=True)
    game_id = table.outcomes[0].game_id
    assert game_id is not None
    assert "auto counting, hints allowed." in table.channel(game_id)[0]
    answer = await _ask(service, table.latest[BEA.id], BEA)
    assert answer.ok, answer.reply.text
    await drive(service, table, [AL, BEA])
    result = table.messages[(game_id, "result")].view.content
    assert "💡 Played with hints: Bea asked for 1 hint." in result, result


async def test_a_table_with_hints_where_nobody_asked_says_they_were_allowed(
    service: Services,
) -> None:
    table = await open_table(service, [AL, BEA], target=61, hints=True)
    game_id = table.outcomes[0].game_id
    await drive(service, table, [AL, BEA])
    result = table.messages[(game_id or 0, "result")].view.content
    assert "💡 Hints were allowed at this table; nobody asked for one." in result, result


async def test_never_in_a_tournament_or_ranked_game(service: Services, store: Store) -> None:
    thread = 4242
    tournament = await service.lobbies.open_seated(
        GUILD, thread, (AL, BEA), Options(2, 121), occasion=Round("Round 1 of the cup")
    )
    for user in (AL, BEA):
        await search_ranked(service, user, 900 + user.id, guild_id=GUILD)
    ranked = await ranked_game(service, store, AL)
    for record, refusal in (
        (tournament, refusals.HINTS_TOURNAMENT),
        (ranked, refusals.HINTS_RANKED),
    ):
        game = await load(store, record.id)
        stamp = game.state.deal_number
        refused = await service.hints.hint(
            Click(record.id, "hint", stamp), AL, guild_id=GUILD if record is tournament else None
        )
        assert not refused.ok and refused.reply.text == refusal
    # (Their hands offer none: the same decision.)
    owing = await service.ledger.owed(service.games.owner_at(record, 0))
    assert owing is not None
    assert all(o.view.hand is None or not o.view.hand.hint for o in owing.owed)


async def test_against_the_easy_computer_a_hint_says_what_its_figures_mean(
    service: Services,
) -> None:
    # The easy computer is a learner's (a lesson's end sends them to it): its hints say what
    # the expert's figures are, under the hint; the medium computer's, above, do not.
    table, _ = await _against_computer(service, "easy")
    answer = await _ask(service, table.latest[AL.id])
    line, figures = answer.reply.text.split("\n")
    assert line.startswith(f"{HINT_MARK} keep "), line
    assert figures == HINT_FIGURES["discard"]


@pytest.mark.parametrize(("target", "seed"), [(61, 1), (61, 2), (121, 3)])
async def test_a_player_who_follows_every_hint_is_never_told_they_chose_wrong(
    store: Store, clock: Clock, target: int, seed: int
) -> None:
    """The hint counted the kept cards' worth in the play (and near the end the chance to
    win); the coach and the review counted the hand and the crib alone, so a player who threw
    what the hint said read "best was ..." on their next hand (2 of 9 discards). One judge now
    says all three: over whole games (to 61, near the end from the first deals, and to 121),
    every discard made as the hint said is the coach's best choice and the review's best
    split, far from the end and near it."""
    service = make_service(store, clock, seed=seed, computer=True)
    table = Transcript(service)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(vs_computer=True, level="hard", target=target)
    )
    await table.record(AL.id, opened)
    game_id = opened.game_id
    assert game_id is not None
    expert = make_player("expert")

    async def follow_the_hint(controls: HandControls) -> Click:
        if controls.kind != "discard":
            return first_choice(controls)
        asked = await _ask(service, controls)
        record = await service.games.store.get_game(game_id)
        assert record is not None
        view = (await load(store, game_id)).view(0)
        said = hint(expert, view, random.Random(hint_seed(game_id, record.version, 0)))
        assert asked.reply.text == f"{HINT_MARK} {said.line}.", asked.reply.text
        return click_of(controls, *(card.code for card in said.cards))

    await drive(service, table, [AL], choose=follow_the_hint)
    lines = [
        line
        for text in table.private[AL.id]
        for line in text.splitlines()
        if line.startswith("Coach, deal ")
    ]
    coached = {line.split(":", 1)[0]: line for line in lines}
    assert len(coached) >= 3, lines
    for line in coached.values():
        assert line.endswith(", the best choice."), line
    if target == 61:
        assert any("% to win as you threw" in line for line in coached.values()), coached
    record = await service.games.store.get_game(game_id)
    assert record is not None and record.status == "finished"
    report = await service.reviews.report(record, 0, AL)
    discards = [d for d in report.decisions if d.kind == "discard"]
    assert len(discards) >= len(coached)
    for decision in discards:
        assert decision.was_best and decision.close, decision
    # Each deal's page says so, with what the judge counted (the play; near the end the
    # chance to win).
    said = [
        line
        for page in range(1, report.pages)
        for line in page_view(report, page).content.splitlines()
        if "**Discard**" in line
    ]
    assert len(said) == len(discards)
    for line in said:
        assert line.startswith("✅") and line.endswith("the best split."), line
    assert any(" in the play = " in line for line in said), said
    if target == 61:
        assert any("% to win, the best split." in line for line in said), said
