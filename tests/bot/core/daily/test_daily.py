"""The discard of the day: the same hand for everyone in a server each day, one answer each,
the answer against all fifteen splits, the server's board after answering, and streaks."""

from __future__ import annotations

import doctest
import re
from datetime import UTC, date, datetime

from bot.core.base.places import DAILY_NEEDS_A_SERVER
from bot.core.base.replies import Answer, User
from bot.core.base.views import DailyPick
from bot.core.daily import daily as daily_module
from bot.core.daily.daily import daily_hand
from bot.core.services import Services
from bot.store import Store
from engine.cards import Card
from engine.coach import one_decimal, shown_total
from engine.players.judge import judge_discard
from engine.rules import Rules
from tests.helpers.service_driver import AL, BEA, GUILD, Clock
from tests.helpers.views import controls


def test_the_hand_follows_from_the_secret_the_server_and_the_day() -> None:
    secret = "ab" * 32
    today = daily_hand(secret, GUILD, date(2026, 3, 1))
    assert len(set(today.cards)) == 6
    assert today == daily_hand(secret, GUILD, date(2026, 3, 1))
    others = {daily_hand(secret, GUILD, date(2026, 3, d)).cards for d in range(2, 12)}
    assert today.cards not in others and len(others) == 10
    assert daily_hand("cd" * 32, GUILD, date(2026, 3, 1)).cards != today.cards
    assert doctest.testmod(daily_module).failed == 0


def _pick(answer: Answer) -> tuple[str, tuple[str, ...]]:
    view = answer.reply.view
    assert answer.ok and view is not None and view.controls_of(DailyPick) is not None, (
        answer.reply.text
    )
    assert "Today's board" not in view.content, "the board only after answering"
    return controls(view, DailyPick).stamp, controls(view, DailyPick).cards


async def test_everyone_gets_the_same_hand_and_answers_once(
    service: Services, clock: Clock
) -> None:
    stamp, cards = _pick(await service.daily.daily(GUILD, AL))
    assert (stamp, cards) == _pick(await service.daily.daily(GUILD, BEA))
    assert stamp == clock.now.strftime("%Y%m%d") and len(cards) == 6

    # Bad choices change nothing.
    for codes in ((cards[0],), (cards[0], cards[0]), (cards[0], "ZZ"), cards[:3]):
        refused = await service.daily.choose(GUILD, AL, stamp, codes)
        assert not refused.ok and refused.reply.text == daily_module.PICK_TWO
    stranger = next(c.code for c in _deck() if c.code not in cards)
    refused = await service.daily.choose(GUILD, AL, stamp, (cards[0], stranger))
    assert refused.reply.text == daily_module.PICK_TWO
    stale = await service.daily.choose(GUILD, AL, "20000101", cards[:2])
    assert not stale.ok and stale.reply.text == daily_module.NOT_TODAY
    assert _pick(await service.daily.daily(GUILD, AL)) == (stamp, cards)

    chosen = await service.daily.choose(GUILD, AL, stamp, cards[:2])
    assert chosen.ok and chosen.update is not None
    text = chosen.update.content
    assert chosen.update.controls_of(DailyPick) is None, "the menu is gone once answered"
    table = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    assert len([line for line in table if "·" in line]) == 15
    assert "◀ yours" in text and "Today's board** (1 answered)" in text and "Al threw" in text
    hand = [Card.parse(code) for code in cards]
    seat = text.split("\n")[0]
    sign = 1 if "You deal" in seat else -1
    # The one judge of a discard's best, the hint's and the coach's (the play counted too).
    best = judge_discard(hand, 2, crib_sign=sign, rules=Rules()).best
    # (As the table writes it: never "−0.0", and the sum of its three parts as shown.)
    assert one_decimal(shown_total(best)) in text
    assert "hand ± crib ± play = expected" in text
    for row in (row for row in table if "·" in row):
        # Each split's figures add up as written ("8.0 − 3.8 = 4.3" was seen).
        said = re.search(r"([−\d.]+) ([+−]) ([\d.]+) ([+−]) ([\d.]+) = \*\*([−\d.]+)\*\*", row)
        assert said is not None, row
        hand_part, op, crib_part, op2, play_part, total = (
            g.replace("−", "-") for g in said.groups()
        )
        worth = float(hand_part) + (float(crib_part) if op == "+" else -float(crib_part))
        worth += float(play_part) if op2 == "+" else -float(play_part)
        assert abs(worth - float(total)) < 1e-9, row

    again = await service.daily.choose(GUILD, AL, stamp, cards[2:4])
    assert again.update is not None and daily_module.ANSWERED in again.update.content
    assert again.update.content.count("◀ yours") == 1
    assert "Al threw" in again.update.content

    # Bea answers the best split: the board has both, the best first.
    bea = await service.daily.choose(GUILD, BEA, stamp, tuple(c.code for c in best.thrown))
    assert bea.update is not None and "is the best choice" in bea.update.content
    board = bea.update.content.split("**Today's board**")[1]
    assert board.index("Bea threw") < board.index("Al threw") or "1. Al" in board

    line = await service.daily.stats_line(GUILD, AL.id)
    assert line is not None and "streak 1 (longest 1)" in line
    clock.advance(days=1)
    stamp2, cards2 = _pick(await service.daily.daily(GUILD, AL))
    assert stamp2 != stamp
    assert (await service.daily.choose(GUILD, AL, stamp2, cards2[:2])).ok
    line = await service.daily.stats_line(GUILD, AL.id)
    assert line is not None and "2 answered" in line and "streak 2 (longest 2)" in line
    clock.advance(days=3)
    line = await service.daily.stats_line(GUILD, AL.id)
    assert line is not None and "streak 0 (longest 2)" in line


async def test_outside_a_server_there_is_none(service: Services, store: Store) -> None:
    assert (await service.daily.daily(None, AL)).reply.text == DAILY_NEEDS_A_SERVER
    assert not (await service.daily.choose(None, AL, "20260101", ("AH", "2H"))).ok
    assert await service.daily.stats_line(None, AL.id) is None
    assert await service.daily.stats_line(GUILD, AL.id) is None


async def test_a_pick_naming_no_two_cards_is_refused_before_the_hand_is_dealt(
    service: Services, store: Store, clock: Clock
) -> None:
    """A forged pick with today's stamp but no two cards is refused and leaves the server as
    it was: no secret is made for it (dealing the hand makes one on its first use)."""
    stamp = clock.now.strftime("%Y%m%d")
    for codes in ((), ("AH",), ("AH", "AH"), ("AH", "ZZ"), ("AH", "2H", "3H")):
        refused = await service.daily.choose(GUILD, AL, stamp, codes)
        assert not refused.ok and refused.reply.text == daily_module.PICK_TWO
    assert await store.db.fetch("SELECT guild_id FROM daily_secrets", ()) == []
    _pick(await service.daily.daily(GUILD, AL))
    assert len(await store.db.fetch("SELECT guild_id FROM daily_secrets", ())) == 1


def _deck() -> list[Card]:
    from engine.cards import full_deck

    return full_deck()


async def test_a_board_of_long_names_fits_one_message_with_the_answer_whole(
    service: Services,
) -> None:
    """Twenty people with names as long as Discord's, all of Markdown, answer: the last one's
    answer fits one message, its verdict and every split (its own marked) whole; the board
    gives up rows as it must and counts them with those past the fifteen it lists. (It was
    cut at 2,000 characters mid-line.)"""
    crowd = [User(500 + n, f"{n:02d}" + "*_" * 15) for n in range(20)]
    stamp, cards = _pick(await service.daily.daily(GUILD, crowd[0]))
    text = ""
    for n, user in enumerate(crowd):
        pick = (cards[n % 6], cards[(n + 1 + n // 6) % 6])
        answer = await service.daily.choose(GUILD, user, stamp, pick)
        assert answer.ok and answer.update is not None
        text = answer.update.content
    lines = text.splitlines()
    assert len(text) <= 2000
    assert len([line for line in lines if " · " in line and re.match(r"\d+\. ", line)]) == 15
    assert text.count("◀ yours") == 1
    board = lines[lines.index("**Today's board** (20 answered)") + 1 :]
    shown = [line for line in board if " threw " in line]
    assert 0 < len(shown) < 15 and all(line.endswith(")") for line in shown), "rows whole"
    assert board[-1] == f"… and {20 - len(shown)} more"


async def test_a_pick_made_a_moment_before_midnight_answers_that_days_hand(
    service: Services, clock: Clock
) -> None:
    """A choice made at 23:59:59 that reaches the bot a moment after midnight (UTC) answers
    the hand it was made on, on that day's board and streak, where it was refused as another
    day's hand; a pick of yesterday's hand past Discord's answer window still is. The hand
    says when the next one comes, in each reader's own time."""
    clock.now = datetime(2026, 3, 31, 23, 59, 55, tzinfo=UTC)
    dealt = await service.daily.daily(GUILD, AL)
    stamp, cards = _pick(dealt)
    midnight = int(datetime(2026, 4, 1, tzinfo=UTC).timestamp())
    assert dealt.reply.view is not None and f"<t:{midnight}:R>" in dealt.reply.view.content
    clock.advance(seconds=6)  # 00:00:01
    late = await service.daily.choose(GUILD, AL, stamp, cards[:2])
    assert late.ok and late.update is not None, late.reply.text
    assert "Discard of the day** — 2026-03-31" in late.update.content
    line = await service.daily.stats_line(GUILD, AL.id)
    assert line is not None and "1 answered" in line and "streak 1" in line
    # Today's hand is new, and Bea's pick of yesterday's, long after midnight, is refused.
    assert _pick(await service.daily.daily(GUILD, AL))[0] != stamp
    clock.advance(seconds=daily_module.LATE_PICK.total_seconds())
    refused = await service.daily.choose(GUILD, BEA, stamp, cards[:2])
    assert not refused.ok and refused.reply.text == daily_module.NOT_TODAY


def test_the_judges_best_leads_the_day_even_where_rounded_parts_read_less() -> None:
    """A hand where the sums of the rounded parts put another split a tenth above the judge's
    best (A♣ 4♥ 8♣ 8♦ 9♥ J♠, the pone's; 1 hand in 400): the best leads, so whoever throws it
    is told it is the best choice, as the hint and the coach would say."""
    cards = tuple(
        sorted((Card.parse(c) for c in ["AC", "4H", "8C", "8D", "9H", "JS"]), key=Card.sort_key)
    )
    hand = daily_module.DailyHand(date(2026, 1, 1), cards, False)
    best = judge_discard(cards, 2, crib_sign=-1, rules=Rules()).best
    assert set(daily_module._choices(hand)[0].thrown) == set(best.thrown)
