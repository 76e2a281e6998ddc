// The cribbage table inside Discord: the page an Activity shows. It signs in through the
// Embedded App SDK (connect.js), follows the channel's game live from the bot's server, and
// sends the person's moves there; the bot applies them as it applies a click in the chat.
import { Board } from "./board.js";
import { Connection, NotInDiscord } from "./connect.js";
import { h } from "./dom.js";
import * as draw from "./render.js";
import { Together } from "./together.js";

const app = document.getElementById("app");
const ui = {
  state: null,
  chosen: new Set(),
  busy: false,
  review: null,
  // The last hint asked for: shown while the game is at the moment it was asked at.
  hint: null,
  // What Discord does around the table (together.js); the status, invites and the people
  // here, when Discord lets the table have them.
  together: { people: [], can: () => false, missingLine: () => "", missing: {} },
  form: { players: 2, variant: "standard", target: 121, scoring: "lurch", counting: "auto", vs_computer: false, difficulty: "hard", hints: false },
};
const board = new Board();
const heading = h("h1", { text: "Cribbage" });
const status = h("p", { class: "status", role: "status", "aria-live": "polite" });
const heard = h("p", { class: "sr-only", "aria-live": "polite" });
const said = h("p", { class: "said-toast", role: "alert", hidden: true });
const missing = h("p", { class: "missing", "data-key": "missing", hidden: true });
const body = h("div", { class: "body" });
const boardWrap = h("div", { class: "board-wrap" }, board.element);
app.replaceChildren(h("header", {}, heading, status), said, missing, boardWrap, body, heard);
let connection = null;
let lastCaption = "";

function setStatus(text) { status.textContent = text; }

// What the bot or Discord said: as text, or as the HTML the server escaped (`html`: the
// bot's markdown, "press **Join**").
function say(text, ok, html) {
  if (!text) { said.hidden = true; return; }
  if (html) { said.innerHTML = html; } else { said.textContent = text; }
  said.className = "said-toast" + (ok ? "" : " refused");
  said.hidden = false;
}

// The one line that says what Discord does not let the table do here, with the way to allow
// the status where the person refused it.
function showMissing() {
  const line = ui.together.missingLine();
  missing.hidden = !line;
  if (!line) { return; }
  const allow = ui.together.missing.status === "refused"
    ? h("button", { type: "button", class: "link", "data-key": "allow-status", onclick: () => allowStatus(), text: "Show the game in my status" })
    : null;
  missing.replaceChildren(...[h("span", { text: allow ? line + " " : line }), allow].filter(Boolean));
}

async function allowStatus() {
  try {
    await connection.allowStatus();
    await ui.together.start(connection.scopes);
  } catch (error) {
    say("Discord didn't let the table show the game in your status.", false);
  }
}

// Apply a look of the game: a newer one, or another game's.
function take(state) {
  const old = ui.state;
  if (old && old.game === state.game && state.version < old.version) { return; }
  if (!old || old.game !== state.game || old.deal !== state.deal || !state.act || state.act.kind !== "discard") {
    ui.chosen.clear();
  }
  if (!old || old.game !== state.game) { ui.review = null; }
  ui.state = state;
  // The person's Discord status follows the game (cleared when none is open here).
  if (ui.together.show) { ui.together.show(state.presence); }
  redraw();
}

function redraw() {
  showMissing();
  const state = ui.state;
  if (!state) { return; }
  const focused = document.activeElement && document.activeElement.getAttribute("data-key");
  heading.textContent = draw.title(state);
  document.title = draw.title(state);
  const waiting = draw.waitingLine(state);
  app.setAttribute("data-version", String(state.version));
  app.setAttribute("data-game", String(state.game || ""));
  app.setAttribute("data-status", state.status);
  boardWrap.hidden = !state.sides;
  if (state.sides) { board.show(state); }
  // The table first, then what was said (beside it on a wide window), the hand last: on a
  // phone it stays at the bottom of the screen.
  const side = [draw.extras(state), draw.show(state), draw.calls(state)].filter(Boolean);
  body.replaceChildren(...[
    draw.kind(state),
    state.seats ? draw.seats(state) : null,
    draw.watching(state, ui),
    waiting ? h("p", { class: "waiting-line", text: waiting }) : null,
    draw.caption(state),
    draw.table(state),
    draw.lobby(state, ui, actions),
    draw.result(state, ui, actions),
    draw.newGame(state, ui, actions),
    side.length ? h("div", { class: "side" }, side) : null,
    draw.hand(state, ui, actions),
  ].flat().filter(Boolean));
  // The newest call in sight.
  const calls = body.querySelector(".calls ol");
  if (calls) { calls.scrollTop = calls.scrollHeight; }
  if (state.caption && state.caption !== lastCaption) { heard.textContent = state.caption; }
  lastCaption = state.caption || "";
  if (focused) {
    const again = body.querySelector('[data-key="' + focused + '"]');
    if (again && !again.disabled) { again.focus(); }
  }
}

// A move or a lobby action, on the game shown: the answer's look is taken at once (the live
// socket brings it too), and what the bot said is shown.
async function send(path, payload) {
  if (ui.busy) { return; }
  ui.busy = true;
  redraw();
  try {
    const answer = await connection.call(path, payload);
    if (answer.state) { take(answer.state); }
    if (answer.hint && answer.state) {
      // A hint is shown under the hand, for the moment it was asked at.
      ui.hint = { game: answer.state.game, version: answer.state.version, said: answer.said };
      say("", true);
    } else {
      say(answer.ok ? "" : answer.said, answer.ok, answer.said_html);
    }
  } catch (error) {
    say("The move didn't reach the table: try again.", false);
  } finally {
    ui.busy = false;
    redraw();
  }
}

function act(action, values) {
  const state = ui.state;
  const stamp = state.act ? state.act.stamp : state.version;
  return send("api/act", { action: action, game: state.game, stamp: stamp, values: values || [] });
}

const actions = {
  redraw: redraw,
  toggle(code, pick) {
    if (ui.chosen.has(code)) { ui.chosen.delete(code); }
    else if (ui.chosen.size < pick) { ui.chosen.add(code); }
    redraw();
  },
  // Dragging a card onto the crib chooses it, as a tap does.
  draggable(button, code, pick) {
    let start = null;
    button.addEventListener("pointerdown", (event) => {
      start = { x: event.clientX, y: event.clientY, moved: false };
      button.setPointerCapture(event.pointerId);
    });
    button.addEventListener("pointermove", (event) => {
      if (!start) { return; }
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (!start.moved && Math.hypot(dx, dy) < 10) { return; }
      start.moved = true;
      button.classList.add("dragging");
      button.style.transform = "translate(" + dx + "px," + dy + "px)";
    });
    const end = (event) => {
      if (!start) { return; }
      const moved = start.moved;
      start = null;
      button.classList.remove("dragging");
      button.style.transform = "";
      if (!moved) { return; }
      event.preventDefault();
      const crib = document.getElementById("crib-zone");
      const box = crib && crib.getBoundingClientRect();
      const over = box && event.clientX >= box.left && event.clientX <= box.right &&
        event.clientY >= box.top && event.clientY <= box.bottom;
      if (over && !ui.chosen.has(code) && ui.chosen.size < pick) { ui.chosen.add(code); }
      button.dataset.dragged = "1";
      redraw();
    };
    button.addEventListener("pointerup", end);
    button.addEventListener("pointercancel", end);
    // A drag is not a tap: its click is not a choice.
    button.addEventListener("click", (event) => {
      if (button.dataset.dragged) { delete button.dataset.dragged; event.stopImmediatePropagation(); }
    }, true);
  },
  discard() { return act("discard", [...ui.chosen]); },
  play(code) { return act("play", [code]); },
  count(points) { return act("count", [String(points)]); },
  muggins() { return act("muggins"); },
  hint() { return act("hint"); },
  pass() { return act("pass"); },
  lobby(action) { return send("api/act", { action: action, game: ui.state.game }); },
  open() { return send("api/new", Object.assign({}, ui.form)); },
  // Deal everyone in: the ids of the people Discord lists at the table (the server seats
  // only those Discord confirms).
  everyone() {
    return send("api/act", { action: "everyone", game: ui.state.game, values: peopleHere() });
  },
  everyoneNew(asked) { return send("api/new", Object.assign({}, asked, { everyone: peopleHere() })); },
  async invite() {
    const told = await ui.together.invite();
    if (told) { say(told, false); }
  },
  async share() {
    const told = await ui.together.share(ui.state.result.share);
    say(told, true);
  },
  async review() {
    ui.busy = true;
    redraw();
    try {
      const answer = await connection.call("api/review");
      if (answer.ok) { ui.review = answer.html; } else { say(answer.said, false); }
    } finally {
      ui.busy = false;
      redraw();
    }
  },
};

function peopleHere() {
  return ui.together.people.filter((p) => !p.bot).map((p) => p.id);
}

async function main() {
  try {
    connection = new Connection(take, setStatus);
    ui.together = new Together(connection.sdk, redraw);
  } catch (error) {
    if (error instanceof NotInDiscord) {
      setStatus("");
      body.replaceChildren(h("p", { class: "hint", text: "This is the cribbage table that opens inside Discord: open it with a table's Play at the table button, or from the App Launcher." }));
      return;
    }
    throw error;
  }
  setStatus("Connecting to Discord…");
  try {
    await connection.start();
    await ui.together.start(connection.scopes);
  } catch (error) {
    setStatus("");
    say((error && error.message) || "The table could not open: close it and open it again.", false);
  }
}

main();
