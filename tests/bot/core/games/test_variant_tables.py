"""`/cribbage new variant: players: target: teams:` as the core takes it: each variant's
players and target by default, one clear sentence for a combination it does not offer (and
nothing opened), and a six-player lobby seating its teams."""

from __future__ import annotations

import pytest

from bot.core.base.refusals import Refused
from bot.core.base.replies import TableAsked
from bot.core.games.lobby import options_of, table_asked
from bot.core.games.records import GameRecord, GameStatus, Options, SeatRecord
from bot.core.games.rules_help import rules_text
from bot.core.review.report import review_caveat
from bot.core.services import Services
from bot.store import Store
from engine.counting import Counting
from engine.outcome import Scoring
from engine.variants import (
    FIVE_CARD,
    FIVE_HAND,
    SEVEN_CARD,
    SIX_HAND,
    SIX_HAND_PAIRS,
    STANDARD,
    Variant,
    listed,
    named,
)
from tests.helpers.cast import BEA, CY, DEE, EVE, FLO
from tests.helpers.service_driver import AL, CHANNEL, GUILD, Transcript, load, open_table, state


def test_a_variant_gets_its_own_players_and_target_unless_asked() -> None:
    assert table_asked() == table_asked(variant="standard")
    assert (table_asked().variant, table_asked().players, table_asked().target) == (
        STANDARD,
        2,
        121,
    )
    five = table_asked(variant="five_card")
    assert (five.variant, five.players, five.target) == (FIVE_CARD, 2, 61)
    seven = table_asked(variant="seven_card")
    assert (seven.variant, seven.players, seven.target) == (SEVEN_CARD, 2, 181)
    assert table_asked(variant="five_hand", target=61).target == 61
    # The players make the variant when none is named: five-hand for five, six-hand for six.
    assert table_asked(players=5).variant is FIVE_HAND
    assert table_asked(players=6).variant is SIX_HAND
    assert table_asked(players=6, teams="pairs").variant is SIX_HAND_PAIRS
    assert table_asked(variant="six_hand", teams="pairs").variant is SIX_HAND_PAIRS
    assert table_asked(teams="threes").variant is SIX_HAND


def test_what_is_asked_is_made_the_tables_options_whole() -> None:
    # Nothing asked: the standard game for two, to 121, the bot counting, no hints.
    assert options_of(TableAsked()) == Options(2, 121)
    every = TableAsked(
        players=6,
        target=61,
        teams="pairs",
        vs_computer=True,
        level="easy",
        scoring="skunk",
        counting="manual",
        hints=True,
    )
    assert options_of(every) == Options(
        6,
        61,
        vs_computer=True,
        scoring=Scoring.SKUNK,
        counting=Counting.MANUAL,
        variant=SIX_HAND_PAIRS.name,
        hints=True,
    )
    # Deal everyone in: as many as are at the table, the variant kept only if it seats them.
    five = TableAsked(variant="five_card", vs_computer=True).for_everyone(4)
    assert options_of(five) == Options(4, 121)
    for wrong, said in (
        ({"level": "godlike"}, "easy, medium, hard or expert"),
        ({"scoring": "double"}, "lurch"),
        ({"counting": "sometimes"}, "manual"),
    ):
        with pytest.raises(Refused, match=said):
            options_of(TableAsked(**wrong))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({"variant": "five_card", "players": 3}, "Five-card cribbage is for 2 players."),
        ({"variant": "five_card", "target": 121}, "Five-card cribbage is played to 61."),
        ({"variant": "seven_card", "target": 61}, "Seven-card cribbage is played to 181."),
        ({"variant": "seven_card", "scoring": "skunk"}, "Seven-card cribbage has no skunk scale"),
        ({"players": 4, "target": 181}, "Standard cribbage is played to 121 or 61."),
        ({"players": 7}, "A game has 2 to 6 players"),
        ({"variant": "five_card", "teams": "pairs"}, "`teams` is for six players"),
        ({"players": 4, "teams": "threes"}, "`teams` is for six players"),
        ({"variant": "six_hand_pairs", "teams": "threes"}, "does not seat `teams:threes`"),
        ({"teams": "fours"}, "`teams` is `threes`"),
        ({"variant": "nine_card"}, "There is no 'nine_card' variant"),
    ],
)
def test_a_combination_a_variant_does_not_offer_is_refused_in_one_sentence(
    asked: dict[str, object], said: str
) -> None:
    with pytest.raises(Refused) as refused:
        table_asked(**asked)  # type: ignore[arg-type]
    text = str(refused.value)
    assert said in text and text.count("\n") == 0, text


async def test_a_refused_table_opens_nothing(store: Store, service: Services) -> None:
    before = await state(store, 1)
    answer = await service.lobbies.new_game(
        GUILD, CHANNEL, AL, TableAsked(variant="five_card", players=3)
    )
    assert not answer.ok and answer.reply.ephemeral
    assert answer.reply.text == "Five-card cribbage is for 2 players."
    assert await store.open_game_in_channel(CHANNEL) is None
    assert await state(store, 1) == before


async def test_a_six_player_lobby_seats_two_teams_of_three(store: Store, service: Services) -> None:
    table = Transcript(service)
    opened = await table.record(
        AL.id, await service.lobbies.new_game(GUILD, CHANNEL, AL, TableAsked(variant="six_hand"))
    )
    game_id = opened.game_id or 0
    lobby = table.messages[(game_id, "lobby")].view.content
    assert lobby.startswith("**Cribbage** — Six-hand cribbage, 6 players, to 121"), lobby
    assert "Teams sit in alternate seats: 1 & 3 & 5 against 2 & 4 & 6." in lobby
    assert "Seated (1/6): Al" in lobby
    pairs = await service.lobbies.cancel(CHANNEL, AL)
    assert pairs.ok
    opened = await table.record(
        AL.id,
        await service.lobbies.new_game(
            GUILD, CHANNEL, AL, TableAsked(players=6, teams="pairs", target=61)
        ),
    )
    lobby = table.messages[(opened.game_id or 0, "lobby")].view.content
    assert "Six-hand cribbage in pairs, 6 players, to 61" in lobby
    assert "Partners sit opposite: seats 1 & 4 against 2 & 5 against 3 & 6." in lobby


@pytest.mark.parametrize(
    ("variant", "players", "level", "noted"),
    [
        ("five_card", None, "expert", "five-card cribbage"),
        ("six_hand", None, "expert", "six-hand cribbage"),
        ("five_card", None, "hard", None),
        ("standard", 2, "expert", None),
        # The standard game for three or four is not the two-player game the expert's
        # tables were built for either (engine.players.expert): its lobby said nothing.
        ("standard", 3, "expert", "cribbage for three"),
        ("standard", 4, "expert", "cribbage for four"),
    ],
)
async def test_the_lobby_says_where_the_expert_plays_without_its_tables(
    service: Services, variant: str, players: int | None, level: str, noted: str | None
) -> None:
    table = Transcript(service)
    opened = await table.record(
        AL.id,
        await service.lobbies.new_game(
            GUILD,
            CHANNEL,
            AL,
            TableAsked(variant=variant, players=players, vs_computer=True, level=level),
        ),
    )
    lobby = table.messages[(opened.game_id or 0, "lobby")].view.content
    said = "not at full expert strength here" in lobby
    assert said == (noted is not None), lobby
    if noted is not None:
        assert f"Expert bot plays {noted} without its two-player tables" in lobby, lobby


#: How `/cribbage rules` names each source engine.variants cites (docs/variants.md in full).
_CITED_AS = {
    "Hoyle": "Hoyle",
    "EB9": "Britannica 9th",
    "EB11": "Britannica 11th",
    "Cassell": "Cassell",
    "Enquire": "Enquire Within",
    "Dawson": "Dawson",
    "Bicycle": "Bicycle",
    "Peggers": "Germantown Peggers",
    "Wikipedia": "Wikipedia",
    "Pastimes": "ourpastimes.com",
    "Lehr": "Lehr family",
}


@pytest.mark.parametrize("variant", [v for v in listed() if v is not STANDARD], ids=str)
def test_each_variants_rules_topic_cites_its_sources(variant: Variant) -> None:
    topic = variant.name.removesuffix("_pairs").replace("_", "-")
    text = rules_text(topic)
    assert text.startswith(f"**{variant.title.removesuffix(' in pairs')}**"), text
    assert len(text) <= 2000  # one Discord message
    for source in variant.sources:
        assert _CITED_AS[source.split()[0]] in text, (source, text)
    assert f"variant:{variant.name.removesuffix('_pairs')}" in text
    if variant.rules().kept != STANDARD.rules().kept:
        # A hand of another size is counted by `/cribbage count-hand` in that variant.
        assert f"`/cribbage count-hand variant:{variant.name}`" in text, text


def _record(variant: str, players: int) -> GameRecord:
    kind = named(variant)
    seats = tuple(SeatRecord(s, 10 + s, f"P{s}") for s in range(players))
    return GameRecord(
        1, GUILD, CHANNEL, GameStatus.FINISHED, 10,
        Options(players, kind.default_target, variant=variant), None, 1, 0.0, 0.0, seats,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "players", "caveat"),
    [
        ("standard", 2, False),
        ("standard", 3, True),
        ("standard", 4, True),
        ("five_card", 2, True),
        ("seven_card", 2, True),
        ("five_hand", 5, True),
        ("six_hand_pairs", 6, True),
    ],
)
def test_a_variants_review_says_plainly_where_the_experts_tables_do_not_hold(
    variant: str, players: int, caveat: bool
) -> None:
    said = review_caveat(_record(variant, players))
    assert bool(said) == caveat
    if caveat:
        game = named(variant).title.lower() if variant != "standard" else "cribbage for"
        assert said.startswith(f"In {game}"), said
        assert "the expert's tables for the two-player standard game do not hold" in said


@pytest.mark.parametrize("players", [5, 6])
async def test_a_seat_dealt_four_asked_to_discard_is_told_it_throws_none(
    store: Store, service: Services, players: int
) -> None:
    # The five-hand dealer (and six-hand's dealer and the player on his right) was told
    # "You have already discarded." by `/cribbage discard`: it never had.
    users = [AL, BEA, CY, DEE, EVE, FLO][:players]
    table = await open_table(service, users, target=61)
    game_id = table.outcomes[0].game_id or 0
    game = await load(store, game_id)
    short = [seat for seat in range(players) if not game.view(seat).discard_count]
    assert short and game.state.dealer in short
    before = await state(store, game_id)
    for seat in short:
        card = game.view(seat).hand[0].code
        answer = await service.moves.discard(CHANNEL, users[seat], card)
        assert not answer.ok and answer.reply.ephemeral
        assert answer.reply.text == (
            "You were dealt 4 cards and put none in the crib: the others make it."
        )
    assert await state(store, game_id) == before
