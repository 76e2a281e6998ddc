// fakediscord's stand-in for the Discord client around an Activity: it hosts the Activity in
// an iframe and answers the Embedded App SDK's postMessage RPC as the SDK's own source
// (@discord/embedded-app-sdk, src/Discord.ts and src/schema) says the client does:
//
// - the SDK posts [HANDSHAKE (0), {v: 1, encoding: "json", client_id, frame_id}] to its parent;
//   the client checks them and answers with the frame [FRAME (1), {cmd: "DISPATCH", evt:
//   "READY", data: {v, config, user}}] (a wrong client id or frame closes: [CLOSE (2), {code,
//   message}] with RPC close code 4000, a wrong version 4004, an encoding not json 4005);
// - each command is [FRAME, {cmd, args, nonce}]; its answer is [FRAME, {cmd, evt: null, nonce,
//   data}], or [FRAME, {cmd, evt: "ERROR", nonce, data: {code, message}}] with an RPC error
//   code (4000 invalid payload, 4002 invalid command, 4004 invalid event, 4005 invalid
//   channel, 4006 not authenticated or invalid scope, 4007 invalid client id, 4009 invalid
//   token, 5000 OAuth2 error); the commands past the sign-in are answered by fakediscord
//   (activity_rpc.py), and a client sent presence updates too fast closes ([CLOSE, {code:
//   4002}], RATELIMITED) and answers no more;
// - an event the Activity subscribed to is [FRAME, {cmd: "DISPATCH", evt, nonce: null, data}];
// - the Activity asks to close with [CLOSE, {code, message}].
//
// Messages are taken only from the iframe's window and this origin, and sent to this origin.
(function () {
  "use strict";
  var HANDSHAKE = 0, FRAME = 1, CLOSE = 2;
  var config = JSON.parse(document.body.getAttribute("data-client"));
  var EVENTS = ["ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE"];
  var state = { commands: [], logs: [], ready: false, closed: null, token: null, subscribed: {}, events: null };
  window.fakediscord = state;
  var frame = document.createElement("iframe");
  frame.title = "Activity";
  frame.src = "/?" + config.query;
  document.body.appendChild(frame);

  // What the Discord client shows around the Activity, when asked to (the playground's):
  // the person's status line, and the dialog last opened (an invite, a link shared).
  var discord = null, statusLine = null, dialog = null;
  if (config.shows) {
    discord = document.createElement("div");
    discord.id = "discord";
    discord.setAttribute("aria-label", "Discord");
    statusLine = document.createElement("p");
    statusLine.id = "discord-status";
    statusLine.textContent = config.user.username + "'s Discord status: none set by the Activity yet.";
    discord.appendChild(statusLine);
    document.body.appendChild(discord);
  }
  function showDiscord(cmd, text) {
    if (!discord || !text) { return; }
    if (cmd === "SET_ACTIVITY") { statusLine.textContent = text; return; }
    if (dialog) { dialog.remove(); }
    dialog = document.createElement("div");
    dialog.className = "dialog";
    dialog.id = "discord-dialog";
    dialog.setAttribute("role", "dialog");
    var said = document.createElement("span");
    said.textContent = text;
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "Close";
    close.addEventListener("click", function () { dialog.remove(); dialog = null; });
    dialog.appendChild(said);
    dialog.appendChild(close);
    discord.appendChild(dialog);
  }

  function send(opcode, payload) {
    frame.contentWindow.postMessage([opcode, payload], location.origin);
  }
  function answer(cmd, nonce, data) {
    send(FRAME, { cmd: cmd, evt: null, nonce: nonce, data: data });
  }
  function refuse(cmd, nonce, code, message) {
    send(FRAME, { cmd: cmd, evt: "ERROR", nonce: nonce, data: { code: code, message: message } });
  }
  function ask(path, body) {
    body.session = config.session;
    return fetch("/.fakediscord/" + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    });
  }

  function handshake(payload) {
    if (payload.client_id !== config.client_id || payload.frame_id !== config.frame_id) {
      send(CLOSE, { code: 4000, message: "Invalid client ID" });
      return;
    }
    if (payload.v !== 1) {
      send(CLOSE, { code: 4004, message: "Invalid version" });
      return;
    }
    if (payload.encoding !== undefined && payload.encoding !== "json") {
      send(CLOSE, { code: 4005, message: "Invalid encoding" });
      return;
    }
    state.ready = true;
    send(FRAME, {
      cmd: "DISPATCH",
      evt: "READY",
      nonce: null,
      data: {
        v: 1,
        config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
        user: config.user
      }
    });
  }

  function command(payload) {
    var cmd = payload.cmd, nonce = payload.nonce, args = payload.args || {};
    state.commands.push(cmd);
    if (typeof nonce !== "string") { return; }
    switch (cmd) {
      case "AUTHORIZE":
        if (args.client_id !== config.client_id) {
          refuse(cmd, nonce, 4007, "Invalid client ID");
          return;
        }
        ask("authorize", { client_id: args.client_id, scope: args.scope || [] }).then(function (r) {
          var refused = r.data.refused;
          if (!refused) { answer(cmd, nonce, { code: r.data.code }); }
          else { refuse(cmd, nonce, 5000, refused.error_description || refused.error || "OAuth2 error"); }
        });
        return;
      case "AUTHENTICATE":
        if (typeof args.access_token !== "string") {
          refuse(cmd, nonce, 4000, "Invalid payload");
          return;
        }
        ask("authenticate", { access_token: args.access_token }).then(function (r) {
          if (r.ok) { state.token = args.access_token; answer(cmd, nonce, r.data); }
          else { refuse(cmd, nonce, 4009, "Invalid token"); }
        });
        return;
      case "SUBSCRIBE":
        if (EVENTS.indexOf(payload.evt) >= 0) {
          // An event of the instance's: the client asks for it (and may not have it).
          relay(cmd, nonce, { evt: payload.evt }, function () {
            state.subscribed[payload.evt] = true;
            listen();
          });
          return;
        }
        answer(cmd, nonce, { evt: payload.evt });
        return;
      case "UNSUBSCRIBE":
        delete state.subscribed[payload.evt];
        answer(cmd, nonce, { evt: payload.evt });
        return;
      case "CAPTURE_LOG":
        state.logs.push(args);
        answer(cmd, nonce, null);
        return;
      default:
        // Everything else is fakediscord's to answer (activity_rpc.py): the rich presence,
        // the invite dialog, sharing a link, the people connected; or refuse (4002).
        relay(cmd, nonce, args, null);
    }
  }

  // A command answered by fakediscord: its data, an RPC error, or the RPC connection closed
  // (rate limited): then nothing more is answered.
  function relay(cmd, nonce, args, then) {
    ask("command", { cmd: cmd, args: args, token: state.token }).then(function (r) {
      var reply = r.data;
      if (reply.close) {
        state.closed = reply.close;
        state.ready = false;
        send(CLOSE, reply.close);
      } else if (reply.error) {
        refuse(cmd, nonce, reply.error.code, reply.error.message);
      } else {
        if (then) { then(); }
        showDiscord(cmd, reply.shown);
        answer(cmd, nonce, reply.data);
      }
    });
  }

  // The instance's events, from fakediscord, dispatched to the Activity if it subscribed.
  function listen() {
    if (state.events) { return; }
    var url = new URL("/.fakediscord/events?session=" + encodeURIComponent(config.session), location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    state.events = new WebSocket(url.href);
    state.events.addEventListener("message", function (message) {
      var event = JSON.parse(message.data);
      if (state.ready && state.subscribed[event.evt]) {
        send(FRAME, { cmd: "DISPATCH", evt: event.evt, nonce: null, data: event.data });
      }
    });
  }

  window.addEventListener("message", function (event) {
    if (event.source !== frame.contentWindow || event.origin !== location.origin) { return; }
    if (!Array.isArray(event.data)) { return; }
    var opcode = event.data[0], payload = event.data[1] || {};
    if (opcode === HANDSHAKE) { handshake(payload); }
    else if (opcode === FRAME && state.ready) { command(payload); }
    else if (opcode === CLOSE) {
      state.closed = payload;
      ask("closed", { code: payload.code, message: payload.message || "" });
      frame.remove();
    }
  });
})();
