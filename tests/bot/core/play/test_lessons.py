"""``/cribbage learn`` (issue 56): a first game in the learner's DM against the gentlest
computer, to 61, whose tables explain each rule the first time it happens and whose result
points at what to play next; asked for again, the hand of the lesson open; offered once by
``/cribbage help`` to someone who has never played."""

from __future__ import annotations

import random

from bot.core.base import refusals
from bot.core.base.choices import DEFAULT_LEVEL
from bot.core.base.places import Ask, Facts, Place, PlaceKind, Spot, resolve
from bot.core.base.replies import Click, TableAsked
from bot.core.base.seating import BOT_DM_SEATING
from bot.core.base.text import Names
from bot.core.base.views import MAX_LAID_OUT, ResultControls
from bot.core.deck.seeded import SeedDealer
from bot.core.games.deal_log import DealLog
from bot.core.games.games import Loaded
from bot.core.games.records import GameRecord, GameStatus, Lesson, Options, SeatRecord
from bot.core.games.rules_help import HELP
from bot.core.games.tally import Tally
from bot.core.messages.lesson import (
    _KINDS,
    HINT_FIGURES,
    LESSON_END,
    LESSON_LEVEL,
    RULES,
    LessonNotes,
    first_sentence,
    lesson_end,
    lesson_notes,
)
from bot.core.messages.projection import deal_chances, deal_seal, settled
from bot.core.messages.table import deal_text, fits_whole
from bot.core.play.lessons import LESSON_OFFER, LESSON_TARGET
from bot.core.ranked.records import Search
from bot.core.services import Services
from bot.store import Store
from engine import events as ev
from engine.cards import parse_cards
from engine.game import Game
from engine.phase import Phase
from engine.players.levels import Level, make_player
from tests.helpers.cast import AL, BEA, CY, GUILD
from tests.helpers.service_driver import Transcript, drive, finished_game
from tests.helpers.table_facts import check_calls

#: Al's DM with the bot.
DM = 7000


class _Dm:
    """Al's DM as the Discord layer reaches it: what was posted there, or refused."""

    def __init__(self, *, open_: bool = True) -> None:
        self.open = open_
        self.posted: list[str] = []
        self.refused = 0

    async def reach(self, text: str) -> bool:
        if not self.open:
            self.refused += 1
            return False
        self.posted.append(text)
        return True


async def _lesson(service: Services, dm: _Dm | None = None) -> tuple[Transcript, int]:
    table, dm = Transcript(service), dm or _Dm()
    answer = await table.record(
        AL.id, await service.lessons.learn(AL, DM, here=False, in_server=True, reach=dm.reach)
    )
    assert answer.ok and answer.reply.ephemeral, answer.reply.text
    assert "in our DM" in answer.reply.text
    record = await service.games.store.open_lesson(AL.id)
    assert record is not None
    await table.settle(record.id)
    return table, record.id


def _titles(text: str) -> list[str]:
    return [rule for rule, (title, _) in RULES.items() if f"📘 **{title}**" in text]


async def test_a_lesson_is_dealt_in_the_dm_against_the_gentlest_computer_to_61(
    service: Services,
) -> None:
    _, game_id = await _lesson(service)
    record = await service.games.record(game_id)
    assert record is not None and record.in_lesson and record.channel_id == DM
    assert record.guild_id is None and record.options.target == LESSON_TARGET
    assert [s.level for s in record.seats if s.is_computer] == [Level.EASY]
    # The learner's commands typed in the DM act on the lesson there.
    here = Place(Spot.BOT_DM, DM)
    assert resolve(Ask.HAND, here, Facts(lesson_here=True)).refusal is None
    assert resolve(Ask.HAND, here).refusal is not None


async def test_a_lesson_explains_each_rule_once_the_first_time_it_happens(
    service: Services, store: Store
) -> None:
    table, game_id = await _lesson(service)
    # Dealt, the table explains the deal and the crib (and nothing yet to come).
    # (This transcript's deals are not sealed: the seal is said only where it is shown.)
    assert "Shuffle sealed" not in table.table(game_id, 1)
    # (What scores, in one line, before the first discard: issue 68, item 6.)
    assert _titles(table.table(game_id, 1)) == ["deal", "scores"]
    await drive(service, table, [AL])
    # The first deal explains what every deal has, in the order it happened.
    said = _titles(table.table(game_id, 1))
    assert said[0] == "deal" and said.index("starter") < said.index("play") < said.index("show")
    record = await service.games.record(game_id)
    assert record is not None and not record.is_open
    deals = sorted(
        int(key.split(":")[1])
        for (gid, key) in table.messages
        if gid == game_id and key.startswith("table:")
    )
    assert len(deals) >= 2
    seen: dict[str, int] = {}
    for deal in deals:
        for rule in _titles(table.table(game_id, deal)):
            assert rule not in seen, f"{rule} explained in deals {seen[rule]} and {deal}"
            seen[rule] = deal
    # Every deal's play and show has these; the lurch is said at the end.
    assert {"deal", "starter", "play", "fifteen", "go", "show", "lurch"} <= set(seen), seen
    assert seen["lurch"] == deals[-1]
    # The counts are said as players say them.
    assert any("fifteen two" in table.table(game_id, d) for d in deals)
    # The result says each rule the game never showed, so that every rule is taught once;
    # then it points at what to play next, and offers no rematch.
    result = table.messages[(game_id, "result")].view
    unmet = _titles(result.content)
    taught = set(unmet) | set(seen)
    assert not set(unmet) & set(seen) and taught == set(RULES) - {"seal"}, (unmet, seen)
    assert ("Not met in this game" in result.content) is bool(unmet)
    assert LESSON_END in result.content
    assert not isinstance(result.controls, ResultControls)
    # A lesson is practice: it keeps no result, so no rating, stats or record moves with it.
    assert await store.results(game_id) == []
    assert "Ratings" not in result.content


async def test_learn_again_while_a_lesson_is_open_gives_its_hand_privately(
    service: Services,
) -> None:
    _, game_id = await _lesson(service)
    again = await service.lessons.learn(AL, DM, here=True, in_server=False, reach=_Dm().reach)
    assert again.ok and again.reply.ephemeral
    # (A private copy of the hand message, kept up to date: its controls come with the
    # keeper's first edit of it.)
    assert again.reply.text.startswith("Your hand, deal 1.")
    assert again.sequel is not None and again.sequel.owner.id == game_id
    assert again.sequel.mirror is not None
    found = await service.games.store.open_lesson(AL.id)
    assert found is not None and found.id == game_id


async def test_a_lesson_asked_for_outside_the_dm_is_welcomed_there_first(
    service: Services,
) -> None:
    dm = _Dm()
    await _lesson(service, dm)
    assert len(dm.posted) == 1 and dm.posted[0].startswith("📘 Your first game is dealt below")


async def test_a_learner_whose_dms_are_closed_is_told_what_helps_and_nothing_is_dealt(
    service: Services,
) -> None:
    closed = _Dm(open_=False)
    refused = await service.lessons.learn(AL, DM, here=False, in_server=True, reach=closed.reach)
    assert not refused.ok and refused.reply.ephemeral
    assert refused.reply.text == refusals.LESSON_DMS_CLOSED
    assert closed.refused == 1
    # Asked outside a server of the bot's (a DM or group DM between people), the server whose
    # members' DMs to allow is not "this server".
    elsewhere = await service.lessons.learn(AL, DM, here=False, in_server=False, reach=closed.reach)
    assert elsewhere.reply.text == refusals.LESSON_DMS_CLOSED_ELSEWHERE
    assert await service.games.store.open_lesson(AL.id) is None
    assert await service.games.store.open_game_in_channel(DM) is None
    # Once the DMs are open, the same command deals it.
    await _lesson(service, _Dm())


async def test_a_lesson_waits_while_the_learners_ranked_search_or_match_is_in_the_dm(
    service: Services, store: Store
) -> None:
    # A lesson is dealt in the DM alone, where this search waits and its match would be
    # played: the learner is told when it can be dealt, nothing is posted there, none dealt.
    search = Search(AL.id, AL.name, None, None, DM, PlaceKind.BOT_DM, 25.0, None)
    entry, _, _ = await store.queue_entry(search, now=0.0)
    dm = _Dm()
    for here in (False, True):
        refused = await service.lessons.learn(AL, DM, here=here, in_server=not here, reach=dm.reach)
        assert not refused.ok and refused.reply.ephemeral
        assert refused.reply.text == refusals.LESSON_SEARCH_IN_DM
    assert dm.posted == [] and await service.games.store.open_lesson(AL.id) is None
    # Once the search is stopped, the lesson is dealt.
    assert (await service.ranked.stop(entry.id, AL, None)).ok
    await _lesson(service, dm)


async def test_asked_in_the_dm_or_for_an_open_lesson_nothing_more_is_posted_there(
    service: Services,
) -> None:
    # Asked in the DM, the answer is there already; asked with a lesson open, its hand is
    # the answer (the DM may have closed since: the hand, privately, is how it goes on).
    dm = _Dm()
    dealt = await service.lessons.learn(AL, DM, here=True, in_server=False, reach=dm.reach)
    assert dealt.ok and dealt.reply.text.startswith("📘 Your first game is dealt below")
    closed = _Dm(open_=False)
    again = await service.lessons.learn(AL, DM, here=False, in_server=True, reach=closed.reach)
    assert again.ok and again.reply.text.startswith("Your hand, deal 1.")
    assert dm.posted == [] and closed.refused == 0


async def test_no_lesson_is_dealt_over_a_game_in_the_dm(service: Services) -> None:
    opened = await service.lobbies.new_game(None, DM, AL, TableAsked(vs_computer=True))
    assert opened.ok
    refused = await service.lessons.learn(AL, DM, here=True, in_server=False, reach=_Dm().reach)
    assert not refused.ok and refused.reply.text == refusals.LESSON_DM_BUSY
    assert await service.games.store.open_lesson(AL.id) is None


async def test_help_offers_a_lesson_once_to_someone_who_never_played(service: Services) -> None:
    assert await service.lessons.offer(CY) == LESSON_OFFER
    assert await service.lessons.offer(CY) == ""
    await finished_game(service, (AL, BEA))
    assert await service.lessons.offer(AL) == ""
    assert GUILD  # (the game above was a server's)


def test_the_lesson_says_what_pegging_is_before_any_rule_that_pegs() -> None:
    # The play's scores are "pegged": a word no newcomer knows, said by the lesson's notes
    # (and the table's lines: "Go — Al pegs 1") from the first score of the play on.
    order = list(RULES)
    first = next(rule for rule in order if "peg" in RULES[rule][1])
    assert first == "play" and "*pegged*" in RULES[first][1], first
    assert order.index("play") < order.index("fifteen")


def test_the_lessons_end_suggests_a_whole_game_against_its_own_gentle_level() -> None:
    # Not the default level (a newcomer typing /cribbage new vs_computer:True meets the
    # hard computer), but the lesson's, named as it is typed.
    assert LESSON_LEVEL != DEFAULT_LEVEL
    assert f"`/cribbage new vs_computer:True difficulty:{LESSON_LEVEL}`" in LESSON_END
    assert f"the {DEFAULT_LEVEL} one" in LESSON_END


async def test_a_lessons_hint_says_what_its_figures_mean(service: Services) -> None:
    table, game_id = await _lesson(service)
    controls = table.latest[AL.id]
    assert controls.kind == "discard" and controls.hint
    hinted = await service.hints.hint(Click(game_id, "hint", controls.stamp), AL, guild_id=None)
    line, figures = hinted.reply.text.split("\n")
    assert line.startswith("💡 Hint: keep ") and "in hand" in line, line
    assert figures == HINT_FIGURES["discard"]


def test_a_lessons_end_says_the_rules_its_game_never_showed_before_what_next() -> None:
    every = {kind: 1 for kinds in _KINDS.values() for kind in kinds}
    assert lesson_end(every) == (LESSON_END,)
    # No 31, no flush and no nobs in this game: the result says them, in the lesson's order.
    shown = {k: d for k, d in every.items() if k not in ("thirty_one", "flush", "nobs")}
    heading, *notes, end = lesson_end(shown)
    assert "Not met" in heading and end == LESSON_END
    assert [_titles(note) for note in notes] == [["thirty_one"], ["flush"], ["nobs"]]


def test_the_seal_is_explained_on_the_first_deal_where_the_table_shows_it() -> None:
    dealt = ev.Dealt(dealer=0, deal_number=1, hand_size=6, crib_from_deck=False)
    firsts = {"dealt": 1}
    sealed = lesson_notes([dealt], 1, firsts, sealed=True)
    assert [_titles(note) for note in sealed.play] == [["deal"], ["scores"], ["seal"]]
    assert "🔒" in sealed.play[2] and "🔓" in sealed.play[2]
    unsealed = lesson_notes([dealt], 1, firsts, sealed=False).play
    assert [_titles(n) for n in unsealed] == [["deal"], ["scores"]]


async def test_a_lesson_over_is_the_dms_last_game_status_shows_and_a_move_says_is_over(
    service: Services,
) -> None:
    """Once a lesson ends, the learner's commands in their DM with the bot find it as the
    place's last game, as a channel's: ``/cribbage status`` shows how it ended and what deals
    the next (a lesson: ``/cribbage new`` opens nothing there), a move says it is over, and a
    review and a check act on it, where status and the moves said "You have no game in my DMs
    (only a ranked match searched for here is played here)" beside a review of that game."""
    table, _ = await _lesson(service)
    await drive(service, table, [AL])
    here = Place(Spot.BOT_DM, DM)
    for ask in (Ask.REVIEW, Ask.VERIFY, Ask.STATUS):
        found = await service.which.resolved(ask, here, AL.id)
        assert found.refusal is None and found.channel_id == DM, (ask, found)
    status = await service.table.status(DM)
    assert status.ok, status.reply.text
    said = status.reply.text
    assert said.startswith("The last game here is over.") and "🏆" in said, said
    assert "`/cribbage learn`" in said and "Start a new one" not in said, said
    for ask in (Ask.HAND, Ask.PLAY, Ask.RESIGN):
        refused = (await service.which.resolved(ask, here, AL.id)).refusal
        assert refused == refusals.game_over("my DMs", lesson=True), (ask, refused)
    assert "`/cribbage learn` deals another" in refusals.game_over("my DMs", lesson=True)
    # Someone else in their own DM with the bot has no lesson there: nothing to show.
    other = await service.which.resolved(Ask.STATUS, Place(Spot.BOT_DM, DM + 1), BEA.id)
    assert other.refusal is not None and "no game in my DMs" in other.refusal


async def test_a_second_lesson_is_not_called_a_first_game(service: Services) -> None:
    """Issue 68, item 15: a second ``/cribbage learn`` after finishing said "📘 Your first
    game is dealt below"."""
    table, _ = await _lesson(service)
    await drive(service, table, [AL])
    assert await service.games.store.open_lesson(AL.id) is None
    dm = _Dm()
    again = await service.lessons.learn(AL, DM, here=False, in_server=True, reach=dm.reach)
    assert again.ok, again.reply.text
    assert dm.posted[0].startswith("📘 A new lesson is dealt below"), dm.posted
    assert again.reply.text.startswith("📘 A new lesson is dealt in our DM"), again.reply.text
    assert "first game" not in dm.posted[0] + again.reply.text


async def test_help_for_a_newcomer_names_the_lesson_once(service: Services) -> None:
    """Issue 68, item 16: ``/cribbage help`` for a newcomer named ``/cribbage learn`` twice in
    a row (the offer, then the commands' own line)."""
    first = await service.lessons.help(CY)
    said = first.reply.text
    assert said.startswith(LESSON_OFFER)
    assert said.count("`/cribbage learn`") == 1, said
    # Asked again (no offer now), the commands name it themselves.
    again = (await service.lessons.help(CY)).reply.text
    assert again == HELP and again.count("`/cribbage learn`") == 1


def test_a_learner_whose_dms_are_closed_is_not_told_the_lesson_is_dealt() -> None:
    """Issue 68, item 11: "Your lesson is dealt in our DM, but Discord won't let me message
    you" said dealt where nothing was."""
    for said in (refusals.LESSON_DMS_CLOSED, refusals.LESSON_DMS_CLOSED_ELSEWHERE):
        assert "dealt in" not in said and said.startswith("Nothing was dealt"), said


def test_the_lesson_says_what_scores_before_the_first_discard_and_the_play_as_it_begins() -> None:
    """Issue 68, item 6: the lesson explained the play only after the learner's first card
    ("**Your turn.** Count 0" came first), and the first decision, the discard, was asked
    before anything said what scores."""
    dealt = ev.Dealt(dealer=0, deal_number=1, hand_size=6, crib_from_deck=False)
    at_deal = lesson_notes([dealt], 1, {"dealt": 1}, sealed=False).play
    scores = next(note for note in at_deal if _titles(note) == ["scores"])
    assert "\n" not in scores and all(w in scores for w in ("15", "pair", "run", "flush"))
    # The starter turned up, no card played yet: the play is said now, with the first turn.
    cut = ev.StarterCut(card=parse_cards("5H")[0], dealer=0)
    firsts = {"dealt": 1, "starter_cut": 1}
    begun = lesson_notes([dealt, cut], 1, firsts, sealed=False).play
    assert [_titles(n) for n in begun][-2:] == [["starter"], ["play"]], begun


def _first_deal_played(seed: int) -> Loaded:
    """A lesson (Al against the easy computer, to 61) whose first deal random players played
    through, its shuffles sealed from ``seed``: loaded as the next deal is dealt."""
    seeds: list[str] = []
    game, first = Game.new(
        [AL.name, "Easy computer"], rng=SeedDealer(random.Random(seed), seeds), target=61
    )
    log = DealLog.start(2)
    log.add(first)
    players, rngs = [make_player("random")] * 2, [random.Random(seed + s) for s in (1, 2)]
    while game.state.deal_number < 2 and game.state.phase is not Phase.OVER:
        if game.state.phase is Phase.DISCARD:
            seat = game.pending_discards()[0]
            log.add(game.discard(seat, players[seat].choose_discard(game.view(seat), rngs[seat])))
        else:
            turn = game.state.turn
            assert turn is not None
            log.add(game.play(turn, players[turn].choose_play(game.view(turn), rngs[turn])))
    seats = (SeatRecord(0, AL.id, AL.name), SeatRecord(1, None, "Easy computer", True, "easy"))
    record = GameRecord(
        1, None, DM, GameStatus.ACTIVE, AL.id, Options(2, 61), None, 1, 0.0, 0.0, seats,
        seating=BOT_DM_SEATING, occasion=Lesson(),
    )  # fmt: skip
    return Loaded(record, game, Tally.empty(2), log, seeds=seeds)


def test_a_lessons_first_deal_too_long_for_its_notes_whole_says_some_short_and_every_call() -> None:
    """A lesson's first deal meets most rules at once: after a long play (here a 31, a go,
    fifteens and the last card, the seal's seed, his nobs in the crib) the deal and every note
    whole are over Discord's 4,000 characters, and the table cut its play short, calls and
    all, mid-line (seen as a lesson's table "behind" in an end-to-end test). The notes give
    way first, the longest first, each said in its first sentence, until every call that
    scored and the whole show fit."""
    loaded = _first_deal_played(1480)
    game, log = loaded.game, loaded.log
    view = game.public_view()
    told = deal_text(
        Names.of(view), log.events(1), view, live=False, opening=log.events(0),
        chances=deal_chances(log, view, 1), seal=deal_seal(game, log, loaded.seeds, 1),
    )  # fmt: skip
    notes = lesson_notes(log.events(1), 1, log.firsts, sealed=True)
    # The case: whole, the notes leave the deal too little room.
    assert not fits_whole(told, MAX_LAID_OUT - notes.size)
    [table] = [
        o for o in settled(loaded.record, loaded, {}, frozenset()) if str(o.key) == "table:1"
    ]
    texts = [text for group in table.view.layout for text in group]
    assert sum(map(len, texts)) <= MAX_LAID_OUT
    lines = "\n".join(texts).splitlines()
    events = [*log.events(0), *log.events(1)]
    check_calls(events, "\n".join(n for n in lines if not n.startswith("📘 ")), view, live=False)
    # Every rule met is said, in order; those said in short were the longest.
    said = [line for line in lines if line.startswith("📘 ")]
    assert [_titles(n) for n in said] == [_titles(n) for n in (*notes.play, *notes.show)]
    whole = {*notes.play, *notes.show}
    short = [note for note in (*notes.play, *notes.show) if note not in said]
    assert short and len(short) < len(said), said
    for note in said:
        if note not in whole:
            [rule] = _titles(note)
            assert note == f"📘 **{RULES[rule][0]}**: {first_sentence(RULES[rule][1])}", note
    assert min(map(len, short)) >= max(len(n) for n in said if n in whole), said


def test_a_rules_first_sentence_says_the_rule_and_notes_get_shorter_until_they_cannot() -> None:
    for rule, (_, said) in RULES.items():
        first = first_sentence(said)
        assert said.startswith(first) and first.endswith(".") and len(first) > 40, rule
    dealt = ev.Dealt(dealer=0, deal_number=1, hand_size=6, crib_from_deck=False)
    notes: LessonNotes | None = lesson_notes([dealt], 1, {"dealt": 1}, sealed=True)
    sizes = []
    while notes is not None:
        assert [_titles(n) for n in notes.play] == [["deal"], ["scores"], ["seal"]]
        sizes.append(notes.size)
        notes = notes.shorter()
    assert len(sizes) == 4 and sizes == sorted(sizes, reverse=True), sizes
