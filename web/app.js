// The shell: a home page listing the games, a loading display, and a game page
// that draws view() with the game's board renderer and sends notations back.
// No rule lives here: legal moves, status and scores all come from the engine.
//
// Testability contract (tests outside this repo rely on it):
//  - <html data-engine="ready"> once the engine is loaded and the view is interactive
//    ("loading" before, "busy" while a move is being checked, "error" if loading failed);
//  - index.html#<record> opens that game; every move replaces the fragment with the new record;
//  - every one-click move target carries data-move="<notation>";
//  - #status says whose turn it is or how the game ended.

import { engine } from "./engine.js";

const root = document.documentElement;
const loading = document.getElementById("loading");
const viewEl = document.getElementById("view");

let buildInfo = null;
let games = []; // from bridge "games"
let current = null; // {record, view} of the open game, or null on the home page
let busy = false;
const renderers = new Map(); // game id -> module with render(view, ui)

// -- small DOM helpers -------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value == null) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  el.append(...children.flat().filter((c) => c != null && c !== false));
  return el;
}

/** Rules text with **bold** runs and blank-line paragraphs, built without innerHTML. */
function richText(text) {
  return text.split(/\n\s*\n/).map((para) =>
    h("p", {}, para.split(/(\*\*[^*]+\*\*)/).map((part) =>
      part.startsWith("**") && part.endsWith("**") ? h("strong", {}, part.slice(2, -2)) : part.replace(/\s*\n\s*/g, " "),
    )),
  );
}

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return location.hash.slice(1);
  }
}

function setEngineState(state) {
  root.dataset.engine = state;
}

// -- loading -----------------------------------------------------------------------

engine.onProgress(({ text, fraction }) => {
  document.getElementById("loading-text").textContent = text;
  const bar = document.getElementById("loading-bar");
  if (fraction === undefined) bar.removeAttribute("value");
  else bar.value = fraction;
});

function showLoadError(error) {
  setEngineState("error");
  loading.hidden = false;
  viewEl.hidden = true;
  document.getElementById("loading-text").textContent = error.message;
  document.getElementById("loading-bar").hidden = true;
  const retry = document.getElementById("retry");
  retry.hidden = false;
  retry.onclick = () => {
    retry.hidden = true;
    document.getElementById("loading-bar").hidden = false;
    engine.start();
    start();
  };
}

async function start() {
  setEngineState("loading");
  try {
    const [info] = await Promise.all([fetch("build.json").then((r) => r.json()), engine.ready]);
    buildInfo = info;
    games = await engine.request("games");
  } catch (error) {
    showLoadError(error);
    return;
  }
  if (engine.timings) console.info("quetgames engine ready", engine.timings);
  loading.hidden = true;
  viewEl.hidden = false;
  await route();
}

// -- routing -----------------------------------------------------------------------

async function route() {
  const record = fragment();
  if (record === "") {
    current = null;
    showHome();
    return;
  }
  if (current && current.record === record) return;
  setEngineState("busy");
  try {
    const opened = await engine.request("open", { record });
    await showGame(opened);
  } catch (error) {
    current = null;
    showHome(`That link does not hold a game we can open: ${error.message}`);
  }
}

window.addEventListener("hashchange", () => buildInfo && route());
window.addEventListener("popstate", () => buildInfo && route());

// -- home page ---------------------------------------------------------------------

function optionInput(option) {
  const id = `opt-${option.name}`;
  const label = option.help ? `${option.name} (${option.help})` : option.name;
  let control;
  // An option whose default is null (e.g. "draw at random") starts empty and is
  // left out of the request while it stays empty.
  if (option.kind === "int") {
    control = h("input", { id, name: option.name, type: "number", min: option.min, max: option.max, value: option.default, required: option.default != null });
  } else if (option.kind === "choice") {
    control = h("select", { id, name: option.name },
      option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
  } else if (option.kind === "bool") {
    control = h("input", { id, name: option.name, type: "checkbox", checked: option.default === true });
  } else if (option.kind === "pair") {
    const [a, b] = option.default ?? [null, null];
    control = h("span", { class: "pair", dataset: { pair: option.name } },
      h("input", { name: `${option.name}.0`, type: "number", min: option.min, max: option.max, value: a, "aria-label": `${option.name}, first` }),
      " × ",
      h("input", { name: `${option.name}.1`, type: "number", min: option.min, max: option.max, value: b, "aria-label": `${option.name}, second` }));
  } else {
    return null;
  }
  return h("label", { class: "option", for: id }, h("span", {}, label), control);
}

function readOptions(form, options) {
  const values = {};
  for (const option of options) {
    const field = form.elements[option.name];
    if (option.kind === "int") {
      if (field.value !== "") values[option.name] = Number(field.value);
    } else if (option.kind === "choice") values[option.name] = field.value;
    else if (option.kind === "bool") values[option.name] = field.checked;
    else if (option.kind === "pair") {
      const parts = [0, 1].map((i) => form.elements[`${option.name}.${i}`].value);
      if (parts.some((v) => v !== "")) values[option.name] = parts.map(Number);
    }
  }
  return values;
}

function gameCard(game) {
  const options = (game.options ?? []).filter((o) => ["int", "choice", "bool", "pair"].includes(o.kind));
  const error = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "new-game", dataset: { game: game.id } },
    h("div", { class: "options" }, options.map(optionInput)),
    h("button", { type: "submit", class: "play" }, "Play"),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    busy = true;
    setEngineState("busy");
    try {
      const created = await engine.request("new", { game: game.id, options: readOptions(form, options) });
      history.pushState(null, "", `#${created.record}`);
      await showGame(created);
    } catch (err) {
      error.textContent = err.message;
      setEngineState("ready");
    } finally {
      busy = false;
    }
  });
  return h("article", { class: "game-card", id: `game-${game.id}` },
    h("h2", {}, game.name),
    h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`),
    h("p", { class: "summary" }, game.summary ?? ""),
    game.rules ? h("details", { class: "rules" }, h("summary", {}, "Rules"), richText(game.rules)) : null,
    form);
}

function showHome(notice = "") {
  document.title = "Quet Games";
  viewEl.replaceChildren(
    h("section", { class: "home" },
      h("p", { class: "intro" },
        "Five pencil-and-paper number games invented by Leroy Quet. Pick one, choose the options, and play with friends at one screen. ",
        "Every game's address holds its whole record, so a link shares the game as it stands."),
      notice ? h("p", { id: "message", class: "message", role: "alert" }, notice) : null,
      h("div", { class: "game-list" }, games.map(gameCard))));
  setEngineState("ready");
}

// -- game page ---------------------------------------------------------------------

async function rendererFor(gameId) {
  const name = buildInfo.boards.includes(gameId) ? gameId : "generic";
  if (!renderers.has(name)) renderers.set(name, await import(`./boards/${name}.js`));
  return renderers.get(name);
}

let frame = 0;

/** Draw `opened` ({record, view}) on the next animation frame; resolves once drawn. */
async function showGame(opened) {
  const renderer = await rendererFor(opened.view.game);
  current = opened;
  cancelAnimationFrame(frame);
  return new Promise((resolve) => {
    frame = requestAnimationFrame(() => {
      drawGame(renderer, opened);
      setEngineState("ready");
      resolve();
    });
  });
}

const ui = {
  play: (notation) => play(notation),
  explain: (text) => explain(text),
};

function explain(text, kind = "info") {
  const message = document.getElementById("message");
  if (!message) return;
  message.textContent = text;
  message.dataset.kind = kind;
}

async function play(notation) {
  if (busy || !current) return;
  busy = true;
  setEngineState("busy");
  try {
    const played = await engine.request("play", { record: current.record, move: String(notation) });
    history.replaceState(null, "", `#${played.record}`);
    await showGame(played);
    explain("");
  } catch (error) {
    // Nothing changes: the same view stays, with the engine's explanation.
    explain(error.message, "error");
    setEngineState("ready");
  } finally {
    busy = false;
  }
}

function seatList(view) {
  const seats = view.seats ?? view.scores.map((_, i) => ({ name: `Player ${i + 1}` }));
  return h("ol", { class: "seats" }, seats.map((seat, i) =>
    h("li", {
      class: [view.to_move.includes(i) && !view.is_over ? "to-move" : "", view.winners.includes(i) ? "winner" : ""].join(" ").trim(),
    }, h("span", { class: "seat-name" }, seat.name), " ", h("span", { class: "score" }, String(view.scores[i] ?? 0)))));
}

function drawGame(renderer, { record, view }) {
  const game = games.find((g) => g.id === view.game) ?? { name: view.game };
  document.title = `${game.name} · Quet Games`;
  const board = renderer.render(view, ui);
  const input = h("input", { id: "move-input", name: "move", autocomplete: "off", spellcheck: "false", placeholder: view.legal_moves[0] ?? "" });
  const moveForm = h("form", { id: "move-form", class: "move-form" },
    h("label", { for: "move-input" }, "Move"), input, h("button", { type: "submit" }, "Play"));
  moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) play(text);
  });
  const share = h("input", { class: "share", readonly: true, value: location.href, "aria-label": "Link to this game" });
  share.addEventListener("focus", () => share.select());
  viewEl.replaceChildren(
    h("section", { class: "game", dataset: { game: view.game, record } },
      h("div", { class: "game-head" },
        h("h2", {}, game.name),
        h("a", { href: "#", class: "back" }, "All games")),
      h("p", { id: "status", class: view.is_over ? "status over" : "status", "aria-live": "polite" }, view.status),
      seatList(view),
      h("div", { id: "board", class: "board" }, board),
      h("p", { id: "message", class: "message", role: "alert" }),
      view.is_over ? null : moveForm,
      h("details", { class: "history" },
        h("summary", {}, `Moves played (${view.history.length})`),
        h("ol", {}, view.history.map((m) => h("li", {}, String(m))))),
      game.rules ? h("details", { class: "rules" }, h("summary", {}, "Rules"), richText(game.rules)) : null,
      h("label", { class: "share-label" }, "Share this game: ", share)));
}

// One delegated handler: any element with data-move is a one-click move.
viewEl.addEventListener("click", (event) => {
  const target = event.target.closest?.("[data-move]");
  if (target && viewEl.contains(target) && !target.closest("[disabled]")) {
    event.preventDefault();
    play(target.dataset.move);
  }
});
viewEl.addEventListener("keydown", (event) => {
  const target = event.target.closest?.("[data-move]");
  if (target && (event.key === "Enter" || event.key === " ") && target.tagName !== "BUTTON") {
    event.preventDefault();
    play(target.dataset.move);
  }
});

start();
