// A page element, laid out by the browser, written out as standalone SVG
// markup: each box's background, borders, outline and shadow ring as shapes,
// each line of text as an SVG <text> where the browser put it, generated text
// (::before, ::after) too, and an <svg> inside it copied with every style the
// page gives it written in as attributes. Colours become #rrggbb and an
// opacity, which every SVG reader understands. Text always goes in escaped,
// never as markup. It knows nothing of games: picture.js lays a position out
// off screen and hands the box to a Drawing.
//
// API
//   new Drawing(box): drawing.element(box) -> the markup of box and all in it;
//     drawing.right, drawing.bottom: how far it reached; drawing.family: the
//     box's font family (the document's default, left off each <text>)
//   esc(text), tag(name, attrs, inner), colour(css) -> {hex, a}, px(css length)

export const SVG_NS = "http://www.w3.org/2000/svg";

// characters XML 1.0 cannot hold at all, and halves of broken surrogate pairs
const NOT_XML = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function esc(text) {
  return String(text).replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const num = (n) => String(Math.round(n * 100) / 100);

export function tag(name, attrs, inner = null) {
  const list = Object.entries(attrs).filter(([, v]) => v != null && v !== "").map(([k, v]) => ` ${k}="${esc(v)}"`).join("");
  return inner == null ? `<${name}${list}/>` : `<${name}${list}>${inner}</${name}>`;
}

// Colours as #rrggbb and an opacity: what every SVG reader understands
// (computed styles may say color(srgb …) or color-mix(…)).
let probe = null;
const colours = new Map();

export function colour(value) {
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

export const px = (value) => Number.parseFloat(value) || 0;

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
export class Drawing {
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
