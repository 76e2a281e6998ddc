"""The pages' HTML: the channel's markdown as HTML, names as typed (never as markup)."""

from __future__ import annotations

import html

from bot.core.base.text import escape
from bot.core.base.views import MessageView
from bot.web.pages import home_page, message_html, not_found_page


def test_markdown_becomes_emphasis_and_code() -> None:
    text = "**Deal 2** — Al deals\nA moderator can end it with `/cribbage cancel`."
    assert message_html(MessageView(text)) == (
        "<p><strong>Deal 2</strong> — Al deals</p>"
        "<p>A moderator can end it with <code>/cribbage cancel</code>.</p>"
    )


def test_a_name_is_shown_as_typed_never_as_markup() -> None:
    # The channel escapes markdown in names (escape()); the page shows them as typed, and
    # HTML in a name is text.
    name = r"\*\*Al\*\* <script>alert(1)</script> \_x\_"
    shown = message_html(MessageView(f"Seated: {name}"))
    assert "<script>" not in shown and "<strong>" not in shown
    assert "**Al** &lt;script&gt;alert(1)&lt;/script&gt; _x_" in shown


def test_every_name_the_channel_escapes_is_shown_as_typed() -> None:
    # What escape() protects in the channel's markdown (a list's marker, a link's colon), the
    # page reads back: "- Dash", not "\\- Dash".
    for name in ("- Dash", "1. One", "https://x.example", "**B**_u_~~s~~||x|| > # `c`", "<@1>"):
        shown = message_html(MessageView(f"{escape(name)} wins"))
        assert shown == f"<p>{html.escape(name, quote=False)} wins</p>", shown


def test_mentions_are_names_and_links_are_links() -> None:
    text = "<@42>, the table is waiting. Watch: <https://crib.example/g/1/abc>"
    shown = message_html(MessageView(text), {42: "Bea <b>"})
    assert shown.startswith("<p>@Bea &lt;b&gt;, the table")
    assert '<a href="https://crib.example/g/1/abc" rel="noreferrer">' in shown
    assert "@someone" in message_html(MessageView("<@7> left"))


def test_the_plain_pages_say_nothing_about_any_game() -> None:
    page = not_found_page("This link is not a game's page.")
    assert "<h1>Page not found</h1>" in page and "/g/" not in page
    assert 'name="viewport"' in page and "prefers-color-scheme: dark" in page
    assert "/g/" not in home_page()


def test_a_discord_timestamp_is_shown_in_utc_on_a_page() -> None:
    # Discord shows <t:…> in each reader's own time; a page says the time in UTC (a rematch's
    # lobby at the table inside Discord says until when a kept seat is kept).
    shown = message_html(MessageView("Kept until <t:1767269100:t>, then <t:1767269100:R>."))
    assert shown == (
        '<p>Kept until <time datetime="2026-01-01T12:05:00+00:00">12:05 UTC</time>, then'
        ' <time datetime="2026-01-01T12:05:00+00:00">01 Jan 2026, 12:05 UTC</time>.</p>'
    )
