"""The Embedded App SDK's commands the stand-in client answers beyond the sign-in, as Discord's
docs and the SDK's source (2.5.0) say the client does: the rich presence (``SET_ACTIVITY``),
the invite dialog (``OPEN_INVITE_DIALOG``), sharing the Activity's link (``SHARE_LINK``), and
who is connected to the instance (``GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS`` and its
event, ``ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE``). Each behaviour and its source is in the
README ("Activities").

A command is answered ``{"data": ...}``, or refused ``{"error": {"code", "message"}}`` with an
RPC error code (the SDK's ``RPCErrorCodes``), or, for presence updates past Discord's rate,
``{"close": {"code": 4002, ...}}`` (the RPC close code RATELIMITED): the page the client
hosts is then answered no more.

Each answer taken also carries ``shown``: what the Discord client would show the person (their
status as their profile reads it, the invite dialog it opens, the link it shares), which the
stand-in client shows under the Activity when asked to (:attr:`ActivityHost.shows_discord
<fakediscord.activity_client.ActivityHost.shows_discord>`, the playground's) and never hands to
the Activity.

What the people did is kept for the tests: :attr:`ActivityCommands.presences` (each person's
presence as the app last set it; cleared when they leave the Activity), every update in order
(:attr:`ActivityCommands.presence_log`), the invite dialogs opened, the links shared (and
where: :meth:`ActivityCommands.will_share` says what a person does in the share dialog).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fakediscord.model import CREATE_INSTANT_INVITE, Channel, User

if TYPE_CHECKING:
    from fakediscord.activities import Access, Instance
    from fakediscord.server import FakeDiscord

__all__ = [
    "INVALID_CHANNEL",
    "INVALID_COMMAND",
    "INVALID_EVENT",
    "INVALID_PAYLOAD",
    "INVALID_PERMISSIONS",
    "PARTICIPANTS_UPDATE",
    "PRESENCE_UPDATES",
    "PRESENCE_WINDOW",
    "RATELIMITED",
    "ActivityCommands",
    "Share",
]

#: RPC error codes (the SDK's ``RPCErrorCodes``; Discord's "RPC Error Codes").
INVALID_PAYLOAD, INVALID_COMMAND, INVALID_EVENT = 4000, 4002, 4004
INVALID_CHANNEL, INVALID_PERMISSIONS = 4005, 4006
#: The RPC close code for a client sending too fast (the SDK's ``RPCCloseCodes``).
RATELIMITED = 4002
#: Rich presence updates a person's client takes in a window of seconds (the Game SDK's
#: UpdateActivity: "a rate limit of 5 updates per 20 seconds").
PRESENCE_UPDATES, PRESENCE_WINDOW = 5, 20.0
#: The longest text of a presence (the Game SDK's ``char[128]`` fields).
TEXT_MOST = 128
#: The activity types SET_ACTIVITY takes: Playing, Listening, Watching, Competing.
PRESENCE_TYPES = (0, 2, 3, 5)
#: The fields of the partial activity the SDK's ``setActivity`` sends (its ``SetActivity``).
PRESENCE_FIELDS = frozenset(
    {
        "state",
        "state_url",
        "details",
        "details_url",
        "timestamps",
        "assets",
        "party",
        "secrets",
        "instance",
        "type",
    }
)
#: The longest ``message``, ``custom_id`` and ``link_id`` of SHARE_LINK (the SDK's schema).
SHARE_MESSAGE_MOST, SHARE_ID_MOST = 1000, 64
#: The event of the people connected to the instance.
PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"

_NOT_AUTHENTICATED = "Not authenticated or invalid scope"


def _error(code: int, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


@dataclass(frozen=True, slots=True)
class Share:
    """A link a person shared from the Activity (``SHARE_LINK``): the message sent with it,
    its ``custom_id`` and ``link_id``, the Activity's link it sends, and what they did in the
    dialog (``sent``, ``copied`` or ``cancelled``)."""

    user: User
    instance: Instance
    message: str
    custom_id: str | None
    link_id: str | None
    link: str
    outcome: str


def _text(value: Any) -> bool:
    return value is None or (isinstance(value, str) and len(value) <= TEXT_MOST)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def presence_refusal(activity: Any) -> str | None:
    """Why Discord would refuse ``activity`` as a presence (None: it takes it); ``None``
    itself clears the presence."""
    if activity is None:
        return None
    if not isinstance(activity, dict):
        return "activity must be an object or null"
    unknown = set(activity) - PRESENCE_FIELDS
    if unknown:
        return f"unknown activity fields: {', '.join(sorted(unknown))}"
    if activity.get("type", 0) not in PRESENCE_TYPES:
        return "activity type must be Playing, Listening, Watching or Competing"
    if not all(_text(activity.get(name)) for name in ("state", "details")):
        return f"state and details are text of at most {TEXT_MOST} characters"
    party = activity.get("party")
    if party is not None:
        size = party.get("size") if isinstance(party, dict) else None
        if not isinstance(party, dict) or not _text(party.get("id")):
            return "party is an object with a text id"
        if size is not None and (
            not isinstance(size, list)
            or len(size) != 2
            or not all(_whole(n) for n in size)
            or size[0] > size[1]
        ):
            return "party.size is [current, max]"
    times = activity.get("timestamps")
    if times is not None and (
        not isinstance(times, dict)
        or set(times) - {"start", "end"}
        or not all(_whole(t) for t in times.values())
    ):
        return "timestamps are start and end, in milliseconds"
    return None


class ActivityCommands:
    """The commands of the people's stand-in clients, and what they did with them."""

    def __init__(self, fd: FakeDiscord) -> None:
        self._fd = fd
        #: Each person's presence as the app last set it (None: cleared, or none).
        self.presences: dict[int, dict[str, Any] | None] = {}
        #: Every presence update taken, in order (the person, the activity or None).
        self.presence_log: list[tuple[User, dict[str, Any] | None]] = []
        #: The people whose client was sent presence updates faster than Discord takes them.
        self.rate_limited: list[User] = []
        #: The invite dialogs opened (the person, the instance).
        self.invites: list[tuple[User, Instance]] = []
        #: The links shared (see :class:`Share`).
        self.shares: list[Share] = []
        self._updates: dict[int, list[float]] = {}
        self._outcomes: dict[int, str] = {}

    def presence(self, user: User) -> dict[str, Any] | None:
        """``user``'s presence as the app set it (None: none, or cleared)."""
        return self.presences.get(user.id)

    def will_share(self, user: User, outcome: str) -> None:
        """What ``user`` does in the share dialog from now on: ``send`` (the link goes to a
        channel or a DM they choose; the default), ``copy`` (they copy it), ``cancel``."""
        if outcome not in ("send", "copy", "cancel"):
            raise ValueError("send, copy or cancel")
        self._outcomes[user.id] = outcome

    def left(self, user: User) -> None:
        """``user`` closed the Activity: the presence it set goes with it."""
        if self.presences.get(user.id) is not None:
            self.presences[user.id] = None

    def participants(self, instance: Instance) -> list[dict[str, Any]]:
        """The people connected to ``instance``, as the SDK's participants are written."""
        people = []
        for user in instance.users:
            member = instance.channel.guild.member(user) if instance.channel.guild else None
            person: dict[str, Any] = {
                "id": str(user.id),
                "username": user.name,
                "global_name": user.name,
                "discriminator": "0",
                "avatar": None,
                "flags": 0,
                "bot": user.bot,
                "avatar_decoration_data": None,
                "premium_type": 0,
            }
            if member is not None and member.nick:
                person["nickname"] = member.nick
            people.append(person)
        return people

    def answer(
        self,
        user: User,
        instance: Instance,
        cmd: str,
        args: Any,
        access: Access | None,
    ) -> dict[str, Any]:
        """``user``'s client's answer to ``cmd`` with ``args``, authenticated with ``access``
        (None: not authenticated)."""
        if access is None or access.user is not user:
            return _error(INVALID_PERMISSIONS, _NOT_AUTHENTICATED)
        args = {} if args is None else args
        if not isinstance(args, dict):
            return _error(INVALID_PAYLOAD, "Invalid payload")
        if cmd == "SET_ACTIVITY":
            return self._set_activity(user, args, access)
        if cmd == "OPEN_INVITE_DIALOG":
            return self._invite(user, instance)
        if cmd == "SHARE_LINK":
            return self._share(user, instance, args)
        if cmd == "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS":
            return {"data": {"participants": self.participants(instance)}}
        if cmd == "SUBSCRIBE" and args.get("evt") == PARTICIPANTS_UPDATE:
            return {"data": {"evt": PARTICIPANTS_UPDATE}}
        return _error(INVALID_COMMAND, f"Invalid command: {cmd}")

    def _set_activity(self, user: User, args: dict[str, Any], access: Access) -> dict[str, Any]:
        if "rpc.activities.write" not in access.scopes:
            return _error(INVALID_PERMISSIONS, _NOT_AUTHENTICATED)
        if "activity" not in args:
            return _error(INVALID_PAYLOAD, "activity is required")
        activity = args["activity"]
        refused = presence_refusal(activity)
        if refused is not None:
            return _error(INVALID_PAYLOAD, refused)
        now = self._fd.clock.now()
        recent = [t for t in self._updates.get(user.id, []) if now - t < PRESENCE_WINDOW]
        if len(recent) >= PRESENCE_UPDATES:
            self.rate_limited.append(user)
            self._updates[user.id] = recent
            return {"close": {"code": RATELIMITED, "message": "Rate limited"}}
        self._updates[user.id] = [*recent, now]
        self.presences[user.id] = activity
        self.presence_log.append((user, activity))
        self._fd._notify()
        # The activity as the person now shows it (the SDK reads an Activity back: cleared,
        # the default one, the app's name alone).
        shown: dict[str, Any] = {"name": self._fd.bot_user.name, "type": 0, **(activity or {})}
        shown["application_id"] = str(self._fd.application_id)
        return {"data": shown, "shown": self._status_line(user, activity)}

    def _status_line(self, user: User, activity: dict[str, Any] | None) -> str:
        """``user``'s status as the Discord client shows it on their profile and in the member
        list: "Playing Cribbage", what it details, its state and its party ("(2 of 4)")."""
        app = self._fd.bot_user.name
        if activity is None:
            return f"{user.name}'s Discord status: {app}'s status cleared (no game shown)."
        verb = {0: "Playing", 2: "Listening to", 3: "Watching", 5: "Competing in"}
        said = [f"{verb.get(activity.get('type', 0), 'Playing')} {app}"]
        said += [str(activity[k]) for k in ("details", "state") if activity.get(k)]
        size = (activity.get("party") or {}).get("size")
        party = f" ({size[0]} of {size[1]})" if size else ""
        return f"{user.name}'s Discord status: {' · '.join(said)}{party}"

    def _invite(self, user: User, instance: Instance) -> dict[str, Any]:
        channel: Channel = instance.channel
        if channel.guild is None:
            return _error(INVALID_CHANNEL, "Invites are not available in DMs")
        if not channel.permissions_for(user) & CREATE_INSTANT_INVITE:
            return _error(INVALID_PERMISSIONS, "Missing permission: Create Invite")
        self.invites.append((user, instance))
        self._fd._notify()
        where = f"#{channel.name}" if not channel.is_voice else f"🔊 {channel.name}"
        shown = (
            f"Discord's invite dialog, opened for {user.name}: invite friends to {where} in"
            f" {channel.guild.name}, with a link that opens the Activity there."
        )
        return {"data": None, "shown": shown}

    def _share(self, user: User, instance: Instance, args: dict[str, Any]) -> dict[str, Any]:
        message = args.get("message")
        custom_id, link_id = args.get("custom_id"), args.get("link_id")
        if (
            set(args) - {"message", "custom_id", "link_id"}
            or not isinstance(message, str)
            or len(message) > SHARE_MESSAGE_MOST
            or not all(
                i is None or (isinstance(i, str) and len(i) <= SHARE_ID_MOST)
                for i in (custom_id, link_id)
            )
        ):
            return _error(INVALID_PAYLOAD, "Invalid payload")
        outcome = self._outcomes.get(user.id, "send")
        link = f"https://discord.com/activities/{self._fd.application_id}"
        if custom_id:
            link += f"?custom_id={custom_id}"
        done = {"send": "sent", "copy": "copied", "cancel": "cancelled"}[outcome]
        self.shares.append(Share(user, instance, message, custom_id, link_id, link, done))
        self._fd._notify()
        what = {
            "send": "sent to the chat they chose",
            "copy": "copied the link",
            "cancel": "closed it, sharing nothing",
        }[outcome]
        return {
            "data": {
                "success": outcome != "cancel",
                "didCopyLink": outcome == "copy",
                "didSendMessage": outcome == "send",
            },
            "shown": f"Discord's share dialog, {user.name} {what}: “{message}” {link}",
        }
