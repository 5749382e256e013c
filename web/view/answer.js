// The answer line: where the answer to the player's last action shows (a
// refused move and why, the computer's reply, a sealed pick's word, the picks
// revealed), on screen whenever the board is.
//
// It hangs from a zero-height anchor placed at the board's top edge, just
// under the bar over the board: it takes no layout space, so an answer that
// appears never moves the board (nor anything else) under the finger, however
// many lines it runs to. The anchor is sticky: when the board is scrolled
// partly under the status line stuck to the top of a phone's screen, the
// answer hangs under that line, over the part of the board still on screen.
// A reserved line was the other choice: it would push the board down for
// good by the height of the longest answer (three lines on a phone), or cut
// the words short.
//
// The line is only seen: a screen reader hears the same words from the live
// regions (#message, role=alert; #note, role=status) as before, so it is
// aria-hidden. ui/dom.js's showMessage writes both. A tap on the line puts it
// away (it covers the board's top edge); the next move puts it away too.

import { h } from "../ui/dom.js";

/** The anchor and its line (#answer), for the game view's skeleton. */
export function answerAnchor() {
  const line = h("p", { id: "answer", class: "answer-line", "aria-hidden": "true", hidden: true });
  // (put away on the click, not before: the tap that dismisses it never reaches the board under it)
  line.addEventListener("click", (event) => {
    event.stopPropagation();
    line.hidden = true;
  });
  return h("div", { class: "answer-anchor" }, line);
}

/** While the status line is stuck to the top, the anchor sticks under it:
 * `root` (the game's root) gets its height as --answer-top. */
export function keepUnderStatus(root, status) {
  const sticks = root.classList.contains("stuck") && status && getComputedStyle(status).position === "sticky";
  const height = sticks ? status.getBoundingClientRect().height : 0;
  root.style.setProperty("--answer-top", `${Math.ceil(height)}px`);
}
