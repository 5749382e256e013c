// The answer line: where the answer to the player's last action shows (a
// refused move and why, the computer's reply, a sealed pick's word, the picks
// revealed), on screen whenever the board is.
//
// It hangs from a zero-height anchor placed at the top of the seats' row
// over the board: the seats and the bar (the Hint button, the computer's
// "thinking", the hint's words), side by side on a phone or a frame up to 480
// px wide (the bar is then its buttons, and its words cover the seats: the
// Hint button takes no band of its own, issue 56), the bar under the seats
// on a wider screen (seatRow). It takes no layout space, so an answer
// that appears never moves the board (nor anything else) under the finger,
// however many lines it runs to. Nothing over the board (issue 56): it covers
// the bar, leaving the bar's buttons (Hint) uncovered, its foot on the bar's
// foot, and a longer answer rises from there over what is above the bar (the
// seats, the status line), never down over the board. A game that ends on
// screen keeps the bar's room (barRoom), which the end's words cover. Where
// the bar is elsewhere (a wide frame, a phone held sideways: style.css puts
// the anchor over the board), or there is no room above on screen, it hangs
// down from the board's top edge as before. The anchor is sticky: when the board is scrolled
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
  const anchor = h("div", { class: "answer-anchor" }, line);
  // (shown by ui/dom.js's showMessage, which knows no bar: placed here as it shows)
  new MutationObserver(() => { if (!line.hidden) overTheBar(anchor, line); })
    .observe(line, { attributes: true, attributeFilter: ["hidden"], childList: true, characterData: true, subtree: true });
  return anchor;
}

/** The row of the seats and the bar (the computers' region), under the
 * answer's anchor: `r` the skeleton's regions. */
export function seatRow(r) {
  return h("div", { class: "play-row" }, r.slot("seats"), r.slot("computers"));
}

/** Fit the line shown to the row it hangs over, if the row has a bar: the
 * bar's buttons left clear, from the row's top to the bar's foot at least,
 * its foot on the bar's foot, rising over what is above when longer. Else
 * down from the anchor, the whole width. */
function overTheBar(anchor, line) {
  line.style.right = line.style.minHeight = line.style.top = line.style.bottom = "";
  const row = anchor.nextElementSibling;
  const bar = row?.classList.contains("play-row") ? row.querySelector(":scope > .computer-bar, :scope > .bar-room") : null;
  if (!bar) return;
  const at = anchor.getBoundingClientRect();
  const box = bar.getBoundingClientRect();
  const rowBox = row.getBoundingClientRect();
  // (the row right under the anchor, and on screen: not scrolled away under a stuck status line)
  if (Math.abs(rowBox.top - at.top) > 4 || box.top < 0) return;
  const firstLine = [...bar.querySelectorAll("button, select")]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.top < box.top + box.height / 2);
  const clear = firstLine.length ? box.right - Math.min(...firstLine.map((r) => r.left)) + 6 : 0;
  if (clear > rowBox.width / 2) return; // (buttons across the row: the line covers them rather than shrink to nothing)
  const tall = box.bottom - at.top; // (the row down to the bar's foot: the seats beside or over it, and the bar)
  line.style.right = `${Math.ceil(clear + at.right - box.right)}px`;
  line.style.minHeight = `${Math.floor(tall)}px`;
  // its foot on the bar's foot; risen, its top under the status line stuck to the top, or the screen's
  line.style.top = "auto";
  line.style.bottom = `${-Math.floor(tall)}px`;
  const status = document.getElementById("status");
  const stuck = anchor.closest(".stuck") && status && getComputedStyle(status).position === "sticky";
  const ceiling = stuck ? Math.max(0, status.getBoundingClientRect().bottom) : 0;
  if (line.getBoundingClientRect().top < ceiling - 1) {
    // no room above on screen: down from the bar's top, as tall as it needs
    line.style.top = line.style.bottom = "";
  }
}

/** The bar's room once the game has ended on screen: as tall as the bar it
 * follows (`lastBar`, still on the page), empty, so the board stays where it
 * was and the end's words cover the room, not the board. Null where no bar
 * was (a finished game opened as it is). */
export function barRoom(lastBar) {
  // (the region is a comment while it is empty: a finished game opened as it is)
  if (!(lastBar instanceof Element) || !lastBar.isConnected || !lastBar.classList.contains("computer-bar")) return null;
  const { width, height } = lastBar.getBoundingClientRect();
  if (height < 1) return null;
  const margin = getComputedStyle(lastBar).marginBottom;
  const room = h("div", { class: "bar-room", "aria-hidden": "true" });
  // (set on the element's style, not as an attribute: the pages' CSP allows no inline style attribute)
  room.style.height = `${height}px`;
  room.style.marginBottom = margin;
  // (beside the seats on a phone, as wide as the bar was, so the seats keep their lines)
  room.style.setProperty("--bar-width", `${width}px`);
  return room;
}

/** While the status line is stuck to the top, the anchor sticks under it:
 * `root` (the game's root) gets its height as --answer-top. */
export function keepUnderStatus(root, status) {
  const sticks = root.classList.contains("stuck") && status && getComputedStyle(status).position === "sticky";
  const height = sticks ? status.getBoundingClientRect().height : 0;
  root.style.setProperty("--answer-top", `${Math.ceil(height)}px`);
}
