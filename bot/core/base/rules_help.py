"""Rules help for ``/cribbage rules [topic]``, in players' words."""

from __future__ import annotations

from engine.outcome import Scoring

__all__ = ["HELP", "RULES_TOPICS", "RULE_NAMES", "rules_text"]

#: How the table names its rule for game points (the lobby, the rules, the standings).
RULE_NAMES = {
    Scoring.LURCH: "game points by the lurch",
    Scoring.SKUNK: "game points on the skunk scale",
}

RULES_TOPICS: dict[str, str] = {
    "overview": (
        "**Cribbage** is a race to 121 points (or 61 for a short game), pegged during the play "
        "and counted in the show. Each deal: everyone puts cards in the dealer's crib, a "
        "starter is cut, the play scores as cards go down, then every hand and the crib are "
        "counted. Two, three or four players (four play as partners, sitting opposite; the "
        "lobby's creator can change who partners whom before the deal). "
        "Topics: `deal`, `play`, `show`, `scoring`, `commands`."
    ),
    "deal": (
        "**The deal.** Lowest card cuts to deal first, then the deal passes left. "
        "Two players get 6 cards and put 2 in the crib; three or four players get 5 and put 1 "
        "in (with three, one card from the deck joins the crib too). The crib belongs to the "
        "dealer. Then the starter is cut: a jack gives the dealer 2 — his heels."
    ),
    "play": (
        "**The play.** The player left of the dealer leads; each in turn plays a card and says "
        "the count, which may not pass 31. Can't play? Say go (the bot does it for you). When "
        "nobody can play, the last to play pegs 1 for the go — or 2 for exactly 31 — and the "
        "count starts again. The last card of the play pegs 1 (2 if it makes 31). Pegging: "
        "15 for 2, 31 for 2, a pair 2, three of a kind 6, four of a kind 12, a run of 3 or "
        "more one point a card."
    ),
    "show": (
        "**The show.** After the play, hands are counted starting left of the dealer; the "
        "dealer counts last, then the crib. The starter counts with every hand. The game ends "
        "the moment a side reaches the target — even part-way through the show, so the order "
        "matters. With `counting:manual` you count your own hand (the dealer also the crib): "
        "claim its value from your DM or with `/cribbage count`. Claim too much and you are "
        "told to count again. You peg what you claim, and after every claim, right or short, "
        "every opponent may press **Muggins!** for a short while: on a short claim the first "
        "takes the points you missed; on a right one the call costs the caller nothing but "
        "the chance to call it again. **No muggins** lets the claim stand at once."
    ),
    "scoring": (
        "**Scoring a hand** (with the starter): every fifteen 2, every pair 2 (three of a kind "
        "6, four 12), every run of 3+ one a card (double runs count twice), a flush of the four "
        "hand cards 4 (5 with the starter; the crib only scores a five-card flush), and the "
        "jack of the starter's suit 1 — his nobs. The best hand is 29.\n"
        "**Game points.** A win is 1. By the lurch (the default): a loser under 61 in a 121 "
        "game, or under 31 in a 61 game, is lurched — 2. On the skunk scale (`scoring:skunk`): "
        "a loser under 91 is skunked (2), under 61 double skunked (3); in a 61 game under 31 "
        "is skunked (2). A resignation is a loss at the scores as they stand, with the game "
        "points they give: resign at 0-0 and the winner scores a lurch. `/cribbage resign` "
        "asks you to confirm first. With partners a resignation is the player's alone: it "
        "concedes for the side, and the partner's consent is not asked."
    ),
    "commands": (
        "**Commands.** `/cribbage new` opens a game here (`/cribbage new scoring:skunk`, "
        "`/cribbage new counting:manual`, `/cribbage new players:4 target:61`); "
        "`/cribbage join`, `/cribbage leave` and `/cribbage start` in the lobby (whose creator "
        "can also add computer players). `/cribbage new vs_computer:True` deals at once against "
        "the computer (`/cribbage new vs_computer:True difficulty:expert`: easy, medium, hard "
        "— the default — or expert). Your hand comes by DM (or `/cribbage hand`; in a DM or "
        "group DM, the table's **Your hand** button). `/cribbage discard cards:5H JD` puts "
        "cards in the crib, `/cribbage play card:7C` plays a card — autocomplete offers your "
        "cards; `/cribbage count points:12` claims your hand with manual counting. "
        "`/cribbage status` shows the board; `/cribbage resign` concedes the game once you "
        "confirm it (Yes / No, privately) — with partners it is your decision alone and "
        "concedes for your side; `/cribbage cancel` ends a game without a result: its creator "
        "may in the lobby, and once the cards are dealt only a moderator (Manage Messages in "
        "the channel, or Manage Server; in a DM or group DM nobody, unless the game cannot go "
        "on), who confirms it first (Yes / No, privately). After each show the coach sends "
        "you a line about your discard, with your hand "
        "(`/cribbage coach setting:off` stops it). `/cribbage review` sets every decision of a "
        "game beside the expert's, `/cribbage verify` checks a game's shuffles against the "
        "seals the table showed, `/cribbage daily` deals the discard of the day, and "
        "`/cribbage count-hand cards:5H 5D JC QS starter:5S` counts any hand. "
        "`/cribbage leaderboard`, `/cribbage stats`, `/cribbage halloffame`, "
        "`/cribbage tournament new` and `/cribbage rules` help you along. Cards are written "
        "rank then suit: A 2-10 J Q K and C D H S (or ♣ ♦ ♥ ♠)."
    ),
}

#: ``/cribbage help``: the commands a player needs first, as they are typed.
HELP = "\n".join(
    [
        "**Cribbage: the commands you need first**",
        "`/cribbage new` — open a game in this channel; friends press **Join**, you press "
        "**Start**.",
        "`/cribbage new vs_computer:True` — play the computer at once "
        "(`difficulty:easy`, `medium`, `hard` or `expert`).",
        "Your hand comes by DM: choose your crib cards and play with its buttons "
        "(or `/cribbage discard cards:5H JD`, `/cribbage play card:7C`).",
        "`/cribbage hand` — your cards, privately · `/cribbage status` — the board.",
        "`/cribbage resign` — concede (it asks first) · `/cribbage review` — your decisions "
        "beside the expert's.",
        "`/cribbage count-hand cards:5H 5D JC QS starter:5S` — what any hand is worth.",
        "`/cribbage stats`, `/cribbage leaderboard`, `/cribbage daily`, "
        "`/cribbage tournament new` — records, ratings, the discard of the day, tournaments.",
        "`/cribbage rules` — how to play and score; `/cribbage rules topic:commands` — every "
        "command.",
    ]
)


def rules_text(topic: str | None) -> str:
    """Help for ``topic`` (default overview); an unknown topic lists the known ones."""
    key = (topic or "overview").strip().lower()
    if key in RULES_TOPICS:
        return RULES_TOPICS[key]
    known = ", ".join(f"`{t}`" for t in RULES_TOPICS)
    return f"I have no rules topic called that. Try one of: {known}."
