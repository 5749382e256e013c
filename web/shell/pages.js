// The site's pages about one game that need no game view (app.js routes to
// them): its setup screen (#setup=), its lesson (#learn=, lesson.js), and a
// linked game while the engine loads. Each is drawn at once from the engine's
// catalog in build.json, with the game's heading, so the player reads it while
// Python downloads; whatever needs the engine shows that it waits (loading.js).
//
// The page's own state (whether the engine is up, which route is the latest,
// <html data-engine>) stays in app.js, which passes in what a page needs.

import { h } from "../ui/dom.js";
import { showRules } from "../features/help.js";
import { lessonPlay } from "../features/lesson.js";
import { setupScreen } from "./setup.js";
import { linkForDisplay, waitNote } from "./loading.js";

/** A page's heading: its title, How to play (when the catalog has the game's rules), and All games. */
function pageHead(id, title, game) {
  return h("div", { class: "game-head" },
    h("h1", { id }, title),
    h("nav", { class: "head-links" },
      game?.rules ? h("button", { type: "button", class: "secondary rules-button", onclick: () => showRules(game) }, "How to play") : null,
      h("a", { href: "#", class: "back" }, "All games")));
}

// -- setup screen ------------------------------------------------------------------

/** Computer levels the engine can play, if it says so (none yet: "coming soon"). */
function computerLevels(game) {
  return game.computer_levels ?? game.levels ?? [];
}

/** The setup screen of `game` in `el`. onStart(options, seats, waiting)
 * starts the game (setup.js); drawn() says a screen is up. */
export function showSetup(el, game, { onStart, drawn }) {
  document.title = `New game of ${game.name} · Quet Games`;
  el.replaceChildren(setupScreen(game, {
    levels: computerLevels(game),
    onRules: () => showRules(game),
    onStart,
  }));
  drawn();
  el.querySelector(".setup-screen h1")?.focus({ preventScroll: true });
}

// -- a linked game, before the engine can open it --------------------------------------

/** What a link shows while the engine loads: its game's name and seats as the
 * record spells them (loading.js reads them for display only), and the download
 * (`status`, loading.js). A link it cannot read says "Opening a game…"; the
 * engine's verdict follows. `games`: the catalog. */
export function showOpening(el, record, { games, status }) {
  const link = linkForDisplay(record, games);
  const game = link?.game;
  document.title = game ? `${game.name} · Quet Games` : "Opening a game · Quet Games";
  el.replaceChildren(
    h("section", { class: "opening", dataset: { game: game?.id }, "aria-labelledby": "opening-title" },
      pageHead("opening-title", game ? game.name : "Opening a game…", game),
      game ? h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`) : null,
      link?.seats ? h("ol", { class: "opening-seats", "aria-label": "Players" }, link.seats.map((seat, i) =>
        h("li", { dataset: { seat: i } },
          h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "opening-name" }, seat.name),
          seat.computer ? h("span", { class: "seat-kind" }, "computer") : null))) : null,
      h("div", { class: "board opening-board" },
        waitNote(game ? "Getting the game engine ready to show this game" : "Getting the game engine ready to open this link", status))));
  document.documentElement.dataset.shell = "drawn";
}

// -- a lesson ----------------------------------------------------------------------

/**
 * The lesson page of `game` in `el`: its heading at once from the catalog,
 * the lesson (lesson.js) once the engine is up. `waiting`: the engine's
 * status (loading.js) while it loads, for the note that the lesson waits, else
 * null; ask, boardFor and fullGame go to lessonPlay(). `latest()` says whether
 * this page is still the one the player asked for; drawn() that it is up.
 */
export async function showLesson(el, game, { waiting, ask, boardFor, fullGame, latest, drawn }) {
  document.title = `Learn ${game.name} · Quet Games`;
  boardFor(game.id).catch(() => {}); // (the board's module and styles beside the lesson's answer; met again in lessonPlay)
  const stage = h("div", { class: "lesson-stage" },
    waiting ? waitNote("Loading the game engine", waiting, "The lesson starts as soon as the engine is ready.") : null);
  el.replaceChildren(h("section", { class: "learn", dataset: { game: game.id }, "aria-labelledby": "learn-title" },
    pageHead("learn-title", `Learn ${game.name}`, game),
    h("p", { class: "inventor" }, `${game.name}, a game invented by ${game.inventor ?? "Leroy Quet"}: learn it in a minute, a small position and one task a step.`),
    stage));
  document.documentElement.dataset.shell = "drawn";
  window.scrollTo({ top: 0 }); // (at its heading, wherever the page before was scrolled)
  try {
    await lessonPlay(stage, { ask, boardFor, game: game.id, fullGame });
  } catch (error) {
    if (!latest()) return;
    stage.replaceChildren(h("p", { class: "message", dataset: { kind: "error" }, role: "alert" }, `The lesson could not be opened: ${error.message}`));
  }
  if (latest()) drawn();
}
