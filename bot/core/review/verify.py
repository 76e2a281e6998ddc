"""``/cribbage verify [game]``: whether each deal of a game was dealt from the deck its seal
promised (:mod:`bot.core.deck.seeded`), said privately.

For every deal whose seed the table has shown (its crib was shown, or the next deal dealt),
the seed is checked against the seal shown when the cards were dealt (SHA-256) and against the
deck the game was dealt from (the shuffle recorded with the game): the seed must give that very
deck, card for card. A deal still being played says its seed comes once its crib is shown (the
answer never shows a seed the table has not). A game begun before shuffles were sealed says its
deals can't be checked; the deal a game ended in before its crib was shown keeps its seed
secret, however the game ended (:attr:`~bot.core.games.games.Loaded.over`: a game cancelled or
expired mid-deal too, whose crib will never be shown). Anyone can redo the check with
``python -m bot verify`` from the seal and the seed the table showed.
"""

from __future__ import annotations

from bot.core.base.places import Place
from bot.core.base.refusals import Refused
from bot.core.base.replies import Answer
from bot.core.deck.seeded import deal_from_seed, parse_seed, seal_of, verify_command
from bot.core.deck.shuffles import decode
from bot.core.messages.projection import deal_seal
from bot.core.review.review import Reviews

__all__ = ["ShuffleChecks", "not_sealed"]

NOT_DEALT = "That game never got to the deal, so there is no shuffle to check."
#: The most deal lines one answer holds (a 121-point game has some 10 to 20 deals).
MAX_DEALS = 30


def not_sealed(game_id: int) -> str:
    """The answer for a game begun before shuffles were sealed."""
    return (
        f"Game {game_id} began before the bot sealed its shuffles, so its deals can't be "
        "checked: no seal was shown when they were dealt."
    )


class ShuffleChecks:
    """Checks a game's sealed shuffles (the games are found and loaded as reviews find them:
    in the asker's server, by number or the channel's latest)."""

    def __init__(self, reviews: Reviews) -> None:
        self._reviews = reviews

    async def check(
        self,
        place: Place,
        channel_id: int | None,
        game_id: int | None = None,
        *,
        viewer: int | None = None,
    ) -> Answer:
        """Each shown deal of game ``game_id`` (default: the latest in ``channel_id``) checked
        against its seal and the deck it was dealt from, for ``viewer`` asking in ``place`` (a
        game where they cannot see it was played, and do not play, is not found)."""
        try:
            record = await self._reviews.find(place, channel_id, game_id, viewer=viewer)
            loaded = await self._reviews.load(record, not_dealt=NOT_DEALT)
        except Refused as refused:
            return Answer.refuse(str(refused))
        game, seeds = loaded.game, loaded.seeds
        if seeds is None:
            return Answer.say(not_sealed(record.id))
        shuffles = loaded.shuffles or []
        lines = [f"**The shuffles of game {record.id}**"]
        matched = True
        # The command that checks the last deal checked, complete as its table writes it.
        command = ""
        for deal in range(1, game.state.deal_number + 1)[-MAX_DEALS:]:
            seal = deal_seal(game, loaded.log, seeds, deal)
            if seal is None or seal.seal is None:
                continue
            if seal.seed is None and loaded.over:
                lines.append(
                    f"Deal {deal}: sealed `{seal.seal[:16]}…`; the game ended before its crib "
                    "was shown, so its seed stays secret (those cards were never seen)."
                )
                continue
            if seal.seed is None:
                lines.append(
                    f"Deal {deal}: sealed `{seal.seal[:16]}…`; its seed is shown, and can be "
                    "checked, once the deal's crib has been shown."
                )
                continue
            at = len(game.state.cut_rounds) + deal - 1
            given = deal_from_seed(parse_seed(seal.seed), game.state.rules)
            dealt = decode(shuffles[at]) if at < len(shuffles) else None
            if seal_of(seal.seed) != seal.seal or list(given.deck) != dealt:
                matched = False
                lines.append(f"Deal {deal}: ❌ the seed does NOT give the deck this deal had.")
                continue
            starter = given.starter
            command = (
                f"deal {deal} yourself: `{verify_command(seal.seed, seal.seal, game.state.rules)}`"
            )
            lines.append(
                f"Deal {deal}: ✅ SHA-256 of seed `{seal.seed[:16]}…` is the seal shown at the "
                f"deal, and the seed gives the very deck it was dealt from (starter {starter})."
            )
        if len(lines) == 1:
            lines.append("No deal has been dealt yet.")
        elif matched and command:
            lines.append(
                f"To check {command} (each deal's table writes its own, with the starter and "
                "the hands shown)."
            )
        return Answer.say("\n".join(lines))
