// Pictures of a game: the position shown as a standalone SVG drawing, the
// same as a PNG, and the main line up to it as an animated GIF. One job:
// position in, file out; the buttons are in share.js, the position comes from
// GameView.shown().
//
// How a picture is drawn: the position is laid out off screen with the page's
// own stylesheets (the game's name, the credit, the seats and scores, where
// the game is, the board drawn by the game's own board module with a ui that
// plays nothing, and the comment), and that layout is then written out as
// SVG: each box's background and borders as rectangles, each line of text as
// an SVG <text> at the place the browser put it, and the board's own SVG
// copied with every style the page gives it written in as attributes. So the
// picture looks like the page (light or dark, whichever the page shows) and
// stands alone: no stylesheet, no font file, no script, nothing from outside.
// Text always goes in as text (escaped), never as markup: a comment shows as
// typed.
//
// A PNG is that SVG drawn on a canvas through an <img> of a data: URL (the
// pages' CSP allows data: images for this); a GIF is one such frame per
// move, asked of the engine with the bridge call "at", encoded by gifenc
// (vendor/gifenc.esm.js, MIT, loaded only when a GIF is made).
//
// API
//   pictureSvg(shown, {width})  -> {svg, width, height, background}
//   picturePng(shown, {width, scale}) -> {blob, width, height}   (pixels)
//   pictureGif(shown, {width, onFrame, signal}) -> {blob, width, height, frames}
//   fileName(shown, ext) -> "prime-target-move-12.png"
//   shown: {view, comment, moveWords, gameName, renderer, record, ply, plies, line, engine}
//   (GameView.shown(); line: the side line shown, {index, n, from}, or null)

import { h } from "./dom.js";
import { seatName } from "./handover.js";

export const WIDTH = 640; // CSS pixels across a picture's layout
export const PNG_SCALE = 2; // pixels per CSS pixel in a PNG: sharp on a phone or in print
export const GIF_WIDTH = 560; // an animation is drawn smaller, one pixel per CSS pixel, to stay light
export const GIF_DELAY = 900; // ms each move stays on screen
export const GIF_LAST_DELAY = 3000; // ms on the last position before the loop starts again

const SVG_NS = "http://www.w3.org/2000/svg";

// -- the position, laid out off screen --------------------------------------------

/** A ui for the board module that plays nothing; its previews (a board may ask
 * the engine what a move would show) are answered and waited for. */
function stillUi(view, engine, pending) {
  return {
    seat: null,
    replaying: true,
    play: async () => false,
    explain: () => {},
    confirm: async () => false,
    preview: (move) => {
      const asked = engine
        ? engine.request("preview", { record: view.record, move: String(move) }, { retry: true })
        : Promise.reject(new Error("a picture asks no previews"));
      pending.add(asked);
      asked.catch(() => {}).finally(() => pending.delete(asked));
      return asked;
    },
  };
}

/** Where the position is in the game, in words. */
function whereWords({ ply, plies, line, moveWords }) {
  const move = moveWords ? `: ${moveWords}` : "";
  if (line) return `Side line instead of move ${line.from + 1}, move ${line.n}${move}`;
  if (ply === 0) return `The start (${plies} ${plies === 1 ? "move" : "moves"} in the game)`;
  return `After move ${ply} of ${plies}${move}`;
}

/** The picture as page elements, in a box off screen (removed by the caller). */
function stage(shown, width) {
  const { view } = shown;
  const pending = new Set();
  const board = shown.renderer.render(view, stillUi(view, shown.engine, pending));
  // (nothing in a picture plays, even if a board made a target regardless)
  for (const el of board.querySelectorAll("[data-move], [data-try]")) {
    el.removeAttribute("data-move");
    el.removeAttribute("data-try");
  }
  const seats = h("ol", { class: "seats picture-seats" }, view.seats.map((_, i) => {
    const won = view.winners.includes(i);
    const toMove = !view.is_over && view.to_move.includes(i);
    return h("li", { class: [won ? "winner" : "", toMove ? "to-move" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i } }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      h("span", { class: "score" }, view.standing ? String(view.standing[i]) : String(view.scores[i] ?? 0)),
      won ? h("span", { class: "picture-won" }, "winner") : null);
  }));
  const inventor = view.inventor || "Leroy Quet";
  const box = h("div", { class: "picture-stage", "aria-hidden": "true", inert: true },
    h("div", { class: "picture-head", dataset: { part: "title" } },
      h("p", { class: "picture-title" }, shown.gameName || view.name),
      h("p", { class: "picture-credit" }, `a game by ${inventor}`)),
    seats,
    h("p", { class: "picture-where", dataset: { part: "where" } }, whereWords(shown)),
    h("p", { class: "status picture-status" }, view.status),
    h("div", { class: "board picture-board", dataset: { part: "board" } }, board),
    shown.comment ? h("p", { class: "move-comment picture-comment", dataset: { part: "comment" } }, shown.comment) : null,
    h("p", { class: "picture-foot" }, `Quet Games · ${shown.gameName || view.name}, a game by ${inventor}`));
  box.style.width = `${width}px`; // (CSSOM: the CSP allows no style attributes)
  document.body.append(box);
  return { box, pending };
}

/** Wait until the board's asks of the engine are answered and drawn. */
async function settle(pending) {
  for (let round = 0; round < 8 && pending.size; round++) await Promise.allSettled([...pending]);
  await new Promise((resolve) => setTimeout(resolve, 0));
}

// -- writing SVG ---------------------------------------------------------------------

// characters XML 1.0 cannot hold at all, and halves of broken surrogate pairs
const NOT_XML = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function esc(text) {
  return String(text).replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const num = (n) => String(Math.round(n * 100) / 100);

function tag(name, attrs, inner = null) {
  const list = Object.entries(attrs).filter(([, v]) => v != null && v !== "").map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return inner == null ? `<${name}${list}/>` : `<${name}${list}>${inner}</${name}>`;
}

// Colours as #rrggbb and an opacity: what every SVG reader understands
// (computed styles may say color(srgb …) or color-mix(…)).
let probe = null;
const colours = new Map();

function colour(value) {
  if (colours.has(value)) return colours.get(value);
  let found = null;
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  const srgb = /^color\(srgb\s+([-\d.e]+)\s+([-\d.e]+)\s+([-\d.e]+)(?:\s*\/\s*([\d.]+%?))?\s*\)$/.exec(value);
  const alpha = (a) => (a == null ? 1 : a.endsWith("%") ? Number(a.slice(0, -1)) / 100 : Number(a));
  if (rgb) found = { r: +rgb[1], g: +rgb[2], b: +rgb[3], a: alpha(rgb[4]) };
  else if (srgb) found = { r: +srgb[1] * 255, g: +srgb[2] * 255, b: +srgb[3] * 255, a: alpha(srgb[4]) };
  else if (value && value !== "none" && !value.startsWith("url(")) {
    // anything else (oklab, a keyword): let a canvas paint one pixel of it
    probe ??= document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = "#000";
    probe.fillStyle = value;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
    found = { r, g, b, a: a / 255 };
  }
  if (found) {
    const hex = [found.r, found.g, found.b].map((c) => Math.max(0, Math.min(255, Math.round(c))).toString(16).padStart(2, "0")).join("");
    found = { hex: `#${hex}`, a: Math.max(0, Math.min(1, found.a)) };
  }
  colours.set(value, found);
  return found;
}

/** Paint attributes for `name` ("fill", "stroke") from a computed value and an opacity. */
function paint(name, value, opacity = 1) {
  const url = /url\(\s*["']?(#[^"')]+)["']?\s*\)/.exec(value);
  if (url) return { [name]: `url(${url[1]})`, [`${name}-opacity`]: opacity < 1 ? num(opacity) : null };
  const c = colour(value);
  if (!c || c.a === 0) return { [name]: "none" };
  const a = c.a * opacity;
  return { [name]: c.hex, [`${name}-opacity`]: a < 0.999 ? num(a) : null };
}

const px = (value) => Number.parseFloat(value) || 0;

// Font metrics (ascent and descent), to put a line's baseline where the page put it.
const metrics = new Map();
function fontMetrics(font) {
  if (!metrics.has(font)) {
    probe ??= document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    probe.font = font;
    const m = probe.measureText("Hg");
    const ascent = m.fontBoundingBoxAscent ?? m.actualBoundingBoxAscent;
    const descent = m.fontBoundingBoxDescent ?? m.actualBoundingBoxDescent;
    metrics.set(font, { ascent, descent, measure: (text) => { probe.font = font; return probe.measureText(text).width; } });
  }
  return metrics.get(font);
}

const fontOf = (style) => `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;

/** The drawing of one page element and everything in it. */
class Drawing {
  constructor(box) {
    const r = box.getBoundingClientRect();
    this.left = r.left;
    this.top = r.top;
    this.right = r.width; // how far the drawing reaches (a board may be wider than the box)
    this.bottom = r.height;
    this.family = getComputedStyle(box).fontFamily;
    this.range = document.createRange();
  }

  /** x, y, width, height of a client rectangle, in the picture's coordinates. */
  place(rect) {
    const x = rect.left - this.left, y = rect.top - this.top;
    this.right = Math.max(this.right, x + rect.width);
    this.bottom = Math.max(this.bottom, y + rect.height);
    return { x, y, w: rect.width, h: rect.height };
  }

  element(el) {
    const style = getComputedStyle(el);
    if (style.display === "none" || SKIPPED.has(el.localName) || visuallyHidden(el, style)) return "";
    const shown = style.visibility === "visible";
    const opacity = Number(style.opacity);
    if (opacity === 0) return "";
    const parts = [];
    if (shown && style.display !== "contents") parts.push(this.box(el, style));
    if (el instanceof SVGSVGElement) {
      if (shown) parts.push(this.svg(el, style));
    } else {
      if (shown) parts.push(this.pseudo(el, "::before"));
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (shown) parts.push(this.text(child, style));
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          parts.push(this.element(child));
        }
      }
      if (shown) parts.push(this.pseudo(el, "::after"));
    }
    const inner = parts.join("");
    const part = el.dataset?.part;
    if (!inner) return "";
    if (opacity < 1 || part) return tag("g", { id: part ?? null, opacity: opacity < 1 ? num(opacity) : null }, inner);
    return inner;
  }

  /** A box's background, shadow ring, borders and outline. */
  box(el, style) {
    const rects = el.getClientRects();
    if (rects.length !== 1) return ""; // an inline box over several lines: only its text is drawn
    const { x, y, w, h: height } = this.place(rects[0]);
    if (w === 0 || height === 0) return "";
    const out = [];
    const radius = (inset = 0) => {
      const value = style.borderTopLeftRadius.split(" ")[0];
      const r = value.endsWith("%") ? (px(value) / 100) * Math.min(w, height) : px(value);
      return Math.max(0, Math.min(r, w / 2, height / 2) - inset);
    };
    const back = paint("fill", style.backgroundColor);
    if (back.fill !== "none") out.push(tag("rect", { x: num(x), y: num(y), width: num(w), height: num(height), rx: num(radius()), ...back }));
    // a ring drawn as a box-shadow with no blur (a seat's "to move" ring)
    for (const shadow of style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\))/)) {
      const lengths = [...shadow.matchAll(/(-?[\d.]+)px/g)].map((m) => Number(m[1]));
      const colourText = /(rgba?\([^)]*\)|color\([^)]*\))/.exec(shadow)?.[1];
      const [dx = 0, dy = 0, blur = 0, spread = 0] = lengths;
      if (!colourText || dx || dy || blur || spread <= 0) continue;
      const inset = /\binset\b/.test(shadow) ? spread / 2 : -spread / 2;
      out.push(tag("rect", { x: num(x + inset), y: num(y + inset), width: num(w - 2 * inset), height: num(height - 2 * inset), rx: num(radius(inset)), fill: "none", ...paint("stroke", colourText), "stroke-width": num(spread) }));
    }
    const sides = ["Top", "Right", "Bottom", "Left"].map((side) => ({
      width: px(style[`border${side}Width`]), kind: style[`border${side}Style`], colour: style[`border${side}Color`],
    }));
    const drawn = (s) => s.width > 0 && s.kind !== "none" && s.kind !== "hidden";
    const dashes = (s) => (s.kind === "dashed" ? `${num(s.width * 3)} ${num(s.width * 2)}` : s.kind === "dotted" ? `${num(s.width)} ${num(s.width)}` : null);
    const same = sides.every((s) => s.width === sides[0].width && s.kind === sides[0].kind && s.colour === sides[0].colour);
    if (same && drawn(sides[0])) {
      const s = sides[0], half = s.width / 2;
      out.push(tag("rect", { x: num(x + half), y: num(y + half), width: num(w - s.width), height: num(height - s.width), rx: num(radius(half)), fill: "none", ...paint("stroke", s.colour), "stroke-width": num(s.width), "stroke-dasharray": dashes(s) }));
    } else {
      const [top, right, bottom, left] = sides;
      const line = (s, x1, y1, x2, y2) => drawn(s) && out.push(tag("line", { x1: num(x1), y1: num(y1), x2: num(x2), y2: num(y2), ...paint("stroke", s.colour), "stroke-width": num(s.width), "stroke-dasharray": dashes(s) }));
      line(top, x, y + top.width / 2, x + w, y + top.width / 2);
      line(bottom, x, y + height - bottom.width / 2, x + w, y + height - bottom.width / 2);
      line(left, x + left.width / 2, y, x + left.width / 2, y + height);
      line(right, x + w - right.width / 2, y, x + w - right.width / 2, y + height);
    }
    const ow = px(style.outlineWidth);
    if (ow > 0 && style.outlineStyle !== "none") {
      const off = px(style.outlineOffset) + ow / 2;
      out.push(tag("rect", { x: num(x - off), y: num(y - off), width: num(w + 2 * off), height: num(height + 2 * off), rx: num(radius(-off)), fill: "none", ...paint("stroke", style.outlineColor), "stroke-width": num(ow), "stroke-dasharray": dashes({ width: ow, kind: style.outlineStyle }) }));
    }
    return out.join("");
  }

  /** A text node, one <text> per line as the page broke it. */
  text(node, style) {
    const data = node.data;
    if (!/\S/.test(data)) return "";
    const range = this.range;
    const lines = [];
    const add = (start, end, rect) => {
      const last = lines.at(-1);
      if (last && Math.abs(last.rect.top - rect.top) < 1 && rect.left >= last.right - 1) {
        last.end = end;
        last.right = rect.right;
      } else {
        lines.push({ start, end, rect, right: rect.right });
      }
    };
    const rectsOf = (start, end) => {
      range.setStart(node, start);
      range.setEnd(node, end);
      return [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    };
    for (const word of data.matchAll(/\S+/g)) {
      const rects = rectsOf(word.index, word.index + word[0].length);
      if (rects.length === 1) add(word.index, word.index + word[0].length, rects[0]);
      else if (rects.length > 1) {
        // a word broken over lines: letter by letter
        for (let i = word.index; i < word.index + word[0].length; i++) {
          const [rect] = rectsOf(i, i + 1);
          if (rect) add(i, i + 1, rect);
        }
      }
    }
    const font = fontOf(style);
    const { ascent, descent } = fontMetrics(font);
    const keep = /^pre|break-spaces/.test(style.whiteSpace);
    const ink = paint("fill", style.color);
    const size = px(style.fontSize);
    const decoration = style.textDecorationLine;
    const out = [];
    for (const line of lines) {
      let words = data.slice(line.start, line.end).replace(/\n/g, "");
      if (!keep) words = words.replace(/\s+/g, " ");
      if (style.textTransform === "uppercase") words = words.toUpperCase();
      else if (style.textTransform === "lowercase") words = words.toLowerCase();
      const { x, y, h: height } = this.place({ left: line.rect.left, top: line.rect.top, width: line.right - line.rect.left, height: line.rect.height });
      const baseline = y + (height - ascent - descent) / 2 + ascent;
      out.push(tag("text", {
        x: num(x), y: num(baseline), "font-size": num(size),
        "font-family": style.fontFamily === this.family ? null : style.fontFamily,
        "font-weight": style.fontWeight === "400" ? null : style.fontWeight,
        "font-style": style.fontStyle === "normal" ? null : style.fontStyle,
        "xml:space": keep ? "preserve" : null,
        ...ink,
      }, esc(words)));
      for (const [kind, at] of [["line-through", baseline - size * 0.3], ["underline", baseline + size * 0.12]]) {
        if (decoration.includes(kind)) out.push(tag("line", { x1: num(x), y1: num(at), x2: num(x + line.right - line.rect.left), y2: num(at), ...paint("stroke", style.color), "stroke-width": num(Math.max(1, size / 14)) }));
      }
    }
    return out.join("");
  }

  /** Generated text (CSS ::before / ::after content, such as a ★ after a number that scored). */
  pseudo(el, which) {
    const style = getComputedStyle(el, which);
    const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(style.content ?? "");
    if (!quoted || style.display === "none" || style.visibility !== "visible") return "";
    const words = quoted[1].replace(/\\(.)/g, "$1");
    if (!words.trim()) return "";
    this.range.selectNodeContents(el);
    const rects = [...this.range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    const font = fontOf(style);
    const { ascent, descent, measure } = fontMetrics(font);
    let rect = which === "::after" ? rects.at(-1) : rects[0];
    if (!rect) {
      const own = el.getBoundingClientRect();
      rect = { left: own.left + px(style.paddingLeft), right: own.left + px(style.paddingLeft), top: own.top, height: own.height };
    }
    const width = measure(words);
    const left = which === "::after" ? rect.right : rect.left - width;
    const { x, y, h: height } = this.place({ left, top: rect.top, width, height: rect.height });
    return tag("text", {
      x: num(x), y: num(y + (height - ascent - descent) / 2 + ascent), "font-size": num(px(style.fontSize)),
      "font-weight": style.fontWeight === "400" ? null : style.fontWeight, ...paint("fill", style.color),
    }, esc(words));
  }

  /** An <svg> of the board, placed where the page put it, its styles written in. */
  svg(el, style) {
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) return "";
    const { x, y, w, h: height } = this.place(rect);
    // (its content box: a border or padding around the drawing)
    const bl = px(style.borderLeftWidth) + px(style.paddingLeft), bt = px(style.borderTopWidth) + px(style.paddingTop);
    const br = px(style.borderRightWidth) + px(style.paddingRight), bb = px(style.borderBottomWidth) + px(style.paddingBottom);
    return tag("svg", {
      x: num(x + bl), y: num(y + bt), width: num(w - bl - br), height: num(height - bt - bb),
      viewBox: el.getAttribute("viewBox"), preserveAspectRatio: el.getAttribute("preserveAspectRatio"),
      overflow: style.overflow === "visible" ? "visible" : null,
    }, [...el.childNodes].map((child) => svgNode(child, this.family)).join(""));
  }
}

// Page elements never drawn in a picture: controls (a picture plays nothing)
// and what only a browser shows.
const SKIPPED = new Set(["button", "input", "select", "textarea", "summary", "script", "style", "template", "dialog", "progress"]);

/** The page's "visually hidden" words for screen readers: not in a picture. */
function visuallyHidden(el, style) {
  if (style.clipPath === "inset(50%)") return true;
  return style.position === "absolute" && style.overflow === "hidden" && el.offsetWidth <= 1 && el.offsetHeight <= 1;
}

// Attributes of a board's SVG that only the page needs.
const DROPPED = /^(class|style|role|tabindex|focusable|aria-.*|data-.*|on.*)$/;
const SHAPES = new Set(["path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "use"]);
const TEXTS = new Set(["text", "tspan", "textPath"]);

/** One node of a board's SVG, with the computed styles that paint it as attributes. */
function svgNode(node, family) {
  if (node.nodeType === Node.TEXT_NODE) return TEXTS.has(node.parentNode?.localName) ? esc(node.data) : "";
  if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== SVG_NS) return "";
  const name = node.localName;
  if (name === "title" || name === "desc" || name === "script" || name === "style" || name === "foreignObject") return "";
  const style = getComputedStyle(node);
  if (style.display === "none") return "";
  const attrs = {};
  for (const { name: key, value } of node.attributes) if (!DROPPED.test(key)) attrs[key] = value;
  const opacity = Number(style.opacity);
  if (opacity < 1) attrs.opacity = num(opacity);
  if (SHAPES.has(name)) {
    if (style.visibility !== "visible") return "";
    Object.assign(attrs, paint("fill", style.fill, Number(style.fillOpacity)));
    Object.assign(attrs, paint("stroke", style.stroke, Number(style.strokeOpacity)));
    if (attrs.stroke !== "none") {
      attrs["stroke-width"] = num(px(style.strokeWidth));
      if (style.strokeDasharray !== "none") attrs["stroke-dasharray"] = style.strokeDasharray.split(/[\s,]+/).map(px).map(num).join(" ");
      if (style.strokeLinecap !== "butt") attrs["stroke-linecap"] = style.strokeLinecap;
      if (style.strokeLinejoin !== "miter") attrs["stroke-linejoin"] = style.strokeLinejoin;
    } else {
      for (const key of ["stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "stroke-opacity"]) delete attrs[key];
    }
    if (style.fillRule !== "nonzero") attrs["fill-rule"] = style.fillRule;
    if (style.paintOrder && style.paintOrder !== "normal") attrs["paint-order"] = style.paintOrder;
    if (TEXTS.has(name)) {
      attrs["font-size"] = num(px(style.fontSize));
      if (style.fontFamily !== family) attrs["font-family"] = style.fontFamily;
      if (style.fontWeight !== "400") attrs["font-weight"] = style.fontWeight;
      if (style.fontStyle !== "normal") attrs["font-style"] = style.fontStyle;
      if (style.textAnchor !== "start") attrs["text-anchor"] = style.textAnchor;
      if (style.dominantBaseline !== "auto") attrs["dominant-baseline"] = style.dominantBaseline;
    }
  }
  const inner = [...node.childNodes].map((child) => svgNode(child, family)).join("");
  return tag(name, attrs, inner || (SHAPES.has(name) && !TEXTS.has(name) ? null : ""));
}

// -- pictures --------------------------------------------------------------------------

/** The position `shown` as a standalone SVG document: {svg, width, height, background}. */
export async function pictureSvg(shown, { width = WIDTH } = {}) {
  const { box, pending } = stage(shown, width);
  try {
    await settle(pending);
    const drawing = new Drawing(box);
    const inner = drawing.element(box);
    const style = getComputedStyle(box);
    // (a board wider than the box, such as a big grid at its tappable size, widens the picture)
    const w = Math.ceil(drawing.right > width + 0.5 ? drawing.right + px(style.paddingRight) : width);
    const hgt = Math.ceil(drawing.bottom);
    const background = colour(style.backgroundColor)?.hex ?? "#ffffff";
    const title = `${shown.gameName || shown.view.name}, a game by ${shown.view.inventor || "Leroy Quet"}: ${whereWords(shown)}`;
    const svg = `<?xml version="1.0" encoding="UTF-8"?>\n`
      + `<svg xmlns="${SVG_NS}" version="1.1" width="${w}" height="${hgt}" viewBox="0 0 ${w} ${hgt}" font-family="${esc(drawing.family)}">`
      + `${tag("title", {}, esc(title))}${tag("rect", { width: w, height: hgt, fill: background })}${inner}</svg>\n`;
    return { svg, width: w, height: hgt, background };
  } finally {
    box.remove();
  }
}

/** An SVG picture drawn on a canvas of `width` × `height` CSS pixels (its own
 * size unless told), `scale` pixels each; room beyond it gets its background. */
async function rasterise(picture, { scale = 1, width = picture.width, height = picture.height } = {}) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(picture.svg)}`;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.fillStyle = picture.background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, Math.round(picture.width * scale), Math.round(picture.height * scale));
  return { canvas, context };
}

/** The position `shown` as a PNG: {blob, width, height} (in pixels). */
export async function picturePng(shown, { width = WIDTH, scale = PNG_SCALE } = {}) {
  const { canvas } = await rasterise(await pictureSvg(shown, { width }), { scale });
  const blob = await new Promise((resolve, reject) => canvas.toBlob((made) => (made ? resolve(made) : reject(new Error("the browser could not make a PNG"))), "image/png"));
  return { blob, width: canvas.width, height: canvas.height };
}

/** The moves of the main line up to the position shown (or, in a side line, up
 * to where it leaves the main line), one frame a move: {blob, width, height,
 * frames}. onFrame(step, done, total) says how far it is (step: "drawing",
 * then "encoding"); an aborted `signal` stops it. */
export async function pictureGif(shown, { width = GIF_WIDTH, onFrame = null, signal = null } = {}) {
  const { GIFEncoder, quantize, applyPalette } = await import("./vendor/gifenc.esm.js");
  const last = shown.line ? shown.line.from : shown.ply;
  const frames = [];
  const stopped = () => {
    if (signal?.aborted) throw new DOMException("the animation was stopped", "AbortError");
  };
  for (let ply = 0; ply <= last; ply++) {
    stopped();
    const at = await shown.engine.request("at", { record: shown.record, ply }, { retry: true });
    const mover = ply > 0 ? at.view.moves?.[ply - 1] : null;
    const moveWords = mover ? `${seatName(at.view, mover.seat)}: ${mover.words}` : null;
    frames.push(await pictureSvg({ ...shown, view: at.view, comment: at.comment ?? null, moveWords, ply, line: null }, { width }));
    onFrame?.("drawing", ply + 1, last + 1);
  }
  // one size for every frame: the tallest; the others get the background below
  const height = Math.max(...frames.map((frame) => frame.height));
  const wide = Math.max(...frames.map((frame) => frame.width));
  const gif = GIFEncoder();
  let before = null; // the last frame's pixels
  for (const [i, frame] of frames.entries()) {
    stopped();
    const { context } = await rasterise(frame, { width: wide, height });
    const { data } = context.getImageData(0, 0, wide, height);
    const delay = i === frames.length - 1 ? GIF_LAST_DELAY : GIF_DELAY;
    if (!before) {
      const palette = quantize(data, 256);
      gif.writeFrame(applyPalette(data, palette), wide, height, { palette, delay, repeat: 0 });
    } else {
      // A move changes a few squares: every pixel the same as in the frame
      // before is left transparent over it (kept: dispose 1), and long runs of
      // one index cost LZW next to nothing (21 frames of a grid game: 148 kB,
      // not 889 kB; a game whose every move shifts the layout gains little).
      const palette = quantize(data, 255);
      const clear = palette.length;
      palette.push(palette[0]);
      const index = applyPalette(data, palette.slice(0, clear));
      const words = new Uint32Array(data.buffer), old = new Uint32Array(before.buffer);
      for (let p = 0; p < index.length; p++) if (words[p] === old[p]) index[p] = clear;
      gif.writeFrame(index, wide, height, { palette, delay, transparent: true, transparentIndex: clear, dispose: 1 });
    }
    before = data;
    onFrame?.("encoding", i + 1, frames.length);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the page stays responsive between frames
  }
  gif.finish();
  return { blob: new Blob([gif.bytes()], { type: "image/gif" }), width: wide, height, frames: frames.length };
}

/** A file name for a picture of `shown`: "prime-target-move-12.png",
 * "prime-target-line-1-move-2.svg", "prime-target-moves-0-12.gif". */
export function fileName(shown, ext) {
  const game = String(shown.view.game || "game").replace(/[^a-z0-9-]+/gi, "-");
  if (ext === "gif") return `${game}-moves-0-${shown.line ? shown.line.from : shown.ply}.gif`;
  if (shown.line) return `${game}-line-${shown.line.index + 1}-move-${shown.line.n}.${ext}`;
  return `${game}-move-${shown.ply}.${ext}`;
}
