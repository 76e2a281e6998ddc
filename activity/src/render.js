// The table, drawn from one look of the game (the server's JSON for this person): the seats,
// the play, the show, the player's hand with what they may do now, the lobby, a new game's
// choices, the result and its review. Every control is a real button (keyboard and touch
// alike, nothing on hover only); every card has its name in words.
import { avatar, cardFace, cardRow, h } from "./dom.js";
import { Together } from "./together.js";

const PHASES = { discard: "The crib", play: "The play", show: "The show", over: "Game over" };

function seatName(state, seat) {
  const found = (state.seats || []).find((s) => s.seat === seat);
  return found ? found.name : "?";
}

export function title(state) {
  if (!state.game) { return "Cribbage"; }
  // Five or six names make a heading of three lines on a phone: the variant names the table
  // instead (the seats and the board name everyone).
  if ((state.seats || []).length > 4 && state.options) {
    const named = state.options.title + ", to " + state.options.target;
    return named + (state.status === "lobby" ? " — waiting to deal" : (state.deal ? " · deal " + state.deal : "") + (PHASES[state.phase] ? " · " + PHASES[state.phase] : ""));
  }
  if (state.status === "lobby") { return state.title + " — waiting to deal"; }
  const phase = PHASES[state.phase] || "";
  return state.title + (state.deal ? " · deal " + state.deal : "") + (phase ? " · " + phase : "");
}

// "Al", "Al and Bea", "Al, Bea and Cy".
function andList(names) {
  return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

// Whose move the table waits for, in words.
export function waitingLine(state) {
  if (state.status !== "active") { return ""; }
  const waiting = (state.seats || []).filter((s) => s.waiting);
  if (!waiting.length) { return ""; }
  if (waiting.some((s) => s.you)) {
    const others = waiting.filter((s) => !s.you).map((s) => s.name);
    return others.length ? "Your move (and " + andList(others) + "'s)." : "Your move.";
  }
  return "Waiting for " + andList(waiting.map((s) => s.name)) + ".";
}

export function seats(state) {
  const sides = state.sides || [];
  const many = (state.seats || []).length > 4 ? " many" : "";
  const teams = sides.length && sides.length < (state.seats || []).length;
  return h(
    "ul",
    { class: "seats" + many, "aria-label": "Players" },
    (state.seats || []).map((seat) => {
      const side = seat.side === undefined ? null : sides[seat.side];
      const badges = [];
      if (seat.dealer) { badges.push(h("span", { class: "badge", title: "Dealer", text: "Dealer" })); }
      if (seat.waiting) { badges.push(h("span", { class: "badge turn", text: seat.you ? "Your move" : "To move" })); }
      const held = seat.held === undefined ? null : h("span", { class: "held", text: seat.held + (seat.held === 1 ? " card" : " cards") });
      // Every seat wears its side's colour, the colour of its pegs on the board (a team's
      // seats alike).
      const colour = side
        ? h("span", { class: "team s" + seat.side, role: "img", title: side.name, "aria-label": teams ? "Team " + (seat.side + 1) + ": " + side.name : "Pegs of this colour on the board" })
        : null;
      return h(
        "li",
        { class: "seat" + (seat.waiting ? " waiting" : "") + (seat.you ? " you" : "") },
        h("span", { class: "pic" }, avatar(seat), colour),
        h("span", { class: "who" },
          h("span", { class: "name", text: seat.name + (seat.you ? " (you)" : "") }),
          h("span", { class: "meta" }, side ? h("span", { class: "score", text: side.score + (side.score === 1 ? " pt" : " pts") }) : null, held, badges)
        ),
        seat.played && seat.played.length ? cardRow(seat.played, "tiny") : null
      );
    })
  );
}

export function table(state) {
  if (!state.phase) { return null; }
  const parts = [];
  const starter = state.starter
    ? h("div", { class: "spot" }, h("span", { class: "label", text: "Starter" }), cardFace(state.starter))
    : h("div", { class: "spot" }, h("span", { class: "label", text: "Starter" }), h("span", { class: "card back", role: "img", "aria-label": "not cut yet" }));
  parts.push(starter);
  const crib = h("div", { class: "spot crib", id: "crib-zone" },
    h("span", { class: "label", text: seatName(state, state.crib.owner) + "'s crib" }),
    h("span", { class: "card back", role: "img", "aria-label": state.crib.size + " cards in the crib" }, h("span", { class: "count-badge", "aria-hidden": "true", text: String(state.crib.size) })));
  parts.push(crib);
  if (state.phase === "play") {
    parts.push(h("div", { class: "spot pile" },
      h("span", { class: "label", text: "Count " + state.count }),
      state.series.length ? cardRow(state.series) : h("span", { class: "empty", text: "Nothing played yet" })));
  }
  return h("section", { class: "felt", "aria-label": "The table" }, parts);
}

// What the table plays, as its lobby in the chat names it ("Six-hand cribbage, 6 players in
// two teams of three, to 121").
function kindLine(options) {
  return options.kind || (options.players + " players, to " + options.target);
}

// The variant, at the top of a dealt game's table, and the series the game continues (a
// rematch's, as the chat's tables say it; over, its result says it with the game).
export function kind(state) {
  if (!state.options || state.status === "lobby") { return null; }
  const series = state.series_line
    ? h("p", { class: "series", "data-key": "series-line", html: state.series_line })
    : null;
  return [h("p", { class: "kind", text: kindLine(state.options) }), series];
}

export function caption(state) {
  return state.caption ? h("p", { class: "caption", text: state.caption }) : null;
}

function scoreItems(hand) {
  if (!hand.items.length) { return null; }
  return h("ul", { class: "items" }, hand.items.map((item) =>
    h("li", {}, h("span", { text: item.kind + " " }), cardRow(item.cards, "tiny"), h("span", { class: "points", text: " " + item.points }))));
}

export function show(state) {
  const shown = state.show;
  if (!shown || !shown.hands.length) { return null; }
  const heading = shown.deal === state.deal ? "The show" : "The show of deal " + shown.deal;
  return h("section", { class: "show", "aria-label": heading },
    h("h2", { text: heading }),
    shown.hands.map((hand) => h("article", { class: "shown" },
      h("h3", { text: hand.whose }),
      h("div", { class: "shown-cards" }, cardRow(hand.cards), h("span", { class: "plus", text: "+" }), cardFace(hand.starter)),
      scoreItems(hand),
      h("p", { class: "said" },
        h("span", { text: hand.said + " — " + hand.points }),
        hand.claimed === null ? null : h("span", { class: hand.missed || hand.over ? "missed" : "", text: " · claimed " + hand.claimed + (hand.missed ? ", " + hand.missed + " missed" : "") + (hand.over ? ", " + hand.over + " over" : "") }))
    )));
}

export function extras(state) {
  const parts = [];
  if (state.counting) {
    const whose = seatName(state, state.counting.seat) + (state.counting.crib ? "'s crib" : "'s hand");
    // A count that waits for muggins on the claim before is said as the next, not as under way.
    const said = "Counting " + whose + (state.counting.waits ? " once muggins is settled: " : ": ");
    parts.push(h("p", { class: "note" }, h("span", { text: said }), cardRow(state.counting.cards, "tiny"), h("span", { text: " + starter" })));
  }
  if (state.muggins) {
    const whose = seatName(state, state.muggins.seat);
    const callers = (state.muggins.callers || []).map((seat) => seatName(state, seat));
    const who = callers.length ? andList(callers) : "an opponent";
    parts.push(h("p", { class: "note", text: whose + " claimed " + state.muggins.claimed + (state.muggins.crib ? " for the crib" : "") + ": " + who + " may call Muggins!" }));
  }
  if (state.coach) { parts.push(h("p", { class: "coach", text: state.coach })); }
  if (state.chances) {
    const said = state.sides.map((side, i) => side.name + ": " + state.chances[i]).join(" · ");
    parts.push(h("p", { class: "chances", text: "Chances to win — " + said }));
  }
  return parts.length ? h("section", { class: "extras" }, parts) : null;
}

export function calls(state) {
  if (!state.calls || !state.calls.length) { return null; }
  return h("details", { class: "calls", open: true },
    h("summary", { text: "The calls of deal " + state.deal }),
    h("ol", {}, state.calls.map((line) => h("li", { html: line }))));
}

// The player's hand, and what they may do with it now.
export function hand(state, ui, actions) {
  if (!state.hand) { return null; }
  const act = state.act || null;
  const discarding = act && act.kind === "discard";
  const playing = act && act.kind === "play";
  const cards = state.hand.map((card) => {
    const chosen = ui.chosen.has(card.code);
    let label = card.alt;
    let disabled = false;
    if (playing) {
      disabled = !card.playable;
      label = (card.playable ? "Play " : "Can't play ") + card.alt;
    } else if (discarding) {
      label = (chosen ? "Keep " : "Put in the crib: ") + card.alt;
    }
    const face = cardFace(card);
    const button = h("button", {
      type: "button",
      class: "card-button" + (chosen ? " chosen" : "") + (playing && card.playable ? " playable" : "") + (disabled ? " dim" : ""),
      "data-card": card.code,
      "data-key": "card-" + card.code,
      "aria-label": label,
      "aria-pressed": discarding ? String(chosen) : null,
      disabled: disabled || (!discarding && !playing) || ui.busy,
      onclick: () => {
        if (discarding) { actions.toggle(card.code, act.pick); }
        else if (playing) { actions.play(card.code); }
      },
    }, face);
    if (discarding && !ui.busy) { actions.draggable(button, card.code, act.pick); }
    return button;
  });
  const area = [h("div", { class: "hand", role: "group", "aria-label": "Your hand" }, cards)];
  if (!state.hand.length && state.kept && state.kept.length) {
    area.push(h("p", { class: "kept" }, h("span", { text: "You kept " }), cardRow(state.kept, "tiny")));
  }
  return h("section", { class: "hand-area", "aria-label": "Your hand" }, area, controls(state, ui, actions));
}

// Hint (where the table offers hints): the expert's choice in your place, said under your
// hand until the game moves on.
function hinting(state, ui, actions) {
  if (!state.act || !state.act.hint) { return []; }
  const shown = ui.hint && ui.hint.game === state.game && ui.hint.version === state.version;
  return [
    h("button", { type: "button", class: "hint-button", "data-key": "hint", disabled: ui.busy, onclick: () => actions.hint(), text: "💡 Hint" }),
    shown ? h("p", { class: "hint-line", "data-key": "hint-line", role: "status", text: ui.hint.said }) : null,
  ];
}

function controls(state, ui, actions) {
  const act = state.act;
  if (!act) { return null; }
  if (act.kind === "discard") {
    const left = act.pick - ui.chosen.size;
    const them = act.pick === 1 ? "Put it in the crib" : "Put them in the crib";
    const text = left > 0 ? "Choose " + left + " more for the crib (tap or drag)" : them;
    return h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "discard", disabled: left !== 0 || ui.busy, onclick: () => actions.discard(), text: text }),
      ...hinting(state, ui, actions));
  }
  if (act.kind === "play") {
    return h("div", { class: "actions" },
      h("p", { class: "hint", text: "Your turn: tap a card to play it (count " + state.count + ")." }),
      ...hinting(state, ui, actions));
  }
  const buttons = [];
  if (act.kind === "count") {
    const whose = act.crib ? "your crib" : "your hand";
    buttons.push(h("p", { class: "hint", text: "Count " + whose + ": how many points?" }));
    if (state.counting && state.starter) {
      buttons.push(h("p", { class: "counted" }, cardRow(state.counting.cards, "tiny"),
        h("span", { class: "plus", text: "+ starter" }), cardFace(state.starter, "tiny")));
    }
    buttons.push(h("div", { class: "claims", role: "group", "aria-label": "Claim points" },
      act.claims.map((n) => h("button", { type: "button", class: "claim", "data-key": "claim-" + n, "data-claim": n, disabled: ui.busy, "aria-label": "Claim " + n + (n === 1 ? " point" : " points"), onclick: () => actions.count(n), text: String(n) }))));
  }
  if (act.kind === "muggins" || act.muggins) {
    buttons.push(h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", "data-key": "muggins", disabled: ui.busy, onclick: () => actions.muggins(), text: "Muggins!" }),
      act.kind === "muggins" ? h("button", { type: "button", "data-key": "pass", disabled: ui.busy, onclick: () => actions.pass(), text: "No muggins" }) : null));
  }
  return h("div", { class: "counting" }, buttons);
}

// The people at the table (Discord's list of who has it open) without a seat at its game.
// (Not those the server says see their ranked game here instead: they watch nothing of this.)
function unseated(state, ui) {
  const seated = new Set((state.seats || []).map((s) => s.user).filter(Boolean));
  const elsewhere = new Set(state.elsewhere || []);
  return ui.together.people.filter((p) => !p.bot && !seated.has(p.id) && !elsewhere.has(p.id));
}

// Who is watching: at the table, with no seat (nobody, of a ranked game played apart).
export function watching(state, ui) {
  if (!state.game || state.apart || !["lobby", "active"].includes(state.status)) { return null; }
  const names = unseated(state, ui).map(Together.nameOf);
  return names.length ? h("p", { class: "watching", "data-key": "watching", text: "Watching: " + andList(names) + "." }) : null;
}

// The lobby's buttons, in the chat's words, and their look.
const LOBBY_STYLES = { join: "primary", start: "primary", cancel: "danger" };

// Deal everyone in, for the lobby's opener: what the table would play with everyone at it
// (the server says, for each number of players), and the button.
function everyoneIn(state, ui, actions) {
  const offers = state.lobby.everyone || {};
  const most = Math.max(0, ...Object.keys(offers).map(Number));
  const newcomers = unseated(state, ui);
  if (!most || !newcomers.length) { return null; }
  const players = state.seats.length + newcomers.length;
  const names = andList(newcomers.map(Together.nameOf));
  if (!offers[String(players)]) {
    return h("p", { class: "hint", "data-key": "everyone-too-many", text: "With " + names + " the table would seat " + players + ", and it seats " + most + " at most: they can take seats with Join." });
  }
  return h("div", { class: "everyone" },
    h("p", { "data-key": "everyone-kind", text: "Deal " + names + " in too: " + offers[String(players)] + "." }),
    h("button", { type: "button", class: "primary", "data-key": "everyone", disabled: ui.busy, onclick: () => actions.everyone(), text: "Deal everyone in" }));
}

export function lobby(state, ui, actions) {
  if (state.status !== "lobby") { return null; }
  const me = state.lobby;
  const options = state.options;
  const buttons = me.buttons.map((b) => h("button", { type: "button", class: LOBBY_STYLES[b.action] || null, "data-key": b.action, disabled: ui.busy, onclick: () => actions.lobby(b.action), text: b.label }));
  if (me.free > 0 && ui.together.can("invite")) {
    buttons.push(h("button", { type: "button", "data-key": "invite", disabled: ui.busy, onclick: () => actions.invite(), text: "Invite" }));
  }
  const computer = me.levels.length
    ? h("label", { class: "field" }, h("span", { text: "Add the computer" }),
      h("select", { "data-key": "computer", disabled: ui.busy, onchange: (event) => { if (event.target.value) { actions.lobby("computer:" + event.target.value); } } },
        h("option", { value: "", text: "Choose a level…" }),
        me.levels.map((level) => h("option", { value: level.level, text: level.name + " — " + level.blurb }))))
    : null;
  // The chat's lobby message, as it reads there (who opened it, the options, who sits,
  // what it waits for).
  return h("section", { class: "lobby", "aria-label": "The lobby" },
    h("h2", { text: "Waiting to deal" }),
    h("p", { class: "kind", text: kindLine(options) }),
    h("div", { class: "lobby-text", "data-key": "lobby-text", html: me.html }),
    everyoneIn(state, ui, actions),
    h("div", { class: "actions" }, buttons),
    computer);
}

export function result(state, ui, actions) {
  if (!["finished", "cancelled", "expired"].includes(state.status)) { return null; }
  const parts = [h("h2", { text: "Game over" })];
  if (state.result) { parts.push(h("p", { class: "result", html: state.result.html })); }
  if (state.end_note) { parts.push(h("p", { class: "result", html: state.end_note })); }
  // The result's Rematch (Play again against the computer), as the chat's result offers it:
  // the game opened again with its seats, each player taking theirs with one press (its
  // players alone: someone who watched has the series, and no label).
  const again = state.rematch;
  if (again && again.series) { parts.push(h("p", { class: "series", "data-key": "series", html: again.series })); }
  const buttons = [];
  if (again && again.label) {
    buttons.push(h("button", { type: "button", class: "primary", "data-key": "rematch", disabled: ui.busy, onclick: () => actions.lobby("rematch"), text: again.label }));
  }
  // Share posts the result and the game's page where the player chooses (Discord's dialog).
  if (state.result && state.result.share && ui.together.can("share")) {
    buttons.push(h("button", { type: "button", "data-key": "share", disabled: ui.busy, onclick: () => actions.share(), text: "Share" }));
  }
  if (state.review && !ui.review) {
    buttons.push(h("button", { type: "button", "data-key": "review", disabled: ui.busy, onclick: () => actions.review(), text: "Review the game" }));
  }
  if (buttons.length) { parts.push(h("div", { class: "actions" }, buttons)); }
  if (state.review && ui.review) {
    parts.push(h("section", { class: "review", "aria-label": "Review", html: ui.review }));
  }
  return h("section", { class: "over" }, parts);
}

// A new game's choices: those of /cribbage new (the variants, and the players each seats).
function variantsFor(state, players) {
  return (state.open.variants || []).filter((v) => v.seats.includes(players));
}

// Keep the form to a combination /cribbage new offers: the variant seats the players, the
// target is one of its lengths, the skunk scale only where it has one.
function settle(state, form) {
  const variants = state.open.variants || [];
  const all = [...new Set(variants.flatMap((v) => v.seats))].sort((a, b) => a - b);
  if (all.length && !all.includes(form.players)) { form.players = all[0]; }
  const offered = variantsFor(state, form.players);
  let variant = offered.find((v) => v.name === form.variant);
  if (!variant && offered.length) { variant = offered[0]; form.variant = variant.name; }
  if (variant && !variant.targets.includes(form.target)) { form.target = variant.targets[0]; }
  if (variant && !variant.skunk) { form.scoring = "lurch"; }
  return { all: all, offered: offered, variant: variant || null };
}

// What the choices play, in the lobby's words: "Six-hand cribbage, 6 players in two teams of
// three, to 121".
function chosenLine(variant, form) {
  const kind = variant && variant.kinds[form.players + ":" + form.target];
  return kind || "Cribbage, " + form.players + " players, to " + form.target;
}

// Deal everyone in with no game open: the game of the choices, for as many as have the table
// open (in the variant chosen if it seats them, else the one that does).
function everyoneNew(state, ui, actions) {
  const people = ui.together.people.filter((p) => !p.bot);
  if (!state.open.here || people.length < 2) { return null; }
  const names = andList(people.map(Together.nameOf));
  const seats = (state.open.variants || []).flatMap((v) => v.seats);
  if (!seats.includes(people.length)) {
    return h("p", { class: "hint", "data-key": "everyone-too-many", text: names + " have the table open: a table seats " + Math.max(...seats) + " at most, so open the game and take seats as they come." });
  }
  const asked = Object.assign({}, ui.form, { players: people.length, vs_computer: false });
  const { variant } = settle(state, asked);
  return h("div", { class: "everyone" },
    h("p", { "data-key": "everyone-kind", text: "At the table: " + names + ". Deal everyone in: " + chosenLine(variant, asked) + "." }),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "everyone", disabled: ui.busy, onclick: () => actions.everyoneNew(asked), text: "Deal everyone in" })));
}

// As /cribbage new's menu names them.
const PLAYERS = { 4: "4 (two teams of partners)", 5: "5 (five-hand)", 6: "6 (six-hand, in teams)" };

export function newGame(state, ui, actions) {
  if (state.game && ["lobby", "active"].includes(state.status)) { return null; }
  // Where no game is opened (the bot's DM, a tournament match's thread): no choices, only why.
  if (state.open.closed) { return h("p", { class: "hint", "data-key": "closed", text: state.open.closed }); }
  const form = ui.form;
  const { all, offered, variant } = settle(state, form);
  const radio = (name, value, label, extra) => h("label", { class: "choice" },
    h("input", { type: "radio", name: name, value: value, "data-choice": name + "-" + value, checked: String(form[name]) === String(value), onchange: () => { form[name] = value; actions.redraw(); } }),
    h("span", { text: label }),
    extra || null);
  const asked = ["players:" + form.players];
  if (form.variant && form.variant !== "standard") { asked.push("variant:" + form.variant); }
  asked.push("target:" + form.target);
  const command = "/cribbage new " + asked.join(" ") +
    (form.vs_computer ? " vs_computer:True difficulty:" + form.difficulty : "") +
    " scoring:" + form.scoring + " counting:" + form.counting +
    (form.hints ? " hints:True" : "");
  return h("section", { class: "new-game", "aria-label": "A new game" },
    h("h2", { text: state.game ? "Another game" : "No game at this table yet" }),
    everyoneNew(state, ui, actions),
    h("fieldset", {}, h("legend", { text: "Players" }), all.map((n) => radio("players", n, PLAYERS[n] || String(n)))),
    h("fieldset", { class: "variants" }, h("legend", { text: "Game" }), offered.map((v) => radio("variant", v.name,
      v.title + (v.teams[String(form.players)] ? ": " + v.teams[String(form.players)] : ""),
      h("span", { class: "blurb", text: v.description })))),
    h("fieldset", {}, h("legend", { text: "Points to win" }), (variant ? variant.targets : [121, 61]).map((t) => radio("target", t, String(t)))),
    h("fieldset", {}, h("legend", { text: "Game points" }), radio("scoring", "lurch", "Lurch"), variant && !variant.skunk ? null : radio("scoring", "skunk", "Skunk")),
    h("fieldset", {}, h("legend", { text: "Counting" }), radio("counting", "auto", "The bot counts"), radio("counting", "manual", "Count yourselves (muggins)")),
    h("label", { class: "choice" },
      h("input", { type: "checkbox", checked: form.vs_computer, onchange: (event) => { form.vs_computer = event.target.checked; actions.redraw(); } }),
      h("span", { text: "Against the computer" })),
    h("label", { class: "choice" },
      h("input", { type: "checkbox", "data-choice": "hints", checked: form.hints, onchange: (event) => { form.hints = event.target.checked; actions.redraw(); } }),
      h("span", { text: "Hints: anyone may ask the expert what it would do" })),
    form.vs_computer
      ? h("label", { class: "field" }, h("span", { text: "How well it plays" }),
        h("select", { onchange: (event) => { form.difficulty = event.target.value; } },
          state.open.levels.map(([level, name]) => h("option", { value: level, selected: form.difficulty === level, text: name }))))
      : null,
    h("p", { class: "kind", "data-key": "chosen", text: chosenLine(variant, form) }),
    state.open.here
      ? h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-key": "open", disabled: ui.busy, onclick: () => actions.open(), text: "Open the game" }))
      : h("p", { class: "hint" }, h("span", { text: "Here the bot can only answer commands: type " }), h("code", { text: command }), h("span", { text: " in the chat, and the game shows up at this table." })));
}
