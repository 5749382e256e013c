// A square-grid renderer shared by the grid games (Convoluted Coprimality,
// Enumeration, Multiplications). It draws cells, edge labels (column letters
// a, b, ... across the top, row numbers 1, 2, ... down the left, matching the
// engine's square names: a1 is the upper-left square) and gives the board code
// layers to draw into. It knows nothing of any game's rules.
//
// API
//   squareName(row, col) -> "c2" (0-based row and column)
//   parseSquare("c2") -> {row: 1, col: 2}
//   grid(n, {cell, labels, headers, label, className}) -> G
//     n ≤ 26; cell: side of a square in viewBox units (default 40); labels:
//     draw a.. / 1.. along the edges (default true); headers: style row 1 and
//     column a as header cells; label: the board's accessible name.
//   G.svg                    the <svg> (viewBox scaled to its container)
//   G.n, G.unit              squares per side, side of a square in viewBox units
//   G.layers.{cells, lines, text, overlay, badges}   drawing order, bottom to top;
//                            lines/text/overlay/badges ignore the pointer, so
//                            clicks reach the cells below
//   G.badge(sq, seat)        the seat's badge (seatBadge) in the square's corner
//   G.cell(sq)               the <g class="cell"> of a square (holds rect.cell-bg)
//   G.center(sq) -> {x, y};  G.rect(sq) -> {x, y, w, h}
//   G.text(sq, content, {class, size, dx, dy}) -> <text> centred in the square
//                            (size, dx, dy are fractions of a cell)
//   G.line(squares, {class, gap}) -> <path> joining the squares' centres in order
//                            (gap: stop that many cells short of each centre)
//   G.target(sq, opts)       make the square's cell a move target (see svg.js
//                            target(); adds the hover ring and the focus ring) -> the cell
//   G.mark(sq, ...classes)   add classes to the square's cell
//   G.label(sq, words)       a square that does not play: its words (svg.js describe())
//   G.add(layer, node)       append a node of the board's own to a layer -> node
//   G.square(sq, key, draw)  draw what one square shows with the calls above, kept
//   G.part(name, key, draw)  while its key stays the same: called again with a new
//                            key, what the last draw() made (texts, badges, rings,
//                            marks, target or words) is taken off first. A board that
//                            draws every square and board-wide item this way can be
//                            drawn again into the same G for the next view, and only
//                            what changed is touched (chessground's way: the <svg>,
//                            its cells and the focused target stay in the page).
//   G.settled()              at the end of a draw: cells that stopped playing leave the Tab order
//   G.ui(ui)                 the ui the targets act with from now on (each draw's);
//   G.act                    stands for it, for targets a board makes itself

import { svg, html, board, describe, leaveTabOrder, target, untarget, windowWidth } from "./svg.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

export function squareName(row, col) {
  return `${LETTERS[col]}${row + 1}`;
}

export function parseSquare(name) {
  return { row: Number(name.slice(1)) - 1, col: LETTERS.indexOf(name[0]) };
}

// The shell links a board's `styles`; link grid.css here too in case it has not
// (same-origin, so the CSP allows it), exactly once.
const CSS_URL = new URL("./grid.css", import.meta.url).href;
function ensureStyles() {
  if (typeof document === "undefined") return;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === CSS_URL)) return;
  document.head.append(html("link", { rel: "stylesheet", href: CSS_URL }));
}

// The parts of a grid that are the same on every board of its size (the edge
// labels, and each square's cell with its background and target rings), built
// once and deep-cloned for every render: one native clone instead of some
// thousand elements made and set one attribute at a time on each move.
const skeletons = new Map(); // "n/cell/labels/headers" -> {edge, cells}
const ringSets = new Map(); // cell -> the two rings of a target, at (0, 0)

function skeleton(n, cell, labels, headers, pad) {
  const key = `${n}/${cell}/${labels}/${headers}`;
  let kept = skeletons.get(key);
  if (!kept) {
    const cells = svg("g", { class: "cells" });
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        // (each cell is placed by its transform, so its rings are the same for every square)
        cells.append(svg("g", { class: ["cell", headers && (r === 0 || c === 0) && "header"], dataset: { square: squareName(r, c) }, transform: `translate(${pad + c * cell} ${pad + r * cell})` },
          svg("rect", { class: "cell-bg", width: cell, height: cell })));
      }
    }
    const edge = svg("g", { class: "edge-labels", "aria-hidden": "true" });
    if (labels) {
      const fs = cell * 0.36;
      for (let i = 0; i < n; i++) {
        edge.append(
          svg("text", { x: pad + (i + 0.5) * cell, y: pad * 0.5, "font-size": fs, "text-anchor": "middle", "dominant-baseline": "central" }, LETTERS[i]),
          svg("text", { x: pad * 0.5, y: pad + (i + 0.5) * cell, "font-size": fs, "text-anchor": "middle", "dominant-baseline": "central" }, String(i + 1)));
      }
    }
    kept = { edge, cells };
    skeletons.set(key, kept);
  }
  return { edge: kept.edge.cloneNode(true), cellsLayer: kept.cells.cloneNode(true) };
}

function rings(cell) {
  let set = ringSets.get(cell);
  if (!set) ringSets.set(cell, (set = targetRings(0, 0, cell, cell, cell)));
  return set.map((ring) => ring.cloneNode(true));
}

export function grid(n, { cell = 40, labels = true, headers = false, label = "Board", className = "" } = {}) {
  ensureStyles();
  const pad = labels ? Math.round(cell * 0.7) : 2;
  const width = pad + n * cell + 2;
  const root = board(width, width, { label, className: ["grid-board", n <= 6 && "small", className] });
  const { edge, cellsLayer } = skeleton(n, cell, labels, headers, pad);
  const layers = {
    cells: cellsLayer,
    lines: svg("g", { class: "lines" }),
    text: svg("g", { class: "cell-text" }),
    overlay: svg("g", { class: "overlay" }),
    badges: svg("g", { class: "badges", "aria-hidden": "true" }),
  };
  const cells = new Map();
  for (const g of cellsLayer.children) cells.set(g.dataset.square, g);
  const x0 = pad, y0 = pad;
  root.append(edge, layers.cells, layers.lines, layers.text, layers.overlay, layers.badges);

  // What each square and board-wide part drew, so the next draw can take it
  // off: name -> {key, nodes, marks: [[cell, classes]], targets, labels}.
  const scopes = new Map();
  const ringed = new WeakSet(); // cells holding a target's two rings
  let scope = null; // the one being drawn
  const made = (node) => {
    scope?.nodes.push(node);
    return node;
  };
  // (its texts are kept aside for the new draw's G.text, which takes them in
  // turn and changes only what differs: a move that changes the number shown
  // on every legal square changes their words, and makes and takes out nothing)
  const clear = (kept) => {
    for (const node of kept.nodes) if (node.localName !== "text") node.remove();
    for (const [el, classes] of kept.marks) el.classList.remove(...classes);
    for (const el of kept.labels) { el.removeAttribute("aria-label"); el.removeAttribute("role"); }
  };
  const redraw = (name, key, draw) => {
    const kept = scopes.get(name);
    if (kept && kept.key === key) return false;
    if (kept) clear(kept);
    scope = { key, nodes: [], marks: [], targets: [], labels: [], spare: kept ? kept.nodes.filter((node) => node.localName === "text") : [] };
    scopes.set(name, scope);
    try {
      draw();
    } finally {
      for (const node of scope.spare) node.remove(); // (texts the new draw did not use)
      // a target drawn again stays one (target() changes what it plays); one that
      // is not gives it up, its tabindex last (svg.js rovingFocus, or settled())
      for (const el of kept?.targets ?? []) {
        if (!scope.targets.includes(el)) {
          untarget(el, { keepTabindex: true });
          untargeted.add(el);
        }
      }
      scope = null;
    }
    return true;
  };
  const untargeted = new Set(); // cells that stopped playing, whose tabindex is still to take
  // targets act through the latest draw's ui (the game view makes one a draw)
  let currentUi = null;
  const ui = new Proxy({}, {
    get: (_, key) => currentUi?.[key],
    has: (_, key) => currentUi != null && key in currentUi,
  });

  const G = {
    svg: root,
    n,
    unit: cell,
    layers,
    cell: (sq) => cells.get(sq),
    rect(sq) {
      const { row, col } = parseSquare(sq);
      return { x: x0 + col * cell, y: y0 + row * cell, w: cell, h: cell };
    },
    center(sq) {
      const { row, col } = parseSquare(sq);
      return { x: x0 + (col + 0.5) * cell, y: y0 + (row + 0.5) * cell };
    },
    text(sq, content, { class: cls, size = 0.45, dx = 0, dy = 0 } = {}) {
      const p = G.center(sq);
      const attrs = { x: p.x + dx * cell, y: p.y + dy * cell, "font-size": +(size * cell).toFixed(2) };
      const again = scope?.spare.shift();
      if (again) {
        // a text the square drew last time, shown again with what differs changed
        const classes = (Array.isArray(cls) ? cls.flat(Infinity).filter(Boolean).join(" ") : cls) || null;
        if (again.getAttribute("class") !== classes) {
          if (classes) again.setAttribute("class", classes);
          else again.removeAttribute("class");
        }
        for (const [name, value] of Object.entries(attrs)) if (again.getAttribute(name) !== String(value)) again.setAttribute(name, value);
        if (again.textContent !== String(content)) again.textContent = content;
        return made(again);
      }
      const t = svg("text", { class: cls, ...attrs, "text-anchor": "middle", "dominant-baseline": "central" }, content);
      layers.text.append(made(t));
      return t;
    },
    line(squares, { class: cls = "path", gap = 0 } = {}) {
      // gap > 0: separate segments that stop `gap` cells short of each centre,
      // so the line joins the numbers without crossing them.
      const pts = squares.map((sq) => G.center(sq));
      let d = "";
      for (let i = 1; i < pts.length; i++) {
        const a = pts[i - 1], b = pts[i];
        const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const k = Math.min(gap * cell, len / 2 - 1) / len;
        const f = (v) => +v.toFixed(2);
        d += `M${f(a.x + (b.x - a.x) * k)} ${f(a.y + (b.y - a.y) * k)}L${f(b.x - (b.x - a.x) * k)} ${f(b.y - (b.y - a.y) * k)}`;
      }
      const l = svg("path", { class: cls, d, "stroke-width": +(cell * 0.12).toFixed(2) });
      layers.lines.append(made(l));
      return l;
    },
    add(layer, node) {
      layers[layer].append(made(node));
      return node;
    },
    label(sq, words) {
      const el = cells.get(sq);
      scope?.labels.push(el);
      return describe(el, words);
    },
    mark(sq, ...classes) {
      const el = cells.get(sq);
      const added = classes.filter(Boolean);
      el?.classList.add(...added);
      if (el) scope?.marks.push([el, added]);
      return el;
    },
    badge(sq, seat) {
      // whose mark this is, told by more than colour: the seat's number in the
      // seat's own shape, in the cell's lower-right corner, above every ring
      const p = G.center(sq);
      const g = seatBadge(p.x + cell * 0.31, p.y + cell * 0.31, cell * 0.17, seat);
      layers.badges.append(made(g));
      return g;
    },
    target(sq, opts) {
      const g = cells.get(sq);
      // (a cell keeps its rings once it has them: they show only on a target, grid.css)
      if (!ringed.has(g)) {
        g.append(...rings(cell));
        ringed.add(g);
      }
      const p = G.center(sq);
      scope?.targets.push(g);
      currentUi ??= opts.ui ?? null;
      return target(g, { ...opts, ...(opts.ui ? { ui } : {}), x: p.x, y: p.y });
    },
    /** After a draw: the cells that stopped playing leave the Tab order (done last,
     * so the browser works out the style once, svg.js untarget()). */
    settled() {
      for (const el of untargeted) if (!el.classList.contains("target")) leaveTabOrder(el);
      untargeted.clear();
    },
    square: (sq, key, draw) => redraw(sq, key, draw),
    part: (name, key, draw) => redraw(`:${name}`, key, draw),
    ui(next) {
      currentUi = next;
    },
    act: ui, // stands for the latest ui, for targets a board makes itself (svg.js target())
  };
  return G;
}

/** render() and update() for a grid board that can be drawn again in place:
 * `label(board)` its spoken name, `options` for grid(), `paint(G, view, ui)`
 * its squares, `frame(G, state, view)` the page around the grid, made once
 * (it sets state.toggle and anything else it keeps), and
 * `panel(root, state, view, ui)` the words around it, drawn every time.
 * update() draws the next view into a board render() made and answers false
 * when it cannot (another grid size), so the caller renders anew. */
export function keptGrid({ label, options = {}, paint, frame, panel }) {
  const drawn = new WeakMap(); // root element -> {G, view, toggle, parts}
  return {
    render(view, ui) {
      const G = grid(view.board.size, { ...options, label: label(view.board) });
      const state = { G, view, parts: {} };
      paint(G, view, ui);
      const root = frame(G, state, view);
      panel(root, state, view, ui);
      drawn.set(root, state);
      G.follow?.(view); // (a grid that scrolls in its own box keeps the move in view: scrollable())
      return root;
    },
    update(root, view, ui) {
      const state = drawn.get(root);
      if (!state || state.G.n !== view.board.size) return false;
      state.view = view;
      state.G.svg.setAttribute("aria-label", label(view.board));
      paint(state.G, view, ui);
      panel(root, state, view, ui);
      state.G.follow?.(view);
      return true;
    },
  };
}

/** The rings a target draws: the rounded `ring` (hover on a legal square) and
 *  the `focus-ring`, square-cornered, thick and on the cell's edge, so keyboard
 *  focus never looks like a board's rounded "last move" mark. */
export function targetRings(x, y, w, h, unit) {
  const inset = unit * 0.08, edge = unit * 0.06;
  return [
    svg("rect", { class: "ring", x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: inset }),
    svg("rect", { class: "focus-ring", x: x + edge, y: y + edge, width: w - 2 * edge, height: h - 2 * edge, "stroke-width": +(unit * 0.12).toFixed(2) }),
  ];
}

/** A seat's badge centred at (x, y) with radius r: its number (seat + 1) in a
 *  shape of its own (circle, square, diamond, triangle, then round again),
 *  filled with the seat's colour. */
export function seatBadge(x, y, r, seat) {
  const shapes = ["circle", "square", "diamond", "triangle"];
  const shape = shapes[seat % shapes.length];
  const f = (v) => +v.toFixed(2);
  const body = shape === "circle" ? svg("circle", { cx: f(x), cy: f(y), r: f(r) })
    : shape === "square" ? svg("rect", { x: f(x - r * 0.9), y: f(y - r * 0.9), width: f(r * 1.8), height: f(r * 1.8) })
    : shape === "diamond" ? svg("polygon", { points: [[x, y - r * 1.15], [x + r * 1.15, y], [x, y + r * 1.15], [x - r * 1.15, y]].map((q) => q.map(f).join(",")).join(" ") })
    : svg("polygon", { points: [[x, y - r * 1.25], [x + r * 1.2, y + r * 0.85], [x - r * 1.2, y + r * 0.85]].map((q) => q.map(f).join(",")).join(" ") });
  body.setAttribute("class", "badge-shape");
  return svg("g", { class: "seat-badge", dataset: { seat, shape } }, body,
    svg("text", { x: f(x), y: f(y + (shape === "triangle" ? r * 0.2 : 0)), "font-size": f(r * 1.25), "text-anchor": "middle", "dominant-baseline": "central" }, String(seat + 1)));
}

/** A seat's badge for a legend: a small <svg> of its own. */
export function badgeKey(seat) {
  const key = svg("svg", { class: "badge-key", viewBox: "0 0 20 20", "aria-hidden": "true" }, seatBadge(10, 10, 8, seat));
  return key;
}

// -- page furniture shared by the grid boards ---------------------------------

// Every square that plays is a tap target of at least TAP_PX CSS pixels a side
// (WCAG 2.2's minimum target size, SC 2.5.8), on any screen and in any frame:
// a grid never draws its squares smaller while it has targets; where its box is
// narrower than that, the grid scrolls in its own box, kept on the last move
// and the squares that play. "Zoom in" gives bigger squares still (minCell),
// remembered across redraws.
export const TAP_PX = 24;
let zoomed = false;

/** Wrap a board so that it scrolls in its own box rather than draw a square
 *  that plays under `tapCell` CSS pixels (24; Enumeration's squares, split in
 *  two halves, ask 48), with a toggle to zoom in to `minCell` pixels where the
 *  screen is narrower than that. `last(view)`: the square of the last move,
 *  which each draw keeps in view with the targets (G.follow(view), called by
 *  keptGrid). The svg's data-min-width is its tappable width (frame.js never
 *  shrinks a board with targets below it). -> [toggle, wrapper] */
export function scrollable(G, { minCell = 34, tapCell = TAP_PX, last = () => null } = {}) {
  const need = Math.ceil((G.n + 0.75) * minCell); // the labels take about three quarters of a square
  // (+0.01 of a square: rounding never leaves a square a hair under tapCell)
  const tap = Math.ceil((G.n + 0.76) * tapCell);
  G.svg.dataset.minWidth = String(tap);
  // (a screen narrower than that, less the page's margins: scroll instead of shrinking)
  const big = typeof window !== "undefined" && need > windowWidth() - 32;
  const wrap = html("div", { class: ["grid-scroll", big && "big", big && zoomed && "zoom"] }, G.svg);
  wrap.style.setProperty("--grid-min-width", `${need}px`); // (CSSOM: the CSP allows no style attributes)
  wrap.style.setProperty("--grid-tap-width", `${tap}px`);
  let shown = null; // the view last drawn
  const toggle = html("button", { type: "button", class: ["grid-zoom", big && "big"], "aria-pressed": String(zoomed) },
    zoomed ? "Zoom out" : "Zoom in");
  toggle.addEventListener("click", () => {
    zoomed = !zoomed;
    G.svg.style.maxWidth = ""; // (a frame's fit to its height, embed.js, is undone: the zoom sets the width)
    wrap.classList.toggle("zoom", zoomed);
    toggle.setAttribute("aria-pressed", String(zoomed));
    toggle.textContent = zoomed ? "Zoom out" : "Zoom in";
    // (zoomed in or out, the move stays in view: the layout is new on the next frame)
    if (shown) requestAnimationFrame(() => keepInView(wrap, G, last(shown)));
  });
  G.follow = (view) => {
    shown = view;
    requestAnimationFrame(() => keepInView(wrap, G, last(view)));
  };
  // (a box resized after the draw, a frame's fit to its height or a zoom, keeps the move in view too)
  if (typeof ResizeObserver === "function") new ResizeObserver(() => shown && keepInView(wrap, G, last(shown))).observe(wrap);
  return [toggle, wrap];
}

/** Scroll `wrap` (a grid's own box) as little as it takes to show the square
 *  `lastSquare` and, where they fit beside it, the squares that play now; a box
 *  that shows them already is left alone, so a tap never moves the board under
 *  the finger. */
export function keepInView(wrap, G, lastSquare) {
  if (!wrap.isConnected) return;
  const wide = wrap.scrollWidth > wrap.clientWidth + 1, tall = wrap.scrollHeight > wrap.clientHeight + 1;
  if (!wide && !tall) return;
  const box = wrap.getBoundingClientRect();
  const at = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left - box.left + wrap.scrollLeft, right: r.right - box.left + wrap.scrollLeft,
             top: r.top - box.top + wrap.scrollTop, bottom: r.bottom - box.top + wrap.scrollTop };
  };
  const lastCell = lastSquare ? G.cell(lastSquare) : null;
  const targets = [...G.svg.querySelectorAll("[data-move]")].map(at);
  const first = lastCell ? at(lastCell) : targets.shift();
  if (!first) return;
  // the last move, then each target in turn while the whole still fits the box
  const want = { ...first };
  for (const t of targets) {
    const grown = { left: Math.min(want.left, t.left), right: Math.max(want.right, t.right),
                    top: Math.min(want.top, t.top), bottom: Math.max(want.bottom, t.bottom) };
    if (grown.right - grown.left > wrap.clientWidth || grown.bottom - grown.top > wrap.clientHeight) continue;
    Object.assign(want, grown);
  }
  const scroll = (from, size, lo, hi) => (lo < from ? lo : hi > from + size ? hi - size : from);
  const left = wide ? scroll(wrap.scrollLeft, wrap.clientWidth, want.left, want.right) : wrap.scrollLeft;
  const top = tall ? scroll(wrap.scrollTop, wrap.clientHeight, want.top, want.bottom) : wrap.scrollTop;
  if (left !== wrap.scrollLeft || top !== wrap.scrollTop) wrap.scrollTo({ left, top, behavior: "instant" });
}

/** The seat names from a view ("Player 1", ...). */
export function seatName(view, seat) {
  return view.seats?.[seat]?.name ?? `Player ${seat + 1}`;
}
