// Beside the board: the moves played (each one a button that shows the game as
// it stood after it; arrow keys step along a line), comments and side lines,
// the replay controls, undo, and the end-of-game summary. Stepping through the
// game never changes it: the page asks the engine for the position after n
// moves (bridge "at"); a move played there asks first (sideLineDialog).

import { h, listInWords, seatName } from "../ui/dom.js";
import { askInDialog } from "../ui/dialog.js";

/**
 * moves: the public moves (view.moves: {seat, move, kind, words}); names: the
 * seats' names; ply: the move shown while replaying
 * (null when showing the game as it stands); plies: moves in the record.
 * on: {replayTo(ply), exit(), undo(), lineTo(index, n), annotate(), dropLine(index),
 * stepBy(delta | "first" | "last", {focusMove}): a step from the position last asked for};
 * canUndo: whether undo is offered; canDropLines: whether a side line may be removed.
 */
export function movesPanel(panel, on) {
  // (the buttons read the panel and the actions when pressed: a list brought up to date in place keeps its buttons)
  const ctx = { panel, on };
  const { moves, notes = null } = panel;
  const comments = new Map((notes?.comments ?? []).map(({ ply: at, text }) => [at, text]));
  const item = moveItem(ctx);
  // each move as the engine words it (view.moves), with its mover: "3. Ann: x at c4"
  // (the keys are explained where there is a keyboard, or a pointer that goes with one; not on a touch screen)
  const keys = typeof matchMedia !== "function" || matchMedia("(any-pointer: fine)").matches;
  const list = h("ol", { class: "move-list", "aria-label": "Moves played", "aria-describedby": keys ? "moves-keys" : null }, moves.map(item));
  if (moves.length === 0) list.append(h("li", { class: "no-moves" }, "No moves yet."));
  list.addEventListener("keydown", (event) => stepByKey(event, ctx));
  const head = panelHead(panel, on);
  const nav = panelNav(panel, on);
  const section = h("section", { class: "moves", "aria-labelledby": "moves-title" },
    head,
    comment(comments.get(0)),
    list,
    keys ? h("p", { id: "moves-keys", class: "visually-hidden" }, "On a move, the arrow keys step to the move before or after it in its line, Home and End to the line's first and last.") : null,
    nav);
  drawnPanels.set(section, { ctx, head, nav, list });
  return section;
}

/** Scroll a moves list (its own box, never the page) so that the move shown
 * is inside it: the current move while stepping through, else the last one.
 * The box's top edge falls between two rows of moves, never across one: a
 * row is never cut mid-line (at the list's end, a little room is added under
 * the last row for that). */
export function followCurrentMove(section) {
  const list = section?.querySelector?.(".move-list");
  if (!list) return;
  const added = parseFloat(list.style.paddingBottom) || 0; // (room added the last time)
  const natural = list.scrollHeight - added;
  if (natural <= list.clientHeight) {
    if (added) list.style.paddingBottom = "";
    return;
  }
  const move = list.querySelector("button.ply[aria-current]") ?? [...list.querySelectorAll(":scope > li > button.ply")].at(-1);
  if (!move) return;
  const box = list.getBoundingClientRect();
  const at = move.getBoundingClientRect();
  const inner = (y) => y - box.top - list.clientTop + list.scrollTop; // a y on screen, in the list's own coordinates
  // where the rows start (the list wraps its moves in rows)
  const rows = [...new Set([...list.children].map((li) => Math.round(inner(li.getBoundingClientRect().top))))].sort((a, b) => a - b);
  let top;
  if (at.top < box.top) top = rows.findLast((y) => y <= inner(at.top)) ?? 0;
  else if (at.bottom > box.bottom) top = rows.find((y) => y >= inner(at.bottom) - list.clientHeight + 2) ?? inner(at.top);
  else return;
  const room = Math.ceil(top - (natural - list.clientHeight));
  // (CSSOM: the CSP allows no style attributes)
  list.style.paddingBottom = room > 0 ? `${room}px` : "";
  list.scrollTop = top;
}

// The moves lists movesPanel made: section -> {ctx: {panel, on}, head, nav, list}
const drawnPanels = new WeakMap();

/**
 * Bring a moves list movesPanel made up to `panel` in place when the only
 * news is moves played at the end of the game as it stands (the usual case
 * after a move): the new moves are appended and the buttons above and below
 * made again; every move already listed (and the focus on it) stays. false:
 * it cannot be (stepping through, comments or side lines or names changed),
 * and the caller makes a new one.
 */
export function updateMovesPanel(section, panel, on) {
  const drawn = drawnPanels.get(section);
  if (!drawn) return false;
  const old = drawn.ctx.panel;
  const same = (key) => JSON.stringify(old[key] ?? null) === JSON.stringify(panel[key] ?? null);
  if (old.ply != null || panel.ply != null || old.line != null || panel.line != null || old.canReplay !== panel.canReplay
      || panel.moves.length < old.moves.length || !same("notes") || !same("names")
      || (old.canDropLines !== panel.canDropLines && panel.notes?.lines?.length)) return false;
  for (let i = 0; i < old.moves.length; i++) {
    const [a, b] = [old.moves[i], panel.moves[i]];
    if (a.seat !== b.seat || a.words !== b.words || a.kind !== b.kind) return false;
  }
  drawn.ctx.panel = panel;
  drawn.ctx.on = on;
  if (panel.moves.length > old.moves.length) {
    drawn.list.querySelector(":scope > .no-moves")?.remove();
    const item = moveItem(drawn.ctx);
    drawn.list.append(...panel.moves.slice(old.moves.length).map((move, k) => item(move, old.moves.length + k)));
  }
  if (old.canAnnotate !== panel.canAnnotate || old.canUndo !== panel.canUndo || old.plies !== panel.plies) {
    const head = panelHead(panel, on);
    drawn.head.replaceWith(head);
    drawn.head = head;
  }
  if (old.plies !== panel.plies) {
    const nav = panelNav(panel, on);
    drawn.nav.replaceWith(nav);
    drawn.nav = nav;
  }
  return true;
}

const comment = (text) => (text ? h("p", { class: "move-comment" }, text) : null);

/** The list's item for move i (0-based) of ctx.panel, with its comment and side lines. */
function moveItem(ctx) {
  const { names, ply, plies, canReplay, notes = null, line = null, canDropLines = false } = ctx.panel;
  const live = ply == null && line == null;
  const shown = live ? plies : ply;
  const comments = new Map((notes?.comments ?? []).map(({ ply: at, text }) => [at, text]));
  // comments and side lines (the engine's notes: docs/RECORD.md), as plain text
  const sideLines = (at) => (notes?.lines ?? []).filter((l) => l.ply === at).map((l) => {
    const said = new Map(l.comments.map(({ n, text }) => [n, text]));
    const moveList = h("ol", { class: "side-line", "aria-label": `Side line instead of move ${at + 1}`, dataset: { from: at } },
      l.moves.map((move, k) => h("li", { class: `kind-${move.kind}`, dataset: { seat: move.seat } },
        h("button", {
          type: "button", class: "ply line-ply", dataset: { key: `line-${l.index}-${k + 1}` }, disabled: !canReplay,
          "aria-current": line?.index === l.index && line.n === k + 1 ? "step" : null,
          onclick: () => ctx.on.lineTo(l.index, k + 1),
        }, h("span", { class: "visually-hidden" }, `Side line instead of move ${at + 1}: `),
        h("span", { class: "ply-number" }, `${at + k + 1}.`), " ",
        h("span", { class: "mover", dataset: { seat: move.seat } }, `${names[move.seat] ?? ""}:`), " ",
        h("span", { class: "move-words" }, move.words)),
        comment(said.get(k + 1)))));
    return h("div", { class: "side-line-box" }, moveList,
      ctx.on.dropLine ? h("button", {
        type: "button", class: "secondary drop-line", dataset: { key: `drop-line-${l.index}` }, disabled: !canDropLines,
        "aria-label": `Remove the side line instead of move ${at + 1}`, onclick: () => ctx.on.dropLine(l.index),
      }, "Remove") : null);
  });
  return (move, i) => h("li", { class: `kind-${move.kind}`, dataset: { seat: move.seat } },
    h("button", {
      type: "button", class: "ply", dataset: { key: `ply-${i + 1}` }, disabled: !canReplay,
      "aria-current": shown === i + 1 && !live && line == null ? "step" : null,
      "aria-label": `Move ${i + 1}, ${names[move.seat] ?? ""}: ${move.words}: show the game after it`,
      onclick: () => (i + 1 >= ctx.panel.plies ? ctx.on.exit() : ctx.on.replayTo(i + 1)),
    }, h("span", { class: "ply-number" }, `${i + 1}.`), " ",
    h("span", { class: "mover", dataset: { seat: move.seat } }, `${names[move.seat] ?? ""}:`), " ",
    h("span", { class: "move-words" }, move.words)),
    comment(comments.get(i + 1)),
    sideLines(i));
}

/** The list's heading with Annotate and Take back. */
function panelHead({ ply, line = null, canUndo, canAnnotate = false }, on) {
  const live = ply == null && line == null;
  return h("div", { class: "moves-head" },
    h("h2", { id: "moves-title" }, "Moves"),
    on.annotate ? h("button", {
      type: "button", class: "secondary annotate", dataset: { key: "annotate" }, disabled: !canAnnotate,
      onclick: on.annotate,
    }, "Annotate") : null,
    on.undo ? h("button", {
      type: "button", class: "secondary undo", dataset: { key: "undo" }, disabled: !canUndo || !live,
      onclick: on.undo,
    }, "Take back last move") : null);
}

/** The step buttons under the list. */
function panelNav({ ply, plies, canReplay, notes = null, line = null }, on) {
  const live = ply == null && line == null;
  const shown = live ? plies : ply;
  const step = (key, words, label, target, enabled) =>
    h("button", {
      type: "button", class: "secondary step", dataset: { key }, "aria-label": label,
      disabled: !enabled, onclick: () => (typeof target === "function" ? target() : target >= plies ? on.exit() : on.replayTo(target)),
    }, words);
  // in a side line, Back and Forward go along it (back from its first move: where it branches off)
  const inLine = line ? (notes?.lines ?? []).find((l) => l.index === line.index) : null;
  // (Back and Forward go from the position last asked for: two quick clicks are two steps)
  return h("div", { class: "replay-nav", role: "group", "aria-label": "Step through the game" },
    step("first", "« First", "First: the start of the game", 0, canReplay && (shown > 0 || line != null)),
    inLine
      ? step("back", "‹ Back", "Back one move in this side line", () => on.stepBy(-1), canReplay)
      : step("back", "‹ Back", "Back one move", () => on.stepBy(-1), canReplay && shown > 0),
    inLine
      ? step("forward", "Forward ›", "Forward one move in this side line", () => on.stepBy(1), canReplay && line.n < inLine.moves.length)
      : step("forward", "Forward ›", "Forward one move", () => on.stepBy(1), canReplay && !live),
    step("last", "Last »", "Last: the game as it stands", plies, canReplay && !live));
}

/** Arrow keys on a move of the list: the move before or after the position
 * shown (or last asked for, when keys come faster than the screen is drawn)
 * in its own line (the game's, or a side line's, whose first move steps back
 * to the position it branches from), Home and End its first and last; the
 * position is shown and the focus follows it. */
function stepByKey(event, ctx) {
  const button = event.target.closest?.("button.ply");
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  const end = { Home: "first", End: "last" }[event.key];
  if (!button || (!step && !end) || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  if (button.disabled || !ctx.panel.canReplay) return;
  ctx.on.stepBy(step ?? end, { focusMove: true });
}

/** The dialog that asks what a move played at a past position is meant to
 * be: resolves "branch" (a side line; the game is kept whole), "cut" (the
 * later moves taken back and this one played), or null (cancelled). at: the
 * move's number; next: the game's own move there, in words; why: why "cut"
 * is not offered (null: it is). */
export function sideLineDialog({ at, move, mover, next, plies, why }) {
  const later = plies - at + 1;
  const taken = later === 1 ? `Move ${at} is taken back` : `Moves ${at} to ${plies} are taken back`;
  const choice = (value, words, help, key) => {
    const id = `side-line-${value}-help`;
    const button = h("button", { type: "button", value, class: value === "branch" ? null : "secondary", dataset: { key }, "aria-describedby": id }, words);
    button.addEventListener("click", () => { answer = value; dialog.close(); });
    return h("div", { class: "side-line-choice" }, button, h("p", { id, class: "hint" }, help));
  };
  const cancel = h("button", { type: "button", class: "secondary", value: "cancel", dataset: { key: "side-line-cancel" } }, "Cancel");
  const dialog = h("dialog", { class: "side-line-dialog", "aria-labelledby": "side-line-title", "aria-describedby": "side-line-text" },
    h("div", { class: "sheet" },
      h("h2", { id: "side-line-title" }, `Another way to play move ${at}`),
      h("p", { id: "side-line-text" }, `In the game, move ${at} was ${next}. You played ${move} for ${mover} instead. What should it be?`),
      choice("branch", "Start a side line here", `The game stays as it was; ${move} starts a side line beside move ${at}, saved with the game, and you can play it on.`, "side-line-branch"),
      why ? h("p", { class: "hint side-line-no-cut" }, `Taking back the later moves is not offered here: ${why}.`)
        : choice("cut", "Take back the later moves and play this", `${taken} (with their comments and side lines), and ${move} is played instead.`, "side-line-cut"),
      h("div", { class: "dialog-buttons" }, cancel)));
  let answer = null;
  cancel.addEventListener("click", () => dialog.close());
  return askInDialog(dialog, () => answer, dialog.querySelector("button[value=branch]"));
}

/** The dialog that writes the comment of the position shown: resolves the
 * text (maybe "", which removes it), or null if the player cancelled. */
export function commentDialog({ where, text, limit }) {
  const box = h("textarea", { id: "comment-text", name: "comment", rows: "4", maxlength: String(limit), "aria-describedby": "comment-help" });
  box.value = text;
  const cancel = h("button", { type: "button", class: "secondary", value: "cancel" }, "Cancel");
  const save = h("button", { type: "button", value: "save", dataset: { key: "save-comment" } }, "Save comment");
  const dialog = h("dialog", { class: "comment-dialog", "aria-labelledby": "comment-title" },
    h("div", { class: "sheet" },
      h("h2", { id: "comment-title" }, `Comment ${where}`),
      h("label", { for: "comment-text" }, "Your comment (plain text; leave it empty to remove it)"),
      box,
      h("p", { id: "comment-help", class: "hint" }, `At most ${limit.toLocaleString("en")} characters. It travels in the game's link and its embed.`),
      h("div", { class: "dialog-buttons" }, cancel, save)));
  let answer = null;
  cancel.addEventListener("click", () => dialog.close());
  save.addEventListener("click", () => { answer = box.value; dialog.close(); });
  return askInDialog(dialog, () => answer, box);
}

/** Move i (0-based) of a view in words with its mover: "Ann: x at c4". */
export function moveInWords(view, i) {
  const move = view.moves?.[i];
  return move ? `${seatName(view, move.seat)}: ${move.words}` : view.history[i];
}

/** The banner over the board of a past position. aside: the page's word on
 * it and a way on ({words, label, key, onClick}: an older link's), or null. */
export function replayBanner({ ply, plies, move, line, hint = null, aside = null }, onExit) {
  // (not a live region: the game view's #announce says each step, with its comment, once)
  return h("div", { class: "replay-banner" },
    // (an older link's own words say where it stands, once: aside.words)
    h("div", { class: "replay-words" }, aside ? h("p", { class: "replay-aside" }, aside.words) : h("p", {}, line ? `Replaying a side line: instead of move ${line.from + 1}, move ${line.n} of ${line.length}${move != null ? ` (${move})` : ""}.`
      : ply === 0 ? `Replaying: the start of the game (of ${plies} ${plies === 1 ? "move" : "moves"}).`
      : `Replaying: the game after move ${ply} of ${plies}${move != null ? ` (${move})` : ""}.`),
    // (a div: the banner's one paragraph is its line, as before side lines)
    // (hint: words, or an offer to play a side line here, {words, label, key, onClick}: sidelines.js)
    hint ? h("div", { class: "replay-hint" }, typeof hint === "string" ? hint
      : [hint.words, " ", h("button", { type: "button", class: "secondary side-play-here", dataset: { key: hint.key }, onclick: hint.onClick }, hint.label)]) : null),
    h("button", { type: "button", class: "exit-replay", dataset: { key: "exit-replay" }, onclick: onExit }, aside ? "Go to the game as it stands" : "Back to the game"),
    aside ? h("button", { type: "button", class: "secondary", dataset: { key: aside.key }, onclick: aside.onClick }, aside.label) : null);
}

export function winnersInWords(view) {
  const names = view.winners.map((seat) => seatName(view, seat));
  if (names.length === 0) return "Nobody wins.";
  if (names.length === 1) return `${names[0]} wins!`;
  return `${listInWords(names)} share the win.`;
}

/** The end-of-game panel: winners in words, final scores, what next. */
export function summaryPanel(view, { onPlayAgain }) {
  return h("section", { id: "summary", class: "end-summary", "aria-labelledby": "summary-title" },
    h("h2", { id: "summary-title", tabindex: "-1" }, "Game over"),
    // who won, and beside it why the game ended, in the engine's words
    h("p", { class: "winners" }, winnersInWords(view),
      view.end_reason ? h("span", { class: "end-reason" }, ` ${view.end_reason[0].toUpperCase()}${view.end_reason.slice(1)}.`) : null),
    h("table", { class: "final-scores" },
      h("caption", {}, "Final scores"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col", class: "num" }, "Score"))),
      h("tbody", {}, view.seats.map((_, seat) => {
        const won = view.winners.includes(seat);
        return h("tr", { class: won ? "winner" : null },
          h("th", { scope: "row" },
            h("span", { class: "seat-mark", dataset: { seat }, "aria-hidden": "true" }, String(seat + 1)), " ",
            seatName(view, seat), won ? h("span", { class: "badge" }, " winner") : null),
          h("td", {}, view.standing?.[seat] ?? String(view.scores[seat] ?? 0)));
      }))),
    h("div", { class: "summary-buttons" },
      h("button", { type: "button", class: "play-again", dataset: { key: "play-again" }, onclick: onPlayAgain }, "Play again"),
      h("a", { href: "#", class: "button secondary" }, "All games")));
}
