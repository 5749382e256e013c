// The board's place on the game page: it never rises under the finger
// (issue 56, point 6). Between two drawings of the same game, what is over the
// board may get shorter: the status line's second line goes, the pick's
// banner goes at the game's end, the bar goes. Each time, the room lost is
// given back in an empty band right over the board (.board-keep), so the board
// stays where the finger is; what grows over it later takes that band back
// first. Only what a drawing changes is counted (measured before and after
// it), not a page still settling (a style sheet, the fonts), and only from a
// board that plays: the first drawing after one made before the engine (its
// status line says the game is opening, often a line longer) is not kept, as
// no finger was on that board, and a band kept there would stay for the
// whole game (24 px that pushed Nonconformity's number box off a 360 x 740
// screen).
//
// Causes fixed where they are would be better, and are, where they can be
// (answer.js's bar room); this keeps the rule whatever the cause.

/** Where `el` is in the page, in px from the page's top. */
const pageTop = (el) => el.getBoundingClientRect().top + window.scrollY;

export class BoardPlace {
  #top = null; // the board's top in the page before the drawing under way
  #plays = false; // the last drawing's board played (not one drawn before the engine)

  /** Forget the place (a new game). */
  reset() {
    this.#top = null;
    this.#plays = false;
  }

  /** Before a drawing: where `board` (the board's region) is now, if the
   * board drawn last played. */
  mark(board) {
    this.#top = this.#plays && board?.isConnected && board.nodeType === Node.ELEMENT_NODE ? pageTop(board) : null;
  }

  /** After it: give back any rise of `board` in the band over it, or take
   * the band back when things over it grew. `still`: this drawing's board
   * was drawn before the engine (still.js), and does not play yet. */
  keep(board, still = false) {
    const top = this.#top;
    this.#top = null;
    this.#plays = !still;
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
