// The board's place on the game page: it never rises under the finger
// (issue 56, point 6). Between two drawings of the same game, what is over the
// board may get shorter: the status line's second line goes, the pick's
// banner goes at the game's end, the bar goes. Each time, the room lost is
// given back in an empty band right over the board (.board-keep), so the board
// stays where the finger is; what grows over it later takes that band back
// first. Only what a drawing changes is counted (measured before and after
// it), not a page still settling (a style sheet, the fonts).
//
// Causes fixed where they are would be better, and are, where they can be
// (answer.js's bar room); this keeps the rule whatever the cause.

/** Where `el` is in the page, in px from the page's top. */
const pageTop = (el) => el.getBoundingClientRect().top + window.scrollY;

export class BoardPlace {
  #top = null; // the board's top in the page before the drawing under way

  /** Forget the place (a new game). */
  reset() {
    this.#top = null;
  }

  /** Before a drawing: where `board` (the board's region) is now. */
  mark(board) {
    this.#top = board?.isConnected && board.nodeType === Node.ELEMENT_NODE ? pageTop(board) : null;
  }

  /** After it: give back any rise of `board` in the band over it, or take
   * the band back when things over it grew. */
  keep(board) {
    const top = this.#top;
    this.#top = null;
    if (top == null || !board?.isConnected || board.nodeType !== Node.ELEMENT_NODE) return;
    const rose = top - pageTop(board);
    if (Math.abs(rose) < 0.5) return;
    let band = board.previousElementSibling?.classList.contains("board-keep") ? board.previousElementSibling : null;
    const height = Math.max(0, (band ? band.getBoundingClientRect().height : 0) + rose);
    if (height < 0.5) return band?.remove();
    if (!band) {
      band = document.createElement("div");
      band.className = "board-keep";
      band.setAttribute("aria-hidden", "true");
      board.before(band);
    }
    band.style.height = `${height}px`;
    // (a layout where the band does not move the board, a grid beside it: no band)
    if (Math.abs(pageTop(board) - top) > 0.5 && Math.abs(pageTop(board) - (top - rose)) < 0.5) band.remove();
  }
}
