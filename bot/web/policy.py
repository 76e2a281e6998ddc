"""The privacy policy and the terms of service, written for this bot and served by the game
pages' server at ``/privacy`` and ``/terms`` (Discord asks a verified app to link both from its
developer portal page: *General Information*, *Privacy Policy URL* and *Terms of Service URL*).

What the policy says is kept, why, for how long, who else sees it and what a deletion does is
drawn from the one inventory of what is kept about a person
(:mod:`bot.core.privacy.inventory`, which ``/cribbage privacy``, the file it sends and the
deletion draw on too), handed to the pages with this bot's own figures by the composition root
(:func:`bot.assembly.policy_facts`); the contact is ``PRIVACY_CONTACT``. So what the pages
promise is what the bot does.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bot.web.pages import document, markdown_line

__all__ = ["PolicyFacts", "privacy_page", "terms_page"]


@dataclass(frozen=True, slots=True)
class PolicyFacts:
    """What the pages state about this bot."""

    #: How long a game nobody moves in lasts, in words ("7 days").
    idle_expiry: str
    #: How long a server's data outlives the bot's removal from it, in words.
    grace: str
    #: Each thing kept about a person, a line of Discord markdown each: what it is, what it
    #: holds, who else sees it, why and how long (the inventory's ``policy_lines``).
    kept: tuple[str, ...]
    #: Who sees what beyond a person and the players of their games, a sentence each.
    public: tuple[str, ...]
    #: What *Delete my data* does, once confirmed (the inventory's ``deletion``).
    deletion: str
    #: How people reach whoever runs the bot (an e-mail address, an invite), if set.
    contact: str | None = None


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
    kept = "\n".join(f"<li>{markdown_line(line)}</li>" for line in facts.kept)
    public = " ".join(markdown_line(line) for line in facts.public)
    body = f"""
<h1>Privacy policy</h1>
<p>This policy covers the cribbage bot for Discord served from this address (“the bot”): what
it keeps about the people who play with it, why, for how long, and how to get a copy of it or
have it deleted. It is run by the operator named under <a href="#contact">Contact</a>.</p>

<h2 id="kept">What the bot keeps, why, and for how long</h2>
<p>With your Discord user id, and the name you play under:</p>
<ul>
{kept}
</ul>
<p>For each server, the bot also keeps the channels games were played in, its own messages
there (their ids, to edit them), and the server's secret for the discard of the day.</p>
<p>The bot does not read your messages (it asks Discord for none), keeps no list of a server's
members, and keeps nothing about people who never used it. The game pages set no cookies and
keep no log of who visits them. The table inside Discord (the Activity) asks Discord who you are
(the <code>identify</code> permission: your id and name), only to seat you at your own hand.
Nothing is used for advertising, sold, or given to anyone.</p>

<h2 id="how-long">Games and servers</h2>
<ul>
<li>A game nobody moves in for {facts.idle_expiry} is ended.</li>
<li>When the bot is removed from a server, everything kept for that server is deleted
{facts.grace} later, unless the bot is invited back by then.</li>
<li>Backups the operator makes hold what the bot held when they were made, and are kept by the
operator as their own practice says.</li>
</ul>

<h2 id="yours">Your data, on request</h2>
<p>Type <code>/cribbage privacy</code> anywhere the bot's commands work. It says what is kept,
and has two buttons: <strong>Send me my data</strong> sends you, and you alone, a file of
everything kept about you; <strong>Delete my data</strong>, once you confirm, ends what you are
playing first (a game you are playing is resigned, a ranked match left), then:
{markdown_line(facts.deletion)} The games you played stay whole for your opponents (they are
their games too), with your Discord id removed from them.</p>

<h2 id="shared">Who else sees it</h2>
<p>Discord, which carries every message the bot sends (its own privacy policy applies there);
the players and spectators of your games, who see the table as Discord shows it; and the
hosting provider the operator runs the bot on, which stores the database. {public}</p>

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
<li>A game nobody moves in for {facts.idle_expiry} is ended without a result.</li>
<li>Ratings, records and titles are for fun: they carry no prize or value from the bot.</li>
</ul>

<h2 id="servers">In a server</h2>
<p>Whoever adds the bot to a server chooses where it may post. The bot only answers its own
commands and buttons; it reads no messages. Removing it is always allowed: what it keeps for the
server is deleted {facts.grace} later (see the <a href="/privacy">privacy policy</a>).</p>

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
