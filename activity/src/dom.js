// Small helpers to build the page's elements: text is always set as text (names and calls come
// from people), HTML only where the server escaped it (the calls, the result, the review).

export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) { continue; }
    if (name === "class") { element.className = value; }
    else if (name === "text") { element.textContent = value; }
    else if (name === "html") { element.innerHTML = value; }
    else if (name.startsWith("on")) { element.addEventListener(name.slice(2), value); }
    else { element.setAttribute(name, value === true ? "" : String(value)); }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) { continue; }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

// A card to look at: its face, and its name in words for screen readers.
export function cardFace(card, extra) {
  const rank = card.label.slice(0, -1);
  const suit = card.label.slice(-1);
  return h(
    "span",
    { class: "card" + (card.red ? " red" : "") + (extra ? " " + extra : ""), role: "img", "aria-label": card.alt },
    h("span", { class: "rank", "aria-hidden": "true", text: rank }),
    h("span", { class: "suit", "aria-hidden": "true", text: suit })
  );
}

export function cardRow(cards, extra) {
  return h("span", { class: "cards" }, cards.map((card) => cardFace(card, extra)));
}

// Someone's picture: their Discord avatar, or their initial on a colour of their own.
export function avatar(seat) {
  if (seat.avatar) {
    return h("img", { class: "avatar", src: seat.avatar, alt: "", width: 32, height: 32 });
  }
  const hue = [...seat.name].reduce((sum, ch) => (sum * 31 + ch.codePointAt(0)) % 360, 7);
  const initial = h("span", {
    class: "avatar initial",
    "aria-hidden": "true",
    text: (seat.computer ? "🤖" : [...seat.name][0] || "?").toUpperCase(),
  });
  // Through the style object, not a style attribute: the page's content policy (style-src
  // 'self') refuses inline style attributes, and the browser logs an error for each.
  initial.style.setProperty("--hue", String(hue));
  return initial;
}
