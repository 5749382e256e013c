// Pictures of a game: the position shown as a standalone SVG drawing, the
// same as a PNG, and the main line up to it as an animated GIF. One job:
// position in, file out; the buttons are in share.js, the position comes from
// GameView.shown().
//
// How a picture is drawn: the position is laid out off screen with the page's
// own stylesheets (the game's name, the credit, the seats and scores, where
// the game is, the board drawn by the game's own board module with a ui that
// plays nothing, and the comment), and that layout is then written out as
// SVG by svg-writer.js: each box's background and borders as rectangles, each
// line of text as an SVG <text> at the place the browser put it, and the
// board's own SVG copied with every style the page gives it written in as
// attributes. So the picture looks like the page (light or dark, whichever the
// page shows) and stands alone: no stylesheet, no font file, no script,
// nothing from outside. Text always goes in as text (escaped), never as
// markup: a comment shows as typed.
//
// A PNG is that SVG drawn on a canvas through an <img> of a data: URL (the
// pages' CSP allows data: images for this); a GIF is one such frame per
// move, asked of the engine with the bridge call "at", encoded by gif.js with
// gifenc (vendor/gifenc.esm.js, MIT, loaded only when a GIF is made).
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
import { Drawing, SVG_NS, colour, esc, px, tag } from "./svg-writer.js";
import { encodeGif } from "./gif.js";

export { GIF_DELAY, GIF_LAST_DELAY } from "./gif.js";

export const WIDTH = 640; // CSS pixels across a picture's layout
export const PNG_SCALE = 2; // pixels per CSS pixel in a PNG: sharp on a phone or in print
export const GIF_WIDTH = 560; // an animation is drawn smaller, one pixel per CSS pixel, to stay light

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

/** The moves up to the position shown, one frame a position: from the start
 * along the main line, and in a side line along it from where it leaves the
 * main line. {blob, width, height, frames, room}. onFrame(step, done, total)
 * says how far it is (step: "laying out", "drawing", then "encoding"); an
 * aborted `signal` stops it.
 *
 * Every frame is the picture of its position alone, exactly as a decoder
 * shows it: all frames are laid out in the same room (each part as tall as in
 * the tallest frame, so the board stays in place and nothing is padded below
 * the foot), and gif.js encodes them so that each shows just its own picture. */
export async function pictureGif(shown, { width = GIF_WIDTH, onFrame = null, signal = null } = {}) {
  const gifenc = await import("../vendor/gifenc.esm.js");
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
  // every frame drawn in that room
  const frames = [];
  for (const [i, shot] of shots.entries()) {
    stopped();
    frames.push(await pictureSvg(shot, { width, room }));
    onFrame?.("drawing", i + 1, total);
  }
  const height = Math.max(...frames.map((frame) => frame.height));
  const wide = Math.max(...frames.map((frame) => frame.width));
  const blob = await encodeGif(gifenc, { frames: frames.length, width: wide, height, pixelsOf: (i) => pixels(frames[i], wide, height) }, { onFrame, stopped });
  return { blob, width: wide, height, frames: frames.length, room };
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
