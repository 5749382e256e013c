// The game page and the site's other tabs (tabs.js tells of their saves).
// Every tab showing a saved game follows it when another tab saves it: the new
// record is opened as any link is (app.js routes it), so the game on screen is
// the one stored. A tab that missed that (catchUp, before a move) catches up
// first and plays nothing. A save that finds the stored game moved on (two
// tabs moved from one position) is not written: the player chooses.
//
// It reaches the game view (gameview.js) only through what it shows (current,
// busy) and show()/leave(); the routing and the home page stay in app.js,
// which it calls back.

import { conflictPanel } from "../share/links.js";
import { changedElsewhere, gameSaveId, knowSaved, onSaveConflict } from "../share/saved.js";
import { watchTabs } from "../share/tabs.js";

const TAB_WORDS = "This game was played on in another tab; here it is as it stands now.";

/**
 * Follow the other tabs for `gameView`. engine: for comparing two records and
 * a new id; notices: the [text, kind] list the page shows once next drawn;
 * reroute(): open the address as a link; onList(): the saved games changed;
 * showConflict(panel): put the choice (links.js conflictPanel) on the home page.
 * Returns {catchUp}: before a move, catchUp(current) is true (and the game
 * brought up to date) if another tab moved it on.
 */
export function followOtherTabs(gameView, { engine, notices, reroute, onList, showConflict }) {
  let tabConflict = false; // a save was refused for another tab's: the player chooses, nothing follows meanwhile

  /** The saved game `id` is the game on screen: saved under that id here, or,
   * not saved here yet, saved under its game id by another tab. */
  function showsSaved(id) {
    const { current } = gameView;
    return !!current && (current.saveId != null ? current.saveId === id : gameSaveId(current.view) === id);
  }

  /** Show the saved entry's record in place of the game on screen (the same game, further on). */
  async function followSaved(entry, words) {
    while (gameView.busy) await new Promise((resolve) => setTimeout(resolve, 40));
    const { current } = gameView;
    if (tabConflict || !current || !showsSaved(entry.id) || current.record === entry.link) return;
    knowSaved(entry.id, entry.record);
    notices.push([words, "info"]);
    history.replaceState(null, "", `#${entry.link}`);
    await reroute();
  }

  /** The saved copy of the game on screen, if another tab saved it as something
   * else than this tab knew (a game this tab has not saved yet is looked up
   * under its game id, against the record it shows); else null. */
  function storedElsewhere(current) {
    if (!current) return null;
    return current.saveId != null ? changedElsewhere(current.saveId) : changedElsewhere(gameSaveId(current.view), current.record);
  }

  // A tab brought to the front looks again, in case a save of another tab's
  // reached it while it could not follow (busy, or a browser that held it back).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible" || gameView.busy) return;
    const stored = storedElsewhere(gameView.current);
    if (stored) followSaved(stored, TAB_WORDS).catch((error) => console.warn("could not follow the other tab:", error));
  });

  function catchUp(current) {
    const stored = storedElsewhere(current);
    if (!stored) return false;
    followSaved(stored, "This game was played on in another tab, so your move was not played: here it is as it stands now. Play your move again if it still fits.");
    return true;
  }

  watchTabs({
    onList,
    onGame: (id, entry) => {
      if (entry && showsSaved(id)) followSaved(entry, TAB_WORDS).catch((error) => console.warn("could not follow the other tab:", error));
    },
  });

  onSaveConflict(({ id, mine, theirs }) => {
    const record = gameView.current?.saveId === id ? gameView.current.private_record : mine.link;
    tabConflict = true;
    // (after the move's own drawing and saving have finished)
    setTimeout(() => showTabConflict(record, mine, theirs).catch((error) => console.warn("the tab conflict could not be shown:", error)), 0);
  });

  async function showTabConflict(record, mine, theirs) {
    let words = `in another tab this game went on to ${theirs.moves} ${theirs.moves === 1 ? "move" : "moves"} while you played here from the same position`;
    try {
      const answer = await engine.request("compare", { mine: theirs.record, theirs: mine.record }, { retry: true });
      if (answer.relation === "changed" && answer.where) words = `at ${answer.where}, another tab has “${answer.mine}” and this tab “${answer.theirs}”, both played from the same position`;
    } catch {
      // the plain words above
    }
    gameView.leave();
    tabConflict = false; // (no game is shown: nothing to follow until the player chooses)
    showConflict(conflictPanel("tab", words, [
      { label: "Keep the other tab's game", key: "keep-theirs", href: `#${theirs.link}`, primary: true },
      { label: "Keep this tab's game as a separate game", key: "open-separate", onClick: async () => {
        gameView.leave();
        const apart = await engine.request("new_id", { record }, { retry: true });
        history.replaceState(null, "", `#${apart.record}`);
        await gameView.show(apart, { saveId: null, linkSeat: null, save: true });
      } },
    ]));
  }

  return { catchUp };
}
