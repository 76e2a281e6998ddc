"""Tournaments in the core and the store (both databases): the refusals that change nothing,
a knockout seeded by rating, and the writes a restart may repeat counting once."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.base.replies import TableAsked, User
from bot.core.base.views import MAX_MESSAGE
from bot.core.games.records import GameStatus
from bot.core.services import Services
from bot.core.tournaments import records as tr
from bot.core.tournaments.threads import ThreadRefused
from bot.core.tournaments.tournaments import read_event
from bot.core.tournaments.view import REFUSED, Event, board_text, champion_text, standings_text
from bot.store import Store
from tests.bot.core.tournaments.test_tournament_formats import Threads
from tests.helpers.held import held
from tests.helpers.service_driver import Clock

GUILD, CHANNEL = 5, 50
MO = User(1, "Mo")
PEOPLE = [User(10 + n, name) for n, name in enumerate(("Al", "Bea", "Cy", "Di", "Ed"))]


async def _open(service: Services, **options: Any) -> int:
    opened = await service.tournaments.new(GUILD, CHANNEL, MO, moderator=True, **options)
    assert opened.ok, opened.reply.text
    for user in PEOPLE:
        assert (await service.tournaments.join(CHANNEL, user)).ok
    record = await service.tournaments._store.tournament_in_channel(CHANNEL)
    assert record is not None
    return record.id


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"rounds": 10}, "rounds"),
        ({"round_hours": 0.1}, "round_hours"),
        ({"round_hours": 400.0}, "round_hours"),
        ({"format": "ladder"}, "format"),
        ({"target": 100}, "Standard cribbage is played to 121 or 61."),
        ({"scoring": "double"}, "scoring"),
        ({"variant": "five_hand"}, "A tournament's games are for two"),
        ({"variant": "nine_card"}, "A tournament's games are for two"),
        ({"variant": "five_card", "target": 121}, "Five-card cribbage is played to 61."),
        ({"variant": "seven_card", "scoring": "skunk"}, "Seven-card cribbage has no skunk"),
        ({"match_games": 2}, "match"),
    ],
)
async def test_bad_options_are_refused_and_open_nothing(
    service: Services, store: Store, options: dict[str, Any], said: str
) -> None:
    answer = await service.tournaments.new(GUILD, CHANNEL, MO, moderator=True, **options)
    assert not answer.ok and said in answer.reply.text
    assert await store.tournament_in_channel(CHANNEL) is None


async def test_refusals_change_nothing(service: Services, store: Store) -> None:
    t = service.tournaments
    assert not (await t.join(CHANNEL, PEOPLE[0])).ok  # none here
    assert not (await t.new(GUILD, CHANNEL, PEOPLE[0], moderator=False)).ok
    tid = await _open(service)
    version = (await store.tournament(tid)).version  # type: ignore[union-attr]
    assert not (await t.join(CHANNEL, PEOPLE[0])).ok
    assert not (await t.start(CHANNEL, PEOPLE[0], moderator=False)).ok
    assert not (
        await t.set_result(CHANNEL, MO, moderator=True, winner=PEOPLE[0], loser=PEOPLE[1])
    ).ok
    assert not (await t.click(tid, "join", PEOPLE[0], guild_id=GUILD + 1)).ok  # another server
    # A Yes to withdraw or to cancel from another server (or outside servers) finds nothing,
    # an organiser of that server's included.
    for guild in (GUILD + 1, None):
        withdrew = await t.confirm_withdraw(tid, PEOPLE[0], True, guild_id=guild)
        cancelled = await service.cancellations.confirm_cancel(
            tid, MO, True, moderator=True, guild_id=guild
        )
        for answer in (withdrew, cancelled):
            assert not answer.ok and answer.reply.text == "I can't find that tournament."
    assert (await store.tournament(tid)).version == version  # type: ignore[union-attr]


async def test_a_refusal_to_start_or_cancel_says_who_may(service: Services) -> None:
    # Bea opened nothing and is no moderator: the organiser may start or cancel it too, as
    # the README says ("its organiser or a moderator"), and the refusal says so (issue 47).
    t = service.tournaments
    await _open(service)
    wanted = (
        f"Only the tournament's organiser, <@{MO.id}>, or a moderator (Manage Server or Manage "
        "Events) can do that."
    )
    for answer in (
        await t.start(CHANNEL, PEOPLE[1], moderator=False),
        await service.cancellations.ask_cancel(CHANNEL, PEOPLE[1], moderator=False),
    ):
        assert not answer.ok and answer.reply.text == wanted, answer.reply.text


async def test_a_result_names_the_players_as_their_names_are_written(
    service: Services, store: Store
) -> None:
    """The names a moderator's result is answered with are their display names as written
    (markdown in one shows as typed, and does not run into the sentence)."""
    tid = await _open(service)
    assert await store.start_tournament(tid, rounds=1)
    assert await store.pair_round(tid, 1, [(PEOPLE[0].id, PEOPLE[1].id)], now=1.0)
    winner, loser = User(PEOPLE[0].id, "**Al**"), User(PEOPLE[1].id, "_Bea_ `")
    answer = await service.tournaments.set_result(
        CHANNEL, MO, moderator=True, winner=winner, loser=loser
    )
    assert answer.ok and answer.reply.text == r"Result set: \*\*Al\*\* beat \_Bea\_ \`."


async def test_a_knockout_is_seeded_by_rating(service: Services, store: Store) -> None:
    tid = await _open(service, format="knockout")
    ratings = {PEOPLE[4].id: 30.0, PEOPLE[2].id: 20.0}

    async def standing(
        guild_id: int | None, player_id: int, variant: str = "standard"
    ) -> dict[bool, Any]:
        if player_id not in ratings:
            return {}
        return {False: SimpleNamespace(standing=SimpleNamespace(ordinal=ratings[player_id]))}

    store.standing = standing  # type: ignore[method-assign]
    assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
    order = [e.name for e in await store.entrants(tid)]
    assert order == ["Ed", "Cy", "Al", "Bea", "Di"]


async def test_a_round_is_paired_once_and_a_result_counted_once(
    service: Services, store: Store
) -> None:
    tid = await _open(service, match_games=3)
    assert await store.start_tournament(tid, rounds=3)
    pairs = [(PEOPLE[0].id, PEOPLE[1].id), (PEOPLE[2].id, None)]
    assert await store.pair_round(tid, 1, pairs, now=1.0)
    assert not await store.pair_round(tid, 1, pairs, now=2.0)  # paired already
    assert not await store.pair_round(tid, 3, pairs, now=2.0)  # not the next round
    await store.set_game(tid, 1, 1, 77)
    assert await store.count_game(tid, 1, 1, 77, a_won=False, margin=20)
    assert not await store.count_game(tid, 1, 1, 77, a_won=False, margin=20)  # heard twice
    assert await store.decide(tid, 1, 1, tr.Verdict(tr.Decided.GAME, PEOPLE[1].id, margin=20))
    assert not await store.decide(tid, 1, 1, tr.Verdict(tr.Decided.GAME, PEOPLE[0].id))
    assert await store.decide(
        tid, 1, 1, tr.Verdict(tr.Decided.MODERATOR, PEOPLE[0].id, margin=3), again=True
    )
    record = await store.tournament(tid)
    assert record is not None and record.format is tr.Format.SWISS and record.match_games == 3
    event: Event = await read_event(store, record)
    first, bye = event.current()
    assert (first.wins_a, first.wins_b, first.spread_a) == (0, 1, -20)
    assert first.decided is tr.Decided.MODERATOR and first.winner == PEOPLE[0].id
    assert bye.decided is tr.Decided.BYE and bye.winner == PEOPLE[2].id
    text = board_text(event)
    assert "Al wins (0–1) by 3 — set by a moderator" in text
    assert "Cy — bye (counts as a win)" in text


def test_the_board_fits_a_message_however_many_play() -> None:
    long = "W" * 32
    entrants = tuple(tr.EntrantRecord(1000 + n, f"{long}{n}", n + 1) for n in range(256))
    pairings = tuple(
        tr.PairingRecord(1, n + 1, 1000 + 2 * n, 1001 + 2 * n, thread_id=10**18 + n)
        for n in range(128)
    )
    for status in (
        tr.TournamentStatus.OPEN,
        tr.TournamentStatus.RUNNING,
        tr.TournamentStatus.FINISHED,
    ):
        record = tr.TournamentRecord(
            1, GUILD, CHANNEL, MO.id, tr.Format.SWISS, 8, 121, "lurch", 24.0, status, 1, 0.0, 3, 0.0
        )
        text = board_text(Event(record, entrants, pairings))
        assert len(text) <= 2000, (status, len(text))
        assert "more" in text


def test_a_negative_spread_is_written_with_a_minus_sign() -> None:
    """Al wins twice by a little and loses once by a lot: the champion, spread −37."""
    al, bea, cy = (10, 11, 12)
    entrants = tuple(
        tr.EntrantRecord(p, n, i)
        for i, (p, n) in enumerate(zip((al, bea, cy), ("Al", "Bea", "Cy"), strict=True), 1)
    )
    game = tr.Decided.GAME
    pairings = (
        tr.PairingRecord(1, 1, al, bea, decided=game, winner=al, margin=2),
        tr.PairingRecord(2, 1, al, cy, decided=game, winner=al, margin=1),
        tr.PairingRecord(3, 1, cy, al, decided=game, winner=cy, margin=40),
    )
    record = tr.TournamentRecord(
        1,
        GUILD,
        CHANNEL,
        MO.id,
        tr.Format.ROUND_ROBIN,
        3,
        121,
        "lurch",
        24.0,
        tr.TournamentStatus.FINISHED,
        3,
        0.0,
        9,
        0.0,
    )
    event = Event(record, entrants, pairings)
    assert standings_text(event).splitlines() == [
        "1. Al — 4 pts, 2 won, spread −37",
        "2. Cy — 2 pts, 1 won, spread +39",
        "3. Bea — 0 pts, 0 won, spread −2",
    ]
    assert champion_text(event).endswith("with 4 game points (2 won, spread −37)!")


@pytest.mark.parametrize("scoring", ["lurch", "skunk"])
def test_a_win_worth_more_is_named_by_the_tournaments_rule(scoring: str) -> None:
    """A pairing won by more than one game point says so by the rule its games were played
    under: "(skunk)" in a tournament on the skunk scale, where it said "(lurch)" whatever the
    rule (the games' own results said "a skunk, 2 game points")."""
    entrants = tuple(tr.EntrantRecord(1000 + n, name, n + 1) for n, name in enumerate("AB"))
    won = tr.PairingRecord(
        1, 1, 1000, 1001, decided=tr.Decided.GAME, winner=1000, lurch=True, margin=40
    )
    record = tr.TournamentRecord(
        1, GUILD, CHANNEL, MO.id, tr.Format.SWISS, 3, 121, scoring, 24.0,
        tr.TournamentStatus.RUNNING, 1, 0.0, 1, 0.0,
    )  # fmt: skip
    text = board_text(Event(record, entrants, (won,)))
    assert f"1. A vs B — A wins by 40 ({scoring})" in text.splitlines(), text
    other = "skunk" if scoring == "lurch" else "lurch"
    assert f"({other})" not in text


def test_the_next_rounds_pairings_keep_the_last_rounds_results_in_view() -> None:
    """Round 2 paired: the live message shows its tables and, under them, how round 1 ended
    (the pairings used to replace the round that decided them at once)."""
    entrants = tuple(tr.EntrantRecord(1000 + n, name, n + 1) for n, name in enumerate("ABCD"))
    first = (
        tr.PairingRecord(
            1, 1, 1000, 1001, decided=tr.Decided.GAME, winner=1000, margin=12, wins_a=1
        ),
        tr.PairingRecord(1, 2, 1002, 1003, decided=tr.Decided.FORFEIT, winner=1003, wins_b=1),
    )
    second = (tr.PairingRecord(2, 1, 1000, 1003), tr.PairingRecord(2, 2, 1001, 1002))
    record = tr.TournamentRecord(
        1,
        GUILD,
        CHANNEL,
        MO.id,
        tr.Format.SWISS,
        3,
        121,
        "lurch",
        24.0,
        tr.TournamentStatus.RUNNING,
        2,
        0.0,
        1,
        0.0,
    )
    text = board_text(Event(record, entrants, first + second))
    lines = text.splitlines()
    at = lines.index("**Round 1 results**")
    assert lines.index("**Round 2 of 3** — each game is played in its thread.") < at
    assert lines[at + 1 : at + 3] == [
        "1. A vs B — A wins (1–0) by 12",
        "2. C vs D — D wins (0–1) — forfeit",
    ]
    assert "1. A vs D — playing" in lines and "2. B vs C — playing" in lines


async def test_a_five_card_tournament_plays_and_seeds_by_five_card_cribbage(
    service: Services, store: Store
) -> None:
    tid = await _open(service, format="knockout", variant="five_card")
    record = await store.tournament(tid)
    assert record is not None and (record.variant, record.target) == ("five_card", 61)
    event = await read_event(store, record)
    assert "Five-card cribbage · " in board_text(event) and "61 points" in board_text(event)
    asked: list[str] = []

    async def standing(
        guild_id: int | None, player_id: int, variant: str = "standard"
    ) -> dict[bool, Any]:
        asked.append(variant)
        return {}

    store.standing = standing  # type: ignore[method-assign]
    threads = Threads()
    await service.director.start(threads)
    try:
        assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
        await service.director.idle()
        assert asked and set(asked) == {"five_card"}
        event = await read_event(store, (await store.tournament(tid)) or record)
        games = [p.game_id for p in event.current() if p.game_id is not None]
        assert games
        for game_id in games:
            game = await store.get_game(game_id)
            assert game is not None and (game.options.variant, game.options.target) == (
                "five_card",
                61,
            )
    finally:
        service.director.stop()


async def test_a_game_someone_opens_in_a_pairings_thread_is_not_taken_for_the_match(
    service: Services, store: Store
) -> None:
    """Between the games of a best of 3 (here while the director is stopped, as over a
    restart), someone opens a game of their own against the computer in the pairing's thread:
    the director ends it, its note naming neither player of the match, and deals the match's
    next game to its two players. (It took that game for the match: its players were not
    seated in it, and its result, a stranger's or the computer's, would have counted for
    them.)"""
    tid = await _open(service, match_games=3)
    threads = Threads()
    try:
        await service.director.start(threads)
        await service.tournaments.start(CHANNEL, MO, moderator=True)
        await service.director.idle()
        record = await store.tournament(tid)
        assert record is not None
        first = next(p for p in (await read_event(store, record)).current() if p.player_b)
        assert first.thread_id is not None and first.game_id is not None
        thread = first.thread_id
        service.director.stop()
        loser = next(u for u in PEOPLE if u.id == first.player_a)
        assert (await service.moves.resign(thread, loser)).ok
        mo = await service.lobbies.new_game(GUILD, thread, MO, TableAsked(vs_computer=True))
        assert mo.ok and mo.game_id is not None
        await service.director.start(threads)
        await service.director.idle()
        pairing = next(
            p for p in await store.pairings(tid) if (p.round, p.tab) == (first.round, first.tab)
        )
        assert pairing.wins_b == 1 and pairing.game_id not in (None, first.game_id, mo.game_id)
        assert pairing.game_id is not None
        game = await store.get_game(pairing.game_id)
        assert game is not None and game.channel_id == thread and game.is_open
        assert [s.user_id for s in game.seats] == [first.player_a, first.player_b]
        theirs = await store.get_game(mo.game_id)
        assert theirs is not None and theirs.status is GameStatus.CANCELLED
        # Its note, kept with Mo's game, names neither player of the match (a deletion of
        # their data would not find it there).
        assert theirs.end_note == "This thread is for a tournament match: this game ends here."
    finally:
        service.director.stop()


async def test_the_standings_of_a_crowd_fit_one_message(service: Services, store: Store) -> None:
    """Forty-one entrants, most with names as long as Discord's of what Markdown reads:
    ``/cribbage tournament standings`` lists the top of the table, as many lines as one
    message holds, and counts the others. (It answered every line, 2,849 characters, more
    than a message holds: the Discord layer cut it off mid-line.)"""
    await _open(service)
    crowd = [
        User(1_000 + n, f"**{n:02d}** the_most_*marvellous*_~~player~~"[:32]) for n in range(36)
    ]
    for user in crowd:
        assert (await service.tournaments.join(CHANNEL, user)).ok
    answer = await service.tournaments.standings(CHANNEL)
    text = answer.reply.text
    assert answer.ok and len(text) <= MAX_MESSAGE, len(text)
    lines = text.splitlines()
    assert lines[0] == "**Standings** (before round 1)" and lines[1].startswith("1. ")
    shown = len(lines) - 2
    assert lines[-1] == f"… and {len(PEOPLE) + len(crowd) - shown} more: too many for one message."
    assert [line.split(". ", 1)[0] for line in lines[1:-1]] == [str(n) for n in range(1, shown + 1)]


async def test_a_variant_tournaments_champion_is_named_with_its_variant(
    service: Services, store: Store
) -> None:
    """A seven-card tournament's champion: its announcement and the hall of fame name the
    variant, as its live message does (both said "the Swiss tournament", as for the standard
    game, so a server holding both could not tell them apart); a standard tournament's stay
    unnamed. The hall of fame's month champions say which table they top: the standard game's
    between people (they said nothing, while the month's tables are kept per variant)."""
    tid = await _open(service, variant="seven_card")
    assert await store.start_tournament(tid, rounds=1)
    champion = PEOPLE[2].id
    finished = tr.TournamentStatus.FINISHED
    assert await store.end_tournament(tid, finished, now=1.0, champion=champion)
    record = await store.tournament(tid)
    assert record is not None
    [crowned] = await store.tournament_champions(GUILD, limit=5)
    assert (crowned.user_id, crowned.variant) == (champion, "seven_card")

    announced = champion_text(await read_event(store, record))
    assert " wins the Swiss seven-card cribbage tournament with " in announced
    fame = (await service.seasons.hall_of_fame(GUILD)).reply.text.splitlines()
    line = fame[fame.index("**Tournament champions**") + 1]
    assert line.startswith("Cy — Swiss seven-card cribbage tournament of 5 players in <#")
    heading = next(h for h in fame if h.startswith("**Season champions**"))
    assert heading.endswith("(most game points in a month: standard cribbage, between people)")

    standard = dataclasses.replace(record, variant="standard")
    assert " wins the Swiss tournament with " in champion_text(await read_event(store, standard))


async def _first_pairing_dealt(
    service: Services, store: Store, tid: int
) -> tuple[tr.PairingRecord, int, int]:
    """The tournament started by a moderator, its first round dealt by the director (started
    already): its first pairing of two players, its thread and its game."""
    assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
    await service.director.idle()
    record = await store.tournament(tid)
    assert record is not None
    first = next(p for p in (await read_event(store, record)).current() if p.player_b)
    assert first.thread_id is not None and first.game_id is not None
    return first, first.thread_id, first.game_id


@pytest.mark.parametrize("match_games", [1, 3])
async def test_a_game_resigned_just_before_a_withdrawal_decides_its_pairing(
    service: Services, store: Store, match_games: int
) -> None:
    """A player resigns the game of their pairing and withdraws at once (as *Delete my data*
    does, or a player by hand) before the director has heard of the game's end: a single
    game's pairing is decided by the game, as played (a win by a lurch, at 0 to 0), as it is
    when the director hears first; a best of 3 counts the game, and the withdrawal forfeits
    the rest of it, no next game dealt. (The withdrawal forfeited a single game, margin 0 and
    no lurch: a race decided which of two results the standings kept; a best of 3 whose
    game was left to the director went on to deal its next game to the player gone.)"""
    tid = await _open(service, match_games=match_games)
    threads = Threads()
    try:
        await service.director.start(threads)
        first, thread_id, game_id = await _first_pairing_dealt(service, store, tid)
        service.director.stop()  # (busy elsewhere: it hears of the game's end after)
        quitter = next(u for u in PEOPLE if u.id == first.player_a)
        assert (await service.moves.resign(thread_id, quitter)).ok
        assert (await service.tournaments.withdraw(CHANNEL, quitter)).ok
        await service.director.start(threads)
        await service.director.idle()
        pairing = next(
            p for p in await store.pairings(tid) if (p.round, p.tab) == (first.round, first.tab)
        )
        assert pairing.winner == first.player_b
        if match_games == 1:
            assert pairing.decided is tr.Decided.GAME, pairing
            assert pairing.lurch, "the resignation at 0 to 0 gave the winner a lurch"
        else:
            assert pairing.decided is tr.Decided.WITHDRAWN and pairing.wins_b == 1, pairing
            dealt = await store.db.fetch("SELECT id FROM games WHERE channel_id = ?", (thread_id,))
            assert [r[0] for r in dealt] == [game_id], "no game dealt after it"
        [entrant] = [e for e in await store.entrants(tid) if e.user_id == quitter.id]
        assert entrant.withdrawn is not None
    finally:
        service.director.stop()


@pytest.mark.parametrize("meanwhile", ["deleted", "withdrew"])
async def test_no_game_is_dealt_for_a_pairing_a_player_left_while_the_director_dealt_it(
    service: Services, store: Store, monkeypatch: pytest.MonkeyPatch, meanwhile: str
) -> None:
    """The director has read the round and is about to deal a pairing's game when one of its
    players has their data deleted (which withdraws them first), or withdraws: no game is
    dealt for the pairing decided, none seats them under their own id after their deletion.
    (It was dealt from the read before, their id and name kept in it after the deletion.)"""
    tid = await _open(service)
    reached, go_on = held(monkeypatch, store, "create_game")
    threads = Threads()
    try:
        await service.director.start(threads)
        assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
        await reached.wait()
        # (Its tables set up in turn: the first pairing of two is the first dealt.)
        record = await store.tournament(tid)
        assert record is not None
        first = next(p for p in (await read_event(store, record)).current() if p.player_b)
        assert first.thread_id is not None and first.game_id is None
        gone = next(u for u in PEOPLE if u.id == first.player_a)
        if meanwhile == "deleted":
            assert (await service.privacy.confirm_forget(gone.id, gone, True)).ok
        else:
            assert (await service.tournaments.withdraw(CHANNEL, gone)).ok
        go_on.set()
        await service.director.idle()
        [pairing] = [p for p in await store.pairings(tid) if first.thread_id == p.thread_id]
        assert pairing.decided is tr.Decided.WITHDRAWN and pairing.game_id is None, pairing
        dealt = await store.db.fetch(
            "SELECT id FROM games WHERE channel_id = ?", (first.thread_id,)
        )
        assert dealt == [], "no game dealt for the pairing decided"
        seated = await store.db.fetch("SELECT game_id FROM seats WHERE user_id = ?", (gone.id,))
        assert seated == [] or meanwhile == "withdrew", "their id kept after their deletion"
    finally:
        service.director.stop()


class RefusingThreads(Threads):
    """Discord's side of a pairing while the bot may not post in the tournament's channel
    (``refusing``), as the Discord layer says it: :class:`ThreadRefused`."""

    def __init__(self) -> None:
        super().__init__()
        self.refusing = True

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        if self.refusing:
            raise ThreadRefused("403 Forbidden (error code: 50013): Missing Permissions")
        return await super().post(channel_id, text, nonce, mentions)


async def test_a_rounds_clock_stops_while_discord_refuses_its_tables(
    service: Services, store: Store, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot loses Send Messages in the tournament's channel as a round is paired, for
    longer than the round's time, over a restart: no match is decided by the deadline
    (nobody could play), it is said once in the log (not at every look) and on the
    tournament's message, and once Discord takes the tables again they are dealt with the
    round's time still to play, the message no longer saying it. (The deadline forfeited
    every match, a loss for both, nothing said it but a warning every five seconds.)"""
    tid = await _open(service, round_hours=1.0)
    threads = RefusingThreads()
    try:
        await service.director.start(threads)
        assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
        await service.director.idle()
        for look in range(12):  # two hours, looked at every ten minutes
            clock.advance(minutes=10)
            if look == 6:  # (a restart: the director starts again)
                service.director.stop()
                await service.director.start(threads)
            service.director.look(tid)
            await service.director.idle()
        pairings = [p for p in await store.pairings(tid) if p.player_b is not None]
        assert pairings and all(p.decided is None and p.post_id is None for p in pairings)
        refused = [r for r in caplog.records if "refuses round 1's tables" in r.getMessage()]
        assert len(refused) == 1, [r.getMessage() for r in caplog.records]
        record = await store.tournament(tid)
        assert record is not None and record.deadline is None
        assert REFUSED in board_text(await read_event(store, record))

        threads.refusing = False
        service.director.look(tid)
        await service.director.idle()
        record = await store.tournament(tid)
        assert record is not None and record.deadline is not None
        assert record.deadline - clock.now.timestamp() == 3600.0
        assert REFUSED not in board_text(await read_event(store, record))
        pairings = [p for p in await store.pairings(tid) if p.player_b is not None]
        assert all(p.decided is None and p.game_id is not None for p in pairings), pairings
    finally:
        service.director.stop()


async def test_stats_count_a_tournament_cancelled_once_started_as_played(
    service: Services, store: Store
) -> None:
    """``/cribbage stats``'s tournaments played are those that started with the player in
    them: one cancelled in its first round counts (its games were played), one cancelled
    before its start does not. (Only those running or finished counted: a tournament
    played, then cancelled, went from the count.)"""
    al = PEOPLE[0]
    await service.director.start(Threads())
    try:
        for channel, started in ((CHANNEL, True), (CHANNEL + 1, False)):
            assert (await service.tournaments.new(GUILD, channel, MO, moderator=True)).ok
            for user in PEOPLE:
                assert (await service.tournaments.join(channel, user)).ok
            if started:
                assert (await service.tournaments.start(channel, MO, moderator=True)).ok
                await service.director.idle()  # (round 1 paired and dealt)
            assert (await service.cancellations.cancel(channel, MO, moderator=True)).ok
            await service.director.idle()
    finally:
        service.director.stop()
    assert await store.tournaments_of(GUILD, al.id) == (1, 0)


async def test_a_tournaments_game_is_left_to_its_rounds_deadline_not_the_idle_expiry(
    service: Services, store: Store, clock: Clock
) -> None:
    """A round of 14 days, longer than the week after which an idle game ends: Al throws, Bea
    never moves. The week passes and the game is not ended as idle (which decided the match
    as a loss for both, though Al moved); at the round's deadline Bea forfeits it to Al, as
    the round's rule says."""
    tid = await _open(service, round_hours=14 * 24.0)
    try:
        await service.director.start(Threads())
        first, _, game_id = await _first_pairing_dealt(service, store, tid)
        game = await store.get_game(game_id)
        assert game is not None
        al = next(s for s in game.seats if s.user_id == first.player_a)
        hand = service.games.loaded.load(game).game.hand(al.seat)
        mover = User(first.player_a, al.name)
        thrown = await service.moves.discard(
            game.channel_id, mover, f"{hand[0].code} {hand[1].code}"
        )
        assert thrown.ok, thrown.reply.text
        clock.advance(days=8)
        assert await service.housekeeping.expire_idle() == []
        still = await store.get_game(game_id)
        assert still is not None and still.is_open
        clock.advance(days=7)
        service.director.look(tid)
        await service.director.idle()
        pairing = next(
            p for p in await store.pairings(tid) if (p.round, p.tab) == (first.round, first.tab)
        )
        assert pairing.decided is tr.Decided.FORFEIT and pairing.winner == first.player_a
    finally:
        service.director.stop()


class GoneThreads(Threads):
    """Discord's side of a pairing once the tournament's channel was deleted (10003)."""

    async def post(self, channel_id: int, text: str, nonce: str, mentions: tuple[int, ...]) -> int:
        raise ThreadRefused("404 Not Found (error code: 10003): Unknown Channel", gone=True)


async def test_a_tournament_whose_channel_was_deleted_ends(
    service: Services, store: Store, clock: Clock
) -> None:
    """The tournament's channel is deleted as a round is to be dealt: the tournament ends
    there, cancelled, no champion (not a round waiting on Discord for good, looked at every
    five seconds)."""
    tid = await _open(service)
    try:
        await service.director.start(GoneThreads())
        assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
        await service.director.idle()
        clock.advance(seconds=10)
        service.director.look(tid)
        await service.director.idle()
        record = await store.tournament(tid)
        assert record is not None and record.status is tr.TournamentStatus.CANCELLED
        assert record.refused_since is None
    finally:
        service.director.stop()


async def test_the_board_says_when_the_rounds_time_runs_out(
    service: Services, store: Store, clock: Clock
) -> None:
    """The tournament's message says when the round being played runs out of time (its
    deadline, as each reader's clock has it), where nothing told the players how long they
    had; while Discord refuses the tables the round's clock is stopped and it says that."""
    tid = await _open(service, round_hours=36.0)
    await service.director.start(Threads())
    try:
        assert (await service.tournaments.start(CHANNEL, MO, moderator=True)).ok
        await service.director.idle()
    finally:
        service.director.stop()
    record = await store.tournament(tid)
    assert record is not None and record.deadline is not None
    assert record.deadline == clock.now.timestamp() + 36 * 3600
    ends = int(record.deadline)
    text = board_text(await read_event(store, record))
    assert f"time runs out <t:{ends}:f> (<t:{ends}:R>)" in text
    stopped = dataclasses.replace(record, refused_since=clock.now.timestamp())
    text = board_text(await read_event(store, stopped))
    assert REFUSED in text and "time runs out" not in text
