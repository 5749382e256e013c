// Multiplications Within the Permutation: x's on a grid, then numbers on them.
// Marking: the legal squares (view.legal_moves) are highlighted, and the x
// marked last (the last of board.xs, which the engine lists in the order they
// were marked) has a bar under it. Numbering: every unnumbered x shows what it
// would score (board.gains), the last number is ringed, and a line joins 1, 2,
// 3, ..., hopping round any other x it passes over, so that it joins only the
// numbers it links. Nothing about the rules is computed here.

import { svg, html, rovingFocus, thumbnail as thumb } from "./svg.js";
import { badgeKey, grid, keptGrid, scrollable, seatName, squareName } from "./grid.js";

export const styles = ["grid.css"];

// (a touch screen has no pointer to hover with, and seldom keys: its own words)
const TOUCH_ONLY = typeof matchMedia === "function" && !matchMedia("(hover: hover)").matches;
const PREVIEW_IDLE = TOUCH_ONLY ? "Each x shows what numbering it would score; tap one to number it."
  : "Point at an x (or move to it with the keys) to see what numbering it scores.";

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "d2 scores 2 rows × 3 columns = 6 points (from the 1 at a4)": the engine's area, in words. */
function areaWords(sq, area, fromNumber, gain) {
  return `${sq} scores ${plural(area.rows, "row")} × ${plural(area.columns, "column")} = ${plural(gain, "point")} (from the ${fromNumber} at ${area.from})`;
}

export const { render, update } = keptGrid({
  label: boardLabel, paint, panel,
  frame(G, state, view) {
    const [toggle, wrap] = scrollable(G, { last: (shown) => lastOf(shown.board) });
    state.toggle = toggle;
    // what the x under the pointer or the keyboard scores, in words (the view of the latest draw)
    const show = (event) => {
      const { view: shown, parts } = state;
      const preview = parts.info?.preview;
      if (!preview) return;
      const sq = event.target.closest?.(".target")?.dataset.move;
      for (const span of G.svg.querySelectorAll(".span")) span.classList.toggle("shown", span.dataset.for === sq);
      const bd = shown.board;
      const area = sq ? bd.areas?.[sq] : null;
      preview.textContent = area ? areaWords(sq, area, bd.numbers[area.from], bd.gains[sq]) : PREVIEW_IDLE;
    };
    const hide = () => {
      const preview = state.parts.info?.preview;
      if (!preview) return;
      for (const span of G.svg.querySelectorAll(".span.shown")) span.classList.remove("shown");
      preview.textContent = PREVIEW_IDLE;
    };
    G.svg.addEventListener("pointerover", show);
    G.svg.addEventListener("focusin", show);
    G.svg.addEventListener("pointerleave", hide);
    G.svg.addEventListener("focusout", hide);
    return html("div", { class: "grid-game mu" }, wrap);
  },
});

function boardLabel(b) {
  return `Multiplications Within the Permutation, ${b.size} by ${b.size}, ${b.phase === "mark" ? "marking x's" : "numbering"}`;
}

function orderOf(b) {
  return Object.entries(b.numbers).sort((p, q) => p[1] - q[1]).map(([sq]) => sq);
}

function lastOf(b) {
  return orderOf(b).at(-1) ?? null;
}

function paint(G, view, ui) {
  const b = view.board;
  const n = b.size;
  const live = !view.is_over && !ui.replaying;
  const legal = new Set(view.legal_moves);
  const xs = new Set(b.xs);
  const order = orderOf(b);
  const last = order[order.length - 1] ?? null;
  const marking = b.phase === "mark";
  const u = G.unit;
  G.ui(ui);
  const lastX = marking ? b.xs.at(-1) ?? null : null;
  G.part("path", `${order.join()}|${b.xs.join()}`, () => {
    if (order.length > 1) G.add("lines", numberPath(G, order, b.xs));
  });

  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = squareName(r, c);
      const number = b.numbers[sq];
      if (number != null) {
        const writer = b.numbered_by?.[sq];
        const label = `${sq}, x numbered ${number}${writer != null ? ` by ${seatName(view, writer)}` : " (free)"}${sq === last ? ", the last number" : ""}`;
        G.square(sq, `n${live}|${writer}|${label}`, () => {
          G.text(sq, "×", { class: "x small", size: 0.3, dx: -0.3, dy: -0.3 });
          G.text(sq, String(number), { class: ["num", sq === last && "last"].filter(Boolean).join(" "), size: 0.46 });
          if (writer != null) G.badge(sq, writer);
          if (live) G.target(sq, { tryMove: sq, label, ui });
          else G.label(sq, label);
        });
      } else if (xs.has(sq)) {
        const gain = b.gains[sq];
        const area = live && legal.has(sq) ? b.areas?.[sq] : null;
        const isLast = sq === lastX;
        G.square(sq, `x${live}|${legal.has(sq)}|${gain}|${b.next_number}|${isLast}|${area ? JSON.stringify(area) + b.numbers[area.from] : ""}`, () => {
          G.text(sq, "×", { class: isLast ? "x last-x" : "x", size: gain != null && live ? 0.42 : 0.6, dy: gain != null && live ? -0.15 : 0 });
          if (isLast) {
            // the x marked last: a bar under it in the ink's colour (the orange ring is the last number's)
            const r = G.rect(sq);
            G.add("overlay", svg("rect", { class: "last-x-mark", x: r.x + r.w * 0.3, y: r.y + r.h * 0.8, width: r.w * 0.4, height: r.h * 0.07, rx: r.h * 0.035 }));
          }
          if (live && legal.has(sq)) {
            G.mark(sq, "legal");
            if (gain != null) G.text(sq, `+${gain}`, { class: "gain", size: gain >= 100 ? 0.28 : 0.32, dy: 0.24 });
            if (area) {
              // On hover/focus: the rectangle the engine says the score is the area
              // of, over every cell (in the overlay, so no later cell covers it).
              const p = G.center(sq), q = G.center(area.from);
              G.add("overlay", svg("rect", {
                class: "span", dataset: { for: sq, rows: area.rows, columns: area.columns },
                x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), width: Math.abs(p.x - q.x), height: Math.abs(p.y - q.y),
              }));
            }
            const words = area ? areaWords(sq, area, b.numbers[area.from], gain) : null;
            G.target(sq, { move: sq, label: `${sq}, x, legal: write ${b.next_number} here${words ? `: ${words}` : ""}`, ui });
          } else if (live) {
            G.target(sq, { tryMove: sq, label: `${sq}, x${isLast ? ", the last one marked" : ""}`, ui });
          } else {
            G.label(sq, `${sq}, x${isLast ? ", the last one marked" : ""}`);
          }
        });
      } else if (live && legal.has(sq)) {
        G.square(sq, "l", () => {
          G.mark(sq, "legal");
          G.target(sq, { move: sq, label: `${sq}, empty, legal: mark an x`, ui });
        });
      } else if (live && marking) {
        G.square(sq, "t", () => G.target(sq, { tryMove: sq, label: `${sq}, empty, not legal now`, ui }));
      } else {
        G.square(sq, "", () => {});
      }
    }
  }
  G.part("last", last ?? "", () => {
    if (!last) return;
    const lastC = G.center(last);
    G.add("overlay", svg("circle", { class: "last-mark", cx: lastC.x, cy: lastC.y, r: u * 0.4, "stroke-width": u * 0.07 }));
  });
  if (live) rovingFocus(G.svg);
  G.settled();
}

/** The line above the board (the phase, what an x scores) and the legend, made
 * again only when what they say changed. */
function panel(root, state, view, ui) {
  const b = view.board;
  const n = b.size;
  const live = !view.is_over && !ui.replaying;
  const marking = b.phase === "mark";
  const wrap = state.G.svg.parentNode;
  const phase = marking
    ? `Part one: marking x's (${b.xs.length} of ${n} placed)`
    : b.phase === "number" ? `Part two: numbering the x's (next: ${b.next_number})` : "All x's numbered";
  const withPreview = live && !marking;
  const infoKey = `${phase}|${withPreview}`;
  const had = state.parts.info;
  if (had && had.key !== infoKey && had.withPreview === withPreview) {
    // (a move changes the phase's words only: they change in place, the preview line stays)
    had.round.textContent = phase;
    had.key = infoKey;
  } else if (had?.key !== infoKey) {
    const preview = withPreview ? html("p", { class: "score-preview", "aria-live": "polite" }, PREVIEW_IDLE) : null;
    const round = html("p", { class: "round" }, phase);
    const info = html("div", { class: "grid-info" }, round, preview, state.toggle);
    if (had) had.node.replaceWith(info);
    else root.prepend(info);
    state.parts.info = { key: infoKey, node: info, preview, round, withPreview };
  }
  const legendKey = `${marking}|${view.seats.length}|${b.xs.length > 0}`;
  if (state.parts.legend?.key !== legendKey) {
    const legend = html("ul", { class: "grid-legend" },
      html("li", {}, html("span", { class: "key legal" }, marking ? "·" : "×"), marking ? "legal square (free row and column)" : "x you may number"),
      marking && b.xs.length ? html("li", {}, html("span", { class: "key last-x" }, "×"), "the x marked last") : null,
      marking ? null : html("li", {}, html("span", { class: "key" }, "+9"), "what numbering it scores (rows × columns from the last number)"),
      marking ? null : html("li", {}, html("span", { class: "key last" }, "○"), "last number"),
      marking ? null : html("li", {}, html("span", { class: "key path" }, "—"), "1 → 2 → 3 …"),
      marking ? null : html("li", {}, ...view.seats.map((_, seat) => badgeKey(seat)), "who wrote it"));
    if (state.parts.legend) state.parts.legend.node.replaceWith(legend);
    else wrap.after(legend);
    state.parts.legend = { key: legendKey, node: legend };
  }
}

/** The line through the numbers in order, one segment from each number to the
 * next, stopping short of both; where a segment passes over another x (numbered
 * or not) it hops round it on a half-ring, so no x looks joined that is not. */
function numberPath(G, order, xs) {
  const u = G.unit;
  const gap = 0.34 * u; // (short of each number, as the line always stopped)
  const hop = 0.45 * u; // (round an x's glyph, inside its square)
  const f = (v) => +v.toFixed(2);
  let d = "";
  for (let i = 1; i < order.length; i++) {
    const a = G.center(order[i - 1]), b = G.center(order[i]);
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    const vx = (b.x - a.x) / len, vy = (b.y - a.y) / len;
    const at = (t, off = 0) => `${f(a.x + vx * t - vy * off)} ${f(a.y + vy * t + vx * off)}`;
    // the other x's this segment passes over: along it at t, off it by `side`
    const over = xs.filter((sq) => sq !== order[i - 1] && sq !== order[i]).map((sq) => {
      const c = G.center(sq);
      return { t: (c.x - a.x) * vx + (c.y - a.y) * vy, side: (c.y - a.y) * vx - (c.x - a.x) * vy };
    }).filter(({ t, side }) => Math.abs(side) < hop && t > gap && t < len - gap).sort((p, q) => p.t - q.t);
    // Every hop bulges up the screen (left, on a column), whichever way the
    // segment runs: a segment and a later one back along the same line hop on
    // the same side, never closing a ring round an x. SVG's sweep 1 turns
    // clockwise on screen, which is up for a segment running right.
    const sweep = vx > 0 || (vx === 0 && vy < 0) ? 1 : 0;
    d += `M${at(gap)}`;
    for (const { t, side } of over) {
      const half = Math.sqrt(hop * hop - side * side);
      // (the long way round when the x's centre is on the side it bulges to)
      const large = (sweep === 1 ? side < 0 : side > 0) ? 1 : 0;
      d += `L${at(t - half)}A${f(hop)} ${f(hop)} 0 ${large} ${sweep} ${at(t + half)}`;
    }
    d += `L${at(len - gap)}`;
  }
  return svg("path", { class: "path", d, "stroke-width": f(u * 0.12) });
}

export function thumbnail() {
  const n = 5, u = 20;
  const perm = [3, 0, 4, 1, 2]; // row -> column of its x
  const numbers = { 1: 1, 3: 2, 0: 3 }; // row -> number written there
  const parts = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    parts.push(svg("rect", { x: c * u, y: r * u, width: u, height: u, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }));
  }
  const pts = Object.entries(numbers).sort((a, b) => a[1] - b[1]).map(([r]) => `${perm[r] * u + u / 2},${r * u + u / 2}`);
  parts.push(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#009e73", "stroke-width": 2.5, "stroke-opacity": 0.7 }));
  perm.forEach((c, r) => {
    const num = numbers[r];
    parts.push(svg("text", { x: c * u + u / 2, y: r * u + u / 2, "font-size": num ? 11 : 13, "font-weight": 700, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" }, num ? String(num) : "×"));
  });
  return thumb(n * u, n * u, parts);
}

/** A small still picture of a position, for the rules' worked examples (help.js):
 * the x's, their numbers joined in order, the last number ringed, and what each
 * x would score if numbered next (the engine's gains). Nothing can be clicked. */
export function example(view) {
  const b = view.board;
  const G = grid(b.size, { label: "Multiplications example" });
  const order = Object.entries(b.numbers).sort((p, q) => p[1] - q[1]).map(([sq]) => sq);
  if (order.length > 1) G.layers.lines.append(numberPath(G, order, b.xs));
  for (const sq of b.xs) {
    const number = b.numbers[sq];
    const gain = b.gains?.[sq];
    if (number != null) {
      G.text(sq, "×", { class: "x small", size: 0.3, dx: -0.3, dy: -0.3 });
      G.text(sq, String(number), { class: "num", size: 0.46 });
    } else {
      G.text(sq, "×", { class: "x", size: gain != null ? 0.42 : 0.6, dy: gain != null ? -0.15 : 0 });
      if (gain != null) {
        G.mark(sq, "legal");
        G.text(sq, `+${gain}`, { class: "gain", size: gain >= 100 ? 0.28 : 0.32, dy: 0.24 });
      }
    }
  }
  const last = order.at(-1);
  if (last) {
    const p = G.center(last);
    G.layers.overlay.append(svg("circle", { class: "last-mark", cx: p.x, cy: p.y, r: G.unit * 0.4, "stroke-width": G.unit * 0.07 }));
  }
  return html("div", { class: "grid-game mu example-board" }, G.svg);
}
