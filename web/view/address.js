// The address follows the game: after the `#` it always holds the record of
// the game shown, so the address bar is a working link (docs/RECORD.md).
//
// After a move it is written once the frame that shows the new board is
// painted: writing it is a same-document navigation, which took 41% of a
// click on a phone's CPU, and the board comes first. Until then the page
// says so (<html data-address="due">, which the browser tests wait out). An
// address written meanwhile takes its place, leaving the game drops it, and
// leaving the page writes it.

import { onceFramePainted } from "./frames.js";

export class Address {
  #due = null; // the fragment a move left for after the paint
  #was = null; // the address when it was left for later

  /**
   * enabled: the address's fragment follows the record (false in a frame that
   * keeps its own address); shownRecord() -> the public record of the game
   * shown now; onFollow(fragment): after the address changed.
   */
  constructor({ enabled, shownRecord, onFollow }) {
    this.enabled = enabled;
    this.shownRecord = shownRecord;
    this.onFollow = onFollow;
    addEventListener("pagehide", () => this.#writeDue()); // (the address history keeps)
  }

  /** Show `fragment` in the address: now, or (afterPaint) once the next frame is painted. */
  follow(fragment, { afterPaint = false } = {}) {
    if (afterPaint && this.enabled) {
      if (this.#due == null) {
        onceFramePainted(() => this.#writeDue());
        document.documentElement.dataset.address = "due";
        this.#was = location.href;
      }
      this.#due = fragment;
      return;
    }
    this.forget();
    if (this.enabled) history.replaceState(null, "", `#${fragment}`);
    this.onFollow?.(fragment);
  }

  /** Write the address a move left for after the paint, if the game shown is
   * still that one (another tab's save may have opened another meanwhile) and
   * nobody went to another address meanwhile (a link, Back: that one stays). */
  #writeDue() {
    const due = this.#due;
    if (due == null) return;
    if (this.shownRecord() === due && location.href === this.#was) this.follow(due);
    else this.forget();
  }

  /** Drop an address left for after the paint (the game is left). */
  forget() {
    this.#due = null;
    delete document.documentElement.dataset.address;
  }
}
