// The home page's cards, one per game of the engine's catalog (build.json):
// a thumbnail drawn by the game's own board module, its name, summary and
// inventor, Play (the setup screen), Quick start, and Learn with how far this
// device got in the lesson. Drawn at once, before the engine is up; the home
// page around them (saved games, puzzles, import, backup) is app.js's.
//
// The board modules and starting a game are the page's (boards/index.js,
// app.js), passed in, as lesson.js and puzzle-board.js are handed boardFor.

import { h, firstSentence } from "../ui/dom.js";
import { lessonState, progressWords } from "../features/lesson.js";

/**
 * The card of `game`. boardModule(id): a promise of the game's board module,
 * or null for a game without one. quickStart(id, {button, place}): start the
 * game with the usual options and unnamed seats (the button and the place
 * after which a Start pressed before the engine is up shows that it waits);
 * its error's message is shown on the card.
 */
export function gameCard(game, { boardModule, quickStart }) {
  // "Quick start": the usual options and unnamed seats, straight to the board.
  const error = h("p", { class: "form-error", role: "alert" });
  const button = h("button", { type: "submit", class: "secondary", "aria-label": `Quick start ${game.name} with the usual options` }, "Quick start");
  const quick = h("form", { class: "new-game", dataset: { game: game.id } }, button);
  const buttons = h("div", { class: "card-buttons" },
    h("a", { class: "button play", href: `#setup=${game.id}` }, "Play", h("span", { class: "visually-hidden" }, ` ${game.name}`)),
    quick,
    ...learnLink(game));
  quick.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.classList.contains("waiting")) return; // already kept for when the engine is ready
    error.textContent = "";
    try {
      await quickStart(game.id, { button, place: buttons });
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return h("article", { class: "game-card", id: `game-${game.id}`, "aria-labelledby": `title-${game.id}` },
    thumbnailBox(game, boardModule(game.id)),
    h("div", { class: "card-text" },
      h("h2", { id: `title-${game.id}` }, game.name),
      h("p", { class: "summary" }, firstSentence(game.summary ?? "")),
      h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`)),
    buttons,
    error);
}

/** The card's picture: the board's own thumbnail() once its module (`loading`)
 * has loaded; until then (or without one) a neutral placeholder in the same box. */
function thumbnailBox(game, loading) {
  const box = h("div", { class: "thumb", "aria-hidden": "true" }, h("span", { class: "thumb-placeholder" }, game.name[0]));
  loading?.then((module) => {
    if (typeof module.thumbnail !== "function") return;
    const picture = module.thumbnail();
    if (picture instanceof Element) box.replaceChildren(picture);
  }).catch((error) => console.warn(`no thumbnail for ${game.id}:`, error));
  return box;
}

/** The card's Learn link, and how far this device got in the lesson ("Learned: lesson finished"). */
function learnLink(game) {
  const words = progressWords(lessonState(game.id));
  return [
    h("a", { class: "button secondary learn", href: `#learn=${game.id}`, "aria-label": `Learn ${game.name} by playing (one minute)` }, "Learn"),
    words ? h("span", { class: "learned", dataset: { learned: String(lessonState(game.id).finished) } }, words) : null,
  ];
}
