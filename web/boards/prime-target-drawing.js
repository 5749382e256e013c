// Prime Target's target as a drawing: where the rings and wedges lie (radii,
// angles, the annular paths), a wedge's number fitted into it, the rays and the
// wedge numbers round the outside, and the two still pictures made from those
// alone, the thumbnail and a rules example. prime-target.js builds the board
// that plays on the same shapes; these parts keep nothing between drawings and
// play nothing, so they sit apart from the builder's state, palette and keys.

import { html as h, svg as s } from "./svg.js";

export const styles = ["round.css"];

export const SIZE = 500; // the viewBox is -SIZE…SIZE on both axes
const LABEL_MARGIN = 34; // room outside the target for the wedge numbers

/** Link this board's stylesheet once, if the shell has not already done so. */
export function ensureStyles() {
  for (const file of styles) {
    if (document.querySelector(`link[href$="${file}"]`)) continue;
    const url = new URL(file, import.meta.url).href;
    document.head.append(h("link", { rel: "stylesheet", href: url }));
  }
}

// -- geometry --------------------------------------------------------------------

/** Radii of the ring edges: ring i lies between edges[i] and edges[i + 1].
 * The centre ring is drawn wider than the others so its wedges, which are the
 * narrowest, still hold a two-digit number. */
export function ringEdges(ringCount, rays) {
  const outer = SIZE - LABEL_MARGIN;
  const hub = Math.min(70, 18 + rays * 3);
  const centreWeight = 1.6;
  const unit = (outer - hub) / (ringCount - 1 + centreWeight);
  const edges = [hub, hub + unit * centreWeight];
  for (let i = 1; i < ringCount; i++) edges.push(edges[i] + unit);
  return edges;
}

function point(r, degrees) {
  const a = (degrees * Math.PI) / 180;
  return [r * Math.sin(a), -r * Math.cos(a)];
}

const f = (n) => Number(n.toFixed(2));

/** Annular sector from angle a0 to a1 (degrees clockwise from the top ray). */
export function sectorPath(r0, r1, a0, a1) {
  const large = a1 - a0 > 180 ? 1 : 0;
  const [x0, y0] = point(r1, a0);
  const [x1, y1] = point(r1, a1);
  const [x2, y2] = point(r0, a1);
  const [x3, y3] = point(r0, a0);
  return `M${f(x0)} ${f(y0)}A${f(r1)} ${f(r1)} 0 ${large} 1 ${f(x1)} ${f(y1)}` +
    `L${f(x2)} ${f(y2)}A${f(r0)} ${f(r0)} 0 ${large} 0 ${f(x3)} ${f(y3)}Z`;
}

/** A wedge's number: horizontal where it fits, else turned to run along the
 * ring (never upside down). Returns the group, its text and its prime mark (a
 * pill drawn round the number, hidden until `prime` is set). */
export function wedgeLabel(r0, r1, a0, a1, digits, { prime = false } = {}) {
  const mid = (a0 + a1) / 2;
  const rm = (r0 + r1) / 2;
  const depth = r1 - r0;
  const arc = (rm * ((a1 - a0) * Math.PI)) / 180;
  const perChar = 0.6 * Math.max(2, digits) + 0.35;
  const rad = (mid * Math.PI) / 180;
  // Room for a horizontal line through the wedge's middle: the ring's depth
  // near 3 and 9 o'clock, the arc near 12 and 6.
  const across = Math.min(depth / Math.max(1e-6, Math.abs(Math.sin(rad))), arc / Math.max(1e-6, Math.abs(Math.cos(rad))));
  const cap = Math.min(depth * 0.6, 46);
  const flat = Math.min(cap, (across * 0.9) / perChar);
  const along = Math.min(cap, (arc * 0.88) / perChar);
  const turn = flat < 0.8 * along;
  const font = f(Math.max(8, turn ? along : flat));
  let rotate = 0;
  if (turn) rotate = mid > 90 && mid < 270 ? mid - 180 : mid;
  const [x, y] = point(rm, mid);
  const width = font * (0.6 * Math.max(1, digits) + 0.55);
  const height = Math.min(font * 1.35, depth * 0.92);
  const mark = s("rect", {
    class: prime ? "pt-prime-mark" : "pt-prime-mark off",
    x: f(-width / 2), y: f(-height / 2), width: f(width), height: f(height), rx: f(height / 2),
  });
  const text = s("text", { class: "pt-value", x: 0, y: 0, "font-size": font, "dominant-baseline": "central", "text-anchor": "middle" });
  const group = s("g", { transform: `translate(${f(x)} ${f(y)})${rotate ? ` rotate(${f(rotate)})` : ""}` }, mark, text);
  return { group, text, mark, font };
}

/** The rays and the wedge numbers outside the target, so notation can be read
 * off, and the hub, appended to `layer`. */
export function raysAndNumbers(layer, edges, rays, step) {
  const outer = edges.at(-1);
  for (let w = 1; w <= rays; w++) {
    const [x, y] = point(outer, (w - 1) * step);
    const [hx, hy] = point(edges[0], (w - 1) * step);
    layer.append(s("line", { class: w === 1 ? "pt-ray top" : "pt-ray", x1: f(hx), y1: f(hy), x2: f(x), y2: f(y) }));
    const [lx, ly] = point(outer + LABEL_MARGIN * 0.52, (w - 0.5) * step);
    layer.append(s("text", { class: "pt-wedge-number", x: f(lx), y: f(ly), "font-size": 30, "dominant-baseline": "central", "text-anchor": "middle" }, String(w)));
  }
  layer.append(s("circle", { class: "pt-hub", cx: 0, cy: 0, r: f(edges[0]) }));
}

// -- still pictures: the thumbnail and a rules example --------------------------

export function thumbnail() {
  const rays = 6;
  const edges = [10, 26, 38, 50];
  const step = 360 / rays;
  const values = [[3, 1, 4, 6, 2, 5], [4, 5, 2, 8, 7, 8], [1, 7, 10, 1, 15, 12]];
  const circled = [[], [false, true, true, false, true, false], [false, true, false, false, false, false]];
  ensureStyles();
  const svg = s("svg", { class: "pt-thumb round-board", viewBox: "-54 -54 108 108", "aria-hidden": "true" });
  for (let ring = 0; ring < 3; ring++) {
    for (let w = 1; w <= rays; w++) {
      const a0 = (w - 1) * step;
      const [tx, ty] = point((edges[ring] + edges[ring + 1]) / 2, a0 + step / 2);
      const v = values[ring][w - 1];
      const prime = Boolean(circled[ring][w - 1]);
      svg.append(s("path", { class: `pt-wedge ${ring ? "ring done seat-" + (ring - 1) : "centre"}`, d: sectorPath(edges[ring], edges[ring + 1], a0, a0 + step) }));
      if (prime) svg.append(s("circle", { class: "pt-prime-mark", cx: f(tx), cy: f(ty), r: 5 }));
      svg.append(s("text", { class: "pt-value", x: f(tx), y: f(ty), "font-size": 7, "text-anchor": "middle", "dominant-baseline": "central" }, String(v)));
    }
  }
  return svg;
}

/** A small still picture of a position, for the rules' worked examples (help.js):
 * every ring with its numbers (primes ringed in the rings that scored, each ring
 * in the colour of the player who completed it), the wedge numbers round the
 * outside and the top line marked, from the engine's view. Nothing can be
 * clicked, and it keeps nothing between drawings (unlike prime-target.js's render). */
export function example(view) {
  ensureStyles();
  const b = view.board;
  const edges = ringEdges(b.ring_count, b.rays);
  const step = 360 / b.rays;
  const scored = new Map(b.ring_scores.map((rs) => [rs.ring, rs]));
  const wedges = s("g", { class: "pt-wedges" });
  const texts = s("g", { class: "pt-texts" });
  for (let ring = 0; ring < b.ring_count; ring++) {
    const values = b.rings[ring] ?? null;
    const score = scored.get(ring);
    const digits = Math.max(2, ...(values ?? []).map((v) => String(v ?? "").length));
    for (let w = 1; w <= b.rays; w++) {
      const a0 = (w - 1) * step, a1 = w * step;
      const value = values ? values[w - 1] : null;
      const classes = ["pt-wedge", ring === 0 ? "centre" : "ring", score && `done seat-${score.seat}`, value == null && "empty"];
      wedges.append(s("path", { class: classes.filter(Boolean).join(" "), d: sectorPath(edges[ring], edges[ring + 1], a0, a1) }));
      const { group, text } = wedgeLabel(edges[ring], edges[ring + 1], a0, a1, digits, { prime: Boolean(score?.primes[w - 1]) });
      if (value != null) text.textContent = String(value);
      texts.append(group);
    }
  }
  raysAndNumbers(texts, edges, b.rays, step);
  const picture = s("svg", { class: "pt-svg", viewBox: `${-SIZE} ${-SIZE} ${2 * SIZE} ${2 * SIZE}` }, wedges, texts);
  return h("div", { class: "pt-board round-board example-board" }, picture);
}
