"""Rules help for ``/cribbage rules [topic]``, in players' words."""

from __future__ import annotations

from bot.core.base.choices import DEFAULT_LEVEL, LEVEL_BLURBS
from bot.core.base.views import HAND_BUTTON, LOBBY_LABELS
from engine.outcome import Scoring

__all__ = [
    "FOLLOWING_DEAL",
    "HELP",
    "HELP_LEARN",
    "RULES_TOPICS",
    "RULE_NAMES",
    "WHO_MAY_CANCEL",
    "help_text",
    "rules_text",
]

#: The label of a private table's button that opens your hand (no DMs there).
_HAND = LOBBY_LABELS[HAND_BUTTON]

#: How the table names its rule for game points (the lobby, the rules, the standings).
RULE_NAMES = {
    Scoring.LURCH: "game points by the lurch",
    Scoring.SKUNK: "game points on the skunk scale",
}

#: Who may cancel a game (it ends with no result), as ``Lobbies`` lets them: said so by
#: ``/cribbage rules topic:commands``, the README's table of commands and docs/players.md
#: (tests/test_docs.py holds them to it). Outside servers nobody is a moderator.
WHO_MAY_CANCEL = (
    "in the lobby, the player who opened it or a moderator; once the cards are dealt, only a "
    "moderator (Manage Messages in the channel, or Manage Server), who confirms it first"
)

#: Who deals first in a rematch (the rule for a following game: bot.core.games.series), as
#: ``/cribbage rules topic:deal`` and docs/players.md say it (tests/test_docs.py holds them).
FOLLOWING_DEAL = (
    "In a rematch between two players the loser of the game before deals first (Bicycle's "
    'rules: "the loser of the game deals first if another game is played"); with more '
    "players the cut decides, as for any first deal"
)

RULES_TOPICS: dict[str, str] = {
    "overview": (
        "**Cribbage** is a race to 121 points (or 61 for a short game), pegged during the play "
        "and counted in the show. Each deal: everyone puts cards in the dealer's crib, a "
        "starter is cut, the play scores as cards go down, then every hand and the crib are "
        "counted. Two, three or four players (four play as partners, sitting opposite; the "
        "lobby's creator can change who partners whom before the deal). Older and bigger "
        "games too: five-card and seven-card cribbage, five players and six "
        "(the `variant` option of `/cribbage new`). "
        "Topics: `deal`, `play`, `show`, `scoring`, `commands`, and one per variant: "
        "`five-card`, `seven-card`, `five-hand`, `six-hand`. Never played? `/cribbage learn` "
        "teaches you in a short first game, explaining each rule as it comes up."
    ),
    "deal": (
        "**The deal.** Lowest card cuts to deal first, then the deal passes left. "
        f"{FOLLOWING_DEAL}. "
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
        "claim its value from your DM or with `/cribbage count`, once: nothing tells you to "
        "count again. Claim too much and you peg only what the hand is worth, while every "
        "opponent pegs the points you claimed over (the old laws' penalty for scoring more "
        "than you are entitled to: Hoyle p. 248; Enquire §82 ix). Claim it right or short "
        "and you peg what you claim; then every opponent may press **Muggins!** for a short "
        "while: on a short claim the first takes the points you missed; on a right one the "
        "call costs the caller nothing but the chance to call it again. **No muggins** lets "
        "the claim stand at once. The next hand is counted once every opponent has had the "
        "chance (its owner's claim is their own)."
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
        "`/cribbage new counting:manual`, `/cribbage new players:4 target:61`, "
        "`/cribbage new variant:five_card`, `/cribbage new players:6 teams:pairs`); "
        "`/cribbage join`, `/cribbage leave` and `/cribbage start` in the lobby (whose creator "
        "can also add computer players). `/cribbage new vs_computer:True` deals at once against "
        "the computer (`/cribbage new vs_computer:True difficulty:expert`: easy, medium, hard "
        "— the default — or expert). Your hand comes by DM (or `/cribbage hand`; in a DM or "
        f"group DM, the table's **{_HAND}** button). `/cribbage discard cards:5H JD` puts "
        "cards in the crib, `/cribbage play card:7C` plays a card — autocomplete offers your "
        "cards; `/cribbage count points:12` claims your hand with manual counting. "
        "`/cribbage status` shows the board; `/cribbage resign` concedes the game once you "
        "confirm it (Yes / No, privately) — with partners it is your decision alone and "
        f"concedes for your side; `/cribbage cancel` ends a game without a result: "
        f"{WHO_MAY_CANCEL}; once dealt, in a DM or group DM nobody, "
        "unless the game cannot go on. After each show the coach sends "
        "you a line about your discard, with your hand "
        "(`/cribbage coach setting:off` stops it). `/cribbage review` sets every decision of a "
        "game beside the expert's, `/cribbage verify` checks a game's shuffles against its "
        "seals, `/cribbage daily` deals the discard of the day, and "
        "`/cribbage count-hand cards:5H 5D JC QS starter:5S` counts any hand. "
        "`/cribbage leaderboard`, `/cribbage ranked play`, `/cribbage stats`, "
        "`/cribbage halloffame`, `/cribbage tournament new`, `/cribbage learn` and "
        "`/cribbage rules` help you along; `/cribbage privacy` "
        "says what the bot keeps about you, and sends you a copy or deletes it. Cards are written "
        "rank then suit: A 2-10 J Q K and C D H S (or ♣ ♦ ♥ ♠)."
    ),
    # The variants (issue 35), each rule with its source as docs/variants.md gives them in
    # full; what is not said is the standard game's.
    "five-card": (
        '**Five-card cribbage** (`/cribbage new variant:five_card`), two players to 61: "the '
        "original game\" (Bicycle Cards; Britannica). Five cards each, two to the dealer's "
        "crib, three kept (Hoyle's Games p. 249). At the start the non-dealer pegs 3, "
        '"taking three for last", once a game (Hoyle p. 249; Enquire Within §81). **The '
        "play is one series to 31**: after the first go or 31 the play is over and cards still "
        'held are not played (Hoyle p. 250: "Such cards as remain after this, are not to be '
        'played"; Encyclopaedia Britannica 9th ed., p. 576; Bicycle). A player who can still '
        "come in after a go must (Hoyle p. 250; Britannica 9th says may: playing on never costs "
        "here). **The show**: three cards and the starter; a flush is 3, or 4 with the "
        "starter; the crib scores a flush only of all five (Cassell's Book of In-door "
        "Amusements p. 165; Bicycle; Hoyle p. 250). The non-dealer shows first, and the game "
        "ends the moment someone reaches 61 (Cassell p. 165). A loser under 31 is lurched: 2 "
        "game points (Enquire Within §82; Dawson's Hoyle). "
        "`/cribbage count-hand variant:five_card` counts a hand of three."
    ),
    "seven-card": (
        "**Seven-card cribbage** (`/cribbage new variant:seven_card`), two players to 181 "
        "(Dawson's Hoyle: \"five-card, six-card, and seven-card cribbage ... 61; ... 121; and "
        "... 181\"). Seven cards each, two to the dealer's crib, five kept (Britannica 11th "
        "ed., vol. 7, p. 433; Dawson); no points for last (Hoyle's Games p. 249 gives them to "
        "five cards only). Every card is played, the count starting again after each go or 31 "
        "(Britannica 9th ed., p. 576). **The show**: five cards and the starter, six cards: "
        "fifteens from any cards, every pair, runs up to six, and a flush of a point a card, "
        "5 in hand or 6 with the starter; the crib only with the starter, 5 (Britannica "
        "11th). A hand can make 46 (4-4-5-5-6 with a 6). A loser with under 91 (less than "
        "half) is lurched: 2 game points (Dawson). There is no published skunk scale for 181, "
        "so `scoring:skunk` is not offered. `/cribbage count-hand variant:seven_card` counts "
        "a hand of five."
    ),
    "five-hand": (
        "**Five-hand cribbage** (`/cribbage new players:5` or `variant:five_hand`), five "
        "players each for themselves, to 121 (or 61). The dealer gets four cards and throws "
        "none; each other player gets five and throws one, so the crib of four is made by the "
        'others: "You have no control at all of your own crib" (the Germantown Peggers '
        'club, "Five Hand Cribbage"; Wikipedia, "Rules of cribbage", Variations). The '
        "player left of the dealer leads and shows first, round to the dealer, then the crib; "
        "every card is played, with goes and last card as with three players (Peggers). Five "
        "tracks on the board. Game points as for three: the loser's score that counts for a "
        "lurch or skunk is the best of the others'."
    ),
    "six-hand": (
        "**Six-hand cribbage** (`/cribbage new players:6` or `variant:six_hand`), to 121 (or "
        '61). Two teams of three in alternate seats: "Every other person is on the same '
        'team" ("How to Deal a Six Handed Cribbage Game", ourpastimes.com). The four '
        "players from the dealer's left get five cards and throw one; the player on the "
        "dealer's right and the dealer get four and throw none (the same page). The crib is "
        "the dealer's side's; play and show as with four players, each side pegging on its "
        "track. `teams:pairs` plays three teams of two instead, partners opposite (seats 1 & "
        "4, 2 & 5, 3 & 6), as the Germantown Peggers name it and the Lehr family plays it "
        '("6-Player Cribbage, as played by the Lehr family", emeraldimp.com), dealt the '
        "same way. Six players each for themselves has no published rules and is not offered."
    ),
}

#: The computer's levels, weakest first, as ``/cribbage help`` offers them.
_LEVELS = ", ".join(f"`{level}`" for level in LEVEL_BLURBS)

#: ``/cribbage help``'s line for ``/cribbage learn``: left out where the lesson's offer
#: (:data:`~bot.core.play.lessons.LESSON_OFFER`) stands above the commands, which names it.
HELP_LEARN = (
    "`/cribbage learn` — never played? A first game against a gentle computer, in DM, "
    "explaining each rule as it comes up."
)


def help_text(*, offered: bool = False) -> str:
    """``/cribbage help``: the commands a player needs first, as they are typed (``offered``:
    under the lesson's offer, which names ``/cribbage learn`` already)."""
    lines = [
        "**Cribbage: the commands you need first**",
        "`/cribbage new` — open a game in this channel; friends press **Join**, you press "
        "**Start**.",
        "`/cribbage new vs_computer:True` — play the computer at once: the "
        f"{DEFAULT_LEVEL} one, unless you add `difficulty:` "
        f"({_LEVELS}; `easy` is the gentlest).",
        *(() if offered else (HELP_LEARN,)),
        f"Your hand comes by DM (in a DM or group DM, press **{_HAND}** on the table): "
        "choose your crib cards and play with its buttons (or `/cribbage discard cards:5H JD`, "
        "`/cribbage play card:7C`).",
        "`/cribbage hand` — your cards, privately · `/cribbage status` — the board.",
        "`/cribbage resign` — concede (it asks first) · `/cribbage review` — your decisions "
        "beside the expert's.",
        "`/cribbage count-hand cards:5H 5D JC QS starter:5S` — what any hand is worth.",
        "`/cribbage stats`, `/cribbage leaderboard`, `/cribbage daily`, "
        "`/cribbage tournament new` — records, ratings, the discard of the day, tournaments.",
        "`/cribbage ranked play` — a ranked best of three against someone anywhere "
        "· `/cribbage ranked ladder` — the ladder.",
        "`/cribbage rules` — how to play and score; `/cribbage rules topic:commands` — more "
        "commands.",
    ]
    return "\n".join(lines)


#: ``/cribbage help`` as everyone but a newcomer offered the lesson reads it.
HELP = help_text()


def rules_text(topic: str | None) -> str:
    """Help for ``topic`` (default overview); an unknown topic lists the known ones."""
    key = (topic or "overview").strip().lower()
    if key in RULES_TOPICS:
        return RULES_TOPICS[key]
    known = ", ".join(f"`{t}`" for t in RULES_TOPICS)
    return f"I have no rules topic called that. Try one of: {known}."
