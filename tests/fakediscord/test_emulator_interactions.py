"""Slash commands, autocomplete, buttons, selects and modals delivered to the real client."""

from __future__ import annotations

import re

import aiohttp
import pytest

from fakediscord import BotFailure, EmulatorUsageError, payloads
from fakediscord.model import Message
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld
from tests.helpers.wire import call, refusal


@pytest.fixture
async def buttons(table: TinyWorld, tiny: InProcessBot) -> Message:
    """The tiny bot's message with buttons and a select, its answer to Al's /tiny buttons."""
    r = await table.fd.slash(table.al, table.general, "/tiny buttons")
    assert r.original is not None
    return r.original


async def test_slash_command_reply_is_seen_by_everyone_in_the_channel(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny echo text:hello times:2")
    assert r.response is not None and r.response.type == 4
    assert r.content == "hello hello"
    assert not r.ephemeral
    assert [m.content for m in table.fd.visible_to(table.bea, table.general)] == ["hello hello"]


async def test_ephemeral_reply_is_seen_only_by_the_user_who_asked(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny secret")
    assert r.ephemeral and r.content == "only you"
    assert [m.content for m in table.fd.visible_to(table.al, table.general)] == ["only you"]
    assert table.fd.visible_to(table.bea, table.general) == []


async def test_deferred_reply_is_edited_then_followed_up(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny think ephemeral:true")
    assert r.response is not None and r.response.type == 5
    # slash() returns once the deferred answer is made, as a person sees it.
    assert r.settled and r.content == "thought"
    await r.wait_followups(1)
    assert r.content == "thought" and r.ephemeral
    assert [m.content for m in r.followups] == ["and a follow-up"]
    assert r.followups[0].ephemeral
    assert table.fd.visible_to(table.bea, table.general) == []


async def test_original_response_get_edit_delete_and_followup(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny lifecycle")
    await r.wait_for(lambda i: i.followups and i.followups[0].deleted)
    assert r.original is not None and r.original.content == "v2"
    assert [v.content for v in r.original.history] == ["v1"]
    assert [m.content for m in table.fd.visible_to(table.bea, table.general)] == ["v2"]


async def test_typed_options_are_checked_like_the_discord_client(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    with pytest.raises(EmulatorUsageError, match="whole number"):
        await table.fd.slash(table.al, table.general, "/tiny echo text:hi times:two")
    with pytest.raises(EmulatorUsageError, match="Missing required"):
        await table.fd.slash(table.al, table.general, "/tiny echo times:2")
    with pytest.raises(EmulatorUsageError, match="not a synced command"):
        await table.fd.slash(table.al, table.general, "/nope")
    with pytest.raises(EmulatorUsageError, match="needs one of"):
        await table.fd.slash(table.al, table.general, "/tiny dance")


async def test_quoted_values_and_spaces(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, '/tiny echo text:"two words"')
    assert r.content == "two words"
    r = await table.fd.slash(table.al, table.general, "/tiny echo times:1 text:a b c")
    assert r.content == "a b c"


async def test_user_option_carries_resolved_user_and_member(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny poke who:@Bea")
    assert r.content == f"poked Bea ({table.bea.id})"
    r = await table.fd.slash(table.al, table.general, f"/tiny poke who:{table.bea.mention}")
    assert r.content == f"poked Bea ({table.bea.id})"


async def test_autocomplete_returns_the_bots_choices(table: TinyWorld, tiny: InProcessBot) -> None:
    choices = await table.fd.autocomplete(table.al, table.general, "/tiny pick card:5")
    assert [c["value"] for c in choices] == ["5H", "5D"]
    everything = await table.fd.autocomplete(table.al, table.general, "/tiny pick card:?")
    assert len(everything) == 4
    nothing_typed = await table.fd.autocomplete(table.al, table.general, "/tiny pick")
    assert len(nothing_typed) == 4


async def test_button_click_updates_the_message_and_keeps_history(
    table: TinyWorld, buttons: Message
) -> None:
    click = await table.fd.click(table.bea, buttons, "tiny:plus")
    assert click.response is not None and click.response.type == 7
    click = await table.fd.click(table.bea, buttons, label="+1")
    assert buttons.content == "count 2"
    assert [v.content for v in buttons.history] == ["count 0", "count 1"]
    # The second click's payload was a snapshot of the message as it was then.
    assert click.source_message is buttons


async def test_disabled_and_missing_buttons_cannot_be_clicked(
    table: TinyWorld, buttons: Message
) -> None:
    with pytest.raises(EmulatorUsageError, match="disabled"):
        await table.fd.click(table.al, buttons, "tiny:off")
    with pytest.raises(EmulatorUsageError, match="no component"):
        await table.fd.click(table.al, buttons, "tiny:nothing")


async def test_dynamic_item_button_reaches_its_handler(table: TinyWorld, buttons: Message) -> None:
    click = await table.fd.click(table.al, buttons, "tiny:dyn:7")
    assert click.content == "dyn 7 pressed"


async def test_select_sends_the_chosen_values(table: TinyWorld, buttons: Message) -> None:
    chosen = await table.fd.select(table.al, buttons, "tiny:pick", ["5H", "QS"])
    assert chosen.content == "picked 5H QS" and chosen.ephemeral
    with pytest.raises(EmulatorUsageError, match="not options"):
        await table.fd.select(table.al, buttons, "tiny:pick", ["KS"])
    with pytest.raises(EmulatorUsageError, match="between 1 and 2"):
        await table.fd.select(table.al, buttons, "tiny:pick", ["5H", "JD", "QS"])


async def test_modal_is_opened_and_submitted(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny ask")
    assert r.response is not None and r.response.type == 9
    assert r.modal is not None and r.modal["title"] == "Ask"
    submitted = await table.fd.submit_modal(table.al, r, {"answer": "forty-two"})
    assert submitted.content == "answered forty-two"


async def test_outsider_cannot_use_the_channel(table: TinyWorld, tiny: InProcessBot) -> None:
    with pytest.raises(EmulatorUsageError, match="cannot use"):
        await table.fd.slash(table.cy, table.general, "/tiny secret")


async def test_commands_in_a_thread(table: TinyWorld, tiny: InProcessBot) -> None:
    thread = table.general.add_thread("game")
    r = await table.fd.slash(table.al, thread, "/tiny echo text:in-thread")
    assert r.content == "in-thread"
    assert table.fd.visible_to(table.bea, thread)[0].content == "in-thread"
    assert table.fd.visible_to(table.bea, table.general) == []


async def test_deferred_update_then_edit_of_the_clicked_message(
    table: TinyWorld, buttons: Message
) -> None:
    click = await table.fd.click(table.al, buttons, "tiny:quiet")
    assert click.response is not None and click.response.type == 6
    await table.fd.wait_for(lambda: buttons.history)
    assert buttons.content == "quietly edited" and click.original is buttons


async def test_a_clicks_original_is_unknown_until_it_is_answered_then_is_the_message_clicked(
    table: TinyWorld, buttons: Message, http: aiohttp.ClientSession
) -> None:
    # Discord: a click's answer edits the message clicked (UPDATE_MESSAGE), which is then the
    # interaction's original (DEFERRED_UPDATE_MESSAGE: "edit the original message later"); its
    # webhook is made by the answer: asked before, Unknown Webhook (pycord#1118).
    fd = table.fd
    fd.delay(r"^POST /interactions/\d+/[^/]+/callback$", 0.5)  # (the answer, on its way)
    click = await fd.click(table.bea, buttons, "tiny:plus", wait=False)
    original = f"/webhooks/{fd.application_id}/{click.token}/messages/@original"
    for method, body in (("GET", None), ("PATCH", {"content": "too soon"})):
        assert await refusal(http, method, original, body) == (404, 10015)
    await click.wait_for(lambda i: i.response is not None)
    status, edited = await call(http, "PATCH", original, {"content": "count 10"})
    assert status == 200 and edited["id"] == str(buttons.id)
    assert [v.content for v in buttons.history] == ["count 0", "count 1"]
    assert buttons.content == "count 10"


async def test_a_clicks_follow_up_names_the_click_and_the_message_clicked(
    table: TinyWorld, buttons: Message, http: aiohttp.ClientSession
) -> None:
    # Discord's message interaction metadata: a component's names the message it was on
    # (interacted_message_id); a follow-up, the interaction's original response (for a click
    # answered by updating its message: that message). A bot finds a lost follow-up by them.
    fd = table.fd
    click = await fd.click(table.bea, buttons, "tiny:plus")
    status, posted = await call(
        http, "POST", f"/webhooks/{fd.application_id}/{click.token}?wait=true", {"content": "+"}
    )
    assert status == 200
    metadata = posted["interaction_metadata"]
    assert metadata["id"] == str(click.id) and metadata["type"] == 3
    assert metadata["interacted_message_id"] == str(buttons.id)
    assert metadata["original_response_message_id"] == str(buttons.id)
    command = buttons.interaction_id is not None and payloads.message(buttons)
    assert command and "original_response_message_id" not in command["interaction_metadata"]
    assert command["interaction_metadata"]["type"] == 2


async def test_original_response_can_be_deleted(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny vanish")
    await r.wait_for(lambda i: i.original is not None and i.original.deleted)
    assert table.fd.visible_to(table.al, table.general) == []
    assert r.messages() == []


async def test_click_payload_is_a_snapshot_of_the_message_when_clicked(
    table: TinyWorld, buttons: Message
) -> None:
    await table.fd.click(table.al, buttons, "tiny:plus")
    await table.fd.click(table.al, buttons, "tiny:plus")
    session = table.fd.gateway.session
    assert session is not None
    clicks = [d for _, t, d in session.events if t == "INTERACTION_CREATE" and d["type"] == 3]
    assert [c["message"]["content"] for c in clicks] == ["count 0", "count 1"]


async def test_the_bot_opens_a_thread_and_posts_in_it(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny thread name:game one")
    assert r.content == "opened game one"
    [thread] = [c for c in table.guild.channels.values() if c.is_thread]
    assert [m.content for m in table.fd.visible_to(table.bea, thread)] == ["first in thread"]


async def test_guild_channels_and_members_over_rest(table: TinyWorld, tiny: InProcessBot) -> None:
    r = await table.fd.slash(table.al, table.general, "/tiny whois who:Bea")
    assert r.content == "TinyWorld general Bea"


async def test_commands_are_offered_only_where_and_to_whom_discord_would(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    mo = table.fd.add_user("Mo")
    table.guild.add_member(mo, moderator=True)
    with pytest.raises(EmulatorUsageError, match="permissions"):
        await table.fd.slash(table.al, table.general, "/tinymod")
    r = await table.fd.slash(mo, table.general, "/tinymod")
    assert r.content == "moderated"
    with pytest.raises(EmulatorUsageError, match="DMs"):
        await table.fd.slash(mo, table.fd.dm_channel(mo), "/tinymod")


@pytest.mark.parametrize(
    ("typed", "field"),
    [
        ("many", "data.choices: Must be 25 or fewer in length."),
        ("long", "data.choices.0.value: Must be 100 or fewer in length."),
        ("blank", "data.choices.0.name: Must be between 1 and 100 in length."),
    ],
)
async def test_autocomplete_choices_beyond_discords_limits_are_refused(
    table: TinyWorld, tiny: InProcessBot, typed: str, field: str
) -> None:
    fd = table.fd
    fd.allow_refusals()
    # The bot answers with what Discord refuses: its callback is a 400, which discord.py logs
    # (the user would see "Loading options failed"), and the wait for its answer ends there.
    with pytest.raises(BotFailure, match=re.escape(field)):
        await fd.autocomplete(table.al, table.general, f"/tiny pick card:{typed}")
    assert tiny.take_errors()
    [refused] = [r for r in fd.requests if r.template.endswith("/callback")]
    assert (refused.status, refused.code) == (400, 50035)
