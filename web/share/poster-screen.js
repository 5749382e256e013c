// The embed's poster on screen (embed.js): what a frame shows before anything
// heavy loads. With a position from the address (poster.js reads it), it is
// laid out as the game will be after Start, with the status, the players and
// the board drawn still by the game's own board module, so nothing jumps when
// the engine's own view takes its place; without one, words only. Start, or
// the frame coming into view with start=visible, calls back to the embed.
//
// No engine here: every word and number comes from the still view in the
// address, which readPoster() has checked, and the board draws it as it
// would the engine's.

import { h, seatName, statusLine, stylesLoaded } from "../ui/dom.js";
import { boardFor } from "../boards/index.js";
import { drawStill, PosterError, readPoster } from "./poster.js";

const posterProblem = "The position in this embed's address cannot be shown (the game shows it once loaded):";

/**
 * The position the poster shows, from the payload in the address (poster.js):
 * {view, draw} (the still view, and draw() its board by the game's own board
 * module), or {problem} in words when there is a payload we cannot use, or {}
 * when the address carries none (a snippet made before posters had one).
 * `boards`: the games with a board module of their own (build.json).
 */
export async function posterPosition(payload, { key, ply, game, boards }) {
  if (payload == null) return {};
  const problem = (why) => ({ problem: `${posterProblem} ${why}.` });
  if (!game) return problem("the game it names is not known here");
  let view;
  try {
    view = await readPoster(payload, { key, ply, game });
  } catch (error) {
    return problem(error instanceof PosterError ? error.message : "it could not be read");
  }
  try {
    const module = await boardFor(game, boards);
    await stylesLoaded(); // (its sheet: a board measures itself once on the page)
    return { view, draw: () => drawStill(module, view) };
  } catch {
    return problem("its board could not be drawn");
  }
}

/** The status line of the poster's position, as the game view words it in a
 * frame (a game over says why it ended; styled as the game's own line). */
function posterStatus(view) {
  return statusLine(String(view.status ?? ""), { over: !!view.is_over, reason: view.end_reason, extra: "poster-status" });
}

/** The seats of the poster's position, as the game view lists them. */
function posterSeats(view) {
  return h("ol", { class: "seats embed-seats poster-seats", "aria-label": "Players" }, view.seats.map((_, i) => {
    const toMove = !view.is_over && view.to_move.includes(i);
    const won = view.winners.includes(i);
    const score = Array.isArray(view.standing) ? view.standing[i] : view.scores[i];
    return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      h("span", { class: "score" }, String(score ?? 0)));
  }));
}

/**
 * The poster: `name`, what the frame holds, and Start (or on screen,
 * start=visible), which calls `onStart` once. With a position (`still.view`,
 * `still.draw()`): laid out as the game will be after Start (its status, its
 * players, the board in the same box), Start where the step bar will be.
 * Without one: words only, and `still.problem` if a position could not be shown.
 * `mode` and `start` are the embed's options; `problems()` its note of the
 * settings it could not use, or null; `download` the download's size in words.
 * Returns {poster, board, observer}: the section to put on the page, its
 * board (null when it has none), and the start=visible watch (or null).
 */
export function posterScreen(name, what, still, { mode, start, problems, onStart, download = null }) {
  const button = h("button", { type: "button", id: "embed-start", class: "poster-start" }, "Start");
  const thing = mode === "puzzle" ? "puzzle" : mode === "learn" ? "lesson" : "game";
  // (the download's size from build.json, as the loading bar gives it: downloadWords, poster.js)
  const size = download ? `about ${download} once, then cached` : "a few MB once, then cached";
  const note = start === "visible"
    ? `The ${thing} loads when this frame is on screen (${size}).`
    : `Click to load the ${thing} (${size}).`;
  let poster = null;
  let board = null;
  if (still.draw) {
    try {
      // drawn as it goes on the page (a board may measure itself on the next
      // frame), in the box the game's board will have after Start
      // (#board.embed-board), and around it what will be there (status and
      // players above, a bar of one or two lines below, where the step bar
      // will be), so nothing jumps
      board = h("div", { id: "board", class: `board embed-board poster-board${mode === "replay" ? " replaying" : ""}` }, still.draw());
      board.inert = true; // (a still board, as in a replay: nothing in it is a target)
      poster = h("section", { class: "poster poster-position", "aria-labelledby": "poster-title", dataset: { poster: "position" } },
        h("h2", { id: "poster-title", class: "visually-hidden" }, name), // (the frame's head shows it)
        posterStatus(still.view),
        posterSeats(still.view),
        problems(),
        board,
        h("div", { class: "poster-bar" }, button,
          h("p", { class: "poster-what" }, what, " Invented by Leroy Quet. ", h("span", { class: "poster-note" }, note))));
    } catch (error) {
      board = null;
      still = { problem: `${posterProblem} ${error instanceof PosterError ? error.message : "its board could not be drawn"}.` };
    }
  }
  if (!poster) {
    poster = h("section", { class: "poster poster-plain", "aria-labelledby": "poster-title", dataset: { poster: still.problem ? "unreadable" : "none" } },
      h("div", { class: "poster-text" },
        h("h2", { id: "poster-title" }, name),
        h("p", { class: "poster-what" }, what, " Invented by Leroy Quet."),
        still.problem ? h("p", { class: "poster-problem", role: "note" }, still.problem) : null,
        button,
        h("p", { class: "poster-note" }, note),
        problems()));
  }
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    onStart();
  };
  button.addEventListener("click", go);
  let observer = null;
  if (start === "visible" && "IntersectionObserver" in window) {
    // Inside a cross-origin frame the implicit root is the top page's viewport.
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) go();
    }, { threshold: 0.5 });
    observer.observe(poster);
  }
  return { poster, board, observer };
}
