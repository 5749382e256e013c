// The position shown: the one thing every part of the game view reads
// (STYLE.md, principle 12). It is the game as this device holds it
// (`current`), and while stepping through it the past position or side-line
// position on screen (`replay`), with the hand-over screen, if any, that
// stands in front of the board (`hotseat`), and the queue of steps asked for
// but not drawn yet. The regions draw from it; nothing reads "the game as it
// stands" behind its back.
//
// current: {record (public: for links), private_record (to play on from),
//           view (public), secret, plies, seal, linkSeat, saveId}, or null
// replay:  {ply, plies, view, comment, move, record, line?, seat?} while a
//          past position is shown (line: {index, n, from, length} in a side line)
// hotseat: {phase: "ask" | "handover" | "pick" | "link", seat, seatView, …}
//          (handover.js, commit.js), or null

import { seatName } from "../ui/dom.js";
import { moveInWords } from "./history.js";

export class ShownPosition {
  current = null;
  replay = null;
  hotseat = null;
  reveal = ""; // the round just revealed, in words, shown once

  /** ask(call, args): a bridge call; sideLines: who may play from a past position (sidelines.js). */
  constructor({ ask, sideLines }) {
    this.ask = ask;
    this.sideLines = sideLines;
  }

  /** Nothing shown (the game view left its game). */
  clear() {
    this.current = null;
    this.replay = null;
    this.hotseat = null;
    this.reveal = "";
  }

  /** The moves in the record, for drawing (a secret pick counts). */
  plies() {
    return this.current.plies ?? this.current.view.history.length + (this.current.secret ? 1 : 0);
  }

  /** The moves in the record as the engine counts them (asked once per game shown). */
  async plyCount() {
    const { current } = this;
    if (current.plies == null) current.plies = (await this.ask("at", { record: current.private_record, ply: 0 })).plies;
    return current.plies;
  }

  /** The ply on screen: the past position's, else the end of the record. */
  shownPly() {
    return this.replay ? this.replay.ply : this.plies();
  }

  /** Set the replay to the position after `ply` moves (none at the end of the record). */
  async showPly(ply) {
    const plies = await this.plyCount();
    const wanted = Math.max(0, Math.min(ply, plies));
    if (wanted >= plies) {
      this.replay = null;
    } else {
      const args = { record: this.current.private_record, ply: wanted };
      const at = await this.ask("at", args);
      const replay = { ply: wanted, plies: at.plies, view: at.view, comment: at.comment ?? null, move: wanted > 0 ? moveInWords(this.current.view, wanted - 1) : null, record: at.private_record };
      this.replay = await this.sideLines.withReplaySeat(replay, args, this.current.view.moves?.[wanted]?.seat);
    }
  }

  /** Set the replay to the position after move `n` of side line `index`; false if there is no such line. */
  async showLine(index, n) {
    const line = this.current.view.notes?.lines?.[index];
    if (!line) return false;
    const args = { record: this.current.private_record, ply: n, line: index };
    const at = await this.ask("at", args);
    const move = line.moves[n - 1];
    const replay = {
      ply: line.ply + n, plies: this.plies(), view: at.view, comment: at.comment ?? null,
      move: move ? `${seatName(this.current.view, move.seat)}: ${move.words}` : null,
      line: { index, n, from: line.ply, length: line.moves.length }, record: at.private_record,
    };
    this.replay = await this.sideLines.withReplaySeat(replay, args, line.moves[n]?.seat);
    return true;
  }

  // Steps through the record (the moves list, the step buttons, the arrow
  // keys, the chart) are taken in turn, never dropped while another is under
  // way, and a step by key goes from the position last asked for (aimed()),
  // so keys pressed faster than the screen is drawn still land where they
  // would have, one after the other.
  #aim = null; // {ply} or {line, n}: the position the latest step asked for, until it is shown
  #steps = Promise.resolve();

  /** Queue `work` (which shows `target`) behind the steps before it; `run(work)`
   * runs it as the game view's busy step, once nothing else is busy. */
  queue(target, work, { busy, run }) {
    this.#aim = target;
    const go = async () => {
      if (this.#aim !== target) return; // a later step goes on from here: this one need not be drawn
      while (busy()) await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        await run(work);
      } finally {
        if (this.#aim === target) this.#aim = null;
      }
    };
    this.#steps = this.#steps.then(go, go);
    return this.#steps;
  }

  /** The position the latest step asked for, else the one shown: {ply} or {line, n}. */
  aimed() {
    if (this.#aim) return this.#aim;
    const { replay } = this;
    return replay?.line ? { line: replay.line.index, n: replay.line.n } : { ply: replay ? replay.ply : this.current ? this.plies() : 0 };
  }

  /** Where a step from the position aimed at lands: by -1 or +1, or to its
   * "first" or "last" move, along its line. {ply} or {line, n}, with the
   * moves list's key of that move (focusMove), or null for no step. */
  stepFrom(delta, focusMove) {
    const aim = this.aimed();
    const key = (k) => (focusMove ? k : null);
    if (aim.line != null) {
      const line = this.current.view.notes?.lines?.[aim.line];
      if (!line) return null;
      const n = delta === "first" ? 1 : delta === "last" ? line.moves.length : aim.n + delta;
      if (n < 1) return { ply: line.ply, key: key(`ply-${line.ply}`) }; // back from its first move: where it branches off
      if (n > line.moves.length || n === aim.n) return null;
      return { line: aim.line, n, key: key(`line-${aim.line}-${n}`) };
    }
    const plies = this.plies();
    const ply = delta === "first" ? (focusMove ? 1 : 0) : delta === "last" ? plies : aim.ply + delta;
    if (ply < 0 || ply > plies || ply === aim.ply) return null;
    return { ply, key: key(`ply-${ply}`) };
  }
}
