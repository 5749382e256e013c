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
//   pictureSvg(shown, {width, room})  -> {svg, width, height, background}
//   picturePng(shown, {width, scale}) -> {blob, width, height}   (pixels)
//   pictureGif(shown, {width, onFrame, signal}) -> {blob, width, height, frames, room}
//   fileName(shown, ext) -> "prime-target-move-12.png"
//   room: {part: CSS px}, the least height of each part of the layout (a GIF
//   lays every frame out in the room of the tallest: the board stays in place)
//   shown: {view, comment, moveWords, gameName, renderer, record, ply, plies, line, engine}
//   (GameView.shown(); line: the side line shown, {index, n, from}, or null)

import { h, seatName } from "../ui/dom.js";
import { stillUi } from "../boards/index.js";

export const WIDTH = 640; // CSS pixels across a picture's layout
export const PNG_SCALE = 2; // pixels per CSS pixel in a PNG: sharp on a phone or in print
export const GIF_WIDTH = 560; // an animation is drawn smaller, one pixel per CSS pixel, to stay light
export const GIF_DELAY = 900; // ms each move stays on screen
export const GIF_LAST_DELAY = 3000; // ms on the last position before the loop starts again

const SVG_NS = "http://www.w3.org/2000/svg";

// -- the position, laid out off screen --------------------------------------------

/** Where the position is in the game, in words. */
function whereWords({ ply, plies, line, moveWords }) {
  const move = moveWords ? `: ${moveWords}` : "";
  if (line) return `Side line instead of move ${line.from + 1}, move ${line.n}${move}`;
  if (ply === 0) return `The start (${plies} ${plies === 1 ? "move" : "moves"} in the game)`;
  return `After move ${ply} of ${plies}${move}`;
}

/** The picture as page elements, in a box off screen (removed by the caller);
 * `room` gives parts a least height (a part it names that this position lacks,
 * the comment, is kept as empty room). */
function stage(shown, width, room = null) {
  const { view } = shown;
  const board = shown.renderer.render(view, stillUi());
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
    h("p", { class: "status picture-status", dataset: { part: "status" } }, view.status),
    h("div", { class: "board picture-board", dataset: { part: "board" } }, board),
    shown.comment || room?.comment ? h("p", { class: "move-comment picture-comment", dataset: { part: "comment" } }, shown.comment || null) : null,
    h("p", { class: "picture-foot", dataset: { part: "foot" } }, `Quet Games · ${shown.gameName || view.name}, a game by ${inventor}`));
  seats.dataset.part = "seats";
  box.style.width = `${width}px`; // (CSSOM: the CSP allows no style attributes)
  document.body.append(box);
  for (const [key, part] of parts(box)) {
    const least = room?.[key];
    if (least) part.style.minHeight = `${least}px`; // (every box here is border-box: style.css)
  }
  if (room?.comment && !shown.comment) box.querySelector("[data-part=comment]").style.visibility = "hidden"; // room only
  return box;
}

/** The parts of a staged picture that room is kept for, by name: the
 * picture's own, and the board's plain blocks (a board's controls above its
 * drawing, a table under it that grows), named by place and kind, so that only the
 * same block of another frame's board shares its room. A table, grid or flex
 * row is left as it is (it would share the room out among its rows, stretching
 * them), and so is an <svg> (a taller box would move the drawing). */
function parts(box) {
  const found = [...box.children].map((part) => [part.dataset.part, part]);
  const board = box.querySelector("[data-part=board]")?.firstElementChild;
  for (const [i, block] of [...(board?.children ?? [])].entries()) {
    if (block instanceof HTMLElement && stacked(getComputedStyle(block))) {
      found.push([`board/${i}/${block.localName}.${block.className}`, block]);
    }
  }
  return found;
}

/** Whether a box given more height leaves what is in it as it was, the room below it. */
function stacked(style) {
  if (style.display === "flex") return style.flexDirection === "column" && style.flexWrap === "nowrap";
  return ["block", "flow-root", "list-item"].includes(style.display);
}

/** How tall each part of the picture of `shown` is laid out, in CSS px. */
async function measure(shown, width) {
  const box = stage(shown, width);
  try {
    await settle();
    return Object.fromEntries(parts(box).map(([key, part]) => [key, part.getBoundingClientRect().height]));
  } finally {
    box.remove();
  }
}

/** Let a board finish what it draws after its first drawing (a task's turn). */
async function settle() {
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
export async function pictureSvg(shown, { width = WIDTH, room = null } = {}) {
  const box = stage(shown, width, room);
  try {
    await settle();
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

/** The positions a GIF of `shown` runs through, as pictures of their own:
 * the main line from the start up to the position shown, or, in a side line,
 * up to where the line leaves it and then along the line to the move shown. */
async function positions(shown, stopped) {
  const { line } = shown;
  const steps = [];
  for (let ply = 0; ply <= (line ? line.from : shown.ply); ply++) steps.push({ ply, line: null });
  for (let n = 1; line && n <= line.n; n++) steps.push({ ply: line.from + n, line: { index: line.index, n, from: line.from } });
  const out = [];
  for (const step of steps) {
    stopped();
    const asked = step.line ? { record: shown.record, ply: step.line.n, line: step.line.index } : { record: shown.record, ply: step.ply };
    const at = await shown.engine.request("at", asked, { retry: true });
    // (a side line's position lists the main line's moves up to the branch, then the line's)
    const mover = step.ply > 0 ? at.view.moves?.[step.ply - 1] : null;
    const moveWords = mover ? `${seatName(at.view, mover.seat)}: ${mover.words}` : null;
    out.push({ ...shown, view: at.view, comment: at.comment ?? null, moveWords, ply: step.ply, line: step.line });
  }
  return out;
}

/** The pixels of an SVG picture on a canvas of `width` × `height`, as 0xAABBGGRR words. */
async function pixels(picture, width, height) {
  const { context } = await rasterise(picture, { width, height });
  return new Uint32Array(context.getImageData(0, 0, width, height).data.buffer);
}

/** Up to 255 colours for every frame of an animation, from how many pixels
 * of each colour the frames repaint (counts: 0xBBGGRR -> pixels): the exact
 * colours when there are no more than that, else gifenc's quantiser's, each
 * moved onto the commonest colour it stands for (a flat area, the paper or a
 * card, keeps its very colour). */
function paletteOf(counts, quantize) {
  const rgb = (c) => [c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff];
  if (counts.size <= 255) return [...counts.keys()].map(rgb);
  // each colour weighed by the square root of its count, as the quantiser itself does
  const weights = [...counts].map(([c, n]) => [c, Math.ceil(Math.sqrt(n))]);
  const sample = new Uint32Array(weights.reduce((sum, [, n]) => sum + n, 0));
  let at = 0;
  for (const [c, n] of weights) sample.fill(0xff000000 | c, at, (at += n));
  const palette = quantize(new Uint8Array(sample.buffer), 255, { useSqrt: false });
  const commonest = palette.map(() => ({ n: 0, c: null }));
  const entry = nearest(palette);
  for (const [c, n] of counts) {
    const best = commonest[entry(c)];
    if (n > best.n) Object.assign(best, { n, c });
  }
  return commonest.map(({ c }, i) => (c == null ? palette[i] : rgb(c)));
}

/** A colour's nearest palette entry, one answer per colour for the whole animation. */
function nearest(palette) {
  const known = new Map();
  return (c) => {
    let found = known.get(c);
    if (found === undefined) {
      const r = c & 0xff, g = (c >> 8) & 0xff, b = (c >> 16) & 0xff;
      let best = Infinity;
      for (const [i, [pr, pg, pb]] of palette.entries()) {
        const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
        if (d < best) [best, found] = [d, i];
      }
      known.set(c, found);
    }
    return found;
  };
}

/** The moves up to the position shown, one frame a position: from the start
 * along the main line, and in a side line along it from where it leaves the
 * main line. {blob, width, height, frames, room}. onFrame(step, done, total)
 * says how far it is (step: "drawing", then "encoding"); an aborted `signal`
 * stops it.
 *
 * Every frame is the picture of its position alone, exactly as a decoder
 * shows it: all frames are laid out in the same room (each part as tall as in
 * the tallest frame, so the board stays in place and nothing is padded below
 * the foot), share one palette, and map each colour to its one nearest entry;
 * a pixel is left transparent over the frame before only where that frame
 * shows the very same palette entry. */
export async function pictureGif(shown, { width = GIF_WIDTH, onFrame = null, signal = null } = {}) {
  const { GIFEncoder, quantize } = await import("../vendor/gifenc.esm.js");
  const stopped = () => {
    if (signal?.aborted) throw new DOMException("the animation was stopped", "AbortError");
  };
  const shots = await positions(shown, stopped);
  const total = shots.length;
  // the room: each part as tall as it is in the frame where it is tallest (to
  // the layout's own fraction of a pixel, so that parts within parts add up the same)
  const room = {};
  for (const [i, shot] of shots.entries()) {
    stopped();
    for (const [part, tall] of Object.entries(await measure(shot, width))) room[part] = Math.max(room[part] ?? 0, tall);
    onFrame?.("laying out", i + 1, total);
  }
  // every frame drawn in that room, and the colours it repaints counted (one
  // palette for the whole animation comes from them)
  const frames = [];
  for (const [i, shot] of shots.entries()) {
    stopped();
    frames.push(await pictureSvg(shot, { width, room }));
    onFrame?.("drawing", i + 1, total);
  }
  const height = Math.max(...frames.map((frame) => frame.height));
  const wide = Math.max(...frames.map((frame) => frame.width));
  const counts = new Map();
  let before = null;
  for (const frame of frames) {
    stopped();
    const words = await pixels(frame, wide, height);
    let colour = -1, run = 0;
    const count = () => run && counts.set(colour, (counts.get(colour) ?? 0) + run);
    for (let p = 0; p < words.length; p++) {
      if (before && words[p] === before[p]) continue; // (left transparent: never encoded)
      const c = words[p] & 0xffffff;
      if (c !== colour) {
        count();
        [colour, run] = [c, 0];
      }
      run++;
    }
    count();
    before = words;
  }
  const palette = paletteOf(counts, quantize);
  const clear = palette.length; // the transparent entry, after the colours
  const table = [...palette, [0, 0, 0]];
  const entry = nearest(palette);

  const gif = GIFEncoder();
  let previous = null; // the palette entries a decoder shows after the frame before
  for (const [i, frame] of frames.entries()) {
    stopped();
    const words = await pixels(frame, wide, height);
    const index = new Uint8Array(words.length);
    for (let p = 0, last = -1, at = 0; p < words.length; p++) {
      if (words[p] !== last) [last, at] = [words[p], entry(words[p] & 0xffffff)];
      index[p] = at;
    }
    const delay = i === frames.length - 1 ? GIF_LAST_DELAY : GIF_DELAY;
    if (!previous) {
      gif.writeFrame(index, wide, height, { palette: table, delay, repeat: 0, dispose: 1 });
    } else {
      // A move changes a few places: the rest is left transparent over the
      // frame before (kept: dispose 1), and long runs of one index cost LZW
      // next to nothing.
      const drawn = index.slice();
      for (let p = 0; p < index.length; p++) if (index[p] === previous[p]) drawn[p] = clear;
      gif.writeFrame(drawn, wide, height, { delay, transparent: true, transparentIndex: clear, dispose: 1 });
    }
    previous = index;
    onFrame?.("encoding", i + 1, frames.length);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the page stays responsive between frames
  }
  gif.finish();
  return { blob: new Blob([gif.bytes()], { type: "image/gif" }), width: wide, height, frames: frames.length, room };
}

/** A file name for a picture of `shown`: "prime-target-move-12.png",
 * "prime-target-line-1-move-2.svg", "prime-target-moves-0-12.gif", and a GIF
 * that runs into a side line "prime-target-moves-0-5-then-line-1-to-move-2.gif". */
export function fileName(shown, ext) {
  const game = String(shown.view.game || "game").replace(/[^a-z0-9-]+/gi, "-");
  if (ext === "gif" && shown.line) return `${game}-moves-0-${shown.line.from}-then-line-${shown.line.index + 1}-to-move-${shown.line.n}.gif`;
  if (ext === "gif") return `${game}-moves-0-${shown.ply}.gif`;
  if (shown.line) return `${game}-line-${shown.line.index + 1}-move-${shown.line.n}.${ext}`;
  return `${game}-move-${shown.ply}.${ext}`;
}
