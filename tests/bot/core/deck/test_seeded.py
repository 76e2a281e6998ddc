"""The sealed shuffle: its procedure, its seal and seed on the table, `python -m bot verify`."""

from __future__ import annotations

import doctest
import hashlib
import json
import random
import re
import shlex
from pathlib import Path

import pytest

from bot.core.base.replies import Answer, TableAsked, User
from bot.core.deck import seeded
from bot.core.deck.seeded import (
    SeedDealer,
    deal_from_seed,
    deck_from_seed,
    parse_seed,
    permutation,
    seal_of,
)
from bot.core.deck.shuffles import RecordingRandom
from bot.core.games import archive, snapshot
from bot.core.games.deal_log import DealLog
from bot.core.games.records import Options
from bot.core.games.tally import Tally
from bot.core.messages.table import NOT_SEALED
from bot.core.review import review as reviews
from bot.core.review.report import UNSEALED_LINE
from bot.core.review.review import TOO_OLD
from bot.core.review.verify import NOT_DEALT, not_sealed
from bot.core.services import Services
from bot.store import Store
from bot.tools import verify
from engine.cards import Card, cards_str, full_deck
from engine.game import Game
from engine.phase import Phase
from engine.rules import Rules, Share
from engine.variants import named
from tests.helpers.cast import FLO, in_server
from tests.helpers.service_driver import (
    AL,
    BEA,
    CHANNEL,
    CY,
    DEE,
    EVE,
    GUILD,
    Clock,
    Transcript,
    drive,
    make_service,
    open_table,
    owed_now,
)

SEAL_LINE = re.compile(r"🔒 Shuffle sealed: SHA-256 `([0-9a-f]{64})`")
SEED_LINE = re.compile(r"🔓 Shuffle seed: `([0-9a-f]{64})`")


def test_the_procedure_is_pinned() -> None:
    # docs/shuffle.md writes the procedure out; a change to it would make every published seed
    # deal another deck, so the first cards of two seeds' decks are written down here.
    assert [c.code for c in deck_from_seed(bytes(32))[:8]] == [
        "9S",
        "9D",
        "JD",
        "QD",
        "2D",
        "2H",
        "6D",
        "KH",
    ]
    assert cards_str(deck_from_seed(bytes(32))[:6]) == cards_str(_pinned(bytes(32)))
    assert cards_str(deck_from_seed(bytes(range(32)))[:6]) == cards_str(_pinned(bytes(range(32))))


def _pinned(seed: bytes) -> list[Card]:
    """The procedure as docs/shuffle.md says it, written again independently."""
    deck = full_deck()
    words: list[int] = []
    counter = 0
    for i in range(51, 0, -1):
        while True:
            if not words:
                block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
                counter += 1
                words = [int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4)]
            u = words.pop(0)
            if u < 2**32 - 2**32 % (i + 1):
                break
        j = u % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return list(deck[:6])


def test_the_examples_in_the_docstrings_run() -> None:
    assert doctest.testmod(seeded).failed == 0


def test_an_archived_game_keeps_its_seeds() -> None:
    seeds: list[str] = []
    shuffles: list[str] = []
    game, events = Game.new(
        ["Al", "Bea"], rng=RecordingRandom(SeedDealer(random.Random(3), seeds), shuffles)
    )
    tally, log = Tally.empty(2), DealLog.start(2)
    tally.add(events)
    log.add(events)
    kept = archive.restore(archive.compact(snapshot.encode(game, tally, log, shuffles, seeds)))
    assert kept.shuffles == shuffles and kept.seeds == seeds


def test_every_seed_gives_a_whole_deck_and_the_rejection_keeps_it_fair() -> None:
    rng = random.Random(5)
    for _ in range(200):
        assert sorted(permutation(rng.randbytes(32), 52)) == list(range(52))
    # Each card is as likely to be on top: over many seeds, no position dominates.
    tops = [permutation(rng.randbytes(32), 4)[0] for _ in range(4000)]
    assert all(800 < tops.count(k) < 1200 for k in range(4))


def test_a_seed_deals_one_card_at_a_time_from_the_dealers_left() -> None:
    dealt = deal_from_seed(bytes(32), Rules.standard(3))
    deck = dealt.deck
    assert dealt.hands[0] == (deck[0], deck[3], deck[6], deck[9], deck[12])
    assert dealt.crib_cards == (deck[15],) and dealt.starter == deck[16]


def test_a_seed_deals_each_seat_its_share_by_the_rules() -> None:
    # Five-hand: the dealer (last) is dealt four, the others five; the pack gives nothing.
    dealt = deal_from_seed(bytes(32), Rules(seats=5, dealer=Share(4, 0), others=Share(5, 1)))
    deck = dealt.deck
    assert [len(hand) for hand in dealt.hands] == [5, 5, 5, 5, 4]
    assert dealt.hands[4] == (deck[4], deck[9], deck[14], deck[19])
    assert dealt.hands[0][-1] == deck[20] and dealt.crib_cards == () and dealt.starter == deck[24]


@pytest.mark.parametrize("text", ["", "abc", "g" * 64, "0" * 63, "0" * 66])
def test_a_seed_that_is_not_one_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ValueError, match="64 hex digits"):
        parse_seed(text)


def test_the_dealer_seals_every_shuffle_and_the_snapshot_keeps_the_seeds() -> None:
    seeds: list[str] = []
    game, _ = Game.new(["Al", "Bea"], rng=SeedDealer(random.Random(1), seeds))
    assert len(seeds) == len(game.state.cut_rounds) + 1
    dealt = deal_from_seed(bytes.fromhex(seeds[-1]), game.state.rules)
    # Player 1 is left of the dealer: the first card dealt is theirs.
    pone = (game.state.dealer + 1) % 2
    assert set(game.hand(pone)) == set(dealt.hands[0])
    assert set(game.hand(game.state.dealer)) == set(dealt.hands[1])
    text = snapshot.encode(game, Tally.empty(2), DealLog.start(2), [], seeds)
    again = snapshot.decode(text, random.Random(2))
    assert again.seeds == seeds
    # The restored game goes on sealing its shuffles into the same list.
    for seat in (pone, game.state.dealer):
        again.game.discard(seat, again.game.hand(seat)[:2])
    assert again.game.state.starter == dealt.starter


async def _sealed_game(store: Store, clock: Clock) -> tuple[Services, Transcript, int]:
    """Al and Bea's sealed 61-point game, started: the core, what it sent, the game's id."""
    service = make_service(store, clock, sealing=True)
    table = await open_table(service, [AL, BEA], target=61)
    return service, table, table.outcomes[0].game_id or 0


async def test_the_table_shows_the_seal_at_the_deal_and_the_seed_after_the_show(
    store: Store, clock: Clock
) -> None:
    service, table, game_id = await _sealed_game(store, clock)
    checked: set[int] = set()

    async def check(outcome: Answer, user: User) -> None:
        record = await store.get_game(game_id)
        assert record is not None and record.snapshot is not None
        kept = snapshot.decode(record.snapshot, random.Random(0))
        game, seeds = kept.game, kept.seeds
        assert seeds is not None
        for owed in await owed_now(service, game_id):
            if not str(owed.key).startswith("table:"):
                continue
            deal = int(str(owed.key).split(":")[1])
            seed = seeds[len(game.state.cut_rounds) + deal - 1]
            seals = SEAL_LINE.findall(owed.view.content)
            assert seals == [seal_of(seed)], owed.view.content
            shown = SEED_LINE.findall(owed.view.content)
            if deal == game.state.deal_number and game.state.phase is not Phase.OVER:
                assert shown == [], "the seed is shown only once the deal is"
                continue
            if deal < game.state.deal_number:
                assert shown == [seed]
            if shown and deal not in checked:
                checked.add(deal)
                assert verify.main([seed, seal_of(seed)]) == 0

    await drive(service, table, [AL, BEA], check=check)
    assert len(checked) >= 3


async def test_a_game_against_the_computer_keeps_its_seeds_from_the_first_deal(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True)
    opened = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(players=2, vs_computer=True)
    )
    assert opened.ok, opened.reply.text
    record = await store.get_game(opened.game_id or 0)
    assert record is not None and record.snapshot is not None
    kept = snapshot.decode(record.snapshot, random.Random(0))
    assert kept.seeds is not None and len(kept.seeds) == len(kept.game.state.cut_rounds) + 1


async def test_a_tournament_pairing_keeps_its_seeds_from_the_first_deal(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock, sealing=True)
    record = await service.lobbies.open_seated(GUILD, CHANNEL, (AL, BEA), Options(2, 61))
    stored = await store.get_game(record.id)
    assert stored is not None and stored.snapshot is not None
    kept = snapshot.decode(stored.snapshot, random.Random(0))
    assert kept.seeds is not None and len(kept.seeds) == len(kept.game.state.cut_rounds) + 1


async def test_a_game_begun_before_seals_says_its_deals_cant_be_checked(
    service: Services,
) -> None:
    # The service fixture's shuffles are recorded, not sealed.
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    owed = await owed_now(service, game_id)
    tables = [o.view.content for o in owed if str(o.key).startswith("table:")]
    assert tables and all(NOT_SEALED in text for text in tables), tables
    assert not any("Shuffle sealed" in o.view.content for o in owed)
    await drive(service, table, [AL, BEA])
    # Every deal's table says so, once, where a sealed game shows its seal; never a seed.
    for o in await owed_now(service, game_id):
        if str(o.key).startswith("table:"):
            assert o.view.content.count(NOT_SEALED) == 1, o.view.content
            assert not SEED_LINE.search(o.view.content)
    # Its review too (it can be reviewed: its shuffles were recorded).
    review = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    assert review.ok and review.reply.view is not None, review.reply.text
    assert UNSEALED_LINE in review.reply.view.content


async def test_a_sealed_games_review_says_nothing_of_checking(store: Store, clock: Clock) -> None:
    service, table, game_id = await _sealed_game(store, clock)
    await drive(service, table, [AL, BEA])
    review = await service.reviews.review(in_server(), CHANNEL, BEA)
    assert review.ok and review.reply.view is not None, review.reply.text
    assert "can't be checked" not in review.reply.view.content
    assert not any(NOT_SEALED in o.view.content for o in await owed_now(service, game_id))


async def test_a_game_begun_before_shuffles_were_recorded_cant_be_reviewed_or_checked(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock)
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    await drive(service, table, [AL, BEA])
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    data = json.loads(record.snapshot)
    del data["shuffles"]
    data["format"] = 2
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(data), game_id))
    service.games.loaded.drop(game_id)
    refused = await service.reviews.review(in_server(), CHANNEL, AL, game_id)
    assert not refused.ok and refused.reply.text == TOO_OLD
    assert "can't be reviewed" in TOO_OLD and "shuffle can't be checked" in TOO_OLD


def test_verify_says_whether_the_deal_matches(capsys: pytest.CaptureFixture[str]) -> None:
    seed = bytes(range(32))
    dealt = deal_from_seed(seed, Rules.standard(2))
    seal = hashlib.sha256(seed).hexdigest()
    kept = [" ".join(c.code for c in hand[:4]) for hand in dealt.hands]
    args = [seed.hex(), seal, "--starter", dealt.starter.code]
    assert verify.main([*args, "--hand", kept[0], "--hand", kept[1]]) == 0
    assert "Everything matches." in capsys.readouterr().out
    # The hands the other way round, a starter that was not, a seal of another seed: no.
    assert verify.main([*args, "--hand", kept[1], "--hand", kept[0]]) == 1
    other = next(c for c in full_deck() if c != dealt.starter)
    assert verify.main([seed.hex(), seal, "--starter", other.code]) == 1
    assert verify.main([seed.hex(), seal_of("00" * 32)]) == 1
    out = capsys.readouterr().out
    assert "does NOT match" in out and "NOT." in out
    assert verify.main(["nonsense", seal]) == 2
    assert verify.main([seed.hex(), seal, "--starter", "XX"]) == 2
    assert verify.main([seed.hex(), seal, "--hand", "AH", "--hand", "2H", "--hand", "3H"]) == 2


async def test_verify_checks_each_shown_deal_against_its_seal_and_its_deck(
    store: Store, clock: Clock
) -> None:
    service, table, game_id = await _sealed_game(store, clock)
    early = await service.shuffles.check(in_server(), CHANNEL)
    assert early.ok and early.reply.ephemeral, early.reply.text
    # Deal 1 is being played: its seal only, never its seed.
    assert "Deal 1: sealed" in early.reply.text and not SEED_LINE.search(early.reply.text)
    await drive(service, table, [AL, BEA])
    record = await store.get_game(game_id)
    assert record is not None and record.snapshot is not None
    kept = snapshot.decode(record.snapshot, random.Random(0))
    answer = await service.shuffles.check(in_server(), None, game_id)
    lines = answer.reply.text.splitlines()
    checked = [line for line in lines if line.startswith("Deal ")]
    assert len(checked) == kept.game.state.deal_number, answer.reply.text
    # Every deal but the last was shown; the last, if the game ended before its crib was
    # shown, keeps its seed secret.
    assert all("✅" in line for line in checked[:-1]), answer.reply.text
    assert "✅" in checked[-1] or "its seed stays secret" in checked[-1], answer.reply.text
    assert kept.seeds is not None
    seed = kept.seeds[len(kept.game.state.cut_rounds)]
    assert f"seed `{seed[:16]}…`" in checked[0]
    assert "python -m bot verify" in lines[-1]

    # A seed that is not the one the deal was dealt from: said, not passed over.
    wrong = list(kept.seeds)
    wrong[len(kept.game.state.cut_rounds)] = "00" * 32
    data = json.loads(record.snapshot)
    data["seeds"] = wrong
    async with store.db.transaction() as tx:
        await tx.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(data), game_id))
    service.games.loaded.drop(game_id)
    tampered = await service.shuffles.check(in_server(), None, game_id)
    assert "Deal 1: ❌" in tampered.reply.text and "python -m bot verify" not in tampered.reply.text


async def test_verify_of_an_old_game_a_lobby_or_another_servers_game(
    store: Store, clock: Clock
) -> None:
    service = make_service(store, clock)  # shuffles recorded, not sealed
    table = await open_table(service, [AL, BEA], target=61)
    game_id = table.outcomes[0].game_id or 0
    old = await service.shuffles.check(in_server(), CHANNEL)
    assert old.ok and old.reply.text == not_sealed(game_id)
    assert "can't be checked" in old.reply.text
    elsewhere = await service.shuffles.check(in_server(guild=GUILD + 1), None, game_id)
    assert not elsewhere.ok and elsewhere.reply.text == reviews.NO_SUCH_GAME
    missing = await service.shuffles.check(in_server(), None, game_id + 1000)
    assert not missing.ok and missing.reply.text == reviews.NO_SUCH_GAME
    nowhere = await service.shuffles.check(in_server(CHANNEL + 1), CHANNEL + 1)
    assert not nowhere.ok and nowhere.reply.text == reviews.NO_GAME_HERE
    lobby = await service.lobbies.new_game(GUILD, CHANNEL + 2, AL)
    assert lobby.ok
    waiting = await service.shuffles.check(in_server(CHANNEL + 2), CHANNEL + 2)
    assert not waiting.ok and waiting.reply.text == NOT_DEALT
    # Cancelled in its lobby, it never got to the deal either: no shuffle to check (it said
    # "nothing to review", the review's words).
    assert (await service.lobbies.cancel(CHANNEL + 2, AL)).ok
    cancelled = await service.shuffles.check(in_server(CHANNEL + 2), CHANNEL + 2)
    assert not cancelled.ok and cancelled.reply.text == NOT_DEALT, cancelled.reply.text


@pytest.mark.parametrize("how", ["cancelled", "expired"])
async def test_verify_of_a_game_stopped_mid_deal_says_its_seed_stays_secret(
    store: Store, clock: Clock, how: str
) -> None:
    """A game cancelled by a moderator or expired while a deal was played has no result, but
    it is over all the same: that deal's crib will never be shown, so verify says its seed
    stays secret, as for a game resigned mid-deal (it said the seed comes once the crib is
    shown, a promise nothing would keep)."""
    service, table, game_id = await _sealed_game(store, clock)
    await drive(service, table, [AL, BEA], stop_after=4)  # (deal 1's play under way)
    going = await service.shuffles.check(in_server(), CHANNEL)
    assert "once the deal's crib has been shown" in going.reply.text, going.reply.text
    if how == "cancelled":
        assert (await service.lobbies.cancel(CHANNEL, CY, moderator=True)).ok
    else:
        clock.advance(days=8)
        assert await service.housekeeping.expire_idle(clock()) == [game_id]
    record = await store.get_game(game_id)
    assert record is not None and record.status == how
    checked = await service.shuffles.check(in_server(), CHANNEL)
    assert checked.ok, checked.reply.text
    assert "Deal 1: sealed" in checked.reply.text, checked.reply.text
    assert "the game ended before its crib was shown, so its seed stays secret" in (
        checked.reply.text
    )
    assert "once the deal's crib has been shown" not in checked.reply.text
    assert "✅" not in checked.reply.text


#: The command a deal's table writes beside its seed, once shown.
COMMAND = re.compile(
    r"🔓 Shuffle seed: `[0-9a-f]{64}` — check the deal: `python -m bot verify ([^`]+)`"
)


@pytest.mark.parametrize(
    ("variant", "seated"),
    [("standard", 3), ("five_hand", 5), ("five_card", 2), ("six_hand", 6), ("seven_card", 2)],
)
async def test_each_shown_deal_writes_one_command_that_checks_it_as_written(
    store: Store, clock: Clock, variant: str, seated: int
) -> None:
    # The command the table writes runs as written, whatever the players and the variant
    # (issue 47: it said `python -m bot verify SEED SEAL`, which deals two players' hands),
    # with the starter and every hand shown; /cribbage verify writes the same form.
    service = make_service(store, clock, sealing=True)
    users = [AL, BEA, CY, DEE, EVE, FLO][:seated]
    # (To 61 where the variant plays it, for a quick game; seven-card's is 181 alone.)
    target = min(named(variant).targets)
    table = await open_table(service, users, target=target, variant=variant)
    game_id = table.outcomes[0].game_id or 0
    commands: dict[str, str] = {}

    async def check(outcome: Answer, user: User) -> None:
        for owed in await owed_now(service, game_id):
            found = COMMAND.search(owed.view.content)
            if str(owed.key).startswith("table:") and found:
                commands[str(owed.key)] = found[1]

    await drive(service, table, users, check=check, stop_after=60 * seated)
    assert commands
    for command in commands.values():
        assert f"--players {seated}" in command and "--starter" in command, command
        assert command.count("--hand") == seated, command
        assert ("--variant" in command) is (variant != "standard"), command
        assert verify.main(shlex.split(command)) == 0, command
    answer = await service.shuffles.check(in_server(), CHANNEL, game_id)
    last = answer.reply.text.splitlines()[-1]
    written = re.search(r"`python -m bot verify ([^`]+)`", last)
    assert written is not None, last
    assert verify.main(shlex.split(written[1])) == 0, last


def test_the_docs_example_command_runs_as_written() -> None:
    doc = (Path(__file__).resolve().parents[4] / "docs" / "shuffle.md").read_text()
    [example] = [line for line in doc.splitlines() if line.startswith("python -m bot verify 0")]
    assert verify.main(shlex.split(example.removeprefix("python -m bot verify "))) == 0
