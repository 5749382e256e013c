// Tabs that agree: every saved game is its own localStorage key (saved.js), and
// a browser tells every other tab of the site when one of them writes a key
// (the `storage` event; the writing tab itself is not told). So a move saved
// in one tab reaches every tab that shows the same game, and a home page
// listing the saved games redraws its list.
//
// No rule here either: the page opens the record it is told of through the
// engine, as it opens any link.

import { readSaved, savedIdOfKey } from "./saved.js";

/**
 * Call onList() when the saved games change in another tab, and
 * onGame(id, entry) when the saved game `id` does (entry: as stored now,
 * null once deleted or unreadable). Returns a function that stops watching.
 */
export function watchTabs({ onList = () => {}, onGame = () => {} }) {
  const listener = (event) => {
    if (event.storageArea && event.storageArea !== localStorage) return;
    if (event.key === null) { // the whole storage cleared
      onList();
      return;
    }
    const id = savedIdOfKey(event.key);
    if (!id && !event.key.startsWith("quetgames.saved.")) return;
    onList();
    if (id) onGame(id, readSaved(id));
  };
  window.addEventListener("storage", listener);
  return () => window.removeEventListener("storage", listener);
}
