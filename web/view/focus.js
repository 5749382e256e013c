// Where the focus goes when the game view draws again. It is kept by identity
// (the same element, or its namesake in a rebuilt region: the same data-move,
// data-try, data-key or id), else it goes where a step asked for it (after a
// move, the board; after Undo, its button). It is given on the next frame,
// once the page is laid out for it (focusing forces a layout), and never
// scrolls the page: nothing moves under the finger. On the board it goes to a
// target on screen where there is one (a move target first, then the board's
// other controls), so a keyboard player sees it too.

/** What picks out an element again after its region is rebuilt. */
export function identity(el) {
  if (!el || el === document.body) return null;
  const { move, try: tryMove, key } = el.dataset ?? {};
  if (move != null) return `[data-move="${CSS.escape(move)}"]`;
  if (tryMove != null) return `[data-try="${CSS.escape(tryMove)}"]`;
  if (key != null) return `[data-key="${CSS.escape(key)}"]`;
  if (el.id) return `#${CSS.escape(el.id)}`;
  return null;
}

/** What the focus was before a draw of `root` (the game view's element), with `board` its board region. */
export function focusBefore(root, board) {
  const active = root.contains(document.activeElement) ? document.activeElement : null;
  return { active, id: identity(active), inBoard: !!active && !!board?.contains?.(active) };
}

/** After a draw: where the focus goes on the next frame (a plan for
 * applyFocus), or null. before: focusBefore's; focus: what the draw was
 * asked for (drawSoon's focus); board: the board region now. */
export function planFocus(game, root, before, focus, board) {
  const { active, id, inBoard } = before;
  let plan = null;
  if (active && !active.isConnected && id) {
    let again = root.querySelector(id);
    // a step button that is now disabled (at the first move): the nearest one that is not
    if (again?.disabled) again = again.closest("[role=group], section, div")?.querySelector("button:not(:disabled)") ?? null;
    if (again) plan = { el: again, preventScroll: true, ifLost: true };
    // (outside the board, at once: a key pressed before the next frame still reaches it)
    if (again && !board?.contains?.(again)) again.focus({ preventScroll: true });
  }
  const lostInBoard = inBoard && !active?.isConnected && !plan;
  return focusTarget(game, root, plan && focus === "board" ? "board-kept" : focus, lostInBoard) ?? plan;
}

// The board's places for the focus, best first: the hand-over screen's
// button, the board's one Tab stop, any move target, anything else focusable.
const BOARD_FOCUS = [".curtain button", "[data-move][tabindex='0']", "[data-move]", "[tabindex='0']", "button, input"];

/** Whether `el` is wholly inside the window. */
function onScreen(el) {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}

/** The board's best place for the focus: of BOARD_FOCUS's kinds in turn, the
 * first one on screen; else the first there is (focused without scrolling). */
function boardFocus(board) {
  if (!board) return null;
  let first = null;
  for (const selector of BOARD_FOCUS) {
    const els = [...board.querySelectorAll(selector)];
    const seen = els.find(onScreen);
    if (seen) return seen;
    first ??= els[0] ?? null;
  }
  return first;
}

/** Where focus goes: focus as drawSoon's, or "board-kept" (after a move, the
 * focused target is still there); lostInBoard: the focused element went with
 * the old board. {el, preventScroll, inBoard}, or null for nowhere new. The
 * page is never scrolled to it. */
function focusTarget(game, root, focus, lostInBoard) {
  if (!focus && !lostInBoard) return null;
  const { current, hotseat } = game;
  let el = null;
  let find = null; // (the board's place is chosen on the next frame, once the page is laid out)
  const inBoard = focus === "board" || focus === "board-kept" || (!focus && lostInBoard);
  if (focus === "board" || (!focus && lostInBoard)) {
    find = () => boardFocus(document.getElementById("board"));
  } else if (focus === "exit-replay") {
    el = root.querySelector("[data-key=back]");
  } else if (focus && focus !== "board-kept") {
    el = root.querySelector(`[data-key="${CSS.escape(focus)}"]`);
    if (el?.disabled) el = root.querySelector(".replay-nav button:not(:disabled)") ?? root.querySelector("[data-key=undo]:not(:disabled)");
  }
  if (inBoard) {
    if (current?.view.is_over && !game.replay && document.getElementById("summary")) el = document.getElementById("summary-title");
    if (hotseat && hotseat.phase !== "pick") el = document.getElementById("curtain-title") ?? el;
  }
  if (el) return { el, preventScroll: true, inBoard };
  return find ? { find, preventScroll: true, inBoard } : null;
}

/** Give the focus a draw planned (planFocus), on the next frame, unless a
 * board module has put it back itself by then. */
export function applyFocus(plan) {
  if (!plan) return;
  requestAnimationFrame(() => {
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (!lost && (plan.ifLost || (plan.inBoard && document.getElementById("board")?.contains(active)))) return;
    const el = plan.el ?? plan.find();
    if (el?.isConnected) el.focus({ preventScroll: plan.preventScroll });
  });
}

/** Scroll the page the least that brings `board` back into view, when less
 * than half of it is on screen (a phone, stepping in the list below it). */
export function boardInView(board) {
  if (!board?.getBoundingClientRect) return;
  const r = board.getBoundingClientRect();
  const seen = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  if (seen < Math.min(r.height, innerHeight) / 2) board.scrollIntoView({ block: r.height <= innerHeight ? "nearest" : "start" });
}
