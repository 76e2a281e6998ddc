"""The privacy policy and the terms of service, written for this bot and served by the game
pages' server at ``/privacy`` and ``/terms`` (Discord asks a verified app to link both from its
developer portal page: *General Information*, *Privacy Policy URL* and *Terms of Service URL*).

Their figures are the bot's own settings (how long games are kept whole, how long an idle game
lasts, how long a server's data outlives the bot's leaving it), and the contact is
``PRIVACY_CONTACT``, so what the pages promise is what the bot does.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import timedelta

from bot.web.pages import document

__all__ = ["PolicyFacts", "privacy_page", "terms_page"]


@dataclass(frozen=True, slots=True)
class PolicyFacts:
    """What the pages state about this bot."""

    retention: timedelta
    idle_expiry: timedelta
    grace: timedelta
    #: How people reach whoever runs the bot (an e-mail address, an invite), if set.
    contact: str | None = None


def _days(period: timedelta) -> str:
    days = period.total_seconds() / 86_400
    if days < 1:
        hours = max(1, round(period.total_seconds() / 3600))
        return f"{hours} hour{'s' if hours != 1 else ''}"
    shown = f"{days:g}"
    return f"{shown} day{'s' if days != 1 else ''}"


def _contact(facts: PolicyFacts) -> str:
    if facts.contact is None:
        return (
            "<p>This bot's operator has not published a contact here: ask in the Discord server"
            " where you play, whose moderators invited the bot. Getting a copy of your data and"
            " deleting it need nobody's help (<code>/cribbage privacy</code>).</p>"
        )
    contact = html.escape(facts.contact)
    if "@" in facts.contact and " " not in facts.contact and "/" not in facts.contact:
        contact = f'<a href="mailto:{contact}">{contact}</a>'
    elif facts.contact.startswith(("https://", "http://")):
        contact = f'<a href="{contact}" rel="noreferrer">{contact}</a>'
    return f"<p>Write to whoever runs this bot: {contact}.</p>"


def privacy_page(facts: PolicyFacts) -> str:
    """The privacy policy."""
    kept, idle, grace = _days(facts.retention), _days(facts.idle_expiry), _days(facts.grace)
    body = f"""
<h1>Privacy policy</h1>
<p>This policy covers the cribbage bot for Discord served from this address (“the bot”): what
it keeps about the people who play with it, why, for how long, and how to get a copy of it or
have it deleted. It is run by the operator named under <a href="#contact">Contact</a>.</p>

<h2 id="kept">What the bot keeps</h2>
<ul>
<li><strong>Your Discord user id and the name you play under</strong>, with each game you sit
in: your seat, your moves, the cards you were dealt and held, the points you scored, and the
result.</li>
<li><strong>Your ratings and records</strong> in each server (and in games outside servers),
worked out from your results; your head-to-head record against each opponent.</li>
<li><strong>Reviews of your decisions</strong> in finished games, beside the expert's.</li>
<li><strong>Your answers to the discard of the day</strong>, and your streaks.</li>
<li><strong>Tournaments</strong> you entered or organised, and their results.</li>
<li><strong>Your coach setting</strong>, and the id of the direct-message channel the bot sends
your hands to, with the latest interaction you made there (Discord lets it be used for 15
minutes).</li>
<li><strong>That you were seen in a server</strong> (when a move you made by direct message
had to be checked against the server's members), and when.</li>
<li>For each server: the channels games were played in, the bot's own messages there (their
ids, to edit them), and the server's secret for the discard of the day.</li>
</ul>
<p>The bot does not read your messages (it asks Discord for none), keeps no list of a server's
members, and keeps nothing about people who never used it. The game pages set no cookies and
keep no log of who visits them. The table inside Discord (the Activity) asks Discord who you are
(the <code>identify</code> permission: your id and name), only to seat you at your own hand.</p>

<h2 id="why">Why</h2>
<p>To run the games you start or join: deal, check and score your moves, show each player only
their own cards, send your hand to you, and keep the game going across restarts. To keep the
standings, records, reviews and tournaments you and the other players in your server ask for.
Nothing is used for advertising, sold, or given to anyone.</p>

<h2 id="how-long">How long</h2>
<ul>
<li>A game is kept whole for {kept} after it ends. After that only its results and a compact
record of its moves are kept, so that the standings and its page still show how it went.</li>
<li>A game nobody moves in for {idle} is ended.</li>
<li>Ratings, records and reviews are kept while the bot runs, until you have them deleted.</li>
<li>When the bot is removed from a server, everything kept for that server is deleted {grace}
later, unless the bot is invited back by then.</li>
<li>Backups the operator makes hold what the bot held when they were made, and are kept by the
operator as their own practice says.</li>
</ul>

<h2 id="yours">Your data, on request</h2>
<p>Type <code>/cribbage privacy</code> anywhere the bot's commands work. It says what is kept,
and has two buttons: <strong>Send me my data</strong> sends you, and you alone, a file of
everything kept about you; <strong>Delete my data</strong>, once you confirm, deletes your
ratings, records, reviews, answers, coach setting and direct-message link at once. A game you
are playing is resigned first. The games you played stay whole for your opponents (they are
their games too), with you shown as a former player and your Discord id removed from them.</p>

<h2 id="shared">Who else sees it</h2>
<p>Discord, which carries every message the bot sends (its own privacy policy applies there);
the players and spectators of your games, who see the table as Discord shows it; and the
hosting provider the operator runs the bot on, which stores the database.</p>

<h2 id="contact">Contact</h2>
{_contact(facts)}
<p>See also the <a href="/terms">terms of service</a>.</p>
"""
    return document("Privacy policy · Cribbage bot", body)


def terms_page(facts: PolicyFacts) -> str:
    """The terms of service."""
    body = f"""
<h1>Terms of service</h1>
<p>These terms cover the cribbage bot for Discord served from this address (“the bot”). By
adding it to a server, installing it for yourself or playing with it, you agree to them and to
<a href="https://discord.com/terms" rel="noreferrer">Discord's Terms of Service</a>, which
apply to everything the bot does on Discord.</p>

<h2 id="play">Playing</h2>
<ul>
<li>The bot deals, checks and scores every move by the rules it explains in
<code>/cribbage rules</code>; its count is the game's. Each deal's shuffle is sealed before the
deal and can be checked afterwards (<code>/cribbage verify</code>).</li>
<li>Play your own hand. Do not use another account to play against yourself, or automate play
to raise a rating: such results may be removed.</li>
<li>A server's moderators may cancel games and tournaments in their server; a cancelled game
records no result.</li>
<li>A game nobody moves in for {_days(facts.idle_expiry)} is ended without a result.</li>
<li>Ratings, records and titles are for fun: they carry no prize or value from the bot.</li>
</ul>

<h2 id="servers">In a server</h2>
<p>Whoever adds the bot to a server chooses where it may post. The bot only answers its own
commands and buttons; it reads no messages. Removing it is always allowed: what it keeps for the
server is deleted {_days(facts.grace)} later (see the <a href="/privacy">privacy policy</a>).</p>

<h2 id="service">The service</h2>
<p>The bot is offered as it is, free, without a promise that it is always available or free of
mistakes. The operator may change it, pause it, leave a server or stop running it, and may stop
anyone from using it who breaks these terms or Discord's. The operator is not liable for a lost
game, a rating, or anything that follows from using the bot, as far as the law allows.</p>

<h2 id="changes">Changes</h2>
<p>These terms and the privacy policy are served by the bot itself: the version here is the one
in force. What changes in them is said where the bot is announced.</p>

<h2 id="contact">Contact</h2>
{_contact(facts)}
"""
    return document("Terms of service · Cribbage bot", body)
