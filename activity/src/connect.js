// Who this page belongs to, and the line to the bot's server.
//
// Discord's flow (docs/activity.md): the SDK's handshake with the Discord client (ready), its
// `authorize` command (an OAuth2 code for the `identify` scope, and `rpc.activities.write` for
// the person's status to show the game, without asking the person again once they allowed it:
// prompt "none"), the code sent to the bot's server (api/token), which exchanges it with
// Discord and answers the person's bearer token and a session, then the SDK's `authenticate`
// with that token. A person who refuses the status's scope is asked for `identify` alone (and
// not asked again on this device until they choose to: `allowStatus`). Every call to the
// server after that shows the session; a refused session (401, or the live socket closed with
// 4001) runs the flow again.
import { DiscordSDK } from "@discord/embedded-app-sdk";

export class NotInDiscord extends Error {}

// The scope the status needs, and the OAuth2 error code of a refused authorization (the
// person cancelled Discord's dialog).
export const STATUS_SCOPE = "rpc.activities.write";
const OAUTH2_ERROR = 5000;
const DECLINED = "cribbage.status-declined";

function remembered() {
  try { return window.localStorage.getItem(DECLINED) === "1"; } catch (error) { return false; }
}

function remember(declined) {
  try {
    if (declined) { window.localStorage.setItem(DECLINED, "1"); }
    else { window.localStorage.removeItem(DECLINED); }
  } catch (error) { /* storage off: asked again next time */ }
}

export class Connection {
  constructor(onState, onStatus) {
    this.onState = onState;
    this.onStatus = onStatus;
    this.session = null;
    this.socket = null;
    this.retry = 0;
    this.stopped = false;
    const clientId = document.body.getAttribute("data-client-id") || "";
    try {
      this.sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
    } catch (error) {
      // The SDK reads frame_id, instance_id and platform from the address Discord gives.
      throw new NotInDiscord(String(error && error.message));
    }
    this.clientId = clientId;
    // The scopes Discord says the person granted (authenticate's answer).
    this.scopes = [];
  }

  // The SDK's handshake, then who this is.
  async start() {
    await this.sdk.ready();
    await this.signIn();
    this.live();
  }

  authorize(scope) {
    return this.sdk.commands.authorize({
      client_id: this.clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: scope,
    });
  }

  // A code for the status's scope too, unless the person refused it (now or before): then
  // for `identify` alone, as the table needs no more.
  async code() {
    if (!remembered()) {
      try {
        return (await this.authorize(["identify", STATUS_SCOPE])).code;
      } catch (error) {
        if (!error || error.code !== OAUTH2_ERROR) { throw error; }
        remember(true);
      }
    }
    return (await this.authorize(["identify"])).code;
  }

  // The person chose to let their status show the game after all: asked again.
  async allowStatus() {
    remember(false);
    await this.signIn();
  }

  async signIn() {
    this.onStatus("Checking who you are…");
    const code = await this.code();
    const response = await fetch("api/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code, instance_id: this.sdk.instanceId }),
    });
    const answer = await response.json();
    if (!response.ok) {
      throw new Error(answer.said || "The table could not tell who you are.");
    }
    this.session = answer.session;
    const authenticated = await this.sdk.commands.authenticate({ access_token: answer.access_token });
    this.scopes = (authenticated && authenticated.scopes) || [];
  }

  // The game, live: each look the server sends replaces the last.
  live() {
    if (this.stopped) { return; }
    const url = new URL("api/live", location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url.href);
    this.socket = socket;
    socket.addEventListener("open", () => {
      socket.send(JSON.stringify({ session: this.session }));
    });
    socket.addEventListener("message", (event) => {
      let message = null;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message && message.type === "state") {
        this.retry = 0;
        this.onStatus("");
        this.onState(message.state);
      }
    });
    socket.addEventListener("close", (event) => {
      if (this.stopped || this.socket !== socket) { return; }
      this.onStatus("Connection lost: reconnecting…");
      const wait = Math.min(10000, 400 * Math.pow(2, this.retry++));
      setTimeout(() => {
        if (event.code === 4001) {
          this.signIn().then(() => this.live(), () => setTimeout(() => this.live(), wait));
        } else {
          this.live();
        }
      }, wait);
    });
  }

  // A call on the server with the session; a refused session signs in again once.
  async call(path, body, again = true) {
    const response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: Object.assign(
        { Authorization: "Bearer " + this.session },
        body === undefined ? {} : { "Content-Type": "application/json" }
      ),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && again) {
      await this.signIn();
      return this.call(path, body, false);
    }
    let answer = {};
    try { answer = await response.json(); } catch (error) { answer = {}; }
    if (!response.ok && !answer.said) {
      answer.said = "The table didn't answer: try again.";
    }
    return answer;
  }
}
