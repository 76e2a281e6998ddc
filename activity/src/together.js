// What Discord does around the table, through the Embedded App SDK (docs/activity.md, "Game
// night"): the person's status shows the game (setActivity), who has the table open
// (getInstanceConnectedParticipants and its update event), Discord's invite dialog
// (openInviteDialog) and its share dialog (shareLink). Each may be missing: the person did
// not allow their status to show it, the client lacks the command, or Discord offers it not
// here (an invite in a DM). The table works without any of them; what is missing is said in
// one line (`missingLine`).
import { STATUS_SCOPE } from "./connect.js";

// The RPC error codes that say why a command is refused (the SDK's RPCErrorCodes); any other
// (4002 invalid command, 4004 invalid event, ...) is a client that lacks it.
const INVALID_CHANNEL = 4005;
const INVALID_PERMISSIONS = 4006;

// Discord takes five presence updates in 20 seconds (the Game SDK's UpdateActivity); a second
// of slack, as the client counts them when they arrive.
const UPDATES = 5;
const WINDOW = 20000;
const SLACK = 1000;

// How each missing thing is said, by why it is missing.
const SAID = {
  status: {
    refused: "your Discord status showing the game (you didn't allow it)",
    client: "your Discord status showing the game (your Discord app can't)",
  },
  invite: {
    here: "Discord's invites (they are for a server's channels)",
    permission: "Discord's invites (you may not invite people to this channel)",
    client: "Discord's invites (your Discord app can't open them)",
  },
  share: { client: "sharing (your Discord app can't)" },
  people: { client: "who has the table open (your Discord app can't say)" },
};

function why(error) {
  const code = error && error.code;
  if (code === INVALID_CHANNEL) { return "here"; }
  if (code === INVALID_PERMISSIONS) { return "permission"; }
  return "client";
}

// The person's status: the newest look wanted is set, no more often than Discord takes it,
// and only when it changed (a new deal, a score, the party, the end).
class Presence {
  constructor(sdk, lost) {
    this.sdk = sdk;
    this.lost = lost;
    // Off until Discord says the person allowed it (Together.start).
    this.off = true;
    this.wanted = null;
    this.wantedKey = "null";
    this.sentKey = "null";
    this.times = [];
    this.timer = null;
    this.busy = false;
  }

  show(activity) {
    const key = JSON.stringify(activity || null);
    if (key === this.wantedKey) { return; }
    this.wanted = activity || null;
    this.wantedKey = key;
    this.pump();
  }

  pump() {
    if (this.off || this.busy || this.timer || this.wantedKey === this.sentKey) { return; }
    const now = Date.now();
    this.times = this.times.filter((t) => now - t < WINDOW + SLACK);
    if (this.times.length >= UPDATES) {
      const wait = this.times[0] + WINDOW + SLACK - now;
      this.timer = setTimeout(() => { this.timer = null; this.pump(); }, wait);
      return;
    }
    this.times.push(now);
    this.busy = true;
    const key = this.wantedKey;
    this.sdk.commands.setActivity({ activity: this.wanted }).then(
      () => { this.sentKey = key; },
      (error) => {
        this.off = true;
        this.lost(error && error.code === INVALID_PERMISSIONS ? "refused" : "client");
      }
    ).finally(() => { this.busy = false; this.pump(); });
  }
}

export class Together {
  constructor(sdk, onChange) {
    this.sdk = sdk;
    this.onChange = onChange;
    // The people who have the table open (the SDK's participants), and what is missing.
    this.people = [];
    this.missing = {};
    this.presence = new Presence(sdk, (reason) => this.lose("status", reason));
  }

  lose(what, reason) {
    if (this.missing[what] === reason) { return; }
    this.missing[what] = reason;
    this.onChange();
  }

  can(what) { return !this.missing[what]; }

  // Once signed in, with the scopes Discord granted.
  async start(scopes) {
    if (!scopes.includes(STATUS_SCOPE)) {
      this.presence.off = true;
      this.lose("status", "refused");
    } else if (this.presence.off && this.missing.status !== "client") {
      // (Allowed, now or since: signed in again with the scope.)
      delete this.missing.status;
      this.presence.off = false;
      this.presence.pump();
      this.onChange();
    }
    if (!this.sdk.guildId) { this.lose("invite", "here"); }
    if (this.started) { return; }
    this.started = true;
    try {
      await this.sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (data) => {
        this.people = data.participants;
        this.onChange();
      });
      const { participants } = await this.sdk.commands.getInstanceConnectedParticipants();
      this.people = participants;
      this.onChange();
    } catch (error) {
      this.lose("people", "client");
    }
  }

  show(presence) { this.presence.show(presence); }

  // Discord's invite dialog; what went wrong, in words ("" if it opened).
  async invite() {
    try {
      await this.sdk.commands.openInviteDialog();
      return "";
    } catch (error) {
      const reason = why(error);
      this.lose("invite", reason);
      return "Not available here: " + SAID.invite[reason] + ".";
    }
  }

  // Discord's share dialog with `message`; what became of it, in words.
  async share(message) {
    try {
      const shared = await this.sdk.commands.shareLink({ message: message });
      if (shared.didSendMessage) { return "Shared."; }
      return shared.didCopyLink ? "Link copied." : "";
    } catch (error) {
      this.lose("share", "client");
      return "Not available here: " + SAID.share.client + ".";
    }
  }

  // The one line that says what is not available here (empty: everything is).
  missingLine() {
    const said = Object.entries(this.missing).map(([what, reason]) => SAID[what][reason] || "");
    return said.length ? "Not available here: " + said.join("; ") + "." : "";
  }

  // A person's name as Discord shows it in this place.
  static nameOf(person) {
    return person.nickname || person.global_name || person.username;
  }
}
