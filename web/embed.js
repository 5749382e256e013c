// The embedded game (embed.html, meant for an <iframe> on someone else's page).
//
// Nothing heavy loads until the reader asks: first a poster (the game's name and
// its board module's static thumbnail, a few kB), then, on "Start" (or, with
// start=visible, once the frame is scrolled into view), the engine worker with
// Pyodide, and the game view shared with the site's game page (gameview.js).
// Like the shell, no rule lives here: the board modules draw the engine's
// view() and send notations back.
//
// Address: embed.html?mode=play|replay&ply=N&theme=light|dark|auto&start=click|visible&autoplay=1#<record>
//      or: embed.html?mode=puzzle&theme=…&start=…#<puzzle id>
//   mode   play (default): the reader plays on from the position; the frame's
//          fragment follows the record, and "Open in Quet Games" carries it.
//          replay: step through the record; the board never plays.
//          puzzle: the fragment is a puzzle's id (puzzles.json); the reader
//          tries moves, each answered from the puzzle's proof, and can ask for
//          the solution (puzzle-board.js, shared with the site's puzzle page).
//   ply    the position after N moves (default: the game as it stands). In play
//          mode the game is cut there and the reader plays on from it.
//   theme  light, dark, or auto (the reader's system setting; the default).
//   start  click (default) or visible (load once half the frame is on screen).
//   autoplay  1: a replay plays itself through once started (Play through
//          pressed), from `ply` or else the start; 0 or absent: it waits.
// In replay mode the step bar has Play through: a step forward every
// STEP_MS (longer on a move with a comment, to read it), paused by any step
// click or by the button again, stopped at the end of the line shown.
// Once the game is on screen, "Picture" in the head saves the position shown
// as a file (share.js, picture.js).
// Testability: <html data-engine> is "idle" on the poster, then "loading",
// "ready", "busy", or "error"; one-click targets carry data-move; #status says
// whose turn it is.

import { h } from "./dom.js";
import { boardFor } from "./renderers.js";
import { noSuchPuzzle, puzzleList, puzzlePlay } from "./puzzle-board.js";

const root = document.documentElement;
const stage = document.getElementById("embed");
const openLink = document.getElementById("open-full");
const titleEl = document.getElementById("embed-title");

// -- the address ---------------------------------------------------------------------

/** The options in the query, with a plain-words note for each value we could not use. */
export function parseOptions(search) {
  const params = new URLSearchParams(search);
  const problems = [];
  const choice = (name, allowed, fallback) => {
    const value = params.get(name);
    if (value == null || value === "") return fallback;
    if (allowed.includes(value)) return value;
    problems.push(`“${name}=${value.slice(0, 30)}” is not understood (${name} is ${allowed.join(" or ")}); using ${fallback}.`);
    return fallback;
  };
  const mode = choice("mode", ["play", "replay", "puzzle"], "play");
  const theme = choice("theme", ["auto", "light", "dark"], "auto");
  const start = choice("start", ["click", "visible"], "click");
  const autoplay = choice("autoplay", ["0", "1"], "0") === "1";
  if (autoplay && mode !== "replay") problems.push(`“autoplay=1” plays a replay through, and this embed is ${mode === "puzzle" ? "a puzzle" : "for playing on (mode=play)"}; it is not used.`);
  let ply = null;
  const rawPly = params.get("ply");
  if (mode === "puzzle" && rawPly != null && rawPly !== "") {
    problems.push(`“ply=${rawPly.slice(0, 30)}” is not used: a puzzle always starts at its own position.`);
  } else if (rawPly != null && rawPly !== "") {
    if (/^\d{1,6}$/.test(rawPly)) ply = Number(rawPly);
    else problems.push(`“ply=${rawPly.slice(0, 30)}” is not a move number (a whole number from 0); showing the game as it stands.`);
  }
  return { mode, theme, start, ply, autoplay: autoplay && mode === "replay", problems };
}

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return location.hash.slice(1);
  }
}

// The poster names the game before the engine is loaded, from the record's
// game code ("q1.pt.…") and the engine's catalog in build.json. Only names:
// an unknown code still gets a poster, and the engine has the last word once
// it is running.
/** {games, boards, engine} from build.json (the engine's catalog, and its build's hash), or empty lists if it cannot be read. */
async function readCatalog() {
  try {
    const response = await fetch("build.json");
    if (!response.ok) throw new Error(String(response.status));
    const info = await response.json();
    return { games: Array.isArray(info.games) ? info.games : [], boards: Array.isArray(info.boards) ? info.boards : null,
             engine: info.wheel_sha256 ?? null };
  } catch {
    return { games: [], boards: null };
  }
}

function posterGame(record, games) {
  const code = /^q\d+\.([a-z]+)\./.exec(record)?.[1];
  return games.find((game) => game.code === code) ?? null;
}

function fullSiteURL(record) {
  return new URL(record ? `index.html#${record}` : "index.html", location.href).href;
}

function puzzleSiteURL(id) {
  return new URL(`index.html#puzzle=${encodeURIComponent(id)}`, location.href).href;
}

const opts = parseOptions(location.search);
if (opts.theme !== "auto") root.classList.add(`theme-${opts.theme}`);
root.dataset.mode = opts.mode;

// -- the poster ----------------------------------------------------------------------

function setEngineState(state) {
  root.dataset.engine = state;
}

function problemsNote() {
  return opts.problems.length
    ? h("ul", { class: "embed-problems", role: "note", "aria-label": "Embed settings not understood" },
      opts.problems.map((text) => h("li", {}, text)))
    : null;
}

function showFatal(title, text) {
  setEngineState("error");
  stage.replaceChildren(h("section", { class: "embed-fatal", role: "alert" },
    h("h2", {}, title), h("p", {}, text), problemsNote(),
    h("p", {}, h("a", { href: fullSiteURL(""), target: "_blank", rel: "noopener" }, "Go to Quet Games"))));
}

async function showPoster(record) {
  catalog = await readCatalog();
  const known = posterGame(record, catalog.games);
  const name = known?.name ?? "A game by Leroy Quet";
  titleEl.textContent = name;
  document.title = `${name} · Quet Games`;
  const from = opts.ply != null ? ` from move ${opts.ply}` : "";
  const what = opts.autoplay ? `A game that plays itself through${from ? from : " from the start"}, with its comments.`
    : opts.mode === "replay" ? `A game to step through${from}.` : `A game you can play here${opts.ply != null ? `, starting at move ${opts.ply}` : ""}.`;
  poster(known, name, what, () => boot(() => openGame(record)));
}

/** The poster of a puzzle: its game and rating from puzzles.json, before any engine. */
async function showPuzzlePoster(id) {
  let puzzles;
  [catalog, puzzles] = await Promise.all([readCatalog(), puzzleList().catch((error) => error)]);
  if (puzzles instanceof Error) {
    showFatal("The puzzles could not be read", `Try again later: ${puzzles.message}.`);
    return;
  }
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) {
    showFatal("No such puzzle", `${noSuchPuzzle(id)} The address may have been cut short, or come from another copy of Quet Games. The site below has a puzzle of the day.`);
    return;
  }
  const known = catalog.games.find((game) => game.id === puzzle.game) ?? null;
  const name = known?.name ?? "A game by Leroy Quet";
  titleEl.textContent = `Puzzle: ${name}`;
  document.title = `Puzzle · ${name} · Quet Games`;
  const several = puzzle.solutions.length > 1;
  poster(known, `Puzzle: ${name}`,
    `A position from a real game: find ${several ? "a move" : "the one move"} that keeps a certain win. Puzzle rating ${puzzle.rating.elo}.`,
    () => boot(() => openPuzzle(puzzle)));
}

/** The poster: `name`, what the frame holds, Start (or on screen, start=visible) calls `start`. */
function poster(known, name, what, start) {
  const thumb = h("div", { class: "poster-thumb", "aria-hidden": "true" }, h("span", { class: "thumb-placeholder" }, name.replace(/^Puzzle: /, "")[0]));
  if (known) {
    boardFor(known.id, catalog.boards).then((module) => {
      const picture = typeof module.thumbnail === "function" ? module.thumbnail() : null;
      if (picture instanceof Element) thumb.replaceChildren(picture);
    }).catch(() => {});
  }
  const button = h("button", { type: "button", id: "embed-start", class: "poster-start" }, "Start");
  const poster = h("section", { class: "poster", "aria-labelledby": "poster-title" },
    thumb,
    h("div", { class: "poster-text" },
      h("h2", { id: "poster-title" }, name),
      h("p", { class: "poster-what" }, what, " Invented by Leroy Quet."),
      button,
      h("p", { class: "poster-note" }, opts.start === "visible"
        ? `The ${opts.mode === "puzzle" ? "puzzle" : "game"} loads when this frame is on screen (about 4.5 MB once, then cached).`
        : `Click to load the ${opts.mode === "puzzle" ? "puzzle" : "game"} (about 4.5 MB once, then cached).`),
      problemsNote()));
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    start();
  };
  button.addEventListener("click", go);
  // the whole picture is a click target too, as a reader expects of a poster
  thumb.addEventListener("click", go);
  let observer = null;
  if (opts.start === "visible" && "IntersectionObserver" in window) {
    // Inside a cross-origin frame the implicit root is the top page's viewport.
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) go();
    }, { threshold: 0.5 });
    observer.observe(poster);
  }
  stage.replaceChildren(poster);
  setEngineState("idle");
}

let catalog = { games: [], boards: null };

// -- loading the engine ------------------------------------------------------------------

let engine = null;
let GameView = null; // gameview.js, imported with the engine

/** Load the engine, then `open()` what the frame holds. */
async function boot(open) {
  setEngineState("loading");
  const text = h("p", { id: "loading-text" }, "Loading the game engine…");
  const bar = h("progress", { id: "loading-bar", max: "1" });
  stage.replaceChildren(h("div", { class: "loading embed-loading", role: "status", "aria-live": "polite" },
    text, bar, h("p", { class: "loading-note" }, "Python runs inside this frame; the first visit downloads about 4.5 MB.")));
  try {
    if (!engine) {
      // the worker starts when this module is first imported, never before
      ({ engine } = await import("./engine.js"));
      if (opts.mode !== "puzzle") {
        ({ GameView } = await import("./gameview.js")); // (a puzzle is drawn by puzzle-board.js)
        (await import("./analysis.js")).useEngineIdentity(catalog?.engine); // (analyses kept per engine build)
      }
      engine.onProgress(({ text: words, fraction }) => {
        text.textContent = words;
        if (fraction === undefined) bar.removeAttribute("value");
        else bar.value = fraction;
      });
    }
    await engine.ready;
  } catch (error) {
    setEngineState("error");
    const retry = h("button", { type: "button", class: "retry" }, "Try again");
    retry.addEventListener("click", () => {
      engine?.start();
      boot(open);
    });
    stage.replaceChildren(h("div", { class: "embed-fatal", role: "alert" },
      h("p", {}, `The game engine could not start: ${error.message}`), retry));
    return;
  }
  await open();
}

// -- the game ------------------------------------------------------------------------
//
// The game view shared with the site's game page (gameview.js): status,
// players (computer seats too, which move here as there), the board, and a
// step bar instead of the moves list.

let game = null; // the GameView, made once the engine is up

function gameView() {
  game ??= new GameView(stage, {
    engine,
    layout: "embed",
    boardFor: (gameId) => boardFor(gameId, catalog.boards),
    setEngineState,
    readOnly: opts.mode === "replay",
    fragment: opts.mode === "play",
    onFollow: (fragment) => { openLink.href = fullSiteURL(fragment); },
    afterDraw: () => fitBoard(),
    problems: problemsNote,
    stepBarExtra: opts.mode === "replay" ? () => playThrough.button : null,
  });
  return game;
}

// -- play through (replay mode) ----------------------------------------------------------
//
// A step forward every STEP_MS along the line shown (the game's moves, or a
// side line's), with time to read a comment; any step click pauses, as does
// the button again; the end of the line stops it. The button says which in
// its label and aria-pressed. The steps themselves are the point, so they go
// on under prefers-reduced-motion; only the line that fills up to the next
// step stands still then (style.css).

const STEP_MS = (() => {
  // test-only: ?play-ms=N (50 to 10000) for a quicker pace
  const asked = Number.parseInt(new URLSearchParams(location.search).get("play-ms") ?? "", 10);
  return asked >= 50 && asked <= 10_000 ? asked : 1500;
})();
const READ_MS_PER_CHAR = 60; // about 16 characters a second, on top of the step
const READ_MS_MAX = 8000;

const playThrough = {
  playing: false,
  stepping: false, // a step of its own is under way (the game view takes no other meanwhile)
  asked: null, // the data-key of a step the reader clicked meanwhile
  timer: 0,
  button: h("button", {
    type: "button", class: "secondary step play-through", dataset: { key: "play-through" }, "aria-pressed": "false",
    onclick: () => (playThrough.playing ? pause() : play()),
  }),
};

function label() {
  const { button, playing } = playThrough;
  button.setAttribute("aria-pressed", String(playing));
  button.title = playing ? "Pause" : "Step through the game by itself";
  // (a line along the foot fills up until the next step: restarted for each one;
  // its length set through the CSSOM, which the page's CSP allows, not a style attribute)
  const progress = playing ? h("span", { class: "play-progress", "aria-hidden": "true" }, h("span")) : null;
  progress?.style.setProperty("--play-ms", `${nextDelay()}ms`);
  button.replaceChildren(...[h("span", { "aria-hidden": "true" }, playing ? "⏸ " : "▶ "), playing ? "Playing through" : "Play through", progress].filter(Boolean));
}

/** The next step along the line shown, or null at its end. */
function nextStep() {
  const replay = game?.replay;
  if (!replay) return null; // the end of the record
  if (replay.line) return replay.line.n < replay.line.length ? () => game.lineTo(replay.line.index, replay.line.n + 1) : null;
  return () => game.replayTo(replay.ply + 1);
}

function nextDelay() {
  const comment = game?.replay ? game.replay.comment : game?.current?.view.comment;
  return STEP_MS + Math.min(READ_MS_MAX, (comment?.length ?? 0) * READ_MS_PER_CHAR);
}

async function play() {
  if (!game?.current) return;
  playThrough.playing = true;
  // at the end already: from the start again
  if (!nextStep()) await game.replayTo(0);
  label();
  schedule();
}

function schedule() {
  clearTimeout(playThrough.timer);
  if (!playThrough.playing) return;
  if (!nextStep()) {
    pause();
    return;
  }
  playThrough.timer = setTimeout(async () => {
    const step = playThrough.playing ? nextStep() : null;
    if (!step) return pause();
    playThrough.stepping = true;
    try {
      await step();
    } finally {
      playThrough.stepping = false;
    }
    // a step the reader asked for while this one was under way: taken now
    const asked = playThrough.asked;
    playThrough.asked = null;
    if (asked) stage.querySelector(`[data-key="${CSS.escape(asked)}"]:not(:disabled)`)?.click();
    if (!playThrough.playing) return;
    label();
    schedule();
  }, nextDelay());
}

function pause() {
  clearTimeout(playThrough.timer);
  playThrough.playing = false;
  label();
}

label();
// any step the reader takes pauses it (the step bar, a move of the list); one
// clicked while a step of its own is under way is taken once that one is shown
stage.addEventListener("click", (event) => {
  const target = event.target.closest?.(".embed-steps button, .move-list button");
  if (!target || target.closest(".play-through")) return;
  if (playThrough.playing) pause();
  if (playThrough.stepping && target.dataset.key) {
    playThrough.asked = target.dataset.key;
    event.stopPropagation();
  }
}, true);

async function openGame(record) {
  setEngineState("busy");
  let opened;
  let plies;
  try {
    opened = await engine.request("open", { record }, { retry: true });
    plies = (await engine.request("at", { record: opened.private_record, ply: 0 }, { retry: true })).plies;
  } catch (error) {
    showFatal("This game could not be opened", `The embedded game record is not one we can read: ${error.message}`);
    return;
  }
  let ply = opts.ply;
  let notice = "";
  if (ply != null && ply > plies) {
    notice = `The game has ${plies} move${plies === 1 ? "" : "s"}; move ${ply} does not exist, so this is the game as it stands.`;
    ply = null;
  }
  titleEl.textContent = opened.view.name;
  document.title = `${opened.view.name} · Quet Games`;
  if (opts.mode === "play" && ply != null && ply < plies) {
    // play on from that position: the game is cut there
    opened = await engine.request("at", { record: opened.private_record, ply }, { retry: true });
    ply = null;
  }
  const view = gameView();
  view.leave();
  // (the public record: one with a pick made in secret at this screen never shows)
  if (opts.mode === "play") history.replaceState(null, "", `#${opened.record}`);
  openLink.href = fullSiteURL(opened.record);
  // (autoplay: from the start, unless a move was asked for)
  const first = opts.autoplay && ply == null ? 0 : ply;
  await view.show(opened, { ply: opts.mode === "replay" && first != null && first < plies ? first : null });
  if (notice) view.explain(notice, "info");
  await addPictures();
  if (opts.autoplay) play();
}

// -- a puzzle (mode=puzzle) ----------------------------------------------------------------
//
// The site's puzzle page and this frame draw a puzzle with the same module
// (puzzle-board.js): the task, the board, and every answer in the engine's
// words from the puzzle's stored proof. The frame keeps no score.

async function openPuzzle(puzzle) {
  setEngineState("busy");
  let played;
  try {
    played = await puzzlePlay(puzzle, {
      ask: (call, args) => engine.request(call, args, { retry: true }),
      boardFor: (gameId) => boardFor(gameId, catalog.boards),
      afterDraw: () => fitBoard(),
    });
  } catch (error) {
    showFatal("This puzzle could not be opened", `The engine does not accept it: ${error.message}`);
    return;
  }
  const { shown } = played;
  titleEl.textContent = `Puzzle: ${shown.game_name}`;
  openLink.href = puzzleSiteURL(puzzle.id);
  openLink.textContent = "Open in Quet Games";
  stage.replaceChildren(h("section", { class: "embed-puzzle", dataset: { puzzle: puzzle.id } },
    h("p", { class: "inventor" }, `${shown.game_name}, a game invented by ${shown.inventor}. Puzzle rating ${shown.rating}.`),
    problemsNote(),
    played.task,
    played.board,
    played.buttons,
    played.solution));
  played.start();
  setEngineState("ready");
}

/** "Picture" in the frame's head, folded: the position shown as a file, or the
 * moves up to it as an animation (share.js, picture.js). Folded, it takes no
 * height from the board. */
async function addPictures() {
  if (document.getElementById("embed-picture")) return;
  const { pictureControls } = await import("./share.js");
  const box = h("details", { id: "embed-picture", class: "embed-picture" },
    h("summary", {}, "Picture"),
    pictureControls(() => game?.shown() ?? null, {
      heading: false,
      hint: "The position shown, with its players and comment, as a file; or the moves up to it as an animation. Made here: nothing is sent anywhere.",
    }));
  box.addEventListener("toggle", () => fitBoard());
  openLink.before(box);
}

/** Shrink the board (keeping its shape) until the frame needs no scrolling,
 * down to a readable minimum; boards that scroll sideways on purpose (a zoomed
 * big grid) are left alone. The height left over is only known by measuring. */
function fitBoard() {
  const svgs = [...stage.querySelectorAll("#board svg")];
  if (svgs.length === 0) return;
  const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const main = svgs.reduce((a, b) => (area(b) > area(a) ? b : a));
  main.style.maxWidth = "";
  if (getComputedStyle(main).maxWidth === "none") return;
  const overflow = document.documentElement.scrollHeight - window.innerHeight;
  const rect = main.getBoundingClientRect();
  if (overflow <= 0 || rect.height === 0) return;
  // never below the width its squares need to be tapped (data-min-width, grid.js),
  // when the frame is wide enough for that (else its Zoom in does it)
  const minWidth = Number(main.dataset.minWidth || 0);
  const floor = minWidth <= rect.width ? minWidth * (rect.height / rect.width) : 0;
  const height = Math.max(MIN_BOARD_PX, floor, rect.height - overflow);
  if (height < rect.height) main.style.maxWidth = `${Math.floor((rect.width * height) / rect.height)}px`;
}

const MIN_BOARD_PX = 220; // about 18 px a square on a 12 × 12 grid: still a tap target
let fitFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(fitFrame);
  fitFrame = requestAnimationFrame(() => (game || opts.mode === "puzzle") && fitBoard());
});

// -- start ---------------------------------------------------------------------------

const startRecord = fragment();
openLink.href = opts.mode === "puzzle" && startRecord ? puzzleSiteURL(startRecord) : fullSiteURL(startRecord);
if (opts.mode === "puzzle") {
  if (startRecord === "") showFatal("No puzzle here", "This embed's address names no puzzle (it should end with # and a puzzle's id). Make one with “Embed this puzzle” on a puzzle page of Quet Games.");
  else showPuzzlePoster(startRecord);
} else if (startRecord === "") {
  showFatal("No game here", "This embed's address holds no game record (it should end with # and a record). Make one with the Embed button on a game page of Quet Games.");
} else {
  showPoster(startRecord);
}
