"""`fd.counters`: what the bot asked of Discord, by kind, as tests and benchmarks read it."""

from __future__ import annotations

from fakediscord.counters import Counters
from fakediscord.testing import InProcessBot
from tests.helpers.emulator_world import TinyWorld


async def test_requests_messages_and_edits_are_counted_by_kind(
    table: TinyWorld, tiny: InProcessBot
) -> None:
    fd = table.fd
    fd.counters = Counters()  # from here on: what the bot logged in and synced is left out
    await fd.slash(table.al, table.general, "/tiny echo text:a")  # type 4, a channel message
    think = await fd.slash(table.al, table.general, "/tiny think")  # defer, edit, follow-up
    await think.wait_followups(1)
    await fd.slash(table.al, table.general, "/tiny dm")  # open the DM, post in it (bot token)
    await fd.click(table.al, fd.dms(table.al)[0], "tiny:plus")  # type 7: edits the DM
    post = await fd.slash(table.al, table.general, "/tiny post")  # post, edit and fetch
    # Its follow-up is /tiny post's last request (after its post, edit and fetch): each
    # command's requests are all in once its last effect is.
    await post.wait_followups(1)
    counted = fd.counters
    assert counted.callbacks == 5
    assert counted.webhooks == {"edit": 1, "followup": 2}
    assert counted.rest == {
        "POST /users/@me/channels": 1,
        "POST /channels/{id}/messages": 2,
        "PATCH /channels/{id}/messages/{id}": 1,
        "GET /channels/{id}/messages/{id}": 1,
    }
    assert counted.rest_total == 5
    # Ephemeral answers and follow-ups are not messages in the channel.
    assert counted.channel_messages == {table.general.id: 4}
    assert counted.dm_messages == {table.al.id: 1}
    assert counted.edits == {"webhook": 1, "callback": 1, "rest": 1}
    assert counted.rate_limited == {} and counted.invalid_requests == 0
    assert counted.as_dict()["rest_total"] == 5
