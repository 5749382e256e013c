// Board modules: one renderer per game (boards/<game>.js, each render(view,
// ui) and thumbnail()), generic.js for a game without one. Each is imported
// once and its stylesheets (module.styles) are linked once. No engine here:
// the embed's poster draws a thumbnail before the engine is loaded.

import { h } from "../ui/dom.js";

const modules = new Map(); // module name -> Promise<module>
const linked = new Map(); // board stylesheet href -> Promise, settled once it has loaded (or failed to)

/** Link the module's stylesheets once each; resolves when all have loaded or
 * failed: a board drawn before its sheet would be laid out twice, and the
 * page would jump (a puzzle or lesson drawn before the engine, issue 53). */
function linkStyles(module) {
  return Promise.all((module.styles ?? []).map((file) => {
    const href = `boards/${file}`;
    if (!linked.has(href)) {
      linked.set(href, new Promise((settle) => {
        document.head.append(h("link", { rel: "stylesheet", href, onload: settle, onerror: settle }));
      }));
    }
    return linked.get(href);
  }));
}

/** The board module called `name`, once its stylesheets are in; rejects if it
 * does not load (and is asked again next time). */
export function loadBoard(name) {
  if (!modules.has(name)) {
    const pending = import(`./${name}.js`).then(async (module) => {
      await linkStyles(module);
      return module;
    });
    modules.set(name, pending);
    pending.catch(() => modules.delete(name));
  }
  return modules.get(name);
}

/** The board module of a game: its own, or the generic one when it has none
 * (`known`: the games that have one, from build.json, when known) or its own
 * fails to load. */
export async function boardFor(gameId, known = null) {
  if (known && !known.includes(gameId)) return loadBoard("generic");
  try {
    return await loadBoard(gameId);
  } catch (error) {
    if (known) console.warn(`the board of ${gameId} did not load; using the generic one`, error);
    return loadBoard("generic");
  }
}

/** A ui for a board module that draws a still board (a poster, a picture):
 * nothing plays, and nothing asks the engine (a board asks previews only of
 * a move being built, never while replaying). */
export function stillUi() {
  return {
    seat: null,
    replaying: true,
    play: async () => false,
    explain: () => {},
    confirm: async () => false,
    preview: () => Promise.reject(new Error("a still board asks no previews")),
  };
}
