// The board: a lane per side with its holes in fives, the lines that a lurch (or skunk) is
// measured by, and two pegs per side, the front one where the side stands and the back one
// where it stood before it last scored. The pegs are kept from one look to the next and moved,
// so they slide along the lane as points are pegged.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const LANE = 26;
const PAD = 14;
// A colour per side (five players, each for themselves, are five sides), said once, in
// app.css (--side-0 ...): the seats wear their side's colour from there too (.team.s0 ...).
const SIDE_COLOURS = 6;

function sideColour(i) {
  return getComputedStyle(document.documentElement).getPropertyValue("--side-" + (i % SIDE_COLOURS)).trim();
}

function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) { element.setAttribute(name, String(value)); }
  return element;
}

function x(score, target) {
  const clamped = Math.max(0, Math.min(score, target));
  return PAD + (clamped / target) * (WIDTH - 2 * PAD);
}

// A line of the game's rules (options.lines: [hole, name], as the chat's board picture draws
// them) catches a loser short of its hole: it is drawn just before the hole, so a peg on the
// hole stands past it and a peg one short stands before it.
function lineX(hole, target) {
  return x(hole - 0.5, target);
}

export class Board {
  constructor() {
    this.element = svg("svg", { class: "board", role: "img" });
    this.key = "";
    this.pegs = [];
  }

  // Draw the lanes again only when the sides change; otherwise move the pegs.
  show(state) {
    const sides = state.sides || [];
    const target = (state.options && state.options.target) || 121;
    const lines = (state.options && state.options.lines) || [];
    const key = sides.map((s) => s.name).join("|") + "/" + target + "/" + JSON.stringify(lines);
    if (key !== this.key) { this.draw(sides, target, lines); this.key = key; }
    sides.forEach((side, i) => {
      const [front, back, label] = this.pegs[i];
      front.style.transform = "translateX(" + x(side.score, target) + "px)";
      back.style.transform = "translateX(" + x(side.back, target) + "px)";
      // Set apart from the name, which may end in a number ("Hard bot 2: 14").
      label.textContent = side.name + ": " + side.score;
    });
    const said = sides.map((s) => s.name + ": " + s.score).join(", ");
    this.element.setAttribute("aria-label", "The board: " + said + " (to " + target + ")");
  }

  draw(sides, target, lines) {
    const height = sides.length * LANE + 4;
    this.element.replaceChildren();
    this.element.setAttribute("viewBox", "0 0 " + WIDTH + " " + height);
    this.pegs = [];
    sides.forEach((side, i) => {
      const top = 2 + i * LANE;
      const middle = top + LANE / 2 + 3;
      this.element.append(svg("rect", { x: 2, y: top + 1, width: WIDTH - 4, height: LANE - 2, rx: 6, class: "lane" }));
      for (let hole = 0; hole <= target; hole += 5) {
        this.element.append(svg("circle", { cx: x(hole, target), cy: middle, r: hole % 30 === 0 ? 1.8 : 1.1, class: "hole" }));
      }
      const label = svg("text", { x: PAD, y: top + 9, class: "lane-name" });
      const back = svg("circle", { cx: 0, cy: middle, r: 4, class: "peg back", fill: sideColour(i) });
      const front = svg("circle", { cx: 0, cy: middle, r: 5.5, class: "peg", fill: sideColour(i) });
      this.element.append(label, back, front);
      this.pegs.push([front, back, label]);
    });
    for (const [hole] of lines) {
      const at = lineX(hole, target);
      this.element.append(svg("line", { x1: at, x2: at, y1: 0, y2: height, class: "mark", "data-hole": hole }));
    }
    this.element.append(svg("line", { x1: x(target, target), x2: x(target, target), y1: 0, y2: height, class: "finish" }));
  }
}
