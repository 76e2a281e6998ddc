"""Whatever is typed into a string option, the service answers with a sentence and changes
nothing it should not (property-based: Hypothesis writes the input)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.services import Services
from bot.store import Store
from tests.helpers.cast import AL, BEA, CHANNEL, EVE
from tests.helpers.sequences import on_the_store
from tests.helpers.service_driver import open_table, state

# Text like people type, plus card-shaped fragments so some inputs get past the parser.
card_bits = st.sampled_from(["5H", "10d", "JC", "as", "QS", "kh", "1S", "TD", "5♥", ",", " "])
garbage = st.one_of(st.text(max_size=40), st.lists(card_bits, max_size=6).map("".join))
FAST = on_the_store(60)


@FAST
@given(text=garbage)
async def test_garbage_never_breaks_a_command(store: Store, service: Services, text: str) -> None:
    if await store.open_game_in_channel(CHANNEL) is None:
        await open_table(service, [AL, BEA])
    record = await store.open_game_in_channel(CHANNEL)
    assert record is not None
    for user in (EVE, BEA):
        before = await state(store, record.id)
        for outcome in (
            await service.moves.play(CHANNEL, user, text),
            await service.moves.discard(CHANNEL, EVE, text),
        ):
            assert not outcome.ok and outcome.reply.text.endswith((".", "!"))
            assert "\n" not in outcome.reply.text
        assert await state(store, record.id) == before
    for choices in (
        await service.table.autocomplete_discard(CHANNEL, AL.id, text),
        await service.table.autocomplete_play(CHANNEL, AL.id, text),
    ):
        assert len(choices) <= 25
        assert all(len(c.name) <= 100 and len(c.value) <= 100 for c in choices)
    assert service.rules(text).reply.text
