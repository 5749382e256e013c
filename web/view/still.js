// The game view before the engine is up: a position from a link's poster or
// from the view this device kept of the game (share/still.js), drawn in the
// game page's own skeleton and regions, so that the engine's view, when it
// comes, is drawn into the same boxes and nothing moves.
//
// It is display data, not the engine's answer: nothing is saved from it, no
// computer thinks on it, nothing is asked ahead, and the panels that need the
// whole record (the moves list, the share panel, the analysis) wait for the
// engine. A move made on it (where its board has targets: a view this device
// kept) is not played here: the latest is kept, said to wait, and played by
// the game view's normal path once the engine has opened the game (or refused
// there, in the engine's words). Nothing is played twice: taking it clears it.

import { stylesLoaded } from "../ui/dom.js";
import { hotSeatFor } from "./handover.js";

const waitWords = (move) =>
  `The game engine is still loading: your move ${move} will be played as soon as it is ready.`;

/** A still view with what the game view reads of a whole one (empty lists, no notes). */
function drawable(view) {
  return { legal_moves: [], moves: [], notes: null, comment: null, record: "", ...view, history: [] };
}

export class StillPosition {
  #kept = null; // the notation of the move made on the still board, waiting for the engine

  /** game: the GameView this draws into. */
  constructor(game) {
    this.game = game;
  }

  /** Draw `still` ({record, view, plies, from}: share/still.js) as the game shown. */
  async show(still) {
    const { game } = this;
    game.renderer = await game.options.boardFor(still.view.game);
    await stylesLoaded(); // (its board's sheet: drawn before it, the board would be laid out twice)
    game.current = {
      record: still.record, private_record: still.record, view: drawable(still.view), still: still.from,
      secret: false, plies: still.plies, seal: null, linkSeat: null, saveId: null,
    };
    game.replay = null;
    game.reveal = "";
    // (a round of secret picks at one screen opens on its curtain, as the engine's view will: handover.js)
    game.hotseat = game.options.readOnly ? null : hotSeatFor(game.current.view, false);
    this.#kept = null;
    await game.drawSoon();
  }

  /** A move made on the still board: kept until the engine is up. Returns false (not played now). */
  keep(notation) {
    this.#kept = String(notation);
    this.game.explain(waitWords(this.#kept), "info");
    return false;
  }

  /** The move kept, given once: null if none. */
  take() {
    const move = this.#kept;
    this.#kept = null;
    return move;
  }
}
