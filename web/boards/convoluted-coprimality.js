// Convoluted Coprimality: the path of numbers 1, 2, 3, ... through the grid.
// Draws view().board only: legal squares come from view.legal_moves and what a
// square would do from board.targets; nothing about the rules is worked out here.

import { svg, html, rovingFocus, setText, thumbnail as thumb } from "./svg.js";
import { badgeKey, grid, keptGrid, scrollable, seatName, squareName } from "./grid.js";

export const styles = ["grid.css"];

/** "a, b and c" */
function list(numbers) {
  const words = numbers.map(String);
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

export const { render, update } = keptGrid({
  label: boardLabel, paint, panel,
  frame(G, state, view) {
    const [toggle, wrap] = scrollable(G, { last: (shown) => shown.board.last_square });
    state.toggle = toggle;
    return html("div", { class: "grid-game cc" }, wrap);
  },
});

function boardLabel(b) {
  return `Convoluted Coprimality, grid ${b.round} of ${b.max_rounds}, ${b.size} by ${b.size}`;
}

/** The grid itself: every square, the path, the last number's ring and the knock-outs. */
function paint(G, view, ui) {
  const b = view.board;
  const n = b.size;
  const live = !view.is_over && !ui.replaying;
  const legal = new Set(view.legal_moves);
  const inBlock = new Set(b.block ?? []);
  const lastNumber = b.path.length;
  const u = G.unit;
  G.ui(ui);

  // Knock-outs on this grid, by square.
  const knocked = new Map(b.eliminations.filter((e) => e.round === b.round).map((e) => [e.square, e]));

  G.part("path", b.path.join(), () => {
    if (b.path.length > 1) G.line(b.path, { gap: 0.3 });
  });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const sq = squareName(r, c);
      const value = b.grid[r][c];
      if (value != null) {
        const size = value >= 100 ? 0.36 : 0.46;
        const recent = inBlock.has(value) || value === lastNumber;
        const cls = ["num", recent && "recent", value === lastNumber && "last"].filter(Boolean).join(" ");
        const out = knocked.get(sq);
        const writer = b.writers?.[r]?.[c];
        let label = `${sq}, ${value}${writer != null ? `, written by ${seatName(view, writer)}` : ""}`;
        if (value === lastNumber) label += ", the last number";
        if (out) label += `, knocked out ${seatName(view, out.seat)}`;
        G.square(sq, `n${live}|${cls}|${writer}|${label}`, () => {
          G.text(sq, String(value), { class: cls, size });
          if (out) G.mark(sq, "knocked");
          if (writer != null) G.badge(sq, writer);
          if (live) G.target(sq, { tryMove: sq, label, ui });
          else G.label(sq, label);
        });
      } else if (live && legal.has(sq)) {
        const info = b.targets[sq] ?? { eliminates: false, clashes: [] };
        G.square(sq, `l${b.next_number}|${info.eliminates}|${info.warning ?? ""}`, () => {
          G.mark(sq, "legal", info.eliminates && "danger");
          G.text(sq, String(b.next_number), { class: "ghost", size: b.next_number >= 100 ? 0.32 : 0.4 });
          let label = `${sq}, empty, legal: write ${b.next_number} here`;
          if (info.eliminates) {
            G.text(sq, "⚠", { class: "warn", size: 0.32, dx: 0.3, dy: -0.3 });
            label = `${sq}, empty, legal, but: ${info.warning}`;
          }
          G.target(sq, { move: sq, label, ui, confirm: info.warning ? `${info.warning} Play it anyway?` : null });
        });
      } else if (live) {
        G.square(sq, "t", () => G.target(sq, { tryMove: sq, label: `${sq}, empty, not legal now`, ui }));
      } else {
        G.square(sq, "", () => {});
      }
    }
  }
  G.part("last", b.last_square ?? "", () => {
    if (!b.last_square) return;
    const r = G.rect(b.last_square);
    G.add("overlay", svg("circle", { class: "last-mark", cx: r.x + u / 2, cy: r.y + u / 2, r: u * 0.42, "stroke-width": u * 0.07 }));
  });
  // a knock-out: a white ✕ on a solid disc in the cell's upper-left corner,
  // drawn over the last-number ring (which often circles the same number)
  G.part("knocked", [...knocked.keys()].join(), () => {
    for (const sq of knocked.keys()) {
      const p = G.center(sq);
      G.add("badges", svg("g", { class: "out-badge", dataset: { square: sq } },
        svg("circle", { cx: p.x - u * 0.28, cy: p.y - u * 0.28, r: u * 0.2 }),
        svg("text", { x: p.x - u * 0.28, y: p.y - u * 0.28, "font-size": u * 0.26, "text-anchor": "middle", "dominant-baseline": "central" }, "✕")));
    }
  });
  if (live) rovingFocus(G.svg);
  G.settled();
}

/** The parts around the grid (grid and block, legend, knock-outs, the last
 * grid wiped), each made again only when what it says changed. */
function panel(root, state, view) {
  const b = view.board;
  const wrap = state.G.svg.parentNode;
  const part = (name, key, build, place) => {
    const old = state.parts[name];
    if (old && old.key === key) return;
    const node = build();
    if (old?.node) {
      if (node) old.node.replaceWith(node);
      else old.node.remove();
    } else if (node) place(node);
    state.parts[name] = { key, node };
  };
  // (the next number moves along the block's chips every move: marked in place below)
  part("info", JSON.stringify([b.round, b.max_rounds, b.next_number == null, b.block_index, b.block]), () => {
    const info = html("div", { class: "grid-info" },
      html("p", { class: "round" }, `Grid ${b.round} of ${b.max_rounds}`),
      b.next_number != null
        ? html("p", { class: "block" }, `Block ${b.block_index}: place `,
          html("ul", { class: "chips", "aria-label": `numbers of block ${b.block_index}` }, b.block.map((k) =>
            html("li", { dataset: { number: k } }, String(k)))),
          " ", html("span", { class: "next-number" }))
        : null);
    info.append(state.toggle); // (on the info line: a frame keeps its height for the board)
    return info;
  }, (node) => root.prepend(node));
  if (b.next_number != null) {
    const info = state.parts.info.node;
    for (const chip of info.querySelectorAll(".chips li")) {
      const k = Number(chip.dataset.number);
      const cls = k < b.next_number ? "done" : k === b.next_number ? "next" : "";
      if (chip.className !== cls) chip.className = cls;
      if (k === b.next_number) chip.setAttribute("aria-current", "step");
      else chip.removeAttribute("aria-current");
    }
    setText(info.querySelector(".next-number"), `next: ${b.next_number}`);
  }
  const outs = b.eliminations.map((e) =>
    `${seatName(view, e.seat)} (wrote ${e.number} next to ${list(e.clashes)} in grid ${e.round})`);
  const said = `${outs.length ? `Knocked out: ${outs.join("; ")}.` : "Nobody knocked out yet."}` +
    `${b.grids_ended ? ` ${b.grids_ended} grid${b.grids_ended > 1 ? "s" : ""} wiped (no room for the next number).` : ""}`;
  const names = view.seats.map((_, seat) => seatName(view, seat)).join();
  part("legend", `${view.seats.length}`, () => html("ul", { class: "grid-legend" },
    html("li", {}, html("span", { class: "key path" }, "—"), "path 1 → 2 → 3 …"),
    html("li", {}, html("span", { class: "key legal" }), "legal square"),
    html("li", {}, html("span", { class: "key danger" }, "⚠"), "would knock you out"),
    html("li", {}, html("span", { class: "key last" }, "○"), "last number"),
    html("li", {}, html("span", { class: "key out" }, "✕"), "a knock-out"),
    html("li", {}, ...view.seats.map((_, seat) => badgeKey(seat)), "who wrote it")), (node) => wrap.after(node));
  setText(state.parts.legend.node.querySelector(".key.legal"), String(b.next_number ?? "·"));
  part("out", `${said}|${names}`, () => html("p", { class: "grid-out" }, said), (node) => state.parts.legend.node.after(node));
  part("mini", b.previous_path.join(), () => {
    if (b.previous_path.length <= 1) return null;
    const M = grid(b.size, { labels: false, label: `The last grid wiped: its path of ${b.previous_path.length} numbers` });
    M.line(b.previous_path, { class: "path old" });
    const end = M.center(b.previous_path[b.previous_path.length - 1]);
    M.add("overlay", svg("circle", { class: "last-mark", cx: end.x, cy: end.y, r: M.unit * 0.4, "stroke-width": M.unit * 0.12 }));
    return html("figure", { class: "grid-mini" }, M.svg,
      html("figcaption", {}, `Last grid wiped after ${b.previous_path.length}`));
  }, (node) => state.parts.out.node.after(node));
}

export function thumbnail() {
  const n = 5, u = 20;
  const path = [[0, 0], [1, 0], [1, 1], [0, 1], [0, 2], [1, 2], [2, 2], [2, 1], [3, 1]];
  const parts = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    parts.push(svg("rect", { x: c * u, y: r * u, width: u, height: u, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }));
  }
  parts.push(svg("polyline", { points: path.map(([c, r]) => `${c * u + u / 2},${r * u + u / 2}`).join(" "), fill: "none", stroke: "#009e73", "stroke-width": 3, "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-opacity": 0.7 }));
  path.forEach(([c, r], i) => parts.push(svg("text", { x: c * u + u / 2, y: r * u + u / 2, "font-size": 10, "font-weight": 700, "text-anchor": "middle", "dominant-baseline": "central", fill: "currentColor" }, String(i + 1))));
  parts.push(svg("rect", { x: 4 * u + 1, y: 1 * u + 1, width: u - 2, height: u - 2, fill: "#56b4e9", "fill-opacity": 0.4, stroke: "#0072b2", "stroke-dasharray": "3 2" }));
  return thumb(n * u, n * u, parts);
}

/** A small still picture of a position, for the rules' worked examples (help.js):
 * the grid, the path and its numbers, the last number ringed, and the squares the
 * next number may take (dashed; a danger mark where it would knock the writer
 * out), all from the engine's view. Nothing in it can be clicked. */
export function example(view) {
  const b = view.board;
  const G = grid(b.size, { label: "Convoluted Coprimality example" });
  if (b.path.length > 1) G.line(b.path, { gap: 0.3 });
  b.grid.forEach((row, r) => row.forEach((value, c) => {
    if (value != null) G.text(squareName(r, c), String(value), { class: "num", size: value >= 100 ? 0.36 : 0.46 });
  }));
  for (const [sq, info] of Object.entries(view.is_over ? {} : b.targets ?? {})) {
    G.mark(sq, "legal", info.eliminates && "danger");
    G.text(sq, String(b.next_number), { class: "ghost", size: 0.4 });
    if (info.eliminates) G.text(sq, "⚠", { class: "warn", size: 0.32, dx: 0.3, dy: -0.3 });
  }
  if (b.last_square) {
    const p = G.center(b.last_square);
    G.layers.overlay.append(svg("circle", { class: "last-mark", cx: p.x, cy: p.y, r: G.unit * 0.42, "stroke-width": G.unit * 0.07 }));
  }
  return html("div", { class: "grid-game cc example-board" }, G.svg);
}
