// An older link of a game this device holds (an old link, or Back, of a game
// that went on here): the game as it stands is opened at the link's move, and
// the replay banner over the board says so, once, with one count ("move 4 of
// 6") and the two ways on: the game as it stands, or a new game from the
// link's position. (Shown as the link alone, a move there was refused as if
// another tab had played.) The new game keeps the seats this device plays.

import { knowSaved } from "../share/saved.js";
import { keepSeats, seatsHere } from "../share/seats.js";
import { hotSeatRecord } from "./commit.js";

export class OlderLinks {
  #older = null; // {saveId, ply, moves, linkSeat, link (the bridge's answer for the link)}

  /** engine: the worker client; view(): the game view, once made. */
  constructor({ engine, view }) {
    this.engine = engine;
    this.view = view;
  }

  forget() {
    this.#older = null;
  }

  /** Open the saved game `entry` at the position of the older link `opened`. */
  async open(opened, entry) {
    const held = await this.engine.request("open", { record: hotSeatRecord(entry.id) ?? entry.record }, { retry: true });
    const ply = opened.view.history.length;
    const view = this.view();
    view.leave();
    this.#older = { saveId: entry.id, ply, moves: entry.moves, linkSeat: entry.linkSeat ?? null, link: opened };
    knowSaved(entry.id, entry.record);
    // (the address names the game as it stands: a reload opens it there)
    history.replaceState(null, "", `#${held.record}`);
    await view.show(held, { saveId: entry.id, linkSeat: entry.linkSeat ?? null, ply });
    window.scrollTo({ top: 0 });
  }

  /** The banner's word on the older link's position (drawing.js), while it is the one shown. */
  aside(replay) {
    const older = this.#older;
    const view = this.view();
    if (!older || replay.line || replay.ply !== older.ply || view.current?.saveId !== older.saveId) return null;
    return {
      words: `This link shows move ${older.ply} of ${older.moves}: on this device the game has gone on since it was sent. ` +
        "Go on with the game as it stands, or play on from this position as a new game (the game here stays as it is).",
      label: "Play on from here as a new game", key: "play-on-new",
      onClick: async () => {
        const { link } = older;
        const apart = await this.engine.request("new_id", { record: link.private_record ?? link.record }, { retry: true });
        // (this device plays the same seats in the new game as in the one it came from)
        const seats = seatsHere(link.view.game_id);
        if (seats) keepSeats(apart.view.game_id, seats);
        view.leave();
        this.forget();
        history.replaceState(null, "", `#${apart.record}`);
        // (opened as a link is: a pick this device sealed there is revealed, if its round is complete; sealing.js)
        await view.openLink(apart, { saveId: null, linkSeat: older.linkSeat, save: true, focus: "board" });
      },
    };
  }
}
