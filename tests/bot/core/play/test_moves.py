"""Moves typed in a command (`/cribbage discard`, `/cribbage play`): what could not be read as
cards is refused, quoting what was typed as typed."""

from __future__ import annotations

from bot.core.services import Services
from tests.helpers.service_driver import AL, BEA, CHANNEL, open_table


async def test_cards_that_are_not_cards_are_quoted_back_as_typed(service: Services) -> None:
    # The answer is Discord markdown: "**5H**" was bold in it, "<@1>" another person's
    # mention, and a link typed as a card was previewed under the answer.
    await open_table(service, [AL, BEA], target=61)
    for typed, quoted in (
        ("**5H** 5D", "“\\*\\*5H\\*\\*”"),
        ("<@1> 5D", "“<\\@1\\>”"),
        ("https://x.example 5D", "“https\\://x.ex…”"),
    ):
        thrown = await service.moves.discard(CHANNEL, AL, typed)
        assert not thrown.ok and thrown.reply.text.startswith(quoted), thrown.reply.text
        played = await service.moves.play(CHANNEL, AL, typed.split()[0])
        assert not played.ok and played.reply.text.startswith(quoted), played.reply.text
