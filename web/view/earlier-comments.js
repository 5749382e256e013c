// The comment region under the board: the comment of the position shown,
// and, at the game's latest move, a mark for the comments on earlier moves,
// which a reader would otherwise find only by stepping back (issue 56). The
// mark is one button: it steps the replay to the first of them, where the
// region then shows that comment. No rule lives here: the comments are the
// engine's (view.notes, docs/RECORD.md).

import { h } from "../ui/dom.js";

/** The main line's comments before the latest move (`plies`): {count, first}
 * (first: the ply of the earliest, 0 for one before the first move), or null. */
export function earlierComments(view, plies) {
  const plys = (view.notes?.comments ?? []).map((c) => c.ply).filter((ply) => ply < plies);
  return plys.length ? { count: plys.length, first: Math.min(...plys) } : null;
}

/** The region: `remark` (the comment of the position shown, or null) and the
 * mark for `earlier` (earlierComments', or null); `show(ply)` steps there.
 * (The comment can take the focus: the mark's step gives it there.) */
export function commentRegion(remark, earlier, show) {
  if (!remark && !earlier) return null;
  const where = earlier && (earlier.first === 0 ? "before the first move" : `after move ${earlier.first}`);
  return h("div", { class: "comment-region" },
    remark ? h("p", { class: "move-comment shown-comment", id: "move-comment", tabindex: "-1", dataset: { key: "shown-comment" } }, h("span", { class: "visually-hidden" }, "Comment: "), remark) : null,
    earlier ? h("button", {
      type: "button", class: "secondary earlier-comments", dataset: { key: "earlier-comments", ply: earlier.first },
      onclick: () => show(earlier.first),
    }, earlier.count === 1 ? `A comment on an earlier move: show it (${where})`
      : `${earlier.count} comments on earlier moves: show the first (${where})`) : null);
}
