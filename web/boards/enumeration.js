// Enumeration: the grid with its header row and column, each fillable square
// offering its two counts (↑ from above, ← from the left) as one-click moves.
// Draws view().board only; the counts come from board.candidates.

import { svg, html, target, rovingFocus, thumbnail as thumb } from "./svg.js";
import { TAP_PX, grid, keptGrid, scrollable, seatName, squareName, parseSquare, targetRings } from "./grid.js";

export const styles = ["grid.css"];

function drawValues(G, values, { last = null, headers = true } = {}) {
  const n = values.length;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const v = values[r][c];
      if (v == null) continue;
      const sq = squareName(r, c);
      const header = headers && (r === 0 || c === 0);
      G.text(sq, String(v), { class: ["num", header && "header", sq === last && "last"].filter(Boolean).join(" "), size: v >= 10 ? 0.4 : 0.46 });
    }
  }
}

/** A half-square target (top: the count above; bottom: the count left). */
function halfTarget(G, sq, half, opts) {
  const r = G.rect(sq), u = G.unit;
  const y = half === "top" ? r.y : r.y + u / 2;
  const g = svg("g", { class: ["half", "legal", half] },
    svg("rect", { class: "cell-bg", x: r.x, y, width: u, height: u / 2 }),
    targetRings(r.x, y, u, u / 2, u));
  G.add("cells", g);
  return target(g, { ...opts, x: r.x + u / 2, y: y + u / 4 });
}

export const { render, update } = keptGrid({
  label: boardLabel, options: { headers: true }, paint, panel,
  frame(G, state) {
    // a square with two choices is split in two halves, each a tap target: twice the height
    const [toggle, wrap] = scrollable(G, { minCell: 66, tapCell: 2 * TAP_PX, last: (shown) => shown.board.last });
    state.toggle = toggle;
    return html("div", { class: "grid-game en" }, html("div", { class: "grid-side" }, wrap));
  },
});

function boardLabel(b) {
  return `Enumeration, grid ${b.grid} of ${b.grids}, ${b.size} by ${b.size}`;
}

function paint(G, view, ui) {
  const b = view.board;
  const n = b.size;
  const live = !view.is_over && !ui.replaying;
  const legal = new Set(view.legal_moves);
  const corner = squareName(n - 1, n - 1);
  const u = G.unit;
  G.ui(ui);
  const candidates = live ? b.candidates : {};

  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = squareName(r, c);
      const v = b.values[r][c];
      const header = r === 0 || c === 0;
      const cand = candidates[sq];
      const number = v == null ? null : () => G.text(sq, String(v), { class: ["num", header && "header", sq === b.last && "last"].filter(Boolean).join(" "), size: v >= 10 ? 0.4 : 0.46 });
      if (!cand && !live) {
        G.square(sq, `v${v}|${sq === b.last}`, () => number?.());
        continue;
      }
      if (!cand) {
        // Squares that cannot be played now, the row and column numbers too, still
        // answer a tap at once with the engine's reason (shown by the game view)
        G.square(sq, `t${v}|${sq === b.last}`, () => {
          number?.();
          G.target(sq, { tryMove: `${sq}=${v ?? 0}`, ui,
                         label: header ? `${sq}, ${v}, a ${r === 0 ? "column" : "row"} number` : v == null ? `${sq}, empty, cannot be filled yet` : `${sq}, ${v}` });
        });
        continue;
      }
      const row = r + 1, col = c + 1;
      const aboveWhat = `count of numbers above with no common factor above 1 with row number ${row}`;
      const leftWhat = `count of numbers to the left with no common factor above 1 with column number ${col}`;
      const moves = [`${sq}=${cand.above}`, `${sq}=${cand.left}`].map((m) => `${m}${legal.has(m)}`).join();
      G.square(sq, `c${v}|${sq === b.last}|${cand.above}|${cand.left}|${moves}`, () => {
        number?.();
        if (cand.above === cand.left) {
          const move = `${sq}=${cand.above}`;
          G.mark(sq, "legal");
          G.text(sq, String(cand.above), { class: "cand", size: 0.4, dy: 0.04 });
          G.text(sq, "↑←", { class: "ghost", size: 0.2, dy: -0.33 });
          G.target(sq, {
            [legal.has(move) ? "move" : "tryMove"]: move, ui,
            label: `${sq}, empty: write ${cand.above} (↑ ${aboveWhat} and ← ${leftWhat} are both ${cand.above})`,
          });
        } else {
          for (const [half, value, arrow, what] of [["top", cand.above, "↑", aboveWhat], ["bottom", cand.left, "←", leftWhat]]) {
            const move = `${sq}=${value}`;
            halfTarget(G, sq, half, { [legal.has(move) ? "move" : "tryMove"]: move, ui: G.act, label: `${sq}, empty: write ${value}, the ${arrow} ${what}` });
            G.text(sq, `${arrow}${value}`, { class: "cand", size: 0.3, dy: half === "top" ? -0.23 : 0.25 });
          }
          const r = G.rect(sq);
          G.add("lines", svg("line", { class: "half-split", x1: r.x + 2, x2: r.x + u - 2, y1: r.y + u / 2, y2: r.y + u / 2 }));
        }
      });
    }
  }
  // The lower-right corner, the number a corner match is about.
  G.part("corner", b.goal, () => {
    if (b.goal !== "corner") return;
    const r = G.rect(corner);
    G.add("overlay", svg("rect", { class: "corner-mark", x: r.x + 2, y: r.y + 2, width: u - 4, height: u - 4 }));
  });
  G.part("last", b.last ?? "", () => {
    if (!b.last) return;
    const r = G.rect(b.last);
    G.add("overlay", svg("rect", { class: "last-mark", x: r.x + u * 0.12, y: r.y + u * 0.12, width: u * 0.76, height: u * 0.76, rx: u * 0.2, "stroke-width": u * 0.06 }));
  });
  if (live) rovingFocus(G.svg);
  G.settled();
}

/** The line above the board, the finished grids beside it and the legend, each
 * made again only when what it says changed. */
function panel(root, state, view) {
  const b = view.board;
  const n = b.size;
  const corner = squareName(n - 1, n - 1);
  const wrap = state.G.svg.parentNode;
  const part = (name, key, build, place) => {
    const old = state.parts[name];
    if (old && old.key === key) return;
    const node = build();
    if (old) old.node.replaceWith(node);
    else place(node);
    state.parts[name] = { key, node };
  };
  const names = view.seats.map((_, seat) => seatName(view, seat));
  const parity = b.goal === "corner" ? null : `Odd numbers: ${b.parity.odd} · even numbers: ${b.parity.even}`;
  // (the counts of odd and even numbers change every move: in place, below)
  part("info", JSON.stringify([b.grid, b.grids, b.goal, b.maximiser, b.minimiser, b.target, b.corners, view.is_over, names]), () => {
    const goal = [];
    if (b.goal === "corner") {
      if (b.maximiser != null) goal.push(html("span", {}, `▲ ${seatName(view, b.maximiser)} wants the lower-right number (${corner}) high`));
      if (b.minimiser != null) goal.push(html("span", {}, `▼ ${seatName(view, b.minimiser)} wants it low`));
    } else {
      goal.push(html("span", { class: "parity" }, parity));
      if (b.target) goal.push(html("span", {}, `(collecting ${b.target} numbers)`));
    }
    return html("div", { class: "grid-info" },
      html("p", { class: "round" }, `Grid ${b.grid} of ${b.grids}`),
      html("p", { class: "goal" }, goal.flatMap((g, i) => (i ? ["; ", g] : [g]))),
      b.corners.length > 1 || view.is_over
        ? html("p", { class: "corners" }, b.corners.map((v, i) => `grid ${i + 1} corner: ${v ?? "—"}`).join(" · "))
        : null,
      state.toggle);
  }, (node) => root.prepend(node));
  const counts = parity != null ? state.parts.info.node.querySelector(".parity") : null;
  if (counts && counts.textContent !== parity) counts.textContent = parity;
  // the finished grids, beside the board
  part("side", JSON.stringify([b.finished, b.corners]), () => {
    const side = b.finished.map((values, i) => {
      const M = grid(values.length, { headers: true, labels: false, label: `Finished grid ${i + 1}` });
      drawValues(M, values);
      const r = M.rect(corner);
      M.add("overlay", svg("rect", { class: "corner-mark", x: r.x + 2, y: r.y + 2, width: M.unit - 4, height: M.unit - 4 }));
      return html("figure", { class: "grid-mini" }, M.svg,
        html("figcaption", {}, `Grid ${i + 1}, finished: corner ${b.corners[i] ?? values[n - 1][n - 1]}`));
    });
    return html("div", { class: "finished-grids" }, side);
  }, (node) => wrap.after(node));
  part("legend", `${b.goal}`, () => html("ul", { class: "grid-legend" },
    html("li", {}, html("span", { class: "key legal" }, "↑"), "how many numbers above have no common factor above 1 with the row number"),
    html("li", {}, html("span", { class: "key legal" }, "←"), "how many numbers to the left have no common factor above 1 with the column number"),
    html("li", {}, html("span", { class: "key last" }, "□"), "filled last"),
    b.goal === "corner" ? html("li", {}, html("span", { class: "key corner" }, "▲▼"), `the lower-right corner, ${corner}`) : null),
  (node) => wrap.parentNode.after(node));
}

export function thumbnail() {
  const n = 4, u = 20;
  const values = [[1, 2, 3, 4], [2, 0, 1, null], [3, 1, null, null], [4, null, null, null]];
  const parts = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const header = r === 0 || c === 0;
    parts.push(svg("rect", { x: c * u, y: r * u, width: u, height: u, fill: header ? "currentColor" : "none", "fill-opacity": header ? 0.12 : 0, stroke: "currentColor", "stroke-opacity": 0.3 }));
    const v = values[r][c];
    if (v != null) parts.push(svg("text", { x: c * u + u / 2, y: r * u + u / 2, "font-size": 10, "font-weight": header ? 700 : 400, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" }, String(v)));
  }
  // a fillable square with its two counts
  parts.push(svg("rect", { x: 3 * u, y: u, width: u, height: u, fill: "#56b4e9", "fill-opacity": 0.35, stroke: "#0072b2" }));
  parts.push(svg("text", { x: 3.5 * u, y: 1.3 * u, "font-size": 7, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" }, "↑1"));
  parts.push(svg("text", { x: 3.5 * u, y: 1.75 * u, "font-size": 7, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" }, "←0"));
  return thumb(n * u, n * u, parts);
}

/** A small still picture of a position, for the rules' worked examples (help.js):
 * the grid with its headers, and in each square that may be filled now its two
 * counts (↑ above, ← left), as the engine's view gives them. Nothing can be clicked. */
export function example(view) {
  const b = view.board;
  const G = grid(b.size, { headers: true, label: "Enumeration example" });
  drawValues(G, b.values, { last: b.last });
  for (const [sq, cand] of Object.entries(view.is_over ? {} : b.candidates ?? {})) {
    G.mark(sq, "legal");
    G.text(sq, `↑${cand.above}`, { class: "cand", size: 0.3, dy: -0.23 });
    G.text(sq, `←${cand.left}`, { class: "cand", size: 0.3, dy: 0.25 });
  }
  return html("div", { class: "grid-game en example-board" }, G.svg);
}
